"""Ray on a real two-node cluster against two local processes, and the driver's memory.

Run:   pytest bench/test_ray.py --benchmark-only      (needs ``boardcore[ray]``)
Smoke: pytest bench --benchmark-disable               (each body once, as CI does)

The cluster is the one at ``RAY_ADDRESS``, else two nodes of one CPU each started here
(``tests/ray_cluster.py``: a head and a second node, each its own raylet), so tasks
really cross nodes; on this 2-core machine it has exactly the cores of the two local
processes it is compared with.

* ``two-node Ray / two processes`` (>= 0.8): actions/s of ``simulate(backend="ray",
  keep="summary")`` on the cluster against two separate processes each running
  ``simulate(keep="summary")`` on half the games at the same time, alternated; each side
  plays 10^7 Just4Fun games, 10 s or more here.  Each of the two processes runs in a
  session of its own, as each Ray node does: Linux shares the CPUs between sessions
  first (autogroup scheduling), so on a busy machine two processes in the benchmark's own
  session would get half the CPU time of the two nodes and flatter Ray.
* ``Ray driver peak RSS growth, 1e5 -> 1e7 games`` (<= 16 MiB): the driver process's peak
  RSS over a 10^7-game run against a 10^5-game run (fresh interpreters, after connecting):
  tasks return their counts, never rows.

Figures are named ``ray: ...``; nothing asserts on a timing.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator

import pytest
from common import ProcessPair
from test_streaming import MEMORY_COUNTS, MEMORY_SMOKE, MEMORY_TARGET_MIB, memory_probe

import boardcore

if importlib.util.find_spec("ray") is None:
    pytest.skip("needs Ray: pip install 'boardcore[ray]'", allow_module_level=True)

GAMES = 10**7          # per side of a round: about 10 s on two cores here
SMOKE_GAMES = 2 * 4096


@pytest.fixture(scope="module")
def cluster() -> Iterator[dict[str, str]]:
    """The cluster's environment for a driver; this process is connected to it."""
    from tests.ray_cluster import TwoNodeCluster

    with TwoNodeCluster() if not os.environ.get("RAY_ADDRESS") else _Given() as given:
        env = given.env
        with pytest.MonkeyPatch.context() as patch:
            for key, value in env.items():
                patch.setenv(key, value)   # before Ray is imported: it reads its token then
            import ray

            if ray.is_initialized():
                ray.shutdown()
            ray.init(address=env["RAY_ADDRESS"])
            try:
                yield env
            finally:
                ray.shutdown()


class _Given:
    """The cluster at RAY_ADDRESS (``make test-ray`` and ``python -m tests.ray_cluster``)."""

    def __enter__(self) -> _Given:
        self.env = {k: os.environ[k] for k in ("RAY_ADDRESS", "RAY_AUTH_MODE", "RAY_AUTH_TOKEN")
                    if k in os.environ}
        return self

    def __exit__(self, *exc: object) -> None:
        pass


@pytest.fixture
def process_pair() -> Iterator[ProcessPair]:
    """Two local processes, each in a session of its own like each Ray node (common.py)."""
    pair = ProcessPair(own_sessions=True)
    yield pair
    pair.close()


@pytest.mark.benchmark(group="ray")
def test_two_nodes_vs_two_processes(cluster, figures, alternate, process_pair, benchmark):
    game = boardcore.make("just4fun", players=2)
    games = SMOKE_GAMES if benchmark.disabled else GAMES
    counted = {}

    def on_ray() -> None:
        counted["ray"] = boardcore.simulate(game, games, seed=1, backend="ray",
                                            keep="summary").lengths.sum

    def in_two_processes() -> None:
        counted["processes"] = process_pair.simulate("just4fun", 2, games // 2,
                                                     keep="summary")

    m = alternate({"ray": on_ray, "two processes": in_two_processes}, rounds=3)
    if m is None:
        return
    ray_rate, local_rate = counted["ray"] / m["ray"], counted["processes"] / m["two processes"]
    figures.record("simulate(keep='summary') just4fun, two-node Ray (1 CPU each)", ray_rate,
                   "actions/s")
    figures.record("two local processes, keep='summary'", local_rate, "actions/s")
    figures.record("seconds per side of a round (>= 10 for the target)",
                   min(m.values()), "s")
    figures.record_ratio("two-node Ray / two processes", ray_rate / local_rate, ">= 0.8")


@pytest.mark.benchmark(group="ray")
def test_driver_memory_flat(cluster, figures, benchmark):
    small, large = MEMORY_SMOKE if benchmark.disabled else MEMORY_COUNTS
    env = {**os.environ, **cluster}
    runs = benchmark.pedantic(
        lambda: [memory_probe("just4fun", n, backend="ray", env=env) for n in (small, large)],
        rounds=1, iterations=1)
    if benchmark.disabled:
        return
    figures.record(f"Ray driver peak RSS growth, {small:,} -> {large:,} games",
                   (runs[1]["peak_kib"] - runs[0]["peak_kib"]) / 1024, "MiB",
                   f"<= {MEMORY_TARGET_MIB}")
    figures.record(f"Ray driver, {large:,} just4fun games on two nodes",
                   large / runs[1]["seconds"], "games/s")
