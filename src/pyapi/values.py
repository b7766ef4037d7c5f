"""The values every game shares: outcomes, snapshots, seeds, and the head of a ``to_dict``.

This module imports nothing of boardcore but its errors, so the compiled engines
import it at their top.  Each game's own values -- its snapshot, view, explained move
and ``to_dict`` document -- live in its package (``boardcore.fool.FoolView``) and keep
one name for one thing in every game: a view's ``player``, ``current_player``,
``is_over``, ``scores``, ``hand``, ``hand_sizes``, ``draw_pile_size``.

Views, explained moves and outcomes have a JSON form, written once here for every game
(``JSONForm``): ``to_json()`` gives plain lists, dicts, strings, ints, bools and
``None`` -- typed per game by a ``TypedDict`` (``boardcore.fool.FoolViewJSON``) -- and
``from_json`` reads it back to the equal value.

>>> Outcome(scores=(3, 5), winners=frozenset({1}))
Outcome(scores=(3, 5), winners=frozenset({1}))
>>> Outcome(scores=(3, 5), winners=frozenset({1})).to_json()
{'scores': [3, 5], 'winners': [1]}
>>> check_seed(7), check_int(3, "players")
(7, 3)
"""

from __future__ import annotations

import dataclasses
import functools
import operator
import secrets
import types
from collections.abc import Mapping
from dataclasses import dataclass
from typing import (
    TYPE_CHECKING,
    Any,
    Generic,
    Literal,
    Protocol,
    SupportsIndex,
    TypedDict,
    TypeVar,
    Union,
    cast,
    get_args,
    get_origin,
    get_type_hints,
)

from boardcore.errors import ConfigurationError, InvalidStateError

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = [
    "SEED_MAX",
    "SPECTATOR",
    "Document",
    "Header",
    "JSONForm",
    "Move",
    "MoveJSON",
    "Outcome",
    "OutcomeJSON",
    "Perspective",
    "Snapshot",
    "View",
    "ViewJSON",
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


#: Who looks at a position: a seat, ``"spectator"`` (public information only: every
#: hand face down) or, for the pictures alone, ``None`` (every card face up).
Perspective = int | Literal["spectator"] | None
#: The perspective of a spectator.
SPECTATOR: Literal["spectator"] = "spectator"

J = TypeVar("J")


class JSONForm(Generic[J]):
    """A frozen dataclass with a JSON form: ``to_json()`` and ``from_json(data)``.

    The JSON form of a value is its fields in order, each written as plain JSON: a
    tuple or a frozenset becomes a list (a frozenset's ascending), a nested value a
    dict of its fields; ints, strings, bools and ``None`` stay.  ``J`` is the
    ``TypedDict`` that describes it (``FoolViewJSON`` for a ``FoolView``).  Written
    once for every game: the field types of the dataclass say how to read a form
    back, so ``cls.from_json(v.to_json()) == v`` and ``json.dumps`` takes any form.
    """

    __slots__ = ()

    def to_json(self) -> J:
        """Return the JSON form: plain lists, dicts, strings, ints, bools and ``None``."""
        return cast(J, _plain(self))

    @classmethod
    def from_json(cls, data: object) -> Self:
        """Return the value whose JSON form is ``data`` (as ``json.loads`` gives it).

        The form is checked field by field against the class's field types (every
        field present, no other, each of its type: ``True`` is not an int); whether
        such a position can arise is not.

        Raises:
            InvalidStateError: ``data`` is not the JSON form of a ``cls``; the message
                names the field.
        """
        return cast("Self", _read(cls, data, cls.__name__))


def _plain(value: object) -> object:
    # The JSON form of a value of a JSONForm's field.
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, frozenset):
        return sorted(value)
    return value


