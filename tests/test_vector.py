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
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import numpy as np
import pytest

import boardcore
from boardcore._engine import _search, _vector
from boardcore.agents import agent_from_string
from boardcore.errors import ConfigurationError, IllegalActionError, UsageError
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


@pytest.mark.parametrize("name", boardcore.GAMES)
@pytest.mark.parametrize("action_mask", [True, False])
def test_episodes_are_the_states_of_derived_seeds(name: str, action_mask: bool) -> None:
    """Episode e of game i is new_state(derive_seed(seed, 4, i << 32 | e)), played out.

    After every step, across episodes and autoresets, each game's observation, mask (if
    written) and legal actions are those of that state computed afresh.  Rummikub
    Junior's positions with more than 16 legal actions (kept in a list of their own) are
    among them.
    """
    from boardcore._engine._random import derive_seed

    game = boardcore.make(name, players=player_counts(name)[-1])
    n = 3
    env = boardcore.VectorEnv(game, n, seed=11, action_mask=action_mask)
    obs, info = env.reset()
    assert ("action_mask" in info) == action_mask
    states = [game.new_state(derive_seed(11, 4, i << 32)) for i in range(n)]
    episodes = [1] * n
    done = begun = long = 0
    for t in range(3000):
        ids, counts = env.legal_actions()
        long += int((counts > 16).sum())
        for i, state in enumerate(states):
            seat = int(info["current_player"][i])
            if seat >= 0:
                assert seat == state.current_player
                assert np.array_equal(obs[i], state.observation(seat))
                assert ids[i, :counts[i]].tolist() == list(state.legal_actions())
                if action_mask:
                    assert np.array_equal(info["action_mask"][i], state.legal_actions_mask())
            else:
                assert counts[i] == 0
                if action_mask:
                    assert not info["action_mask"][i].any()
        actions = env.random_actions(t)
        obs, rewards, terminated, _, info = env.step(actions)
        for i, state in enumerate(states):
            if state.is_over():             # reset in this step: a new deal
                states[i] = game.new_state(derive_seed(11, 4, i << 32 | episodes[i]))
                episodes[i] += 1
                begun += 1
                continue
            mover = state.current_player
            state.apply(int(actions[i]))
            if terminated[i]:
                done += 1
                outcome = state.outcome()
                assert outcome is not None
                assert rewards[i].tolist() == [1 / len(outcome.winners) if p in outcome.winners
                                               else 0.0 for p in range(game.num_players)]
                assert np.array_equal(obs[i], state.observation(mover))
        if begun >= 3 and done >= 3 and (long or name != "rummikub_junior"):
            break
    assert done >= 3 and begun >= 3
    assert long or name != "rummikub_junior"


