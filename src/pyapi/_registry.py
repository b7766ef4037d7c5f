"""The one list of games: name -> configuration class, in ``boardcore.GAMES`` order."""

from __future__ import annotations

from typing import Any, Literal

from boardcore.fool import Fool, FoolState
from boardcore.just4fun import Just4Fun, Just4FunState
from boardcore.protocol import Game
from boardcore.rummikub_junior import RummikubJunior, RummikubJuniorState
from boardcore.three_or_more import ThreeOrMore, ThreeOrMoreState

#: The name of a game.
GameName = Literal["just4fun", "three_or_more", "fool", "rummikub_junior"]
#: A configuration of any game.
AnyGame = Just4Fun | ThreeOrMore | Fool | RummikubJunior
#: A position of any game.
AnyState = Just4FunState | ThreeOrMoreState | FoolState | RummikubJuniorState

GAME_CLASSES: dict[str, type[Game[Any]]] = {
    "just4fun": Just4Fun,
    "three_or_more": ThreeOrMore,
    "fool": Fool,
    "rummikub_junior": RummikubJunior,
}
