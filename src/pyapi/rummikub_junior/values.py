"""Rummikub Junior's values: the snapshot, the view, an explained action, the documents.

Tiles are numbered ``10 * colour + number - 1`` (colours R B Y K = 0..3), the joker 40; a
table run is ``(colour, first number, length, joker mask)``, bit ``i`` of the mask set
where position ``i`` holds a joker.


>>> import boardcore
>>> boardcore.make("rummikub_junior", players=2).new_state(seed=3).snapshot().runs
()
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from boardcore.values import Header, Move, MoveJSON, Snapshot, View, ViewJSON

__all__ = ["RummikubJuniorDocument", "RummikubJuniorMove", "RummikubJuniorMoveJSON",
           "RummikubJuniorPosition", "RummikubJuniorSnapshot", "RummikubJuniorView",
           "RummikubJuniorViewJSON"]


@dataclass(frozen=True, slots=True)
class RummikubJuniorSnapshot(Snapshot):
    """A Rummikub Junior position as plain values (``state.snapshot()``), every rack included.

    ``scores`` are the stars.

    Attributes:
        racks: every seat's tiles, ascending (jokers last).
        runs: the table, in the order the runs were laid.
        pool: the tiles left face down, next first.
        laid_this_turn: the seat to act has laid a tile this turn (K5).
        joker_pending: it holds a joker taken by a swap that the next action must lay.
        passes: passes in a row made with the pool already empty (K11).
        went_out: the seat that laid its last tile (K10), else ``None``.
        rng: the state's generator, four 64-bit words.
    """

    racks: tuple[tuple[int, ...], ...]
    runs: tuple[tuple[int, int, int, int], ...]
    pool: tuple[int, ...]
    laid_this_turn: bool
    joker_pending: bool
    passes: int
    went_out: int | None
    rng: tuple[int, ...]


class RummikubJuniorViewJSON(ViewJSON):
    """The JSON form of a ``RummikubJuniorView`` (``view.to_json()``), tuples as lists."""

    hand: list[str]
    hand_sizes: list[int]
    draw_pile_size: int
    table: list[str]
    bank: int
    laid_this_turn: bool
    joker_pending: bool
    passes: int
    went_out: int | None


class RummikubJuniorMoveJSON(MoveJSON):
    """The JSON form of a ``RummikubJuniorMove`` (``move.to_json()``)."""

    kind: str
    tiles: list[str]
    run: int | None
    run_after: str | None
    lays_taken_joker: bool
    drew: bool
    went_out: bool
    game_over: bool
    gains: list[int]


@dataclass(frozen=True, slots=True)
class RummikubJuniorView(View[RummikubJuniorViewJSON]):
    """What one seat of Rummikub Junior may see: the table, the stars, its own rack.

    The ``scores`` are the stars.

    Attributes:
        hand: this seat's rack, ``R1`` .. ``K10`` in colour order, then jokers ``J``.
        hand_sizes: every seat's number of tiles.
        draw_pile_size: tiles left face down in the pool.
        table: the runs in the order they were laid, in notation (``R3 J(R4) R5``).
        bank: the bank's stars (56 minus the players'; negative past its 56, K9).
        laid_this_turn: the seat to act has laid a tile this turn (``end`` is legal).
        joker_pending: it holds a joker taken by a swap that the next action must lay.
        passes: passes in a row made with the pool already empty (K11).
        went_out: the seat that laid its last tile (K10), else ``None``.
    """

    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    draw_pile_size: int
    table: tuple[str, ...]
    bank: int
    laid_this_turn: bool
    joker_pending: bool
    passes: int
    went_out: int | None


@dataclass(frozen=True, slots=True)
class RummikubJuniorMove(Move[RummikubJuniorMoveJSON]):
    """What one Rummikub Junior action does (``state.explain(action)``, ``state.last_move``).

    ``move`` is ``"new R3 J(R4) R5"``, ``"extend 0 left R2"``, ``"swap 0 1"``,
    ``"end"`` or ``"pass"``.

    Attributes:
        kind: ``"new"``, ``"extend"``, ``"swap"``, ``"end"`` or ``"pass"``.
        tiles: the tiles it lays from the rack, left to right, a joker showing the number
            it stands for (``"J(R4)"``); for a swap, the tile put in the joker's place.
        run: the table run it lays into (its index, as in ``extend`` and ``swap``), else
            ``None``.
        run_after: that run afterwards, in notation, else ``None``.
        lays_taken_joker: it lays the joker a swap took this turn (no star for it, K7).
        drew: a pass that drew a tile from the pool (face down: which is never shown).
        went_out: it laid the seat's last tile (K10).
        game_over: the game ended with it (K10, or a full round of passes, K11).
        gains: per seat, how its stars changed (K7-K11).
    """

    kind: str
    tiles: tuple[str, ...]
    run: int | None
    run_after: str | None
    lays_taken_joker: bool
    drew: bool
    went_out: bool
    game_over: bool
    gains: tuple[int, ...]


class RummikubJuniorPosition(TypedDict):
    """The fields of a Rummikub Junior position in ``to_dict``."""

    current_player: int | None
    racks: list[list[str]]
    stars: list[int]
    bank: int
    table: list[str]
    pool: list[str]
    laid_this_turn: bool
    joker_pending: bool
    passes: int
    went_out: int | None
    rng: list[int]


class _RummikubJuniorDocument(Header, RummikubJuniorPosition):
    history: list[int]


class RummikubJuniorDocument(_RummikubJuniorDocument, total=False):
    """A Rummikub Junior ``to_dict`` document."""

    setup: RummikubJuniorPosition
