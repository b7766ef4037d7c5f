"""VectorEnv: the same trajectories for any thread count, checked actions, autoreset."""

from __future__ import annotations

import copy
import gc
import inspect
import pickle
import random
import sys
import threading
import time

import numpy as np
import pytest

import boardcore
from boardcore._engine import _search, _vector
from boardcore.agents import agent_from_string
from boardcore.errors import ConfigurationError, IllegalActionError
from tests.conftest import player_counts


def _env(name: str = "just4fun", n: int = 8, **kwargs: object) -> boardcore.VectorEnv:
    players = kwargs.pop("players", player_counts(name)[0])
    return boardcore.VectorEnv(boardcore.make(name, players=players), n, **kwargs)


def _trajectory(env: boardcore.VectorEnv, steps: int, seed: int = 0) -> list[bytes]:
    obs, info = env.reset()
    out = [obs.tobytes(), info["action_mask"].tobytes()]
    for t in range(steps):
        obs, rewards, terminated, _, info = env.step(env.random_actions(seed + t))
        out += [obs.tobytes(), rewards.tobytes(), terminated.tobytes(),
                info["action_mask"].tobytes(), info["current_player"].tobytes()]
    return out


@pytest.mark.parametrize("name", boardcore.GAMES)
@pytest.mark.parametrize("opponents", [None, "random", "greedy", "ismcts:20"])
def test_seeds_give_the_same_trajectory_for_any_thread_count(name: str,
                                                             opponents: str | None) -> None:
    steps = 40 if opponents in (None, "random") else 12
    runs = [_trajectory(_env(name, 6, seed=3, opponents=opponents, threads=t), steps)
            for t in (1, 2, 3)]
    assert runs[0] == runs[1] == runs[2]
    assert _trajectory(_env(name, 6, seed=4, opponents=opponents), steps) != runs[0]


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_self_play_follows_the_states(name: str) -> None:
    """Game i is game.new_state(...) played with the actions given; rewards are outcomes."""
    game = boardcore.make(name, players=player_counts(name)[-1])
    env = boardcore.VectorEnv(game, 4, seed=9)
    _, info = env.reset()
    plays: list[list[int]] = [[] for _ in range(4)]
    ended = np.zeros(4, bool)
    finished = 0
    for t in range(2000):
        actions = env.random_actions(t)
        for i in range(4):
            if not ended[i]:
                plays[i].append(int(actions[i]))
                seat = int(info["current_player"][i])
                assert info["action_mask"][i, actions[i]] == 1
                assert int(info["action_mask"][i].sum()) == len(
                    np.flatnonzero(info["action_mask"][i]))
                assert 0 <= seat < game.num_players
        before = info["current_player"].copy()
        _, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        for i in np.flatnonzero(terminated):
            finished += 1
            assert rewards[i].sum() == pytest.approx(1.0)
            assert set(np.unique(rewards[i])) <= {0.0, 1.0, 0.5, 1 / 3, 0.25}
            assert not info["action_mask"][i].any() and info["current_player"][i] == -1
            assert ended[i] == 0 and before[i] >= 0
        assert not rewards[~terminated].any()
        ended = terminated.copy()
        if finished >= 4:
            break
    assert finished >= 4


