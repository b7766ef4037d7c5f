"""Rummikub Junior benchmarks (pytest-benchmark): run
``pytest bench/test_rummikub_junior.py --benchmark-only``; the ratios of
``performance.md`` are printed on the last lines.

Groups: legal_actions, apply, copy, playout (one move from Python, with the OpenSpiel
``connect_four`` and RLCard ``uno`` peers), simulate (one core, two workers, OpenSpiel
``evaluate_bots``), movegen (the compiled move-generation kernel), reference (the
compiled engine against the pure-Python reference on the same seeded playouts).
The peers are bench-only extras (``pip install boardcore[bench]``).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import boardcore
from boardcore._engine.rummikub_junior import _legal_actions_kernel
from boardcore.simulate import derive_seed

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.reference import rummikub_junior as ref  # noqa: E402
from tests.reference._rng import Rng  # noqa: E402

GAME = boardcore.make("rummikub_junior", players=3)
LOOP_GAMES = 20
SIM_GAMES = 4 * 4096  # four chunks, so two workers share them

#: name -> (median seconds per round, units per round), filled as benchmarks run.
RESULTS: dict[str, tuple[float, float]] = {}


def record(name: str, benchmark: Any, units: float) -> None:
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        RESULTS[name] = (stats.stats.median, units)


def midgame_states(count: int) -> list[Any]:
    """Positions from seeded random games, each stopped at a random point."""
    states = []
    rng = Rng(99)
    for i in range(count):
        state = GAME.new_state(seed=i)
        stop = rng.bounded(60)
        for _ in range(stop):
            if state.is_over():
                break
            legal = state.legal_actions()
            state.apply(legal[rng.bounded(len(legal))])
        if not state.is_over():
            states.append(state)
    return states


MIDGAME = midgame_states(300)


# -- tier 1: one move from Python --------------------------------------------------------

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
def test_playout_python_loop(benchmark: Any) -> None:
    actions = python_loop()
    benchmark(python_loop)
    record("loop", benchmark, actions)


def openspiel_loop() -> int:
    import pyspiel

    game = pyspiel.load_game("connect_four")
    actions = 0
    for seed in range(LOOP_GAMES * 4):
        state = game.new_initial_state()
        choose = random.Random(seed).choice
        while not state.is_terminal():
            state.apply_action(choose(state.legal_actions()))
            actions += 1
    return actions


@pytest.mark.benchmark(group="playout")
def test_peer_openspiel_connect_four_loop(benchmark: Any) -> None:
    pytest.importorskip("pyspiel")
    actions = openspiel_loop()
    benchmark(openspiel_loop)
    record("openspiel_loop", benchmark, actions)


def rlcard_loop() -> int:
    import rlcard

    env = rlcard.make("uno", config={"seed": 0})
    actions = 0
    for seed in range(LOOP_GAMES // 4):
        choose = random.Random(seed).choice
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(choose(list(state["legal_actions"])))
            actions += 1
    return actions


@pytest.mark.benchmark(group="playout")
def test_peer_rlcard_uno_loop(benchmark: Any) -> None:
    pytest.importorskip("rlcard")
    actions = rlcard_loop()
    benchmark.pedantic(rlcard_loop, rounds=3, iterations=1)
    record("rlcard_loop", benchmark, actions)


@pytest.mark.benchmark(group="legal_actions")
def test_legal_actions(benchmark: Any) -> None:
    states = MIDGAME[:100]

    def run() -> None:
        for state in states:
            state.legal_actions()

    benchmark(run)
    record("legal_actions", benchmark, len(states))


@pytest.mark.benchmark(group="apply")
def test_apply(benchmark: Any) -> None:
    """Replay one recorded game on a copy: one copy per ~80 checked applies."""
    start = GAME.new_state(seed=5)
    done = start.copy()
    done.rollout(seed=6)
    actions = done.history()

    def run() -> None:
        state = start.copy()
        for a in actions:
            state.apply(a)

    benchmark(run)
    record("apply", benchmark, len(actions))


# -- tier 2: copy ------------------------------------------------------------------------

@pytest.mark.benchmark(group="copy")
def test_copy(benchmark: Any) -> None:
    state = MIDGAME[len(MIDGAME) // 2]
    benchmark(state.copy)
    record("copy", benchmark, 1)


@pytest.mark.benchmark(group="copy")
def test_peer_openspiel_clone(benchmark: Any) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    state = pyspiel.load_game("connect_four").new_initial_state()
    for a in (3, 3, 2, 4, 1):
        state.apply_action(a)
    benchmark(state.clone)
    record("openspiel_clone", benchmark, 1)


# -- tier 3: whole games in compiled code ----------------------------------------------------

@pytest.mark.benchmark(group="simulate")
def test_simulate_one_core(benchmark: Any) -> None:
    result = boardcore.simulate(GAME, SIM_GAMES, seed=1)
    benchmark(boardcore.simulate, GAME, SIM_GAMES, seed=1)
    record("simulate", benchmark, float(result.lengths.sum()))


@pytest.mark.benchmark(group="simulate")
def test_simulate_two_workers(benchmark: Any) -> None:
    result = boardcore.simulate(GAME, SIM_GAMES, seed=1, workers=2)
    benchmark(boardcore.simulate, GAME, SIM_GAMES, seed=1, workers=2)
    record("simulate2", benchmark, float(result.lengths.sum()))


@pytest.mark.benchmark(group="simulate")
def test_rollout_from_a_state(benchmark: Any) -> None:
    state = MIDGAME[0]
    lengths = []

    def run() -> None:
        twin = state.copy()
        twin.rollout(seed=7)
        lengths.append(len(twin.history()) - len(state.history()))

    benchmark(run)
    record("rollout", benchmark, lengths[0])


@pytest.mark.benchmark(group="simulate")
def test_peer_openspiel_evaluate_bots(benchmark: Any) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("connect_four")
    games = 2000
    mean_length = openspiel_loop() / (LOOP_GAMES * 4)

    def run() -> None:
        bots = [pyspiel.make_uniform_random_bot(p, 17 + p) for p in range(2)]
        for seed in range(games):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)

    benchmark.pedantic(run, rounds=3, iterations=1)
    record("openspiel_bots", benchmark, games * mean_length)


# -- the move-generation kernel ----------------------------------------------------------------

@pytest.mark.benchmark(group="movegen")
def test_movegen_kernel(benchmark: Any) -> None:
    repeats = 50
    generated = _legal_actions_kernel(MIDGAME, repeats)
    assert generated > 0
    benchmark(_legal_actions_kernel, MIDGAME, repeats)
    record("movegen", benchmark, len(MIDGAME) * repeats)


@pytest.mark.benchmark(group="movegen")
def test_movegen_reference(benchmark: Any) -> None:
    models = [ref.RummikubJuniorRef.from_dict(s.to_dict()) for s in MIDGAME[:100]]

    def run() -> None:
        for m in models:
            ref.new_runs_of_colour.cache_clear()
            m.legal_actions()

    benchmark.pedantic(run, rounds=3, iterations=1)
    record("movegen_reference", benchmark, len(models))


# -- against our own reference --------------------------------------------------------------

def seeded_games(n: int) -> Iterator[tuple[int, int]]:
    for i in range(n):
        yield derive_seed(3, 0, i), derive_seed(3, 1, i)


def engine_playouts() -> None:
    for seed, player in seeded_games(20):
        GAME.new_state(seed=seed).rollout(seed=player)


def reference_playouts() -> None:
    for seed, player in seeded_games(20):
        model = ref.RummikubJuniorRef(3, seed)
        chooser = Rng(player)
        while not model.is_over():
            legal = model.legal_actions()
            model.apply(legal[chooser.bounded(len(legal))])


@pytest.mark.benchmark(group="reference")
def test_engine_playouts(benchmark: Any) -> None:
    benchmark(engine_playouts)
    record("engine_playouts", benchmark, 20)


@pytest.mark.benchmark(group="reference")
def test_reference_playouts(benchmark: Any) -> None:
    benchmark.pedantic(reference_playouts, rounds=3, iterations=1)
    record("reference_playouts", benchmark, 20)


# -- the ratios of performance.md -------------------------------------------------------------

def rate(name: str) -> float | None:
    """Units per second of a recorded benchmark."""
    if name not in RESULTS:
        return None
    seconds, units = RESULTS[name]
    return units / seconds


def ratio_lines() -> list[str]:
    def show(label: str, value: float | None, target: str, fmt: Callable[[float], str]) -> str:
        text = fmt(value) if value is not None else "n/a (not measured)"
        return f"  {label:<46} {text:>14}   target {target}"

    def div(a: float | None, b: float | None) -> float | None:
        return a / b if a is not None and b is not None else None

    copy = RESULTS.get("copy", (None, 1))[0]
    clone = RESULTS.get("openspiel_clone", (None, 1))[0]
    return [
        "rummikub_junior vs performance.md (medians of this run):",
        show("python loop actions/s", rate("loop"), "-", lambda v: f"{v:,.0f}"),
        show("  / OpenSpiel connect_four loop", div(rate("loop"), rate("openspiel_loop")),
             ">= 3x", lambda v: f"{v:.2f}x"),
        show("  / RLCard uno loop", div(rate("loop"), rate("rlcard_loop")), ">= 50x",
             lambda v: f"{v:.1f}x"),
        show("legal_actions() ns/call", div(1e9, rate("legal_actions")), "-",
             lambda v: f"{v:,.0f}"),
        show("apply() ns/call (with its copy, amortised)", div(1e9, rate("apply")), "-",
             lambda v: f"{v:,.0f}"),
        show("copy() ns", copy * 1e9 if copy else None, "-", lambda v: f"{v:,.0f}"),
        show("  / OpenSpiel clone()", div(copy, clone), "<= 0.25", lambda v: f"{v:.2f}"),
        show("simulate() actions/s, one core", rate("simulate"), ">= 1,000,000",
             lambda v: f"{v:,.0f}"),
        show("  / OpenSpiel evaluate_bots actions/s", div(rate("simulate"),
             rate("openspiel_bots")), ">= 10x", lambda v: f"{v:.1f}x"),
        show("simulate(workers=2) / workers=1", div(rate("simulate2"), rate("simulate")),
             ">= 1.8x", lambda v: f"{v:.2f}x"),
        show("rollout() actions/s", rate("rollout"), "-", lambda v: f"{v:,.0f}"),
        show("move generation ns/position (kernel)", div(1e9, rate("movegen")), "-",
             lambda v: f"{v:,.0f}"),
        show("  reference / kernel", div(rate("movegen"), rate("movegen_reference")), "-",
             lambda v: f"{v:,.0f}x"),
        show("engine / reference, same seeded playouts",
             div(rate("engine_playouts"), rate("reference_playouts")), ">= 100x",
             lambda v: f"{v:,.0f}x"),
    ]


class _RatioPrinter:
    """Writes the ratios after pytest-benchmark's tables, on the last lines."""

    @pytest.hookimpl(trylast=True)
    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if RESULTS:
            terminalreporter.write_line("")
            for line in ratio_lines():
                terminalreporter.write_line(line)


@pytest.fixture(scope="module", autouse=True)
def print_ratios(request: pytest.FixtureRequest) -> None:
    manager = request.config.pluginmanager
    if not manager.has_plugin("rummikub_junior_ratios"):
        manager.register(_RatioPrinter(), "rummikub_junior_ratios")
