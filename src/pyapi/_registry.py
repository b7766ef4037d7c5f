"""The one list of games: their configuration classes, in ``boardcore.GAMES`` order.

Everything else that names every game -- ``GAMES``, the Gymnasium ids, the summary's
words, the docs' lists of pages, the layout and memory tests -- is read from these
classes.  The type checker needs three lists spelled out (``GameName``, ``AnyGame``,
``AnyState``, and ``make``'s overloads): ``tests/test_layout.py`` checks them against
``CLASSES``.
"""

from __future__ import annotations

from typing import Any, Literal

from boardcore.fool import Fool, FoolState
from boardcore.just4fun import Just4Fun, Just4FunState
from boardcore.protocol import Game
from boardcore.rummikub_junior import RummikubJunior, RummikubJuniorState
from boardcore.three_or_more import ThreeOrMore, ThreeOrMoreState

#: Every game's configuration class, in ``boardcore.GAMES`` order.
CLASSES: tuple[type[Game[Any]], ...] = (Just4Fun, ThreeOrMore, Fool, RummikubJunior)
#: The configuration class of each game, by name.
GAME_CLASSES: dict[str, type[Game[Any]]] = {cls.name: cls for cls in CLASSES}

#: The name of a game.
GameName = Literal["just4fun", "three_or_more", "fool", "rummikub_junior"]
#: A configuration of any game.
AnyGame = Just4Fun | ThreeOrMore | Fool | RummikubJunior
#: A position of any game.
AnyState = Just4FunState | ThreeOrMoreState | FoolState | RummikubJuniorState
