"""Hostile input: every public entry point, fed garbage, raises the documented exception.

It never crashes, and never leaves a state half-changed.
"""

from __future__ import annotations

import copy
import json
import random
from collections import OrderedDict
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pytest

import boardcore
from boardcore import (
    BoardcoreError,
    ConfigurationError,
    IllegalActionError,
    InvalidStateError,
    NotationError,
    UsageError,
)
from tests.conftest import player_counts, random_walk
from tests.fuzz._harness import check_refusal

HOSTILE = [None, -1, 2**70, -(2**70), "3", 3.0, True, False, b"3", [3], {3: 3}, object(),
           float("nan"), 1j]
HOSTILE_TEXT = ["", " ", "+", "garbage", "\x00", "9" * 400, "exchange exchange", "€", "-1",
                "1++2", "@", None, 3, b"3", ["3"]]


def midgame(name: str, steps: int = 5) -> Any:
    game = boardcore.make(name, players=player_counts(name)[-1])
    state = game.new_state(seed=31)
    rng = random.Random(1)
    for _, _a in zip(range(steps), random_walk(state, rng)):
        pass
    return state


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_apply_refuses_garbage_and_changes_nothing(name: str) -> None:
    state = midgame(name)
    before = state.to_dict()
    for bad in HOSTILE:
        with pytest.raises((TypeError, IllegalActionError)) as info:
            state.apply(bad)
        if isinstance(bad, (bool, float, str, bytes, complex)) or bad is None:
            assert info.type is TypeError, bad
        assert state.to_dict() == before
    for bad in (-1, 2**70, state.game.num_actions, np.int64(-5)):
        with pytest.raises(IllegalActionError, match="illegal action"):
            state.apply(bad)
    assert state.to_dict() == before


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_apply_after_the_end_is_illegal(name: str) -> None:
    state = midgame(name, 0)
    state.rollout(seed=4)
    before = state.to_dict()
    for a in range(min(state.game.num_actions, 50)):
        with pytest.raises(IllegalActionError, match="over"):
            state.apply(a)
    assert state.to_dict() == before


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_notation_refuses_garbage(name: str) -> None:
    state = midgame(name)
    for bad in HOSTILE_TEXT:
        with pytest.raises(NotationError):
            state.parse_action(bad)
    for bad in HOSTILE:
        with pytest.raises((TypeError, IllegalActionError)):
            state.action_to_str(bad)


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_view_refuses_garbage(name: str) -> None:
    state = midgame(name)
    for bad in HOSTILE + [state.game.num_players]:
        with pytest.raises((TypeError, ConfigurationError)):
            state.view(bad)


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_rollout_and_new_state_refuse_bad_seeds(name: str) -> None:
    state = midgame(name)
    before = state.to_dict()
    for bad in ("1", 1.5, True, -1, 2**64, [1]):
        with pytest.raises((TypeError, ConfigurationError)):
            state.rollout(seed=bad)
        with pytest.raises((TypeError, ConfigurationError)):
            state.game.new_state(seed=bad)
    assert state.to_dict() == before


def _mutations(value: Any) -> list[Any]:
    out: list[Any] = [None, -1, 2**70, "x", 1.5, True, [], {}, [None], [[-1]]]
    if isinstance(value, list) and value:
        out += [value[:-1], value + value[-1:], value[::-1] if len(value) > 1 else [value[0]]]
    if isinstance(value, int) and not isinstance(value, bool):
        out += [value + 1, value - 1]
    return out


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_state_from_dict_refuses_tampering(name: str) -> None:
    state = midgame(name, 9)
    game = state.game
    good = state.to_dict()
    for bad in (None, [], "state", 3, {"game": name}):
        with pytest.raises(InvalidStateError):
            game.state_from_dict(bad)
    for key in good:
        truncated = {k: v for k, v in good.items() if k != key}
        with pytest.raises(InvalidStateError):
            game.state_from_dict(truncated)
        for value in _mutations(good[key]):
            tampered = copy.deepcopy(good)
            tampered[key] = value
            try:
                other = game.state_from_dict(tampered)
            except InvalidStateError:
                continue
            # Accepted tampering must still be a consistent, playable state.
            other.legal_actions()
            other.to_dict()
            str(other)
            if not other.is_over():
                other.copy().rollout(seed=1)
    assert game.state_from_dict(json.loads(json.dumps(good))).to_dict() == good


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_state_from_dict_refuses_nested_tampering(name: str) -> None:
    """Change single entries inside list fields: a random fuzz that must never crash."""
    state = midgame(name, 9)
    game = state.game
    good = state.to_dict()
    rng = random.Random(name)
    lists = [k for k, v in good.items() if isinstance(v, list) and v]
    for _ in range(300):
        tampered = copy.deepcopy(good)
        key = rng.choice(lists)
        target = tampered[key]
        while isinstance(target, list) and target and isinstance(target[0], list):
            target = rng.choice(target)
        if isinstance(target, list) and target:
            i = rng.randrange(len(target))
            target[i] = rng.choice([None, -1, 0, 1, 2, 7, 99, 2**64, "R1", 1.0, True, []])
        try:
            other = game.state_from_dict(tampered)
        except InvalidStateError:
            continue
        other.legal_actions()
        other.to_dict()
        str(other)
        if not other.is_over():
            other.copy().rollout(seed=2)


