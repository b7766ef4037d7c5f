"""The values every game shares: outcomes, views, seeds, and the head of a ``to_dict``.

This module is a leaf: it imports nothing of boardcore, so the compiled
engines import it at their top and the facades re-export what belongs to them.  A view
is what one seat may see, as a frozen dataclass; the same thing has the same field
name in every game (``player``, ``current_player``, ``is_over``, ``scores``, ``hand``,
``hand_sizes``, ``draw_pile_size``), and cards and tiles are written in the game's own
notation.

>>> Outcome(scores=(3, 5), winners=frozenset({1}))
Outcome(scores=(3, 5), winners=frozenset({1}))
>>> check_seed(7), check_int(3, "players")
(7, 3)
"""

from __future__ import annotations

import operator
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, SupportsIndex, TypedDict, cast

__all__ = [
    "SEED_MAX",
    "Document",
    "FoolDocument",
    "FoolMove",
    "FoolPosition",
    "FoolView",
    "Header",
    "Just4FunDocument",
    "Just4FunMove",
    "Just4FunPosition",
    "Just4FunView",
    "MoveScore",
    "Outcome",
    "RummikubJuniorDocument",
    "RummikubJuniorMove",
    "RummikubJuniorPosition",
    "RummikubJuniorView",
    "ScoredLine",
    "ThreeOrMoreDocument",
    "ThreeOrMoreMove",
    "ThreeOrMorePosition",
    "ThreeOrMoreView",
    "check_int",
    "check_seed",
    "header",
    "options_to_json",
    "quote",
]

#: The largest seed: seeds are the 64-bit unsigned integers.
SEED_MAX = 2**64 - 1

#: Characters of a bad value an error message quotes at most.
QUOTE_LIMIT = 200


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """Return ``repr(value)`` cut to about ``limit`` characters, for error messages.

    >>> quote("x" * 500)[-25:]
    "xxxx... (502 characters)'"
    >>> quote(10**5000)
    '<int of 16,610 bits, too long to write out>'
    """
    try:
        text = repr(value)
    except RecursionError:
        text = f"<a deeply nested {type(value).__name__}>"
    except ValueError:  # an int past Python's limit on the digits str() writes
        size = f" of {value.bit_length():,} bits" if isinstance(value, int) else ""
        text = f"<{type(value).__name__}{size}, too long to write out>"
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)'"


def check_int(value: object, what: str) -> int:
    """Return ``value`` as an int, refusing bool, float and str with a ``TypeError``.

    >>> check_int(True, "players")
    Traceback (most recent call last):
    ...
    TypeError: players must be an integer, not True
    """
    if isinstance(value, (bool, float, str, bytes)) or value is None:
        raise TypeError(f"{what} must be an integer, not {quote(value)}")
    try:
        return operator.index(cast(SupportsIndex, value))
    except TypeError:
        raise TypeError(f"{what} must be an integer, not {quote(value)}") from None


def check_seed(seed: object) -> int:
    """Return a valid 64-bit seed; ``None`` draws one from the operating system.

    >>> check_seed(2**64)
    Traceback (most recent call last):
    ...
    ValueError: seed must be in 0..2**64-1, not 18446744073709551616
    """
    if seed is None:
        return secrets.randbits(64)
    value = check_int(seed, "seed")
    if not 0 <= value <= SEED_MAX:
        raise ValueError(f"seed must be in 0..2**64-1, not {quote(value)}")
    return value


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: every seat's final score and the winning seats.

    Several winners mean a shared win.
    """

    scores: tuple[int, ...]
    winners: frozenset[int]


class _Configured(Protocol):
    """What ``header`` reads of a state: its configuration and seed."""

    @property
    def game(self) -> Any: ...
    @property
    def seed(self) -> int: ...


class Header(TypedDict):
    """The fields every ``to_dict`` document starts with."""

    game: str
    rules_version: int
    players: int
    options: dict[str, object]
    seed: int


class Document(Header):
    """A ``to_dict`` document of any game: the header, the game's fields, the history.

    Each game's document adds its own fields, and ``setup`` when play started from a
    position of one's own.
    """

    history: list[int]


def header(state: _Configured) -> Header:
    """Return the fields every ``to_dict`` document starts with."""
    game = state.game
    return {
        "game": game.name,
        "rules_version": game.rules_version,
        "players": game.num_players,
        "options": options_to_json(game.options),
        "seed": state.seed,
    }


def options_to_json(options: Mapping[str, object]) -> dict[str, object]:
    """Return options as JSON-safe values (tuples become lists)."""

    def plain(v: object) -> object:
        if isinstance(v, tuple):
            return [plain(x) for x in v]
        return v

    return {k: plain(v) for k, v in options.items()}


# ---------------------------------------------------------------------------------
# Views: what one seat may see.  Fields shared by every game come first, in one order.
# ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Just4FunView:
    """What one seat of Just4Fun may see: the board, supplies, discards, its own hand.

    Per-field tuples are row-major over the 6x6 board (index ``row * 6 + col``).

    Attributes:
        player: the seat this view belongs to.
        current_player: the seat to act, ``None`` once over.
        is_over: whether the game has ended.
        scores: every seat's held-field sum (J15).
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

    player: int
    current_player: int | None
    is_over: bool
    scores: tuple[int, ...]
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    draw_pile_size: int
    discard_pile: tuple[int, ...]
    layout: tuple[int, ...]
    stones: tuple[tuple[int, ...], ...]
    owners: tuple[int | None, ...]
    supplies: tuple[int, ...]
    idle_turns: int


