"""boardcore.stats: the Wilson interval, shares that add up, the summary table."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardcore
from boardcore.stats import Z95, Histogram, shares, spread, summarize, wilson
from tests.conftest import player_counts


@pytest.mark.parametrize(("k", "n", "low", "high"), [
    # Reference values: Wilson (1927) / Newcombe (1998), Table I, 95 %.
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
    (29, 29, 0.8830, 1.0),
])
def test_wilson_matches_published_values(k: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson(k, n)
    assert (round(lo, 4), round(hi, 4)) == (low, high)


@given(st.integers(1, 10**9).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_holds_the_rate_inside_zero_one(case: tuple[int, int]) -> None:
    k, n = case
    lo, hi = wilson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0
    # wider at 99 % than at 95 %
    lo99, hi99 = wilson(k, n, z=2.5758293035489)
    assert lo99 <= lo + 1e-15 and hi99 >= hi - 1e-15


def test_wilson_refuses_impossible_counts() -> None:
    for k, n in [(1, 0), (-1, 5), (6, 5)]:
        with pytest.raises(ValueError):
            wilson(k, n)
    assert math.isclose(Z95, 1.959963984540054)


@given(st.lists(st.integers(0, 10**12), min_size=1, max_size=12).filter(lambda c: sum(c) > 0),
       st.integers(0, 4))
def test_shares_always_add_up(counts: list[int], decimals: int) -> None:
    got = shares(counts, decimals)
    unit = 10**decimals
    assert sum(round(p * unit) for p in got) == 100 * unit
    total = sum(counts)
    for count, pct in zip(counts, got, strict=True):
        assert abs(pct - 100 * count / total) < 1 / unit + 1e-9


def test_shares_refuses_nothing_to_share() -> None:
    for counts in ([], [0, 0], [3, -1]):
        with pytest.raises(ValueError):
            shares(counts)


def test_spread() -> None:
    s = spread(np.arange(1, 101, dtype=np.int64))
    assert (s.mean, s.min, s.median, s.max) == (50.5, 1, 50.5, 100)
    assert (s.p10, s.p90) == pytest.approx((10.9, 90.1))
    assert s.std == pytest.approx(np.arange(1, 101).std())
    with pytest.raises(ValueError, match="at least one value"):
        spread(np.zeros(0, dtype=np.int64))


@settings(deadline=None)
@given(st.lists(st.integers(-10**6, 10**6), min_size=1, max_size=200))
def test_a_histogram_gives_numpys_figures_exactly(values: list[int]) -> None:
    column = np.array(values, dtype=np.int64)
    h = Histogram.of(column)
    assert h.total == len(values) and (h.min, h.max) == (min(values), max(values))
    assert h.sum == sum(values) and h.sum_squares == sum(v * v for v in values)
    assert h.counts[0] > 0 and h.counts[-1] > 0
    assert [h.value_at(r) for r in range(len(values))] == sorted(values)
    for q in (0, 10, 50, 90, 100, 33.3):
        # numpy's default method on the same column; ours is the exact value, rounded once
        assert h.percentile(q) == pytest.approx(np.percentile(column, q), rel=1e-12, abs=1e-9)
    s = spread(h)
    assert s == spread(column) and s.mean == pytest.approx(column.mean())
    assert Histogram.from_dict(h.to_dict()) == h
    assert s.std == pytest.approx(column.std(), rel=1e-9, abs=1e-9)


def test_histograms_refuse_nonsense() -> None:
    h = Histogram.of(np.array([2, 2, 5]))
    for bad in (-1, 3):
        with pytest.raises(ValueError, match=r"rank must be in 0\.\.2"):
            h.value_at(bad)
    with pytest.raises(ValueError, match=r"q must be in 0\.\.100"):
        h.percentile(101)
    for doc in ({"values": [2, 1], "counts": [1, 1]}, {"values": [1], "counts": [0]},
                {"values": [1, 1], "counts": [1, 1]}, {"values": [1], "counts": []}):
        with pytest.raises(ValueError, match="must ascend"):
            Histogram.from_dict(doc)
    assert Histogram.of(np.zeros(0, dtype=np.int64)).total == 0
    assert h != Histogram.of(np.array([2, 5])) and h != "h"


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_summary_agrees_with_the_arrays(name: str) -> None:
    players = player_counts(name)[-1]
    game = boardcore.make(name, players=players)
    result = boardcore.simulate(game, 2000, seed=11)
    s = summarize(result)
    per_game = result.winners.sum(axis=1)
    assert (s.game, s.players, s.seed, s.games) == (name, players, 11, 2000)
    assert s.won_alone == int((per_game == 1).sum())
    assert s.shared_games == int((per_game > 1).sum())
    assert s.won_alone + s.shared_games + s.no_winner == 2000
    assert sum(seat.wins for seat in s.seats) == 2000 + s.extra_winners - s.no_winner
    for seat in s.seats:
        column = result.winners[:, seat.seat]
        assert seat.wins == int(column.sum()) and seat.win_rate == column.mean()
        assert (seat.ci_low, seat.ci_high) == wilson(seat.wins, 2000)
        assert seat.alone == int((column & (per_game == 1)).sum())
        assert seat.score.mean == pytest.approx(result.scores[:, seat.seat].mean())
    if "end" in result.stats:
        assert [e.label for e in s.ends] == list(game.end_reasons)
        assert sum(e.games for e in s.ends) == 2000
        assert all(len(e.meaning) > 15 for e in s.ends)
    else:
        assert s.ends == ()
    assert set(s.stats) == set(game.stat_names) - {"end"} == set(s.stat_meanings)
    assert s.lengths.min == result.lengths.min()
    table = s.table()
    assert [row["seat"] for row in table] == list(range(players))
    assert json.loads(json.dumps(s.to_dict())) == s.to_dict()
