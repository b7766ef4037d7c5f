"""The streaming summary: ``simulate(keep="summary")`` and its compiled ``Tally``.

Its one promise: the counts of a run equal, number for number, the counts of the rows of
the same seed -- for every game and player count, any number of workers, any chunk size
(the Ray backend: ``tests/test_ray.py``) -- in memory that does not grow with the number
of games.
"""

from __future__ import annotations

import pickle
import sys
import threading
from typing import Any

import numpy as np
import pytest

import boardcore
from boardcore._engine._summary import MAX_BINS, MAX_STATS, Tally, _restore
from boardcore.errors import ConfigurationError, InvalidStateError
from boardcore.simulate import SimulationInterrupted, SimulationSummary
from boardcore.stats import summarize
from tests.conftest import player_counts

simulate_module = sys.modules["boardcore.simulate"]
CASES = [(name, players) for name in boardcore.GAMES for players in player_counts(name)]


def _without_seconds(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k != "seconds"}


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{n}-{p}" for n, p in CASES])
def test_the_summary_is_the_summary_of_the_rows(name: str, players: int,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    game = boardcore.make(name, players=players)
    games = 3 * 4096 + 123
    rows = boardcore.simulate(game, games, seed=5)
    expected = SimulationSummary.from_result(rows)
    figures = _without_seconds(summarize(rows).to_dict())
    for workers, chunk in [(1, 4096), (3, 4096), (2, 1000), (1, 1)]:
        monkeypatch.setattr(simulate_module, "_CHUNK", chunk)
        if chunk == 1:      # a chunk a game: few games, the first of the rows
            few = boardcore.simulate(game, 40, seed=5, workers=workers, keep="summary")
            assert few == SimulationSummary.from_result(boardcore.simulate(game, 40, seed=5))
            continue
        got = boardcore.simulate(game, games, seed=5, workers=workers, keep="summary")
        assert got == expected, (workers, chunk)
        assert (got.games, got.requested, got.partial) == (games, games, False)
        assert _without_seconds(summarize(got).to_dict()) == figures, (workers, chunk)
    # Every figure is really counted: equal counts are not equal by accident.
    other = boardcore.simulate(game, games, seed=6, keep="summary")
    assert other != expected


def test_the_summary_holds_every_count() -> None:
    game = boardcore.make("fool", players=4)
    rows = boardcore.simulate(game, 5000, seed=2)
    got = boardcore.simulate(game, 5000, seed=2, keep="summary")
    per_game = rows.winners.sum(axis=1)
    assert got.wins == tuple(rows.winners.sum(axis=0).tolist())
    assert got.shared == tuple((rows.winners & (per_game > 1)[:, None]).sum(axis=0).tolist())
    assert got.by_winners == tuple(np.bincount(per_game, minlength=5).tolist())
    assert got.score_sums == tuple(int(v) for v in rows.scores.sum(axis=0))
    assert got.score_squares == tuple(int(v) for v in (rows.scores**2).sum(axis=0))
    assert got.lengths.sum == int(rows.lengths.sum())
    assert got.scores[0].min < 0                    # Fool's scores go below zero
    for name in game.stat_names:
        values, counts = np.unique(rows.stats[name], return_counts=True)
        assert got.stats[name].to_dict() == {"values": values.tolist(),
                                             "counts": counts.tolist()}


def test_memory_does_not_grow_with_the_games() -> None:
    # The histograms are as wide as the values seen, whatever the number of games.
    game = boardcore.make("just4fun", players=2)
    small = Tally(2, 1)
    small.play(game._engine, 1, 0, 10_000)
    large = Tally(2, 1)
    large.play(game._engine, 1, 0, 400_000)
    widths = [[len(counts) for _, counts in t.counts()[4]] for t in (small, large)]
    # 40 times the games: the same ranges of values, give or take their rare extremes.
    assert sum(widths[1]) < 2000 and sum(widths[1]) < 1.5 * sum(widths[0])
    assert large.games == 400_000 and small.games == 10_000


@pytest.mark.parametrize("workers", [1, 3])
def test_an_interrupt_gives_the_summary_of_the_games_done(workers: int) -> None:
    game = boardcore.make("rummikub_junior", players=3)
    calls: list[int] = []

    def stop(done: int) -> None:
        calls.append(done)
        if len(calls) == 2:
            raise KeyboardInterrupt

    with pytest.raises(SimulationInterrupted) as caught:
        boardcore.simulate(game, 10**9, seed=4, workers=workers, on_chunk=stop,
                           keep="summary")
    partial = caught.value.summary
    assert isinstance(caught.value, KeyboardInterrupt)
    assert partial.partial and partial.requested == 10**9 and partial.games == calls[-1]
    assert str(caught.value) == f"interrupted after {calls[-1]:,} of 1,000,000,000 games"
    if workers == 1:   # the first chunks, in order: the rows of the first games
        assert partial.games == 2 * 4096
        rows = boardcore.simulate(game, 2 * 4096, seed=4)
        assert SimulationSummary.from_result(rows) == \
            SimulationSummary(**{**partial.__dict__, "requested": 2 * 4096})
    assert summarize(partial).partial


def test_an_interrupt_before_any_game_has_nothing_to_summarize() -> None:
    game = boardcore.make("just4fun", players=2)
    counts = Tally(2, 1)
    empty = SimulationSummary._from_tally(game, 1, 10, counts, 0.0)
    assert empty.games == 0 and empty.partial
    with pytest.raises(ConfigurationError, match="no game was played"):
        summarize(empty)


def test_rows_that_cannot_fit_are_refused_naming_the_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 22.16: simulate(game, 10**15) raised a bare MemoryError.
    game = boardcore.make("just4fun", players=2)
    with pytest.raises(ConfigurationError, match=r"1,000,000,000,000,000 games needs about "
                                                 r"44.0 PB of memory, more than this machine"):
        boardcore.simulate(game, 10**15, seed=1)
    # Where the memory is unknown, the failed allocation says the same.
    monkeypatch.setattr(simulate_module, "_physical_memory", lambda: None)
    with pytest.raises(ConfigurationError, match=r"needs about 44.0 PB of memory; "
                                                 r"keep='summary' gives the exact summary"):
        boardcore.simulate(game, 10**15, seed=1)
    assert simulate_module.row_bytes(game) == 44
    monkeypatch.setattr(simulate_module, "_physical_memory", lambda: 44 * 1000)
    assert simulate_module.row_limit(game) == 1000
    with pytest.raises(ConfigurationError, match=r"at most 1,000 games keep their rows"):
        boardcore.simulate(game, 1001, seed=1)
    assert boardcore.simulate(game, 1000, seed=1).games == 1000
    assert boardcore.simulate(game, 10**6, seed=1, keep="summary").games == 10**6


def test_bad_keep_and_counts() -> None:
    game = boardcore.make("just4fun", players=2)
    for bad in ("all", "Rows", None, 1):
        with pytest.raises(ConfigurationError, match="keep must be 'rows' or 'summary'"):
            boardcore.simulate(game, 10, seed=1, keep=bad)  # type: ignore[call-overload]
    for games in (0, 2**63):
        with pytest.raises(ConfigurationError, match=r"games must be in 1..2\*\*63-1"):
            boardcore.simulate(game, games, seed=1, keep="summary")


# -- the compiled Tally -------------------------------------------------------------------


def _played(name: str, players: int, start: int, stop: int, seed: int = 1) -> Tally:
    game = boardcore.make(name, players=players)
    t = Tally(players, len(game.stat_names))
    t.play(game._engine, seed, start, stop)
    return t


def _same(a: Tally, b: Tally) -> bool:
    ca, cb = a.counts(), b.counts()
    return ca[:4] == cb[:4] and all(
        x == y and np.array_equal(p, q) for (x, p), (y, q) in zip(ca[4], cb[4], strict=True))


def test_parts_merge_into_the_whole() -> None:
    whole = _played("fool", 5, 0, 3000)
    parts = [_played("fool", 5, a, a + 1000) for a in (2000, 0, 1000)]
    total = Tally(5, 2)
    for part in parts:
        total.merge(part)
    assert _same(total, whole)
    stepwise = Tally(5, 2)
    stepwise.play(boardcore.make("fool", players=5)._engine, 1, 0, 1500)
    stepwise.play(boardcore.make("fool", players=5)._engine, 1, 1500, 3000)
    assert _same(stepwise, whole)
    twice = _played("fool", 5, 0, 3000)
    twice.merge(twice)
    assert twice.games == 6000 and twice.counts()[1] == tuple(2 * w for w in whole.counts()[1])


def test_a_pickled_tally_is_the_same_tally() -> None:
    t = _played("three_or_more", 4, 0, 2000)
    assert _same(pickle.loads(pickle.dumps(t)), t)
    empty = Tally(3, 0)
    again = pickle.loads(pickle.dumps(empty))
    assert again.games == 0 and again.counts()[4] == ((0, pytest.approx([])),) * 4


def test_one_tally_many_threads() -> None:
    game = boardcore.make("just4fun", players=3)
    shared = Tally(3, 1)
    alone = _played("just4fun", 3, 0, 8 * 2000)
    errors: list[BaseException] = []

    def play(k: int) -> None:
        try:
            for a in range(k * 2000, 8 * 2000, 4 * 2000):
                shared.play(game._engine, 1, a, a + 2000)
                shared.counts()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and _same(shared, alone)


def test_bad_arguments_are_refused() -> None:
    game = boardcore.make("just4fun", players=2)
    for players, n_stats in [(0, 1), (9, 1), (2, -1), (2, MAX_STATS + 1), (2**70, 1)]:
        with pytest.raises(ConfigurationError):
            Tally(players, n_stats)
    for players, n_stats in [(2.0, 1), (True, 1), ("2", 1), (2, None)]:
        with pytest.raises(TypeError, match="must be an integer"):
            Tally(players, n_stats)  # type: ignore[arg-type]
    t = Tally(2, 1)
    for seed, start, stop in [(-1, 0, 1), (2**64, 0, 1), (1, -1, 1), (1, 5, 4), (1, 0, 2**64)]:
        with pytest.raises(ConfigurationError):
            t.play(game._engine, seed, start, stop)
    with pytest.raises(TypeError):
        t.play(None, 1, 0, 1)  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError, match="2 seats and 1 statistics, not 4 and 2"):
        t.play(boardcore.make("fool", players=4)._engine, 1, 0, 1)
    with pytest.raises(ConfigurationError, match="different shapes"):
        t.merge(Tally(3, 1))
    with pytest.raises(TypeError):
        t.merge(None)  # type: ignore[arg-type]
    assert t.games == 0 and t.counts()[0] == 0          # nothing was counted
    raw = Tally.__new__(Tally)
    for call in (lambda: raw.games, raw.counts, lambda: raw.play(game._engine, 1, 0, 1),
                 lambda: t.merge(raw), lambda: raw.merge(t), lambda: pickle.dumps(raw)):
        with pytest.raises(TypeError, match="never set up"):
            call()


