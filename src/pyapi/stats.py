"""Numbers for analysts: the Wilson interval, shares that add up, and the summary table.

``summarize(result)`` turns a ``SimulationResult`` into the figures that
``boardcore simulate`` prints (and writes with ``--json``), as plain typed values:

>>> import boardcore
>>> from boardcore.stats import summarize
>>> result = boardcore.simulate(boardcore.make("fool", players=4), 1000, seed=1)
>>> s = summarize(result)
>>> s.won_alone + s.shared_games + s.no_winner == s.games == 1000
True
>>> [seat.wins for seat in s.seats] == result.winners.sum(axis=0).tolist()
True
>>> sum(end.games for end in s.ends)
1000
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from boardcore._words import describe
from boardcore.errors import ConfigurationError
from boardcore.values import options_to_json

if TYPE_CHECKING:
    from boardcore.simulate import SimulationResult, SimulationSummary

__all__ = [
    "Z95",
    "EndSummary",
    "Histogram",
    "SeatSummary",
    "Spread",
    "Summary",
    "shares",
    "spread",
    "summarize",
    "wilson",
]

#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Return the Wilson score interval of a proportion (95 % by default).

    Unlike the normal approximation it stays inside ``[0, 1]`` and is sound for rates
    near 0 or 1 and for small samples.

    Args:
        successes: how many trials succeeded, ``0..trials``.
        trials: how many trials, ``>= 1``.
        z: the normal quantile of the confidence level (``Z95`` for 95 %).

    Returns:
        ``(low, high)``, the interval's bounds.

    Raises:
        ConfigurationError: ``trials < 1`` or ``successes`` outside ``0..trials``.

    >>> low, high = wilson(50, 100)
    >>> round(low, 4), round(high, 4)
    (0.4038, 0.5962)
    >>> wilson(0, 10)[0]
    0.0
    >>> wilson(3, 0)
    Traceback (most recent call last):
    ...
    boardcore.errors.ConfigurationError: trials must be at least 1, not 0
    """
    if trials < 1:
        raise ConfigurationError(f"trials must be at least 1, not {trials}")
    if not 0 <= successes <= trials:
        raise ConfigurationError(f"successes must be in 0..{trials}, not {successes}")
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # Exact at the ends (0 and 1 successes are bounds), never past p from rounding.
    low = 0.0 if successes == 0 else min(p, max(0.0, centre - half))
    high = 1.0 if successes == trials else max(p, min(1.0, centre + half))
    return low, high


def shares(counts: Sequence[int], decimals: int = 2) -> tuple[float, ...]:
    """Return ``counts`` as percentages of their total, rounded so that they add up to 100.

    Rounding each share alone can give 99.99 % or 100.01 %; this rounds by the largest
    remainder, so the printed column always adds up exactly.

    Args:
        counts: non-negative counts (at least one positive).
        decimals: decimals kept in each percentage.

    >>> shares([1, 1, 1])
    (33.34, 33.33, 33.33)
    >>> sum(shares([1, 1, 1])) == 100
    True
    >>> shares([0, 5])
    (0.0, 100.0)
    """
    total = sum(counts)
    if total <= 0 or any(c < 0 for c in counts):
        raise ConfigurationError(f"counts must be non-negative with a positive total, not {counts}")
    unit = 10**decimals
    exact = [c * 100 * unit / total for c in counts]
    floors = [math.floor(x) for x in exact]
    left = 100 * unit - sum(floors)
    order = sorted(range(len(counts)), key=lambda i: (floors[i] - exact[i], i))
    for i in order[:left]:
        floors[i] += 1
    return tuple(f / unit for f in floors)


