"""The benchmarks every game shares, parameterised by a ``Case``.

A game's ``bench/test_<game>.py`` declares one ``Case`` (its configuration, sizes,
pure-Python reference driver and ``simulate()`` target) and one test class::

    CASE = Case("just4fun", players=2, simulate_target=">= 10e6", ...)

    class TestJust4Fun(GameBenchmarks):
        case = CASE

and keeps only what is really its own (its kernel).  ``GameBenchmarks`` brings the
standard set, the same figures and targets for every game:

* per call from Python: ``legal_actions()``, ``legal_actions_mask()``, ``is_over()``,
  ``copy()`` (start and mid-game), ``apply()``;
* whole games: the Python-driven playout, ``rollout()``, ``simulate()`` with one and two
  workers and the ``workers=2 / workers=1`` ratio (>= 1.8);
* the compiled engine against the pure-Python reference on the same seeded playouts
  (>= 100; the test first checks that both played the same games);
* against OpenSpiel ``connect_four``: the Python loop (>= 3x), ``copy()`` against
  ``clone()`` (<= 0.25), ``simulate()`` against ``evaluate_bots`` (>= 10x).

``VsRLCardUno`` adds the card games' ratio against RLCard ``uno`` (>= 50x).

The peers are measured once per session: the first test of a peer comparison times the
peer side by side (``alternate``) with the matching side of every game collected in the
session, the medians go into the session cache, and every game's test reads its ratio
from there.  So one run has one figure per peer (the ``peer:`` rows) and every ratio
still comes from alternated timing.  The pytest-benchmark row of such a comparison
belongs to the test that ran it (the first game collected); the others use no timer.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

import boardcore
from boardcore.simulate import derive_seed

REF_SEED = 7          # the seeded playouts the engine and the reference both play
SIM_SEED = 11
PEER_GAMES = 200      # connect_four games per call of OpenSpiel's Python loop
UNO_GAMES = 20        # uno games per call of RLCard's loop
COPIES = 5000         # copies / clones per call in the copy-vs-clone comparison
EVALUATE_BOTS_GAMES = 3000
SEARCH_ITERATIONS = 3000   # iterations (simulations) per search, ours and the peers'
# Search ratios against OpenSpiel's C++ bots from a first decision, with their targets:
# Fool (4 players) against ISMCTSBot on hearts, Just4Fun (2 players) against MCTSBot on
# connect_four (uniform random rollouts, one per leaf, on both sides).
SEARCH_PEERS = {"fool": ("hearts", ">= 5"), "just4fun": ("connect_four", ">= 3")}

# A side of an alternated comparison: one call, and the units (actions, copies) it does.
Side = tuple[Callable[[], object], float]


def midgame(start: Any, moves: int) -> Any:
    """A deterministic mid-game position: ``moves`` random actions from ``start``."""
    s = start.copy()
    rnd = random.Random(0)
    for _ in range(moves):
        s.apply(rnd.choice(s.legal_actions()))
    assert not s.is_over(), f"{moves} moves end the game: choose fewer"
    return s


@dataclass(eq=False)
class Case:
    """One game's benchmark configuration.

    ``new_reference(seed)`` returns the pure-Python reference state for a deal seed and
    ``reference_over(ref)`` says when its game is over: with them the shared reference
    driver plays the engine's seeded playouts (choices from ``tests.reference._rng``).
    Sizes are chosen so every side of an alternated comparison runs for a similar time.
    """

    game: str
    players: int
    simulate_target: str                  # simulate(), 1 worker, actions/s
    new_reference: Callable[[int], Any]
    reference_over: Callable[[Any], bool]
    mid_moves: int = 16                   # random actions to the mid-game position
    playout_games: int = 200              # games per call of the Python-driven loop
    sim_games: int = 8 * 4096             # whole chunks: two workers get equal shares
    ref_games: int = 8                    # seeded playouts per reference call
    engine_repeats: int = 200             # ... the engine replays this often per call
    loop_repeats: int = 20                # ... and its Python loop this often
    config: Any = field(init=False)
    start: Any = field(init=False)        # the fixed start state every playout copies
    mid: Any = field(init=False)

    def __post_init__(self) -> None:
        self.config = boardcore.make(self.game, players=self.players)
        self.start = self.config.new_state(seed=1)
        self.mid = midgame(self.start, self.mid_moves)


# ---------------------------------------------------------------------------------
# Drivers: each returns the number of actions it played (or copies it made).
# ---------------------------------------------------------------------------------


def python_games(case: Case, games: int, seed: int = 2024) -> int:
    """Random games driven from Python, the loop shape the peer groups compare."""
    choice = random.Random(seed).choice
    start = case.start
    n = 0
    for _ in range(games):
        s = start.copy()
        while not s.is_over():
            s.apply(choice(s.legal_actions()))
            n += 1
    return n


def rollouts(case: Case, games: int, count: bool = False) -> int:
    """Whole random games in compiled code, one Python call per game."""
    n = 0
    for i in range(games):
        s = case.start.copy()
        s.rollout(i)
        if count:
            n += len(s.history())
    return n


def simulate_actions(config: Any, workers: int, games: int) -> int:
    """One ``boardcore.simulate`` batch; the actions it played."""
    return int(boardcore.simulate(config, games, seed=SIM_SEED, workers=workers).lengths.sum())


def copies(state: Any, n: int = COPIES) -> int:
    copy = state.copy
    for _ in range(n):
        copy()
    return n


def reference_games(case: Case) -> int:
    """The seeded playouts on the pure-Python reference rules."""
    from tests.reference._rng import Rng

    n = 0
    for i in range(case.ref_games):
        ref = case.new_reference(derive_seed(REF_SEED, 0, i))
        player = Rng(derive_seed(REF_SEED, 1, i))
        while not case.reference_over(ref):
            legal = ref.legal_actions()
            ref.apply(legal[player.bounded(len(legal))])
            n += 1
    return n


def engine_rollouts(case: Case, repeats: int, count: bool = False) -> int:
    """The same seeded playouts as ``reference_games``, ``rollout()`` in compiled code."""
    n = 0
    for _ in range(repeats):
        for i in range(case.ref_games):
            s = case.config.new_state(seed=derive_seed(REF_SEED, 0, i))
            s.rollout(derive_seed(REF_SEED, 1, i))
            if count:
                n += len(s.history())
    return n


def engine_python_loop(case: Case, repeats: int) -> int:
    """The reference's loop shape on the engine, choices from the same generator."""
    from tests.reference._rng import Rng

    n = 0
    for _ in range(repeats):
        for i in range(case.ref_games):
            s = case.config.new_state(seed=derive_seed(REF_SEED, 0, i))
            player = Rng(derive_seed(REF_SEED, 1, i))
            while not s.is_over():
                legal = s.legal_actions()
                s.apply(legal[player.bounded(len(legal))])
                n += 1
    return n


