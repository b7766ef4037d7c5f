"""Just4Fun benchmarks (pytest-benchmark); targets from shared/design/performance.md.

Run:   pytest bench/test_just4fun.py --benchmark-only
Smoke: pytest bench --benchmark-disable        (each body once, as CI does)

Every test measures; none asserts on a timing.  Figures and ratios go to the ``figures``
registry (bench/conftest.py) and are printed as a table on the last lines.  Ratios
against OpenSpiel, the reference and between worker counts come from ``alternate``
(the sides timed A, B, B, A, ... in one test); absolute figures come from plain
pytest-benchmark medians.  All games: 2 players, the classic layout.
"""

from __future__ import annotations

import random

import boardcore
import numpy as np
import pytest
from boardcore.simulate import derive_seed

GAME = boardcore.make("just4fun", players=2)
START = GAME.new_state(seed=1)           # the fixed start state every playout copies
C_FLOOR_NS = 2.4                         # C: 6x6 four-in-a-row check, branchless


def _midgame(moves: int = 16):
    """A deterministic mid-game position (16 random actions from START)."""
    s = START.copy()
    rnd = random.Random(0)
    for _ in range(moves):
        if s.is_over():
            break
        s.apply(rnd.choice(s.legal_actions()))
    assert not s.is_over()
    return s


MID = _midgame()


def _python_games(games: int, seed: int = 2024) -> int:
    """Random games driven from Python, the loop shape the peer group compares."""
    choice = random.Random(seed).choice
    n = 0
    for _ in range(games):
        s = START.copy()
        while not s.is_over():
            s.apply(choice(s.legal_actions()))
            n += 1
    return n


def _rollouts(games: int, count: bool = False) -> int:
    """Whole random games in compiled code, one Python call per game."""
    n = 0
    for i in range(games):
        s = START.copy()
        s.rollout(i)
        if count:
            n += len(s.history())
    return n


# ---------------------------------------------------------------------------------
# legal_actions, apply, copy: per-call costs at the Python boundary
# ---------------------------------------------------------------------------------


@pytest.mark.benchmark(group="legal_actions", max_time=0.25)
def test_legal_actions(benchmark, figures, median_seconds):
    benchmark(MID.legal_actions)
    if (t := median_seconds(benchmark)) is not None:
        figures.record("legal_actions() mid-game", t * 1e9, "ns/call")


@pytest.mark.benchmark(group="legal_actions", max_time=0.25)
def test_legal_actions_mask(benchmark, figures, median_seconds):
    benchmark(MID.legal_actions_mask)
    if (t := median_seconds(benchmark)) is not None:
        figures.record("legal_actions_mask() mid-game", t * 1e9, "ns/call")


@pytest.mark.benchmark(group="legal_actions", max_time=0.25)
def test_is_over_call_floor(benchmark, figures, median_seconds):
    # The cheapest method there is: the floor of any Python -> engine call.
    benchmark(MID.is_over)
    if (t := median_seconds(benchmark)) is not None:
        figures.record("is_over() (call floor)", t * 1e9, "ns/call")


@pytest.mark.benchmark(group="apply")
def test_apply(benchmark, figures, median_seconds):
    # A whole recorded game re-applied to a fresh copy (the copy is untimed setup);
    # the figure includes the `for a in seq` loop, ~15 ns per action.
    game = START.copy()
    game.rollout(7)
    seq = game.history()

    def replay(s):
        for a in seq:
            s.apply(a)

    benchmark.pedantic(replay, setup=lambda: ((START.copy(),), {}), rounds=300, warmup_rounds=5)
    if (t := median_seconds(benchmark)) is not None:
        figures.record("apply() incl. legality check", t / len(seq) * 1e9, "ns/action")


@pytest.mark.benchmark(group="copy", max_time=0.25)
def test_copy_start(benchmark, figures, median_seconds):
    benchmark(START.copy)
    if (t := median_seconds(benchmark)) is not None:
        figures.record("copy() start state", t * 1e9, "ns/call")


@pytest.mark.benchmark(group="copy", max_time=0.25)
def test_copy_midgame(benchmark, figures, median_seconds):
    benchmark(MID.copy)
    if (t := median_seconds(benchmark)) is not None:
        figures.record("copy() mid-game (with history)", t * 1e9, "ns/call")


# ---------------------------------------------------------------------------------
# playout: whole games, driven from Python and in one compiled call
# ---------------------------------------------------------------------------------

