"""The app kit: JSON forms, spectators, seat records, the player's undo, the Advisor."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import re
import threading
import types
from pathlib import Path
from typing import Any, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

import boardcore
from boardcore import ConfigurationError, IllegalActionError, InvalidStateError
from boardcore._engine._search import determinize
from boardcore.agents import GreedyAgent, ISMCTSAgent, RandomAgent
from boardcore.app import Advisor, take_back
from boardcore.three_or_more.moves import card_code
from boardcore.values import JSONForm, Outcome
from tests.conftest import player_counts, random_walk, set_up
from tests.test_typing import _mypy

PACKAGES = {name: __import__(f"boardcore.{name}", fromlist=["x"]) for name in boardcore.GAMES}
CLASS = {name: type(boardcore.make(name, players=player_counts(name)[0])).__name__
         for name in boardcore.GAMES}


def _positions(name: str, games: int = 3, every: int = 7) -> Any:
    """Yield states along seeded random games of every player count, every few moves."""
    for players in player_counts(name):
        game = boardcore.make(name, players=players)
        for seed in range(games):
            state = game.new_state(seed=seed)
            yield state
            for i, _ in enumerate(random_walk(state, random.Random(seed))):
                if i % every == 0 or state.is_over():
                    yield state


def _conforms(value: object, tp: Any, where: str) -> None:
    """Check that ``value`` (from json.loads) is of the JSON type ``tp``."""
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        problems = []
        for arg in get_args(tp):
            try:
                _conforms(value, arg, where)
                return
            except AssertionError as exc:
                problems.append(str(exc))
        raise AssertionError(f"{where}: {value!r} is none of {tp}: {problems}")
    if origin is list:
        assert type(value) is list, f"{where}: {value!r} is not a list"
        for i, v in enumerate(value):
            _conforms(v, get_args(tp)[0], f"{where}[{i}]")
    elif is_typeddict(tp):
        hints = get_type_hints(tp)
        assert type(value) is dict and list(value) == list(hints), (where, value, hints)
        for key, t in hints.items():
            _conforms(value[key], t, f"{where}.{key}")
    elif tp is type(None):
        assert value is None, f"{where}: {value!r} is not None"
    else:
        assert type(value) is tp, f"{where}: {value!r} is not {tp}"


def _round_trip(value: JSONForm[Any], form: type) -> None:
    data = json.loads(json.dumps(value.to_json()))
    assert data == value.to_json()
    _conforms(data, form, type(value).__name__)
    assert list(data) == [f.name for f in dataclasses.fields(value)]  # type: ignore[arg-type]
    assert type(value).from_json(data) == value


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_views_moves_and_outcomes_round_trip_through_json(name: str) -> None:
    package = PACKAGES[name]
    view_form = getattr(package, CLASS[name] + "ViewJSON")
    move_form = getattr(package, CLASS[name] + "MoveJSON")
    count = 0
    for state in _positions(name):
        for seat in [*range(state.game.num_players), "spectator"]:
            _round_trip(state.view(seat), view_form)
        if state.last_move is not None:
            _round_trip(state.last_move, move_form)
        if not state.is_over():
            _round_trip(state.explain(state.legal_actions()[-1]), move_form)
        else:
            outcome = state.outcome()
            assert outcome is not None
            _round_trip(outcome, boardcore.values.OutcomeJSON)
        count += 1
    assert count > 50


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_the_json_forms_are_the_views_fields(name: str) -> None:
    # Every field of the view and the explained move has its entry in the TypedDict,
    # in order: the documented form is the form.
    package = PACKAGES[name]
    for kind in ("View", "Move"):
        cls = getattr(package, CLASS[name] + kind)
        form = getattr(package, CLASS[name] + kind + "JSON")
        assert list(get_type_hints(form)) == [f.name for f in dataclasses.fields(cls)]


def test_from_json_refuses_what_is_not_a_form() -> None:
    state = boardcore.make("fool", players=4).new_state(seed=7)
    state.apply(state.parse_action("G5"))
    view = state.view(1)
    good = view.to_json()
    FoolView = type(view)
    cases: list[tuple[object, str]] = [
        (None, "FoolView is None, expected an object of the fields of FoolView"),
        ([], "FoolView is \\[\\], expected"),
        ({**good, "extra": 1}, "FoolView has an unknown field 'extra'"),
        ({k: v for k, v in good.items() if k != "trick"}, "FoolView has no field 'trick'"),
        ({**good, "round": True}, "FoolView.round is True, expected an int"),
        ({**good, "round": 1.0}, "FoolView.round is 1.0, expected an int"),
        ({**good, "hand": "G5"}, "FoolView.hand is 'G5', expected a list of a string"),
        ({**good, "trick": [[0, 5]]}, r"FoolView.trick\[0\]\[1\] is 5, expected a string"),
        ({**good, "trick": [[0]]}, r"FoolView.trick\[0\] is \[0\], expected a list of 2"),
        ({**good, "fools": [1, 1]}, r"FoolView.fools is .*, expected a list of distinct"),
        ({**good, "player": "0"}, "FoolView.player is '0', expected an int or null"),
    ]
    for data, message in cases:
        with pytest.raises(InvalidStateError, match=message):
            FoolView.from_json(data)
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(InvalidStateError):
        FoolView.from_json({**good, "hand": deep})
    with pytest.raises(InvalidStateError, match=r"Outcome\.winners"):
        Outcome.from_json({"scores": [1], "winners": {"0": 1}})


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_a_spectator_sees_what_every_seat_sees_but_no_hand(name: str) -> None:
    for state in _positions(name, games=1):
        watcher = state.view("spectator")
        assert watcher.player is None and watcher.hand == ()
        for seat in range(state.game.num_players):
            seen = state.view(seat)
            assert dataclasses.replace(seen, player=None, hand=()) == watcher
    with pytest.raises(TypeError, match="'spectator'"):
        state.view("spectators")
    with pytest.raises(TypeError):
        state.view(None)
    with pytest.raises(TypeError, match="perspective"):
        state.svg(perspective="seat 1")


SORT = {
    "just4fun": ("hands", lambda state: int),
    "three_or_more": ("hands", lambda state: card_code),
    "fool": ("hands", lambda state: state.parse_action),
    "rummikub_junior": ("racks", lambda state: PACKAGES["rummikub_junior"].TILES.index),
}


def _twins(name: str, seed: int) -> tuple[Any, Any]:
    """Two set-up games equal but for one card swapped between seats 1 and 2."""
    game = boardcore.make(name, players=max(3, player_counts(name)[0]))
    start = game.new_state(seed=seed)
    doc = start.to_dict()
    key, order = SORT[name]
    hands = doc[key]  # type: ignore[literal-required]
    one, two = hands[1], hands[2]
    x = next(c for c in one if c not in two)
    y = next(c for c in two if c not in one)
    one[one.index(x)], two[two.index(y)] = y, x
    one.sort(key=order(start))
    two.sort(key=order(start))
    return set_up(game, start.to_dict()), set_up(game, doc)


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_seat_records_hide_what_the_seat_has_not_seen(name: str) -> None:
    # Two games that differ only in cards seat 0 (and a spectator) never sees give the
    # same seat records at every step, until the end, when the whole record is added.
    for seed in range(4):
        a, b = _twins(name, seed)
        assert a.to_dict() != b.to_dict()
        rng = random.Random(seed)
        steps = 0
        while not a.is_over():
            for seat in (0, "spectator"):
                ra, rb = boardcore.seat_record(a, seat), boardcore.seat_record(b, seat)
                assert ra == rb, (name, seed, steps, seat)
                assert "seed" not in json.dumps(ra) and "rng" not in ra
                assert ra["seat"] == (None if seat == "spectator" else 0)
                assert len(ra["views"]) == len(ra["actions"]) + 1 == steps + 1
            common = sorted(set(a.legal_actions()) & set(b.legal_actions()))
            if not common:
                break
            action = rng.choice(common)
            a.apply(action)
            b.apply(action)
            steps += 1
        assert steps > 3
    finished = a.copy()
    finished.rollout(seed=1)
    mine = boardcore.seat_record(finished, 1)
    assert mine["over"] and mine["record"] == boardcore.record(finished)
    assert mine["views"][-1] == finished.view(1).to_json()


def test_a_seat_record_shows_only_that_seats_hand() -> None:
    state = boardcore.make("rummikub_junior", players=3).new_state(seed=5)
    for _ in random_walk(state, random.Random(1)):
        if len(state.history()) > 30:
            break
    rec = boardcore.seat_record(state, 2)
    replayed = state.game.new_state(seed=5)
    for i, view in enumerate(rec["views"]):
        assert view["hand"] == list(replayed.view(2).hand)
        if i < len(rec["actions"]):
            replayed.apply(replayed.parse_action(rec["actions"][i]))
    for bad in (3, -1):
        with pytest.raises(ConfigurationError):
            boardcore.seat_record(state, bad)
    for bad in (None, "0", 1.0):
        with pytest.raises(TypeError):
            boardcore.seat_record(state, bad)
    with pytest.raises(TypeError):
        boardcore.seat_record({"game": "fool"}, 0)  # type: ignore[arg-type]


def test_the_pass_that_drew_the_joker_cannot_be_taken_back() -> None:
    # Rummikub Junior, 2 players, seed 3: seat 0's pass draws the joker, and the view
    # shows it; a player's undo must not hide it again.
    state = boardcore.make("rummikub_junior", players=2).new_state(seed=3)
    assert not state.can_undo()                          # nothing to take back yet
    state.apply(state.parse_action("pass"))
    assert "J" in state.view(0).hand and not state.can_undo()
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match="showed hidden information"):
        take_back(state, 0)
    assert state.to_dict() == before
    assert take_back(state.copy(), 0, allow_revealing=True) == 1
    state.undo()                                         # undo itself takes back anything
    assert "J" not in state.view(0).hand


def test_take_back_goes_back_to_the_seats_last_turn() -> None:
    state = boardcore.make("fool", players=4).new_state(seed=7)
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    with pytest.raises(IllegalActionError, match="seat 3 has no action"):
        take_back(state, 3)
    assert take_back(state, 1) == 2 and state.current_player == 1
    assert take_back(state, 0) == 1 and state.history() == []
    with pytest.raises(ConfigurationError):
        take_back(state, 4)
    with pytest.raises(TypeError):
        take_back(state, "0")


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_an_action_that_can_be_undone_showed_nothing_hidden(name: str) -> None:
    # What ``reveals`` declares, checked against the rules: after an action that
    # ``can_undo`` allows to take back, every seat's view is the same whatever the
    # cards it could not see were before (every determinization for that seat).
    checked = revealing = 0
    for state in _positions(name, games=2, every=1):
        if not state.history():
            continue
        before = state.copy()
        before.undo()
        action = state.history()[-1]
        if not state.can_undo():
            revealing += 1
            continue
        for seat in range(state.game.num_players):
            for seed in range(3):
                other = determinize(before, seat, seed)
                if action not in other.legal_actions():
                    continue
                other.apply(action)
                assert other.view(seat) == state.view(seat), (name, seat, action)
                checked += 1
    assert revealing > 0
    # Every Just4Fun move draws or refills the hand from the draw pile (J10, J11).
    assert checked > 100 if name != "just4fun" else checked == 0


def test_advisor_answers_in_futures_on_private_copies() -> None:
    state = boardcore.make("just4fun", players=2).new_state(seed=5)
    agent = ISMCTSAgent(iterations=2000, seed=1)
    expected = ISMCTSAgent(iterations=2000, seed=1).act(state)
    with Advisor(max_workers=2) as advisor:
        future = advisor.act(agent, state)
        state.apply(state.legal_actions()[0])            # the caller goes on meanwhile
        assert future.result(timeout=60) == expected
        policy = advisor.policy(GreedyAgent(seed=2), state).result(timeout=60)
        assert set(policy) == set(state.legal_actions())
        seen: list[int] = []
        done = advisor.ask(lambda s: seen.append(threading.get_ident()) or len(s.history()),
                           state)
        assert done.result(timeout=60) == 1 and seen[0] != threading.get_ident()
        finished = state.copy()
        finished.rollout(seed=1)
        with pytest.raises(IllegalActionError):
            advisor.act(RandomAgent(seed=1), finished).result(timeout=60)
    with pytest.raises(RuntimeError):
        advisor.act(agent, state)                        # shut down
    for bad in (0, -1):
        with pytest.raises(ConfigurationError):
            Advisor(max_workers=bad)
    with pytest.raises(TypeError):
        Advisor(max_workers=1.5)  # type: ignore[arg-type]


def test_advisor_searches_in_parallel_and_in_asyncio() -> None:
    # Two searches at once in two threads, and one awaited from asyncio while the
    # loop keeps running other tasks.
    state = boardcore.make("fool", players=4).new_state(seed=2)

    async def main() -> tuple[int, int]:
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.001)

        ticker = asyncio.ensure_future(tick())
        with Advisor(max_workers=2) as advisor:
            first, second = await asyncio.gather(
                advisor.act_async(ISMCTSAgent(iterations=20_000, seed=1), state),
                advisor.act_async(ISMCTSAgent(iterations=20_000, seed=1), state))
        ticker.cancel()
        assert first == second
        return first, ticks

    action, ticks = asyncio.run(main())
    assert action in state.legal_actions() and ticks > 1


def test_the_json_forms_are_typed(tmp_path: Path) -> None:
    consumer = """
