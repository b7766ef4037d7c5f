"""The Ray backend of ``simulate`` and ``arena``: the same games, on a Ray cluster.

A batch is split into tasks over consecutive game indices.  Game ``g`` is seeded by
``derive_seed(seed, ..., g)`` whoever plays it, so every task fills exactly the rows the
local run would, and the result is the same array, number for number, whatever the
cluster, the number of tasks or the order they finish in.  With ``keep="summary"`` a task
returns the exact counts of its games (a compiled ``Tally`` of a few KiB), not their
rows, and the driver adds them up: exact addition, so the same counts again.

Tasks are spread over the nodes (Ray's ``SPREAD`` strategy: every task is CPU-bound and
as long as the next, so each node should get its share from the start rather than the
driver's node first).  The driver keeps only a window of tasks in flight
(``TASKS_PER_CPU`` per CPU) and submits the next part as one finishes, so neither its
memory nor Ray's grows with the number of games.

Ray is an optional extra (``pip install 'boardcore[ray]'``), imported only here and only
when a caller asks for ``backend="ray"``.  ``connect`` joins the cluster at ``address``
(or ``RAY_ADDRESS``; else the cluster ``ray start`` left on this machine; else it starts
a local Ray), unless the caller already called ``ray.init`` itself.  Every node needs the
same boardcore installed: a task refuses to run on another version.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from boardcore.errors import ConfigurationError

if TYPE_CHECKING:
    from boardcore._engine._summary import Tally
    from boardcore._registry import AnyGame
    from boardcore.protocol import Game

__all__ = ["BACKENDS", "RAY_MISSING", "arena_parts", "check_backend", "connect", "parts",
           "simulate_parts", "split", "summary_parts"]

#: Where ``simulate`` and ``arena`` play: threads here, or tasks on a Ray cluster.
BACKENDS = ("threads", "ray")

RAY_MISSING = "backend='ray' needs Ray: pip install 'boardcore[ray]'"

#: Tasks per CPU of the cluster: enough to balance uneven nodes, few enough that the
#: per-task overhead (a few milliseconds) stays noise.
TASKS_PER_CPU = 4
#: Games of ``simulate`` per task at the least (one compiled chunk).
MIN_SIMULATE_GAMES = 4096
#: Games of ``simulate`` per task at the most: a task then runs for about two seconds
#: (two-player Just4Fun) to six (Fool) on one core, so progress, Ctrl-C and a lost node
#: cost little, while Ray's few milliseconds per task stay far below 1 %.
MAX_SIMULATE_GAMES = 1 << 19


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


def parts(total: int, cpus: int, least: int,
          most: int | None = None) -> Iterator[tuple[int, int]]:
    """Cut ``range(total)`` into consecutive ``(start, stop)`` parts for ``cpus`` CPUs, lazily.

    About ``TASKS_PER_CPU`` parts per CPU, each of ``least`` to ``most`` items (the
    results never depend on the cut, only the speed does).

    >>> list(parts(10, 1, 4))
    [(0, 4), (4, 8), (8, 10)]
    >>> list(parts(3, 8, 1)), list(parts(10, 1, 1, most=4))
    ([(0, 1), (1, 2), (2, 3)], [(0, 3), (3, 6), (6, 9), (9, 10)])
    """
    size = max(least, math.ceil(total / max(1, TASKS_PER_CPU * cpus)))
    if most is not None:
        size = max(1, min(size, most))
    return ((a, min(a + size, total)) for a in range(0, total, size))


def split(total: int, cpus: int, least: int) -> list[tuple[int, int]]:
    """``parts`` as a list.

    >>> split(10, 1, 4)
    [(0, 4), (4, 8), (8, 10)]
    """
    return list(parts(total, cpus, least))


#: Tasks per node id in this process's latest Ray batch: which nodes played (a diagnostic;
#: the tests check with it that every node of a cluster took part).
tasks_by_node: Counter[str] = Counter()


def _on_node(body: Callable[..., Any], *args: Any) -> tuple[Any, str]:
    """A task: ``body(*args)`` and the id of the node that ran it."""
    import ray  # type: ignore[import-not-found, import-untyped, unused-ignore]

    return body(*args), ray.get_runtime_context().get_node_id()


def _slots(ray: Any, workers: int) -> int:
    """How many tasks of ``workers`` CPUs the cluster runs at once.

    A task size that no node can hold is refused: Ray would wait for such a node forever.
    """
    cpus = [int(node["Resources"].get("CPU", 0)) for node in ray.nodes() if node.get("Alive")]
    if workers > max(cpus, default=0):
        raise ConfigurationError(
            f"workers={workers} asks {workers} CPUs for each task, but the largest node of "
            f"the Ray cluster has {max(cpus, default=0)}: use workers=1 (the default)")
    return max(1, sum(c // workers for c in cpus))


def _collect(ray: Any, submit: Callable[[int, int], Any], todo: Iterator[tuple[int, int]],
             window: int) -> Iterator[tuple[int, int, Any]]:
    """Yield ``(start, stop, result)`` as the tasks finish, ``window`` of them in flight.

    The next part is submitted as one finishes; the rest are cancelled on early exit.
    """
    pending: dict[Any, tuple[int, int]] = {}
    tasks_by_node.clear()
    try:
        for a, z in itertools.islice(todo, window):
            pending[submit(a, z)] = (a, z)
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                start, stop = pending.pop(ref)
                for a, z in itertools.islice(todo, 1):
                    pending[submit(a, z)] = (a, z)
                result, node = ray.get(ref)
                tasks_by_node[node] += 1
                yield start, stop, result
    finally:
        for ref in pending:  # Ctrl-C, a failed task or a failing callback
            ray.cancel(ref)


def _each(run: Callable[[int], None], items: range, workers: int) -> None:
    """``run(item)`` for every item, on ``workers`` threads (a task's own)."""
    if workers == 1:
        for item in items:
            run(item)
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(run, items))


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

    _each(run, range(start, stop, _CHUNK), workers)
    return scores, winners, lengths, stats