@dataclass(frozen=True, eq=False)
class Histogram:
    """An exact histogram of one per-game integer: ``counts[i]`` games had ``low + i``.

    Dense from the least value seen to the greatest (no zero count at either end), so
    its size is the range of the values, never the number of games; ``Histogram.of``
    makes one from a column, and ``simulate(..., keep="summary")`` keeps one per figure
    in compiled code.  Every figure below is exact: sums are Python ints, percentiles
    interpolate between the exact order statistics.

    >>> h = Histogram.of(np.array([3, 1, 3, -2]))
    >>> h.low, h.counts.tolist(), h.total, h.sum, h.sum_squares
    (-2, [1, 0, 0, 1, 0, 2], 4, 5, 23)
    >>> h.percentile(50), h.to_dict()
    (2.0, {'values': [-2, 1, 3], 'counts': [1, 1, 2]})
    """

    low: int
    counts: npt.NDArray[np.int64]

    @classmethod
    def of(cls, values: npt.NDArray[np.integer[Any]]) -> Histogram:
        """Return the histogram of an integer column (empty: no counts)."""
        column = np.asarray(values, dtype=np.int64).ravel()
        if column.size == 0:
            return cls(0, np.zeros(0, dtype=np.int64))
        low = int(column.min())
        return cls(low, np.bincount(column - low).astype(np.int64))

    @classmethod
    def from_dict(cls, doc: Mapping[str, Sequence[int]]) -> Histogram:
        """Return the histogram ``to_dict`` wrote (what ``--json`` holds).

        >>> h = Histogram.of(np.array([5, 7, 7]))
        >>> Histogram.from_dict(h.to_dict()) == h
        True
        """
        values, counts = list(doc["values"]), list(doc["counts"])
        if len(values) != len(counts) or any(c <= 0 for c in counts) or values != sorted(
                set(values)):
            raise ConfigurationError("a histogram's values must ascend, each with a positive "
                                     "count")
        if not values:
            return cls(0, np.zeros(0, dtype=np.int64))
        dense = np.zeros(values[-1] - values[0] + 1, dtype=np.int64)
        dense[np.asarray(values) - values[0]] = counts
        return cls(values[0], dense)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Histogram):
            return NotImplemented
        return self.low == other.low and np.array_equal(self.counts, other.counts)

    __hash__ = None  # type: ignore[assignment]

    @property
    def total(self) -> int:
        """How many values (games) are counted."""
        return int(self.counts.sum())

    @property
    def min(self) -> int:
        """The least value counted."""
        return self.low

    @property
    def max(self) -> int:
        """The greatest value counted."""
        return self.low + len(self.counts) - 1

    def _pairs(self) -> list[tuple[int, int]]:
        """``(value, count)`` of every value counted, ascending (as Python ints)."""
        where = np.flatnonzero(self.counts)
        return list(zip((where + self.low).tolist(), self.counts[where].tolist(), strict=True))

    @property
    def sum(self) -> int:
        """The exact sum of the values."""
        return sum(v * c for v, c in self._pairs())

    @property
    def sum_squares(self) -> int:
        """The exact sum of the squared values."""
        return sum(v * v * c for v, c in self._pairs())

    def value_at(self, rank: int) -> int:
        """Return the ``rank``-th least value, from 0 (the sorted column's item ``rank``)."""
        if not 0 <= rank < self.total:
            raise ConfigurationError(f"rank must be in 0..{self.total - 1}, not {rank}")
        return self.low + int(np.searchsorted(np.cumsum(self.counts), rank, side="right"))

    def percentile(self, q: float) -> float:
        """Return the ``q``-th percentile, correctly rounded from the exact values.

        It interpolates linearly between the two nearest values (numpy's default method).
        """
        if not 0 <= q <= 100:
            raise ConfigurationError(f"q must be in 0..100, not {q}")
        at = Fraction(q) / 100 * (self.total - 1)
        below = math.floor(at)
        a = self.value_at(below)
        b = self.value_at(min(below + 1, self.total - 1))
        return float(a + (b - a) * (at - below))

    def to_dict(self) -> dict[str, list[int]]:
        """Return the values counted, ascending, and their counts (JSON-safe)."""
        pairs = self._pairs()
        return {"values": [v for v, _ in pairs], "counts": [c for _, c in pairs]}


