"""Batch simulation: many seeded, uniformly random games played in compiled code.

Game ``i`` of ``simulate(game, n, seed=s)`` is exactly
``game.new_state(seed=derive_seed(s, 0, i))`` followed by
``state.rollout(derive_seed(s, 1, i))``, whatever ``workers`` is, and whether the games
are played here or as tasks on a Ray cluster (``backend="ray"``, ``docs/ray.md``).

A run keeps one row per game (``SimulationResult``, numpy arrays) or, with
``keep="summary"``, only their exact counts (``SimulationSummary``: wins, end reasons and
a histogram of every per-game number), whose size does not depend on the number of
games; both give the same ``boardcore.stats.summarize``.

>>> import boardcore
>>> result = boardcore.simulate(boardcore.make("just4fun", players=2), 100, seed=1)
>>> result.scores.shape, result.winners.dtype, int(result.lengths.min()) > 0
((100, 2), dtype('bool'), True)
>>> counts = boardcore.simulate(boardcore.make("just4fun", players=2), 100, seed=1,
...                             keep="summary")
>>> counts == SimulationSummary.from_result(result), counts.wins, counts.by_winners
(True, (48, 52), (0, 100, 0))
"""

from __future__ import annotations

import itertools
import os
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TextIO, TypeVar, overload

import numpy as np
import numpy.typing as npt

from boardcore._engine._random import derive_seed
from boardcore._engine._summary import Tally
from boardcore._ray import check_backend
from boardcore.errors import ConfigurationError
from boardcore.protocol import Game
from boardcore.stats import Histogram
from boardcore.values import check_int, check_seed, quote

if TYPE_CHECKING:
    import pandas  # type: ignore[import-untyped, import-not-found, unused-ignore]

__all__ = ["KEEP", "PANDAS_MISSING", "SimulationInterrupted", "SimulationResult",
           "SimulationSummary", "derive_seed", "row_bytes", "row_limit", "simulate"]

PANDAS_MISSING = "SimulationResult.to_pandas() needs pandas: pip install 'boardcore[pandas]'"

#: What a run keeps: one row per game, or the exact summary (constant in size).
KEEP = ("rows", "summary")

# Games per call into the compiled kernel: small enough for a live progress bar, large
# enough that the Python overhead per chunk is noise.
_CHUNK = 4096
# The most games of one batch: its game indices are 64-bit.
_MOST_GAMES = 2**63 - 1

_T = TypeVar("_T")


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


@dataclass(frozen=True, eq=False)
class SimulationSummary:
    """The exact counts of a batch of random games: what ``keep="summary"`` returns.

    Its size does not grow with the number of games: wins, the games by their number of
    winners, and an exact histogram (``boardcore.stats.Histogram``) of every per-game
    number. ``boardcore.stats.summarize`` turns it into the same figures as the rows of
    the same batch; ``SimulationSummary.from_result(rows)`` counts those rows. Two
    summaries are equal (``==``) when their game, seed and every count are (wall time
    aside), so a streaming run can be checked against its rows.

    Attributes:
        game: the configuration played.
        seed: the batch seed.
        games: games counted.
        requested: games asked for (more than ``games`` if the run was interrupted).
        wins: each seat's wins, alone or shared.
        shared: each seat's wins shared with other seats.
        by_winners: games by their number of winners: item ``k`` counts the games that
            ``k`` seats won (``0..players``).
        lengths: the histogram of game lengths (actions).
        scores: one histogram of final scores per seat.
        stats: one histogram per ``game.stat_names`` figure (``end`` as codes of
            ``game.end_reasons``).
        seconds: wall time spent playing.
    """

    game: Game[Any]
    seed: int
    games: int
    requested: int
    wins: tuple[int, ...]
    shared: tuple[int, ...]
    by_winners: tuple[int, ...]
    lengths: Histogram
    scores: tuple[Histogram, ...]
    stats: dict[str, Histogram]
    seconds: float

    @property
    def partial(self) -> bool:
        """Whether the run stopped before all the games it was asked for."""
        return self.games < self.requested

    @property
    def score_sums(self) -> tuple[int, ...]:
        """Each seat's exact sum of final scores."""
        return tuple(h.sum for h in self.scores)

    @property
    def score_squares(self) -> tuple[int, ...]:
        """Each seat's exact sum of squared final scores."""
        return tuple(h.sum_squares for h in self.scores)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SimulationSummary):
            return NotImplemented
        fields = ("game", "seed", "games", "requested", "wins", "shared", "by_winners",
                  "lengths", "scores", "stats")
        return all(getattr(self, f) == getattr(other, f) for f in fields)

    __hash__ = None  # type: ignore[assignment]

    @classmethod
    def from_result(cls, result: SimulationResult) -> SimulationSummary:
        """Count the rows of a ``SimulationResult`` (numpy, not the compiled tally).

        >>> import boardcore
        >>> rows = boardcore.simulate(boardcore.make("fool", players=4), 50, seed=1)
        >>> counts = SimulationSummary.from_result(rows)
        >>> counts.games, sum(counts.by_winners), counts.stats["end"].total
        (50, 50, 50)
        """
        winners = result.winners
        per_game = winners.sum(axis=1)
        players = result.game.num_players
        return cls(
            game=result.game, seed=result.seed, games=result.games, requested=result.games,
            wins=tuple(int(w) for w in winners.sum(axis=0)),
            shared=tuple(int(s) for s in (winners & (per_game > 1)[:, None]).sum(axis=0)),
            by_winners=tuple(int(c) for c in np.bincount(per_game, minlength=players + 1)),
            lengths=Histogram.of(result.lengths),
            scores=tuple(Histogram.of(result.scores[:, p]) for p in range(players)),
            stats={name: Histogram.of(values) for name, values in result.stats.items()},
            seconds=result.seconds,
        )

    @classmethod
    def _from_tally(cls, game: Game[Any], seed: int, requested: int, tally: Tally,
                    seconds: float) -> SimulationSummary:
        games, wins, shared, by_winners, figures = tally.counts()
        histograms = [Histogram(low, counts) for low, counts in figures]
        players = game.num_players
        return cls(
            game=game, seed=seed, games=games, requested=requested, wins=wins,
            shared=shared, by_winners=by_winners, lengths=histograms[0],
            scores=tuple(histograms[1:1 + players]),
            stats=dict(zip(game.stat_names, histograms[1 + players:], strict=True)),
            seconds=seconds,
        )