PLAYOUT_GAMES = 200


@pytest.mark.benchmark(group="playout")
def test_playout_python_loop(benchmark, figures, median_seconds):
    actions = _python_games(PLAYOUT_GAMES)
    benchmark.pedantic(_python_games, args=(PLAYOUT_GAMES,), rounds=7, warmup_rounds=1)
    if (t := median_seconds(benchmark)) is not None:
        figures.record("Python-driven playout", actions / t, "actions/s")


@pytest.mark.benchmark(group="playout")
def test_playout_rollout(benchmark, figures, median_seconds):
    games = 1000
    actions = _rollouts(games, count=True)
    benchmark.pedantic(_rollouts, args=(games,), rounds=7, warmup_rounds=1)
    if (t := median_seconds(benchmark)) is not None:
        figures.record("rollout(), one call per game", actions / t, "actions/s")


# ---------------------------------------------------------------------------------
# simulate: batches in compiled code, one and two workers
# ---------------------------------------------------------------------------------

SIM_GAMES = 8 * 4096   # whole chunks, so two workers get equal shares


def _simulate(workers: int, games: int = SIM_GAMES) -> int:
    return int(boardcore.simulate(GAME, games, seed=11, workers=workers).lengths.sum())


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.benchmark(group="simulate")
def test_simulate(benchmark, figures, median_seconds, workers):
    actions = _simulate(workers)
    benchmark.pedantic(_simulate, args=(workers,), rounds=5, warmup_rounds=1)
    if (t := median_seconds(benchmark)) is not None:
        if workers == 1:
            figures.record("simulate(), 1 worker", actions / t, "actions/s", ">= 10e6")
        else:
            figures.record("simulate(), workers=2", actions / t, "actions/s")


@pytest.mark.benchmark(group="simulate")
def test_simulate_scaling(benchmark, figures, alternate):
    m = alternate({"workers=1": lambda: _simulate(1), "workers=2": lambda: _simulate(2)},
                  rounds=5)
    if m is not None:
        figures.record_ratio("simulate workers=2 / workers=1", m["workers=1"] / m["workers=2"],
                             ">= 1.8")


# ---------------------------------------------------------------------------------
# reference: the pure-Python rules on the same seeded playouts
# ---------------------------------------------------------------------------------

REF_SEED = 7
REF_GAMES = 8
# The engine replays the same games this often per call, so every side of the
# alternation runs for a similar time (a short burst and a long run fare differently
# when a neighbour shares the core).
ENGINE_REPEATS = 200
LOOP_REPEATS = 20


def _reference_games() -> int:
    from tests.reference._rng import Rng
    from tests.reference.just4fun import Just4FunRef

    n = 0
    for i in range(REF_GAMES):
        ref = Just4FunRef(2, derive_seed(REF_SEED, 0, i))
        player = Rng(derive_seed(REF_SEED, 1, i))
        while ref.end is None:
            legal = ref.legal_actions()
            ref.apply(legal[player.bounded(len(legal))])
            n += 1
    return n


def _engine_rollouts(count: bool = False) -> int:
    n = 0
    for _ in range(ENGINE_REPEATS):
        for i in range(REF_GAMES):
            s = GAME.new_state(derive_seed(REF_SEED, 0, i))
            s.rollout(derive_seed(REF_SEED, 1, i))
            if count:
                n += len(s.history())
    return n


def _engine_python_loop(repeats: int = LOOP_REPEATS) -> int:
    # The reference's loop shape on the engine, choices from the same generator.
    from tests.reference._rng import Rng

    n = 0
    for _ in range(repeats):
        for i in range(REF_GAMES):
            s = GAME.new_state(derive_seed(REF_SEED, 0, i))
            player = Rng(derive_seed(REF_SEED, 1, i))
            while not s.is_over():
                legal = s.legal_actions()
                s.apply(legal[player.bounded(len(legal))])
                n += 1
    return n


