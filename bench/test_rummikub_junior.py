"""Rummikub Junior benchmarks: ``pytest bench/test_rummikub_junior.py --benchmark-only``.

Groups: legal_actions, apply, copy, playout (one move from Python), simulate (whole
games in compiled code), movegen (the compiled move-generation kernel), reference (the
engine against the pure-Python reference on the same seeded playouts), and the peer
groups (OpenSpiel ``connect_four``, RLCard ``uno``; bench extras).  Every ratio of
``performance.md`` comes from one side-by-side ``alternate`` run and is printed, with
its target, in the figures table on the last lines (bench/conftest.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import boardcore
import pytest
from boardcore._engine.rummikub_junior import _legal_actions_kernel
from boardcore.simulate import derive_seed

from tests.reference import rummikub_junior as ref
from tests.reference._rng import Rng

GAME = boardcore.make("rummikub_junior", players=3)
NAME = "rummikub_junior: "  # figure names share one table with the other games
LOOP_GAMES = 100
SIM_GAMES = 4 * 4096  # four of simulate's chunks, so two workers can share them


def midgame_states(count: int) -> list[Any]:
    """Positions from seeded random games, each stopped at a random point."""
    states = []
    rng = Rng(99)
    for i in range(count):
        state = GAME.new_state(seed=i)
        for _ in range(rng.bounded(60)):
            if state.is_over():
                break
            legal = state.legal_actions()
            state.apply(legal[rng.bounded(len(legal))])
        if not state.is_over():
            states.append(state)
    return states


MIDGAME = midgame_states(300)


def counted(fn: Callable[[], int]) -> tuple[Callable[[], None], int]:
    """``fn`` as a side for ``alternate``, and the units one call handles (every call
    must handle the same)."""
    units = fn()

    def side() -> None:
        if fn() != units:
            raise AssertionError(f"{fn.__name__} is not deterministic")

    return side, units


# -- tier 1: one move from Python ----------------------------------------------------------

def python_loop() -> int:
    """Random games driven from Python: legal_actions, random.choice, apply, is_over."""
    actions = 0
    for seed in range(LOOP_GAMES):
        state = GAME.new_state(seed=seed)
        choose = random.Random(seed).choice
        while not state.is_over():
            state.apply(choose(state.legal_actions()))
            actions += 1
    return actions


@pytest.mark.benchmark(group="playout")
def test_playout_python_loop(benchmark: Any, figures: Any,
                             median_seconds: Callable[[Any], float | None]) -> None:
    actions = python_loop()
    benchmark(python_loop)
    seconds = median_seconds(benchmark)
    if seconds:
        figures.record(NAME + "Python loop", actions / seconds, "actions/s")


@pytest.mark.benchmark(group="peer: OpenSpiel connect_four")
def test_peer_openspiel_loop(alternate: Any, figures: Any, open_spiel: Any) -> None:
    game = open_spiel.load_game("connect_four")

    def peer_loop() -> int:
        actions = 0
        for seed in range(LOOP_GAMES * 4):
            state = game.new_initial_state()
            choose = random.Random(seed).choice
            while not state.is_terminal():
                state.apply_action(choose(state.legal_actions()))
                actions += 1
        return actions

    ours, our_actions = counted(python_loop)
    peer, peer_actions = counted(peer_loop)
    med = alternate({"rummikub_junior": ours, "openspiel": peer}, rounds=11)
    if med:
        figures.record_ratio(
            NAME + "Python loop actions/s / OpenSpiel connect_four",
            (our_actions / med["rummikub_junior"]) / (peer_actions / med["openspiel"]), ">= 3")


@pytest.mark.benchmark(group="peer: RLCard uno")
def test_peer_rlcard_loop(alternate: Any, figures: Any, rlcard: Any) -> None:
    env = rlcard.make("uno", config={"seed": 0})

    def peer_loop() -> int:
        env.seed(0)  # the same deals every call
        actions = 0
        for seed in range(LOOP_GAMES // 2):
            choose = random.Random(seed).choice
            state, _ = env.reset()
            while not env.is_over():
                state, _ = env.step(choose(list(state["legal_actions"])))
                actions += 1
        return actions

    ours, our_actions = counted(python_loop)
    peer, peer_actions = counted(peer_loop)
    med = alternate({"rummikub_junior": ours, "rlcard": peer}, rounds=9)
    if med:
        figures.record_ratio(
            NAME + "Python loop actions/s / RLCard uno",
            (our_actions / med["rummikub_junior"]) / (peer_actions / med["rlcard"]), ">= 50")


@pytest.mark.benchmark(group="legal_actions")
def test_legal_actions(benchmark: Any, figures: Any,
                       median_seconds: Callable[[Any], float | None]) -> None:
    states = MIDGAME[:100]

    def run() -> None:
        for state in states:
            state.legal_actions()

    benchmark(run)
    seconds = median_seconds(benchmark)
    if seconds:
        figures.record(NAME + "legal_actions() from Python", seconds / len(states) * 1e9, "ns")


@pytest.mark.benchmark(group="apply")
def test_apply(benchmark: Any, figures: Any,
               median_seconds: Callable[[Any], float | None]) -> None:
    """Replay recorded games on copies: one copy per ~70 checked applies."""
    starts = [GAME.new_state(seed=s) for s in range(10)]
    games = []
    for start in starts:
        done = start.copy()
        done.rollout(seed=6)
        games.append((start, done.history()))
    count = sum(len(h) for _, h in games)

    def run() -> None:
        for start, actions in games:
            state = start.copy()
            for a in actions:
                state.apply(a)

    benchmark(run)
    seconds = median_seconds(benchmark)
    if seconds:
        figures.record(NAME + "apply() from Python (copy amortised)", seconds / count * 1e9, "ns")


# -- tier 2: copy ----------------------------------------------------------------------------

@pytest.mark.benchmark(group="copy")
def test_copy_vs_openspiel_clone(alternate: Any, figures: Any, open_spiel: Any) -> None:
    state = MIDGAME[len(MIDGAME) // 2]
    peer = open_spiel.load_game("connect_four").new_initial_state()
    for a in (3, 3, 2, 4, 1):
        peer.apply_action(a)
    n = 20000

    def ours() -> None:
        copy = state.copy
        for _ in range(n):
            copy()

    def theirs() -> None:
        clone = peer.clone
        for _ in range(n):
            clone()

    med = alternate({"copy": ours, "clone": theirs})
    if med:
        figures.record(NAME + "copy()", med["copy"] / n * 1e9, "ns")
        figures.record_ratio(NAME + "copy() / OpenSpiel clone()", med["copy"] / med["clone"],
                             "<= 0.25")


# -- tier 3: whole games in compiled code ------------------------------------------------------

def simulated_actions(workers: int) -> Callable[[], int]:
    def run() -> int:
        return int(boardcore.simulate(GAME, SIM_GAMES, seed=1, workers=workers).lengths.sum())
    return run


@pytest.mark.benchmark(group="simulate")
def test_simulate_one_core(benchmark: Any, figures: Any,
                           median_seconds: Callable[[Any], float | None]) -> None:
    actions = simulated_actions(1)()
    benchmark(simulated_actions(1))
    seconds = median_seconds(benchmark)
    if seconds:
        figures.record(NAME + "simulate() one core", actions / seconds, "actions/s", ">= 1000000")


@pytest.mark.benchmark(group="simulate")
def test_simulate_scaling(alternate: Any, figures: Any) -> None:
    one, _ = counted(simulated_actions(1))
    two, _ = counted(simulated_actions(2))
    med = alternate({"workers=1": one, "workers=2": two}, rounds=5)
    if med:
        figures.record_ratio(NAME + "simulate workers=2 / workers=1",
                             med["workers=1"] / med["workers=2"],
                             ">= 1.8")


@pytest.mark.benchmark(group="simulate")
def test_rollout_from_a_state(benchmark: Any, figures: Any,
                              median_seconds: Callable[[Any], float | None]) -> None:
    states = MIDGAME[:50]
    lengths = []
    for state in states:
        twin = state.copy()
        twin.rollout(seed=7)
        lengths.append(len(twin.history()) - len(state.history()))

    def run() -> None:
        for state in states:
            state.copy().rollout(seed=7)

    benchmark(run)
    seconds = median_seconds(benchmark)
    if seconds:
        figures.record(NAME + "rollout() from a mid-game state", sum(lengths) / seconds,
                       "actions/s")


@pytest.mark.benchmark(group="peer: OpenSpiel connect_four")
def test_simulate_vs_openspiel_evaluate_bots(alternate: Any, figures: Any,
                                             open_spiel: Any) -> None:
    game = open_spiel.load_game("connect_four")
    games = 2000

    def peer() -> None:
        bots = [open_spiel.make_uniform_random_bot(p, 17 + p) for p in range(2)]
        for seed in range(games):
            open_spiel.evaluate_bots(game.new_initial_state(), bots, seed)

    # evaluate_bots reports returns only: take connect_four's mean random-game length
    # from games played in Python.

    lengths = 0
    for seed in range(200):
        state = game.new_initial_state()
        choose = random.Random(seed).choice
        while not state.is_terminal():
            state.apply_action(choose(state.legal_actions()))
            lengths += 1
    peer_actions = games * lengths / 200
    ours, our_actions = counted(simulated_actions(1))
    med = alternate({"simulate": ours, "evaluate_bots": peer}, rounds=5)
    if med:
        figures.record_ratio(
            NAME + "simulate() actions/s / OpenSpiel evaluate_bots",
            (our_actions / med["simulate"]) / (peer_actions / med["evaluate_bots"]), ">= 10")


# -- the move-generation kernel -----------------------------------------------------------------

@pytest.mark.benchmark(group="movegen")
def test_movegen_kernel(benchmark: Any, figures: Any,
                        median_seconds: Callable[[Any], float | None]) -> None:
    repeats = 50
    assert _legal_actions_kernel(MIDGAME, repeats) > 0
    benchmark(_legal_actions_kernel, MIDGAME, repeats)
    seconds = median_seconds(benchmark)
    if seconds:
        figures.record(NAME + "move generation, compiled kernel",
                       seconds / (len(MIDGAME) * repeats) * 1e9, "ns/position")


@pytest.mark.benchmark(group="movegen")
def test_movegen_vs_reference_brute_force(alternate: Any, figures: Any) -> None:
    models = [ref.RummikubJuniorRef.from_dict(s.to_dict()) for s in MIDGAME[:100]]
    states = MIDGAME[:100]

    def reference() -> None:
        for m in models:
            ref.new_runs_of_colour.cache_clear()
            m.legal_actions()

    def engine() -> None:
        for _ in range(100):
            _legal_actions_kernel(states, 1)

    med = alternate({"engine x100": engine, "reference": reference}, rounds=3)
    if med:
        figures.record_ratio(NAME + "move generation: kernel / reference brute force",
                             med["reference"] / (med["engine x100"] / 100), None)


# -- against our own reference -------------------------------------------------------------------

PLAYOUTS = [(derive_seed(3, 0, i), derive_seed(3, 1, i)) for i in range(10)]


def engine_playouts() -> None:
    for seed, player in PLAYOUTS:
        GAME.new_state(seed=seed).rollout(seed=player)


def reference_playouts() -> None:
    for seed, player in PLAYOUTS:
        model = ref.RummikubJuniorRef(3, seed)
        chooser = Rng(player)
        while not model.is_over():
            legal = model.legal_actions()
            model.apply(legal[chooser.bounded(len(legal))])


@pytest.mark.benchmark(group="reference")
def test_engine_vs_reference(alternate: Any, figures: Any) -> None:
    def engine() -> None:
        for _ in range(100):
            engine_playouts()

    med = alternate({"engine x100": engine, "reference": reference_playouts}, rounds=3)
    if med:
        figures.record_ratio(NAME + "engine / pure-Python reference, same playouts",
                             med["reference"] / (med["engine x100"] / 100), ">= 100")
