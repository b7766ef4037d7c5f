"""The rl extra's adapters: PettingZoo's and Gymnasium's own checks, seeds, pickling."""

from __future__ import annotations

import doctest
import importlib
import pickle
import subprocess
import sys
import warnings
from typing import Any

import numpy as np
import pytest

import boardcore
from boardcore.errors import IllegalActionError, UsageError
from tests.conftest import player_counts

pettingzoo_test = pytest.importorskip("pettingzoo.test", exc_type=ImportError)
gymnasium = pytest.importorskip("gymnasium", exc_type=ImportError)
env_checker = pytest.importorskip("gymnasium.utils.env_checker", exc_type=ImportError)

import boardcore.envs  # noqa: E402  (after the extra is known to be there)
from boardcore.envs import GYMNASIUM_IDS, pettingzoo_env  # noqa: E402

# api_test's advice for Box observations: ours are dicts with an action mask, the shape
# PettingZoo's own classic games (connect_four_v3, chess_v6) have; it names those games
# in lists to silence the advice, and no other game can be added to them.
DICT_ADVICE = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


def _counts(name: str) -> list[int]:
    counts = player_counts(name)
    return sorted({counts[0], counts[-1]})


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_pettingzoo_api_and_seed_tests(name: str) -> None:
    for players in _counts(name):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            pettingzoo_test.api_test(pettingzoo_env(name, players=players), num_cycles=300)
            pettingzoo_test.seed_test(lambda: pettingzoo_env(name, players=players),  # noqa: B023
                                      num_cycles=300)
        assert {str(w.message) for w in caught} <= DICT_ADVICE


def _play(env: object, seed: int, rng_seed: int) -> list[tuple[object, ...]]:
    """One seeded episode with random legal actions: every (agent, reward, action)."""
    rng = np.random.default_rng(rng_seed)
    env.reset(seed=seed)  # type: ignore[attr-defined]
    trace: list[tuple[object, ...]] = []
    for agent in env.agent_iter():  # type: ignore[attr-defined]
        obs, reward, terminated, truncated, _ = env.last()  # type: ignore[attr-defined]
        action = None if terminated or truncated else int(
            rng.choice(np.flatnonzero(obs["action_mask"])))
        trace.append((agent, reward, action, obs["observation"].tobytes()))
        env.step(action)  # type: ignore[attr-defined]
    return trace


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_pettingzoo_episode_matches_the_state(name: str) -> None:
    """Agents take turns as the seats do; the rewards are the outcome's; seeds replay."""
    players = player_counts(name)[0]
    env = pettingzoo_env(name, players=players)
    first = _play(env, seed=5, rng_seed=1)
    assert _play(env, seed=5, rng_seed=1) == first
    assert _play(pettingzoo_env(name, players=players), seed=5, rng_seed=1) == first
    outcome = env.state.outcome()
    assert outcome is not None and env.agents == []
    final = {agent: reward for agent, reward, action, _ in first if action is None}
    assert final == {f"player_{i}": (1 / len(outcome.winners) if i in outcome.winners else 0.0)
                     for i in range(players)}
    moves = [action for _, _, action, _ in first if action is not None]
    assert moves == env.state.history()
    env.reset()                        # the next episode of the same seed: another deal
    assert env.state.to_dict() != boardcore.make(name, players=players).new_state(
        env.state.seed).to_dict() or env.state.seed != first


def test_pettingzoo_refuses_a_bad_action_and_changes_nothing() -> None:
    env = pettingzoo_env("just4fun", players=3)
    env.reset(seed=2)
    before = env.state.to_dict()
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    for bad in (illegal, -1, 10**6):
        with pytest.raises((IllegalActionError, ValueError)):
            env.step(bad)
    for bad in ("3", 2.0, None):
        with pytest.raises(TypeError):
            env.step(bad)
    assert env.state.to_dict() == before and env.agent_selection == "player_0"
    other = env.observe("player_1")
    assert not other["action_mask"].any()


def test_pettingzoo_pickles_mid_game() -> None:
    env = pettingzoo_env("just4fun", players=2, render_mode="ansi")
    env.reset(seed=8)
    for _ in range(6):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    copy = pickle.loads(pickle.dumps(env))
    assert copy.render() == env.render() and copy.agent_selection == env.agent_selection
    assert _play(copy, seed=9, rng_seed=3) == _play(env, seed=9, rng_seed=3)


