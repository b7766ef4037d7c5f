"""Agents: legal, reproducible, and blind to what their seat cannot see, in every game."""

from __future__ import annotations

import copy
import itertools
import math
import pickle
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from typing import Any

import numpy as np
import pytest

import boardcore
from boardcore import agents
from boardcore._engine import _search
from boardcore.agents import (
    LEVELS,
    ExpertAgent,
    FlatMonteCarloAgent,
    GreedyAgent,
    ISMCTSAgent,
    LevelAgent,
    RandomAgent,
    agent_from_string,
)
from boardcore.errors import ConfigurationError, IllegalActionError, InvalidStateError
from tests.conftest import player_counts, random_walk, set_up
from tests.test_cli_process import _wait_past_imports

AGENTS = [
    lambda seed: RandomAgent(seed=seed),
    lambda seed: GreedyAgent(seed=seed),
    lambda seed: FlatMonteCarloAgent(4, seed=seed),
    lambda seed: ISMCTSAgent(iterations=150, seed=seed),
    lambda seed: ExpertAgent(iterations=150, seed=seed),
]


def positions(name: str, count: int = 6) -> list[Any]:
    """Seeded positions of every player count, from the start to late in the game."""
    out = []
    for players in player_counts(name):
        game = boardcore.make(name, players=players)
        for i in range(count):
            state = game.new_state(seed=1000 * players + i)
            steps = random.Random(i).randrange(60)
            for _, _a in zip(range(steps), random_walk(state, random.Random(i))):
                pass
            if state.is_over():
                state.undo()       # the last decision of the game
            out.append(state)
    return out


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_agents_play_legal_reproducible_games(name: str) -> None:
    game = boardcore.make(name, players=player_counts(name)[0])
    for make_agent in AGENTS:
        first, second = [], []
        for record in (first, second):
            state = game.new_state(seed=4)
            agent = make_agent(11)
            for _ in range(25):
                if state.is_over():
                    break
                action = agent.act(state)
                assert action in state.legal_actions()
                record.append(action)
                state.apply(action)
        assert first == second, make_agent(0)


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_policy_covers_the_legal_actions(name: str) -> None:
    state = positions(name, 1)[0]
    for make_agent in AGENTS:
        policy = make_agent(3).policy(state)
        assert sorted(policy) == state.legal_actions()
        assert math.isclose(sum(policy.values()), 1.0)
        assert all(p >= 0 for p in policy.values())


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_decisions_ignore_what_the_seat_cannot_see(name: str) -> None:
    """Two positions that differ only in hidden parts get the same decisions.

    Both are set-up positions (what ``determinize`` gives), so that neither knows more of
    the past than the other: a Just4Fun state reached by play knows what its last
    reshuffle made public, a set-up position nothing of that (its page, "Set-up
    positions"); test_just4fun_decisions_after_a_reshuffle_ignore_the_hidden_cards
    compares two that both know it.
    """
    for i, state in enumerate(positions(name)):
        seat = state.current_player
        state = set_up(state.game, state.to_dict())     # itself, as a set-up position
        other = _search.determinize(state, seat, seed=i + 77)
        assert other.view(seat) == state.view(seat)
        for make_agent in AGENTS[1:]:
            assert make_agent(i).act(state) == make_agent(i).act(other), make_agent(0)
        assert ISMCTSAgent(200, seed=i).visits(state) == ISMCTSAgent(200, seed=i).visits(other)
        for search in (ISMCTSAgent, ExpertAgent):
            assert search(200, seed=i).estimates(state) == search(200, seed=i).estimates(other)


@pytest.mark.parametrize("name", boardcore.GAMES)
@pytest.mark.parametrize("level", LevelAgent.LEVELS)
def test_every_level_ignores_what_the_seat_cannot_see(name: str, level: int) -> None:
    """As test_decisions_ignore_what_the_seat_cannot_see, for each level's agent."""
    for i, state in enumerate(positions(name, 2)):
        seat = state.current_player
        state = set_up(state.game, state.to_dict())     # itself, as a set-up position
        other = _search.determinize(state, seat, seed=i + 5)
        assert other.view(seat) == state.view(seat)
        assert LevelAgent(level, seed=i).policy(state) == LevelAgent(level, seed=i).policy(other)