def side(fn: Callable[[], int]) -> Side:
    """``fn`` as a side for ``alternate``, with its units counted by one untimed call."""
    return fn, fn()


# ---------------------------------------------------------------------------------
# The peers (bench extras), built once per session by conftest's fixtures.
# ---------------------------------------------------------------------------------


class ConnectFour:
    """OpenSpiel ``connect_four``: the peer of the one-move, copy and whole-game ratios."""

    def __init__(self, pyspiel: Any) -> None:
        self.pyspiel = pyspiel
        self.game = pyspiel.load_game("connect_four")
        self.start = self.game.new_initial_state()
        self.mid = self.start.clone()
        for a in (3, 3, 2, 4, 2, 4, 5, 1):   # mid-game, no line yet
            self.mid.apply_action(a)
        assert not self.mid.is_terminal()
        self._mean_length: float | None = None

    def python_games(self, games: int = PEER_GAMES, seed: int = 2024) -> int:
        choice = random.Random(seed).choice
        n = 0
        for _ in range(games):
            s = self.start.clone()
            while not s.is_terminal():
                s.apply_action(choice(s.legal_actions()))
                n += 1
        return n

    def clones(self, n: int = COPIES) -> int:
        clone = self.mid.clone
        for _ in range(n):
            clone()
        return n

    def mean_length(self) -> float:
        """``evaluate_bots`` returns no length: estimate it from the same random policy."""
        if self._mean_length is None:
            games = 4000
            self._mean_length = self.python_games(games, seed=99) / games
        return self._mean_length

    def evaluate_bots(self, games: int = EVALUATE_BOTS_GAMES) -> None:
        spiel = self.pyspiel
        bots = [spiel.make_uniform_random_bot(0, 1), spiel.make_uniform_random_bot(1, 2)]
        for i in range(games):
            spiel.evaluate_bots(self.game.new_initial_state(), bots, i)