@dataclass(frozen=True)
class Spread:
    """How one per-game number is spread: its mean, extremes, deciles and deviation.

    >>> spread(np.array([1, 2, 3, 4, 100]))
    Spread(mean=22.0, min=1, p10=1.4, median=3.0, p90=61.6..., max=100, std=39.0...)
    """

    mean: float
    min: int
    p10: float
    median: float
    p90: float
    max: int
    std: float


def spread(values: npt.NDArray[np.int64] | Histogram) -> Spread:
    """Return the ``Spread`` of a non-empty integer column or histogram.

    Exact from the counts: the mean and the (population) standard deviation from the
    integer sums, the percentiles from the order statistics, so a column and its
    histogram give the same figures.
    """
    h = values if isinstance(values, Histogram) else Histogram.of(values)
    n = h.total
    if n == 0:
        raise ConfigurationError("a spread needs at least one value")
    total = h.sum
    variance = Fraction(n * h.sum_squares - total * total, n * n)
    return Spread(
        mean=float(Fraction(total, n)), min=h.min, p10=h.percentile(10),
        median=h.percentile(50), p90=h.percentile(90), max=h.max,
        std=math.sqrt(variance),
    )


@dataclass(frozen=True)
class SeatSummary:
    """One seat's row of the summary table.

    Attributes:
        seat: the seat, from 0.
        wins: games this seat won, alone or shared.
        alone: games this seat won alone.
        shared: games whose win this seat shared with others.
        win_rate: ``wins / games``.
        ci_low: the lower bound of the win rate's 95 % Wilson interval.
        ci_high: its upper bound.
        score: the spread of this seat's final scores.
    """

    seat: int
    wins: int
    alone: int
    shared: int
    win_rate: float
    ci_low: float
    ci_high: float
    score: Spread


@dataclass(frozen=True)
class EndSummary:
    """How many games ended one way.

    Attributes:
        label: the end reason (one of ``game.end_reasons``).
        meaning: what it means, in words.
        games: how many games ended so.
        share: ``games / total``.
    """

    label: str
    meaning: str
    games: int
    share: float


@dataclass(frozen=True)
class Summary:
    """Every figure of a simulation's summary (``boardcore simulate`` prints these).

    Attributes:
        game: the game's name.
        players: the number of seats.
        options: the game's options, every default filled in.
        rules_version: the game's rules version.
        seed: the batch seed.
        games: games played.
        seats: one row per seat.
        won_alone: games won by one seat.
        shared_games: games with several winners (a shared win).
        no_winner: games without a winner.
        extra_winners: winners beyond the first in shared games; the seats' win rates
            add up to ``(games + extra_winners) / games``.
        ends: how games ended, one row per end reason (empty if the game has none).
        stats: the spread of every other per-game statistic, by name.
        stat_meanings: what each of ``stats`` counts, in words.
        lengths: the spread of game lengths, in actions.
        seconds: wall time spent playing.
        partial: the run was interrupted: ``games`` counts the games finished, fewer
            than ``requested``.
        requested: the games asked for.
        histograms: the exact histogram of every per-game number: ``length``,
            ``score_<seat>`` and each of the game's statistics (``end`` as codes, whose
            labels are ``ends``' in order).
    """

    game: str
    players: int
    options: Mapping[str, object]
    rules_version: int
    seed: int
    games: int
    seats: tuple[SeatSummary, ...]
    won_alone: int
    shared_games: int
    no_winner: int
    extra_winners: int
    ends: tuple[EndSummary, ...]
    stats: Mapping[str, Spread]
    stat_meanings: Mapping[str, str]
    lengths: Spread
    seconds: float
    partial: bool
    requested: int
    histograms: Mapping[str, Histogram]

    def table(self) -> list[dict[str, object]]:
        """Return the seat table as one flat dict per seat (``pandas.DataFrame(rows)``).

        >>> import boardcore
        >>> result = boardcore.simulate(boardcore.make("just4fun", players=2), 200, seed=1)
        >>> sorted(summarize(result).table()[0])[:5]
        ['alone', 'ci_high', 'ci_low', 'score_max', 'score_mean']
        """
        rows = []
        for seat in self.seats:
            row = {k: v for k, v in asdict(seat).items() if k != "score"}
            row.update({f"score_{k}": v for k, v in asdict(seat.score).items()})
            rows.append(row)
        return rows

    def to_dict(self) -> dict[str, object]:
        """Return the summary as a JSON-safe dict (what ``--json`` writes).

        >>> import boardcore, json
        >>> result = boardcore.simulate(boardcore.make("fool", players=4), 100, seed=1)
        >>> doc = summarize(result).to_dict()
        >>> doc["game"], doc["games"], [e["label"] for e in doc["ends"]]
        ('fool', 100, ['minus_80', 'six_plus_10', 'both'])
        >>> json.loads(json.dumps(doc)) == doc
        True
        """
        doc = asdict(replace(self, histograms={}))
        doc["histograms"] = {k: h.to_dict() for k, h in self.histograms.items()}
        doc["options"] = dict(self.options)
        doc["stats"] = {k: asdict(v) for k, v in self.stats.items()}
        doc["stat_meanings"] = dict(self.stat_meanings)
        doc["seats"] = [asdict(s) for s in self.seats]
        doc["ends"] = [asdict(e) for e in self.ends]
        return doc


