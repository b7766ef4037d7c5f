"""Game records: versioned JSON that replays to the identical state."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import boardcore
from boardcore import InvalidStateError
from tests.conftest import player_counts


@pytest.fixture(params=boardcore.GAMES)
def finished(request: pytest.FixtureRequest) -> Any:
    game = boardcore.make(request.param, players=player_counts(request.param)[0])
    state = game.new_state(seed=21)
    state.rollout(seed=22)
    return state


def test_record_replays_exactly(finished: Any) -> None:
    rec = boardcore.record(finished)
    assert rec["format"] == "boardcore-record" and rec["version"] == 1
    assert rec["game"] == finished.game.name
    assert rec["rules_version"] == finished.game.rules_version
    assert rec["seed"] == 21 and all(isinstance(a, str) for a in rec["actions"])
    again = boardcore.replay(json.loads(json.dumps(rec)))
    assert again.to_dict() == finished.to_dict()
    assert again.outcome() == finished.outcome()


def test_record_of_a_game_in_progress(finished: Any) -> None:
    game = finished.game
    state = game.new_state(seed=21)
    for a in finished.history()[:5]:
        state.apply(a)
    assert boardcore.replay(boardcore.record(state)).to_dict() == state.to_dict()


def test_tampered_records_are_refused(finished: Any) -> None:
    rec = boardcore.record(finished)
    cases = [None, [], {}]
    for key in rec:
        cases.append({k: v for k, v in rec.items() if k != key})
    for key, value in [("format", "pgn"), ("version", 2), ("game", "chess"),
                       ("players", 99), ("options", {"nope": 1}), ("options", []),
                       ("seed", -1), ("seed", "1"), ("actions", "all"),
                       ("actions", rec["actions"] + ["garbage"]),
                       ("actions", rec["actions"] + rec["actions"][:1])]:
        bad = copy.deepcopy(rec)
        bad[key] = value
        cases.append(bad)
    for bad in cases:
        with pytest.raises(InvalidStateError):
            boardcore.replay(bad)


def test_other_rules_version_replays_only_if_identical(finished: Any) -> None:
    rec = boardcore.record(finished)
    rec["rules_version"] = finished.game.rules_version + 1
    assert boardcore.replay(rec).to_dict() == finished.to_dict()
    rec["actions"] = rec["actions"][:1] + ["garbage"]
    with pytest.raises(InvalidStateError, match="rules_version"):
        boardcore.replay(rec)
