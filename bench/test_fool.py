"""Fool benchmarks (pytest-benchmark); targets from shared/design/performance.md.

Run:   pytest bench/test_fool.py --benchmark-only
Smoke: pytest bench --benchmark-disable        (each body once, as CI does)

Every test measures; none asserts on a timing.  Figures and ratios go to the ``figures``
registry (bench/conftest.py) and are printed as a table on the last lines, every name
starting ``fool:``.  Ratios against the peers (RLCard ``uno``, OpenSpiel
``connect_four``), the reference and between worker counts come from ``alternate`` (the
sides timed A, B, B, A, ... in one test).  All games: 4 players, the F2 deck, unless a
test says otherwise.
"""

from __future__ import annotations

import random

import boardcore
import numpy as np
import pytest
from boardcore.simulate import derive_seed

GAME = boardcore.make("fool", players=4)
START = GAME.new_state(seed=1)           # the fixed start state every playout copies
TRICK_TARGET_NS = 30.0                   # performance.md: resolving one Fool trick


def _midgame(moves: int = 23):
    """A deterministic mid-round position (23 random actions from START)."""
    s = START.copy()
    rnd = random.Random(0)
    for _ in range(moves):
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


@pytest.mark.benchmark(group="fool legal_actions", max_time=0.25)
def test_legal_actions(benchmark, figures, median_seconds):
    benchmark(MID.legal_actions)
    if (t := median_seconds(benchmark)) is not None:
        figures.record("fool: legal_actions() mid-round", t * 1e9, "ns/call")


@pytest.mark.benchmark(group="fool legal_actions", max_time=0.25)
def test_legal_actions_mask(benchmark, figures, median_seconds):
    benchmark(MID.legal_actions_mask)
    if (t := median_seconds(benchmark)) is not None:
        figures.record("fool: legal_actions_mask() mid-round", t * 1e9, "ns/call")


@pytest.mark.benchmark(group="fool apply")
def test_apply(benchmark, figures, median_seconds):
    # A whole recorded game re-applied to a fresh copy (the copy is untimed setup); the
    # figure includes the `for a in seq` loop and the deals of later rounds.
    game = START.copy()
    game.rollout(7)
    seq = game.history()

    def replay(s):
        for a in seq:
            s.apply(a)

    benchmark.pedantic(replay, setup=lambda: ((START.copy(),), {}), rounds=100,
                       warmup_rounds=3)
    if (t := median_seconds(benchmark)) is not None:
        figures.record("fool: apply() incl. legality check", t / len(seq) * 1e9, "ns/action")


@pytest.mark.benchmark(group="fool copy", max_time=0.25)
def test_copy_start(benchmark, figures, median_seconds):
    benchmark(START.copy)
    if (t := median_seconds(benchmark)) is not None:
        figures.record("fool: copy() start state", t * 1e9, "ns/call")


@pytest.mark.benchmark(group="fool copy", max_time=0.25)
def test_copy_midgame(benchmark, figures, median_seconds):
    benchmark(MID.copy)
    if (t := median_seconds(benchmark)) is not None:
        figures.record("fool: copy() mid-round (with history)", t * 1e9, "ns/call")


# ---------------------------------------------------------------------------------
# playout: whole games, driven from Python and in one compiled call
# ---------------------------------------------------------------------------------

PLAYOUT_GAMES = 100


@pytest.mark.benchmark(group="fool playout")
def test_playout_python_loop(benchmark, figures, median_seconds):
    actions = _python_games(PLAYOUT_GAMES)
    benchmark.pedantic(_python_games, args=(PLAYOUT_GAMES,), rounds=7, warmup_rounds=1)
    if (t := median_seconds(benchmark)) is not None:
        figures.record("fool: Python-driven playout", actions / t, "actions/s")