def test_make_refuses_garbage() -> None:
    for bad in (None, "chess", 3, "JUST4FUN"):
        with pytest.raises(ConfigurationError, match="unknown game"):
            boardcore.make(bad, players=2)
    for name in boardcore.GAMES:
        for bad in (None, -1, 2**70, "3", 3.0, True, 0, 99):
            with pytest.raises(ConfigurationError):
                boardcore.make(name, players=bad)
        with pytest.raises(ConfigurationError, match="unknown option"):
            boardcore.make(name, players=player_counts(name)[0], no_such_option=1)
        for bad in (None, -1, 2**70, "3", 3.0, True):
            with pytest.raises(ConfigurationError):
                boardcore.make(name, players=player_counts(name)[0], start_player=bad)


def test_simulate_refuses_garbage() -> None:
    game = boardcore.make("just4fun", players=2)
    for bad in (None, "3", 3.0, True):
        with pytest.raises(TypeError):
            boardcore.simulate(game, bad, seed=1)
        with pytest.raises(TypeError):
            boardcore.simulate(game, 3, seed=1, workers=bad)
    for bad in (0, -1):
        with pytest.raises(ConfigurationError):
            boardcore.simulate(game, bad, seed=1)
        with pytest.raises(ConfigurationError):
            boardcore.simulate(game, 3, seed=1, workers=bad)
    for bad in (-1, 2**64, 1.5, "1"):
        with pytest.raises((TypeError, ConfigurationError)):
            boardcore.simulate(game, 3, seed=bad)
    with pytest.raises(TypeError):
        boardcore.simulate("just4fun", 3, seed=1)  # type: ignore[arg-type]


def test_states_cannot_be_made_directly() -> None:
    from boardcore.just4fun import Just4FunState

    with pytest.raises(TypeError):
        Just4FunState()


def test_arguments_out_of_range_are_configuration_errors() -> None:
    # One error discipline: a bad argument value is a BoardcoreError, never a bare
    # ValueError, in every public call that takes a budget, a count or a size.
    from boardcore import agents, stats

    game = boardcore.make("just4fun", players=2)
    state = game.new_state(seed=1)
    refusals = [
        lambda: agents.ISMCTSAgent(iterations=0),
        lambda: agents.ISMCTSAgent(time_limit=-1.0),
        lambda: agents.ISMCTSAgent(iterations=10, exploration=1000.0),
        lambda: agents.FlatMonteCarloAgent(0),
        lambda: agents.agent_from_string("mcts"),
        lambda: agents.agent_from_string("ismcts:many"),
        lambda: boardcore.VectorEnv(game, 4, seed=1, opponents="chess"),
        lambda: boardcore.VectorEnv(game, 4, seed=1, opponents="ismcts:0"),
        lambda: boardcore.arena(game, ["random", "greedy"], games=0, seed=1),
        lambda: boardcore.simulate(game, 0, seed=1),
        lambda: boardcore.simulate(game, 3, seed=1, backend="dask"),
        lambda: state.svg(size=5),
        lambda: state.svg(perspective=7),
        lambda: stats.wilson(3, 0),
    ]
    for call in refusals:
        with pytest.raises(ConfigurationError):
            call()
    over = game.new_state(seed=1)
    over.rollout(seed=2)
    with pytest.raises(IllegalActionError, match="the game is over"):
        agents.RandomAgent(seed=1).act(over)