@pytest.mark.benchmark(group="reference")
def test_engine_vs_reference(benchmark, figures, alternate):
    ref_actions = _reference_games()
    # Same seeded playouts, or the ratio compares different work.
    assert _engine_rollouts(count=True) == ENGINE_REPEATS * ref_actions == ENGINE_REPEATS * (
        _engine_python_loop(1)
    ), "engine and reference played different games: run tests/test_differential_just4fun.py"
    m = alternate({"reference": _reference_games, "engine rollout": _engine_rollouts,
                   "engine Python loop": _engine_python_loop}, rounds=5)
    if m is None:
        return
    ref = ref_actions / m["reference"]
    figures.record("reference (pure Python)", ref, "actions/s")
    figures.record_ratio("engine rollout / reference",
                         ENGINE_REPEATS * ref_actions / m["engine rollout"] / ref, ">= 100")
    figures.record_ratio("engine Python loop / reference",
                         LOOP_REPEATS * ref_actions / m["engine Python loop"] / ref, None)


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
        figures.record_ratio("line check / C floor (2.4 ns)", ns / C_FLOOR_NS, "<= 2")


# ---------------------------------------------------------------------------------
# peer: OpenSpiel connect_four, same loop shape, same run
# ---------------------------------------------------------------------------------

PEER_GAMES = 200


def _spiel_python_games(c4_start, games: int, seed: int = 2024) -> int:
    choice = random.Random(seed).choice
    n = 0
    for _ in range(games):
        s = c4_start.clone()
        while not s.is_terminal():
            s.apply_action(choice(s.legal_actions()))
            n += 1
    return n


@pytest.fixture(scope="module")
def c4(open_spiel):
    game = open_spiel.load_game("connect_four")
    return game, game.new_initial_state()


@pytest.mark.benchmark(group="peer")
def test_peer_python_loop(benchmark, figures, alternate, c4):
    _, c4_start = c4
    ours, theirs = _python_games(PEER_GAMES), _spiel_python_games(c4_start, PEER_GAMES)
    m = alternate({"just4fun": lambda: _python_games(PEER_GAMES),
                   "openspiel": lambda: _spiel_python_games(c4_start, PEER_GAMES)}, rounds=7)
    if m is not None:
        figures.record("OpenSpiel Python-driven playout", theirs / m["openspiel"], "actions/s")
        figures.record_ratio("Python-driven actions/s vs OpenSpiel",
                             (ours / m["just4fun"]) / (theirs / m["openspiel"]), ">= 3")


@pytest.mark.benchmark(group="peer")
def test_peer_copy_vs_clone(benchmark, figures, alternate, c4):
    _, c4_start = c4
    c4_mid = c4_start.clone()
    for a in (3, 3, 2, 4, 2, 4, 5, 1):   # mid-game, no line yet
        c4_mid.apply_action(a)
    assert not c4_mid.is_terminal()
    copies = range(5000)

    def ours():
        c = MID.copy
        for _ in copies:
            c()

    def theirs():
        c = c4_mid.clone
        for _ in copies:
            c()

    m = alternate({"copy": ours, "clone": theirs}, rounds=9)
    if m is not None:
        figures.record("OpenSpiel clone() mid-game", m["clone"] / len(copies) * 1e9, "ns/call")
        figures.record_ratio("copy() / OpenSpiel clone()", m["copy"] / m["clone"], "<= 0.25")


@pytest.fixture(scope="module")
def c4_mean_length(c4):
    # evaluate_bots returns no length: estimate it from the same random policy.
    _, c4_start = c4
    games = 4000
    return _spiel_python_games(c4_start, games, seed=99) / games


@pytest.mark.benchmark(group="peer")
def test_peer_simulate_vs_evaluate_bots(benchmark, figures, alternate, c4, c4_mean_length,
                                        open_spiel):
    if not hasattr(open_spiel, "evaluate_bots"):
        pytest.skip("this OpenSpiel has no evaluate_bots")
    game, _ = c4
    bots = [open_spiel.make_uniform_random_bot(0, 1), open_spiel.make_uniform_random_bot(1, 2)]
    spiel_games = 3000
    sim_games = 4 * 4096
    ours = _simulate(1, sim_games)

    def theirs():
        for i in range(spiel_games):
            open_spiel.evaluate_bots(game.new_initial_state(), bots, i)

    m = alternate({"simulate": lambda: _simulate(1, sim_games), "evaluate_bots": theirs},
                  rounds=5)
    if m is not None:
        spiel_rate = spiel_games * c4_mean_length / m["evaluate_bots"]
        figures.record("OpenSpiel evaluate_bots (C++ game)", spiel_rate, "actions/s")
        figures.record_ratio("simulate() 1 worker vs evaluate_bots",
                             (ours / m["simulate"]) / spiel_rate, ">= 10")