@pytest.mark.benchmark(group="fool playout")
def test_playout_rollout(benchmark, figures, median_seconds):
    games = 1000
    actions = _rollouts(games, count=True)
    benchmark.pedantic(_rollouts, args=(games,), rounds=7, warmup_rounds=1)
    if (t := median_seconds(benchmark)) is not None:
        figures.record("fool: rollout(), one call per game", actions / t, "actions/s")


# ---------------------------------------------------------------------------------
# simulate: batches in compiled code, one and two workers, every player count
# ---------------------------------------------------------------------------------

SIM_GAMES = 4 * 4096   # whole chunks, so two workers get equal shares


def _simulate(workers: int, games: int = SIM_GAMES, game=GAME) -> int:
    return int(boardcore.simulate(game, games, seed=11, workers=workers).lengths.sum())


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.benchmark(group="fool simulate")
def test_simulate(benchmark, figures, median_seconds, workers):
    actions = _simulate(workers)
    benchmark.pedantic(_simulate, args=(workers,), rounds=5, warmup_rounds=1)
    if (t := median_seconds(benchmark)) is not None:
        if workers == 1:
            figures.record("fool: simulate(), 1 worker", actions / t, "actions/s", ">= 10e6")
        else:
            figures.record("fool: simulate(), workers=2", actions / t, "actions/s")


@pytest.mark.parametrize("players", [6, 8])
@pytest.mark.benchmark(group="fool simulate")
def test_simulate_players(benchmark, figures, median_seconds, players):
    game = boardcore.make("fool", players=players)
    actions = _simulate(1, game=game)
    benchmark.pedantic(_simulate, args=(1, SIM_GAMES, game), rounds=5, warmup_rounds=1)
    if (t := median_seconds(benchmark)) is not None:
        figures.record(f"fool: simulate(), 1 worker, {players} players", actions / t,
                       "actions/s", ">= 10e6")


@pytest.mark.benchmark(group="fool simulate")
def test_simulate_scaling(benchmark, figures, alternate):
    m = alternate({"workers=1": lambda: _simulate(1), "workers=2": lambda: _simulate(2)},
                  rounds=5)
    if m is not None:
        figures.record_ratio("fool: simulate workers=2 / workers=1",
                             m["workers=1"] / m["workers=2"], ">= 1.8")


# ---------------------------------------------------------------------------------
# reference: the pure-Python rules on the same seeded playouts
# ---------------------------------------------------------------------------------

REF_SEED = 7
REF_GAMES = 4
ENGINE_REPEATS = 200
LOOP_REPEATS = 20


def _reference_games() -> int:
    from tests.reference._rng import Rng
    from tests.reference.fool import FoolRef

    n = 0
    for i in range(REF_GAMES):
        ref = FoolRef(4, derive_seed(REF_SEED, 0, i))
        player = Rng(derive_seed(REF_SEED, 1, i))
        while not ref.over:
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


@pytest.mark.benchmark(group="fool reference")
def test_engine_vs_reference(benchmark, figures, alternate):
    ref_actions = _reference_games()
    # Same seeded playouts, or the ratio compares different work.
    assert _engine_rollouts(count=True) == ENGINE_REPEATS * ref_actions == ENGINE_REPEATS * (
        _engine_python_loop(1)
    ), "engine and reference played different games: run tests/test_differential_fool.py"
    m = alternate({"reference": _reference_games, "engine rollout": _engine_rollouts,
                   "engine Python loop": _engine_python_loop}, rounds=5)
    if m is None:
        return
    ref = ref_actions / m["reference"]
    figures.record("fool: reference (pure Python)", ref, "actions/s")
    figures.record_ratio("fool: engine rollout / reference",
                         ENGINE_REPEATS * ref_actions / m["engine rollout"] / ref, ">= 100")
    figures.record_ratio("fool: engine Python loop / reference",
                         LOOP_REPEATS * ref_actions / m["engine Python loop"] / ref, None)


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
@pytest.mark.benchmark(group="fool kernel")
def test_trick_kernel(benchmark, figures, median_seconds, nfools):
    from boardcore._engine.fool import _trick_kernel

    seats, cards, leads, lengths = _tricks(4096, nfools)
    repeat = 64
    benchmark.pedantic(_trick_kernel, args=(seats, cards, leads, lengths, nfools, repeat),
                       rounds=15, warmup_rounds=2)
    if (t := median_seconds(benchmark)) is not None:
        ns = t / (seats.shape[0] * repeat) * 1e9
        figures.record(f"fool: resolve one trick ({nfools} Fool{'s' * (nfools - 1)})", ns,
                       "ns/trick", f"<= {TRICK_TARGET_NS}")


