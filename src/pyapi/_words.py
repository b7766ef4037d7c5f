"""The words of the simulation summary, explained: end reasons, statistics, shared wins.

Each game's ``end_reasons`` and ``stat_names`` are labels; their meanings, with the rule
they come from, are the game's ``words`` (a class attribute beside the labels).

>>> import boardcore
>>> describe(boardcore.make("fool", players=4), "both")
'both at once: a total of -80 or lower and a sixth +10 after the same round (F12)'
>>> describe(boardcore.make("fool", players=4), "new_reason")
'new reason'
"""

from __future__ import annotations

from typing import Any

from boardcore.protocol import Game

__all__ = ["SHARED", "WIN_RATE", "describe"]

SHARED = (
    "a game with several winners: a tie for first place that the game's tie-break "
    "leaves standing; each tied seat counts it as a win"
)
WIN_RATE = (
    "the games a seat won, alone or shared, with its 95% Wilson score interval; "
    "the seats' win rates add up to more than 100% when games are shared"
)


def describe(game: Game[Any], label: str) -> str:
    """Return what end reason or statistic ``label`` of ``game`` means (its words if unknown)."""
    return game.words.get(label, label.replace("_", " "))