def test_episodes_are_the_states_of_derived_seeds() -> None:
    """Episode e of game i is new_state(derive_seed(seed, 4, i << 32 | e)), played out."""
    from boardcore._engine._random import derive_seed

    game = boardcore.make("just4fun", players=3)
    env = boardcore.VectorEnv(game, 3, seed=11)
    obs, info = env.reset()
    states = [game.new_state(derive_seed(11, 4, i << 32)) for i in range(3)]
    episodes = [1, 1, 1]
    done = 0
    for t in range(400):
        for i, state in enumerate(states):
            seat = int(info["current_player"][i])
            if seat >= 0:
                assert seat == state.current_player
                assert np.array_equal(obs[i], state.observation(seat))
                assert np.array_equal(info["action_mask"][i], state.legal_actions_mask())
        actions = env.random_actions(t)
        obs, rewards, terminated, _, info = env.step(actions)
        for i, state in enumerate(states):
            if state.is_over():             # reset in this step: a new deal
                states[i] = game.new_state(derive_seed(11, 4, i << 32 | episodes[i]))
                episodes[i] += 1
                continue
            mover = state.current_player
            state.apply(int(actions[i]))
            if terminated[i]:
                done += 1
                outcome = state.outcome()
                assert outcome is not None
                assert rewards[i].tolist() == [1 / len(outcome.winners) if p in outcome.winners
                                               else 0.0 for p in range(3)]
                assert np.array_equal(obs[i], state.observation(mover))
    assert done >= 3


def test_learner_mode_plays_the_other_seats() -> None:
    env = _env("just4fun", 16, players=3, seed=2, opponents="random", seat=1)
    obs, info = env.reset()
    assert (info["current_player"] == 1).all() and obs.shape == (16, 264)
    wins: list[float] = []
    for t in range(400):
        obs, rewards, terminated, _, info = env.step(env.random_actions(t))
        live = ~terminated
        assert rewards.shape == (16,)
        assert (info["current_player"][live] == 1).all()
        assert (info["current_player"][terminated] == -1).all()
        wins += rewards[terminated].tolist()
    assert len(wins) > 50 and 0.15 < np.mean(wins) < 0.55


def test_bad_actions_raise_before_anything_moves() -> None:
    env = _env("just4fun", 5, seed=6)
    obs, info = env.reset()
    snapshot = [env._batch.state_bytes(i) for i in range(5)]
    good = env.random_actions(1)
    obs_before, mask_before = obs.copy(), info["action_mask"].copy()
    illegal = good.copy()
    illegal[3] = int(np.flatnonzero(info["action_mask"][3] == 0)[0])
    for bad in (illegal, np.full(5, -1), np.full(5, 10**9), good.astype(np.uint8) * 0 + 255):
        with pytest.raises(IllegalActionError, match="nothing was played"):
            env.step(bad)
    for bad in (good.tolist(), good.astype(np.float64), good[:4], good.reshape(5, 1), None,
                np.zeros(5, dtype=np.bool_)):
        with pytest.raises(TypeError):
            env.step(bad)
    assert [env._batch.state_bytes(i) for i in range(5)] == snapshot
    assert np.array_equal(obs, obs_before) and np.array_equal(info["action_mask"], mask_before)
    env.step(good.astype(np.int32))           # any integer dtype is accepted


def test_autoreset_ignores_the_action_of_a_game_that_ended() -> None:
    env = _env("just4fun", 64, seed=2)
    env.reset()
    for t in range(500):
        _, rewards, terminated, _, _ = env.step(env.random_actions(t))
        if terminated.any():
            break
    ended = np.flatnonzero(terminated)
    actions = env.random_actions(99)
    actions[ended] = 10**6                     # ignored: those games reset
    _, rewards, terminated, _, info = env.step(actions)
    assert not terminated[ended].any() and not rewards[ended].any()
    assert (info["current_player"][ended] >= 0).all()
    assert (info["action_mask"][ended].sum(axis=1) > 0).all()


def test_legal_actions_match_the_mask() -> None:
    for name in boardcore.GAMES:
        try:
            env = _env(name, 7, seed=5)
        except NotImplementedError:
            continue
        _, info = env.reset()
        for t in range(30):
            ids, counts = env.legal_actions()
            assert ids.dtype == np.int32 and ids.shape == (7, max(int(counts.max()), 1))
            for i in range(7):
                assert ids[i, :counts[i]].tolist() == np.flatnonzero(
                    info["action_mask"][i]).tolist()
                assert (ids[i, counts[i]:] == -1).all()
            _, _, _, _, info = env.step(env.random_actions(t))