@pytest.mark.parametrize("name", boardcore.GAMES)
@pytest.mark.parametrize("opponents", [None, "random"])
def test_without_masks_the_trajectory_is_the_same(name: str, opponents: str | None) -> None:
    """Without masks, the observations, rewards, flags and legal actions are the same.

    That is, those of the env that writes masks, whose ids are its mask's (autoresets
    too), on one thread or two.
    """
    envs = [_env(name, 5, seed=6, opponents=opponents, action_mask=m, threads=t)
            for m, t in ((True, 1), (False, 1), (False, 2))]
    outs = [env.reset() for env in envs]
    ended = 0
    for t in range(300):
        (ids, counts), *others = (env.legal_actions() for env in envs)
        for ids2, counts2 in others:
            assert np.array_equal(ids, ids2) and np.array_equal(counts, counts2)
        mask = outs[0][-1]["action_mask"]
        for i in range(5):
            assert ids[i, :counts[i]].tolist() == np.flatnonzero(mask[i]).tolist()
        assert all("action_mask" not in out[-1] for out in outs[1:])
        actions = envs[0].random_actions(t)
        outs = [env.step(actions) for env in envs]
        for out in outs[1:]:
            for a, b in zip(outs[0][:4], out[:4], strict=True):
                assert np.array_equal(a, b)
            assert np.array_equal(outs[0][-1]["current_player"], out[-1]["current_player"])
        ended += int(outs[0][2].sum())
    assert ended >= 2


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


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_the_mask_is_read_only(name: str) -> None:
    """A step changes the mask only where the legal actions changed: the user reads it.

    A write into ``info["action_mask"]`` raises (it would outlive the next step); a
    copy is the user's to change, and the mask stays that of the states, step after step.
    """
    game = boardcore.make(name, players=player_counts(name)[0])
    env = boardcore.VectorEnv(game, 4, seed=5)
    _, info = env.reset()
    mask = info["action_mask"]
    for write in (lambda: mask.fill(0), lambda: mask.__setitem__((0, 0), 1),
                  lambda: np.copyto(mask, 1)):
        with pytest.raises(ValueError, match="read-only"):
            write()
    before = mask.copy()
    mine = mask.copy()
    mine[:] = 1                                 # the user's copy: free to change
    assert np.array_equal(mask, before)
    for t in range(40):
        _, _, _, _, info = env.step(env.random_actions(t))
        ids, counts = env.legal_actions()
        dense = np.zeros_like(mask)
        for i in range(4):
            dense[i, ids[i, :counts[i]]] = 1
        assert info["action_mask"] is mask and np.array_equal(mask, dense)


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
                   {"opponents": "greedy", "seat": 1.0}, {"threads": "2"},
                   {"action_mask": 0}, {"action_mask": "no"}, {"action_mask": None}):
        with pytest.raises(TypeError):
            boardcore.VectorEnv(game, 2, **{"seed": 1, **kwargs})  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError):
        boardcore.VectorEnv(game, 2, seed=-1)
    for n in (0, -3, 2**20 + 1, 2**70):
        with pytest.raises(ConfigurationError):
            boardcore.VectorEnv(game, n, seed=1)
    env = boardcore.VectorEnv(game, 2, seed=1)
    for early in (lambda: env.step(np.zeros(2, dtype=np.int64)), lambda: env.random_actions(1),
                  env.legal_actions):
        with pytest.raises(UsageError, match=r"call reset\(\) first"):
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
                 lambda: batch.hold([worker]), lambda: batch.legal_actions()):
        with pytest.raises(UsageError, match="bind"):           # nothing bound yet
            call()
    for i, bad in enumerate((np.zeros((3, 5), np.float32), np.zeros((2, 3924), np.int8),
                             np.zeros((3, 1), np.float32), np.zeros(4, np.uint8),
                             np.zeros(3, np.int64))):
        with pytest.raises((ValueError, TypeError)):
            batch.bind(*arrays[:i], bad, *arrays[i + 1:])
    batch.bind(*arrays)
    with pytest.raises(UsageError):
        batch.bind(*arrays)                         # once
    for call in (lambda: batch.random_actions(acts, 1), lambda: batch.legal_actions(),
                 lambda: batch.step(acts, worker), lambda: batch.hold([worker], acts)):
        with pytest.raises(UsageError, match="reset"):          # no game has begun
            call()
    for start, stop in ((0, 4), (-1, 3), (2, 1)):
        with pytest.raises(ConfigurationError):
            batch.reset(start, stop, worker)
    batch.reset(0, 3, worker)
    with pytest.raises(ValueError):
        batch.step(acts.astype(np.int32), worker)
    for short in (np.zeros(2, np.int64), np.zeros(4, np.int64)):
        with pytest.raises(ConfigurationError):
            batch.step(short, worker)
        with pytest.raises(ConfigurationError):
            batch.hold([worker], short)
    for workers in ([], [worker] * 257, [worker, None]):
        with pytest.raises((ConfigurationError, TypeError)):
            batch.hold(workers, acts)
    with pytest.raises(UsageError, match="worker is in use"):
        batch.hold([worker, worker])                # one worker, two slices
    for call in (lambda: batch.run(0), batch.release):
        with pytest.raises(UsageError):             # nothing held
            call()
    before = [batch.state_bytes(i) for i in range(3)]
    for bad in (np.full(3, -1, np.int64), np.full(3, 10**6, np.int64)):
        with pytest.raises(IllegalActionError, match="in game 0; nothing was played"):
            batch.step(bad, worker)
        with pytest.raises(IllegalActionError, match="in game 0; nothing was played"):
            batch.hold([worker], bad)
    assert [batch.state_bytes(i) for i in range(3)] == before   # illegal: nothing moved
    batch.hold([worker, _search.Work()])            # a held call: its games are taken
    for call in (lambda: batch.state_bytes(0), lambda: batch.reset(0, 1, _search.Work()),
                 lambda: batch.hold([_search.Work()]), lambda: batch.run(2)):
        with pytest.raises(UsageError):
            call()
    batch.run(1)
    with pytest.raises(UsageError):
        batch.run(1)                                # each slice once
    batch.run(0)
    batch.release()
    assert not worker.busy and batch.state_bytes(0) != before[0]
    with pytest.raises(ConfigurationError):
        batch.state_bytes(3)
    for name, fn in inspect.getmembers(batch, callable):
        if name.startswith("__"):
            continue
        for args in ((), (None,), (np.zeros(3),), (-1, 10**9, None), (0, 3, None, None),
                     ([worker], np.zeros(3, np.int64)), (0,)):
            try:
                fn(*args)
            except Exception:
                pass