def test_pettingzoo_arguments() -> None:
    game = boardcore.make("just4fun", players=3, layout="random")
    assert pettingzoo_env(game).possible_agents == ["player_0", "player_1", "player_2"]
    assert pettingzoo_env("just4fun").game.num_players == 2       # the smallest count
    with pytest.raises(TypeError):
        pettingzoo_env(game, players=3)
    with pytest.raises(TypeError):
        pettingzoo_env(4)
    with pytest.raises(boardcore.ConfigurationError):
        pettingzoo_env("chess", players=2)
    with pytest.raises(ValueError):
        pettingzoo_env("just4fun", render_mode="human")


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_gymnasium_env_checker(name: str) -> None:
    for players in _counts(name):
        for opponents in ("random", "greedy"):
            env = gymnasium.make(GYMNASIUM_IDS[name], players=players, opponents=opponents)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                env_checker.check_env(env.unwrapped)
            assert not caught, [str(w.message) for w in caught]


def _episode(env: object, seed: int) -> tuple[list[int], float]:
    obs, _ = env.reset(seed=seed)  # type: ignore[attr-defined]
    actions, reward, over = [], 0.0, False
    while not over:
        action = int(env.action_space.sample())  # type: ignore[attr-defined]
        assert obs["action_mask"][action] == 1
        actions.append(action)
        obs, reward, over, truncated, _ = env.step(action)  # type: ignore[attr-defined]
        assert not truncated
    return actions, float(reward)


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_gymnasium_episodes_reproduce_and_reward_the_outcome(name: str) -> None:
    players = player_counts(name)[0]
    env = gymnasium.make(GYMNASIUM_IDS[name], players=players, opponents="greedy", seat=1)
    env.action_space.seed(4)
    first = _episode(env, seed=12)
    state = env.unwrapped.state
    outcome = state.outcome()
    assert first[1] == (1 / len(outcome.winners) if 1 in outcome.winners else 0.0)
    history = state.history()
    assert [a for i, a in enumerate(history) if _seat_of(state, history, i) == 1] == first[0]
    env.action_space.seed(4)
    assert _episode(env, seed=12) == first
    env.action_space.seed(4)
    assert _episode(env, seed=13) != first


def _seat_of(state: object, history: list[int], i: int) -> int | None:
    """The seat that played ``history[i]`` (replayed from the deal)."""
    replay = state.game.new_state(state.seed)  # type: ignore[attr-defined]
    for action in history[:i]:
        replay.apply(action)
    return replay.current_player  # type: ignore[no-any-return]


def test_gymnasium_illegal_actions() -> None:
    env = gymnasium.make("boardcore/Just4Fun-v1", players=2).unwrapped
    obs, _ = env.reset(seed=1)
    before = env.state.to_dict()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info) == (-1.0, True, False, {"illegal_action": True})
    assert env.state.to_dict() == before and not obs["action_mask"].any()
    with pytest.raises(UsageError, match="the episode is over"):
        env.step(0)
    strict = gymnasium.make("boardcore/Just4Fun-v1", illegal_action="raise").unwrapped
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
    assert strict.state.to_dict() == before
    for bad in ("x", 1.5):
        with pytest.raises(TypeError):
            env.reset(seed=1)
            env.step(bad)
    for kwargs in ({"opponents": "chess"}, {"seat": 2}, {"illegal_action": "warn"},
                   {"render_mode": "human"}):
        with pytest.raises(ValueError):
            boardcore.envs.BoardcoreEnv("just4fun", **kwargs)
    with pytest.raises(TypeError):
        boardcore.envs.BoardcoreEnv("just4fun", opponents=object())


def test_gymnasium_illegal_actions_lose_in_every_integer_form() -> None:
    """``illegal_action="lose"`` covers every form ``apply`` reads an action in."""
    env = gymnasium.make("boardcore/Just4Fun-v1", players=2).unwrapped
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    for form in (illegal, np.int64(illegal), np.uint16(illegal), np.array(illegal),
                 np.array(illegal, dtype=np.int8 if illegal < 128 else np.int32), 10**30):
        env.reset(seed=1)
        before = env.state.to_dict()
        _, reward, terminated, _, info = env.step(form)
        assert (reward, terminated, info) == (-1.0, True, {"illegal_action": True}), form
        assert env.state.to_dict() == before


def test_gymnasium_agent_objects_and_pickling() -> None:
    from boardcore.agents import ISMCTSAgent

    env = boardcore.envs.BoardcoreEnv("just4fun", players=3, opponents=ISMCTSAgent(50, seed=1),
                                      render_mode="ansi")
    env.reset(seed=3)
    assert env.state.current_player == 0
    env.step(int(env.action_space.sample()))
    assert env.state.current_player == 0 and len(env.state.history()) == 3
    env = boardcore.envs.BoardcoreEnv("just4fun", players=3, opponents="greedy",
                                      render_mode="ansi")
    env.reset(seed=3)
    env.step(int(env.action_space.sample()))
    copy = pickle.loads(pickle.dumps(env))
    assert copy.render() == env.render()
    env.action_space.seed(1)
    copy.action_space.seed(1)
    for _ in range(5):
        assert copy.step(int(copy.action_space.sample()))[0]["observation"].tobytes() == \
            env.step(int(env.action_space.sample()))[0]["observation"].tobytes()


