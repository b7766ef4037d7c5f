"""The values every game shares: outcomes, snapshots, seeds, and the head of a ``to_dict``.

This module imports nothing of boardcore but its errors, so the compiled engines
import it at their top.  Each game's own values -- its snapshot, view, explained move
and ``to_dict`` document -- live in its package (``boardcore.fool.FoolView``) and keep
one name for one thing in every game: a view's ``player``, ``current_player``,
``is_over``, ``scores``, ``hand``, ``hand_sizes``, ``draw_pile_size``.

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
from typing import Any, Protocol, SupportsIndex, TypedDict, TypeVar, cast

from boardcore.errors import ConfigurationError

__all__ = [
    "SEED_MAX",
    "Document",
    "Header",
    "Move",
    "Outcome",
    "Snapshot",
    "View",
    "check_int",
    "check_seed",
    "describe",
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

    Raises:
        TypeError: ``seed`` is not an integer.
        ConfigurationError: ``seed`` is outside ``0..2**64-1``.

    >>> check_seed(2**64)
    Traceback (most recent call last):
    ...
    boardcore.errors.ConfigurationError: seed must be in 0..2**64-1, not 18446744073709551616
    """
    if seed is None:
        return secrets.randbits(64)
    value = check_int(seed, "seed")
    if not 0 <= value <= SEED_MAX:
        raise ConfigurationError(f"seed must be in 0..2**64-1, not {quote(value)}")
    return value


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: every seat's final score and the winning seats.

    Several winners mean a shared win.
    """

    scores: tuple[int, ...]
    winners: frozenset[int]


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A position as plain values, read from the state in one step (``state.snapshot()``).

    The fields every game shares come first; each game's snapshot class adds its own
    (``boardcore.fool.FoolSnapshot``).  The state's ``game`` turns one snapshot into the
    view, the text, the ``to_dict`` fields, the notation, an explained move and the
    picture, so that each of these reads the state once.

    Attributes:
        players: the number of seats.
        current_player: the seat to act, ``None`` once over.
        scores: every seat's running score (``state.scores()``).
        outcome: ``None`` until over, then ``state.outcome()``.
        moves: the actions applied since play started (``len(state.history())``).
    """

    players: int
    current_player: int | None
    scores: tuple[int, ...]
    outcome: Outcome | None
    moves: int


@dataclass(frozen=True, slots=True)
class View:
    """What one seat may see: the fields every game's view starts with.

    Each game's view class adds its own (``boardcore.fool.FoolView``): its seat's
    ``hand``, then ``hand_sizes`` (every seat's count), then the rest.

    Attributes:
        player: the seat this view belongs to.
        current_player: the seat to act, ``None`` once over.
        is_over: whether the game has ended.
        scores: every seat's running score.
    """

    player: int
    current_player: int | None
    is_over: bool
    scores: tuple[int, ...]

    @classmethod
    def of(cls: type[V], snapshot: Snapshot, player: int, **fields: Any) -> V:
        """Return seat ``player``'s view of ``snapshot``: the shared fields, then ``fields``."""
        return cls(player=player, current_player=snapshot.current_player,
                   is_over=snapshot.outcome is not None, scores=snapshot.scores, **fields)


V = TypeVar("V", bound=View)


@dataclass(frozen=True, slots=True)
class Move:
    """What one move does (``state.explain(action)``, ``state.last_move``).

    The fields every game's explained move starts with; each game's move class adds
    its own (``boardcore.fool.FoolMove``).

    Attributes:
        player: the seat that moves.
        move: the move in notation.
    """

    player: int
    move: str


def describe(kind: str, players: int, current_player: int | None, moves: int) -> str:
    """Return the ``repr`` of a position of state class ``kind``.

    >>> describe("FoolState", 4, None, 96)
    '<FoolState players=4 over move=96>'
    """
    seat = "over" if current_player is None else f"seat {current_player} to act"
    return f"<{kind} players={players} {seat} move={moves}>"


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