def _deep(depth: int = 100_000) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def _refusals(state: Any, value: object) -> list[Callable[[], object]]:
    """Calls that hand ``value`` to a loader: every document field, record header, option."""
    game = state.game
    doc = state.to_dict()
    rec = boardcore.record(state)
    calls = [partial(game.state_from_dict, {**doc, key: value}) for key in doc]
    calls += [partial(boardcore.replay, {**rec, key: value})
              for key in ("game", "players", "options", "seed")]
    calls.append(partial(boardcore.replay, {**rec, "options": {"start_player": value}}))
    calls.append(partial(boardcore.make, game.name, players=game.num_players,
                         start_player=value))
    return calls


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_deep_and_huge_values_are_refused_in_short_messages(name: str) -> None:
    # reliability defect 6: deeply nested values raised RecursionError, from messages
    # that quoted the whole value (30 MB for a 10-million-item list; 3 MB here).
    state = midgame(name)
    before = state.to_dict()
    for value in (_deep(), [0] * 1_000_000, {"start_player": _deep()}):
        for refuse in _refusals(state, value):
            with pytest.raises((InvalidStateError, ConfigurationError)) as info:
                refuse()
            assert len(str(info.value)) < 1000, str(info.value)[:300]
    assert state.to_dict() == before


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_a_method_handed_a_deep_or_huge_value_refuses_it_briefly(name: str) -> None:
    # reliability defect 6: apply, action_to_str, view (and Fool's parse_action) of a
    # nested list raised RecursionError; a million-item list gave ~3 MB of message.
    state = midgame(name)
    before = state.to_dict()
    for value in (_deep(), [0] * 1_000_000, 10**5000):
        for call in (state.apply, state.action_to_str, state.view, state.parse_action):
            with pytest.raises((TypeError, BoardcoreError)) as info:
                call(value)
            assert len(str(info.value)) < 1000, str(info.value)[:300]
    assert state.to_dict() == before


def test_a_fool_set_up_first_trick_needs_full_hands() -> None:
    # reliability defect 5: hands of 23/1/12/12 loaded as the start of a round.
    game = boardcore.make("fool", players=4)
    doc = game.new_state(seed=1).to_dict()
    head = {k: doc[k] for k in ("game", "rules_version", "players", "options", "seed")}
    position = {k: doc[k] for k in ("round", "dealer", "scores", "plus10", "rng")}
    cards = [c for hand in doc["hands"] for c in hand]
    position.update(leader=(doc["dealer"] + 1) % 4, fools=[], trick=[],
                    hands=[cards[:12], cards[12:24], cards[24:36], cards[36:48]])
    full = game.state_from_dict({**head, "setup": position, "history": []})
    assert full.view(0).hand_sizes == (12, 12, 12, 12)
    position["hands"] = [cards[:23], cards[23:24], cards[24:36], cards[36:48]]
    with pytest.raises(InvalidStateError, match="seat 0 23 cards, expected 12"):
        game.state_from_dict({**head, "setup": position, "history": []})


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_every_game_loads_a_dict_subclass(name: str) -> None:
    # reliability defect 6: OrderedDict documents were accepted by two games, refused by two.
    state = midgame(name)
    doc = state.to_dict()
    assert state.game.state_from_dict(OrderedDict(doc)).to_dict() == doc


@pytest.mark.parametrize("text", ["\u0661+\u0662", "\uff11+\uff12", "\u00b2", "\u0663",
                                  "1+\u0662", "\U0001d7d9"])
def test_just4fun_reads_ascii_digits_only(text: str) -> None:
    # reliability defect 6: Just4Fun read non-ASCII digits ("\u0661+\u0662" was 1+2).
    state = midgame("just4fun")
    before = state.to_dict()
    with pytest.raises(NotationError):
        state.parse_action(text)
    assert state.to_dict() == before


def _two_fours(doc: dict[str, Any]) -> dict[str, Any]:
    stones = [[0] * 36 for _ in doc["stones"]]
    stones[0][0:4] = stones[1][6:10] = [1, 1, 1, 1]
    return {"stones": stones}


def _uneven_hands(doc: dict[str, Any]) -> dict[str, Any]:
    cards = [c for hand in doc["hands"] for c in hand]
    return {"hands": [cards[:23], cards[23:24], cards[24:36], cards[36:48]]}