@functools.cache
def _fields(cls: type) -> dict[str, Any]:
    # A dataclass's field types, resolved once per class.
    hints = get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def _read(tp: Any, data: object, where: str) -> object:
    # The value of type ``tp`` whose JSON form is ``data``; ``where`` names it in errors.
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        for arg in get_args(tp):
            try:
                return _read(arg, data, where)
            except InvalidStateError:
                continue
    elif origin is tuple and type(data) is list:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple([_read(args[0], v, f"{where}[{i}]") for i, v in enumerate(data)])
        if len(data) == len(args):
            return tuple([_read(a, v, f"{where}[{i}]")
                          for i, (a, v) in enumerate(zip(args, data, strict=True))])
    elif origin is frozenset and type(data) is list:
        items = [_read(get_args(tp)[0], v, f"{where}[{i}]") for i, v in enumerate(data)]
        if len(set(items)) == len(items):
            return frozenset(items)
    elif tp is type(None) or tp in (int, str, bool):
        if type(data) is tp or (data is None and tp is type(None)):
            return data
    elif dataclasses.is_dataclass(tp) and type(data) is dict:
        cls = cast(type, tp)            # is_dataclass narrows to instances too: a class here
        fields = _fields(cls)
        if data.keys() != fields.keys():
            missing = [f for f in fields if f not in data]
            extra = [quote(k, 40) for k in data if k not in fields]
            raise InvalidStateError(
                f"{where} has " + (f"no field {missing[0]!r}" if missing
                                   else f"an unknown field {extra[0]}")
                + f"; the fields of {cls.__name__} are {', '.join(fields)}")
        return cls(**{name: _read(t, data[name], f"{where}.{name}")
                     for name, t in fields.items()})
    raise InvalidStateError(f"{where} is {quote(data, 60)}, expected {_describe(tp)}")


def _describe(tp: Any) -> str:
    # A type in the words of a JSON form, for errors.
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        return " or ".join(_describe(a) for a in get_args(tp))
    if origin is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a list of {_describe(args[0])}"
        return f"a list of {len(args)}: " + ", ".join(_describe(a) for a in args)
    if origin is frozenset:
        return f"a list of distinct {_describe(get_args(tp)[0])}"
    if tp is type(None):
        return "null"
    if dataclasses.is_dataclass(tp):
        return f"an object of the fields of {cast(type, tp).__name__}"
    return {int: "an int", str: "a string", bool: "a bool"}.get(tp, str(tp))


class OutcomeJSON(TypedDict):
    """The JSON form of an ``Outcome``."""

    scores: list[int]
    winners: list[int]


@dataclass(frozen=True, slots=True)
class Outcome(JSONForm[OutcomeJSON]):
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


class ViewJSON(TypedDict):
    """The JSON form of the fields every view starts with (``View.to_json()``)."""

    player: int | None
    current_player: int | None
    is_over: bool
    scores: list[int]


@dataclass(frozen=True, slots=True)
class View(JSONForm[J]):
    """What one seat may see: the fields every game's view starts with.

    Each game's view class adds its own (``boardcore.fool.FoolView``): its seat's
    ``hand``, then ``hand_sizes`` (every seat's count), then the rest.  A spectator's
    view (``state.view("spectator")``) is public information only: ``player`` is
    ``None`` and ``hand`` is empty.  Its JSON form is ``to_json()``.

    Attributes:
        player: the seat this view belongs to, ``None`` for a spectator.
        current_player: the seat to act, ``None`` once over.
        is_over: whether the game has ended.
        scores: every seat's running score.
    """

    player: int | None
    current_player: int | None
    is_over: bool
    scores: tuple[int, ...]

    @classmethod
    def of(cls: type[V], snapshot: Snapshot, player: int, **fields: Any) -> V:
        """Return seat ``player``'s view of ``snapshot``: the shared fields, then ``fields``."""
        return cls(player=player, current_player=snapshot.current_player,
                   is_over=snapshot.outcome is not None, scores=snapshot.scores, **fields)


V = TypeVar("V", bound="View[Any]")


class MoveJSON(TypedDict):
    """The JSON form of the fields every explained move starts with (``Move.to_json()``)."""

    player: int
    move: str


@dataclass(frozen=True, slots=True)
class Move(JSONForm[J]):
    """What one move does (``state.explain(action)``, ``state.last_move``).

    The fields every game's explained move starts with; each game's move class adds
    its own (``boardcore.fool.FoolMove``).  Its JSON form is ``to_json()``.

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
