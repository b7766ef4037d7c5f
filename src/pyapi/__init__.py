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

from collections.abc import Sequence
from typing import Literal, SupportsIndex, cast, overload

from boardcore._registry import GAME_CLASSES, AnyGame, AnyState, GameName
from boardcore.arena import ArenaResult, arena
from boardcore.errors import (
    BoardcoreError,
    ConfigurationError,
    IllegalActionError,
    InvalidStateError,
    NotationError,
    UsageError,
)
from boardcore.fool import Fool
from boardcore.just4fun import Just4Fun
from boardcore.ladder import LadderResult, ladder
from boardcore.protocol import Game, State
from boardcore.ratings import Ratings, ratings
from boardcore.records import Record, SeatRecord, record, replay, seat_record
from boardcore.rummikub_junior import RummikubJunior
from boardcore.simulate import SimulationResult, SimulationSummary, simulate
from boardcore.three_or_more import ThreeOrMore
from boardcore.values import Outcome, quote
from boardcore.vector import VectorEnv

__all__ = [
    "GAMES",
    "AnyGame",
    "AnyState",
    "ArenaResult",
    "BoardcoreError",
    "ConfigurationError",
    "Game",
    "GameName",
    "IllegalActionError",
    "InvalidStateError",
    "LadderResult",
    "NotationError",
    "Outcome",
    "Ratings",
    "Record",
    "SeatRecord",
    "SimulationResult",
    "SimulationSummary",
    "State",
    "UsageError",
    "VectorEnv",
    "__version__",
    "arena",
    "ladder",
    "make",
    "ratings",
    "record",
    "replay",
    "seat_record",
    "simulate",
]

__version__ = "0.1.0"

#: The names of every game, in a fixed order.
GAMES: tuple[GameName, ...] = cast("tuple[GameName, ...]", tuple(GAME_CLASSES))


@overload
def make(
    name: Literal["just4fun"],
    *,
    players: SupportsIndex,
    layout: str | Sequence[int] | Sequence[Sequence[int]] = ...,
    returned_on_lock: bool = ...,
    start_player: SupportsIndex = ...,
) -> Just4Fun: ...
@overload
def make(
    name: Literal["three_or_more"],
    *,
    players: SupportsIndex,
    deck: Sequence[str] | None = ...,
    allow_rotation: bool = ...,
    start_player: SupportsIndex = ...,
) -> ThreeOrMore: ...
@overload
def make(
    name: Literal["fool"],
    *,
    players: SupportsIndex,
    deck: Sequence[int] | None = ...,
    start_player: SupportsIndex = ...,
) -> Fool: ...
@overload
def make(
    name: Literal["rummikub_junior"],
    *,
    players: SupportsIndex,
    start_player: SupportsIndex = ...,
) -> RummikubJunior: ...
def make(name: object, *, players: SupportsIndex, **options: object) -> AnyGame:
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
        raise ConfigurationError(f"unknown game {quote(name)}; allowed: {', '.join(GAMES)}")
    game: AnyGame = GAME_CLASSES[name](players=players, **options)  # type: ignore[assignment]
    return game
