"""boardcore: fast, faithful rules engines for four tabletop games.

>>> import boardcore
>>> boardcore.GAMES[0]
'just4fun'
>>> game = boardcore.make("just4fun", players=3)
>>> state = game.new_state(seed=42)
>>> state.current_player
0
"""

from __future__ import annotations

from typing import Any

from boardcore._registry import GAME_CLASSES
from boardcore.errors import (
    BoardcoreError,
    ConfigurationError,
    IllegalActionError,
    InvalidStateError,
    NotationError,
)
from boardcore.protocol import Game, State
from boardcore.values import Outcome
from boardcore.records import record, replay
from boardcore.simulate import SimulationResult, simulate

__all__ = [
    "GAMES",
    "BoardcoreError",
    "ConfigurationError",
    "Game",
    "IllegalActionError",
    "InvalidStateError",
    "NotationError",
    "Outcome",
    "SimulationResult",
    "State",
    "make",
    "record",
    "replay",
    "simulate",
]

__version__ = "0.1.0"

#: The names of every game, in a fixed order.
GAMES: tuple[str, ...] = tuple(GAME_CLASSES)


def make(name: object, *, players: object, **options: Any) -> Game:
    """Return the configuration of game ``name`` for ``players`` seats.

    Args:
        name: one of ``boardcore.GAMES``.
        players: the number of seats.
        **options: game options; see ``docs/games/<name>.md``.

    Raises:
        ConfigurationError: unknown name, player count out of range, unknown or
            invalid option (a ``ValueError``).

    >>> make("just4fun", players=2, returned_on_lock=True).options["returned_on_lock"]
    True
    """
    if not isinstance(name, str) or name not in GAME_CLASSES:
        raise ConfigurationError(f"unknown game {name!r}; allowed: {', '.join(GAMES)}")
    return GAME_CLASSES[name](players=players, **options)
