"""Fool (Friedemann Friese): shed your hand, and never play the worst card of a trick.

Actions are card kinds (``0..82``): green 2-27, red 2-23, yellow 2-21, blue 2-15, then
the wild 1 (``82``); the notation is the colour letter and value (``G17``, ``W1``).  The
Fools of a trick sit out the next one and are never ``current_player``; rounds score and
deal themselves, and ``scores()`` are the running totals (``docs/games/fool.md``).

>>> import boardcore
>>> game = boardcore.make("fool", players=4)
>>> game.deck, game.hand_size, game.fools_per_trick
((17, 13, 11, 8, 3), 12, 1)
>>> state = game.new_state(seed=7)
>>> state.current_player
0
>>> card = state.legal_actions()[0]
>>> state.action_to_str(card), state.parse_action(state.action_to_str(card)) == card
('G5', True)
>>> state.apply(card)
>>> state.view(1).trick
((0, 'G5'),)
>>> state.rollout(seed=1).winners
frozenset({1})
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import cast

from boardcore._engine import fool as _engine
from boardcore._engine._state import EngineConfig
from boardcore._engine.fool import BOX, CARDS, NUM_ACTIONS, FoolState
from boardcore.errors import ConfigurationError
from boardcore.fool import moves, picture, positions
from boardcore.fool.moves import FOOLS_PER_TRICK
from boardcore.fool.values import (
    FoolDocument,
    FoolMove,
    FoolMoveJSON,
    FoolPosition,
    FoolSnapshot,
    FoolView,
    FoolViewJSON,
)
from boardcore.protocol import Game
from boardcore.values import quote

__all__ = [
    "BOX", "CARDS", "DECKS", "FOOLS_PER_TRICK", "NUM_ACTIONS", "Fool", "FoolDocument",
    "FoolMove", "FoolMoveJSON", "FoolPosition", "FoolSnapshot", "FoolState", "FoolView",
    "FoolViewJSON",
]

#: Rule F2 as data: players -> highest green, red, yellow and blue value, wild 1s.
DECKS: Mapping[int, tuple[int, int, int, int, int]] = MappingProxyType({
    4: (17, 13, 11, 8, 3),
    5: (20, 16, 14, 10, 4),
    6: (23, 19, 17, 12, 5),
    7: (26, 22, 20, 14, 6),
    8: (27, 23, 21, 15, 6),
})
_DECK_FIELDS = ("green", "red", "yellow", "blue", "wild 1s")


class Fool(Game[FoolState], positions=positions, moves=moves, picture=picture):
    """The configuration of a game of Fool for 4-8 players.

    Options:
        deck: ``None`` for the F2 table, or ``(green, red, yellow, blue, wilds)``: the
            highest value kept of each colour (2..27, 2..23, 2..21, 2..15; every colour
            keeps its lowest values from 2) and the number of wild 1s (0..6).  The deck
            must split evenly between the players.
        start_player: the seat that leads the first round (the dealer sits to its right).

    >>> Fool(players=6, deck=(20, 19, 17, 12, 2)).hand_size
    11
    >>> Fool(players=4, start_player=4)
    Traceback (most recent call last):
    ...
    boardcore.errors.ConfigurationError: option 'start_player' must be a seat in 0..3, not 4
    """

    name = "fool"
    title = "Fool"
    min_players = 4
    max_players = 8
    rules_version = 1
    option_defaults = MappingProxyType({"deck": None, "start_player": 0})
    end_reasons = ("minus_80", "six_plus_10", "both")
    stat_names = ("end", "rounds")
    words = MappingProxyType({
        "minus_80": "a seat's total reached -80 or lower after a round (F12)",
        "six_plus_10": "a seat had scored +10 in six rounds (F12)",
        "both": "both at once: a total of -80 or lower and a sixth +10 after the same round (F12)",
        "rounds": "rounds played in the game",
    })
    gymnasium_id = "boardcore/Fool-v1"
    state_class = FoolState
    snapshot_class = FoolSnapshot

    __slots__ = ()

    def _normalize_options(self, options: dict[str, object]) -> dict[str, object]:
        n = self.num_players
        start = self._seat_option(options, "start_player")
        deck = options["deck"]
        if deck is not None:
            deck = self._check_deck(deck, n)
            if deck == DECKS[n]:
                deck = None
        return {"deck": deck, "start_player": start}

    @staticmethod
    def _check_deck(deck: object, n: int) -> tuple[int, int, int, int, int]:
        if not isinstance(deck, (tuple, list)) or len(deck) != 5:
            raise ConfigurationError(
                f"option 'deck' is {quote(deck)}, expected None or (green, red, yellow, blue, "
                "wilds): the highest value of each colour and the number of wild 1s"
            )
        for value, limit, name in zip(deck, BOX, _DECK_FIELDS, strict=True):
            low = 0 if name == "wild 1s" else 2
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= limit:
                raise ConfigurationError(
                    f"option 'deck' has {name} {quote(value)}, expected an int in {low}..{limit}"
                )
        g, r, y, b, w = deck
        size = (g - 1) + (r - 1) + (y - 1) + (b - 1) + w
        if size % n:
            raise ConfigurationError(
                f"option 'deck' is {quote(deck)}: its {size} cards do not split evenly "
                f"between {n} players"
            )
        return (g, r, y, b, w)

    def _configure(self) -> EngineConfig:
        start = cast(int, self.options["start_player"])
        return _engine.config(self.num_players, start, self.deck, self.fools_per_trick)

    @property
    def observation_planes(self) -> tuple[tuple[str, int], ...]:
        """The planes of ``FoolState.observation`` (docs/games/fool.md)."""
        n = self.num_players
        return (("hand", NUM_ACTIONS), ("played", NUM_ACTIONS), ("trick", 6 * n),
                ("leader", n), ("lead_colour", 4), ("fools", n), ("voids", 4 * n),
                ("hand_sizes", n), ("to_act", n), ("scores", n), ("plus10", n),
                ("dealer", n))

    @property
    def deck(self) -> tuple[int, int, int, int, int]:
        """The deck in play: highest green, red, yellow, blue value and wild 1s."""
        deck = self.options["deck"]
        if deck is None:
            return DECKS[self.num_players]
        return cast("tuple[int, int, int, int, int]", deck)

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat per round."""
        g, r, y, b, w = self.deck
        return ((g - 1) + (r - 1) + (y - 1) + (b - 1) + w) // self.num_players

    @property
    def fools_per_trick(self) -> int:
        """Fool discs handed out per trick (F2)."""
        return FOOLS_PER_TRICK[self.num_players]
