"""The Ray backend of ``simulate`` and ``arena``: the same games, on a Ray cluster.

A batch is split into tasks over consecutive game indices.  Game ``g`` is seeded by
``derive_seed(seed, ..., g)`` whoever plays it, so every task fills exactly the rows the
local run would, and the result is the same array, number for number, whatever the
cluster, the number of tasks or the order they finish in.

Ray is an optional extra (``pip install 'boardcore[ray]'``), imported only here and only
when a caller asks for ``backend="ray"``.  ``connect`` joins the cluster at ``address``
(or ``RAY_ADDRESS``; else the cluster ``ray start`` left on this machine; else it starts
a local Ray), unless the caller already called ``ray.init`` itself.  Every node needs the
same boardcore installed: a task refuses to run on another version.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from boardcore.errors import ConfigurationError

if TYPE_CHECKING:
    from boardcore._registry import AnyGame
    from boardcore.protocol import Game

__all__ = ["BACKENDS", "RAY_MISSING", "arena_parts", "check_backend", "connect",
           "simulate_parts", "split"]

#: Where ``simulate`` and ``arena`` play: threads here, or tasks on a Ray cluster.
BACKENDS = ("threads", "ray")

RAY_MISSING = "backend='ray' needs Ray: pip install 'boardcore[ray]'"

#: Tasks per CPU of the cluster: enough to balance uneven nodes, few enough that the
#: per-task overhead (a few milliseconds) stays noise.
TASKS_PER_CPU = 4
#: Games of ``simulate`` per task at the least (one compiled chunk).
MIN_SIMULATE_GAMES = 4096


def check_backend(backend: object, address: object) -> str:
    """Return ``backend`` checked; refuse an unknown one or a stray ``address``.

    >>> check_backend("ray", "ray://head:10001")
    'ray'
    >>> check_backend("dask", None)
    Traceback (most recent call last):
    ...
    boardcore.errors.ConfigurationError: backend must be 'threads' or 'ray', not 'dask'
    """
    from boardcore.values import quote

    if not isinstance(backend, str) or backend not in BACKENDS:
        raise ConfigurationError(f"backend must be 'threads' or 'ray', not {quote(backend)}")
    if address is not None and (backend != "ray" or not isinstance(address, str)):
        raise ConfigurationError("address is a Ray cluster's address (a str), for "
                                 f"backend='ray' only, not {quote(address)}")
    return backend


def connect(address: str | None = None) -> Any:
    """Return the ``ray`` module, connected to a cluster.

    Raises:
        ImportError: Ray is not installed (the message names the extra).
    """
    try:
        import ray  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        raise ImportError(RAY_MISSING) from None
    if not ray.is_initialized():
        ray.init(address=address)
    return ray


def split(total: int, cpus: int, least: int) -> list[tuple[int, int]]:
    """Cut ``range(total)`` into consecutive ``(start, stop)`` parts for ``cpus`` CPUs.

    About ``TASKS_PER_CPU`` parts per CPU, each of at least ``least`` items (the
    results never depend on the cut, only the speed does).

    >>> split(10, 1, 4)
    [(0, 4), (4, 8), (8, 10)]
    >>> split(3, 8, 1)
    [(0, 1), (1, 2), (2, 3)]
    """
    size = max(least, math.ceil(total / max(1, TASKS_PER_CPU * cpus)))
    return [(a, min(a + size, total)) for a in range(0, total, size)]


def _cpus(ray: Any) -> int:
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _collect(ray: Any, refs: dict[Any, tuple[int, int]]) -> Iterator[tuple[int, int, Any]]:
    """Yield ``(start, stop, result)`` as the tasks finish; cancel the rest on early exit."""
    pending = list(refs)
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                start, stop = refs[ref]
                yield start, stop, ray.get(ref)
    finally:
        for ref in pending:  # Ctrl-C, a failed task or a failing callback
            ray.cancel(ref)


def _check_version(version: str) -> None:
    import boardcore

    if boardcore.__version__ != version:
        raise RuntimeError(f"this Ray node has boardcore {boardcore.__version__}, the driver "
                           f"{version}: install the same version on every node")


# -- simulate ---------------------------------------------------------------------------


def simulate_part(game: Game[Any], seed: int, start: int, stop: int, workers: int,
                  version: str) -> tuple[npt.NDArray[Any], ...]:
    """Play games ``start..stop-1`` of ``simulate``'s batch ``seed`` (a Ray task's body).

    Returns the rows of ``scores``, ``winners`` (uint8), ``lengths`` and ``stats``.
    """
    from boardcore.simulate import _CHUNK

    _check_version(version)
    n, players = stop - start, game.num_players
    scores = np.zeros((n, players), dtype=np.int64)
    winners = np.zeros((n, players), dtype=np.uint8)
    lengths = np.zeros(n, dtype=np.int64)
    stats = np.zeros((n, max(1, len(game.stat_names))), dtype=np.int64)
    engine = game._engine

    def run(a: int) -> None:
        engine.simulate_chunk(seed, a, min(a + _CHUNK, stop), scores, winners, lengths, stats,
                              start)

    chunks = range(start, stop, _CHUNK)
    if workers == 1:
        for a in chunks:
            run(a)
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(run, chunks))
    return scores, winners, lengths, stats


def simulate_parts(game: Game[Any], games: int, seed: int, workers: int,
                   address: str | None) -> Iterator[tuple[int, int, tuple[npt.NDArray[Any], ...]]]:
    """Run ``simulate``'s batch as Ray tasks; yield each part's rows as it finishes."""
    import boardcore

    ray = connect(address)
    task = ray.remote(num_cpus=workers)(simulate_part)
    parts = split(games, max(1, _cpus(ray) // workers), MIN_SIMULATE_GAMES)
    refs = {task.remote(game, seed, a, b, workers, boardcore.__version__): (a, b)
            for a, b in parts}
    yield from _collect(ray, refs)


# -- arena ------------------------------------------------------------------------------


def arena_part(game: AnyGame, agents: Sequence[str], seed: int, start: int, stop: int,
               workers: int, version: str) -> tuple[npt.NDArray[Any], ...]:
    """Play games ``start..stop-1`` of an arena (a Ray task's body).

    Returns the rows of ``scores``, ``winners``, ``lengths``, ``decisions`` and
    ``thinking``.
    """
    from boardcore.arena import play_game

    _check_version(version)
    n, players = stop - start, game.num_players
    scores = np.zeros((n, players), dtype=np.int64)
    winners = np.zeros((n, players), dtype=np.bool_)
    lengths = np.zeros(n, dtype=np.int64)
    decisions = np.zeros((n, players), dtype=np.int64)
    thinking = np.zeros((n, players), dtype=np.float64)

    def run(g: int) -> None:
        i = g - start
        scores[i], winners[i], lengths[i], decisions[i], thinking[i] = play_game(
            game, agents, seed, g)

    if workers == 1:
        for g in range(start, stop):
            run(g)
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(run, range(start, stop)))
    return scores, winners, lengths, decisions, thinking


def arena_parts(game: AnyGame, agents: Sequence[str], games: int, seed: int, workers: int,
                address: str | None) -> Iterator[tuple[int, int, tuple[npt.NDArray[Any], ...]]]:
    """Run an arena as Ray tasks; yield each part's rows as it finishes."""
    import boardcore

    ray = connect(address)
    task = ray.remote(num_cpus=workers)(arena_part)
    parts = split(games, max(1, _cpus(ray) // workers), 1)
    refs = {task.remote(game, tuple(agents), seed, a, b, workers, boardcore.__version__): (a, b)
            for a, b in parts}
    yield from _collect(ray, refs)