class SearchPeers:
    """OpenSpiel's C++ search bots from a first decision: the peers of our IS-MCTS."""

    def __init__(self, pyspiel: Any) -> None:
        self.pyspiel = pyspiel
        self.evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
        hearts = pyspiel.load_game("hearts")
        state = hearts.new_initial_state()
        rnd = random.Random(0)
        # The first real decision after the deal (chance nodes and forced moves done).
        while state.is_chance_node() or len(state.legal_actions()) <= 1:
            if state.is_chance_node():
                state.apply_action(rnd.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(state.legal_actions()[0])
        self.hearts = state
        self.connect_four_game = pyspiel.load_game("connect_four")

    def ismcts_hearts(self, iterations: int = SEARCH_ITERATIONS) -> int:
        spiel = self.pyspiel
        bot = spiel.ISMCTSBot(1, self.evaluator, 2.0, iterations, -1,
                              spiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT, False, False)
        bot.step(self.hearts)
        return iterations

    def mcts_connect_four(self, iterations: int = SEARCH_ITERATIONS) -> int:
        bot = self.pyspiel.MCTSBot(self.connect_four_game, self.evaluator, 2.0, iterations,
                                   1000, False, 1, False)
        bot.step(self.connect_four_game.new_initial_state())
        return iterations


def ismcts_iterations(case: Case, iterations: int = SEARCH_ITERATIONS) -> int:
    """One IS-MCTS decision from the start position; the iterations it ran."""
    from boardcore.agents import ISMCTSAgent

    agent = ISMCTSAgent(iterations=iterations, seed=1)
    agent.visits(case.start)
    return agent.last_iterations


class Uno:
    """RLCard ``uno``: a pure-Python card game, the card games' peer."""

    def __init__(self, rlcard: Any) -> None:
        self.env = rlcard.make("uno", config={"seed": 0})

    def python_games(self, games: int = UNO_GAMES, seed: int = 2024) -> int:
        """RLCard's manual random loop: legal actions, random.choice, step."""
        env = self.env
        choice = random.Random(seed).choice
        n = 0
        for g in range(games):
            env.seed(g)
            state, _player = env.reset()
            while not env.is_over():
                state, _player = env.step(choice(list(state["legal_actions"])))
                n += 1
        return n


def _cases_in_session(request: Any, own: Case) -> list[Case]:
    """Every game whose test of this name runs in the session, in ``GAMES`` order."""
    found = {own.game: own}
    for item in request.session.items:
        case = getattr(getattr(item, "cls", None), "case", None)
        name = getattr(item, "originalname", None)
        if isinstance(case, Case) and name == request.node.originalname:
            found.setdefault(case.game, case)
    order = list(boardcore.GAMES)
    return sorted(found.values(), key=lambda c: (order.index(c.game) if c.game in order
                                                 else len(order), c.game))


def per_unit_jointly(request: Any, cache: dict[str, Any], alternate: Any, key: str,
                     peer: dict[str, Callable[[], Side]], ours: Callable[[Case], Side],
                     own: Case, rounds: int) -> dict[str, float] | None:
    """Seconds per unit of every side of peer comparison ``key``, measured once a session.

    The first call times the ``peer`` side(s) and ``ours(case)`` for every game running
    this test in the session, all in one ``alternate`` run; later calls return the cached
    medians.  ``None`` when benchmarks are disabled.
    """
    cached = cache.get(key)
    if cached is None or (cached["per_unit"] is not None and own.game not in cached["per_unit"]):
        sides = {name: make() for name, make in peer.items()}
        sides.update({c.game: ours(c) for c in _cases_in_session(request, own)})
        medians = alternate({name: fn for name, (fn, _) in sides.items()}, rounds=rounds)
        per_unit = (None if medians is None else
                    {name: medians[name] / units for name, (_, units) in sides.items()})
        cached = cache[key] = {"per_unit": per_unit}
    return cached["per_unit"]


# A peer comparison runs in the first test that needs it; in the others the benchmark
# fixture (requested so --benchmark-only keeps them) stays unused, which is intended.
_shared_run = pytest.mark.filterwarnings("ignore:Benchmark fixture was not used")


# ---------------------------------------------------------------------------------
# The standard tests.
# ---------------------------------------------------------------------------------


def _per_call(group: str, state: str, method: str, figure: str) -> Any:
    return pytest.param(state, method, figure, id=f"{method}-{state}",
                        marks=pytest.mark.benchmark(group=group, max_time=0.25))


PER_CALL = [
    _per_call("legal_actions", "mid", "legal_actions", "legal_actions() mid-game"),
    _per_call("legal_actions", "mid", "legal_actions_mask", "legal_actions_mask() mid-game"),
    # The cheapest method there is: the floor of any Python -> engine call.
    _per_call("legal_actions", "mid", "is_over", "is_over() (call floor)"),
    _per_call("copy", "start", "copy", "copy() start state"),
    _per_call("copy", "mid", "copy", "copy() mid-game (with history)"),
]


class GameBenchmarks:
    """The standard benchmarks; a game's test class sets ``case``."""

    case: Case

    # -- per call at the Python boundary ---------------------------------------------

    @pytest.mark.parametrize(("state", "method", "figure"), PER_CALL)
    def test_per_call(self, benchmark, figures, median_seconds, state, method, figure):
        benchmark(getattr(getattr(self.case, state), method))
        if (t := median_seconds(benchmark)) is not None:
            figures.record(figure, t * 1e9, "ns/call")

    @pytest.mark.benchmark(group="apply")
    def test_apply(self, benchmark, figures, median_seconds):
        # A whole recorded game re-applied to a fresh copy (the copy is untimed setup);
        # the figure includes the `for a in seq` loop, ~15 ns per action.
        start = self.case.start
        game = start.copy()
        game.rollout(7)
        seq = game.history()

        def replay(s):
            for a in seq:
                s.apply(a)

        benchmark.pedantic(replay, setup=lambda: ((start.copy(),), {}), rounds=200,
                           warmup_rounds=3)
        if (t := median_seconds(benchmark)) is not None:
            figures.record("apply() incl. legality check", t / len(seq) * 1e9, "ns/action")

    # -- whole games, driven from Python and in one compiled call ------------------------

    @pytest.mark.benchmark(group="playout")
    def test_playout_python_loop(self, benchmark, figures, median_seconds):
        case = self.case
        actions = python_games(case, case.playout_games)
        benchmark.pedantic(python_games, args=(case, case.playout_games), rounds=7,
                           warmup_rounds=1)
        if (t := median_seconds(benchmark)) is not None:
            figures.record("Python-driven playout", actions / t, "actions/s")

    @pytest.mark.benchmark(group="playout")
    def test_playout_rollout(self, benchmark, figures, median_seconds):
        games = 1000
        actions = rollouts(self.case, games, count=True)
        benchmark.pedantic(rollouts, args=(self.case, games), rounds=7, warmup_rounds=1)
        if (t := median_seconds(benchmark)) is not None:
            figures.record("rollout(), one call per game", actions / t, "actions/s")

    # -- simulate: batches in compiled code, one and two workers -------------------------

    @pytest.mark.parametrize("workers", [1, 2])
    @pytest.mark.benchmark(group="simulate")
    def test_simulate(self, benchmark, figures, median_seconds, workers):
        case = self.case
        args = (case.config, workers, case.sim_games)
        actions = simulate_actions(*args)
        benchmark.pedantic(simulate_actions, args=args, rounds=5, warmup_rounds=1)
        if (t := median_seconds(benchmark)) is not None:
            if workers == 1:
                figures.record("simulate(), 1 worker", actions / t, "actions/s",
                               case.simulate_target)
            else:
                figures.record("simulate(), workers=2", actions / t, "actions/s")

    @pytest.mark.benchmark(group="simulate")
    def test_simulate_scaling(self, figures, alternate):
        case = self.case
        m = alternate({f"workers={w}": (lambda w=w: simulate_actions(case.config, w,
                                                                      case.sim_games))
                       for w in (1, 2)}, rounds=5)
        if m is not None:
            figures.record_ratio("simulate workers=2 / workers=1",
                                 m["workers=1"] / m["workers=2"], ">= 1.8")

    # -- the pure-Python reference rules on the same seeded playouts -----------------------

    @pytest.mark.benchmark(group="reference")
    def test_engine_vs_reference(self, figures, alternate):
        case = self.case
        ref_actions = reference_games(case)
        # Same seeded playouts, or the ratio compares different work.
        same = engine_rollouts(case, 1, count=True) == ref_actions == engine_python_loop(case, 1)
        assert same, (
            f"engine and reference played different games: run "
            f"tests/test_differential_{case.game}.py")
        m = alternate({
            "reference": lambda: reference_games(case),
            "engine rollout": lambda: engine_rollouts(case, case.engine_repeats),
            "engine Python loop": lambda: engine_python_loop(case, case.loop_repeats),
        }, rounds=5)
        if m is None:
            return
        ref = ref_actions / m["reference"]
        figures.record("reference (pure Python)", ref, "actions/s")
        figures.record_ratio("engine rollout / reference",
                             case.engine_repeats * ref_actions / m["engine rollout"] / ref,
                             ">= 100")
        figures.record_ratio("engine Python loop / reference",
                             case.loop_repeats * ref_actions / m["engine Python loop"] / ref,
                             None)

    # -- peer: OpenSpiel connect_four, same loop shape, same run ---------------------------

    @_shared_run
    @pytest.mark.benchmark(group="peer")
    def test_peer_openspiel_loop(self, request, figures, alternate, session_cache,
                                 connect_four):
        s = per_unit_jointly(
            request, session_cache, alternate, "openspiel python loop",
            {"openspiel": lambda: side(connect_four.python_games)},
            lambda c: side(lambda: python_games(c, c.playout_games)), self.case, rounds=7)
        if s is not None:
            figures.record_peer("OpenSpiel Python-driven playout", 1 / s["openspiel"],
                                "actions/s")
            figures.record_ratio("Python-driven actions/s vs OpenSpiel",
                                 s["openspiel"] / s[self.case.game], ">= 3")

    @_shared_run
    @pytest.mark.benchmark(group="peer")
    def test_peer_copy_vs_clone(self, request, figures, alternate, session_cache,
                                connect_four):
        s = per_unit_jointly(
            request, session_cache, alternate, "openspiel clone",
            {"clone": lambda: side(connect_four.clones)},
            lambda c: side(lambda: copies(c.mid)), self.case, rounds=9)
        if s is not None:
            figures.record_peer("OpenSpiel clone() mid-game", s["clone"] * 1e9, "ns/call")
            figures.record_ratio("copy() / OpenSpiel clone()", s[self.case.game] / s["clone"],
                                 "<= 0.25")

    @_shared_run
    @pytest.mark.benchmark(group="peer")
    def test_peer_simulate_vs_evaluate_bots(self, request, figures, alternate, session_cache,
                                            connect_four, open_spiel):
        if not hasattr(open_spiel, "evaluate_bots"):
            pytest.skip("this OpenSpiel has no evaluate_bots")

        def peer() -> Side:
            return (connect_four.evaluate_bots,
                    EVALUATE_BOTS_GAMES * connect_four.mean_length())

        s = per_unit_jointly(
            request, session_cache, alternate, "openspiel evaluate_bots",
            {"evaluate_bots": peer},
            lambda c: side(lambda: simulate_actions(c.config, 1, c.sim_games // 2)),
            self.case, rounds=5)
        if s is not None:
            figures.record_peer("OpenSpiel evaluate_bots (C++ game)", 1 / s["evaluate_bots"],
                                "actions/s")
            figures.record_ratio("simulate() 1 worker vs evaluate_bots",
                                 s["evaluate_bots"] / s[self.case.game], ">= 10")


    # -- search: IS-MCTS iterations, and OpenSpiel's C++ bots where a target names one ---

    @pytest.mark.benchmark(group="search")
    def test_ismcts_iterations(self, benchmark, figures, median_seconds):
        done = benchmark.pedantic(ismcts_iterations, args=(self.case,), rounds=5,
                                  warmup_rounds=1)
        if (t := median_seconds(benchmark)) is not None:
            figures.record("IS-MCTS iterations/s, first decision", done / t, "iterations/s")

    @_shared_run
    @pytest.mark.benchmark(group="search")
    def test_peer_openspiel_search(self, figures, alternate, open_spiel):
        peer = SEARCH_PEERS.get(self.case.game)
        if peer is None:
            return      # no target names a peer for this game's search
        bots = SearchPeers(open_spiel)
        run = bots.ismcts_hearts if peer[0] == "hearts" else bots.mcts_connect_four
        label = "ISMCTSBot hearts" if peer[0] == "hearts" else "MCTSBot connect_four"
        m = alternate({"peer": run, "ours": lambda: ismcts_iterations(self.case)}, rounds=5)
        if m is None:
            return
        figures.record_peer(f"OpenSpiel {label}", SEARCH_ITERATIONS / m["peer"],
                            "simulations/s")
        figures.record_ratio(f"IS-MCTS iterations/s vs OpenSpiel {label}",
                             m["peer"] / m["ours"], peer[1])


class VsRLCardUno:
    """The card games' extra peer: RLCard ``uno``'s manual random loop."""

    case: Case

    @_shared_run
    @pytest.mark.benchmark(group="peer")
    def test_peer_rlcard_uno(self, request, figures, alternate, session_cache, uno):
        s = per_unit_jointly(
            request, session_cache, alternate, "rlcard uno",
            {"uno": lambda: side(uno.python_games)},
            lambda c: side(lambda: python_games(c, c.playout_games)), self.case, rounds=7)
        if s is not None:
            figures.record_peer("RLCard uno manual random loop", 1 / s["uno"], "actions/s")
            figures.record_ratio("Python-driven actions/s vs RLCard uno",
                                 s["uno"] / s[self.case.game], ">= 50")