def test_just4fun_decisions_ignore_hands_and_draw_order_drawn_by_hand() -> None:
    game = boardcore.make("just4fun", players=3)
    doc = game.new_state(seed=8).to_dict()
    swapped = dict(doc)
    swapped["hands"] = [doc["hands"][0], doc["hands"][2], doc["hands"][1]]
    swapped["draw_pile"] = doc["draw_pile"][::-1]
    swapped["rng"] = [1, 2, 3, 4]
    a, b = set_up(game, doc), set_up(game, swapped)
    assert a.view(0) == b.view(0) and a.view(1) != b.view(1)
    assert ISMCTSAgent(300, seed=2).visits(a) == ISMCTSAgent(300, seed=2).visits(b)
    assert FlatMonteCarloAgent(5, seed=2).values(a) == FlatMonteCarloAgent(5, seed=2).values(b)


def _chi_square_critical(df: int) -> float:
    """The chi-square value exceeded with probability 0.001 (Wilson-Hilferty)."""
    z = 3.0902
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def _assert_uniform(seen: Counter[Any], expected: Counter[Any]) -> None:
    """``seen`` samples fall on ``expected``'s outcomes in its proportions (chi-square)."""
    samples, total = sum(seen.values()), sum(expected.values())
    assert set(seen) <= set(expected)
    chi2 = sum((seen[k] - samples * v / total) ** 2 / (samples * v / total)
               for k, v in expected.items())
    assert chi2 < _chi_square_critical(len(expected) - 1), (chi2, len(expected))


def test_just4fun_determinizations_are_uniform() -> None:
    """A late position with six unseen cards: every consistent deal as often as it should."""
    game = boardcore.make("just4fun", players=2)
    doc = game.new_state(seed=3).to_dict()
    cards = sorted(v for h in doc["hands"] for v in h) + doc["draw_pile"] + doc["discard_pile"]
    doc["hands"] = [[1, 2, 3, 4], [5, 6, 7, 7]]
    rest = Counter(cards) - Counter([1, 2, 3, 4, 5, 6, 7, 7, 8, 9])
    doc["draw_pile"] = [8, 9]
    doc["discard_pile"] = sorted(rest.elements())
    state = set_up(game, doc)
    unseen = [5, 6, 7, 7, 8, 9]
    expected: Counter[tuple[tuple[int, ...], tuple[int, ...]]] = Counter()
    for perm in itertools.permutations(unseen):
        expected[(tuple(sorted(perm[:4])), perm[4:])] += 1
    samples = 12000
    seen: Counter[tuple[tuple[int, ...], tuple[int, ...]]] = Counter()
    for i in range(samples):
        d = _search.determinize(state, 0, seed=i).to_dict()
        seen[(tuple(d["hands"][1]), tuple(d["draw_pile"]))] += 1
    _assert_uniform(seen, expected)


def _just_reshuffled(players: int, seed: int = 3, rng: list[int] | None = None) -> Any:
    """A Just4Fun position right after a reshuffle (J9), and what it made public.

    Set up with one card left in the draw pile, then seat 0 plays two cards: it draws
    that card, the discard pile (every card but the hands, the two just played included:
    ``pile``) is shuffled into the draw pile, and it draws one card from it.  Returns the
    state, ``pile`` (the cards of the new draw pile, as every seat saw them) and the
    cards the mover held before it drew from that pile (``kept``).
    """
    game = boardcore.make("just4fun", players=players)
    doc = game.new_state(seed=seed).to_dict()
    doc["discard_pile"], doc["draw_pile"] = sorted(doc["draw_pile"][:-1]), doc["draw_pile"][-1:]
    if rng is not None:
        doc["rng"] = rng
    state = set_up(game, doc)
    play = next(a for a in state.legal_actions() if state.action_to_str(a).count("+") == 1)
    played = [int(v) for v in state.action_to_str(play).split("+")]
    kept = Counter(doc["hands"][0]) - Counter(played) + Counter(doc["draw_pile"])
    pile = Counter(doc["discard_pile"]) + Counter(played)
    state.apply(play)
    after = state.to_dict()
    assert len(after["draw_pile"]) == sum(pile.values()) - 1 and not after["discard_pile"]
    assert state.current_player == 1
    return state, pile, kept


