"""Fool benchmarks (pytest-benchmark); targets in docs/performance.md.

Run:   pytest bench/test_fool.py --benchmark-only
Smoke: pytest bench --benchmark-disable        (each body once, as CI does)

The standard set (per-call costs, playouts, simulate, reference, OpenSpiel peers) and
the card games' RLCard ``uno`` peer come from ``common``; here: the configuration
(4 players, the F2 deck; the mid-game position is mid-round), the reference driver, the
targets, ``simulate()`` at 6 and 8 players and the F7-F8 trick kernel.  Figures are
named ``fool: ...`` in the table on the last lines; nothing asserts on a timing.
"""

from __future__ import annotations

import numpy as np
import pytest
from common import Case, GameBenchmarks, Target, VsRLCardUno, simulate_actions

import boardcore
from tests.reference.fool import FoolRef

TRICK_TARGET_NS = 30.0                   # performance.md: resolving one Fool trick
SIMULATE_TARGET = ">= 10e6"


def _trick(nfools: int) -> Target:
    return Target(f"resolve one trick ({nfools} Fool{'s' * (nfools - 1)})",
                  f"<= {TRICK_TARGET_NS}", "ns/trick", "test_trick_kernel")


def _simulate(players: int) -> Target:
    return Target(f"simulate(), 1 worker, {players} players", SIMULATE_TARGET, "actions/s",
                  "test_simulate_players")


CASE = Case(
    "fool", players=4,
    simulate_target=SIMULATE_TARGET,
    new_reference=lambda seed: FoolRef(4, seed),
    reference_over=lambda ref: ref.over,
    mid_moves=23,
    playout_games=100,
    sim_games=4 * 4096,
    ref_games=4,
    own_targets=(_simulate(6), _simulate(8), _trick(1), _trick(2)),
)


class TestFool(VsRLCardUno, GameBenchmarks):
    case = CASE


@pytest.mark.parametrize("players", [6, 8])
@pytest.mark.benchmark(group="simulate")
def test_simulate_players(benchmark, figures, median_seconds, players):
    args = (boardcore.make("fool", players=players), 1, CASE.sim_games)
    actions = simulate_actions(*args)
    benchmark.pedantic(simulate_actions, args=args, rounds=5, warmup_rounds=1)
    if (t := median_seconds(benchmark)) is not None:
        figures.record(_simulate(players).name, actions / t, "actions/s", SIMULATE_TARGET)


# ---------------------------------------------------------------------------------
# kernel: resolving one trick (F7 winner, F8 Fools)
# ---------------------------------------------------------------------------------


def _tricks(rows: int, nfools: int, seed: int = 5):
    """Random legal-looking tricks: 3-5 cards (1 Fool) or 5-6 cards (2 Fools)."""
    rng = np.random.default_rng(seed)
    seats = np.zeros((rows, 8), dtype=np.uint8)
    cards = np.zeros((rows, 8), dtype=np.uint8)
    leads = np.zeros(rows, dtype=np.int8)
    lengths = np.zeros(rows, dtype=np.uint8)
    offsets = (0, 26, 48, 68, 82)
    for i in range(rows):
        length = int(rng.integers(3, 6) if nfools == 1 else rng.integers(5, 7))
        kinds = rng.permutation(82)[:length]
        kinds[rng.random(length) < 0.1] = 82
        seats[i, :length] = rng.permutation(8)[:length]
        cards[i, :length] = kinds
        coloured = [k for k in kinds if k != 82]
        leads[i] = -1 if not coloured else next(c for c in range(4)
                                                if offsets[c] <= coloured[0] < offsets[c + 1])
        lengths[i] = length
    return seats, cards, leads, lengths


@pytest.mark.parametrize("nfools", [1, 2])
@pytest.mark.benchmark(group="kernel")
def test_trick_kernel(benchmark, figures, median_seconds, nfools):
    from boardcore._engine.fool import _trick_kernel

    seats, cards, leads, lengths = _tricks(4096, nfools)
    repeat = 64
    benchmark.pedantic(_trick_kernel, args=(seats, cards, leads, lengths, nfools, repeat),
                       rounds=15, warmup_rounds=2)
    if (t := median_seconds(benchmark)) is not None:
        ns = t / (seats.shape[0] * repeat) * 1e9
        figures.record(_trick(nfools).name, ns, "ns/trick", _trick(nfools).target)


# ---------------------------------------------------------------------------------
# kernel: one determinization (the hidden hands redrawn for the seat to act)
# ---------------------------------------------------------------------------------


def _position(players: int, moves: int, seed: int):
    state = boardcore.make("fool", players=players).new_state(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    return state


@pytest.mark.parametrize(("players", "moves", "seed"), [(4, 0, 1), (4, 30, 3), (8, 60, 2)])
@pytest.mark.benchmark(group="kernel")
def test_determinize_kernel(benchmark, figures, median_seconds, players, moves, seed):
    from boardcore._engine.fool import _determinize_kernel

    state = _position(players, moves, seed)
    seat = state.current_player
    repeat = 20_000
    benchmark.pedantic(_determinize_kernel, args=(state, seat, 1, repeat), rounds=7,
                       warmup_rounds=1)
    if (t := median_seconds(benchmark)) is not None:
        voids = sum(len(v) for v in state.to_dict().get("voids", []))
        figures.record(f"determinize, {players} players, {voids} voids", t / repeat * 1e9,
                       "ns")