# ---------------------------------------------------------------------------------
# peers: RLCard uno (a pure-Python card game), OpenSpiel connect_four
# ---------------------------------------------------------------------------------

PEER_GAMES = 50
UNO_GAMES = 20


def _uno_python_games(env, games: int, seed: int = 2024) -> int:
    """RLCard's manual random loop: legal actions, random.choice, step."""
    choice = random.Random(seed).choice
    n = 0
    for g in range(games):
        env.seed(g)
        state, _player = env.reset()
        while not env.is_over():
            state, _player = env.step(choice(list(state["legal_actions"])))
            n += 1
    return n


@pytest.mark.benchmark(group="fool peer")
def test_peer_rlcard_uno(benchmark, figures, alternate, rlcard):
    env = rlcard.make("uno", config={"seed": 0})
    ours, theirs = _python_games(PEER_GAMES), _uno_python_games(env, UNO_GAMES)
    m = alternate({"fool": lambda: _python_games(PEER_GAMES),
                   "uno": lambda: _uno_python_games(env, UNO_GAMES)}, rounds=7)
    if m is not None:
        figures.record("RLCard uno manual random loop", theirs / m["uno"], "actions/s")
        figures.record_ratio("fool: Python-driven actions/s vs RLCard uno",
                             (ours / m["fool"]) / (theirs / m["uno"]), ">= 50")


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


@pytest.mark.benchmark(group="fool peer")
def test_peer_openspiel_python_loop(benchmark, figures, alternate, c4):
    _, c4_start = c4
    ours, theirs = _python_games(PEER_GAMES), _spiel_python_games(c4_start, 4 * PEER_GAMES)
    m = alternate({"fool": lambda: _python_games(PEER_GAMES),
                   "openspiel": lambda: _spiel_python_games(c4_start, 4 * PEER_GAMES)},
                  rounds=7)
    if m is not None:
        figures.record_ratio("fool: Python-driven actions/s vs OpenSpiel",
                             (ours / m["fool"]) / (theirs / m["openspiel"]), ">= 3")


@pytest.mark.benchmark(group="fool peer")
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
        figures.record_ratio("fool: copy() / OpenSpiel clone()", m["copy"] / m["clone"],
                             "<= 0.25")


@pytest.mark.benchmark(group="fool peer")
def test_peer_simulate_vs_evaluate_bots(benchmark, figures, alternate, c4, open_spiel):
    if not hasattr(open_spiel, "evaluate_bots"):
        pytest.skip("this OpenSpiel has no evaluate_bots")
    game, c4_start = c4
    mean_length = _spiel_python_games(c4_start, 2000, seed=99) / 2000
    bots = [open_spiel.make_uniform_random_bot(0, 1), open_spiel.make_uniform_random_bot(1, 2)]
    spiel_games = 3000
    sim_games = 2 * 4096
    ours = _simulate(1, sim_games)

    def theirs():
        for i in range(spiel_games):
            open_spiel.evaluate_bots(game.new_initial_state(), bots, i)

    m = alternate({"simulate": lambda: _simulate(1, sim_games), "evaluate_bots": theirs},
                  rounds=5)
    if m is not None:
        spiel_rate = spiel_games * mean_length / m["evaluate_bots"]
        figures.record_ratio("fool: simulate() 1 worker vs evaluate_bots",
                             (ours / m["simulate"]) / spiel_rate, ">= 10")
