"""Batch simulation: many seeded, uniformly random games played in compiled code.

Game ``i`` of ``simulate(game, n, seed=s)`` is exactly
``game.new_state(seed=derive_seed(s, 0, i))`` followed by
``state.rollout(derive_seed(s, 1, i))``, whatever ``workers`` is.

>>> import boardcore
>>> result = boardcore.simulate(boardcore.make("just4fun", players=2), 100, seed=1)
>>> result.scores.shape, result.winners.dtype, int(result.lengths.min()) > 0
((100, 2), dtype('bool'), True)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TextIO

import numpy as np
import numpy.typing as npt

from boardcore._engine._state import derive_seed
from boardcore.protocol import Game
from boardcore.values import check_int, check_seed

__all__ = ["SimulationResult", "derive_seed", "simulate"]

# Games per call into the compiled kernel: small enough for a live progress bar, large
# enough that the Python overhead per chunk is noise.
_CHUNK = 4096


@dataclass(frozen=True)
class SimulationResult:
    """The numpy results of ``simulate``: one row per game.

    Attributes:
        game: the configuration played.
        seed: the batch seed.
        scores: ``int64 (games, players)`` final scores.
        winners: ``bool (games, players)``; several True in a row = shared win.
        lengths: ``int64 (games,)`` actions played.
        stats: per-game columns named by ``game.stat_names`` (``"end"`` holds codes
            whose labels are ``game.end_reasons``).
        seconds: wall time spent in the kernels.
    """

    game: Game[Any]
    seed: int
    scores: npt.NDArray[np.int64]
    winners: npt.NDArray[np.bool_]
    lengths: npt.NDArray[np.int64]
    stats: dict[str, npt.NDArray[np.int64]]
    seconds: float

    @property
    def games(self) -> int:
        """Number of games played."""
        return int(self.lengths.shape[0])


def simulate(
    game: Game[Any],
    games: object,
    *,
    seed: object,
    workers: object = 1,
    progress: bool | TextIO = False,
    on_chunk: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Play ``games`` uniformly random games of ``game`` in compiled code, without the GIL.

    Args:
        game: a configuration from ``boardcore.make``.
        games: how many games, ``>= 1``.
        seed: the batch seed (``None`` draws one); equal seeds give equal results.
        workers: threads to spread the games over; results do not depend on it.
        progress: ``True`` (stderr) or a text stream: draw a progress bar there.
        on_chunk: called with the number of games finished after each chunk.

    Returns:
        A ``SimulationResult`` of numpy arrays.

    Raises:
        TypeError: a non-integer ``games`` or ``workers``.
        ValueError: ``games`` or ``workers`` below 1, or a bad seed.
    """
    if not isinstance(game, Game):
        raise TypeError(f"game must be a boardcore game (from boardcore.make), not {game!r}")
    n = check_int(games, "games")
    if n < 1:
        raise ValueError(f"games must be at least 1, not {n!r}")
    w = check_int(workers, "workers")
    if w < 1:
        raise ValueError(f"workers must be at least 1, not {w!r}")
    s = check_seed(seed)
    players = game.num_players
    scores = np.zeros((n, players), dtype=np.int64)
    winners = np.zeros((n, players), dtype=np.uint8)
    lengths = np.zeros(n, dtype=np.int64)
    stats = np.zeros((n, max(1, len(game.stat_names))), dtype=np.int64)
    engine = game._engine
    chunks = [(a, min(a + _CHUNK, n)) for a in range(0, n, _CHUNK)]
    stream = sys.stderr if progress is True else (progress or None)
    bar = _ProgressBar(n, stream) if stream is not None else None
    done = 0

    def run(bounds: tuple[int, int]) -> int:
        engine.simulate_chunk(s, bounds[0], bounds[1], scores, winners, lengths, stats)
        return bounds[1] - bounds[0]

    start = time.perf_counter()
    if w == 1:
        finished = map(run, chunks)
        for k in finished:
            done += k
            if bar:
                bar.update(done)
            if on_chunk:
                on_chunk(done)
    else:
        with ThreadPoolExecutor(max_workers=w) as pool:
            for k in pool.map(run, chunks):
                done += k
                if bar:
                    bar.update(done)
                if on_chunk:
                    on_chunk(done)
    seconds = time.perf_counter() - start
    if bar:
        bar.close()
    return SimulationResult(
        game=game,
        seed=s,
        scores=scores,
        winners=winners.astype(np.bool_),
        lengths=lengths,
        stats={name: stats[:, i].copy() for i, name in enumerate(game.stat_names)},
        seconds=seconds,
    )


class _ProgressBar:
    """A one-line text progress bar with a rate and an ETA."""

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total = total
        self.stream = stream
        self.start = time.perf_counter()
        self.update(0)

    def update(self, done: int) -> None:
        elapsed = time.perf_counter() - self.start
        frac = done / self.total
        width = 30
        filled = int(width * frac)
        rate = done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - done) / rate if rate > 0 else 0.0
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} games "
            f"{rate:,.0f}/s eta {eta:.1f}s"
        )
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()
