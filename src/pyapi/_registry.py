"""The one list of games: name -> configuration class, in ``boardcore.GAMES`` order."""

from __future__ import annotations

from boardcore.fool import Fool
from boardcore.just4fun import Just4Fun
from boardcore.protocol import Game
from boardcore.rummikub_junior import RummikubJunior

GAME_CLASSES: dict[str, type[Game]] = {
    "just4fun": Just4Fun,
    "fool": Fool,
    "rummikub_junior": RummikubJunior,
}
