"""The types every game shares: ``Outcome``, the ``Game`` base class, the ``State`` protocol.

A game is an immutable configuration (``Game`` subclass, pure Python); its positions are
instances of a compiled class from ``boardcore._engine`` that meets the ``State``
protocol below.  ``docs/adding-a-game.md`` lists what a new game must provide.

>>> import boardcore
>>> game = boardcore.make("just4fun", players=2)
>>> game.num_players, game.options["layout"]
(2, 'classic')
"""

from __future__ import annotations

import operator
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt
from boardcore.errors import ConfigurationError, InvalidStateError

__all__ = ["SEED_MAX", "Game", "Outcome", "State"]

SEED_MAX = 2**64 - 1


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: every seat's final score and the winning seats.

    Several winners mean a shared win.

    >>> Outcome(scores=(3, 5), winners=frozenset({1}))
    Outcome(scores=(3, 5), winners=frozenset({1}))
    """

    scores: tuple[int, ...]
    winners: frozenset[int]


@runtime_checkable
class State(Protocol):
    """A mutable position of some game (see ``docs/api.md``)."""

    @property
    def game(self) -> Game: ...
    @property
    def seed(self) -> int: ...
    @property
    def current_player(self) -> int | None: ...
    def legal_actions(self) -> list[int]: ...
    def legal_actions_mask(self) -> npt.NDArray[np.bool_]: ...
    def apply(self, action: object) -> None: ...
    def action_to_str(self, action: object) -> str: ...
    def parse_action(self, text: object) -> int: ...
    def is_over(self) -> bool: ...
    def scores(self) -> tuple[int, ...]: ...
    def outcome(self) -> Outcome | None: ...
    def copy(self) -> State: ...
    def history(self) -> list[int]: ...
    def view(self, player: object) -> Any: ...
    def to_dict(self) -> dict[str, Any]: ...
    def rollout(self, seed: object = None) -> Outcome: ...


def check_int(value: object, what: str) -> int:
    """Return ``value`` as an int, refusing bool, float and str with a ``TypeError``."""
    if isinstance(value, (bool, float, str, bytes)) or value is None:
        raise TypeError(f"{what} must be an integer, not {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an integer, not {value!r}") from None


def check_seed(seed: object) -> int:
    """Return a valid 64-bit seed; ``None`` draws one from the operating system."""
    if seed is None:
        return secrets.randbits(64)
    value = check_int(seed, "seed")
    if not 0 <= value <= SEED_MAX:
        raise ValueError(f"seed must be in 0..2**64-1, not {value!r}")
    return value


class Game:
    """An immutable game configuration: which game, how many players, which options.

    Subclasses set the class attributes and implement ``_normalize_options`` and
    ``num_actions``; ``boardcore.make`` is the usual way to get one.
    """

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    rules_version: ClassVar[int]
    #: Every option with its default value.
    option_defaults: ClassVar[Mapping[str, object]] = MappingProxyType({})
    #: Labels of the codes in ``SimulationResult.stats["end"]``.
    end_reasons: ClassVar[tuple[str, ...]] = ()
    #: Per-game statistic columns ``simulate`` fills (``"end"`` first when present).
    stat_names: ClassVar[tuple[str, ...]] = ()
    #: The compiled state class (``boardcore._engine.<game>.<Name>State``).
    _state_class: ClassVar[Any]

    __slots__ = ("__weakref__", "_num_players", "_options")

    def __init__(self, *, players: object, **options: object) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            try:
                players = check_int(players, "players")
            except TypeError as exc:
                raise ConfigurationError(str(exc)) from None
        if not self.min_players <= players <= self.max_players:
            raise ConfigurationError(
                f"{self.name} takes {self.min_players}..{self.max_players} players, "
                f"not {players!r}"
            )
        unknown = sorted(set(options) - set(self.option_defaults))
        if unknown:
            allowed = ", ".join(self.option_defaults) or "none"
            raise ConfigurationError(
                f"unknown option {unknown[0]!r} for {self.name}; allowed: {allowed}"
            )
        self._num_players = int(players)
        merged = {**self.option_defaults, **options}
        self._options = MappingProxyType(self._normalize_options(merged))

    def _normalize_options(self, options: dict[str, object]) -> dict[str, object]:
        """Validate ``options`` (every key present) and return them in canonical form."""
        return options

    @property
    def num_players(self) -> int:
        """Number of seats, ``0 .. num_players - 1``."""
        return self._num_players

    @property
    def options(self) -> Mapping[str, object]:
        """Every option, defaults filled in (read-only)."""
        return self._options

    @property
    def num_actions(self) -> int:
        """Actions are ints in ``range(num_actions)``."""
        raise NotImplementedError

    def new_state(self, seed: object = None) -> Any:
        """Return the starting position; ``seed=None`` draws a seed from the OS."""
        return self._state_class._new(self, check_seed(seed))

    def state_from_dict(self, data: object) -> Any:
        """Rebuild a state from ``State.to_dict()``; bad data raises ``InvalidStateError``."""
        check_header(self, data)
        try:
            return self._state_class._from_dict(self, data)
        except InvalidStateError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, OverflowError, AttributeError) as exc:
            raise InvalidStateError(f"malformed {self.name} state: {exc!r}") from None

    def _key(self) -> tuple[object, ...]:
        return (self.name, self._num_players, tuple(sorted(self._options.items())))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        opts = "".join(
            f", {k}={v!r}" for k, v in self._options.items() if v != self.option_defaults[k]
        )
        return f"{type(self).__name__}(players={self._num_players}{opts})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_remake, (type(self), self._num_players, dict(self._options)))


def _remake(cls: type[Game], players: int, options: dict[str, object]) -> Game:
    return cls(players=players, **options)


def check_header(game: Game, data: object) -> None:
    """Check the fields every ``to_dict`` document starts with against ``game``."""
    if not isinstance(data, dict):
        raise InvalidStateError(f"state data must be a dict, not {type(data).__name__}")
    expected = {
        "game": game.name,
        "rules_version": game.rules_version,
        "players": game.num_players,
    }
    for field, value in expected.items():
        if field not in data:
            raise InvalidStateError(f"state data has no field {field!r}")
        if data[field] != value or type(data[field]) is not type(value):
            raise InvalidStateError(f"field {field!r} is {data[field]!r}, expected {value!r}")
    if "seed" not in data:
        raise InvalidStateError("state data has no field 'seed'")
    seed = data["seed"]
    if type(seed) is not int or not 0 <= seed <= SEED_MAX:
        raise InvalidStateError(f"field 'seed' is {seed!r}, expected an int in 0..2**64-1")
    if "options" not in data:
        raise InvalidStateError("state data has no field 'options'")
    try:
        same = type(game)(players=game.num_players, **data["options"]) == game
    except (TypeError, ValueError):
        same = False
    if not same:
        raise InvalidStateError(
            f"field 'options' is {data['options']!r}, expected {dict(game.options)!r}"
        )


def header(state: Any) -> dict[str, Any]:
    """The fields every ``to_dict`` document starts with."""
    game = state.game
    return {
        "game": game.name,
        "rules_version": game.rules_version,
        "players": game.num_players,
        "options": options_to_json(game.options),
        "seed": state.seed,
    }


def options_to_json(options: Mapping[str, object]) -> dict[str, object]:
    """Options as JSON-safe values (tuples become lists)."""

    def plain(v: object) -> object:
        if isinstance(v, tuple):
            return [plain(x) for x in v]
        return v

    return {k: plain(v) for k, v in options.items()}
