"""One state, many threads: no crash, no torn state, no history that lies.

Eight threads call every method of one shared state -- ``rollout`` (which works without
the GIL) included -- and of many private ones.  Each method reads or changes a state as
one step, so whatever the interleaving, the state stays one the engine can reach: its
``to_dict()`` loads back (the loader replays the history and checks every field).
"""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest

import boardcore
from boardcore import BoardcoreError
from tests.conftest import player_counts

THREADS = 8
STEPS = 400


@pytest.fixture(autouse=True)
def switch_often() -> Iterator[None]:
    """Let the interpreter switch threads every microsecond, to interleave the calls."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(interval)


def _hammer(state: Any, rng: random.Random, errors: list[BaseException]) -> None:
    try:
        for _ in range(STEPS):
            op = rng.randrange(10)
            try:
                if op == 0:
                    state.rollout(seed=rng.getrandbits(32))
                elif op in (1, 2, 3):
                    legal = state.legal_actions()
                    if legal:
                        state.apply(rng.choice(legal))
                elif op == 4:
                    state.undo()
                elif op == 5:
                    copy = state.copy()
                    copy.rollout(seed=1)
                elif op == 6:
                    state.game.state_from_dict(state.to_dict())
                elif op == 7:
                    state.view(rng.randrange(state.game.num_players))
                    str(state)
                elif op == 8:
                    state.legal_actions_mask()
                    state.outcome()
                    state.scores()
                    state.history()
                else:
                    state.is_over()
                    repr(state)
                    assert state.current_player is None or state.current_player >= 0
            except BoardcoreError:
                pass   # an action made illegal by another thread, undo at the start ...
    except BaseException as exc:  # pragma: no cover - reported below
        errors.append(exc)


def _run(game: Any, threads: list[threading.Thread], errors: list[BaseException],
         states: list[Any]) -> None:
    """Run the threads; none may fail, and every state must still load back (be whole)."""
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for s in states:
        assert game.state_from_dict(s.to_dict()).to_dict() == s.to_dict()


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_one_state_many_threads(name: str) -> None:
    game = boardcore.make(name, players=player_counts(name)[-1])
    shared = game.new_state(seed=99)
    errors: list[BaseException] = []
    threads = [threading.Thread(target=_hammer, args=(shared, random.Random(i), errors))
               for i in range(THREADS)]
    _run(game, threads, errors, [shared])


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_many_states_many_threads(name: str) -> None:
    game = boardcore.make(name, players=player_counts(name)[0])
    states = [game.new_state(seed=i) for i in range(THREADS)]
    errors: list[BaseException] = []
    threads = [threading.Thread(target=_hammer, args=(states[i], random.Random(i), errors))
               for i in range(THREADS)]
    _run(game, threads, errors, states)


def _race_apply(state: Any, rng: random.Random) -> None:
    legal = state.legal_actions()
    if legal:
        state.apply(rng.choice(legal))


RACERS = {
    "apply": _race_apply,
    "copy": lambda state, rng: state.copy().to_dict(),
    "to_dict": lambda state, rng: state.game.state_from_dict(state.to_dict()),
    "rollout": lambda state, rng: state.rollout(seed=rng.getrandbits(32)),
}


@pytest.mark.parametrize("racer", RACERS)
@pytest.mark.parametrize("name", boardcore.GAMES)
def test_rollout_races_another_call_on_the_same_fresh_state(name: str, racer: str) -> None:
    # reliability defect 1: rollout() released the GIL while it changed the state and its
    # history; apply, copy, to_dict or rollout from another thread meanwhile crashed.
    game = boardcore.make(name, players=player_counts(name)[-1])
    states = [game.new_state(seed=i) for i in range(150)]
    start = threading.Barrier(3)
    errors: list[BaseException] = []

    def run(op: Any, seed: int) -> None:
        rng = random.Random(seed)
        try:
            for state in states:
                start.wait()
                for _ in range(3):
                    try:
                        op(state, rng)
                    except BoardcoreError:
                        pass   # the other thread ended the game first
        except BaseException as exc:  # pragma: no cover - reported below
            start.abort()
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(op, i)) for i, op in
               enumerate([RACERS["rollout"], RACERS[racer], RACERS[racer]])]
    _run(game, threads, errors, states)
