"""Arenas: agents play each other over many seeded games, seats rotated.

Game ``g`` is dealt from ``derive_seed(seed, STREAM_GAME, g)``; seat ``p`` of game ``g``
is played by agent ``(g + p) % len(agents)``, a fresh agent seeded from
``derive_seed(seed, STREAM_ARENA_SEAT, g * 64 + p)`` (the streams of
``boardcore._engine._random``).  So every result is the same whatever the number of
worker threads (the searches run without the GIL, so threads do speed an arena up) or
the machines of a Ray cluster (``backend="ray"``, ``docs/ray.md``), and any game can be
replayed alone.  Ctrl-C stops an arena within about 50 ms, searches included.

>>> import boardcore
>>> result = boardcore.arena(boardcore.make("three_or_more", players=2),
...                          ["greedy", "random"], games=20, seed=1)
>>> result.games, result.agents
(20, ('greedy', 'random'))
>>> result.seats[:2].tolist()
[[0, 1], [1, 0]]
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, SupportsIndex

import numpy as np
import numpy.typing as npt

from boardcore._engine import _search
from boardcore._engine._random import STREAM_ARENA_SEAT, STREAM_GAME, derive_seed
from boardcore._ray import check_backend
from boardcore.agents import agent_from_string
from boardcore.errors import ConfigurationError
from boardcore.values import check_int, check_seed, quote

if TYPE_CHECKING:
    from boardcore._registry import AnyGame

__all__ = ["ArenaResult", "arena", "play_game"]

MAX_SEATS = 64      # agents of one game get the seeds g * 64 + seat


# What a decision costs: the deciding thread's CPU time, whatever else the machine runs.
# Windows counts a thread's CPU time in whole scheduler ticks (15.6 ms, GetThreadTimes),
# so a decision shorter than a tick reads 0 there: its wall time stands in.
_decision_clock: Callable[[], float] = (
    time.perf_counter if sys.platform == "win32" else time.thread_time)


@dataclass(frozen=True)
class ArenaResult:
    """What an arena played: one row per game.

    Attributes:
        game: the configuration played.
        agents: the agents' names, as given.
        seed: the arena's seed.
        seats: ``int64 (games, players)``: which agent (an index into ``agents``) sat where.
        scores: ``int64 (games, players)`` final scores, by seat.
        winners: ``bool (games, players)``, by seat; several True = a shared win.
        lengths: ``int64 (games,)`` actions played.
        seconds: wall time.
        decisions: ``int64 (games, players)`` the ``act`` calls of each seat's agent.
        thinking: ``float64 (games, players)`` the CPU seconds of each seat's ``act``
            calls (the deciding thread's, ``time.thread_time``: what the decisions cost
            one core, whatever else the machine runs; on Windows, wall seconds; the only
            field that varies from run to run).
    """

    game: AnyGame
    agents: tuple[str, ...]
    seed: int
    seats: npt.NDArray[np.int64]
    scores: npt.NDArray[np.int64]
    winners: npt.NDArray[np.bool_]
    lengths: npt.NDArray[np.int64]
    seconds: float
    decisions: npt.NDArray[np.int64]
    thinking: npt.NDArray[np.float64]

    @property
    def games(self) -> int:
        """Games played."""
        return int(self.lengths.shape[0])

    def appearances(self) -> npt.NDArray[np.int64]:
        """Seats each agent played, over all games."""
        return np.bincount(self.seats.ravel(), minlength=len(self.agents)).astype(np.int64)

    def wins(self) -> npt.NDArray[np.float64]:
        """Each agent's wins: 1 for a sole win, ``1/k`` for a win shared by ``k`` seats."""
        share = self.winners / np.maximum(self.winners.sum(axis=1, keepdims=True), 1)
        return np.bincount(self.seats.ravel(), weights=share.ravel(),
                           minlength=len(self.agents)).astype(np.float64)

    def win_rates(self) -> npt.NDArray[np.float64]:
        """Each agent's wins per seat played."""
        return self.wins() / np.maximum(self.appearances(), 1)

    def mean_scores(self) -> npt.NDArray[np.float64]:
        """Each agent's mean final score per seat played."""
        totals = np.bincount(self.seats.ravel(), weights=self.scores.ravel().astype(float),
                             minlength=len(self.agents))
        return totals / np.maximum(self.appearances(), 1)

    def places(self) -> npt.NDArray[np.int64]:
        """``int64 (games, players)``: each seat's finishing place, 0 the best.

        The winners share place 0 (several of them: a shared win); the other seats follow
        by final score, the highest first, equal scores sharing a place.  A place counts
        the seats strictly ahead, so a game of places ``[0, 0, 2, 3]`` had a shared win.
        """
        won, score = self.winners, self.scores
        # ahead[g, t, s]: in game g, seat t finished strictly ahead of seat s
        ahead = (won[:, :, None] & ~won[:, None, :]) | (
            ~won[:, :, None] & ~won[:, None, :] & (score[:, :, None] > score[:, None, :]))
        places: npt.NDArray[np.int64] = ahead.sum(axis=1, dtype=np.int64)
        return places

    def seconds_per_decision(self) -> npt.NDArray[np.float64]:
        """Each agent's mean CPU seconds per ``act`` call (single legal actions included)."""
        agents = self.seats.ravel()
        spent = np.bincount(agents, weights=self.thinking.ravel(), minlength=len(self.agents))
        made = np.bincount(agents, weights=self.decisions.ravel(), minlength=len(self.agents))
        return (spent / np.maximum(made, 1)).astype(np.float64)

    def intervals(self) -> list[tuple[float, float]]:
        """Each agent's 95 % Wilson interval of its win rate (wins rounded to whole games)."""
        from boardcore.stats import wilson

        return [wilson(min(round(w), int(n)), max(int(n), 1))
                for w, n in zip(self.wins(), self.appearances(), strict=True)]

    def table(self) -> str:
        """Return the readable table: per agent, seats, wins, win rate and interval, score."""
        head = (f"{self.game.name}: {self.games:,} games, {self.game.num_players} players, "
                f"seed {self.seed}, seats rotated")
        width = max(12, *(len(a) for a in self.agents))
        rows = [head, "",
                f"{'agent':<{width}}  {'seats':>7}  {'wins':>8}  {'win rate':>8}  "
                f"{'95% CI':<17}  {'mean score':>10}"]
        for name, n, w, r, (lo, hi), m in zip(self.agents, self.appearances(), self.wins(),
                                              self.win_rates(), self.intervals(),
                                              self.mean_scores(), strict=True):
            rows.append(f"{name:<{width}}  {n:>7,}  {w:>8,.1f}  {r:>8.2%}  "
                        f"[{lo:6.2%}, {hi:6.2%}]  {m:>10.2f}")
        rows += ["", "a win shared by k seats counts 1/k for each; a win rate is wins per "
                     "seat played; 95% CI: Wilson interval",
                 f"throughput: {self.games / max(self.seconds, 1e-9):,.1f} games/s "
                 f"({self.seconds:.2f} s)"]
        return "\n".join(rows)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe summary: per agent, seats played, wins, win rate and mean score."""
        return {
            "game": self.game.name,
            "players": self.game.num_players,
            "options": dict(self.game.options),
            "seed": self.seed,
            "games": self.games,
            "agents": [
                {"agent": name, "seats": int(n), "wins": float(w), "win_rate": float(r),
                 "win_rate_95": [lo, hi], "mean_score": float(m)}
                for name, n, w, r, (lo, hi), m in zip(
                    self.agents, self.appearances(), self.wins(), self.win_rates(),
                    self.intervals(), self.mean_scores(), strict=True)
            ],
        }


def arena(
    game: AnyGame,
    agents: Sequence[str],
    games: SupportsIndex,
    *,
    seed: SupportsIndex | None,
    workers: SupportsIndex = 1,
    on_game: Callable[[int], None] | None = None,
    backend: str = "threads",
    address: str | None = None,
) -> ArenaResult:
    """Play ``games`` seeded games of ``game`` between ``agents``, seats rotated.

    Args:
        game: a configuration from ``boardcore.make``.
        agents: agent names (``"ismcts:1000"``, ``"greedy"``, ``"flat:200"``,
            ``"random"``), at least one; they fill the seats in turn.
        games: how many games, ``>= 1``.
        seed: the arena's seed (``None`` draws one).
        workers: threads to play the games on (with Ray: in each task); the results do
            not depend on it.
        on_game: called with the number of games finished, after each game (with Ray:
            after each task).
        backend: ``"threads"`` (here) or ``"ray"`` (tasks on a Ray cluster, the same
            results; needs ``boardcore[ray]``, see ``docs/ray.md``).
        address: with ``backend="ray"``, the cluster to join (default ``RAY_ADDRESS``,
            else a local Ray).

    Raises:
        TypeError: ``agents`` is not a sequence of names, or a count is not an integer.
        ConfigurationError: an unknown agent or backend, or a count out of range.
        ImportError: ``backend="ray"`` without Ray installed.
    """
    from boardcore.protocol import Game

    if not isinstance(game, Game):
        raise TypeError(f"game must be a boardcore game, not {quote(game)}")
    if isinstance(agents, str) or not isinstance(agents, Sequence) or not agents \
            or not all(isinstance(a, str) for a in agents):
        raise TypeError(f"agents must be a list of agent names, not {quote(agents)}")
    names = tuple(agents)
    for name in names:
        agent_from_string(name, seed=0)        # an unknown name fails before any game
    n = check_int(games, "games")
    if not 1 <= n <= 10_000_000:
        raise ConfigurationError(f"games must be in 1..10000000, not {n}")
    w = check_int(workers, "workers")
    if not 1 <= w <= 256:
        raise ConfigurationError(f"workers must be in 1..256, not {w}")
    s = check_seed(seed)
    b = check_backend(backend, address)
    players = game.num_players
    seats = np.array([[(g + p) % len(names) for p in range(players)] for g in range(n)],
                     dtype=np.int64)
    scores = np.zeros((n, players), dtype=np.int64)
    winners = np.zeros((n, players), dtype=np.bool_)
    lengths = np.zeros(n, dtype=np.int64)
    decisions = np.zeros((n, players), dtype=np.int64)
    thinking = np.zeros((n, players), dtype=np.float64)

    def play(g: int) -> int:
        scores[g], winners[g], lengths[g], decisions[g], thinking[g] = play_game(
            game, names, s, g)
        return g

    start = time.perf_counter()
    done = 0
    if b == "ray":
        from boardcore import _ray

        for a, z, part in _ray.arena_parts(game, names, n, s, w, address):
            scores[a:z], winners[a:z], lengths[a:z], decisions[a:z], thinking[a:z] = part
            done += z - a
            if on_game is not None:
                on_game(done)
    elif w == 1:
        for _ in map(play, range(n)):
            done += 1
            if on_game is not None:
                on_game(done)
    else:
        with ThreadPoolExecutor(max_workers=w) as pool:
            try:
                for _ in pool.map(play, range(n)):
                    done += 1
                    if on_game is not None:
                        on_game(done)
            except KeyboardInterrupt:
                # Ctrl-C reaches this thread only: drop the games not begun and stop
                # the searches running in the workers, or the pool would wait for them.
                pool.shutdown(wait=False, cancel_futures=True)
                _search.interrupt()
                raise
    return ArenaResult(game=game, agents=names, seed=s, seats=seats, scores=scores,
                       winners=winners, lengths=lengths, seconds=time.perf_counter() - start,
                       decisions=decisions, thinking=thinking)


def play_game(game: AnyGame, agents: Sequence[str], seed: int, g: int) -> tuple[
        tuple[int, ...], npt.NDArray[np.bool_], int, npt.NDArray[np.int64],
        npt.NDArray[np.float64]]:
    """Play game ``g`` of an arena.

    Returns its scores, winners, length, and each seat's ``act`` calls and the CPU
    seconds they took (by seat).
    """
    players = game.num_players
    state = game.new_state(derive_seed(seed, STREAM_GAME, g))
    table = [agent_from_string(agents[(g + p) % len(agents)],
                               seed=derive_seed(seed, STREAM_ARENA_SEAT, g * MAX_SEATS + p))
             for p in range(players)]
    decisions = np.zeros(players, dtype=np.int64)
    thinking = np.zeros(players, dtype=np.float64)
    while not state.is_over():
        seat = state.current_player
        assert seat is not None
        start = _decision_clock()        # the search runs in this thread, GIL or not
        action = table[seat].act(state)
        thinking[seat] += _decision_clock() - start
        decisions[seat] += 1
        state.apply(action)
    outcome = state.outcome()
    assert outcome is not None
    won = np.zeros(players, dtype=np.bool_)
    won[sorted(outcome.winners)] = True
    return outcome.scores, won, len(state.history()), decisions, thinking