def summarize(result: SimulationResult | SimulationSummary) -> Summary:
    """Return the ``Summary`` of a simulation: per-seat wins with intervals, ends, spreads.

    The figures come from the exact counts, so the per-game rows of a run
    (``SimulationResult``) and its streaming summary (``keep="summary"``) give the same
    ``Summary``, number for number (``seconds`` aside).

    Args:
        result: what ``boardcore.simulate`` returned, with either ``keep``.

    Raises:
        ConfigurationError: no game was played (an interrupted run that finished none).
    """
    from boardcore.simulate import SimulationResult, SimulationSummary

    counts = SimulationSummary.from_result(result) if isinstance(result, SimulationResult) \
        else result
    game = counts.game
    n = counts.games
    if n < 1:
        raise ConfigurationError("no game was played: there is nothing to summarize")
    by_winners = counts.by_winners
    seats = []
    for seat in range(game.num_players):
        wins, shared = counts.wins[seat], counts.shared[seat]
        lo, hi = wilson(wins, n)
        seats.append(SeatSummary(
            seat=seat, wins=wins, alone=wins - shared, shared=shared, win_rate=wins / n,
            ci_low=lo, ci_high=hi, score=spread(counts.scores[seat]),
        ))
    ends: list[EndSummary] = []
    if "end" in counts.stats:
        end = counts.stats["end"]
        codes = [int(c) for c in end.counts] if end.low == 0 else []
        if end.low < 0 or len(codes) > len(game.end_reasons):
            raise ConfigurationError(f"end codes outside 0..{len(game.end_reasons) - 1}")
        codes += [0] * (len(game.end_reasons) - len(codes))
        ends = [
            EndSummary(label=label, meaning=describe(game, label),
                       games=codes[k], share=codes[k] / n)
            for k, label in enumerate(game.end_reasons)
        ]
    others = {k: v for k, v in counts.stats.items() if k != "end"}
    histograms = {"length": counts.lengths}
    histograms.update({f"score_{p}": h for p, h in enumerate(counts.scores)})
    histograms.update(counts.stats)
    return Summary(
        game=game.name,
        players=game.num_players,
        options=options_to_json(game.options),
        rules_version=game.rules_version,
        seed=counts.seed,
        games=n,
        seats=tuple(seats),
        won_alone=by_winners[1],
        shared_games=sum(by_winners[2:]),
        no_winner=by_winners[0],
        extra_winners=sum((k - 1) * g for k, g in enumerate(by_winners) if k > 1),
        ends=tuple(ends),
        stats={k: spread(v) for k, v in others.items()},
        stat_meanings={k: describe(game, k) for k in others},
        lengths=spread(counts.lengths),
        seconds=counts.seconds,
        partial=counts.partial,
        requested=counts.requested,
        histograms=histograms,
    )
