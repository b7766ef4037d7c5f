"""The benchmarks every game shares, parameterised by a ``Case``.

A game's ``bench/test_<game>.py`` declares one ``Case`` (its configuration, sizes,
pure-Python reference driver and ``simulate()`` target) and one test class::

    CASE = Case("just4fun", players=2, simulate_target=">= 10e6", ...)

    class TestJust4Fun(GameBenchmarks):
        case = CASE

and keeps only what is really its own (its kernel).  ``GameBenchmarks`` brings the
standard set, the same figures and targets for every game:

* per call from Python: the call floor (``_call_floor()``, a method that does nothing),
  ``legal_actions()``, ``legal_actions_mask()``, ``is_over()``, ``copy()`` (start and
  mid-game), ``apply()``, each also as a multiple of the floor;
* whole games: the Python-driven playout, ``rollout()``, ``simulate()`` with one and two
  workers, ``workers=2`` against two separate processes of ``workers=1`` (>= 0.95);
* memory: peak RSS of ``simulate`` over a million games and of 100,000 Python-driven
  games, and its growth from a tenth of that (flat: <= 16 MiB beyond the results);
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
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

import boardcore
from boardcore._engine._random import STREAM_GAME, STREAM_PLAYER, derive_seed

REF_SEED = 7          # the seeded playouts the engine and the reference both play
SIM_SEED = 11
# simulate(workers=2) against two processes plays this many times ``Case.sim_games``: a
# side of sim_games alone lasts 50-150 ms for the faster games, where one preemption by
# another tenant of the two cores moves the ratio by 10 % or more (Just4Fun measured
# 0.88 and 1.04-1.13 on the same code); the fixed costs of either side (the thread pool,
# about 0.1 ms; the pipes) are far below that.
SCALING_RUNS = 4
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
# Games per first count (N) and last count of the memory figures: peak RSS after N games
# and after the last count, in a fresh interpreter (tests/test_memory.py's probe).
MEMORY_COUNTS = {"simulate": (100_000, 1_000_000), "python": (10_000, 100_000)}
MEMORY_SMOKE = {"simulate": (200, 800), "python": (20, 80)}
MEMORY_TARGET_MIB = 16       # "memory flat": growth beyond what the results hold


@dataclass(frozen=True)
class Target:
    """A figure with a target (docs/performance.md).

    The table lists it for every game whose ``test`` runs, measured or not (then it
    says why: a peer not installed, a test that did not finish).
    """

    name: str
    target: str
    unit: str
    test: str                  # the test (its original name) that records the figure
    peer: str | None = None    # the module the figure needs, if a peer's


PYTHON_VS_OPENSPIEL = "Python-driven actions/s vs OpenSpiel"
THREE_CALLS = "Python-driven loop: our three calls above that floor"
PYTHON_VS_UNO = "Python-driven actions/s vs RLCard uno"
COPY_VS_CLONE = "copy() / OpenSpiel clone()"
SIMULATE_VS_EVALUATE_BOTS = "simulate() 1 worker vs evaluate_bots"
THREADS_VS_PROCESSES = "simulate(workers=2) / two processes of workers=1"
REFERENCE = "engine rollout / reference"
MEMORY_SIMULATE = "simulate() peak RSS growth, 100k -> 1M games, beyond its results"
MEMORY_PYTHON = "Python-driven peak RSS growth, 10k -> 100k games"

STANDARD_TARGETS = (
    # The loop's target is what our calls add to a loop of calls that do nothing; the
    # ratio to OpenSpiel is printed beside it (that loop alone reaches only 3.6-4.5x
    # OpenSpiel, so ">= 3x" measured the loop more than boardcore).
    Target(THREE_CALLS, "<= 80", "ns/action", "test_peer_openspiel_loop", "pyspiel"),
    Target(PYTHON_VS_UNO, ">= 50", "x", "test_peer_rlcard_uno", "rlcard"),
    Target(COPY_VS_CLONE, "<= 0.25", "x", "test_peer_copy_vs_clone", "pyspiel"),
    Target(SIMULATE_VS_EVALUATE_BOTS, ">= 10", "x", "test_peer_simulate_vs_evaluate_bots",
           "pyspiel"),
    Target(THREADS_VS_PROCESSES, ">= 0.95", "x", "test_threads_vs_processes"),
    Target(MEMORY_SIMULATE, f"<= {MEMORY_TARGET_MIB}", "MiB", "test_memory"),
    Target(MEMORY_PYTHON, f"<= {MEMORY_TARGET_MIB}", "MiB", "test_memory"),
    Target(REFERENCE, ">= 100", "x", "test_engine_vs_reference"),
)


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
    own_targets: tuple[Target, ...] = ()  # the targets of the game's own tests (kernels)
    config: Any = field(init=False)
    start: Any = field(init=False)        # the fixed start state every playout copies
    mid: Any = field(init=False)

    def __post_init__(self) -> None:
        self.config = boardcore.make(self.game, players=self.players)
        self.start = self.config.new_state(seed=1)
        self.mid = midgame(self.start, self.mid_moves)

    def targets(self) -> list[Target]:
        """Every target of this game's figures (docs/performance.md), in table order."""
        search = SEARCH_PEERS.get(self.game)
        found = [Target("simulate(), 1 worker", self.simulate_target, "actions/s",
                        "test_simulate"), *STANDARD_TARGETS]
        if search is not None:
            found.append(Target(f"IS-MCTS iterations/s vs OpenSpiel {search_label(search[0])}",
                                search[1], "x", "test_peer_openspiel_search", "pyspiel"))
        return found + list(self.own_targets)


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


