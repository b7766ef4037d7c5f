"""Fool's values: the snapshot, the view, an explained move and the ``to_dict`` document.

>>> import boardcore
>>> boardcore.make("fool", players=4).new_state(seed=7).snapshot().dealer
3
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from boardcore.values import Header, Move, MoveJSON, Snapshot, View, ViewJSON

__all__ = ["FoolDocument", "FoolMove", "FoolMoveJSON", "FoolPosition", "FoolSnapshot", "FoolView",
           "FoolViewJSON"]


@dataclass(frozen=True, slots=True)
class FoolSnapshot(Snapshot):
    """A Fool position as plain values (``state.snapshot()``), every hand included.

    Cards are their actions (``boardcore.fool.CARDS[a]`` is the notation); colours are
    0..3: green, red, yellow, blue.

    Attributes:
        round: the round number, from 1.
        dealer: this round's dealer.
        leader: the seat that led (or leads) the current trick.
        lead: the lead colour, -1 until a coloured card sets it (F5).
        fools: the seats holding a Fool disc, ascending.
        voids: per seat, the colours it showed it lacks this round (F6), bit ``c``
            for colour ``c``.
        trick: ``(seat, card)`` pairs of the trick so far, in play order.
        hands: every seat's cards, ascending (a wild 1 once per copy).
        played: every card played this round, the current trick included, ascending.
        plus10: in how many rounds each seat scored +10.
        rng: the state's generator, four 64-bit words.
    """

    round: int
    dealer: int
    leader: int
    lead: int
    fools: tuple[int, ...]
    voids: tuple[int, ...]
    trick: tuple[tuple[int, int], ...]
    hands: tuple[tuple[int, ...], ...]
    played: tuple[int, ...]
    plus10: tuple[int, ...]
    rng: tuple[int, ...]


class FoolViewJSON(ViewJSON):
    """The JSON form of a ``FoolView`` (``view.to_json()``): its fields, tuples as lists.

    ``trick`` is ``[[seat, card], ...]``; ``fools`` ascending.
    """

    hand: list[str]
    hand_sizes: list[int]
    round: int
    dealer: int
    leader: int
    lead_colour: str | None
    trick: list[list[int | str]]
    played: list[str]
    fools: list[int]
    plus10: list[int]


class FoolMoveJSON(MoveJSON):
    """The JSON form of a ``FoolMove`` (``move.to_json()``)."""

    lead_colour: str | None
    void: str | None
    trick: list[list[int | str]]
    winner: int | None
    fools: list[int]
    round_over: bool
    gains: list[int | None]
    game_over: bool | None


@dataclass(frozen=True, slots=True)
class FoolView(View[FoolViewJSON]):
    """What one seat of Fool may see: its own hand and the table, never another hand.

    Cards are written in notation (``"G17"``, ``"W1"``); a wild 1 appears once per copy.
    The ``scores`` are the running totals.

    Attributes:
        hand: this seat's cards, ascending (colours G, R, Y, B, then W1).
        hand_sizes: how many cards every seat holds.
        round: the round number, from 1.
        dealer: this round's dealer.
        leader: the seat that led (or leads) the current trick.
        lead_colour: ``"green"``, ``"red"``, ``"yellow"``, ``"blue"`` or ``None``.
        trick: ``(seat, card)`` pairs of the trick so far, in play order.
        played: every card played this round, the current trick included, ascending.
        fools: the seats holding a Fool disc (sitting out the current trick).
        plus10: in how many rounds each seat scored +10.
    """

    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    round: int
    dealer: int
    leader: int
    lead_colour: str | None
    trick: tuple[tuple[int, str], ...]
    played: tuple[str, ...]
    fools: frozenset[int]
    plus10: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class FoolMove(Move[FoolMoveJSON]):
    """What one Fool move does (``state.explain(action)``, ``state.last_move``).

    Only what every seat sees: the card, the trick, its winner and Fools, the scores a
    round's end gives -- never a card of the next deal.  ``explain`` tells only what the
    player can know before the card is down: a round's scores that hang on hands it
    cannot see are ``None`` there (``last_move`` knows them).

    ``move`` is the card played (``"G17"``, ``"W1"``).

    Attributes:
        lead_colour: the trick's lead colour once the card is down (F5), ``None`` while
            only wild 1s have been played.
        void: the colour the card shows the player holds none of -- a coloured card off
            the lead colour (F6) -- else ``None``.
        trick: the trick with this card last, ``(seat, card)`` pairs in play order.
        winner: the seat that wins the trick when this card completes it (F7), else
            ``None``.
        fools: the seats the completed trick makes Fools (F8, F9); empty until then.
        round_over: the trick ended the round (F10).
        gains: per seat, what the end of the round scored (F11); zeros otherwise.  From
            ``explain``, ``None`` for a seat left holding cards the player cannot see.
        game_over: the round ended the game (F12); from ``explain``, ``None`` when that
            hangs on cards the player cannot see.
    """

    lead_colour: str | None
    void: str | None
    trick: tuple[tuple[int, str], ...]
    winner: int | None
    fools: frozenset[int]
    round_over: bool
    gains: tuple[int | None, ...]
    game_over: bool | None


class _FoolPosition(TypedDict):

    round: int
    dealer: int
    leader: int
    fools: list[int]
    trick: list[list[int | str]]
    hands: list[list[str]]
    scores: list[int]
    plus10: list[int]
    rng: list[int]


class FoolPosition(_FoolPosition, total=False):
    """The fields of a Fool position in ``to_dict``; ``voids`` while a seat has one."""

    voids: list[list[str]]


class _FoolDocument(Header, FoolPosition):
    history: list[int]


class FoolDocument(_FoolDocument, total=False):
    """A Fool ``to_dict`` document."""

    setup: FoolPosition