def simulate_parts(game: Game[Any], games: int, seed: int, workers: int,
                   address: str | None) -> Iterator[tuple[int, int, tuple[npt.NDArray[Any], ...]]]:
    """Run ``simulate``'s batch as Ray tasks; yield each part's rows as it finishes."""
    return _simulate_tasks(simulate_part, game, games, seed, workers, address)


def summary_part(game: Game[Any], seed: int, start: int, stop: int, workers: int,
                 version: str) -> Tally:
    """Count games ``start..stop-1`` of ``simulate``'s batch ``seed`` (a Ray task's body).

    Returns their exact counts, a ``Tally`` (a few KiB, whatever the number of games).
    """
    from boardcore._engine._summary import Tally
    from boardcore.simulate import _CHUNK

    _check_version(version)
    tally = Tally(game.num_players, len(game.stat_names))
    engine = game._engine

    def run(a: int) -> None:
        tally.play(engine, seed, a, min(a + _CHUNK, stop))   # adds up, safely, from any thread

    _each(run, range(start, stop, _CHUNK), workers)
    return tally


def summary_parts(game: Game[Any], games: int, seed: int, workers: int,
                  address: str | None) -> Iterator[tuple[int, int, Tally]]:
    """Run ``simulate``'s batch as Ray tasks that count; yield each part's ``Tally``."""
    return _simulate_tasks(summary_part, game, games, seed, workers, address)


def _simulate_tasks(body: Callable[..., Any], game: Game[Any], games: int, seed: int,
                    workers: int, address: str | None) -> Iterator[tuple[int, int, Any]]:
    import boardcore

    ray = connect(address)
    task = ray.remote(num_cpus=workers, scheduling_strategy="SPREAD")(_on_node)
    slots = _slots(ray, workers)
    shared = ray.put(game)
    version = boardcore.__version__
    return _collect(ray, lambda a, z: task.remote(body, shared, seed, a, z, workers, version),
                    parts(games, slots, MIN_SIMULATE_GAMES, MAX_SIMULATE_GAMES),
                    TASKS_PER_CPU * slots)


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

    _each(run, range(start, stop), workers)
    return scores, winners, lengths, decisions, thinking


def arena_parts(game: AnyGame, agents: Sequence[str], games: int, seed: int, workers: int,
                address: str | None) -> Iterator[tuple[int, int, tuple[npt.NDArray[Any], ...]]]:
    """Run an arena as Ray tasks; yield each part's rows as it finishes."""
    import boardcore

    ray = connect(address)
    task = ray.remote(num_cpus=workers, scheduling_strategy="SPREAD")(_on_node)
    slots = _slots(ray, workers)
    shared, names = ray.put(game), tuple(agents)
    version = boardcore.__version__
    return _collect(ray, lambda a, z: task.remote(arena_part, shared, names, seed, a, z,
                                                  workers, version),
                    parts(games, slots, 1), TASKS_PER_CPU * slots)