class SimulationInterrupted(KeyboardInterrupt):
    """A ``keep="summary"`` run stopped by Ctrl-C, with the summary of the games done.

    Raised for Ctrl-C or a ``KeyboardInterrupt`` from ``on_chunk``; ``summary`` counts the
    games finished so far (``summary.partial``). A ``KeyboardInterrupt``, so code that
    stops on Ctrl-C still does. The games finished are whole chunks of consecutive games,
    not always the first ones.
    """

    def __init__(self, summary: SimulationSummary) -> None:
        super().__init__(f"interrupted after {summary.games:,} of {summary.requested:,} games")
        self.summary = summary


def row_bytes(game: Game[Any]) -> int:
    """Bytes of memory one game's row takes while ``simulate`` keeps rows (at its peak)."""
    # scores and lengths (int64), winners (uint8, then a bool copy), stats (int64, then
    # one copy per column).
    return 10 * game.num_players + 8 + 16 * max(1, len(game.stat_names))


def _physical_memory() -> int | None:
    """This machine's physical memory in bytes (None: it cannot be read here).

    POSIX systems tell through ``sysconf``; Windows has no ``SC_PHYS_PAGES`` and tells
    through ``GlobalMemoryStatusEx``.
    """
    if sys.platform == "win32":
        import ctypes

        class _Status(ctypes.Structure):    # MEMORYSTATUSEX
            _fields_ = [("length", ctypes.c_uint32), ("load", ctypes.c_uint32),
                        *((name, ctypes.c_uint64) for name in (
                            "total_phys", "avail_phys", "total_page_file", "avail_page_file",
                            "total_virtual", "avail_virtual", "avail_extended_virtual"))]

        status = _Status(length=ctypes.sizeof(_Status))
        if ctypes.windll.kernel32.GlobalMemoryStatusEx(ctypes.byref(status)):
            return int(status.total_phys)
        return None
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None
    return total if total > 0 else None


def row_limit(game: Game[Any]) -> int | None:
    """The most games whose rows fit in this machine's memory (None: unknown here).

    >>> import boardcore
    >>> row_limit(boardcore.make("just4fun", players=2)) > 10**6
    True
    """
    memory = _physical_memory()
    return None if memory is None else memory // row_bytes(game)


def _size(count: int) -> str:
    """Bytes as a person reads them.

    >>> _size(56), _size(1_500_000), _size(64 * 10**12)
    ('56 bytes', '1.5 MB', '64.0 TB')
    """
    for unit, scale in (("PB", 10**15), ("TB", 10**12), ("GB", 10**9), ("MB", 10**6)):
        if count >= scale:
            return f"{count / scale:,.1f} {unit}"
    return f"{count} bytes"


