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
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from boardcore._words import describe
from boardcore.errors import ConfigurationError
from boardcore.values import options_to_json

if TYPE_CHECKING:
    from boardcore.simulate import SimulationResult

__all__ = [
    "Z95",
    "EndSummary",
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


@dataclass(frozen=True)
class Spread:
    """How one per-game number is spread: its mean, extremes and deciles.

    >>> spread(np.array([1, 2, 3, 4, 100]))
    Spread(mean=22.0, min=1, p10=1.4, median=3.0, p90=61.6..., max=100)
    """

    mean: float
    min: int
    p10: float
    median: float
    p90: float
    max: int


def spread(values: npt.NDArray[np.int64]) -> Spread:
    """Return the ``Spread`` of a non-empty integer column."""
    p10, median, p90 = (float(q) for q in np.percentile(values, [10, 50, 90]))
    return Spread(
        mean=float(values.mean()), min=int(values.min()), p10=p10, median=median,
        p90=p90, max=int(values.max()),
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
        doc = asdict(self)
        doc["options"] = dict(self.options)
        doc["stats"] = {k: asdict(v) for k, v in self.stats.items()}
        doc["stat_meanings"] = dict(self.stat_meanings)
        doc["seats"] = [asdict(s) for s in self.seats]
        doc["ends"] = [asdict(e) for e in self.ends]
        return doc


def summarize(result: SimulationResult) -> Summary:
    """Return the ``Summary`` of a simulation: per-seat wins with intervals, ends, spreads.

    Args:
        result: what ``boardcore.simulate`` returned.
    """
    game = result.game
    n = result.games
    winners = result.winners
    per_game = winners.sum(axis=1)
    shared_rows = per_game > 1
    seats = []
    for seat in range(game.num_players):
        column = winners[:, seat]
        wins = int(column.sum())
        shared = int((column & shared_rows).sum())
        lo, hi = wilson(wins, n)
        seats.append(SeatSummary(
            seat=seat, wins=wins, alone=wins - shared, shared=shared, win_rate=wins / n,
            ci_low=lo, ci_high=hi, score=spread(result.scores[:, seat]),
        ))
    ends: list[EndSummary] = []
    if "end" in result.stats:
        codes = np.bincount(result.stats["end"], minlength=len(game.end_reasons))
        ends = [
            EndSummary(label=label, meaning=describe(game, label),
                       games=int(codes[k]), share=int(codes[k]) / n)
            for k, label in enumerate(game.end_reasons)
        ]
    others = {k: v for k, v in result.stats.items() if k != "end"}
    return Summary(
        game=game.name,
        players=game.num_players,
        options=options_to_json(game.options),
        rules_version=game.rules_version,
        seed=result.seed,
        games=n,
        seats=tuple(seats),
        won_alone=int((per_game == 1).sum()),
        shared_games=int(shared_rows.sum()),
        no_winner=int((per_game == 0).sum()),
        extra_winners=int(per_game.sum()) - int((per_game > 0).sum()),
        ends=tuple(ends),
        stats={k: spread(v) for k, v in others.items()},
        stat_meanings={k: describe(game, k) for k in others},
        lengths=spread(result.lengths),
        seconds=result.seconds,
    )