def test_arguments_are_checked() -> None:
    game = boardcore.make("just4fun", players=2)
    with pytest.raises(TypeError):
        boardcore.VectorEnv("just4fun", 2, seed=1)  # type: ignore[arg-type]
    for kwargs in ({"opponents": "chess"}, {"opponents": "ismcts:0"}, {"threads": 0},
                   {"opponents": "random", "seat": 2}, {"opponents": "Greedy"},
                   {"opponents": " greedy"}, {"opponents": "ismcts:1_000"},
                   {"opponents": "ismcts:0.5s"},       # a trajectory must not need a clock
                   # seat -1 is not self-play in disguise (nor is any seat out of range)
                   {"opponents": "greedy", "seat": -1}, {"opponents": "greedy", "seat": 2**64},
                   {"seat": -1}, {"seat": 2}):
        with pytest.raises(ConfigurationError):
            boardcore.VectorEnv(game, 2, **{"seed": 1, **kwargs})  # type: ignore[arg-type]
    for kwargs in ({"opponents": 3}, {"opponents": "greedy", "seat": "1"},
                   {"opponents": "greedy", "seat": 1.0}, {"threads": "2"}):
        with pytest.raises(TypeError):
            boardcore.VectorEnv(game, 2, **{"seed": 1, **kwargs})  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        boardcore.VectorEnv(game, 2, seed=-1)
    for n in (0, -3, 2**20 + 1, 2**70):
        with pytest.raises(ConfigurationError):
            boardcore.VectorEnv(game, n, seed=1)
    env = boardcore.VectorEnv(game, 2, seed=1)
    for early in (lambda: env.step(np.zeros(2, dtype=np.int64)), lambda: env.random_actions(1),
                  env.legal_actions):
        with pytest.raises(RuntimeError):
            early()
    with pytest.raises(TypeError):
        pickle.dumps(env)


def test_opponents_are_the_agents_of_agent_from_string() -> None:
    """One parser, one set of defaults: the opponents are the agents of their name."""
    from boardcore.vector import _opponents

    for name in ("random", "greedy", "flat", "flat:7", "ismcts", "ismcts:30"):
        agent = agent_from_string(name, seed=0)
        searcher = _opponents(name, "fool")
        assert searcher is not None
        assert (searcher.kind, searcher.budget, searcher.exploration) == \
            (agent._searcher.kind, agent._searcher.budget, agent._searcher.exploration)
    assert _opponents("ismcts", "fool").budget == 1000
    assert _opponents("flat", "fool").budget == 200
    for game in boardcore.GAMES:          # a level: its agent in that game
        level = agent_from_string(boardcore.agents.LEVELS[game][1], seed=0)._searcher
        searcher = _opponents("level:2", game)
        assert searcher is not None and (searcher.kind, searcher.budget) == \
            (level.kind, level.budget)
    env = _env("three_or_more", 2, seed=1, opponents="level:1", seat=1)
    env.reset()
    env.step(env.random_actions(1))


def test_a_vector_env_is_neither_copied_nor_pickled() -> None:
    """A VectorEnv refuses to be copied.

    A copy would share the original's games and threads: closing it (when it is
    collected) would stop the original's pool.
    """
    env = _env("just4fun", 4, seed=1, threads=2)
    env.reset()
    for attempt in (copy.copy, copy.deepcopy, pickle.dumps):
        with pytest.raises(TypeError, match="cannot be copied"):
            attempt(env)
    gc.collect()
    env.step(env.random_actions(1))         # the pool still runs


