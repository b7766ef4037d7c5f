"""Game records: a small versioned JSON document that replays to the identical state.

A record names the game, its ``rules_version``, players, options and seed, the set-up
position play started from if any, and every action in notation.  The seed tells every
hidden card, so a record is for the end of a game, or for whoever may see everything;
``seat_record(state, seat)`` is what one seat, or a spectator, may be given while the
game goes on: the moves and that seat's view before and after each, never the seed.

>>> import boardcore
>>> state = boardcore.make("just4fun", players=2).new_state(seed=7)
>>> state.apply(state.legal_actions()[0])
>>> rec = boardcore.record(state)
>>> rec["format"], rec["game"], len(rec["actions"])
('boardcore-record', 'just4fun', 1)
>>> boardcore.replay(rec).to_dict() == state.to_dict()
True
>>> mine = boardcore.seat_record(state, 1)
>>> mine["format"], mine["seat"], mine["over"], len(mine["views"]), "seed" in mine
('boardcore-seat-record', 1, False, 2, False)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

from boardcore.errors import BoardcoreError, InvalidStateError
from boardcore.values import ViewJSON, options_to_json, quote

if TYPE_CHECKING:
    from boardcore._engine._state import EngineState
    from boardcore._registry import AnyState

__all__ = ["FORMAT", "SEAT_FORMAT", "VERSION", "Record", "SeatRecord", "record", "replay",
           "seat_record"]

FORMAT = "boardcore-record"
SEAT_FORMAT = "boardcore-seat-record"
VERSION = 1
#: A record holds at most this many actions.
MAX_ACTIONS = 10_000_000


class _Head(TypedDict):
    # What a record and a seat record start with.
    format: str
    version: int
    game: str
    rules_version: int
    players: int
    options: dict[str, object]


class _Record(_Head):
    seed: int
    actions: list[str]


class Record(_Record, total=False):
    """A game record (``boardcore.record``); ``setup`` when play began from one's own position."""

    setup: dict[str, object]


def record(state: EngineState) -> Record:
    """Return the JSON-safe record of ``state``: configuration, seed and actions in notation.

    Raises:
        TypeError: ``state`` is not a boardcore state.
    """
    from boardcore._engine._state import EngineState

    if not isinstance(state, EngineState):
        raise TypeError(f"record() takes a boardcore state, not {quote(state)}")
    game = state.game
    doc = state.to_dict()
    setup = doc.get("setup")
    replayed = _start(game, state.seed, setup)
    actions = []
    for action in state.history():
        actions.append(replayed.action_to_str(action))
        replayed.apply(action)
    rec = Record(
        format=FORMAT,
        version=VERSION,
        game=game.name,
        rules_version=game.rules_version,
        players=game.num_players,
        options=options_to_json(game.options),
        seed=state.seed,
        actions=actions,
    )
    if setup is not None:
        rec["setup"] = setup  # type: ignore[typeddict-item]
    return rec


class _SeatRecord(_Head):
    seat: int | None
    over: bool
    actions: list[str]
    views: list[ViewJSON]


class SeatRecord(_SeatRecord, total=False):
    """What one seat, or a spectator, saw of a game (``boardcore.seat_record``).

    ``actions`` are the moves in notation; ``views[i]`` is the seat's view (its JSON
    form, ``View.to_json()``) before action ``i``, and ``views[-1]`` after the last.
    ``seat`` is ``None`` for a spectator.  ``record``, the whole record, only once the
    game is over.
    """

    record: Record


