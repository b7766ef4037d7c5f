"""Rummikub Junior benchmarks (pytest-benchmark); targets in docs/performance.md.

Run:   pytest bench/test_rummikub_junior.py --benchmark-only
Smoke: pytest bench --benchmark-disable        (each body once, as CI does)

The standard set (per-call costs, playouts, simulate, reference, OpenSpiel peers) and
the card games' RLCard ``uno`` peer come from ``common``; here: the configuration
(3 players), the reference driver, the targets and the compiled move-generation kernel
(against the reference's brute force).  Figures are named ``rummikub_junior: ...`` in
the table on the last lines; nothing asserts on a timing.
"""

from __future__ import annotations

from typing import Any

import pytest
from common import Case, GameBenchmarks, VsRLCardUno

from boardcore._engine.rummikub_junior import _legal_actions_kernel
from tests.reference import rummikub_junior as ref
from tests.reference._rng import Rng

CASE = Case(
    "rummikub_junior", players=3,
    simulate_target=">= 1e6",
    new_reference=lambda seed: ref.RummikubJuniorRef(3, seed),
    reference_over=lambda model: model.is_over(),
    playout_games=100,
    sim_games=4 * 4096,
    ref_games=10,
    engine_repeats=400,
    loop_repeats=40,
)


class TestRummikubJunior(VsRLCardUno, GameBenchmarks):
    case = CASE


# ---------------------------------------------------------------------------------
# kernel: move generation over many mid-game positions
# ---------------------------------------------------------------------------------


def midgame_states(count: int) -> list[Any]:
    """Positions from seeded random games, each stopped at a random point."""
    states = []
    rng = Rng(99)
    for i in range(count):
        state = CASE.config.new_state(seed=i)
        for _ in range(rng.bounded(60)):
            if state.is_over():
                break
            legal = state.legal_actions()
            state.apply(legal[rng.bounded(len(legal))])
        if not state.is_over():
            states.append(state)
    return states


MIDGAME = midgame_states(300)


@pytest.mark.benchmark(group="kernel")
def test_movegen_kernel(benchmark, figures, median_seconds):
    repeats = 50
    assert _legal_actions_kernel(MIDGAME, repeats) > 0
    benchmark(_legal_actions_kernel, MIDGAME, repeats)
    if (t := median_seconds(benchmark)) is not None:
        figures.record("move generation, compiled kernel",
                       t / (len(MIDGAME) * repeats) * 1e9, "ns/position")


@pytest.mark.benchmark(group="kernel")
def test_movegen_vs_reference_brute_force(figures, alternate):
    models = [ref.RummikubJuniorRef.from_dict(s.to_dict()) for s in MIDGAME[:100]]
    states = MIDGAME[:100]

    def reference() -> None:
        for m in models:
            ref.new_runs_of_colour.cache_clear()
            m.legal_actions()

    def engine() -> None:
        for _ in range(100):
            _legal_actions_kernel(states, 1)

    m = alternate({"engine x100": engine, "reference": reference}, rounds=3)
    if m is not None:
        figures.record_ratio("move generation: kernel / reference brute force",
                             m["reference"] / (m["engine x100"] / 100), None)