def test_batch_survives_hostile_calls() -> None:
    """The compiled batch refuses wrong arrays, out-of-range games and early calls."""
    game = boardcore.make("just4fun", players=2)
    batch = _vector.Batch(game._engine, 3, 1, -1, None)
    worker = _search.Work()
    arrays = [np.zeros((3, batch.observation_size), np.float32),
              np.zeros((3, batch.num_actions), np.int8), np.zeros((3, 2), np.float32),
              np.zeros(3, np.uint8), np.zeros(3, np.int32)]
    acts = np.zeros(3, np.int64)
    for call in (lambda: batch.reset(0, 3, worker), lambda: batch.step(acts, worker),
                 lambda: batch.step_slice(0, 3, worker, acts)):
        with pytest.raises(RuntimeError):           # nothing bound yet
            call()
    for i, bad in enumerate((np.zeros((3, 5), np.float32), np.zeros((2, 3924), np.int8),
                             np.zeros((3, 1), np.float32), np.zeros(4, np.uint8),
                             np.zeros(3, np.int64))):
        with pytest.raises((ValueError, TypeError)):
            batch.bind(*arrays[:i], bad, *arrays[i + 1:])
    batch.bind(*arrays)
    with pytest.raises(RuntimeError):
        batch.bind(*arrays)                         # once
    for call in (lambda: batch.check(acts), lambda: batch.random_actions(acts, 1),
                 lambda: batch.step(acts, worker), lambda: batch.step_slice(0, 3, worker, acts)):
        with pytest.raises(RuntimeError):           # no game has begun
            call()
    for start, stop in ((0, 4), (-1, 3), (2, 1)):
        with pytest.raises(ValueError):
            batch.reset(start, stop, worker)
    batch.reset(0, 3, worker)
    with pytest.raises(ValueError):
        batch.check(acts.astype(np.int32))
    with pytest.raises(ValueError):
        batch.step(np.zeros(2, np.int64), worker)
    before = [batch.state_bytes(i) for i in range(3)]
    batch.step_slice(0, 3, worker, np.full(3, 10**6, np.int64))
    assert batch.step(np.full(3, -1, np.int64), worker) == 0
    assert [batch.state_bytes(i) for i in range(3)] == before   # illegal: nothing moved
    with pytest.raises(IndexError):
        batch.state_bytes(3)
    for name, fn in inspect.getmembers(batch, callable):
        if name.startswith("__"):
            continue
        for args in ((), (None,), (np.zeros(3),), (-1, 10**9, None), (0, 3, None, None)):
            try:
                fn(*args)
            except Exception:
                pass


def test_a_worker_fits_any_batch() -> None:
    """A worker's memory grows to what the batch it serves needs (positions, tree).

    One worker steps a Just4Fun batch, a Fool batch with search opponents, and more.
    """
    worker = _search.Work()
    envs = [_env("just4fun", 3, seed=1, opponents="greedy", seat=1),
            _env("fool", 3, seed=1, players=4, opponents="ismcts:40", seat=2),
            _env("three_or_more", 3, seed=1, opponents="flat:2", seat=0)]
    twins = [_env(e.game.name, 3, seed=1, players=e.game.num_players,
                  opponents=e.opponents, seat=e.seat) for e in envs]
    for env in envs:
        env._batch.reset(0, 3, worker)
    for twin in twins:
        twin.reset()
    for t in range(5):
        for env, twin in zip(envs, twins, strict=True):
            actions = twin.random_actions(t)
            assert env._batch.step(actions, worker) == -1
            twin.step(actions)
            assert all(env._batch.state_bytes(i) == twin._batch.state_bytes(i)
                       for i in range(3))
    assert worker.capacity == 41 and not worker.busy


