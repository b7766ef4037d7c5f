"""Agents: legal, reproducible, and blind to what their seat cannot see, in every game."""

from __future__ import annotations

import itertools
import math
import random
import threading
from collections import Counter
from typing import Any

import pytest

import boardcore
from boardcore._engine import _search
from boardcore.agents import (
    FlatMonteCarloAgent,
    GreedyAgent,
    ISMCTSAgent,
    RandomAgent,
    agent_from_string,
)
from tests.conftest import player_counts, random_walk, set_up

AGENTS = [
    lambda seed: RandomAgent(seed=seed),
    lambda seed: GreedyAgent(seed=seed),
    lambda seed: FlatMonteCarloAgent(4, seed=seed),
    lambda seed: ISMCTSAgent(iterations=150, seed=seed),
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
    """Two positions that differ only in hidden parts get the same decisions."""
    for i, state in enumerate(positions(name)):
        seat = state.current_player
        other = _search.determinize(state, seat, seed=i + 77)
        assert other.view(seat) == state.view(seat)
        assert other.to_dict() != state.to_dict() or i == 0
        for make_agent in AGENTS[1:]:
            assert make_agent(i).act(state) == make_agent(i).act(other), make_agent(0)
        assert ISMCTSAgent(200, seed=i).visits(state) == ISMCTSAgent(200, seed=i).visits(other)


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
    assert set(seen) <= set(expected)
    total = sum(expected.values())
    chi2 = sum((seen[k] - samples * v / total) ** 2 / (samples * v / total)
               for k, v in expected.items())
    assert chi2 < _chi_square_critical(len(expected) - 1), (chi2, len(expected))


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
    for bad in ("", "minimax", "ismcts:x", "flat:0", "ismcts:-1", "random:3", None):
        with pytest.raises((ValueError, TypeError)):
            agent_from_string(bad)  # type: ignore[arg-type]


def test_agents_refuse_finished_games_and_non_states() -> None:
    state = boardcore.make("just4fun", players=2).new_state(seed=1)
    state.rollout(seed=1)
    for make_agent in AGENTS:
        agent = make_agent(1)
        with pytest.raises(ValueError, match="over"):
            agent.act(state)
        with pytest.raises(TypeError):
            agent.act("state")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ISMCTSAgent(iterations=0)
    with pytest.raises(ValueError):
        ISMCTSAgent(time_limit=-1)
