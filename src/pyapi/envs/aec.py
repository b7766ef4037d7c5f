"""A PettingZoo AEC environment over any boardcore game (needs the ``rl`` extra).

Agents are ``player_0 … player_{n-1}`` (the seats).  Each observes a dict,
``{"observation": float32 planes, "action_mask": int8}``, whose mask is all zeros but
for the agent to act, and acts with ``Discrete(game.num_actions)``.  Rewards come once,
at the end: 1 for a sole win, ``1/k`` for a win shared by ``k`` seats, 0 for a loss.
An illegal action raises ``IllegalActionError`` and changes nothing.  The environment
pickles (its position goes through ``to_dict``).

>>> from boardcore.envs import pettingzoo_env
>>> env = pettingzoo_env("just4fun", players=2)
>>> env.reset(seed=3)
>>> env.agents, env.agent_selection
(['player_0', 'player_1'], 'player_0')
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, obs["action_mask"].dtype, int(obs["action_mask"].sum())
((225,), dtype('int8'), 14)
>>> env.step(int(obs["action_mask"].argmax()))
>>> env.agent_selection
'player_1'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped,import-not-found,unused-ignore]

from boardcore._engine._random import STREAM_GAME, derive_seed
from boardcore.envs._common import final_rewards, observation_space
from boardcore.errors import ConfigurationError, UsageError
from boardcore.values import check_seed, quote

if TYPE_CHECKING:
    from boardcore._registry import AnyGame, AnyState

__all__ = ["BoardcoreAECEnv"]

Observation = dict[str, npt.NDArray[Any]]


class BoardcoreAECEnv(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment over a boardcore game.

    Args:
        game: a configuration from ``boardcore.make``.
        render_mode: ``None`` or ``"ansi"`` (``render()`` returns the text picture).

    ``reset(seed=s)`` deals episode 0 of seed ``s``; each later ``reset()`` without a
    seed deals the next episode of the same seed, so a seeded run replays exactly.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, game: AnyGame, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ConfigurationError(
                f"render_mode must be None or 'ansi', not {quote(render_mode)}")
        self.game = game
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"{game.name}_v1"}
        self.possible_agents = [f"player_{i}" for i in range(game.num_players)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        space = observation_space(game)
        discrete: spaces.Discrete[np.int64] = spaces.Discrete(game.num_actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, discrete)
        self._zeros = np.zeros(game.num_actions, dtype=np.int8)
        self._base_seed = check_seed(None)
        self._episode = -1
        self.state: AnyState | None = None

    def observation_space(self, agent: str) -> spaces.Dict:
        """The ``Dict(observation, action_mask)`` space (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete[np.int64]:
        """``Discrete(game.num_actions)`` (the same object every call)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game; ``seed`` fixes it and every later episode's deal."""
        if seed is not None:
            self._base_seed = check_seed(seed)
            self._episode = -1
        self._episode += 1
        deal = derive_seed(self._base_seed, STREAM_GAME, self._episode)
        self.state = state = self.game.new_state(deal)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        to_act = state.current_player
        self.agent_selection = self.possible_agents[0 if to_act is None else to_act]

    def observe(self, agent: str) -> Observation:
        """What ``agent``'s seat sees, with its legal actions when it is to act."""
        state = self._live()
        seat = self._seat[agent]
        if state.current_player == seat:
            mask = state.legal_actions_mask().view(np.int8)
        else:
            mask = self._zeros.copy()
        return {"observation": state.observation(seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Play ``action`` for the agent to act (``None`` for an agent whose game ended).

        Raises:
            IllegalActionError: the action is not legal (nothing changed).
            UsageError: no episode has begun (call ``reset``).
        """
        state = self._live()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state.apply(action)
        self._cumulative_rewards[agent] = 0.0
        to_act = state.current_player
        if to_act is None:
            self.rewards = dict(zip(self.agents, final_rewards(state), strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[to_act]
        self._accumulate_rewards()

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The agent to act's observation, reward, flags and info (PettingZoo's ``last``).

        Raises:
            UsageError: no episode has begun (call ``reset``).
        """
        self._live()
        last: tuple[Any, float, bool, bool, dict[str, Any]] = super().last(observe)
        return last

    def render(self) -> str | None:
        """The text picture of the position (``render_mode="ansi"``), else ``None``.

        Every seat is an agent here, so the picture is the table's, every hand face up,
        as PettingZoo's own card games draw theirs; one seat's picture is
        ``env.state.text(seat)``, and what an agent learns from is ``observe``.
        """
        if self.render_mode != "ansi" or self.state is None:
            return None
        return str(self.state)

    def close(self) -> None:
        """Release nothing: the environment holds no outside resource."""

    def _live(self) -> AnyState:
        if self.state is None:
            raise UsageError("call reset() first")
        return self.state