def test_a_worker_fits_any_batch() -> None:
    """A worker's memory grows to what the batch it serves needs (positions, tree).

    One worker steps a Just4Fun batch, a Fool batch with search opponents, and more, on
    its own and as a slice of a held call beside a worker fresh from another game (issue
    22, item 2: a 376-byte Fool position was copied into a smaller worker's scratch).
    """
    worker, other = _search.Work(), _search.Work()
    envs = [_env("just4fun", 3, seed=1, opponents="greedy", seat=1),
            _env("fool", 3, seed=1, players=4, opponents="ismcts:40", seat=2),
            _env("three_or_more", 3, seed=1, opponents="flat:2", seat=0)]
    twins = [_env(e.game.name, 3, seed=1, players=e.game.num_players,
                  opponents=e.opponents, seat=e.seat) for e in envs]
    for env in envs:
        env._batch.reset(0, 3, worker)
    for twin in twins:
        twin.reset()
    for t in range(6):
        for env, twin in zip(envs, twins, strict=True):
            actions = twin.random_actions(t)
            if t % 2:
                env._batch.step(actions, worker)
            else:
                pair = [other, worker] if t % 4 else [worker, other]
                env._batch.hold(pair, actions)
                env._batch.run(1)
                env._batch.run(0)
                env._batch.release()
            twin.step(actions)
            assert all(env._batch.state_bytes(i) == twin._batch.state_bytes(i)
                       for i in range(3))
    assert worker.capacity == other.capacity == 41 and not worker.busy and not other.busy


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
        except UsageError as e:
            assert "in use by another thread" in str(e)
            break
        assert time.monotonic() < deadline, "the reset never held its games"
    with pytest.raises(UsageError, match=r"games 0\.\.1 are in use"):
        batch.state_bytes(0)
    with pytest.raises(UsageError, match=r"games 1\.\.3 are in use"):
        batch.reset(1, 3, free)
    with pytest.raises(UsageError, match="this worker is in use"):
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


class _Meddling:
    """A stand-in for a VectorEnv's thread pool that meddles between a call's slices.

    It runs each slice submitted to it at once, in the caller's thread, but first calls
    ``meddle`` -- except before the first slice it is given -- so that something happens
    deterministically after a call has started and before (some of) its slices run: the
    race of a real pool, forced.
    """

    def __init__(self, meddle: Callable[[], None], first: bool = False) -> None:
        self.meddle = meddle
        self.submitted = 0 if first else -1

    def submit(self, fn: Callable[..., object], *args: object) -> Future[object]:
        if self.submitted >= 0:
            self.meddle()
        self.submitted += 1
        job: Future[object] = Future()
        try:
            job.set_result(fn(*args))
        except BaseException as exc:
            job.set_exception(exc)
        return job

    def shutdown(self, wait: bool = True) -> None:
        pass


