"""The boundary contract: no Python call into the compiled engines crashes the interpreter.

Every callable attribute of every compiled module and class -- public and private,
methods of states that are fresh, mid-game, finished or never set up -- is called with
hostile arguments (wrong types, wrong shapes, huge counts); each call returns or raises
an exception, and a state that raised is unchanged.  A crash would end the test run.
"""

from __future__ import annotations

import importlib
import inspect
import itertools
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import boardcore
from boardcore._engine._state import EngineConfig, EngineState
from tests.conftest import player_counts, random_walk

HOSTILE: list[object] = [
    None, -1, 0, 10**9, 2**70, -(2**70), "x", 3.5, True, b"\x00" * 64, [], [0] * 40,
    {}, object(), np.zeros(3), np.zeros((2, 2), dtype=np.uint8),
    np.zeros((1, 1), dtype=np.int64), np.zeros(0, dtype=np.int64),
]
MODULES = ["_random", "_state", "_search", "_vector", *boardcore.GAMES]


def _engine(name: str) -> Any:
    return importlib.import_module(f"boardcore._engine.{name}")


def _arity(fn: Callable[..., object]) -> int:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return 3
    return sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)


def _calls(fn: Callable[..., object]) -> Iterator[tuple[object, ...]]:
    """Argument tuples: every hostile value alone, repeated to the arity, and in pairs."""
    n = max(1, min(_arity(fn), 8))
    yield ()
    for value in HOSTILE:
        yield (value,)
        yield (value,) * n
    rng = random.Random(fn.__qualname__ if hasattr(fn, "__qualname__") else 0)
    for _ in range(20):
        yield tuple(rng.choice(HOSTILE) for _ in range(n))


def _states(name: str) -> list[Any]:
    game = boardcore.make(name, players=player_counts(name)[0])
    fresh = game.new_state(seed=3)
    mid = fresh.copy()
    for _, _a in zip(range(7), random_walk(mid, random.Random(1))):
        pass
    over = fresh.copy()
    over.rollout(seed=4)
    return [fresh, mid, over]


def _call(fn: Callable[..., object], args: tuple[object, ...]) -> None:
    try:
        fn(*args)
    except Exception:
        pass


@pytest.mark.parametrize("module", MODULES)
def test_module_functions_survive_hostile_arguments(module: str) -> None:
    mod = _engine(module)
    for attr in dir(mod):
        fn = getattr(mod, attr)
        if inspect.isclass(fn) or not callable(fn) or attr.startswith("__"):
            continue
        for args in _calls(fn):
            _call(fn, args)


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_state_methods_survive_hostile_arguments(name: str) -> None:
    cls = boardcore.make(name, players=player_counts(name)[0]).state_class
    members = sorted(set(dir(cls)) - {"__class__", "__init_subclass__", "__subclasshook__",
                                      "__new__", "__dealloc__"})
    for state in [*_states(name), cls.__new__(cls), EngineState.__new__(EngineState)]:
        for member in members:
            try:
                fn = getattr(state, member)
            except Exception:    # a property of a state never set up
                continue
            if not callable(fn) or member in ("__setattr__", "__delattr__"):
                continue
            for args in _calls(fn):
                before = _snapshot(state)
                try:
                    fn(*args)
                except Exception:
                    assert _snapshot(state) == before, (member, args)


def _snapshot(state: Any) -> object:
    try:
        return state.to_dict()
    except Exception as exc:
        return type(exc)


def test_engine_config_refuses_what_is_not_a_configuration() -> None:
    cls = boardcore.make("just4fun", players=2).state_class
    for args in [(), (EngineState, b""), (cls, b""), (cls, b"\xff" * 64), (int, b""),
                 (cls, None), (None, b"x"), (cls, bytes(10**6))]:
        with pytest.raises((TypeError, ValueError)):
            EngineConfig(*args)


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_simulate_chunk_checks_its_arrays(name: str) -> None:
    game = boardcore.make(name, players=player_counts(name)[-1])
    engine = game._engine
    n = game.num_players
    ok = dict(scores=np.zeros((4, n), np.int64), winners=np.zeros((4, n), np.uint8),
              lengths=np.zeros(4, np.int64), stats=np.zeros((4, 4), np.int64))
    engine.simulate_chunk(1, 0, 4, ok["scores"], ok["winners"], ok["lengths"], ok["stats"])
    narrow = dict(scores=np.zeros((1, 1), np.int64), winners=np.zeros((1, 1), np.uint8),
                  lengths=np.zeros(1, np.int64), stats=np.zeros((1, 0), np.int64))
    for start, stop in [(0, 200000), (-1, 2), (3, 2), (0, 2**40)]:
        with pytest.raises((ValueError, OverflowError)):
            engine.simulate_chunk(1, start, stop, ok["scores"], ok["winners"], ok["lengths"],
                                  ok["stats"])
    for key in ok:
        arrays = {**ok, key: narrow[key]}
        with pytest.raises(ValueError):
            engine.simulate_chunk(1, 0, 4, **arrays)
        for wrong in (None, np.zeros((4, n), np.float64), np.zeros((4, n, 2), np.int64),
                      np.zeros((4, n), np.int64)[:, ::-1]):
            with pytest.raises((TypeError, ValueError)):
                engine.simulate_chunk(1, 0, 4, **{**ok, key: wrong})


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_set_up_entry_refuses_garbage_fields(name: str) -> None:
    # EngineConfig.set_up trusts no value: the engine's _fill checks what could overrun
    # the position struct (the game's positions module checks the rules first).
    game = boardcore.make(name, players=player_counts(name)[0])
    fields = {k: v for k, v in game.new_state(seed=1)._fields().items()}
    rng = random.Random(name)
    for _ in range(300):
        bad = dict(fields)
        key = rng.choice(list(bad))
        bad[key] = rng.choice(HOSTILE + [[99] * 60, [[-5] * 60] * 9, [None] * 36])
        _call(game._engine.set_up, (game, 1, bad))
    for args in itertools.product([None, game], [None, 1], [None, {}]):
        _call(game._engine.set_up, args)