def seat_record(state: EngineState, seat: object) -> SeatRecord:
    """Return what ``seat`` (a seat, or ``"spectator"``) saw of ``state``'s game, in order.

    The moves in notation and the seat's view before and after each: its own hand and
    its own draws, never another seat's hidden cards, the draw order, the seed or the
    generator -- two games that differ only in what the seat has not seen give equal
    seat records.  Once the game is over there is nothing left to hide, and the record
    holds the whole ``record(state)`` too.

    Raises:
        TypeError: ``state`` is not a boardcore state, or ``seat`` is neither a seat nor
            ``"spectator"``.
        ConfigurationError: ``seat`` is not a seat of the game.
    """
    from boardcore._engine._state import EngineState

    if not isinstance(state, EngineState):
        raise TypeError(f"seat_record() takes a boardcore state, not {quote(state)}")
    state = state.copy()                # one read of the state: the rest is private
    replayed = _start(state.game, state.seed, state.to_dict().get("setup"))
    who = replayed.view(seat)           # checks the seat before the work
    views: list[ViewJSON] = [who.to_json()]
    for action in state.history():
        replayed.apply(action)
        views.append(replayed.view(seat).to_json())
    full = record(state)
    rec = SeatRecord(
        format=SEAT_FORMAT, version=VERSION, game=full["game"],
        rules_version=full["rules_version"], players=full["players"],
        options=full["options"], seat=who.player, over=replayed.is_over(),
        actions=full["actions"], views=views)
    if rec["over"]:
        rec["record"] = full
    return rec


def _start(game: Any, seed: int, setup: object) -> Any:
    # The position play starts from: the deal of ``seed``, or the set-up position.
    if setup is None:
        return game.new_state(seed)
    return game.state_from_dict({**_header(game, seed), "setup": setup, "history": []})


def _header(game: Any, seed: int) -> dict[str, object]:
    return {"game": game.name, "rules_version": game.rules_version,
            "players": game.num_players, "options": options_to_json(game.options),
            "seed": seed}


def replay(rec: object) -> AnyState:
    """Rebuild the state a record describes by replaying its actions.

    A record made under another ``rules_version`` is accepted only if it still replays
    (every action legal); anything unreadable raises ``InvalidStateError``.
    """
    from boardcore import make

    if not isinstance(rec, dict):
        raise InvalidStateError(f"a record must be a dict, not {type(rec).__name__}")
    if rec.get("format") != FORMAT or type(rec.get("format")) is not str:
        raise InvalidStateError(
            f"field 'format' is {quote(rec.get('format'))}, expected {FORMAT!r}")
    if rec.get("version") != VERSION or type(rec.get("version")) is not int:
        raise InvalidStateError(
            f"field 'version' is {quote(rec.get('version'))}, expected {VERSION}")
    for field in ("game", "rules_version", "players", "options", "seed", "actions"):
        if field not in rec:
            raise InvalidStateError(f"record has no field {field!r}")
    if type(rec["rules_version"]) is not int:
        raise InvalidStateError(
            f"field 'rules_version' is {quote(rec['rules_version'])}, expected an int")
    if type(rec["seed"]) is not int:
        raise InvalidStateError(f"field 'seed' is {quote(rec['seed'])}, expected an int")
    if type(rec["options"]) is not dict or type(rec["actions"]) is not list \
            or len(rec["actions"]) > MAX_ACTIONS:
        raise InvalidStateError("record fields 'options' and 'actions' must be a dict and a list")
    try:
        game = make(rec["game"], players=rec["players"], **rec["options"])
        state = _start(game, rec["seed"], rec.get("setup"))
    except (BoardcoreError, TypeError, ValueError, RecursionError) as exc:
        raise InvalidStateError(f"record does not describe a game: {exc}") from None
    same_version = rec["rules_version"] == game.rules_version
    for i, text in enumerate(rec["actions"]):
        try:
            state.apply(state.parse_action(text))
        except (BoardcoreError, TypeError, ValueError) as exc:
            why = "" if same_version else (
                f" (recorded under rules_version {rec['rules_version']!r}, "
                f"this is {game.rules_version})"
            )
            # The engine's message quotes the text already: only its start here (cut
            # after repr, which writes an unpaired surrogate in six characters).
            shown = quote(text, limit=60)
            raise InvalidStateError(
                f"record action {i} {shown} does not replay: {exc}{why}") from None
    result: AnyState = state
    return result