class _Failing:
    """An opponent agent that plays randomly, but raises on its ``fail_at``-th decision."""

    def __init__(self, fail_at: int, error: type[BaseException] = KeyError) -> None:
        from boardcore.agents import RandomAgent

        self.inner, self.calls, self.fail_at, self.error = RandomAgent(seed=1), 0, fail_at, error

    def act(self, state: Any) -> int:
        self.calls += 1
        if self.calls == self.fail_at:
            raise self.error("the opponent broke")
        return self.inner.act(state)

    def policy(self, state: Any) -> dict[int, float]:
        return self.inner.policy(state)


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_gymnasium_step_is_whole_when_an_opponent_raises(name: str) -> None:
    """An opponent that raises: the turn is taken back, the error propagates.

    Issue 22, item 13: an opponent agent that raised left the env mid-turn, and the
    learner's next action was played for the opponent's seat.  Now the learner is to act
    in the position it acted in, and the episode goes on from there.
    """
    players = player_counts(name)[-1]
    agent = _Failing(fail_at=players + 1)       # in the second turn's opponents' moves
    env = boardcore.envs.BoardcoreEnv(name, players=players, opponents=agent, seat=0)
    env.reset(seed=2)
    for _ in range(50):
        state = env.state
        before, history = state.to_dict(), state.history()
        assert state.current_player == 0
        action = int(env.action_space.sample())
        calls = agent.calls
        try:
            _, _, terminated, _, _ = env.step(action)
        except KeyError:
            assert env.state is state and state.to_dict() == before
            assert state.history() == history and state.current_player == 0
            assert calls < agent.fail_at <= agent.calls
            continue
        if terminated:
            break
    assert agent.calls > agent.fail_at                # it failed once, and play went on


def test_gymnasium_reset_refuses_steps_when_an_opponent_raises() -> None:
    # The learner sits at seat 2: the opponents move first, and fail there.
    env = boardcore.envs.BoardcoreEnv("just4fun", players=3, opponents=_Failing(1), seat=2)
    with pytest.raises(KeyError):
        env.reset(seed=1)
    assert env.state is None
    with pytest.raises(UsageError, match="call reset"):
        env.step(0)
    obs, _ = env.reset(seed=1)                      # the agent plays on: a whole episode
    assert env.state.current_player == 2 and obs["action_mask"].any()


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_gymnasium_render_shows_what_the_learner_sees(name: str) -> None:
    """Issue 22, item 13: ``render()`` showed every hand; it is the learner's picture."""
    players = player_counts(name)[0]
    env = boardcore.envs.BoardcoreEnv(name, players=players, seat=1, render_mode="ansi")
    env.reset(seed=4)
    assert env.render() == env.state.text(1) != str(env.state)
    aec = pettingzoo_env(name, players=players, render_mode="ansi")
    aec.reset(seed=4)
    assert aec.render() == str(aec.state)           # every seat an agent: the table


def test_pettingzoo_refuses_calls_before_reset() -> None:
    env = pettingzoo_env("fool", players=4)
    for call in (lambda: env.step(0), lambda: env.observe("player_0"), env.last):
        with pytest.raises(UsageError, match=r"call reset\(\) first"):
            call()
    assert env.render() is None


def test_core_imports_without_the_extra() -> None:
    """``import boardcore`` never loads gymnasium or pettingzoo."""
    code = ("import sys, boardcore, boardcore.envs; "
            "assert not {'gymnasium', 'pettingzoo'} & set(sys.modules) - {'gymnasium'}, "
            "sorted(m for m in sys.modules if m.startswith('petting'))")
    subprocess.run([sys.executable, "-c", code], check=True)
    code = ("import sys; sys.modules['pettingzoo'] = None; sys.modules['gymnasium'] = None; "
            "import boardcore, boardcore.envs\n"
            "try:\n    boardcore.envs.pettingzoo_env('just4fun')\n"
            "except ImportError as e:\n    assert 'boardcore[rl]' in str(e), e\n"
            "else:\n    raise SystemExit('no ImportError')")
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("module", ["boardcore.envs", "boardcore.envs.aec",
                                    "boardcore.envs.single"])
def test_doctests(module: str) -> None:
    tests = doctest.DocTestFinder().find(importlib.import_module(module))
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
    assert sum(len(t.examples) for t in tests) > 0


def test_rl_page_examples() -> None:
    from pathlib import Path

    page = Path(__file__).resolve().parent.parent / "docs" / "rl.md"
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 10
