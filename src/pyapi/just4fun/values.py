"""Just4Fun's values: the snapshot, the view, an explained move and the ``to_dict`` document.

Per-field tuples are row-major over the 6x6 board (index ``row * 6 + col``).


>>> import boardcore
>>> boardcore.make("just4fun", players=2).new_state(seed=3).snapshot().supplies
(20, 20)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from boardcore.values import Header, Move, MoveJSON, Snapshot, View, ViewJSON

__all__ = ["Just4FunDocument", "Just4FunMove", "Just4FunMoveJSON", "Just4FunPosition",
           "Just4FunSnapshot", "Just4FunView", "Just4FunViewJSON"]


@dataclass(frozen=True, slots=True)
class Just4FunSnapshot(Snapshot):
    """A Just4Fun position as plain values (``state.snapshot()``), every hand included.

    Attributes:
        layout: the field number of each board square.
        stones: per seat, its stones on each square.
        owners: the seat owning each locked square, else ``None`` (J8).
        supplies: every seat's stones not yet placed.
        hands: every seat's card values, ascending.
        draw_pile: the draw pile, bottom to top.
        discard_pile: the discard pile, bottom to top.
        idle_turns: turns in a row without a stone (J14).
        rng: the state's generator, four 64-bit words.
    """

    layout: tuple[int, ...]
    stones: tuple[tuple[int, ...], ...]
    owners: tuple[int | None, ...]
    supplies: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    draw_pile: tuple[int, ...]
    discard_pile: tuple[int, ...]
    idle_turns: int
    rng: tuple[int, ...]


class Just4FunViewJSON(ViewJSON):
    """The JSON form of a ``Just4FunView`` (``view.to_json()``): its fields, tuples as lists."""

    hand: list[int]
    hand_sizes: list[int]
    draw_pile_size: int
    discard_pile: list[int]
    layout: list[int]
    stones: list[list[int]]
    owners: list[int | None]
    supplies: list[int]
    idle_turns: int


@dataclass(frozen=True, slots=True)
class Just4FunView(View[Just4FunViewJSON]):
    """What one seat of Just4Fun may see: the board, supplies, discards, its own hand.

    Per-field tuples are row-major over the 6x6 board (index ``row * 6 + col``); the
    ``scores`` are the held-field sums (J15).

    Attributes:
        hand: this seat's card values, ascending.
        hand_sizes: how many cards every seat holds.
        draw_pile_size: cards left face down.
        discard_pile: the discarded values, bottom to top.
        layout: the field number of each board square.
        stones: per seat, its stones on each square.
        owners: the seat owning each locked square, else ``None`` (J8).
        supplies: every seat's stones not yet placed.
        idle_turns: turns in a row without a stone (J14).
    """

    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    draw_pile_size: int
    discard_pile: tuple[int, ...]
    layout: tuple[int, ...]
    stones: tuple[tuple[int, ...], ...]
    owners: tuple[int | None, ...]
    supplies: tuple[int, ...]
    idle_turns: int


class Just4FunMoveJSON(MoveJSON):
    """The JSON form of a ``Just4FunMove`` (``move.to_json()``)."""

    cards: list[int]
    field: int | None
    stones: int
    locked: bool
    removed: list[int]
    four_in_a_row: bool
    gains: list[int]


@dataclass(frozen=True, slots=True)
class Just4FunMove(Move[Just4FunMoveJSON]):
    """What one Just4Fun move does (``state.explain(action)``, ``state.last_move``).

    ``move`` is ``"4+8"`` or ``"exchange"``.

    Attributes:
        cards: the card values played, ascending (the whole hand for an exchange).
        field: the field the cards name, ``None`` for an exchange.
        stones: the mover's stones on that field afterwards.
        locked: the move locked the field (J8).
        removed: per seat, its stones the lock took off the field.
        four_in_a_row: the move won the game with four in a row (J13).
        gains: per seat, how its score (held-field sum) changed.
    """

    cards: tuple[int, ...]
    field: int | None
    stones: int
    locked: bool
    removed: tuple[int, ...]
    four_in_a_row: bool
    gains: tuple[int, ...]


class Just4FunPosition(TypedDict):
    """The fields of a Just4Fun position in ``to_dict`` (per-field lists row-major)."""

    layout: list[int]
    stones: list[list[int]]
    owners: list[int | None]
    supplies: list[int]
    hands: list[list[int]]
    draw_pile: list[int]
    discard_pile: list[int]
    current_player: int | None
    idle_turns: int
    rng: list[int]


class _Just4FunDocument(Header, Just4FunPosition):
    history: list[int]


class Just4FunDocument(_Just4FunDocument, total=False):
    """A Just4Fun ``to_dict`` document."""

    setup: Just4FunPosition