def test_just4fun_determinizations_keep_what_a_reshuffle_revealed() -> None:
    """Right after a reshuffle every sample keeps what every seat saw, uniformly.

    Issue 22, item 12: 592 of 600 samples put cards in the draw pile that every seat
    knew were not there.  For seat 1 (2 players) the mover holds the three cards it had
    before the reshuffle (the only unseen cards not of the reshuffled pile) and one card
    of that pile, each card of it alike; the draw pile is the rest of the pile.  With a
    third seat, which has not drawn since, the cards held from before are shared
    between it and the mover at random.
    """
    state, pile, kept = _just_reshuffled(2)
    expected = Counter({tuple(sorted((kept + Counter([v])).elements())): n
                        for v, n in pile.items()})
    samples = 4000
    seen: Counter[tuple[int, ...]] = Counter()
    for i in range(samples):
        d = _search.determinize(state, 1, seed=i).to_dict()
        drew = Counter(pile) - Counter(d["draw_pile"])
        assert sum(drew.values()) == 1 and Counter(d["draw_pile"]) + drew == pile, i
        assert Counter(d["hands"][0]) == kept + drew, i
        seen[tuple(d["hands"][0])] += 1
    _assert_uniform(seen, expected)
    # The mover itself knows the card it drew: its samples' draw pile is the pile less it.
    mine = Counter(state.to_dict()["hands"][0]) - kept
    for i in range(50):
        d = _search.determinize(state, 0, seed=i).to_dict()
        assert Counter(d["draw_pile"]) == pile - mine
    # Three seats: seat 2 holds four of the seven cards held from before, any four alike.
    state, pile, kept = _just_reshuffled(3)
    doc = state.to_dict()
    before = kept + Counter(doc["hands"][2])
    expected = Counter(tuple(sorted(c)) for c in itertools.combinations(
        sorted(before.elements()), 4))
    seen.clear()
    for i in range(samples):
        d = _search.determinize(state, 1, seed=i).to_dict()
        drew = Counter(pile) - Counter(d["draw_pile"])
        assert sum(drew.values()) == 1 and Counter(d["draw_pile"]) + drew == pile, i
        assert Counter(d["hands"][0]) + Counter(d["hands"][2]) == before + drew, i
        seen[tuple(d["hands"][2])] += 1
    _assert_uniform(seen, expected)


def test_just4fun_decisions_after_a_reshuffle_ignore_the_hidden_cards() -> None:
    """Two positions right after a reshuffle that seat 1 sees alike decide alike.

    The mover drew another card of the pile (the states' generators differ); both know
    what the reshuffle made public.
    """
    a, _, _ = _just_reshuffled(2)
    b, _, _ = _just_reshuffled(2, rng=[5, 6, 7, 8])
    assert a.view(1) == b.view(1) and a.to_dict()["hands"][0] != b.to_dict()["hands"][0]
    for i in range(20):
        assert _search.determinize(a, 1, seed=i).to_dict()["setup"] == \
            _search.determinize(b, 1, seed=i).to_dict()["setup"]
    assert ISMCTSAgent(300, seed=2).visits(a) == ISMCTSAgent(300, seed=2).visits(b)
    assert ExpertAgent(300, seed=2).visits(a) == ExpertAgent(300, seed=2).visits(b)
    for level in LevelAgent.LEVELS:
        assert LevelAgent(level, seed=3).policy(a) == LevelAgent(level, seed=3).policy(b)


