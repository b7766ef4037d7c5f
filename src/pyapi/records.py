"""Game records: a small versioned JSON document that replays to the identical state.

>>> import boardcore
>>> state = boardcore.make("just4fun", players=2).new_state(seed=7)
>>> state.apply(state.legal_actions()[0])
>>> rec = boardcore.record(state)
>>> rec["format"], rec["game"], len(rec["actions"])
('boardcore-record', 'just4fun', 1)
>>> boardcore.replay(rec).to_dict() == state.to_dict()
True
"""

from __future__ import annotations

from typing import Any

from boardcore.errors import BoardcoreError, InvalidStateError
from boardcore.values import options_to_json

__all__ = ["FORMAT", "VERSION", "record", "replay"]

FORMAT = "boardcore-record"
VERSION = 1


def record(state: Any) -> dict[str, Any]:
    """Return the JSON-safe record of ``state``: configuration, seed and actions in notation."""
    game = state.game
    replayed = game.new_state(seed=state.seed)
    actions = []
    for action in state.history():
        actions.append(replayed.action_to_str(action))
        replayed.apply(action)
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game.name,
        "rules_version": game.rules_version,
        "players": game.num_players,
        "options": options_to_json(game.options),
        "seed": state.seed,
        "actions": actions,
    }


def replay(rec: object) -> Any:
    """Rebuild the state a record describes by replaying its actions.

    A record made under another ``rules_version`` is accepted only if it still replays
    (every action legal); anything unreadable raises ``InvalidStateError``.
    """
    from boardcore import make

    if not isinstance(rec, dict):
        raise InvalidStateError(f"a record must be a dict, not {type(rec).__name__}")
    if rec.get("format") != FORMAT:
        raise InvalidStateError(f"field 'format' is {rec.get('format')!r}, expected {FORMAT!r}")
    if rec.get("version") != VERSION:
        raise InvalidStateError(f"field 'version' is {rec.get('version')!r}, expected {VERSION}")
    for field in ("game", "rules_version", "players", "options", "seed", "actions"):
        if field not in rec:
            raise InvalidStateError(f"record has no field {field!r}")
    if not isinstance(rec["options"], dict) or not isinstance(rec["actions"], list):
        raise InvalidStateError("record fields 'options' and 'actions' must be a dict and a list")
    try:
        game = make(rec["game"], players=rec["players"], **rec["options"])
        state = game.new_state(seed=rec["seed"])
    except (BoardcoreError, TypeError, ValueError) as exc:
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
            raise InvalidStateError(f"record action {i} {text!r} does not replay: {exc}{why}") \
                from None
    return state