def _restored(**changes: Any) -> Tally:
    t = _played("just4fun", 2, 0, 50)
    args = dict(zip(["players", "n_stats", "games", "wins", "shared", "by_winners",
                     "figures"], t.__reduce__()[1], strict=True))
    args.update(changes)
    return _restore(**args)


def test_a_bad_pickle_is_refused() -> None:
    figures = _played("just4fun", 2, 0, 50).__reduce__()[1][6]
    bad = [
        {"games": -1}, {"games": 51}, {"games": 50.0}, {"wins": (0,)}, {"wins": (0, 51)},
        {"shared": (0, 1)}, {"by_winners": (0, 49, 0)}, {"figures": figures[:2]},
        {"figures": ((40, b"\x01"),) + figures[1:]},
        {"figures": ((40, np.array([49]).tobytes()),) + figures[1:]},
        {"figures": ((40, np.array([-1, 51]).tobytes()),) + figures[1:]},
        {"figures": ((2**62, figures[0][1]),) + figures[1:]},
        {"figures": ((40, bytes(8 * (MAX_BINS + 1))),) + figures[1:]},
        {"figures": [list(f) for f in figures]},
    ]
    for change in bad:
        with pytest.raises((InvalidStateError, ConfigurationError)):
            _restored(**change)
    assert _restored().games == 50


def test_a_histogram_wider_than_its_limit_is_refused_and_changes_nothing() -> None:
    def lengths_at(low: int) -> Tally:
        t = _played("just4fun", 2, 0, 50)
        figures = t.__reduce__()[1][6]
        return _restored(figures=((low, figures[0][1]),) + figures[1:])

    width = len(_played("just4fun", 2, 0, 50).counts()[4][0][1])
    total = lengths_at(-400_000)
    total.merge(lengths_at(400_000))                 # 800,000 values and more: one window
    before = total.counts()
    assert before[4][0][0] == -400_000 and len(before[4][0][1]) == 800_000 + width
    with pytest.raises(InvalidStateError, match="too wide for an exact histogram"):
        total.merge(lengths_at(MAX_BINS))
    after = total.counts()
    assert after[:4] == before[:4] and np.array_equal(after[4][0][1], before[4][0][1])