import boardcore
from boardcore.fool import FoolView
state = boardcore.make("fool", players=4).new_state(seed=1)
form = state.view(0).to_json()
reveal_type(form)
reveal_type(form["hand"])
reveal_type(FoolView.from_json(form))
reveal_type(state.view("spectator").player)
reveal_type(state.can_undo())
reveal_type(boardcore.seat_record(state, 0)["views"])
reveal_type(state.last_move.to_json() if state.last_move else None)
state.view("spectators")
"""
    out = _mypy(tmp_path, {"consumer.py": consumer})
    # mypy's spelling, made the same across versions: no 'builtins.', no quotes around
    # a TypedDict's name (mypy 1 writes TypedDict('a.B', ...), mypy 2 TypedDict(a.B, ...)).
    revealed = [re.sub(r"TypedDict\('([\w.]+)'", r"TypedDict(\1",
                       line.split("Revealed type is ")[1].strip('"').replace("builtins.", ""))
                for line in out.splitlines() if "Revealed type is" in line]
    assert revealed[0].startswith("TypedDict(boardcore.fool.values.FoolViewJSON, {"), revealed
    assert revealed[1:6] == ["list[str]", "boardcore.fool.values.FoolView", "int | None", "bool",
                             "list[TypedDict(boardcore.values.ViewJSON, {'player': int | None, "
                             "'current_player': int | None, 'is_over': bool, "
                             "'scores': list[int]})]"], revealed
    assert "FoolMoveJSON" in revealed[6]
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert len(errors) == 1 and "spectators" in errors[0], out
