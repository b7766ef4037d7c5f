"""Game records: versioned JSON that replays to the identical state."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

import boardcore
from boardcore import InvalidStateError
from tests.conftest import player_counts, random_walk


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


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_a_loaded_state_cannot_lie_about_its_past(name: str) -> None:
    # reliability defect 3: state_from_dict accepted any history and seed; record() of
    # such a state raised or returned a record that replayed to another position.
    game = boardcore.make(name, players=player_counts(name)[0])
    for seed in range(12):
        state = game.new_state(seed=seed)
        for _, _a in zip(range(8), random_walk(state, random.Random(seed))):
            pass
        doc = state.to_dict()
        history = doc["history"]
        for lie in ({"seed": seed + 1}, {"seed": seed + 2**32}, {"history": history[:-1]},
                    {"history": []}, {"history": history + history[-1:]}):
            with pytest.raises(InvalidStateError):
                game.state_from_dict({**doc, **lie})
        loaded = game.state_from_dict(doc)
        assert boardcore.replay(boardcore.record(loaded)).to_dict() == doc


@pytest.mark.parametrize("bad", [None, 3, "state", {}, [], object()])
def test_record_of_what_is_not_a_state_is_a_type_error(bad: object) -> None:
    # reliability defect 6: record(None) raised AttributeError.
    with pytest.raises(TypeError, match="record\\(\\) takes a boardcore state"):
        boardcore.record(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(("field", "value"), [
    ("version", True), ("version", 1.0),
    ("rules_version", True), ("rules_version", "1"), ("rules_version", None),
    ("rules_version", 1.0), ("rules_version", [1]),
    ("seed", None), ("seed", True), ("seed", 21.0),
])
def test_replay_refuses_header_values_of_the_wrong_type(finished: Any, field: str,
                                                        value: object) -> None:
    # reliability defect 6: replay accepted version=True, any rules_version, seed=None.
    rec = boardcore.record(finished)
    rec[field] = value  # type: ignore[literal-required]
    with pytest.raises(InvalidStateError, match=field):
        boardcore.replay(rec)
