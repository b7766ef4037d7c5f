"""Local Ray against the threaded run: ``simulate()`` throughput, the same games.

Run:   pytest bench/test_ray.py --benchmark-only      (needs ``boardcore[ray]``)
Smoke: pytest bench --benchmark-disable               (each body once, as CI does)

Both sides play the same seeded games (the test checks they match): ``workers=2``
threads in this process, and ``backend="ray"`` on a local Ray started with
``ray.init(num_cpus=2)``, one task per part of the batch.  On one 2-core machine Ray can
only add overhead (task scheduling, results through the object store); the figure says
how much, so that a cluster's expected speed-up can be worked out (``docs/ray.md``).
Figures are named ``ray: ...``; nothing asserts on a timing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import boardcore

ray = pytest.importorskip("ray")

GAMES = 400_000


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    if ray.is_initialized():
        ray.shutdown()
    ray.init(num_cpus=2)
    yield ray
    ray.shutdown()


@pytest.mark.benchmark(group="ray")
def test_simulate_local_ray_vs_threads(cluster, figures, alternate):
    game = boardcore.make("just4fun", players=2)
    here = boardcore.simulate(game, GAMES, seed=1, workers=2)
    there = boardcore.simulate(game, GAMES, seed=1, backend="ray")
    assert np.array_equal(here.scores, there.scores)
    actions = int(here.lengths.sum())
    m = alternate({
        "threads": lambda: boardcore.simulate(game, GAMES, seed=1, workers=2),
        "ray": lambda: boardcore.simulate(game, GAMES, seed=1, backend="ray"),
    }, rounds=5)
    if m is None:
        return
    figures.record("simulate() just4fun, threads workers=2", actions / m["threads"],
                   "actions/s")
    figures.record("simulate() just4fun, local Ray num_cpus=2", actions / m["ray"],
                   "actions/s")
    figures.record_ratio("local Ray / threads (2 cores)", m["threads"] / m["ray"], None)
