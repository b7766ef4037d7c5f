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
((0, 3),)
>>> state.rollout(seed=1).winners
frozenset({1})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import cast

from boardcore._engine.fool import FoolState
from boardcore.errors import ConfigurationError
from boardcore.protocol import Game

__all__ = ["DECKS", "FOOLS_PER_TRICK", "NUM_ACTIONS", "Fool", "FoolState", "FoolView"]

#: Rule F2 as data: players -> highest green, red, yellow and blue value, wild 1s.
DECKS: Mapping[int, tuple[int, int, int, int, int]] = MappingProxyType({
    4: (17, 13, 11, 8, 3),
    5: (20, 16, 14, 10, 4),
    6: (23, 19, 17, 12, 5),
    7: (26, 22, 20, 14, 6),
    8: (27, 23, 21, 15, 6),
})
#: Rule F2: players -> Fool discs handed out per trick.
FOOLS_PER_TRICK: Mapping[int, int] = MappingProxyType({4: 1, 5: 1, 6: 1, 7: 2, 8: 2})
#: Every card kind of the box (F1): ``G2..G27, R2..R23, Y2..Y21, B2..B15, W1``.
NUM_ACTIONS = 83
_LIMITS = (27, 23, 21, 15, 6)
_DECK_FIELDS = ("green", "red", "yellow", "blue", "wild 1s")


@dataclass(frozen=True, slots=True)
class FoolView:
    """What one seat may see: its own hand, the table, never another hand.

    Cards are actions (``state.action_to_str`` gives their notation); a wild 1 appears
    once per copy.

    Attributes:
        player: the seat this view belongs to.
        round: the round number, from 1.
        dealer: this round's dealer.
        leader: the seat that led (or leads) the current trick.
        current_player: the seat to play, ``None`` once the game is over.
        lead_colour: ``"green"``, ``"red"``, ``"yellow"``, ``"blue"`` or ``None``.
        trick: ``(seat, card)`` pairs of the trick so far, in play order.
        played: every card played this round, the current trick included, ascending.
        fools: the seats holding a Fool disc (sitting out the current trick).
        hand: the player's own cards, ascending.
        hand_sizes: how many cards each seat holds.
        scores: the running totals.
        plus10: in how many rounds each seat scored +10.
        is_over: whether the game has ended.

    >>> import boardcore
    >>> view = boardcore.make("fool", players=5).new_state(seed=3).view(2)
    >>> len(view.hand), view.hand_sizes, view.fools
    (12, (12, 12, 12, 12, 12), frozenset())
    """

    player: int
    round: int
    dealer: int
    leader: int
    current_player: int | None
    lead_colour: str | None
    trick: tuple[tuple[int, int], ...]
    played: tuple[int, ...]
    fools: frozenset[int]
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    scores: tuple[int, ...]
    plus10: tuple[int, ...]
    is_over: bool


class Fool(Game):
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
    boardcore.errors.ConfigurationError: option 'start_player' is 4, expected a seat in range(4)
    """

    name = "fool"
    min_players = 4
    max_players = 8
    rules_version = 1
    option_defaults = MappingProxyType({"deck": None, "start_player": 0})
    end_reasons = ("minus_80", "six_plus_10", "both")
    stat_names = ("end", "rounds")
    _state_class = FoolState

    __slots__ = ()

    def _normalize_options(self, options: dict[str, object]) -> dict[str, object]:
        n = self.num_players
        start = options["start_player"]
        if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < n:
            raise ConfigurationError(
                f"option 'start_player' is {start!r}, expected a seat in range({n})"
            )
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
                f"option 'deck' is {deck!r}, expected None or (green, red, yellow, blue, "
                "wilds): the highest value of each colour and the number of wild 1s"
            )
        for value, limit, field in zip(deck, _LIMITS, _DECK_FIELDS):
            low = 0 if field == "wild 1s" else 2
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= limit:
                raise ConfigurationError(
                    f"option 'deck' has {field} {value!r}, expected an int in {low}..{limit}"
                )
        g, r, y, b, w = deck
        size = (g - 1) + (r - 1) + (y - 1) + (b - 1) + w
        if size % n:
            raise ConfigurationError(
                f"option 'deck' is {deck!r}: its {size} cards do not split evenly "
                f"between {n} players"
            )
        return (g, r, y, b, w)

    @property
    def num_actions(self) -> int:
        """83: one action per card kind of the box."""
        return NUM_ACTIONS

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