_RECORDED: dict[tuple[str, int, int], list[list[list[int]]]] = {}


def python_games_floor(case: Case, games: int, seed: int = 2024) -> int:
    """``python_games``' loop over the same games, each call replaced by one that does nothing.

    The legal lists of those games are recorded once; then the same loop runs with
    ``is_over`` an iterator's ``__next__``, ``legal_actions`` another's (handing out the
    recorded list) and ``apply`` the builtin ``abs``, so ``random.choice`` draws from lists
    of the same lengths as in the real games.  Its time is the loop's own: no game can be
    driven from Python faster, and OpenSpiel over it is the most our ratio could be.
    """
    key = (case.game, games, seed)
    if key not in _RECORDED:
        choice = random.Random(seed).choice
        recorded = []
        for _ in range(games):
            s = case.start.copy()
            lists = []
            while not s.is_over():
                lists.append(s.legal_actions())
                s.apply(choice(lists[-1]))
            recorded.append(lists)
        _RECORDED[key] = recorded
    choice = random.Random(seed).choice
    n = 0
    for lists in _RECORDED[key]:
        is_over = iter([False] * len(lists) + [True]).__next__
        legal_actions = iter(lists).__next__
        while not is_over():
            abs(choice(legal_actions()))
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
        ref = case.new_reference(derive_seed(REF_SEED, STREAM_GAME, i))
        player = Rng(derive_seed(REF_SEED, STREAM_PLAYER, i))
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
            s = case.config.new_state(seed=derive_seed(REF_SEED, STREAM_GAME, i))
            s.rollout(derive_seed(REF_SEED, STREAM_PLAYER, i))
            if count:
                n += len(s.history())
    return n


def engine_python_loop(case: Case, repeats: int) -> int:
    """The reference's loop shape on the engine, choices from the same generator."""
    from tests.reference._rng import Rng

    n = 0
    for _ in range(repeats):
        for i in range(case.ref_games):
            s = case.config.new_state(seed=derive_seed(REF_SEED, STREAM_GAME, i))
            player = Rng(derive_seed(REF_SEED, STREAM_PLAYER, i))
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


def search_label(game: str) -> str:
    """The OpenSpiel bot our search is compared with on ``game``."""
    return "ISMCTSBot hearts" if game == "hearts" else "MCTSBot connect_four"


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


# ---------------------------------------------------------------------------------
# Threads against processes, and memory: measured in other interpreters.
# ---------------------------------------------------------------------------------

# A separate process that runs simulate(workers=1) on each request read from stdin
# ("game players games seed keep") and answers with the actions it played.
_SIMULATE_SERVER = """\
import sys
import boardcore
for line in sys.stdin:
    game, players, games, seed, keep = line.split()
    config = boardcore.make(game, players=int(players))
    result = boardcore.simulate(config, int(games), seed=int(seed), workers=1, keep=keep)
    print(int(result.lengths.sum) if keep == "summary" else int(result.lengths.sum()),
          flush=True)
"""


