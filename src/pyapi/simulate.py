"""Batch simulation: many seeded, uniformly random games played in compiled code.

Game ``i`` of ``simulate(game, n, seed=s)`` is exactly
``game.new_state(seed=derive_seed(s, 0, i))`` followed by
``state.rollout(derive_seed(s, 1, i))``, whatever ``workers`` is, and whether the games
are played here or as tasks on a Ray cluster (``backend="ray"``, ``docs/ray.md``).

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
from typing import TYPE_CHECKING, Any, TextIO

import numpy as np
import numpy.typing as npt

from boardcore._engine._random import derive_seed
from boardcore._ray import check_backend
from boardcore.errors import ConfigurationError
from boardcore.protocol import Game
from boardcore.values import check_int, check_seed, quote

if TYPE_CHECKING:
    import pandas  # type: ignore[import-untyped, import-not-found, unused-ignore]

__all__ = ["PANDAS_MISSING", "SimulationResult", "derive_seed", "simulate"]

PANDAS_MISSING = "SimulationResult.to_pandas() needs pandas: pip install 'boardcore[pandas]'"

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

    def to_pandas(self) -> pandas.DataFrame:
        """Return one row per game as a pandas ``DataFrame`` (needs ``boardcore[pandas]``).

        The index ``game`` is the seed index (game ``i`` replays from
        ``derive_seed(seed, 0, i)``); the columns are ``score_<seat>``,
        ``winner_<seat>`` (bool), ``length`` and the game's stats, ``end`` as a
        categorical of ``game.end_reasons``. ``df.attrs`` holds the game's name,
        players, options and the batch seed.

        Raises:
            ImportError: pandas is not installed (the message names the extra).

        >>> import boardcore
        >>> result = boardcore.simulate(boardcore.make("fool", players=4), 5, seed=1)
        >>> df = result.to_pandas()  # doctest: +SKIP
        >>> df.shape, list(df.columns[-3:]), df["end"].dtype.name  # doctest: +SKIP
        ((5, 11), ['length', 'end', 'rounds'], 'category')
        """
        try:
            import pandas as pd  # type: ignore[import-untyped, import-not-found, unused-ignore]
        except ImportError:
            raise ImportError(PANDAS_MISSING) from None
        players = range(self.game.num_players)
        columns: dict[str, object] = {}
        columns.update({f"score_{p}": self.scores[:, p] for p in players})
        columns.update({f"winner_{p}": self.winners[:, p] for p in players})
        columns["length"] = self.lengths
        for name, values in self.stats.items():
            if name == "end":
                columns[name] = pd.Categorical.from_codes(values, self.game.end_reasons)
            else:
                columns[name] = values
        frame = pd.DataFrame(columns, index=pd.RangeIndex(self.games, name="game"))
        frame.attrs.update(game=self.game.name, players=self.game.num_players,
                           options=dict(self.game.options), seed=self.seed)
        return frame


def simulate(
    game: Game[Any],
    games: object,
    *,
    seed: object,
    workers: object = 1,
    progress: bool | TextIO = False,
    on_chunk: Callable[[int], None] | None = None,
    backend: str = "threads",
    address: str | None = None,
) -> SimulationResult:
    """Play ``games`` uniformly random games of ``game`` in compiled code, without the GIL.

    Args:
        game: a configuration from ``boardcore.make``.
        games: how many games, ``>= 1``.
        seed: the batch seed (``None`` draws one); equal seeds give equal results.
        workers: threads to spread the games over (with Ray: threads in each task, and
            the CPUs each task asks for); results do not depend on it.
        progress: ``True`` (stderr) or a text stream: report progress there. On a
            terminal a bar is redrawn in place; on a file or pipe only the closing
            line is written, never a carriage-return frame.
        on_chunk: called with the number of games finished after each chunk (with
            Ray: after each task).
        backend: ``"threads"`` (here) or ``"ray"``: tasks over ranges of games on a Ray
            cluster, the same numbers as here (needs ``boardcore[ray]``;
            ``docs/ray.md``).
        address: with ``backend="ray"``, the cluster to join (default: ``RAY_ADDRESS``,
            else a local Ray).

    Returns:
        A ``SimulationResult`` of numpy arrays.

    Raises:
        TypeError: a non-integer ``games`` or ``workers``, or a ``progress`` that is
            neither a bool nor a text stream.
        ConfigurationError: ``games`` or ``workers`` below 1, a bad seed, an unknown backend.
        ImportError: ``backend="ray"`` without Ray installed (the message names the
            extra).
    """
    if not isinstance(game, Game):
        raise TypeError(f"game must be a boardcore game (from boardcore.make), not {quote(game)}")
    n = check_int(games, "games")
    if n < 1:
        raise ConfigurationError(f"games must be at least 1, not {quote(n)}")
    w = check_int(workers, "workers")
    if w < 1:
        raise ConfigurationError(f"workers must be at least 1, not {quote(w)}")
    s = check_seed(seed)
    b = check_backend(backend, address)
    if not isinstance(progress, bool) and not callable(getattr(progress, "write", None)):
        raise TypeError(f"progress must be a bool or a text stream, not {quote(progress)}")
    players = game.num_players
    scores = np.zeros((n, players), dtype=np.int64)
    winners = np.zeros((n, players), dtype=np.uint8)
    lengths = np.zeros(n, dtype=np.int64)
    stats = np.zeros((n, max(1, len(game.stat_names))), dtype=np.int64)
    engine = game._engine
    chunks = [(a, min(a + _CHUNK, n)) for a in range(0, n, _CHUNK)]
    stream = sys.stderr if progress is True else (progress or None)
    bar: _ProgressBar | None = None
    done = 0

    def run(bounds: tuple[int, int]) -> int:
        engine.simulate_chunk(s, bounds[0], bounds[1], scores, winners, lengths, stats)
        return bounds[1] - bounds[0]

    start = time.perf_counter()
    try:
        if stream is not None:
            bar = _ProgressBar(n, stream)
        if b == "ray":
            from boardcore import _ray

            for a, z, part in _ray.simulate_parts(game, n, s, w, address):
                scores[a:z], winners[a:z], lengths[a:z], stats[a:z] = part
                done += z - a
                if bar:
                    bar.update(done)
                if on_chunk:
                    on_chunk(done)
        elif w == 1:
            for k in map(run, chunks):
                done += k
                if bar:
                    bar.update(done)
                if on_chunk:
                    on_chunk(done)
        else:
            pool = ThreadPoolExecutor(max_workers=w)
            try:
                for k in pool.map(run, chunks):
                    done += k
                    if bar:
                        bar.update(done)
                    if on_chunk:
                        on_chunk(done)
            except BaseException:
                # Ctrl-C or a failing callback: the running chunks finish, the rest
                # are dropped instead of played to the end.
                pool.shutdown(wait=False, cancel_futures=True)
                raise
            pool.shutdown()
    finally:
        seconds = time.perf_counter() - start
        if bar:
            bar.close(done)
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
    """A progress bar with a rate and an ETA, redrawn in place only on a terminal.

    On anything else (a file, a pipe, a ``StringIO``) it writes no carriage-return
    frame, only the closing line.
    """

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total = total
        self.stream = stream
        try:
            self.live = bool(stream.isatty())
        except (AttributeError, ValueError, OSError):
            self.live = False
        self.start = time.perf_counter()
        self.drawn = -1.0
        self.update(0)

    def _line(self, done: int) -> str:
        elapsed = time.perf_counter() - self.start
        width = 30
        filled = int(width * done / self.total)
        rate = done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - done) / rate if rate > 0 else 0.0
        return (
            f"[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} games "
            f"{rate:,.0f}/s eta {eta:.1f}s"
        )

    def update(self, done: int) -> None:
        now = time.perf_counter()
        if not self.live or (now - self.drawn < 0.1 and done < self.total):
            return
        self.drawn = now
        self.stream.write(f"\r{self._line(done)}\x1b[K")
        self.stream.flush()

    def close(self, done: int) -> None:
        if self.live:
            line = f"\r{self._line(done)}\x1b[K\n"
        else:
            line = f"{done}/{self.total} games in {time.perf_counter() - self.start:.2f} s\n"
        self.stream.write(line)
        self.stream.flush()