@pytest.mark.parametrize(("name", "players", "impossible"), [
    ("just4fun", 2, _two_fours),                                  # both seats four in a row
    ("fool", 4, _uneven_hands),                                   # 23/1/12/12 at round start
    ("rummikub_junior", 2, lambda doc: {"laid_this_turn": True}),  # laid at move 0
])
def test_impossible_positions_do_not_load(name: str, players: int, impossible: Any) -> None:
    # reliability defect 5: two Just4Fun seats both with four in a row, Fool hands of
    # 23/1/12/12 at the start of a round, Rummikub laid_this_turn at move 0 all loaded.
    game = boardcore.make(name, players=players)
    doc = game.new_state(seed=1).to_dict()
    with pytest.raises(InvalidStateError, match="not the position"):
        game.state_from_dict({**doc, **impossible(doc)})


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_every_refusal_is_a_type_error_or_a_boardcore_error(name: str) -> None:
    # The one contract of docs/api.md, "Errors", checked as the fuzz harnesses check it
    # (tests/fuzz/_harness.check_refusal): never a plain ValueError, RuntimeError,
    # OverflowError ... from any public call of a state or its game, whatever it is fed.
    state = midgame(name)
    game = state.game
    before = state.to_dict()
    snapshot = state.snapshot()
    calls: dict[str, Callable[[Any], object]] = {
        "apply": lambda v: state.copy().apply(v), "action_to_str": state.action_to_str,
        "parse_action": state.parse_action, "view": state.view, "text": state.text,
        "svg(size)": lambda v: state.svg(size=v), "svg(perspective)": lambda v: state.svg(
            perspective=v), "observation": state.observation, "explain": state.explain,
        "rollout": lambda v: state.copy().rollout(seed=v), "new_state": game.new_state,
        "state_from_dict": game.state_from_dict,
        "make(players)": lambda v: boardcore.make(name, players=v),
        "make(start_player)": lambda v: boardcore.make(name, players=game.num_players,
                                                       start_player=v),
        "replay": boardcore.replay,
        "game.view": lambda v: game.view(snapshot, v),
        "game.parse_action": lambda v: game.parse_action(snapshot, v),
    }
    for what, call in calls.items():
        for bad in [*HOSTILE, *HOSTILE_TEXT, game.num_players, game.num_actions, 10**9,
                    {"game": name}]:
            try:
                call(bad)
            except Exception as exc:
                check_refusal(exc, f"{what}({bad!r})")
    assert state.to_dict() == before


def test_calls_at_the_wrong_moment_are_usage_errors() -> None:
    """A call at the wrong moment is a ``UsageError``: a ``BoardcoreError``, a ``RuntimeError``.

    Issue 22, item 7: these were the last plain ``RuntimeError``s ("call reset() first",
    "bind() the arrays first", "in use by another thread").
    """
    from boardcore._engine import _search, _vector

    assert issubclass(UsageError, BoardcoreError) and issubclass(UsageError, RuntimeError)
    assert not issubclass(UsageError, ValueError)
    game = boardcore.make("just4fun", players=2)
    for threads in (1, 2):
        env = boardcore.VectorEnv(game, 3, seed=1, threads=threads)
        for early in (partial(env.step, np.zeros(3, np.int64)), env.legal_actions,
                      env.random_actions):
            with pytest.raises(UsageError, match=r"call reset\(\) first"):
                early()
    batch = _vector.Batch(game._engine, 2, 1, -1, None)
    with pytest.raises(UsageError, match=r"bind\(\) the arrays first"):
        batch.reset(0, 2, _search.Work())
    for call in (lambda: batch.run(0), batch.release):
        with pytest.raises(UsageError):
            call()


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_game_methods_refuse_snapshots_that_are_not_their_positions(name: str) -> None:
    """``Game`` methods refuse snapshots that are not positions of theirs.

    ``game.explain`` of a finished position, of two positions that are not one move
    apart, and any method given another player count's snapshot (an ``AssertionError``
    and an ``IndexError`` escaped before).
    """
    import dataclasses

    state = midgame(name)
    game = state.game
    start, now = game.new_state(seed=2).snapshot(), state.snapshot()
    over = state.copy()
    over.rollout(seed=1)
    with pytest.raises(IllegalActionError, match="the game is over"):
        game.explain(over.snapshot(), over.snapshot(), 0, played=True)
    for before, after in ((start, now), (now, start), (now, now)):
        with pytest.raises(InvalidStateError, match="not one move after"):
            game.explain(before, after, 0, played=False)
    other = dataclasses.replace(now, players=game.num_players + 1)
    for call in (lambda: game.view(other, 0), lambda: game.text(other, None),
                 lambda: game.fields(other), lambda: game.action_to_str(other, 0),
                 lambda: game.draw(other, None, None), lambda: game.parse_action(other, "x"),
                 lambda: game.explain(other, other, 0, played=True)):
        with pytest.raises(InvalidStateError, match="not a position of this"):
            call()


def test_every_error_class_is_in_the_contract() -> None:
    """Every class of ``boardcore.errors`` is in the one contract of docs/api.md, "Errors".

    Each is a ``BoardcoreError`` (what the fuzz harnesses accept), exported by
    ``boardcore`` and named in that section.
    """
    from pathlib import Path

    import boardcore.errors

    text = (Path(__file__).parent.parent / "docs" / "api.md").read_text()
    errors = text[text.index("## Errors"):text.index("## Speed tiers")]
    for name in boardcore.errors.__all__:
        cls = getattr(boardcore.errors, name)
        assert issubclass(cls, BoardcoreError) and getattr(boardcore, name) is cls
        assert f"`{name}`" in errors, name
