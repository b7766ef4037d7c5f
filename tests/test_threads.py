"""One state, many threads: no crash, no torn state, no history that lies.

Eight threads call every method of one shared state -- ``rollout`` (which works without
the GIL) included -- and of many private ones.  Each method reads or changes a state as
one step, so whatever the interleaving, the state stays one the engine can reach: its
``to_dict()`` loads back (the loader replays the history and checks every field), and
an answer made of several parts (``to_dict``, ``explain``, ``last_move``, ``svg``,
``str``) describes one position.  The only refusal another thread can cause is an
action (or an undo) that its move made illegal.
"""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import boardcore
from boardcore import IllegalActionError
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
            if op == 0:
                state.rollout(seed=rng.getrandbits(32))
            elif op in (1, 2, 3):
                legal = state.legal_actions()
                try:
                    if legal:
                        state.apply(rng.choice(legal))
                except IllegalActionError:
                    pass   # another thread moved first: the action is not legal any more
            elif op == 4:
                try:
                    state.undo()
                except IllegalActionError:
                    pass   # another thread took the last action back first
            elif op == 5:
                copy = state.copy()
                copy.rollout(seed=1)
            elif op == 6:
                doc = state.to_dict()      # one position: it loads back, whatever moved
                assert state.game.state_from_dict(doc).to_dict() == doc
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
                player = state.current_player      # read once: another thread may move
                assert player is None or player >= 0
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
                    except IllegalActionError:
                        pass   # the other thread ended the game first
        except BaseException as exc:  # pragma: no cover - reported below
            start.abort()
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(op, i)) for i, op in
               enumerate([RACERS["rollout"], RACERS[racer], RACERS[racer]])]
    _run(game, threads, errors, states)


# -- one call, one position: another thread's move in the middle of a call -------------
# sys.setprofile runs ``meddle`` whenever a Python function returns inside the call
# under test, as another thread could at that moment: it applies or undoes a move on
# the shared state.  A method that read the state more than once would then describe two
# positions (issue 22, items 5 and 8); each must answer as it does without the meddling.


def meddled(state: Any, call: Callable[[Any], object], moves: int = 6) -> object:
    """Return ``call(state)``, changing ``state`` while it runs.

    Up to ``moves`` moves are applied or undone, one at each return of a Python function.
    """
    rng = random.Random(7)
    left = [moves]

    def meddle(frame: object, event: str, arg: object) -> None:
        if event != "return" or left[0] <= 0:
            return
        left[0] -= 1
        legal = state.legal_actions()
        if legal and (rng.random() < 0.7 or not state.history()):
            state.apply(rng.choice(legal))
        elif state.history():
            state.undo()

    sys.setprofile(meddle)
    try:
        return call(state)
    finally:
        sys.setprofile(None)


def _positions(name: str) -> Iterator[Any]:
    """Shared states: at the start, early and late in a game, and once it is over."""
    for players in player_counts(name):
        game = boardcore.make(name, players=players)
        for steps in (1, 5, 40, 10_000):
            state = game.new_state(seed=players + steps)
            rng = random.Random(steps)
            for _ in range(steps):
                legal = state.legal_actions()
                if len(legal) == 0 or len(state.history()) + 1 >= steps:
                    break
                state.apply(rng.choice(legal))
            yield state


# One call each, of one state method (``explain``'s action chosen beforehand).
CALLS: dict[str, Callable[[Any, int], object]] = {
    "to_dict": lambda state, action: state.to_dict(),
    "explain": lambda state, action: state.explain(action),
    "last_move": lambda state, action: state.last_move,
    "svg": lambda state, action: state.svg(perspective=0),
    "text": lambda state, action: state.text(),
    "str": lambda state, action: str(state),
    "view": lambda state, action: state.view(0),
    "snapshot": lambda state, action: state.snapshot(),
}


@pytest.mark.parametrize("call", CALLS)
@pytest.mark.parametrize("name", boardcore.GAMES)
def test_one_call_describes_one_position(name: str, call: str) -> None:
    for state in _positions(name):
        legal = state.legal_actions()
        if not legal and call == "explain":
            continue
        action = legal[len(legal) // 2] if legal else 0
        expected = CALLS[call](state.copy(), action)
        got = meddled(state, lambda s, a=action: CALLS[call](s, a))
        assert got == expected, (name, call)


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_a_document_taken_while_another_move_is_made_loads_back(name: str) -> None:
    # issue 22.5: to_dict() (and so pickling) read its header, fields and history at
    # three moments; with a move in between, the document did not load back.
    for state in _positions(name):
        doc: Any = meddled(state, lambda s: s.to_dict(), moves=50)
        assert state.game.state_from_dict(doc).to_dict() == doc