@dataclass(frozen=True, slots=True)
class Just4FunMove:
    """What one Just4Fun move does (``state.explain(action)``, ``state.last_move``).

    Attributes:
        player: the seat that moves.
        move: the move in notation (``"4+8"``, ``"exchange"``).
        cards: the card values played, ascending (the whole hand for an exchange).
        field: the field the cards name, ``None`` for an exchange.
        stones: the mover's stones on that field afterwards.
        locked: the move locked the field (J8).
        removed: per seat, its stones the lock took off the field.
        four_in_a_row: the move won the game with four in a row (J13).
        gains: per seat, how its score (held-field sum) changed.
    """

    player: int
    move: str
    cards: tuple[int, ...]
    field: int | None
    stones: int
    locked: bool
    removed: tuple[int, ...]
    four_in_a_row: bool
    gains: tuple[int, ...]


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


@dataclass(frozen=True, slots=True)
class ThreeOrMoreView:
    """What one seat of 3 Or More may see: the table, the scores, its own hand.

    Attributes:
        player: the seat this view belongs to.
        current_player: the seat to act, ``None`` once over.
        is_over: whether the game has ended.
        scores: every seat's points.
        hand: this seat's cards as held (``"RRG"``: top, middle, bottom).
        hand_sizes: how many cards every seat holds.
        draw_pile_size: cards left to draw (the stock).
        grid: 21 strings of 23 squares, a colour letter or ``.`` (table coordinates).
        places: where the next card may go (``("left", "right")``, the four corners,
            ``("next",)`` in an open row, ``()`` once over).
        cards_laid: cards on the table, the starting card included.
        last_move: how the last card scored, ``None`` before the first move.
    """

    player: int
    current_player: int | None
    is_over: bool
    scores: tuple[int, ...]
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    draw_pile_size: int
    grid: tuple[str, ...]
    places: tuple[str, ...]
    cards_laid: int
    last_move: MoveScore | None


@dataclass(frozen=True, slots=True)
class FoolView:
    """What one seat of Fool may see: its own hand and the table, never another hand.

    Cards are written in notation (``"G17"``, ``"W1"``); a wild 1 appears once per copy.

    Attributes:
        player: the seat this view belongs to.
        current_player: the seat to play, ``None`` once over.
        is_over: whether the game has ended.
        scores: the running totals.
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

    player: int
    current_player: int | None
    is_over: bool
    scores: tuple[int, ...]
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
class FoolMove:
    """What one Fool move does (``state.explain(action)``, ``state.last_move``).

    Only what every seat sees: the card, the trick, its winner and Fools, the scores a
    round's end gives -- never a card of the next deal.

    Attributes:
        player: the seat that plays.
        move: the card played, in notation (``"G17"``, ``"W1"``).
        lead_colour: the trick's lead colour once the card is down (F5), ``None`` while
            only wild 1s have been played.
        void: the colour the card shows the player holds none of -- a coloured card off
            the lead colour (F6) -- else ``None``.
        trick: the trick with this card last, ``(seat, card)`` pairs in play order.
        winner: the seat that wins the trick when this card completes it (F7), else
            ``None``.
        fools: the seats the completed trick makes Fools (F8, F9); empty until then.
        round_over: the trick ended the round (F10).
        gains: per seat, what the end of the round scored (F11); zeros otherwise.
        game_over: the round ended the game (F12).
    """

    player: int
    move: str
    lead_colour: str | None
    void: str | None
    trick: tuple[tuple[int, str], ...]
    winner: int | None
    fools: frozenset[int]
    round_over: bool
    gains: tuple[int, ...]
    game_over: bool


@dataclass(frozen=True, slots=True)
class RummikubJuniorView:
    """What one seat of Rummikub Junior may see: the table, the stars, its own rack.

    Attributes:
        player: the seat this view belongs to.
        current_player: the seat to act, ``None`` once over.
        is_over: whether the game has ended.
        scores: every seat's stars.
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

    player: int
    current_player: int | None
    is_over: bool
    scores: tuple[int, ...]
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
class ThreeOrMoreMove:
    """What one 3 Or More move does (``state.explain(action)``, ``state.last_move``).

    Attributes:
        player: the seat that lays the card.
        move: the move in notation (``"RRG@left"``, ``"RRG^@top-right"``, ``"RGB"``).
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

    player: int
    move: str
    card: str
    shown: str
    place: str
    slot: tuple[int, int]
    points: int
    lines: tuple[ScoredLine, ...]
    drew: bool


@dataclass(frozen=True, slots=True)
class RummikubJuniorMove:
    """What one Rummikub Junior action does (``state.explain(action)``, ``state.last_move``).

    Attributes:
        player: the seat that acts.
        move: the action in notation (``"new R3 J(R4) R5"``, ``"extend 0 left R2"``,
            ``"swap 0 1"``, ``"end"``, ``"pass"``).
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

    player: int
    move: str
    kind: str
    tiles: tuple[str, ...]
    run: int | None
    run_after: str | None
    lays_taken_joker: bool
    drew: bool
    went_out: bool
    game_over: bool
    gains: tuple[int, ...]


# ---------------------------------------------------------------------------------
# Documents: each game's ``to_dict`` (schemas in docs/games/<game>.md).  A position is
# a document's own fields; a document is the header, the position and the history.
# ---------------------------------------------------------------------------------


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


class ScoredLineDocument(TypedDict):
    """A scored line in a 3 Or More document."""

    direction: str
    squares: list[list[int]]
    points: int


class MoveScoreDocument(TypedDict):
    """The last move's score in a 3 Or More document."""

    player: int
    move: str
    points: int
    lines: list[ScoredLineDocument]


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