def test_a_call_takes_its_games_and_its_worker() -> None:
    """While a call works on games without the GIL, no other call touches them.

    A reset whose opponents search long holds games 0 and 1 and its worker: reading or
    stepping those games, or using that worker, is refused meanwhile; other games with
    another worker go on in parallel.
    """
    game = boardcore.make("just4fun", players=2)
    opponents = _search.Searcher("ismcts", 100_000, None, 0.7, 0)
    batch = _vector.Batch(game._engine, 3, 1, 1, opponents)
    batch.bind(np.zeros((3, batch.observation_size), np.float32),
               np.zeros((3, batch.num_actions), np.int8), np.zeros((3, 1), np.float32),
               np.zeros(3, np.uint8), np.zeros(3, np.int32))
    busy, free = _search.Work(), _search.Work()
    long = threading.Thread(target=batch.reset, args=(0, 2, busy))
    long.start()
    deadline = time.monotonic() + 30
    while True:
        try:
            batch.state_bytes(1)
        except RuntimeError as e:
            assert "in use by another thread" in str(e)
            break
        assert time.monotonic() < deadline, "the reset never held its games"
    with pytest.raises(RuntimeError, match=r"games 0\.\.1 are in use"):
        batch.state_bytes(0)
    with pytest.raises(RuntimeError, match=r"games 1\.\.3 are in use"):
        batch.reset(1, 3, free)
    with pytest.raises(RuntimeError, match="this worker is in use"):
        batch.reset(2, 3, busy)
    batch.reset(2, 3, free)                 # game 2 is nobody else's
    assert long.is_alive()
    long.join()
    assert batch.started
    batch.state_bytes(0)                    # given back


def test_a_step_plays_the_actions_it_checked() -> None:
    """Another thread spoiling the actions while a step runs cannot slip them in.

    The step checks and plays one private copy: it either refuses the spoiled actions
    (nothing moved) or plays the legal ones, exactly as a twin environment does.
    """
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        env, twin = _env("just4fun", 256, seed=7), _env("just4fun", 256, seed=7)
        env.reset()
        twin.reset()
        for t in range(60):
            legal = env.random_actions(t)
            actions = legal.copy()
            go = threading.Event()

            def spoil(actions: np.ndarray = actions, go: threading.Event = go) -> None:
                go.wait()
                actions[:] = -1             # illegal in every game that has not ended

            spoiler = threading.Thread(target=spoil)
            spoiler.start()
            go.set()
            try:
                env.step(actions)
                twin.step(legal)
            except IllegalActionError:
                pass                        # spoiled before the check: nothing moved
            spoiler.join()
            for i in range(env.num_envs):
                assert env._batch.state_bytes(i) == twin._batch.state_bytes(i), (t, i)
    finally:
        sys.setswitchinterval(interval)


def test_threads_sharing_an_env_never_tear_it() -> None:
    """Threads stepping, reading and rewriting the actions of one VectorEnv at once.

    Each call is refused (another thread is stepping), rejects an illegal action, or
    runs whole: nothing crashes, and at the end every game's mask shows exactly the
    legal actions the batch holds for it.
    """
    env = _env("just4fun", 64, seed=5, threads=2)
    env.reset()
    actions = env.random_actions(0)
    errors: list[BaseException] = []
    stop = threading.Event()

    def hammer(i: int) -> None:
        rng = random.Random(i)
        try:
            while not stop.is_set():
                try:
                    op = rng.randrange(4)
                    if op == 0:
                        env.step(actions)
                    elif op == 1:
                        env.step(env.random_actions(rng.getrandbits(32)))
                    elif op == 2:
                        ids, counts = env.legal_actions()
                        assert ids.shape[1] == max(int(counts.max()), 1)
                    else:           # the shared actions, rewritten while others play them
                        actions[:] = rng.choice([env.random_actions(rng.getrandbits(32)),
                                                 rng.randrange(-5, 5000)])
                except (RuntimeError, IllegalActionError):
                    pass
        except BaseException as e:              # reported below
            errors.append(e)

    threads = [threading.Thread(target=hammer, args=(i,)) for i in range(6)]
    for th in threads:
        th.start()
    time.sleep(2)
    stop.set()
    for th in threads:
        th.join()
    assert not errors, errors
    ids, counts = env.legal_actions()
    mask = env._mask
    for i in range(env.num_envs):
        assert sorted(np.flatnonzero(mask[i]).tolist()) == ids[i, :counts[i]].tolist()


def test_doctests() -> None:
    import doctest

    import boardcore.vector

    tests = doctest.DocTestFinder().find(boardcore.vector)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
    assert sum(len(t.examples) for t in tests) > 5
