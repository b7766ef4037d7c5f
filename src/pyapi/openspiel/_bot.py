"""boardcore's agents as OpenSpiel bots, so OpenSpiel's tooling can pit them against its own."""

from __future__ import annotations

from typing import TYPE_CHECKING, SupportsIndex

import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

from boardcore.agents import Agent, agent_from_string
from boardcore.errors import ConfigurationError
from boardcore.openspiel._game import BoardcoreGame, BoardcoreState
from boardcore.values import check_int, quote

if TYPE_CHECKING:
    from boardcore import AnyState

__all__ = ["AgentBot", "bot"]


class AgentBot(pyspiel.Bot):  # type: ignore[misc]
    """A ``pyspiel.Bot`` that plays one seat of a ``boardcore_*`` game with a boardcore agent.

    ``step`` is the agent's ``act`` on the boardcore position, ``get_policy`` its
    ``policy``; the agent sees only what the seat to act may see.
    """

    def __init__(self, agent: Agent, player: int) -> None:
        pyspiel.Bot.__init__(self)
        self.agent = agent
        self.player = player

    def step(self, state: BoardcoreState) -> int:
        """Return the agent's action for the seat to act."""
        return self.agent.act(self._position(state))

    def provides_policy(self) -> bool:
        """True: ``get_policy`` is the agent's ``policy``."""
        return True

    def get_policy(self, state: BoardcoreState) -> list[tuple[int, float]]:
        """Return the agent's weight of every legal action, ``(action, probability)`` pairs."""
        return sorted(self.agent.policy(self._position(state)).items())

    def step_with_policy(self, state: BoardcoreState) -> tuple[list[tuple[int, float]], int]:
        """Return the policy and the action (two decisions of the agent: two searches)."""
        return self.get_policy(state), self.step(state)

    def restart_at(self, state: BoardcoreState) -> None:
        """Nothing to forget: every decision starts afresh from the position."""

    def _position(self, state: object) -> AnyState:
        if not isinstance(state, BoardcoreState):
            raise TypeError(f"a boardcore bot plays a boardcore_* game, not {quote(state)}")
        position = state.boardcore_state
        if position is None or position.current_player != self.player:
            raise ConfigurationError(f"the bot plays seat {self.player}, which is not to act here")
        return position

    def __repr__(self) -> str:
        return f"AgentBot({self.agent!r}, player={self.player})"


def bot(game: object, agent: str | Agent, player: SupportsIndex,
        seed: SupportsIndex | None = None) -> AgentBot:
    """Return a bot playing seat ``player`` of ``game`` with a boardcore agent.

    Args:
        game: a ``boardcore_*`` game (``pyspiel.load_game``).
        agent: an agent name (``"ismcts:1000"``, ``"flat:200"``, ``"greedy"``,
            ``"random"``; ``boardcore.agents.agent_from_string``) or an agent.
        player: the seat the bot plays.
        seed: the agent's seed when named (``None`` draws one).

    Raises:
        TypeError: ``game`` is not a boardcore game.
        ConfigurationError: an unknown agent name or a seat out of range.
    """
    if not isinstance(game, BoardcoreGame):
        raise TypeError(f"bot() takes a boardcore_* game (pyspiel.load_game), not {quote(game)}")
    seat = check_int(player, "player")
    if not 0 <= seat < game.num_players():
        raise ConfigurationError(f"player {quote(player)} is not a seat of {game}")
    if isinstance(agent, str):
        return AgentBot(agent_from_string(agent, seed=seed), seat)
    if not isinstance(agent, Agent):
        raise TypeError(f"agent must be an agent name or an agent, not {quote(agent)}")
    return AgentBot(agent, seat)