class ProcessPair:
    """Two separate Python processes, each ready to run ``simulate(workers=1)``.

    They are started once (conftest's ``process_pair``), so a timed call is the
    simulation alone: the request goes out to both at once and the call returns when
    both have answered.
    """

    def __init__(self, own_sessions: bool = False) -> None:
        # own_sessions: each process in a session of its own, as each node of a Ray
        # cluster started with `ray start` is. Linux's autogroup scheduling shares the
        # CPUs between sessions first, so on a busy machine processes compared with those
        # nodes must be placed alike.
        self.procs = [subprocess.Popen([sys.executable, "-c", _SIMULATE_SERVER],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       text=True, start_new_session=own_sessions)
                      for _ in range(2)]

    def simulate(self, game: str, players: int, games_each: int, keep: str = "rows") -> int:
        """Both processes play ``games_each`` games at the same time; all their actions.

        The first plays games ``0..games_each-1`` of batch ``SIM_SEED``, the second those
        of batch ``SIM_SEED + 1``; ``keep`` as ``simulate``'s.
        """
        for i, proc in enumerate(self.procs):
            assert proc.stdin is not None
            proc.stdin.write(f"{game} {players} {games_each} {SIM_SEED + i} {keep}\n")
            proc.stdin.flush()
        total = 0
        for proc in self.procs:
            assert proc.stdout is not None
            answer = proc.stdout.readline()
            if not answer:
                raise RuntimeError(f"a simulate process died (exit code {proc.wait()})")
            total += int(answer)
        return total

    def close(self) -> None:
        for proc in self.procs:
            assert proc.stdin is not None
            proc.stdin.close()
        for proc in self.procs:
            proc.wait(timeout=60)
            assert proc.stdout is not None
            proc.stdout.close()


def memory_growth(case: Case, mode: str, counts: tuple[int, int]) -> tuple[float, float]:
    """Return (peak RSS MiB at the last count, its growth MiB from the first count).

    The growth leaves out what the results hold; measured in a fresh interpreter by
    tests/test_memory.py's probe.
    """
    from tests.test_memory import growth_kib, run_probe

    rows = run_probe(case.game, case.players, mode, list(counts))
    return rows[-1]["peak_kib"] / 1024, growth_kib(rows) / 1024


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
                     own: Case, rounds: int,
                     also: Callable[[Case], Side] | None = None) -> dict[str, float] | None:
    """Seconds per unit of every side of peer comparison ``key``, measured once a session.

    The first call times the ``peer`` side(s) and ``ours(case)`` for every game running
    this test in the session (and ``also(case)``, named ``"<game> also"``, if given), all
    in one ``alternate`` run; later calls return the cached medians.  ``None`` when
    benchmarks are disabled.
    """
    cached = cache.get(key)
    if cached is None or (cached["per_unit"] is not None and own.game not in cached["per_unit"]):
        sides = {name: make() for name, make in peer.items()}
        for c in _cases_in_session(request, own):
            sides[c.game] = ours(c)
            if also is not None:
                sides[f"{c.game} also"] = also(c)
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


CALL_FLOOR = "call floor (a method that does nothing)"


def _per_call(group: str, state: str, method: str, figure: str) -> Any:
    return pytest.param(state, method, figure, id=f"{method}-{state}",
                        marks=pytest.mark.benchmark(group=group, max_time=0.25))


PER_CALL = [
    # A method that does nothing: the floor of any Python -> engine call, measured in
    # the same run so that every other per-call figure can say how far above it it is.
    _per_call("legal_actions", "mid", "_call_floor", CALL_FLOOR),
    _per_call("legal_actions", "mid", "legal_actions", "legal_actions() mid-game"),
    _per_call("legal_actions", "mid", "legal_actions_mask", "legal_actions_mask() mid-game"),
    _per_call("legal_actions", "mid", "is_over", "is_over()"),
    _per_call("copy", "start", "copy", "copy() start state"),
    _per_call("copy", "mid", "copy", "copy() mid-game (with history)"),
]