def _refuse_rows(game: Game[Any], n: int) -> ConfigurationError:
    limit = row_limit(game)
    here = ("" if limit is None else
            f", more than this machine's {_size(_physical_memory() or 0)} "
            f"(at most {limit:,} games keep their rows here)")
    return ConfigurationError(
        f"one row per game for {n:,} games needs about {_size(row_bytes(game) * n)} of "
        f"memory{here}; keep='summary' gives the exact summary in constant memory")


def _rows(game: Game[Any], n: int) -> tuple[npt.NDArray[Any], ...]:
    """The zeroed result arrays of ``n`` games, or the refusal that names the limit."""
    limit = row_limit(game)
    if limit is not None and n > limit:
        raise _refuse_rows(game, n)
    players = game.num_players
    try:
        return (np.zeros((n, players), dtype=np.int64), np.zeros((n, players), dtype=np.uint8),
                np.zeros(n, dtype=np.int64),
                np.zeros((n, max(1, len(game.stat_names))), dtype=np.int64))
    except (MemoryError, ValueError):
        raise _refuse_rows(game, n) from None


def _parts(total: int, size: int) -> Iterator[tuple[int, int]]:
    return ((a, min(a + size, total)) for a in range(0, total, size))


def _run_parts(run: Callable[[int, int], _T], parts: Iterator[tuple[int, int]], workers: int,
               finished: Callable[[int, int, _T], None]) -> None:
    """``run`` every part on ``workers`` threads; ``finished`` each result as it comes.

    ``finished`` runs here, in the calling thread. At most two parts per thread wait at
    once, so memory does not grow with the number of parts.
    """
    if workers == 1:
        for a, z in parts:
            finished(a, z, run(a, z))
        return
    pool = ThreadPoolExecutor(max_workers=workers)
    pending: dict[Future[_T], tuple[int, int]] = {}
    try:
        for a, z in itertools.islice(parts, 2 * workers):
            pending[pool.submit(run, a, z)] = (a, z)
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                a, z = pending.pop(future)
                for b, y in itertools.islice(parts, 1):
                    pending[pool.submit(run, b, y)] = (b, y)
                finished(a, z, future.result())
    except BaseException:
        # Ctrl-C or a failing callback: the running chunks finish, the rest are dropped
        # instead of played to the end.
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


