"""A Gymnasium single-agent environment: one seat learns, agents play the others.

Registered as ``boardcore/Just4Fun-v1``, ``boardcore/ThreeOrMore-v1``,
``boardcore/Fool-v1`` and ``boardcore/RummikubJunior-v1`` when ``boardcore.envs`` is
imported (needs the ``rl`` extra).  The observation is
``{"observation": float32 planes, "action_mask": int8}`` of the learner's seat; the
action is ``Discrete(game.num_actions)``; the reward is 0 until the end, then 1 for a
sole win, ``1/k`` for a win shared by ``k`` seats, 0 for a loss.

Gymnasium expects ``step`` to take every action of the action space (its checker steps
with actions sampled in another position), so by default an illegal action loses: the
episode ends at once with reward -1 and ``info["illegal_action"] = True``, the position
unchanged.  ``illegal_action="raise"`` raises ``IllegalActionError`` instead (nothing
changes).  ``env.action_space.sample()`` draws a legal action.

A step is whole or nothing: if an opponent agent raises (or plays an illegal action),
the learner's action and the opponents' moves so far are taken back and the error
propagates, so the learner is to act again in the same position; an error while
``reset`` lets the opponents move leaves no episode (``step`` asks for ``reset``).
``render()`` draws the position as the learner sees it: other hands face down.

>>> import gymnasium, boardcore.envs
>>> env = gymnasium.make("boardcore/Just4Fun-v1", players=2, opponents="greedy")
>>> obs, info = env.reset(seed=1)
>>> obs["observation"].shape, obs["action_mask"].shape
((225,), (3924,))
>>> obs, reward, terminated, truncated, info = env.step(int(obs["action_mask"].argmax()))
>>> reward, terminated, truncated
(0.0, False, False)
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any, SupportsIndex

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from boardcore._engine._random import STREAM_GAME, STREAM_PLAYER, derive_seed
from boardcore.agents import Agent, agent_from_string
from boardcore.envs._common import final_rewards, observation_space, resolve_game
from boardcore.errors import ConfigurationError, UsageError
from boardcore.values import check_int, quote

if TYPE_CHECKING:
    from boardcore._registry import AnyGame, AnyState

__all__ = ["BoardcoreEnv", "LegalActions"]

Observation = dict[str, npt.NDArray[Any]]


class LegalActions(spaces.Discrete[np.int64]):
    """``Discrete(num_actions)`` whose ``sample()`` draws a legal action of its env.

    Without a mask, ``sample()`` uses the environment's current action mask, so a
    random policy (``env.action_space.sample()``) never plays an illegal action.
    """

    def __init__(self, env: BoardcoreEnv) -> None:
        super().__init__(env.game.num_actions)
        self.env = env

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        """A uniformly random legal action (or as ``Discrete.sample`` with a mask)."""
        if mask is None and probability is None and self.env.state is not None \
                and self.env.state.current_player == self.env.seat:
            mask = self.env.state.legal_actions_mask().view(np.int8)
        return np.int64(super().sample(mask=mask, probability=probability))


class BoardcoreEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a boardcore game against agents, as a Gymnasium environment.

    Args:
        game: a name from ``boardcore.GAMES`` or a configuration from ``boardcore.make``.
        players: the number of seats (default: the game's smallest); with a name only.
        opponents: the agent of every other seat: a name for
            ``boardcore.agents.agent_from_string`` (``"random"``, ``"greedy"``,
            ``"flat:50"``, ``"ismcts:200"``; seeded afresh from each episode's seed), or
            an agent object (used as it is).
        seat: the learner's seat.
        illegal_action: ``"lose"`` (the episode ends, reward -1) or ``"raise"``.
        render_mode: ``None`` or ``"ansi"`` (``render()`` returns the text picture).
        **options: the game's options (``docs/games/<game>.md``); with a name only.

    ``reset(seed=s)`` seeds the environment's generator (``np_random``); every episode's
    deal and the opponents' seed are drawn from it.  An error of an opponent agent
    propagates and leaves the learner to act in the position it acted in (``step``), or
    no episode (``reset``).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(self, game: object = "just4fun", players: int | None = None,
                 opponents: str | Agent = "random", seat: SupportsIndex = 0,
                 illegal_action: str = "lose", render_mode: str | None = None,
                 **options: object) -> None:
        self.game: AnyGame = resolve_game(game, players, options)
        self.seat = check_int(seat, "seat")
        if not 0 <= self.seat < self.game.num_players:
            raise ConfigurationError(f"seat must be a seat of the game, not {quote(seat)}")
        if render_mode not in (None, "ansi"):
            raise ConfigurationError(
                f"render_mode must be None or 'ansi', not {quote(render_mode)}")
        if illegal_action not in ("lose", "raise"):
            raise ConfigurationError(f"illegal_action must be 'lose' or 'raise', not "
                             f"{quote(illegal_action)}")
        self.illegal_action = illegal_action
        if isinstance(opponents, str):
            agent_from_string(opponents)            # a bad name fails here, not at reset
        elif not isinstance(opponents, Agent):
            raise TypeError(f"opponents must be an agent or its name, not {quote(opponents)}")
        self.opponents = opponents
        self.render_mode = render_mode
        # gymnasium >= 1.3 types Dict as Space[dict[str, Any]]: wider than our dict
        self.observation_space = observation_space(self.game)  # type: ignore[assignment,unused-ignore]
        self.action_space = LegalActions(self)
        self._agent: Agent | None = None
        self._over = True
        self.state: AnyState | None = None

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game and let the opponents move up to the learner's turn."""
        super().reset(seed=seed)
        episode = int(self.np_random.integers(2**63))
        self.state, self._over = None, True     # no episode until the opponents have moved
        state = self.game.new_state(derive_seed(episode, STREAM_GAME, 0))
        opponents = self.opponents
        self._agent = (agent_from_string(opponents, seed=derive_seed(episode, STREAM_PLAYER, 0))
                       if isinstance(opponents, str) else opponents)
        self._opponents_move(state)
        self.state, self._over = state, state.is_over()
        return self._observe(state), {}

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action``, then the opponents' until the learner is to act.

        Raises:
            IllegalActionError: the action is not legal and ``illegal_action="raise"``
                (nothing changed).
            UsageError: the episode is over, or none has begun (call ``reset``).
            Exception: whatever an opponent agent raised; the turn is taken back.
        """
        state = self.state
        if state is None or self._over:
            raise UsageError("the episode is over: call reset()")
        if self.illegal_action == "lose" and not self._legal(state, action):
            self._over = True
            return self._observe(state), -1.0, True, False, {"illegal_action": True}
        moves = len(state.history())
        state.apply(action)
        try:
            self._opponents_move(state)
        except BaseException:
            while len(state.history()) > moves:    # take back the turn: whole or nothing
                state.undo()
            raise
        self._over = over = state.is_over()
        reward = final_rewards(state)[self.seat] if over else 0.0
        return self._observe(state), reward, over, False, {}

    def render(self) -> Any:
        """The text picture of the position as the learner sees it, or ``None``.

        With ``render_mode="ansi"``; other seats' hands are face down.
        """
        if self.render_mode != "ansi" or self.state is None:
            return None
        return self.state.text(self.seat)

    @staticmethod
    def _legal(state: AnyState, action: object) -> bool:
        """Whether ``action`` names a legal action, read as ``apply`` reads one.

        That is an int, a numpy integer or a 0-d integer array (not a bool).
        """
        if isinstance(action, (bool, np.bool_)):
            return True     # a wrong type is the caller's bug: apply raises TypeError
        try:
            a = operator.index(action)  # type: ignore[arg-type]
        except TypeError:
            return True
        return bool(0 <= a < state.game.num_actions and state.legal_actions_mask()[a])

    def _opponents_move(self, state: AnyState) -> None:
        agent = self._agent
        assert agent is not None
        while (to_act := state.current_player) is not None and to_act != self.seat:
            state.apply(agent.act(state))

    def _observe(self, state: AnyState) -> Observation:
        if state.current_player == self.seat and not self._over:
            mask = state.legal_actions_mask().view(np.int8)
        else:
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
        return {"observation": state.observation(self.seat), "action_mask": mask}
