"""3 Or More benchmarks (pytest-benchmark); targets in docs/performance.md.

Run:   pytest bench/test_three_or_more.py --benchmark-only
Smoke: pytest bench --benchmark-disable        (each body once, as CI does)

The standard set (per-call costs, playouts, simulate, reference, OpenSpiel peers) comes
from ``common.GameBenchmarks``; here: the configuration (2 players, the default deck, no
rotation; the mid-game position has row 2 open), the reference driver, the targets and
the T10-T11 scoring kernel.  Figures are named ``three_or_more: ...`` in the table on
the last lines; nothing asserts on a timing.
"""

from __future__ import annotations

import pytest
from common import Case, GameBenchmarks, Target

from tests.reference.three_or_more import State

SCORE = Target("score one laid card (T11 kernel)", "<= 50", "ns/card", "test_score_one_card")

CASE = Case(
    "three_or_more", players=2,
    simulate_target=">= 5e6",
    new_reference=lambda seed: State(2, seed),
    reference_over=lambda ref: ref.current is None,
    own_targets=(SCORE,),
)


class TestThreeOrMore(GameBenchmarks):
    case = CASE


# ---------------------------------------------------------------------------------
# kernel: scoring one laid card (T10-T11)
# ---------------------------------------------------------------------------------


@pytest.mark.benchmark(group="kernel")
def test_score_one_card(benchmark, figures, median_seconds):
    # 4096 tables from random games, each with one card just laid (anywhere from the
    # second card to the last); the compiled loop re-scores every card `repeats` times.
    from boardcore._engine.three_or_more import _ScoreBench

    bench = _ScoreBench(CASE.config, 4096, 5)
    repeats = 64
    benchmark.pedantic(bench.run, args=(repeats,), rounds=15, warmup_rounds=2)
    if (t := median_seconds(benchmark)) is not None:
        figures.record(SCORE.name, t / (bench.positions * repeats) * 1e9, SCORE.unit,
                       SCORE.target)
