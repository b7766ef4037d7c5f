"""The ``Game`` base class every configuration shares, and the ``State`` protocol.

A game is an immutable configuration (a ``Game`` subclass, pure Python, generic over its
state class); its positions are instances of a compiled class from ``boardcore._engine``
that meets the ``State`` protocol below.  A state answers in Python objects through its
game: it reads its position once, as the game's snapshot, and hands that to the game's
``view``, ``fields``, ``text``, ``action_to_str``, ``parse_action``, ``explain``,
``reveals`` and ``draw``.  ``docs/adding-a-game.md`` lists what a new game provides.

>>> import boardcore
>>> game = boardcore.make("just4fun", players=2)
>>> game.num_players, game.options["layout"], game.num_actions
(2, 'classic', 3924)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType, ModuleType
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Generic,
    Literal,
    Protocol,
    SupportsIndex,
    TypeVar,
    cast,
)

import numpy as np
import numpy.typing as npt

from boardcore.errors import ConfigurationError, IllegalActionError, InvalidStateError
from boardcore.values import SEED_MAX, SPECTATOR, Outcome, check_int, check_seed, quote

if TYPE_CHECKING:
    from typing_extensions import Self

    from boardcore._engine._state import EngineConfig, EngineState
    from boardcore.pictures import Canvas
    from boardcore.values import Move, MoveJSON, Perspective, Snapshot, View, ViewJSON

__all__ = ["Game", "State"]

#: The fields every ``to_dict`` document starts with (``header``).
HEADER = ("game", "rules_version", "players", "options", "seed")
#: A document's history holds at most this many actions.
MAX_HISTORY = 10_000_000


class State(Protocol):
    """A mutable position of some game (see ``docs/api.md``)."""

    @property
    def game(self) -> Game[Any]:
        """The configuration."""
    @property
    def seed(self) -> int:
        """The seed the game was dealt from."""
    @property
    def current_player(self) -> int | None:
        """The seat to act, ``None`` once over."""
    def legal_actions(self) -> list[int]:
        """The legal actions, ascending."""
    def legal_actions_mask(self) -> npt.NDArray[np.bool_]:
        """True where an action is legal."""
    def apply(self, action: SupportsIndex) -> None:
        """Apply a legal action."""
    def action_to_str(self, action: SupportsIndex) -> str:
        """The notation of an action."""
    def parse_action(self, text: str) -> int:
        """The action a notation names."""
    def is_over(self) -> bool:
        """Whether the game has ended."""
    def scores(self) -> tuple[int, ...]:
        """Every seat's running score."""
    def outcome(self) -> Outcome | None:
        """The outcome once over."""
    def copy(self) -> Self:
        """An independent copy."""
    def history(self) -> list[int]:
        """The actions applied since the start."""
    def snapshot(self) -> Snapshot:
        """The position as plain values, read in one step."""
    def view(self, player: SupportsIndex | Literal["spectator"]) -> object:
        """What a seat, or a spectator, may see."""
    def undo(self) -> None:
        """Take back the last action."""
    def can_undo(self) -> bool:
        """Whether a player may take the last action back: it showed nothing hidden."""
    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-safe data."""
    def rollout(self, seed: SupportsIndex | None = None) -> Outcome:
        """Random actions to the end."""


S = TypeVar("S", bound="EngineState")


class Game(Generic[S]):
    """An immutable game configuration: which game, how many players, which options.

    A subclass sets the class attributes, checks its options in ``_normalize_options``
    and builds the engine configuration in ``_configure``; its package's modules answer
    for a position's snapshot, named where the class is defined::

        class Fool(Game[FoolState], positions=positions, moves=moves, picture=picture):

    ``positions`` gives ``view``, ``fields`` and ``set_up`` (``_set_up`` here), ``moves``
    gives ``action_to_str``, ``parse_action``, ``explain`` and ``reveals``, ``picture``
    gives ``text`` and ``draw``: the methods of those names below check their arguments
    and call them.
    ``boardcore.make`` is the usual way to get a game.
    """

    #: The game's name in ``boardcore.GAMES``: its module, engine and pages.
    name: ClassVar[str]
    #: The game's name as people write it ("3 Or More").
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    rules_version: ClassVar[int]
    #: Every option with its default value.
    option_defaults: ClassVar[Mapping[str, object]] = MappingProxyType({})
    #: Labels of the codes in ``SimulationResult.stats["end"]``.
    end_reasons: ClassVar[tuple[str, ...]] = ()
    #: Per-game statistic columns ``simulate`` fills (``"end"`` first when present).
    stat_names: ClassVar[tuple[str, ...]] = ()
    #: What each end reason and statistic means, with its rule (the simulation summary).
    words: ClassVar[Mapping[str, str]] = MappingProxyType({})
    #: The id of the game's single-agent Gymnasium environment (``boardcore.envs``).
    gymnasium_id: ClassVar[str]
    #: The compiled class of this game's positions.
    state_class: ClassVar[type[EngineState]]
    #: The class of this game's snapshots (``state.snapshot()``).
    snapshot_class: ClassVar[type[Snapshot]]

    __slots__ = ("__weakref__", "_engine", "_num_players", "_options")

    #: The modules of the game's package that answer for a snapshot (__init_subclass__).
    _positions: ClassVar[ModuleType]
    _moves: ClassVar[ModuleType]
    _picture: ClassVar[ModuleType]

    def __init_subclass__(cls, *, positions: ModuleType | None = None,
                          moves: ModuleType | None = None, picture: ModuleType | None = None,
                          **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if positions is not None:
            cls._positions = positions
        if moves is not None:
            cls._moves = moves
        if picture is not None:
            cls._picture = picture

    def __init__(self, *, players: SupportsIndex, **options: object) -> None:
        try:
            count = check_int(players, "players")
        except TypeError as exc:
            raise ConfigurationError(str(exc)) from None
        if not self.min_players <= count <= self.max_players:
            raise ConfigurationError(
                f"{self.name} takes {self.min_players}..{self.max_players} players, "
                f"not {quote(players)}"
            )
        unknown = sorted(set(options) - set(self.option_defaults))
        if unknown:
            allowed = ", ".join(self.option_defaults) or "none"
            raise ConfigurationError(
                f"unknown option {quote(unknown[0])} for {self.name}; allowed: {allowed}"
            )
        self._num_players = count
        merged = {**self.option_defaults, **options}
        self._options = MappingProxyType(self._normalize_options(merged))
        try:
            self._engine: EngineConfig = self._configure()
        except (LookupError, TypeError, ValueError, OverflowError) as exc:
            # Only a subclass that overrides what the checks above read gets here (a
            # num_players of 60): the engine's own check refuses what it cannot play.
            raise ConfigurationError(
                f"{self.name}: the engine cannot play this configuration "
                f"({type(exc).__name__}: {quote(str(exc))})") from None

    def _normalize_options(self, options: dict[str, object]) -> dict[str, object]:
        """Validate ``options`` (every key present) and return them in canonical form."""
        return options

    def _seat_option(self, options: Mapping[str, object], name: str) -> int:
        """Return option ``name``, a seat of this game; ``ConfigurationError`` otherwise."""
        value = options[name]
        try:
            seat = check_int(value, f"option {name!r}")
        except TypeError as exc:
            raise ConfigurationError(str(exc)) from None
        if not 0 <= seat < self.num_players:
            raise ConfigurationError(
                f"option {name!r} must be a seat in 0..{self.num_players - 1}, not {quote(value)}")
        return seat

    def _configure(self) -> EngineConfig:
        """Return the engine configuration of this game (the engine module's ``config``)."""
        raise NotImplementedError

    def _set_up(self, fields: dict[str, Any], seed: int) -> S:
        """Return the set-up position ``fields`` describes (a document's ``setup``)."""
        if not hasattr(self, "_positions"):
            raise InvalidStateError(f"{self.name} has no set-up positions")
        state: S = self._positions.set_up(self, fields, seed)
        return state

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
        return self._engine.num_actions

    @property
    def observation_shape(self) -> tuple[int]:
        """The shape of ``State.observation``: one ``float32`` vector of this length."""
        size = self._engine.observation_size
        if not size:
            raise NotImplementedError(f"{self.name} has no observations yet")
        return (size,)

    @property
    def observation_planes(self) -> tuple[tuple[str, int], ...]:
        """The planes of an observation, in order: ``(name, floats)`` pairs."""
        raise NotImplementedError(f"{self.name} has no observations yet")

    def new_state(self, seed: SupportsIndex | None = None) -> S:
        """Return the starting position; ``seed=None`` draws a seed from the OS."""
        state: S = self._engine.new_state(self, check_seed(seed))
        return state

    def state_from_dict(self, data: object) -> S:
        """Rebuild a state from ``State.to_dict()``; bad data raises ``InvalidStateError``.

        The document is proven, not trusted: its actions are replayed from the start
        (the deal of ``seed``, or the ``setup`` position it names) and every field must
        equal what that play gives.  A document with a ``setup`` may leave out the
        position fields (``{header..., "setup": {...}, "history": []}`` starts a game
        from a position of one's own).
        """
        check_header(self, data)
        assert isinstance(data, dict)
        seed = data["seed"]
        setup = data.get("setup")
        if setup is None:
            state = self.new_state(seed)
        elif type(setup) is dict:
            state = self._set_up(setup, seed)
        else:
            raise InvalidStateError(
                f"field 'setup' must be a position or absent, not {quote(setup)}")
        history = data.get("history")
        if type(history) is not list or len(history) > MAX_HISTORY:
            raise InvalidStateError(
                f"field 'history' must be a list of actions, not {quote(history)}")
        bad = state._replay(history)
        if bad >= 0:
            start = "the set-up position" if setup is not None else f"the deal of seed {seed}"
            raise InvalidStateError(
                f"field 'history' action {bad} is {quote(history[bad])}, not a legal action "
                f"there (playing from {start})"
            )
        expected = state.to_dict()
        for key in data:
            if key not in expected:
                raise InvalidStateError(
                    f"unknown field {quote(key)}; allowed: {', '.join(expected)}")
        for key, value in expected.items():
            if key not in data:
                # A set-up document may leave out the position it sets up.
                if setup is not None and key not in HEADER and key != "history":
                    continue
                raise InvalidStateError(f"state data has no field {key!r}")
            if key not in ("options", "setup") and not _same(data[key], value):
                raise InvalidStateError(
                    f"field {key!r} is {quote(data[key])}, which is not the position that "
                    f"the seed and the history ({len(history)} actions) give "
                    f"(expected {quote(value)})"
                )
        return state

    # -- a position's Python half: the state hands each one snapshot -------------------
    # ``state.view(p)`` is ``state.game.view(state.snapshot(), p)``, and so on: each
    # state method reads its position once.  Each answer is the function of that name in
    # the game's package (``positions``, ``moves``, ``picture``), handed checked
    # arguments.

    def view(self, snapshot: Snapshot, player: int | Literal["spectator"]) -> View[ViewJSON]:
        """Return what seat ``player`` may see of ``snapshot`` (``state.view``).

        ``"spectator"``: public information only, a seat's view without its ``hand``
        (``player`` ``None``): in every game a seat's view differs from another's only in
        ``player`` and ``hand``.
        """
        position = self._snapshot(snapshot)
        if self._perspective(player, everything=False) == SPECTATOR:
            seen: View[Any] = self._positions.view(position, 0)
            # Every game's view has a hand (the base class does not declare one).
            spectator: View[ViewJSON] = dataclasses.replace(cast(Any, seen), player=None,
                                                            hand=())
            return spectator
        view: View[Any] = self._positions.view(position, self._seat(player))
        return view

    def fields(self, snapshot: Snapshot) -> dict[str, object]:
        """Return the game's own fields of ``to_dict`` for ``snapshot``."""
        fields: dict[str, object] = self._positions.fields(self._snapshot(snapshot))
        return fields

    def text(self, snapshot: Snapshot, perspective: Perspective) -> str:
        """Return the text picture of ``snapshot``, hidden cards as ``perspective`` sees them.

        ``perspective`` ``None`` shows every card, ``"spectator"`` none of the hidden ones.
        """
        text: str = self._picture.text(self._snapshot(snapshot), self._perspective(perspective))
        return text

    def action_to_str(self, snapshot: Snapshot, action: int) -> str:
        """Return the notation of ``action`` in ``snapshot`` (any action in range)."""
        text: str = self._moves.action_to_str(self._snapshot(snapshot), self._action(action))
        return text

    def parse_action(self, snapshot: Snapshot, text: object) -> int:
        """Return the action ``text`` names in ``snapshot``; ``NotationError`` if none."""
        action: int = self._moves.parse_action(self._snapshot(snapshot), text)
        return action

    def explain(self, before: Snapshot, after: Snapshot, action: int, *,
                played: bool) -> Move[MoveJSON]:
        """Return what ``action`` did from ``before`` to ``after`` (``state.explain``).

        Only what the mover could know before it, unless ``played`` (``last_move``).

        Raises:
            IllegalActionError: ``before`` is a finished game (nothing moves there).
            InvalidStateError: ``after`` is not one move after ``before``.
        """
        first, then, a = self._snapshot(before), self._snapshot(after), self._action(action)
        if first.current_player is None:
            raise IllegalActionError(f"illegal action {a}: the game is over")
        if then.moves != first.moves + 1:
            raise InvalidStateError(f"'after' is not one move after 'before': they are at "
                                    f"moves {first.moves} and {then.moves}")
        move: Move[Any] = self._moves.explain(first, then, a, played=bool(played))
        return move

    def reveals(self, before: Snapshot, after: Snapshot) -> bool:
        """Return whether the move from ``before`` to ``after`` showed hidden information.

        True for a draw, a deal or a reshuffle: the move told someone -- its actor, at
        least -- something that was hidden before it (``state.can_undo``).  Each game
        declares which of its moves do (the ``reveals`` of its ``moves`` module).
        """
        revealed: bool = self._moves.reveals(self._snapshot(before), self._snapshot(after))
        return revealed

    def draw(self, snapshot: Snapshot, last_move: Move[Any] | None,
             perspective: Perspective) -> Canvas:
        """Return the picture of ``snapshot`` on a ``Canvas`` (``state.svg``).

        ``perspective`` ``None`` shows every card, ``"spectator"`` none of the hidden ones.
        """
        canvas: Canvas = self._picture.draw(self._snapshot(snapshot), last_move,
                                            self._perspective(perspective))
        return canvas

    def _snapshot(self, snapshot: object) -> Any:
        if not isinstance(snapshot, self.snapshot_class):
            raise TypeError(f"snapshot must be a {self.snapshot_class.__name__} "
                            f"(state.snapshot()), not {quote(snapshot)}")
        if snapshot.players != self.num_players:
            raise InvalidStateError(f"a snapshot of {quote(snapshot.players)} players is not a "
                                    f"position of this {self.num_players}-player game")
        return snapshot

    def _perspective(self, perspective: object, *, everything: bool = True) -> Perspective:
        # A seat, "spectator" or (where ``everything`` is allowed) None.
        if isinstance(perspective, str) and perspective == SPECTATOR:
            return SPECTATOR
        if perspective is None and everything:
            return None
        return self._seat(perspective)

    def _seat(self, player: object) -> int:
        seat = check_int(player, "a seat")
        if not 0 <= seat < self.num_players:
            raise ConfigurationError(f"seat {quote(player)} is not in range({self.num_players})")
        return seat

    def _action(self, action: object) -> int:
        a = check_int(action, "an action")
        if not 0 <= a < self.num_actions:
            raise IllegalActionError(
                f"illegal action {quote(action)}: actions are ints in range({self.num_actions})")
        return a

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


def _remake(cls: type[Game[Any]], players: int, options: dict[str, object]) -> Game[Any]:
    return cls(players=players, **options)


def _same(a: object, b: object) -> bool:
    # Equality that also insists on equal types (True is not 1, 1.0 is not 1).
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        assert isinstance(b, list)
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        assert isinstance(b, dict)
        return a.keys() == b.keys() and all(_same(a[key], b[key]) for key in a)
    return a == b


def check_header(game: Game[Any], data: object) -> None:
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
        if type(data[field]) is not type(value) or data[field] != value:
            raise InvalidStateError(
                f"field {field!r} is {quote(data[field])}, expected {value!r}")
    if "seed" not in data:
        raise InvalidStateError("state data has no field 'seed'")
    seed = data["seed"]
    if type(seed) is not int or not 0 <= seed <= SEED_MAX:
        raise InvalidStateError(f"field 'seed' is {quote(seed)}, expected an int in 0..2**64-1")
    if "options" not in data:
        raise InvalidStateError("state data has no field 'options'")
    options = data["options"]
    try:
        same = type(options) is dict and type(game)(
            players=game.num_players, **options) == game
    except (TypeError, ValueError, RecursionError):
        same = False
    if not same:
        raise InvalidStateError(
            f"field 'options' is {quote(options)}, expected {dict(game.options)!r}"
        )
