"""Just4Fun benchmarks (pytest-benchmark); targets in docs/performance.md.

Run:   pytest bench/test_just4fun.py --benchmark-only
Smoke: pytest bench --benchmark-disable        (each body once, as CI does)

The standard set (per-call costs, playouts, simulate, reference, OpenSpiel peers) comes
from ``common.GameBenchmarks``; here: the configuration (2 players, the classic layout),
the reference driver, the targets and the J13 line-check kernel.  Figures are named
``just4fun: ...`` in the table on the last lines; nothing asserts on a timing.
"""

from __future__ import annotations

import numpy as np
import pytest
from common import Case, GameBenchmarks, Target

from tests.reference.just4fun import Just4FunRef

C_FLOOR_NS = 2.4                         # C: 6x6 four-in-a-row check, branchless
LINE_CHECK = Target("line check / C floor (2.4 ns)", "<= 2", "x", "test_line_check")

CASE = Case(
    "just4fun", players=2,
    simulate_target=">= 10e6",
    new_reference=lambda seed: Just4FunRef(2, seed),
    reference_over=lambda ref: ref.end is not None,
    own_targets=(LINE_CHECK,),
)


class TestJust4Fun(GameBenchmarks):
    case = CASE


# ---------------------------------------------------------------------------------
# kernel: the J13 four-in-a-row check
# ---------------------------------------------------------------------------------


@pytest.mark.benchmark(group="kernel")
def test_line_check(benchmark, figures, median_seconds):
    from boardcore._engine.just4fun import _bench_line_check

    cells = [r * 7 + c for r in range(6) for c in range(6)]   # the engine's bit layout
    rng = np.random.default_rng(5)
    masks = np.zeros(4096, dtype=np.uint64)
    for i in range(masks.shape[0]):
        for c in rng.choice(cells, size=int(rng.integers(4, 19)), replace=False):
            masks[i] |= np.uint64(1) << np.uint64(c)
    repeats = 256
    benchmark.pedantic(_bench_line_check, args=(masks, repeats), rounds=15, warmup_rounds=2)
    if (t := median_seconds(benchmark)) is not None:
        ns = t / (masks.shape[0] * repeats) * 1e9
        figures.record("line check (J13 kernel)", ns, "ns/check")
        figures.record_ratio(LINE_CHECK.name, ns / C_FLOOR_NS, LINE_CHECK.target)
