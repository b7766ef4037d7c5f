"""3 Or More's values: the snapshot, the view, scored lines, explained moves, documents.

Squares are ``(row, col)`` table coordinates: a fixed table of 7 card rows x 23 card
columns, card row ``R`` covering square rows ``3R .. 3R+2`` (``docs/games/three_or_more.md``).


>>> import boardcore
>>> boardcore.make("three_or_more", players=2).new_state(seed=3).snapshot().laid
1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from boardcore.values import Header, Move, MoveJSON, Snapshot, View, ViewJSON

__all__ = ["MoveScore", "MoveScoreDocument", "ScoredLine", "ScoredLineDocument",
           "ThreeOrMoreDocument", "ThreeOrMoreMove", "ThreeOrMoreMoveJSON", "ThreeOrMorePosition",
           "ThreeOrMoreSnapshot", "ThreeOrMoreView", "ThreeOrMoreViewJSON"]


@dataclass(frozen=True, slots=True)
class ThreeOrMoreSnapshot(Snapshot):
    """A 3 Or More position as plain values (``state.snapshot()``), every hand included.

    Cards are 6-bit codes ``top * 16 + middle * 4 + bottom`` (colours R G B Y = 0..3).

    Attributes:
        turns: the forms a card may be laid in: 1, or 2 with ``allow_rotation`` (T3).
        laid: cards on the table, the starting card included.
        hands: every seat's cards as held, ascending by code.
        stock: the cards left to draw, next first.
        grid: the table, 21 strings of 23 squares: a colour letter or ``.``.
        row1: the card columns of row 1's two ends.
        block: the card rows at the top and bottom of the block laid so far.
        open_row: the open row (card row), the column of its next card and its
            direction (+1 right, -1 left); meaningful only while a row of rows 2-4 is
            being laid.
        last_player: the seat that laid the last card, ``None`` before the first move.
        last_action: the action that laid it.
        last_points: what it scored.
        last_lines: the lines it scored, each ``(direction, row, col, length)`` from its
            top (left) end, directions numbered as ``moves.DIRECTIONS``.
        rng: the state's generator after the deal, four 64-bit words.
    """

    turns: int
    laid: int
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    grid: tuple[str, ...]
    row1: tuple[int, int]
    block: tuple[int, int]
    open_row: tuple[int, int, int]
    last_player: int | None
    last_action: int
    last_points: int
    last_lines: tuple[tuple[int, int, int, int], ...]
    rng: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ScoredLine:
    r"""One line a 3 Or More card scored (T10-T11).

    Attributes:
        direction: ``"horizontal"``, ``"vertical"``, ``"falling"`` (a diagonal going
            down to the right, ``\\``) or ``"rising"`` (going up to the right, ``/``).
        squares: its squares as ``(row, col)`` table coordinates, from the top end (the
            left end for a horizontal line).
        points: 1 per square, 2 per square on a diagonal.

    >>> ScoredLine("vertical", ((9, 11), (10, 11), (11, 11)), 3).points
    3
    """

    direction: str
    squares: tuple[tuple[int, int], ...]
    points: int


@dataclass(frozen=True, slots=True)
class MoveScore:
    """How one laid 3 Or More card scored: every line it made or extended.

    Attributes:
        player: the seat that laid it.
        move: the move in notation, e.g. ``"RRG@left"``.
        points: the total, the sum of the lines' points.
        lines: the lines, card square by card square from the top, and for each square
            horizontal, vertical, falling, rising.
    """

    player: int
    move: str
    points: int
    lines: tuple[ScoredLine, ...]


class ScoredLineDocument(TypedDict):
    """A scored line in a 3 Or More document and JSON form."""

    direction: str
    squares: list[list[int]]
    points: int


class MoveScoreDocument(TypedDict):
    """The last move's score in a 3 Or More document and JSON form."""

    player: int
    move: str
    points: int
    lines: list[ScoredLineDocument]


class ThreeOrMoreViewJSON(ViewJSON):
    """The JSON form of a ``ThreeOrMoreView`` (``view.to_json()``): its fields, tuples as lists."""

    hand: list[str]
    hand_sizes: list[int]
    draw_pile_size: int
    grid: list[str]
    places: list[str]
    cards_laid: int
    last_move: MoveScoreDocument | None


class ThreeOrMoreMoveJSON(MoveJSON):
    """The JSON form of a ``ThreeOrMoreMove`` (``move.to_json()``)."""

    card: str
    shown: str
    place: str
    slot: list[int]
    points: int
    lines: list[ScoredLineDocument]
    drew: bool


@dataclass(frozen=True, slots=True)
class ThreeOrMoreView(View[ThreeOrMoreViewJSON]):
    """What one seat of 3 Or More may see: the table, the scores (points), its own hand.

    Attributes:
        hand: this seat's cards as held (``"RRG"``: top, middle, bottom).
        hand_sizes: how many cards every seat holds.
        draw_pile_size: cards left to draw (the stock).
        grid: 21 strings of 23 squares, a colour letter or ``.`` (table coordinates).
        places: where the next card may go (``("left", "right")``, the four corners,
            ``("next",)`` in an open row, ``()`` once over).
        cards_laid: cards on the table, the starting card included.
        last_move: how the last card scored, ``None`` before the first move.
    """

    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    draw_pile_size: int
    grid: tuple[str, ...]
    places: tuple[str, ...]
    cards_laid: int
    last_move: MoveScore | None


@dataclass(frozen=True, slots=True)
class ThreeOrMoreMove(Move[ThreeOrMoreMoveJSON]):
    """What one 3 Or More move does (``state.explain(action)``, ``state.last_move``).

    ``move`` is ``"RRG@left"``, ``"RRG^@top-right"``, ``"RGB"`` ...

    Attributes:
        card: the card as held, top to bottom (``"RRG"``).
        shown: the card as it lies on the table (``"GRR"`` for ``"RRG^"``, T3).
        place: ``"left"``, ``"right"``, a corner (``"top-left"`` ...) or ``"next"`` (the
            open row's next slot).
        slot: the table card slot it fills, ``(card row, card column)``: its squares are
            ``(3 * row + i, column)`` for ``i`` in 0..2 (top to bottom).
        points: what it scores (T10-T11), the sum of its lines' points.
        lines: every line it makes or extends, as in ``MoveScore.lines``.
        drew: the mover draws a card after it (the stock was not empty); which card is
            seen by the mover only.
    """

    card: str
    shown: str
    place: str
    slot: tuple[int, int]
    points: int
    lines: tuple[ScoredLine, ...]
    drew: bool


class ThreeOrMorePosition(TypedDict):
    """The fields of a 3 Or More position in ``to_dict``."""

    current_player: int | None
    scores: list[int]
    hands: list[list[str]]
    stock: list[str]
    grid: list[str]
    row1: list[int]
    block: list[int]
    open_row: list[int] | None
    last_move: MoveScoreDocument | None
    rng: list[int]


class _ThreeOrMoreDocument(Header, ThreeOrMorePosition):
    history: list[int]


class ThreeOrMoreDocument(_ThreeOrMoreDocument, total=False):
    """A 3 Or More ``to_dict`` document."""

    setup: ThreeOrMorePosition
