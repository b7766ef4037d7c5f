"""Ladders: every agent meets every other, and all are rated on one Elo scale.

A ladder of a two-seat game plays every **pairing** of the agents; of a game of more
seats, every **table** of as many different agents as there are seats (every
combination, so every agent meets every other), or one table of all the agents, each
taking seats in turn, when there are no more agents than seats.  Each pairing or table
is an ``arena`` of ``games`` games with the seats rotated, seeded from the ladder's seed
(table ``t`` from ``derive_seed(seed, STREAM_LADDER_TABLE, t)``), so the ladder is the same for any
number of workers.  The results are rated by ``boardcore.ratings`` (Plackett–Luce on
each game's places, Bradley–Terry for two seats), with the bootstrap seeded by the
ladder's seed, and each agent's mean CPU time per decision is measured in the games.

>>> import boardcore
>>> game = boardcore.make("just4fun", players=2)
>>> ladder = boardcore.ladder(game, ["random", "greedy", "ismcts:30"], games=8, seed=1,
...                           resamples=100)
>>> ladder.tables
(('random', 'greedy'), ('random', 'ismcts:30'), ('greedy', 'ismcts:30'))
>>> [ladder.ratings.agents[i] for i in ladder.ratings.order()]
['ismcts:30', 'greedy', 'random']
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, SupportsIndex

import numpy as np
import numpy.typing as npt

from boardcore._engine._random import STREAM_LADDER_TABLE, derive_seed
from boardcore.agents import agent_from_string
from boardcore.arena import ArenaResult, arena
from boardcore.errors import ConfigurationError
from boardcore.ratings import Ratings, check_resamples, ratings
from boardcore.values import check_int, check_seed, quote

if TYPE_CHECKING:
    from boardcore._registry import AnyGame

__all__ = ["LadderResult", "ladder", "tables"]

@dataclass(frozen=True)
class LadderResult:
    """A ladder: the arenas it played and the ratings fitted to them.

    Attributes:
        game: the configuration every table played.
        agents: the agents' names, stripped of spaces.
        seed: the ladder's seed (of the tables and of the bootstrap).
        games: the games of each pairing or table.
        tables: the agents of each pairing or table, in the order played.
        results: each table's arena.
        ratings: the agents' ratings (``agents`` order), the anchor at 0.
        decisions: ``int64 (agents,)`` each agent's ``act`` calls over the ladder.
        seconds_per_decision: ``float64 (agents,)`` its mean CPU seconds per call (forced
            moves included), measured in the games on the deciding thread: what a
            decision costs one core, however many workers or other programs run.
        workers: the threads the games were played on.
        seconds: the ladder's wall time.
    """

    game: AnyGame
    agents: tuple[str, ...]
    seed: int
    games: int
    tables: tuple[tuple[str, ...], ...]
    results: tuple[ArenaResult, ...]
    ratings: Ratings
    decisions: npt.NDArray[np.int64]
    seconds_per_decision: npt.NDArray[np.float64]
    workers: int
    seconds: float

    def table(self) -> str:
        """Return the readable ladder: rank, agent, rating, interval, games, time."""
        head = (f"{self.game.name} ladder: {len(self.agents)} agents, {self.played()} of "
                f"{self.games:,} games, {self.game.num_players} players, seed {self.seed}")
        times = [_milliseconds(t) for t in self.seconds_per_decision]
        return "\n".join([head, "", self.ratings.table({"ms/decision": times}),
                          "ms/decision: mean CPU time of one move on one core, in these "
                          f"games; the ladder took {self.seconds:,.1f} s on "
                          f"{self.workers} worker(s)"])

    def played(self) -> str:
        """What was played: ``"15 pairings"``, ``"1 table"``, ..."""
        kind = "pairing" if self.game.num_players == 2 else "table"
        return f"{len(self.tables)} {kind}{'s' if len(self.tables) > 1 else ''}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe summary: the ladder (the highest rating first) and how it was played."""
        rated = self.ratings.to_dict()
        index = {a: i for i, a in enumerate(self.agents)}
        for row in rated["agents"]:
            i = index[row["agent"]]
            row["decisions"] = int(self.decisions[i])
            row["seconds_per_decision"] = float(self.seconds_per_decision[i])
        return {
            "game": self.game.name,
            "players": self.game.num_players,
            "options": dict(self.game.options),
            "seed": self.seed,
            "games_per_table": self.games,
            "games": self.games * len(self.tables),
            "tables": [list(t) for t in self.tables],
            **rated,
            "workers": self.workers,
            "seconds": self.seconds,
        }