class GameBenchmarks:
    """The standard benchmarks; a game's test class sets ``case``."""

    case: Case

    def _over_floor(self, figures: Any, session_cache: dict[str, Any], figure: str,
                    ns: float) -> None:
        # How far a call is from the floor, once the floor is measured in this run.
        floor = session_cache.get(("call floor", self.case.game))
        if floor is not None and figure != CALL_FLOOR:
            figures.record_ratio(f"{figure} / call floor", ns / floor, None)

    # -- per call at the Python boundary ---------------------------------------------

    @pytest.mark.parametrize(("state", "method", "figure"), PER_CALL)
    def test_per_call(self, benchmark, figures, median_seconds, session_cache, state, method,
                      figure):
        benchmark(getattr(getattr(self.case, state), method))
        if (t := median_seconds(benchmark)) is not None:
            figures.record(figure, t * 1e9, "ns/call")
            if figure == CALL_FLOOR:
                session_cache[("call floor", self.case.game)] = t * 1e9
            self._over_floor(figures, session_cache, figure, t * 1e9)

    @pytest.mark.benchmark(group="apply")
    def test_apply(self, benchmark, figures, alternate, session_cache):
        # A whole recorded game re-applied to a fresh copy, against the same loop calling
        # the call floor: the difference is apply()'s own cost above a call that does
        # nothing (the loop's ~15 ns per action is in both).
        start = self.case.start
        game = start.copy()
        game.rollout(7)
        seq = game.history()
        fresh = [start.copy() for _ in range(200)]

        def replay():
            s = fresh.pop() if fresh else start.copy()
            for a in seq:
                s.apply(a)

        def floor():
            s = start
            for _a in seq:
                s._call_floor()

        m = alternate({"apply": replay, "floor": floor}, rounds=21)
        if m is None:
            return
        ns = m["apply"] / len(seq) * 1e9
        figures.record("apply() incl. legality check", ns, "ns/action")
        figures.record("apply() above the call floor", (m["apply"] - m["floor"]) / len(seq)
                       * 1e9, "ns/action")
        self._over_floor(figures, session_cache, "apply()", ns)

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
            # Informational: two cores give about 1.4x one core even to two separate
            # processes here; the target compares threads with processes (below).
            figures.record_ratio("simulate workers=2 / workers=1",
                                 m["workers=1"] / m["workers=2"], None)

    @pytest.mark.benchmark(group="simulate")
    def test_threads_vs_processes(self, figures, alternate, process_pair):
        # The same number of games: simulate(workers=2) here, against two separate
        # processes each running simulate(workers=1) on half of them at the same time.
        case = self.case
        games = SCALING_RUNS * case.sim_games
        threads = side(lambda: simulate_actions(case.config, 2, games))
        processes = side(lambda: process_pair.simulate(case.game, case.players, games // 2))
        m = alternate({"workers=2": threads[0], "two processes": processes[0]}, rounds=7)
        if m is not None:
            figures.record_ratio(THREADS_VS_PROCESSES, (threads[1] / m["workers=2"])
                                 / (processes[1] / m["two processes"]), ">= 0.95")

    # -- memory: peak RSS as the number of games grows -----------------------------------

    @pytest.mark.parametrize("mode", ["simulate", "python"])
    @pytest.mark.benchmark(group="memory")
    def test_memory(self, benchmark, figures, mode):
        counts = (MEMORY_SMOKE if benchmark.disabled else MEMORY_COUNTS)[mode]
        peak, growth = benchmark.pedantic(memory_growth, args=(self.case, mode, counts),
                                          rounds=1, iterations=1)
        if benchmark.disabled:
            return
        what = ("simulate()" if mode == "simulate" else "Python-driven") + \
            f" peak RSS, {counts[1]:,} games"
        figures.record(what, peak, "MiB")
        figures.record(MEMORY_SIMULATE if mode == "simulate" else MEMORY_PYTHON, growth,
                       "MiB", f"<= {MEMORY_TARGET_MIB}")

    # -- the pure-Python reference rules on the same seeded playouts -----------------------

    @pytest.mark.benchmark(group="reference")
    def test_engine_vs_reference(self, figures, alternate):
        case = self.case
        ref_actions = reference_games(case)
        # Same seeded playouts, or the ratio compares different work.
        same = engine_rollouts(case, 1, count=True) == ref_actions == engine_python_loop(case, 1)
        assert same, (
            f"engine and reference played different games: run "
            f"tests/test_differential.py -k {case.game}")
        m = alternate({
            "reference": lambda: reference_games(case),
            "engine rollout": lambda: engine_rollouts(case, case.engine_repeats),
            "engine Python loop": lambda: engine_python_loop(case, case.loop_repeats),
        }, rounds=5)
        if m is None:
            return
        ref = ref_actions / m["reference"]
        figures.record("reference (pure Python)", ref, "actions/s")
        figures.record_ratio(REFERENCE,
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
            lambda c: side(lambda: python_games(c, c.playout_games)), self.case, rounds=7,
            also=lambda c: side(lambda: python_games_floor(c, c.playout_games)))
        if s is not None:
            game, floor = s[self.case.game], s[f"{self.case.game} also"]
            figures.record_peer("OpenSpiel Python-driven playout", 1 / s["openspiel"],
                                "actions/s")
            figures.record_ratio(PYTHON_VS_OPENSPIEL, s["openspiel"] / game, None)
            figures.record_ratio("Python-driven loop, calls that do nothing, vs OpenSpiel",
                                 s["openspiel"] / floor, None)
            figures.record(THREE_CALLS, (game - floor) * 1e9, "ns/action", "<= 80")

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
            figures.record_ratio(COPY_VS_CLONE, s[self.case.game] / s["clone"],
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
            figures.record_ratio(SIMULATE_VS_EVALUATE_BOTS,
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
        label = search_label(peer[0])
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
            figures.record_ratio(PYTHON_VS_UNO,
                                 s["uno"] / s[self.case.game], ">= 50")
