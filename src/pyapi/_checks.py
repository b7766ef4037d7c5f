"""Checks of a ``to_dict`` document's fields, for the facades' set-up positions.

Each returns the field's value or raises ``InvalidStateError`` naming the field and
quoting (at most ~200 characters of) the bad value.
"""

from __future__ import annotations

from collections.abc import Mapping

from boardcore.errors import InvalidStateError
from boardcore.values import SEED_MAX, quote

__all__ = ["bool_field", "field", "int_field", "int_list", "list_field", "rng_field", "seat_field"]


def field(data: Mapping[str, object], name: str) -> object:
    """Return ``data[name]``; a missing field is an error."""
    if name not in data:
        raise InvalidStateError(f"state data has no field {name!r}")
    return data[name]


def int_field(data: Mapping[str, object], name: str, lo: int, hi: int) -> int:
    """Return field ``name``, an int in ``lo..hi`` (bool refused)."""
    value = field(data, name)
    if type(value) is not int or not lo <= value <= hi:
        raise InvalidStateError(f"field {name!r} is {quote(value)}; allowed ints {lo}..{hi}")
    return value


def bool_field(data: Mapping[str, object], name: str) -> bool:
    """Return field ``name``, ``true`` or ``false``."""
    value = field(data, name)
    if type(value) is not bool:
        raise InvalidStateError(f"field {name!r} is {quote(value)}; allowed true or false")
    return value


def list_field(data: Mapping[str, object], name: str, length: int = -1) -> list[object]:
    """Return field ``name``, a list (of ``length`` items when ``length >= 0``)."""
    value = field(data, name)
    if type(value) is not list or (length >= 0 and len(value) != length):
        want = f"a list of {length} items" if length >= 0 else "a list"
        raise InvalidStateError(f"field {name!r} must be {want}, not {quote(value)}")
    return value


def int_list(value: object, name: str, lo: int, hi: int, length: int = -1) -> list[int]:
    """Return ``value`` (part of field ``name``), a list of ints in ``lo..hi``."""
    if type(value) is not list or (length >= 0 and len(value) != length):
        want = f"a list of {length}" if length >= 0 else "a list of"
        raise InvalidStateError(f"field {name!r} must hold {want} ints, not {quote(value)}")
    for x in value:
        if type(x) is not int or not lo <= x <= hi:
            raise InvalidStateError(f"field {name!r} holds {quote(x)}; allowed ints {lo}..{hi}")
    return value


def seat_field(data: Mapping[str, object], name: str, players: int) -> int | None:
    """Return field ``name``, a seat or ``None`` (null)."""
    value = field(data, name)
    if value is None:
        return None
    if type(value) is not int or not 0 <= value < players:
        raise InvalidStateError(
            f"field {name!r} is {quote(value)}; allowed seats 0..{players - 1} or null")
    return value


def rng_field(data: Mapping[str, object]) -> list[int]:
    """Return field ``rng``: the generator's four 64-bit words, not all zero."""
    words = int_list(field(data, "rng"), "rng", 0, SEED_MAX, 4)
    if not any(words):
        raise InvalidStateError("field 'rng' must not be all zero")
    return words