@pytest.mark.parametrize("name", boardcore.GAMES)
def test_a_game_that_lies_about_its_seats_does_not_reach_the_engine(name: str) -> None:
    # reliability defect 2: g._num_players = 60 (or a subclass overriding num_players)
    # then new_state(...).rollout() wrote out of bounds and segfaulted.
    players = player_counts(name)[0]
    game = boardcore.make(name, players=players)
    game._num_players = 60
    for state in (game.new_state(seed=1), game.new_state(seed=1).copy()):
        state.rollout(seed=2)
        assert state.is_over() and len(state.scores()) == players
    result = boardcore.simulate(game, 20, seed=1)
    assert not result.scores[:, players:].any()
    liar = type("Liar", (type(game),), {"num_players": property(lambda self: 60)})
    with pytest.raises(boardcore.ConfigurationError, match="engine cannot play"):
        liar(players=players)   # its engine configuration is refused (Fool: KeyError once)


# -- every method of every compiled class, through its class, with a wrong ``self`` -----
# issue 22.1: ``type(state).explain(None, 0)`` segfaulted (a method bound without a check
# of ``self``).  Run in a fresh interpreter, so that a crash fails this test alone.

CLASS_WALK = r"""
import importlib
import inspect
import pkgutil

import numpy as np

import boardcore
import boardcore._engine

modules = [importlib.import_module(f"boardcore._engine.{m.name}")
           for m in pkgutil.iter_modules(boardcore._engine.__path__)
           if m.name != "_cyutility"]
classes = [obj for mod in modules for obj in vars(mod).values()
           if isinstance(obj, type) and obj.__module__ == mod.__name__]
# One object of every class that can be made, as a self of the wrong class.
objects = [None, 0, "x", object(), b"\0" * 4096]
for name in boardcore.GAMES:
    game = boardcore.make(name, players=type(boardcore.make(name, players=4)).min_players)
    objects += [game._engine, game.new_state(seed=1)]
from boardcore._engine import _search, _vector
searcher = _search.Searcher("greedy", None, None, 0, 1)
objects += [_search.Work(), searcher]
objects.append(_vector.Batch(objects[5], 2, 1, 0, searcher))
arguments = [(), (None,), (0,), (-1, -1), ("x", "y", "z"), (2**70,), (np.zeros(3),),
             (objects[6],), (objects[7], 0, {}), (None,) * 8]
calls = 0
for cls in classes:
    members = {}
    for klass in reversed(cls.__mro__[:-1]):          # its own and its compiled bases'
        members.update(vars(klass))
    for name, member in sorted(members.items()):
        if name in ("__new__", "__init_subclass__", "__subclasshook__", "__doc__"):
            continue
        for wrong in objects:
            if isinstance(wrong, cls):
                continue
            if hasattr(member, "__get__") and not callable(member):   # a property
                try:
                    member.__get__(wrong, cls)
                except Exception:
                    pass
                calls += 1
                continue
            fn = getattr(cls, name, None)
            if not callable(fn):
                continue
            static = isinstance(member, staticmethod)
            for args in arguments:
                try:
                    fn(*args) if static else fn(wrong, *args)
                except Exception:
                    pass
                calls += 1
print("calls", calls, "classes", len(classes))
"""


def test_every_compiled_method_refuses_a_wrong_self() -> None:
    done = subprocess.run([sys.executable, "-c", CLASS_WALK], capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-4000:]
    calls, classes = done.stdout.split()[1::2]
    assert int(classes) >= 9 and int(calls) > 10_000, done.stdout


def test_a_configuration_keeps_its_kernel() -> None:
    # issue 22.3: calling __init__ again with another game's state class and a bad blob
    # raised ValueError, but had already swapped in that game's kernel.
    game = boardcore.make("rummikub_junior", players=2)
    j4f = boardcore.make("just4fun", players=2).state_class
    for args in [(j4f, b"x"), (j4f, bytes(game._engine.num_actions)), (None, None), ()]:
        try:
            game._engine.__init__(*args)
        except Exception:
            pass
    state = game.new_state(seed=1)
    assert type(state) is game.state_class
    assert state.rollout(seed=2) is not None and state.to_dict()["game"] == "rummikub_junior"