@pytest.mark.parametrize("threads", [2, 3, 4])
@pytest.mark.parametrize("rewrite", ["illegal", "other"])
def test_a_step_on_threads_plays_the_copy_it_checked(threads: int, rewrite: str) -> None:
    """A step on threads plays the private copy of the actions it checked.

    Issue 22, item 6: with threads > 1 the slices read the caller's array after the
    check, so rewriting it in between was skipped silently or played another action.
    The caller's array is rewritten after the step began and before its slices run: the
    games move exactly as a one-thread twin's with the actions as they were given.
    """
    env, twin = _env("just4fun", 64, seed=7, threads=threads), _env("just4fun", 64, seed=7)
    env.reset()
    twin.reset()
    for t in range(12):
        legal = env.random_actions(t)
        actions = legal.copy()
        other = env.random_actions(t + 100)

        def meddle(actions: np.ndarray = actions, other: np.ndarray = other) -> None:
            actions[:] = -1 if rewrite == "illegal" else other

        env._pool = _Meddling(meddle, first=True)      # type: ignore[assignment]
        env.step(actions)
        twin.step(legal)
        assert (actions == (-1 if rewrite == "illegal" else other)).all()   # it meddled
        assert [env._batch.state_bytes(i) for i in range(64)] == \
            [twin._batch.state_bytes(i) for i in range(64)], t


class _BlockedReader:
    """A thread reading ``env.legal_actions()`` that stops inside the call, holding the games.

    ``_vector``'s ``np.empty`` is replaced while it runs, so that the reader, once it has
    taken the games (they are taken before the arrays are made), waits there until
    ``finish()``.  ``start()`` returns once the reader holds the games or was refused.
    """

    def __init__(self, env: boardcore.VectorEnv, monkeypatch: pytest.MonkeyPatch) -> None:
        self.env = env
        self.inside, self.go = threading.Event(), threading.Event()
        self.outcome: list[object] = []
        self.thread = threading.Thread(target=self._read)
        reader = self

        class Numpy:
            def __getattr__(self, name: str) -> object:
                return getattr(np, name)

            def empty(self, *args: Any, **kwargs: Any) -> np.ndarray:
                if threading.current_thread() is reader.thread:
                    reader.inside.set()
                    reader.go.wait(30)
                return np.empty(*args, **kwargs)

        monkeypatch.setattr(_vector, "np", Numpy())

    def _read(self) -> None:
        try:
            self.outcome.append(self.env.legal_actions())
        except Exception as exc:            # a refusal, judged by the test
            self.outcome.append(exc)
        self.inside.set()

    def start(self) -> None:
        self.thread.start()
        assert self.inside.wait(30)

    def finish(self) -> object:
        self.go.set()
        self.thread.join(30)
        return self.outcome[0]


@pytest.mark.parametrize("call", ["step", "reset"])
def test_a_call_on_threads_runs_whole_or_not_at_all(call: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A call on threads takes every game before any slice runs.

    Issue 22, item 7: each slice took its own games, so a reader taking the games
    between two slices left the call half done (16 of 64 games moved, then "in use by
    another thread").  Now a reader that comes in between is refused, and a call that
    finds a reader holding the games is refused with nothing changed -- a
    ``UsageError``, as every busy refusal is.
    """
    env = _env("just4fun", 64, seed=3, threads=4)
    twin = _env("just4fun", 64, seed=3)
    env.reset()
    twin.reset()
    actions = env.random_actions(1)
    readers: list[_BlockedReader] = []

    def read_between() -> None:
        reader = _BlockedReader(env, monkeypatch)
        readers.append(reader)
        reader.start()

    env._pool = _Meddling(read_between)     # type: ignore[assignment]
    env.step(actions) if call == "step" else env.reset()
    twin.step(actions) if call == "step" else twin.reset()
    assert readers and all(isinstance(r.finish(), UsageError) for r in readers)
    assert [env._batch.state_bytes(i) for i in range(64)] == \
        [twin._batch.state_bytes(i) for i in range(64)]
    # A reader that holds the games first: the call is refused, nothing changes.
    before = [env._batch.state_bytes(i) for i in range(64)]
    actions = env.random_actions(2)
    reader = _BlockedReader(env, monkeypatch)
    reader.start()
    with pytest.raises(UsageError, match="in use by another thread"):
        env.step(actions) if call == "step" else env.reset()
    ids, counts = reader.finish()           # type: ignore[misc]
    assert [env._batch.state_bytes(i) for i in range(64)] == before
    monkeypatch.undo()
    assert (ids[:, 0] >= 0).all() and (counts > 0).all()
    env.step(actions)                       # given back whole: the env goes on


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
                except (UsageError, IllegalActionError):
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
