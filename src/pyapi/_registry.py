"""The one list of games: name -> configuration class, in ``boardcore.GAMES`` order."""

from __future__ import annotations

from boardcore.fool import Fool
from boardcore.just4fun import Just4Fun
from boardcore.protocol import Game
from boardcore.rummikub_junior import RummikubJunior
from boardcore.three_or_more import ThreeOrMore

GAME_CLASSES: dict[str, type[Game]] = {
    "just4fun": Just4Fun,
    "three_or_more": ThreeOrMore,
    "fool": Fool,
    "rummikub_junior": RummikubJunior,
}
