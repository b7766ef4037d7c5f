"""Conformance: every game in ``boardcore.GAMES`` meets every line of docs/api.md.

Random seeded games are played for every player count, and the whole State contract
is checked at every step.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
import random
from typing import Any

import numpy as np
import pytest

import boardcore
from boardcore import IllegalActionError, InvalidStateError, Outcome
from boardcore.simulate import derive_seed
from tests.conftest import HEADER, player_counts, random_walk, set_up
from tests.reference._rng import Rng

GAMES_PER_COUNT = 3


def check_step(state: Any) -> None:
    """Every api.md State line that can be checked on one position."""
    game = state.game
    n = game.num_players
    legal = state.legal_actions()
    over = state.is_over()
    assert isinstance(over, bool)
    # current_player / legal_actions / mask
    if over:
        assert state.current_player is None
        assert legal == []
    else:
        assert type(state.current_player) is int and 0 <= state.current_player < n
        assert legal, "a running game has at least one legal action"
    assert all(type(a) is int for a in legal)
    assert legal == sorted(set(legal))
    assert all(0 <= a < game.num_actions for a in legal)
    mask = state.legal_actions_mask()
    assert isinstance(mask, np.ndarray) and mask.dtype == np.bool_
    assert mask.shape == (game.num_actions,)
    assert list(np.flatnonzero(mask)) == legal
    # notation: exact inverses
    for a in legal:
        text = state.action_to_str(a)
        assert isinstance(text, str) and text
        assert state.parse_action(text) == a
    # scores / outcome
    scores = state.scores()
    assert isinstance(scores, tuple) and len(scores) == n
    assert all(type(x) is int for x in scores)
    outcome = state.outcome()
    if over:
        assert isinstance(outcome, Outcome)
        assert outcome.scores == scores
        assert outcome.winners and outcome.winners <= set(range(n))
    else:
        assert outcome is None
    # views: frozen dataclasses, one per seat
    for p in range(n):
        view = state.view(p)
        assert dataclasses.is_dataclass(view)
        with pytest.raises(dataclasses.FrozenInstanceError):
            view.player = p  # type: ignore[misc]
        assert view.player == p
    # text pictures
    assert isinstance(str(state), str) and str(state)
    assert game.name.replace("_", "").lower() in repr(state).replace("_", "").lower()


def check_illegal_changes_nothing(state: Any) -> None:
    before = state.to_dict()
    legal = set(state.legal_actions())
    illegal = [a for a in range(state.game.num_actions) if a not in legal][:3]
    for a in illegal + [state.game.num_actions, -1]:
        with pytest.raises(IllegalActionError):
            state.apply(a)
        assert state.to_dict() == before


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_apply_accepts_exactly_the_legal_actions(name: str) -> None:
    # Each engine's is_legal (what apply asks) is its own code, not a search of legal():
    # over every action of the game, at positions along seeded games, both agree.
    from boardcore._registry import GAME_CLASSES

    rng = random.Random(11)
    cls = GAME_CLASSES[name]
    for players in (cls.min_players, cls.max_players):
        state = boardcore.make(name, players=players).new_state(seed=players)
        for step in range(400):
            if state.is_over():
                break
            if step % 40 == 0:
                legal = set(state.legal_actions())
                for a in range(state.game.num_actions):
                    trial = state.copy()
                    try:
                        trial.apply(a)
                    except IllegalActionError:
                        assert a not in legal, (step, a)
                    else:
                        assert a in legal, (step, a)
            state.apply(rng.choice(state.legal_actions()))


class _Reenters:
    """An item whose release asks the state for its legal actions again."""

    def __init__(self, state: Any, seen: list[list[int]]) -> None:
        self.state, self.seen = state, seen

    def __del__(self) -> None:
        self.seen.append(self.state.legal_actions())


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_legal_actions_is_a_list_of_the_callers_own(name: str) -> None:
    # A state refills the list it handed out last once nobody else holds it (_state.pyx,
    # boardcore_legal_list): a list a caller keeps never changes afterwards, whatever a
    # caller did to a list it let go never shows, and a copy never shares the list.
    rng = random.Random(5)
    state = boardcore.make(name, players=player_counts(name)[0]).new_state(seed=5)
    kept: list[tuple[list[int], list[int]]] = []
    seen: list[list[int]] = []
    step = 0
    while not state.is_over():
        expected = [int(a) for a in np.flatnonzero(state.legal_actions_mask())]
        assert state.legal_actions() == expected
        dropped = state.legal_actions()
        if step % 3 == 0:
            dropped.extend([-1, "junk", None] * (step % 7))
        elif step % 3 == 1:
            dropped.clear()
        else:
            dropped.append(_Reenters(state, seen))
        del dropped
        assert state.legal_actions() == expected
        assert state.copy().legal_actions() == expected
        if step % 5 == 0:
            legal = state.legal_actions()
            kept.append((legal, list(legal)))
        state.apply(rng.choice(state.legal_actions()))
        step += 1
    assert state.legal_actions() == []
    assert all(legal == copied for legal, copied in kept)
    assert seen and all(isinstance(legal, list) for legal in seen)


def check_round_trips(state: Any) -> None:
    game = state.game
    d = state.to_dict()
    assert json.loads(json.dumps(d)) == d, "to_dict is JSON-safe"
    for other in (
        game.state_from_dict(json.loads(json.dumps(d))),
        pickle.loads(pickle.dumps(state)),
        state.copy(),
        copy.deepcopy(state),
    ):
        assert other.to_dict() == d
        assert other.history() == state.history()
        assert other.seed == state.seed
        assert other.game == game
        if not state.is_over():
            # it continues exactly like the original
            a = state.legal_actions()[-1]
            twin = state.copy()
            other.apply(a)
            twin.apply(a)
            assert other.to_dict() == twin.to_dict()


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_every_step_meets_the_contract(name: str) -> None:
    for players in player_counts(name):
        game = boardcore.make(name, players=players)
        for g in range(GAMES_PER_COUNT):
            rng = random.Random(f"{name}-{players}-{g}")
            state = game.new_state(seed=rng.getrandbits(64))
            applied: list[int] = []
            check_step(state)
            for step, action in enumerate(random_walk(state, rng)):
                applied.append(action)
                if step % 7 == 0:
                    check_illegal_changes_nothing(state)
                    check_round_trips(state)
                check_step(state)
            # the walk applied the last action after yielding it
            check_step(state)
            assert state.history() == applied
            check_illegal_changes_nothing(state)
            check_round_trips(state)


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_game_configuration(name: str) -> None:
    counts = player_counts(name)
    cls = type(boardcore.make(name, players=counts[0]))
    assert cls.name == name
    assert (cls.min_players, cls.max_players) == (counts[0], counts[-1])
    game = boardcore.make(name, players=counts[0])
    assert game == cls(players=counts[0])
    assert hash(game) == hash(cls(players=counts[0]))
    assert game.num_players == counts[0]
    assert type(game.rules_version) is int and game.rules_version >= 1
    assert set(game.options) == set(cls.option_defaults)
    with pytest.raises(TypeError):
        game.options["x"] = 1  # type: ignore[index]
    assert pickle.loads(pickle.dumps(game)) == game
    assert game.num_actions > 0
    assert repr(game).startswith(cls.__name__ + "(")


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_new_state_seed(name: str) -> None:
    game = boardcore.make(name, players=player_counts(name)[-1])
    a, b = game.new_state(seed=99), game.new_state(seed=99)
    assert a.seed == 99 and a.to_dict() == b.to_dict()
    fresh = game.new_state()
    assert type(fresh.seed) is int and 0 <= fresh.seed < 2**64
    assert game.new_state(seed=np.uint64(2**64 - 1)).seed == 2**64 - 1


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_numpy_integers_are_actions(name: str) -> None:
    state = boardcore.make(name, players=player_counts(name)[0]).new_state(seed=5)
    twin = state.copy()
    a = state.legal_actions()[0]
    state.apply(np.int64(a))
    twin.apply(a)
    assert state.to_dict() == twin.to_dict()
    assert state.history() == [a] and type(state.history()[0]) is int


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_copy_is_independent(name: str) -> None:
    state = boardcore.make(name, players=player_counts(name)[0]).new_state(seed=8)
    before = state.to_dict()
    twin = state.copy()
    twin.rollout(seed=1)
    assert twin.is_over()
    assert state.to_dict() == before


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_rollout_is_simulate(name: str) -> None:
    """Game i of simulate() is new_state(derive_seed(s,0,i)).rollout(derive_seed(s,1,i))."""
    for players in player_counts(name):
        game = boardcore.make(name, players=players)
        result = boardcore.simulate(game, 5, seed=2024)
        for i in range(5):
            state = game.new_state(seed=derive_seed(2024, 0, i))
            outcome = state.rollout(seed=derive_seed(2024, 1, i))
            assert outcome == state.outcome()
            assert len(state.history()) == result.lengths[i]
            assert outcome.scores == tuple(int(x) for x in result.scores[i])
            assert outcome.winners == {int(p) for p in np.flatnonzero(result.winners[i])}


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_rollout_records_history_and_replays(name: str) -> None:
    game = boardcore.make(name, players=player_counts(name)[-1])
    state = game.new_state(seed=77)
    state.apply(state.legal_actions()[0])
    state.rollout(seed=3)
    replayed = game.new_state(seed=77)
    for a in state.history():
        replayed.apply(a)
    assert replayed.to_dict() == state.to_dict()
    rec = boardcore.record(state)
    assert json.loads(json.dumps(rec)) == rec
    assert boardcore.replay(rec).to_dict() == state.to_dict()


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_rollout_plays_the_random_player_from_any_position(name: str) -> None:
    """The compiled play-out is the house random player, from any position.

    Each game's own play-out (Fool's keeps its trick in locals) draws
    ``legal[bounded(len(legal))]`` from the rollout's generator at every move, from any
    position a game reaches (mid-trick, mid-turn, after a deal), to the same end state.
    """
    for players in player_counts(name):
        game = boardcore.make(name, players=players)
        for i in range(20):
            state = game.new_state(seed=i)
            walk = random.Random(i)
            for _ in range(walk.randrange(0, 200)):
                if state.is_over():
                    break
                state.apply(walk.choice(state.legal_actions()))
            by_hand = state.copy()
            state.rollout(seed=1000 + i)
            player = Rng(1000 + i)
            while not by_hand.is_over():
                legal = by_hand.legal_actions()
                by_hand.apply(legal[player.bounded(len(legal))])
            assert by_hand.history() == state.history(), (players, i)
            assert by_hand.to_dict() == state.to_dict(), (players, i)


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_undo_takes_back_every_step_exactly(name: str) -> None:
    """Undo each action of seeded games back to the start; chance is undone too."""
    for players in player_counts(name):
        game = boardcore.make(name, players=players)
        state = game.new_state(seed=players * 17)
        seen = [state.to_dict()]
        for _ in random_walk(state, random.Random(players)):
            pass
        replayed = game.new_state(seed=players * 17)
        for a in state.history():
            replayed.apply(a)
            seen.append(replayed.to_dict())
        assert seen[-1] == state.to_dict()
        for expected in reversed(seen[:-1]):
            state.undo()
            assert state.to_dict() == expected
        with pytest.raises(IllegalActionError, match="nothing to undo"):
            state.undo()
        assert state.to_dict() == seen[0]


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_undo_back_to_a_set_up_position(name: str) -> None:
    """A game started from a position of one's own undoes back to that position."""
    from tests.conftest import set_up

    game = boardcore.make(name, players=player_counts(name)[0])
    state = game.new_state(seed=12)
    for _, _a in zip(range(6), random_walk(state, random.Random(3))):
        pass
    start = set_up(game, state.to_dict())
    seen = []
    rng = random.Random(4)
    for _ in range(10):
        if start.is_over():
            break
        seen.append(start.to_dict())
        start.apply(rng.choice(start.legal_actions()))
    for expected in reversed(seen):
        start.undo()
        assert start.to_dict() == expected
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        start.undo()