def test_two_threads_search_in_parallel() -> None:
    game = boardcore.make("just4fun", players=2)
    states = [game.new_state(seed=s) for s in (1, 2)]
    agent = ISMCTSAgent(2000, seed=5)
    results: dict[int, int] = {}

    def work(i: int) -> None:
        results[i] = ISMCTSAgent(2000, seed=5).act(states[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {0: agent.act(states[0]), 1: ISMCTSAgent(2000, seed=5).act(states[1])}


def test_agent_strings() -> None:
    assert repr(agent_from_string("random", seed=1)) == "RandomAgent(seed=1)"
    assert repr(agent_from_string("greedy", seed=1)) == "GreedyAgent(seed=1)"
    assert agent_from_string("ismcts:300", seed=1).iterations == 300
    assert agent_from_string("ismcts:0.5s", seed=1).time_limit == 0.5
    assert agent_from_string("ismcts:2s", seed=1).iterations is None
    # One set of defaults: the classes' own, whoever parses the name.
    assert agent_from_string("flat", seed=1).rollouts == FlatMonteCarloAgent(seed=1).rollouts
    assert agent_from_string("ismcts", seed=1).iterations == ISMCTSAgent(seed=1).iterations
    # Every compiled kind has its class, and the levels theirs.
    assert set(agents.AGENTS) == set(_search.KINDS) | {"level"}
    for cls in agents.AGENTS.values():          # each class reads the names it lists
        for form in cls.forms:
            name = form.replace("ROLLOUTS", "5").replace("ITERATIONS", "7").replace("LEVEL", "3")
            assert type(agent_from_string(name.replace("SECONDS", "0.5"), seed=1)) is cls
            assert form in agents.GRAMMAR
    for bad in ("", "minimax", "ismcts:x", "flat:0", "ismcts:-1", "random:3", "greedy:",
                "ismcts:", "flat:2.5", "ismcts:1e3", "ismcts:1.5", "ismcts:s", "ismcts:.5s",
                # strict: no spaces, sign, underscore, other case or non-ASCII digit
                " random", "random ", "RANDOM", "Ismcts:10", "ismcts: 10", "ismcts :10",
                "ismcts:+10", "ismcts:1_000", "flat:\u0661\u0662", "ismcts:\uff11\uff10",
                "ismcts:0.5 s", "ismcts:0.5S", "ismcts:99999999999999999999999999",
                "ismcts:100000000000s", "flat:10000001", "level", "level:", "level:0",
                "level:6", "level:1.5", "level:+1", "Level:1", "level: 1", "level:\u0661"):
        with pytest.raises(ConfigurationError):
            agent_from_string(bad)
    for wrong in (None, 3, b"random", ["random"]):
        with pytest.raises(TypeError):
            agent_from_string(wrong)  # type: ignore[arg-type]


def test_settings_of_the_wrong_type_or_range_are_refused() -> None:
    """A number that is not a number is a TypeError, one out of range a ConfigurationError."""
    for kwargs in ({"time_limit": "0.5"}, {"exploration": "0.5"}, {"iterations": 2.0},
                   {"iterations": "10"}, {"time_limit": True}, {"exploration": None},
                   {"time_limit": [1]}, {"seed": 1.0}):
        with pytest.raises(TypeError):
            ISMCTSAgent(**kwargs)  # type: ignore[arg-type]
    for kwargs in ({"time_limit": 10**400}, {"time_limit": -(10**400)},
                   {"time_limit": float("nan")}, {"time_limit": float("inf")},
                   {"time_limit": 0}, {"time_limit": 86401}, {"exploration": 10**400},
                   {"exploration": float("nan")}, {"exploration": -0.1},
                   {"iterations": 0}, {"iterations": 10**400}):
        with pytest.raises(ConfigurationError):
            ISMCTSAgent(**kwargs)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ISMCTSAgent(seed=2**64)
    for rollouts in (0, 10**400, 10_000_001):
        with pytest.raises(ConfigurationError):
            FlatMonteCarloAgent(rollouts)
    with pytest.raises(TypeError):
        FlatMonteCarloAgent("5")  # type: ignore[arg-type]
    assert ISMCTSAgent(time_limit=np.float32(0.25)).time_limit == 0.25
    assert ISMCTSAgent(time_limit=1, exploration=np.float64(2)).exploration == 2.0


def test_agents_refuse_finished_games_and_non_states() -> None:
    state = boardcore.make("just4fun", players=2).new_state(seed=1)
    state.rollout(seed=1)
    for make_agent in AGENTS:
        agent = make_agent(1)
        with pytest.raises(IllegalActionError, match="over"):
            agent.act(state)
        with pytest.raises(IllegalActionError, match="over"):
            agent.policy(state)
        with pytest.raises(TypeError):
            agent.act("state")  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            agent.act(None)  # type: ignore[arg-type]
        assert agent._searcher.decisions == 0        # a refused call decides nothing


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_the_random_agent_is_the_house_random_player(name: str) -> None:
    """RandomAgent's decision i is the house random player's draw, legal[bounded(len)].

    That is the draw of ``state.rollout()``: a rollout seeded as decision i plays it.
    """
    from boardcore._engine._random import STREAM_DECISION, derive_seed

    state = positions(name, 1)[0]
    agent = RandomAgent(seed=6)
    for i in range(20):
        probe = state.copy()
        probe.rollout(seed=derive_seed(6, STREAM_DECISION, i))
        first = probe.history()[len(state.history())]
        assert agent.act(state) == first


def test_agents_pickle_and_copy_with_their_decisions() -> None:
    state = boardcore.make("three_or_more", players=2).new_state(seed=3)
    for make_agent in AGENTS:
        agent = make_agent(5)
        agent.act(state)
        twins = [pickle.loads(pickle.dumps(agent)), copy.deepcopy(agent), copy.copy(agent)]
        expected = agent.act(state)
        for twin in twins:
            assert repr(twin) == repr(agent)
            assert twin.act(state) == expected, make_agent(0)


def test_a_tiny_time_limit_still_searches() -> None:
    """However short the time limit, a search runs (at least 32 iterations)."""
    state = boardcore.make("just4fun", players=2).new_state(seed=1)
    agent = ISMCTSAgent(time_limit=1e-9, seed=1)
    visits = agent.visits(state)
    assert 1 <= sum(visits.values()) == agent.last_iterations
    policy = agent.policy(state)
    assert math.isclose(sum(policy.values()), 1.0)
    assert agent.act(state) in state.legal_actions()


@pytest.mark.parametrize("make", [ISMCTSAgent, ExpertAgent])
def test_the_clock_starts_when_the_decision_is_asked_for(make: Any) -> None:
    """A search's deadline is the time of the call plus its time limit, to the nanosecond.

    Getting the node pool ready (clearing up to 32 MiB of chain heads, some milliseconds,
    more on a first decision that also maps the pool) is spent inside the time limit: a
    deadline set after it would lie that much past the limit.  Read from the search
    itself, so the load of the machine cannot fail it.
    """
    state = boardcore.make("fool", players=4).new_state(seed=1)
    agent = make(time_limit=0.01, seed=1)
    for _ in range(2):      # the first decision maps the pool, the second reuses it
        agent.act(state)
        assert agent._searcher.last_clock == pytest.approx(0.01, abs=2e-9)
    untimed = ISMCTSAgent(100, seed=1)
    assert untimed._searcher.last_clock is None
    untimed.act(state)
    assert untimed._searcher.last_clock is None


def test_expert_names_settings_and_copies() -> None:
    expert = agent_from_string("expert:0.5s", seed=4)
    assert isinstance(expert, ExpertAgent) and expert.time_limit == 0.5
    assert agent_from_string("expert:300").iterations == 300
    assert repr(ExpertAgent(seed=2)) == "ExpertAgent(iterations=1000, exploration=0.35, seed=2)"
    for bad in ("expert:", "expert:0", "expert:1e3", "Expert", "expert:.5s"):
        with pytest.raises(ConfigurationError):
            agent_from_string(bad)
    with pytest.raises(ConfigurationError, match="exploration must be in"):
        ExpertAgent(exploration=-1)
    copy = pickle.loads(pickle.dumps(expert))
    assert repr(copy) == repr(expert) and copy._searcher.kind == "expert"


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_the_expert_plays_out_with_its_game_heuristic_where_there_is_one(name: str) -> None:
    """The expert plays out with the game's heuristic player where the engine has one.

    That is Just4Fun; elsewhere its search is IS-MCTS's with the UCB constant 0.35, the
    very same decision for decision.
    """
    guided = name == "just4fun"
    for i, state in enumerate(positions(name, 3)):
        expert = ExpertAgent(300, seed=i).estimates(state)
        plain = ISMCTSAgent(300, exploration=0.35, seed=i).estimates(state)
        assert (expert != plain) == guided, i


def test_just4fun_heuristic_takes_a_four_in_a_row_and_blocks_one() -> None:
    """The expert's Just4Fun play-out player makes four in a row when it can (J13).

    Else it takes a field where the other seat's hand would make it, if it can; the
    other games have no heuristic player.
    """
    game = boardcore.make("just4fun", players=2)
    wins = blocks = 0
    for g in range(40):
        state = game.new_state(seed=g)
        rng = random.Random(g)
        while not state.is_over():
            legal = state.legal_actions()
            action = _search.heuristic_action(state, rng.randrange(2**64))
            assert action in legal
            winning = [a for a in legal if _wins_now(state, a)]
            if winning:
                assert action in winning
                wins += 1
            threats = set() if winning else _threats(state)
            if threats & {_field(state, a) for a in legal}:
                assert _field(state, action) in threats
                blocks += 1
            state.apply(rng.choice(legal))
    assert wins > 10 and blocks > 10, (wins, blocks)
    for name in boardcore.GAMES[1:]:
        state = boardcore.make(name, players=player_counts(name)[0]).new_state(seed=1)
        assert _search.heuristic_action(state, 1) is None
    with pytest.raises(TypeError):
        _search.heuristic_action("state", 1)  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError):
        _search.heuristic_action(game.new_state(seed=1), -1)


def _wins_now(state: Any, action: int) -> bool:
    """Whether ``action`` makes four in a row.

    The mover then wins at once, before drawing up (J13); any other end comes after it.
    """
    seat = state.current_player
    after = state.copy()
    after.apply(action)
    outcome = after.outcome()
    return (outcome is not None and outcome.winners == {seat}
            and len(after.to_dict()["hands"][seat]) < 4)


def _field(state: Any, action: int) -> int:
    return sum(int(v) for v in state.action_to_str(action).split("+"))


def _threats(state: Any) -> set[int]:
    """The fields on which the other seat's hand would make four in a row if it moved."""
    try:
        turned = set_up(state.game, {**state.to_dict(), "current_player": 1 - state.current_player})
    except InvalidStateError:       # it cannot take a turn (J11): no threat
        return set()
    return {_field(turned, a) for a in turned.legal_actions() if _wins_now(turned, a)}


def test_a_search_runs_in_a_64_kib_thread_stack() -> None:
    """Nothing large lives on the thread's stack (musl's default stack is 128 KiB)."""
    code = """if True:
        import threading, boardcore
        from boardcore.agents import FlatMonteCarloAgent, GreedyAgent, ISMCTSAgent
        threading.stack_size(65536)
        done = []

        def work():
            for name, players in PLAYERS:
                game = boardcore.make(name, players=players)
                state = game.new_state(seed=1)
                for agent in (ISMCTSAgent(100, seed=1), FlatMonteCarloAgent(2, seed=1),
                              GreedyAgent(seed=1)):
                    done.append(agent.act(state))
                env = boardcore.VectorEnv(game, 2, seed=1, opponents="ismcts:30", seat=1)
                env.reset()
                env.step(env.random_actions(1))

        thread = threading.Thread(target=work)
        thread.start()
        thread.join()
        print(len(done))
    """
    players = [(name, player_counts(name)[-1]) for name in boardcore.GAMES]
    code = code.replace("PLAYERS", repr(players))
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0 and run.stdout == f"{3 * len(players)}\n", run


def test_methods_called_through_the_class_check_their_self() -> None:
    """``Searcher.act(None, state)`` and the like raise TypeError, never crash."""
    code = """if True:
        import inspect, boardcore
        from boardcore._engine import _search, _vector
        state = boardcore.make("just4fun", players=2).new_state(seed=1)
        checked = 0
        for cls in (_search.Searcher, _search.Work, _vector.Batch):
            for name, member in inspect.getmembers(cls):
                if not callable(member) or name in ("__class__", "__init_subclass__",
                                                     "__new__", "__subclasshook__"):
                    continue
                for wrong in (None, 0, state, _search.Work()):
                    try:
                        member(wrong, state)
                    except TypeError:
                        checked += 1
        print(checked)
    """
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0 and int(run.stdout) > 40, run


# Ctrl-C as in a Python started from a terminal: the default handler, even where this
# test runs with SIGINT ignored (a shell's background job), which a child inherits.
SEARCH_FOR_A_DAY = """if True:
    import signal, sys, boardcore
    signal.signal(signal.SIGINT, signal.default_int_handler)
    from boardcore.agents import agent_from_string
    state = boardcore.make("just4fun", players=2).new_state(seed=1)
    agent = agent_from_string(sys.argv[1], seed=1)
    print("searching", flush=True)
    agent.act(state)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("command", [
    [sys.executable, "-c", SEARCH_FOR_A_DAY, "ismcts:86400s"],
    [sys.executable, "-c", SEARCH_FOR_A_DAY, "ismcts:100000000"],
    [sys.executable, "-c", SEARCH_FOR_A_DAY, "flat:10000000"],
    [sys.executable, "-m", "boardcore", "arena", "just4fun", "--players", "2", "--agents",
     "ismcts:86400s,random", "--games", "4", "--seed", "1", "--no-progress"],
    [sys.executable, "-m", "boardcore", "arena", "just4fun", "--players", "2", "--agents",
     "ismcts:86400s,random", "--games", "4", "--seed", "1", "--no-progress",
     "--workers", "2"],
    [sys.executable, "-m", "boardcore", "play", "just4fun", "--players", "2", "--seat", "1",
     "--bots", "ismcts:86400s", "--seed", "1"],
], ids=["act-time", "act-iterations", "flat", "arena", "arena-workers", "play"])
def test_ctrl_c_stops_a_long_search(command: list[str]) -> None:
    proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        _wait_past_imports(proc.pid)         # imports done, searching
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    if command[1] == "-c":
        assert out == "searching\n" and err.rstrip().endswith("KeyboardInterrupt"), err
    else:
        assert proc.returncode == 130 and err.endswith("boardcore: interrupted\n"), err


def test_interrupt_stops_the_searches_of_other_threads() -> None:
    """interrupt(): what an arena does when Ctrl-C reaches it.

    Searches running in worker threads stop with KeyboardInterrupt; the next ones are
    not affected.
    """
    state = boardcore.make("fool", players=4).new_state(seed=1)
    caught: list[BaseException] = []
    started = threading.Event()

    def search() -> None:
        agent = ISMCTSAgent(time_limit=86400, seed=1)
        started.set()
        try:
            agent.act(state)
        except KeyboardInterrupt as exc:
            caught.append(exc)

    threads = [threading.Thread(target=search) for _ in range(2)]
    for t in threads:
        t.start()
    started.wait()
    while not all(t.is_alive() for t in threads):
        time.sleep(0.01)
    time.sleep(0.2)
    _search.interrupt()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads)
    assert len(caught) == 2
    assert ISMCTSAgent(200, seed=1).act(state) in state.legal_actions()


def test_levels_name_an_agent_of_the_ladder_per_game() -> None:
    """``level:N`` plays as ``LEVELS[game][N - 1]``: the same decisions from the same seed."""
    assert set(LEVELS) == set(boardcore.GAMES)
    for name in boardcore.GAMES:
        state = positions(name, 1)[0]
        for level in LevelAgent.LEVELS:
            agent = agent_from_string(f"level:{level}", seed=3)
            assert isinstance(agent, LevelAgent) and agent.level == level
            assert repr(agent) == f"LevelAgent(level={level}, seed=3)"
            same = agent_from_string(LEVELS[name][level - 1], seed=3)
            assert agent.act(state) == same.act(state)
            assert agent.policy(state) == same.policy(state)
            assert repr(agent.agent_for(name)) == repr(same)
        # Levels 1-4 are IS-MCTS searches; level 5 is the expert in every game.
        kinds = [type(LevelAgent(n).agent_for(name)) for n in LevelAgent.LEVELS]
        assert kinds == [ISMCTSAgent] * 4 + [ExpertAgent]
    with pytest.raises(ConfigurationError, match="no levels"):
        LevelAgent(1).agent_for("chess")
    for bad in (0, 6, -1, 10**40):
        with pytest.raises(ConfigurationError, match=r"level must be in 1\.\.5"):
            LevelAgent(bad)
    for wrong in ("3", 3.0, None):
        with pytest.raises(TypeError):
            LevelAgent(wrong)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="boardcore state"):
        LevelAgent(2).act("state")  # type: ignore[arg-type]


def test_a_level_copies_and_pickles_with_its_decisions() -> None:
    state = boardcore.make("fool", players=4).new_state(seed=3)
    agent = LevelAgent(3, seed=8)
    agent.act(state)
    twins = [pickle.loads(pickle.dumps(agent)), copy.deepcopy(agent), copy.copy(agent)]
    expected = agent.policy(state)
    for twin in twins:
        assert repr(twin) == repr(agent) and twin.policy(state) == expected


def test_estimates_are_the_searchs_visits_and_mean_results() -> None:
    state = boardcore.make("three_or_more", players=2).new_state(seed=3)
    found = ISMCTSAgent(500, seed=2).estimates(state)
    assert sorted(found) == state.legal_actions()
    assert sum(v for v, _ in found.values()) == 500          # one root child per iteration
    assert {a: v for a, (v, _) in found.items()} == ISMCTSAgent(500, seed=2).visits(state)
    assert all(0 <= mean <= 1 for _, mean in found.values())
    assert all(mean == 0 for v, mean in found.values() if v == 0)
    assert any(0 < mean < 1 for _, mean in found.values())
    assert LevelAgent(5, seed=2).estimates(state) == agent_from_string(
        LEVELS["three_or_more"][4], seed=2).estimates(state)
    for agent in (RandomAgent(), GreedyAgent(), FlatMonteCarloAgent(3)):
        with pytest.raises(ConfigurationError, match="no search tree"):
            agent._searcher.estimates(state)