def _milliseconds(seconds: float) -> str:
    """Milliseconds to three significant figures, never in exponent form.

    >>> [_milliseconds(s) for s in (6.99e-06, 0.000114, 0.0221, 1.234)]
    ['0.00699', '0.114', '22.1', '1,234']
    """
    ms = seconds * 1000
    places = max(0, 2 - math.floor(math.log10(ms))) if ms > 0 else 0
    return f"{ms:,.{places}f}"


def tables(agents: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Return the pairings or tables of a ladder: every combination of ``players`` agents.

    >>> tables(["a", "b", "c"], 2)
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    >>> tables(["a", "b", "c"], 4)
    [('a', 'b', 'c')]
    """
    if len(agents) <= players:
        return [tuple(agents)]
    return list(combinations(agents, players))


def ladder(
    game: AnyGame,
    agents: Sequence[str],
    games: SupportsIndex,
    *,
    seed: SupportsIndex | None,
    workers: SupportsIndex = 1,
    backend: str = "threads",
    address: str | None = None,
    anchor: str = "random",
    resamples: SupportsIndex = 1000,
    on_game: Callable[[int], None] | None = None,
) -> LadderResult:
    """Play every pairing (or table) of ``agents`` and rate them on one Elo scale.

    Args:
        game: a configuration from ``boardcore.make``.
        agents: two or more distinct agent names (``"ismcts:1000"``, ``"greedy"``, ...).
        games: games of each pairing or table, ``>= 1`` (a multiple of the seats gives
            every agent every seat equally often).
        seed: the ladder's seed (``None`` draws one).
        workers: threads (with Ray: in each task); the results do not depend on it.
        backend: ``"threads"`` or ``"ray"``, as for ``arena``.
        address: with ``backend="ray"``, the cluster to join.
        anchor: the agent rated 0 (one of ``agents``).
        resamples: bootstrap resamples for the intervals.
        on_game: called with the number of games finished over the whole ladder.

    Raises:
        TypeError: ``agents`` is not a sequence of names, or a count is not an integer.
        ConfigurationError: an unknown or repeated agent, fewer than two, an anchor not
            among them, or a count out of range.
    """
    from boardcore.protocol import Game

    if not isinstance(game, Game):
        raise TypeError(f"game must be a boardcore game, not {quote(game)}")
    if isinstance(agents, str) or not isinstance(agents, Sequence) \
            or not all(isinstance(a, str) for a in agents):
        raise TypeError(f"agents must be a list of agent names, not {quote(agents)}")
    names = tuple(a.strip() for a in agents)
    for name in names:
        agent_from_string(name, seed=0)        # an unknown name fails before any game
    if len(names) < 2 or len(set(names)) != len(names):
        raise ConfigurationError(f"a ladder needs two or more distinct agents, not "
                                 f"{quote(list(agents))}")
    if anchor not in names:
        raise ConfigurationError(f"the anchor {quote(anchor)} is not among the agents "
                                 f"({', '.join(names)})")
    n = check_int(games, "games")
    if not 1 <= n <= 1_000_000:
        raise ConfigurationError(f"games must be in 1..1000000, not {n}")
    w = check_int(workers, "workers")
    check_resamples(resamples)                 # refused before any game, not after
    s = check_seed(seed)
    start = time.perf_counter()
    played = tables(names, game.num_players)
    results: list[ArenaResult] = []
    for t, table in enumerate(played):
        done = t * n

        def tick(k: int, done: int = done) -> None:
            if on_game is not None:
                on_game(done + k)

        results.append(arena(game, table, n, seed=derive_seed(s, STREAM_LADDER_TABLE, t),
                             workers=w, backend=backend, address=address, on_game=tick))
    rated = ratings(results, anchor=anchor, resamples=resamples, seed=s)
    spent = np.zeros(len(names))
    made = np.zeros(len(names), dtype=np.int64)
    for result in results:
        index = np.array([names.index(a) for a in result.agents])[result.seats]
        spent += np.bincount(index.ravel(), weights=result.thinking.ravel(),
                             minlength=len(names))
        made += np.bincount(index.ravel(), weights=result.decisions.ravel(),
                            minlength=len(names)).astype(np.int64)
    return LadderResult(game=game, agents=names, seed=s, games=n, tables=tuple(played),
                        results=tuple(results), ratings=rated, decisions=made,
                        seconds_per_decision=spent / np.maximum(made, 1), workers=w,
                        seconds=time.perf_counter() - start)