def _bounds(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Set-up fields at the reader's numeric bounds, and at the extreme the rules allow.

    The rules refuse the first; play goes past the second.
    """
    if name == "fool":
        from boardcore._engine.fool import ROUND_MAX

        def at(rnd: int) -> dict[str, Any]:
            return {"round": rnd, "dealer": (rnd + 2) % 4, "leader": (rnd - 1) % 4}
        # 39 rounds scored: each cost at least 2 points (F11), 16 +10s earned 160.
        return at(ROUND_MAX), {**at(40), "scores": [20] * 4, "plus10": [4] * 4}
    from boardcore.rummikub_junior import STARS_MAX, STARS_TOTAL
    return ({"stars": [STARS_MAX] * 2, "bank": STARS_TOTAL - 2 * STARS_MAX},
            {"stars": [12, 0], "bank": STARS_TOTAL - 12,     # all 12 of the deal (K2, K7)
             "current_player": 1})


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_every_position_play_reaches_is_a_valid_set_up(name: str) -> None:
    """The rules a set-up position is checked against hold of every position of play.

    Issue 22, item 15: the checks between fields (stones and locks, scores and rounds,
    hand sizes and tricks, stars and the table, points and the cards laid) are all
    necessary: the position of seeded random games at any move loads as a set-up.
    """
    for players in player_counts(name):
        game = boardcore.make(name, players=players)
        for seed in range(4):
            state, rng = game.new_state(seed=seed), random.Random(seed)
            for i, _a in enumerate(random_walk(state, rng)):
                if i % 3 == 0:
                    doc = state.to_dict()
                    fields = {k: v for k, v in doc.items() if k not in (*HEADER, "history")}
                    assert set_up(game, doc).to_dict()["setup"] == fields
            set_up(game, state.to_dict())


@pytest.mark.parametrize(("name", "field"), [("fool", "round"), ("rummikub_junior", "stars")])
def test_play_past_the_set_up_bounds_still_loads_and_pickles(name: str, field: str) -> None:
    # reliability defect 4: the library made states its own loader refused (Rummikub
    # stars, a Fool round past the loader's bounds after a few moves): no pickle.  The
    # rules between the fields now keep set-up positions far inside those bounds (issue
    # 22, item 15); play from the most a set-up allows still loads and pickles.
    game = boardcore.make(name, players=player_counts(name)[0])
    doc = game.new_state(seed=1).to_dict()
    bounds, extreme = _bounds(name)
    with pytest.raises(InvalidStateError):
        set_up(game, {**doc, **bounds})
    start = set_up(game, {**doc, **extreme})
    bound = np.max(start.to_dict()[field])
    for seed in range(3):
        state = start.copy()
        for _a in random_walk(state, random.Random(seed)):
            check_round_trips(state)
        check_round_trips(state)
        assert np.max(state.to_dict()[field]) > bound
