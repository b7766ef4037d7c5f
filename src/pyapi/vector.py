"""``VectorEnv``: many games stepped in one compiled call, for reinforcement learning.

Observations, action masks, rewards and flags land in preallocated numpy arrays; the
games are stepped in compiled code without the GIL (split over ``threads``), and a
trajectory depends only on the seed, never on the thread count.

Two modes:

* **self-play** (``opponents=None``): the caller acts for whichever seat is to move in
  each game; ``obs`` is that seat's observation and ``rewards`` has one column per seat.
* **learner against agents** (``opponents="random"``, ``"greedy"``, ``"flat:50"``,
  ``"ismcts:200"``, ``"level:3"``: the names of ``boardcore.agents.agent_from_string``,
  with a budget, not a time limit): the caller acts for seat ``seat``; the other seats
  are played inside the compiled step by the agents' compiled code; ``rewards`` has one
  value per game.

Rewards come from the final outcome: 1 for a sole win, ``1/k`` for a win shared by ``k``
seats, 0 for a loss, 0 before the end.  Autoreset is Gymnasium's next-step mode: a game
that ends in one step (``terminated``) starts again in the next, whose action for that
game is ignored and whose reward is 0.

>>> import boardcore, numpy as np
>>> env = boardcore.VectorEnv(boardcore.make("just4fun", players=2), 4, seed=1)
>>> obs, info = env.reset()
>>> obs.shape, info["action_mask"].shape, info["current_player"].tolist()
((4, 225), (4, 3924), [0, 0, 0, 0])
>>> obs, rewards, terminated, truncated, info = env.step(env.random_actions(seed=2))
>>> rewards.shape, bool(terminated.any())
((4, 2), False)

With ``action_mask=False`` no dense mask is written (``info`` has none): a policy reads
the legal actions as ids with ``legal_actions()``, and every action is checked the same.

>>> env = boardcore.VectorEnv(boardcore.make("just4fun", players=2), 4, seed=1,
...                           action_mask=False)
>>> obs, info = env.reset()
>>> sorted(info)
['current_player']
>>> ids, counts = env.legal_actions()
>>> obs, rewards, terminated, truncated, info = env.step(ids[:, 0].astype(np.int64))
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor, wait
from typing import TYPE_CHECKING, Any, SupportsIndex

import numpy as np
import numpy.typing as npt

from boardcore._engine import _search, _vector
from boardcore.agents import LevelAgent, agent_from_string
from boardcore.errors import ConfigurationError
from boardcore.values import check_int, check_seed, quote

if TYPE_CHECKING:
    from boardcore._registry import AnyGame

__all__ = ["VectorEnv"]


def _opponents(text: str | None, game: str) -> _search.Searcher | None:
    """The compiled agent ``text`` names, ``None`` for self-play.

    ``text`` is read by ``agent_from_string``; a level is its agent in ``game``.
    """
    if text is None:
        return None
    if not isinstance(text, str):
        raise TypeError(f"opponents are named by a str such as 'ismcts:200', not {quote(text)}")
    agent = agent_from_string(text, seed=0)
    searcher = (agent.agent_for(game) if isinstance(agent, LevelAgent) else agent)._searcher
    if searcher.time_limit is not None:
        raise ConfigurationError(f"opponents {quote(text)}: a VectorEnv's opponents play a "
                                 "budget, not a time limit (a trajectory must not depend on "
                                 "the clock)")
    return searcher


class VectorEnv:
    """``num_envs`` games of ``game``, stepped together in compiled code.

    Args:
        game: a configuration from ``boardcore.make``.
        num_envs: how many games.
        seed: the seed of every episode of every game (``None`` draws one).
        opponents: ``None`` for self-play, or the agent that plays every seat but
            ``seat``: ``"random"``, ``"greedy"``, ``"flat:N"``, ``"ismcts:N"``,
            ``"level:N"`` (named as for ``boardcore.agents.agent_from_string``, with its
            defaults; a level plays as its agent in ``game``).
        seat: the learner's seat when ``opponents`` is given (a seat of the game).
        threads: threads to step the games with; the results do not depend on it.
        action_mask: write every game's dense action mask at each step
            (``info["action_mask"]``, read-only: each step changes it only where the
            legal actions changed); ``False`` writes none, for a policy that reads
            the legal actions as ids (``legal_actions()``), which saves the scattered
            writes of a wide mask (Just4Fun's 3,924 actions, Rummikub Junior's 9,858).

    Raises:
        TypeError: an argument of the wrong type.
        ConfigurationError: an argument out of range, or an unknown agent.

    A ``VectorEnv`` is neither copied nor pickled (it owns threads and compiled memory):
    make another with the same seed.
    """

    def __init__(self, game: AnyGame, num_envs: SupportsIndex, *, seed: SupportsIndex | None,
                 opponents: str | None = None, seat: SupportsIndex = 0,
                 threads: SupportsIndex = 1, action_mask: bool = True) -> None:
        from boardcore.protocol import Game

        if not isinstance(game, Game):
            raise TypeError(f"game must be a boardcore game, not {quote(game)}")
        n = check_int(num_envs, "num_envs")
        if not 1 <= n <= _vector.MAX_ENVS:
            raise ConfigurationError(f"num_envs must be in 1..{_vector.MAX_ENVS}, not {quote(n)}")
        searcher = _opponents(opponents, game.name)
        learner = check_int(seat, "seat")
        if not 0 <= learner < game.num_players:
            raise ConfigurationError(f"seat must be a seat of the game, 0..{game.num_players - 1}"
                                     f", not {quote(seat)}")
        if searcher is None:
            learner = -1
        if not isinstance(action_mask, bool):
            raise TypeError(f"action_mask must be True or False, not {quote(action_mask)}")
        self.threads = check_int(threads, "threads")
        if not 1 <= self.threads <= 256:
            raise ConfigurationError(f"threads must be in 1..256, not {self.threads}")
        self.game = game
        self.seed = check_seed(seed)
        self.opponents = opponents
        self._batch = _vector.Batch(game._engine, n, self.seed, learner, searcher)
        self.num_envs = n
        self.seat = None if learner < 0 else learner
        size = self._batch.observation_size
        self._obs = np.zeros((n, size), dtype=np.float32)
        self._mask = (np.zeros((n, self._batch.num_actions), dtype=np.int8) if action_mask
                      else None)
        # Each step changes the mask only where the legal actions changed, so the user
        # sees a read-only view of it: a write there would outlive the next step.
        self._mask_view = None
        if self._mask is not None:
            self._mask_view = self._mask.view()
            self._mask_view.flags.writeable = False
        columns = game.num_players if learner < 0 else 1
        self._rewards = np.zeros((n, columns), dtype=np.float32)
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._truncated = np.zeros(n, dtype=np.bool_)
        self._current = np.zeros(n, dtype=np.int32)
        self._reward_view = self._rewards if learner < 0 else self._rewards[:, 0]
        self._batch.bind(self._obs, self._mask, self._rewards,
                         self._terminated.view(np.uint8), self._current)
        self._workers = [_search.Work() for _ in range(self.threads)]
        self._pool = ThreadPoolExecutor(self.threads - 1) if self.threads > 1 else None

    @property
    def observation_shape(self) -> tuple[int, int]:
        """``(num_envs, game.observation_shape[0])``."""
        return (self.num_envs, self._obs.shape[1])

    def _call(self, actions: npt.NDArray[np.int64] | None) -> None:
        """Step every game with ``actions``, or (``None``) begin a new episode in each.

        One thread: one compiled call.  More: ``hold`` takes every game and every
        thread's worker first (or refuses, nothing changed), each thread runs its slice
        (this one the first), and ``release`` gives everything back once all have run.
        """
        batch, pool = self._batch, self._pool
        if pool is None:
            if actions is None:
                batch.reset(0, self.num_envs, self._workers[0])
            else:
                batch.step(actions, self._workers[0])
            return
        batch.hold(self._workers, actions)
        jobs = []
        try:
            for j in range(1, self.threads):
                try:
                    jobs.append(pool.submit(batch.run, j))
                except RuntimeError:        # the pool was shut down (close()): run it here
                    batch.run(j)
            batch.run(0)
        finally:
            wait(jobs)
            batch.release()
        for job in jobs:
            job.result()

    def _info(self) -> dict[str, npt.NDArray[Any]]:
        if self._mask_view is None:
            return {"current_player": self._current}
        return {"action_mask": self._mask_view, "current_player": self._current}

    def reset(self) -> tuple[npt.NDArray[np.float32], dict[str, npt.NDArray[Any]]]:
        """Begin a new episode in every game; return ``(obs, info)``.

        The arrays are the environment's own, overwritten by the next call.

        Raises:
            UsageError: another thread is using the environment (nothing changed).
        """
        self._call(None)
        return self._obs, self._info()

    def step(self, actions: object) -> tuple[
        npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_],
        npt.NDArray[np.bool_], dict[str, npt.NDArray[Any]],
    ]:
        """Play ``actions`` (one per game); return the five arrays of a Gymnasium step.

        That is ``(obs, rewards, terminated, truncated, info)``; ``rewards`` is
        ``(num_envs, players)`` in self-play, ``(num_envs,)`` against agents.  The
        actions are copied before they are checked, and the copy is what is played.

        Raises:
            TypeError: ``actions`` is not an integer array of shape ``(num_envs,)``.
            IllegalActionError: an action is not legal in its game (nothing moved).
            UsageError: ``reset()`` was not called yet, or another thread is using the
                environment (nothing moved).
        """
        self._call(self._actions(actions))
        return self._obs, self._reward_view, self._terminated, self._truncated, self._info()

    def _actions(self, actions: object) -> npt.NDArray[np.int64]:
        if not isinstance(actions, np.ndarray) or actions.dtype.kind not in "iu":
            raise TypeError(f"actions must be an integer numpy array, not {quote(actions)}")
        if actions.shape != (self.num_envs,):
            raise TypeError(f"actions must have shape ({self.num_envs},), not {actions.shape}")
        return np.ascontiguousarray(actions, dtype=np.int64)

    def legal_actions(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
        """Return every game's legal actions as a padded array, and their counts.

        ``ids[i, :counts[i]]`` are game ``i``'s legal actions (those
        ``info["action_mask"][i]`` allows), ascending, and ``-1`` pads the rest; ``ids``
        has ``max(counts)`` columns (at least one).  A policy that looks only at the
        legal actions reads them here instead of scanning the mask (and with
        ``action_mask=False`` no mask is written at all).

        >>> import boardcore
        >>> env = boardcore.VectorEnv(boardcore.make("just4fun", players=2), 2, seed=1)
        >>> obs, info = env.reset()
        >>> ids, counts = env.legal_actions()
        >>> bool((info["action_mask"][0, ids[0, :counts[0]]] == 1).all())
        True
        >>> int(counts[0]) == int(info["action_mask"][0].sum())
        True

        Raises:
            UsageError: ``reset()`` was not called yet, or another thread is stepping.
        """
        return self._batch.legal_actions()

    def random_actions(self, seed: SupportsIndex | None = None) -> npt.NDArray[np.int64]:
        """Return a uniformly random legal action for every game (a baseline policy).

        Raises:
            UsageError: ``reset()`` was not called yet, or another thread is stepping.
        """
        out = np.empty(self.num_envs, dtype=np.int64)    # every entry is written
        self._batch.random_actions(out, check_seed(seed))
        return out

    def __reduce_ex__(self, protocol: SupportsIndex) -> Any:
        raise TypeError("a VectorEnv cannot be copied or pickled: make another with the "
                        "same seed")

    def close(self) -> None:
        """Stop the threads."""
        pool = getattr(self, "_pool", None)     # None too if __init__ raised
        if pool is not None:
            pool.shutdown()
            self._pool = None

    def __del__(self) -> None:
        self.close()