@overload
def simulate(
    game: Game[Any], games: object, *, seed: object, workers: object = ...,
    progress: bool | TextIO = ..., on_chunk: Callable[[int], None] | None = ...,
    backend: str = ..., address: str | None = ..., keep: Literal["rows"] = ...,
) -> SimulationResult: ...
@overload
def simulate(
    game: Game[Any], games: object, *, seed: object, workers: object = ...,
    progress: bool | TextIO = ..., on_chunk: Callable[[int], None] | None = ...,
    backend: str = ..., address: str | None = ..., keep: Literal["summary"],
) -> SimulationSummary: ...
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
    keep: str = "rows",
) -> SimulationResult | SimulationSummary:
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
        keep: ``"rows"`` (default): one row per game, a ``SimulationResult``, refused
            when the rows would not fit in memory (``row_limit``); ``"summary"``: only
            the exact counts, a ``SimulationSummary`` whose size does not depend on
            ``games`` (each worker counts its games in compiled code, and the counts
            are added up exactly), for any number of games.

    Returns:
        A ``SimulationResult`` of numpy arrays, or with ``keep="summary"`` a
        ``SimulationSummary``.

    Raises:
        TypeError: a non-integer ``games`` or ``workers``, or a ``progress`` that is
            neither a bool nor a text stream.
        ConfigurationError: ``games`` or ``workers`` below 1, a bad seed, an unknown
            backend or ``keep``, or rows that would not fit in memory (the message names
            the limit).
        SimulationInterrupted: with ``keep="summary"``, Ctrl-C (or a
            ``KeyboardInterrupt`` from ``on_chunk``); it carries the partial summary.
        ImportError: ``backend="ray"`` without Ray installed (the message names the
            extra).
    """
    if not isinstance(game, Game):
        raise TypeError(f"game must be a boardcore game (from boardcore.make), not {quote(game)}")
    n = check_int(games, "games")
    if not 1 <= n <= _MOST_GAMES:
        raise ConfigurationError(f"games must be in 1..2**63-1, not {quote(n)}")
    w = check_int(workers, "workers")
    if w < 1:
        raise ConfigurationError(f"workers must be at least 1, not {quote(w)}")
    s = check_seed(seed)
    b = check_backend(backend, address)
    if not isinstance(keep, str) or keep not in KEEP:
        raise ConfigurationError(f"keep must be 'rows' or 'summary', not {quote(keep)}")
    if not isinstance(progress, bool) and not callable(getattr(progress, "write", None)):
        raise TypeError(f"progress must be a bool or a text stream, not {quote(progress)}")
    stream = sys.stderr if progress is True else (progress or None)
    if keep == "summary":
        return _simulate_summary(game, n, s, w, b, address, stream, on_chunk)
    scores, winners, lengths, stats = _rows(game, n)
    engine = game._engine

    def run(a: int, z: int) -> None:
        engine.simulate_chunk(s, a, z, scores, winners, lengths, stats)

    def write(a: int, z: int, part: tuple[npt.NDArray[Any], ...] | None) -> None:
        if part is not None:
            scores[a:z], winners[a:z], lengths[a:z], stats[a:z] = part
        progress_of.advance(z - a)

    progress_of = _Progress(n, stream, on_chunk)
    with progress_of:
        if b == "ray":
            from boardcore import _ray

            for a, z, part in _ray.simulate_parts(game, n, s, w, address):
                write(a, z, part)
        else:
            _run_parts(run, _parts(n, _CHUNK), w, lambda a, z, _: write(a, z, None))
    return SimulationResult(
        game=game,
        seed=s,
        scores=scores,
        winners=winners.astype(np.bool_),
        lengths=lengths,
        stats={name: stats[:, i].copy() for i, name in enumerate(game.stat_names)},
        seconds=progress_of.seconds,
    )


def _simulate_summary(game: Game[Any], n: int, seed: int, workers: int, backend: str,
                      address: str | None, stream: TextIO | None,
                      on_chunk: Callable[[int], None] | None) -> SimulationSummary:
    engine = game._engine
    total = Tally(game.num_players, len(game.stat_names))

    def run(a: int, z: int) -> Tally:
        part = Tally(game.num_players, len(game.stat_names))
        part.play(engine, seed, a, z)
        return part

    def add(a: int, z: int, part: Tally) -> None:
        total.merge(part)
        progress_of.advance(z - a)

    progress_of = _Progress(n, stream, on_chunk)
    try:
        with progress_of:
            if backend == "ray":
                from boardcore import _ray

                for a, z, part in _ray.summary_parts(game, n, seed, workers, address):
                    add(a, z, part)
            else:
                _run_parts(run, _parts(n, _CHUNK), workers, add)
    except KeyboardInterrupt:
        raise SimulationInterrupted(SimulationSummary._from_tally(
            game, seed, n, total, progress_of.seconds)) from None
    return SimulationSummary._from_tally(game, seed, n, total, progress_of.seconds)


class _Progress:
    """A run's progress: the games done, the bar (if any), ``on_chunk``, the wall time."""

    def __init__(self, total: int, stream: TextIO | None,
                 on_chunk: Callable[[int], None] | None) -> None:
        self.total = total
        self.stream = stream
        self.on_chunk = on_chunk
        self.done = 0
        self.start = time.perf_counter()
        self.seconds = 0.0
        self.bar: _ProgressBar | None = None

    def __enter__(self) -> None:
        self.start = time.perf_counter()
        if self.stream is not None:
            self.bar = _ProgressBar(self.total, self.stream)

    def advance(self, games: int) -> None:
        self.done += games
        if self.bar is not None:
            self.bar.update(self.done)
        if self.on_chunk is not None:
            self.on_chunk(self.done)

    def __exit__(self, *exc: object) -> None:
        self.seconds = time.perf_counter() - self.start
        if self.bar is not None:
            self.bar.close(self.done)


def _duration(seconds: float) -> str:
    """A time left, as a person reads it: 9.5s, 4m05s, 3h07m, 2d05h.

    >>> _duration(9.54), _duration(245), _duration(11220), _duration(190000)
    ('9.5s', '4m05s', '3h07m', '2d04h')
    """
    if seconds < 60:
        return f"{seconds:.1f}s"
    whole = int(seconds)
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    if whole < 86400:
        return f"{whole // 3600}h{whole % 3600 // 60:02d}m"
    return f"{whole // 86400}d{whole % 86400 // 3600:02d}h"


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
            f"{rate:,.0f}/s eta {_duration(eta)}"
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
