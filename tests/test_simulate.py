"""boardcore.simulate: seeded batches in compiled code, independent of workers."""

from __future__ import annotations

import io
import sys

import numpy as np
import pytest

import boardcore
from tests.conftest import player_counts


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_shapes_and_dtypes(name: str) -> None:
    for players in player_counts(name):
        game = boardcore.make(name, players=players)
        result = boardcore.simulate(game, 50, seed=3)
        assert result.games == 50 and result.game == game and result.seed == 3
        assert result.scores.shape == (50, players) and result.scores.dtype == np.int64
        assert result.winners.shape == (50, players) and result.winners.dtype == np.bool_
        assert result.lengths.shape == (50,) and (result.lengths > 0).all()
        assert result.winners.any(axis=1).all(), "every game has a winner"
        assert set(result.stats) == set(game.stat_names)
        if "end" in result.stats:
            ends = result.stats["end"]
            assert ((ends >= 0) & (ends < len(game.end_reasons))).all()


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_same_seed_same_result_whatever_the_workers(name: str) -> None:
    game = boardcore.make(name, players=player_counts(name)[-1])
    n = 9000  # more than two chunks, so the workers really split the batch
    one = boardcore.simulate(game, n, seed=42)
    two = boardcore.simulate(game, n, seed=42, workers=2)
    three = boardcore.simulate(game, n, seed=42, workers=3)
    for other in (two, three):
        assert np.array_equal(one.scores, other.scores)
        assert np.array_equal(one.winners, other.winners)
        assert np.array_equal(one.lengths, other.lengths)
        for key in one.stats:
            assert np.array_equal(one.stats[key], other.stats[key])
    different = boardcore.simulate(game, n, seed=43)
    assert not np.array_equal(one.scores, different.scores)


def test_progress_bar_and_chunk_callback() -> None:
    game = boardcore.make("just4fun", players=2)
    out = io.StringIO()
    seen: list[int] = []
    boardcore.simulate(game, 9000, seed=1, progress=out, on_chunk=seen.append)
    assert seen == [4096, 8192, 9000]
    text = out.getvalue()
    assert "9000/9000 games" in text and text.endswith("\n")


def test_seed_none_draws_a_seed() -> None:
    game = boardcore.make("just4fun", players=2)
    result = boardcore.simulate(game, 2, seed=None)
    assert 0 <= result.seed < 2**64
    again = boardcore.simulate(game, 2, seed=result.seed)
    assert np.array_equal(result.lengths, again.lengths)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_redraws_only_on_a_terminal() -> None:
    game = boardcore.make("just4fun", players=2)
    plain, tty = io.StringIO(), _Terminal()
    boardcore.simulate(game, 9000, seed=1, progress=plain)
    boardcore.simulate(game, 9000, seed=1, progress=tty)
    assert "\r" not in plain.getvalue() and plain.getvalue().count("\n") == 1
    frames = tty.getvalue()
    assert frames.startswith("\r[") and frames.endswith("\n")
    assert "\r[##############################] 9000/9000 games" in frames


def test_progress_must_be_a_bool_or_a_stream() -> None:
    game = boardcore.make("just4fun", players=2)
    for bad in ("yes", 1, None, object()):
        with pytest.raises(TypeError, match="progress must be a bool or a text stream"):
            boardcore.simulate(game, 2, seed=1, progress=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("workers", [1, 3])
def test_an_interrupt_stops_the_batch(workers: int) -> None:
    game = boardcore.make("fool", players=8)
    calls: list[int] = []
    out = io.StringIO()

    def stop(done: int) -> None:
        calls.append(done)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        boardcore.simulate(game, 10_000_000, seed=1, workers=workers, on_chunk=stop,
                           progress=out)
    assert len(calls) == 1 and calls[0] <= 4096
    assert out.getvalue().startswith(f"{calls[0]}/10000000 games")  # the bar was closed


def test_to_pandas() -> None:
    pd = pytest.importorskip("pandas")
    game = boardcore.make("fool", players=5)
    result = boardcore.simulate(game, 300, seed=7)
    df = result.to_pandas()
    assert isinstance(df, pd.DataFrame) and df.index.name == "game"
    assert list(df.index) == list(range(300))
    assert list(df.columns) == [*(f"score_{p}" for p in range(5)),
                                *(f"winner_{p}" for p in range(5)), "length", "end", "rounds"]
    assert np.array_equal(df[[f"score_{p}" for p in range(5)]].to_numpy(), result.scores)
    assert np.array_equal(df[[f"winner_{p}" for p in range(5)]].to_numpy(), result.winners)
    assert df["winner_0"].dtype == bool
    assert list(df["end"].cat.categories) == list(game.end_reasons)
    assert np.array_equal(df["end"].cat.codes.to_numpy(), result.stats["end"])
    assert np.array_equal(df["rounds"].to_numpy(), result.stats["rounds"])
    assert df.attrs == {"game": "fool", "players": 5, "options": dict(game.options), "seed": 7}
    three = boardcore.simulate(boardcore.make("three_or_more", players=2), 10, seed=1)
    assert list(three.to_pandas().columns)[-2:] == ["lines", "best_move"]


def test_to_pandas_without_pandas_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)
    result = boardcore.simulate(boardcore.make("fool", players=4), 3, seed=1)
    with pytest.raises(ImportError, match=r"pip install 'boardcore\[pandas\]'"):
        result.to_pandas()
