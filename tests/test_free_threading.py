"""Free-threaded Python: importing boardcore keeps the GIL off; shared search trees.

Every compiled module declares free-threading support (``setup.py``); on a free-threaded
interpreter (3.14t, the ``cp314t`` wheels) importing them must not turn the GIL back on
(the RuntimeWarning it would raise is an error under this suite's settings, too).  The
search tree an ISMCTS agent keeps between moves is handed from search to search through
a flag taken and released inside a critical section: a failed search must release it.
"""

from __future__ import annotations

import importlib
import sys
import sysconfig
import threading

import pytest

import boardcore
from boardcore._engine import _search

MODULES = ["_state", "_search", "_summary", "_vector", "_random", "_cyutility",
           *boardcore.GAMES]


@pytest.mark.skipif(not sysconfig.get_config_var("Py_GIL_DISABLED"),
                    reason="a free-threaded interpreter (3.13t, 3.14t) only")
def test_importing_every_module_keeps_the_gil_off() -> None:
    for name in MODULES:
        importlib.import_module(f"boardcore._engine.{name}")
    assert not sys._is_gil_enabled()  # type: ignore[attr-defined]


def test_a_failed_search_releases_its_tree() -> None:
    game = boardcore.make("just4fun", players=2)
    over = game.new_state(seed=1)
    over.rollout(seed=1)
    tree = _search.Tree()
    with pytest.raises(ValueError, match="game is over"):
        _search.ismcts(over, tree, 50, 0.0, 0.7, 1)
    with pytest.raises(TypeError):
        _search.ismcts(None, tree, 50, 0.0, 0.7, 1)  # type: ignore[arg-type]
    assert tree.capacity == 51        # reserved before the position was looked at
    _search.ismcts(game.new_state(seed=1), tree, 100, 0.0, 0.7, 1)
    assert tree.capacity == 101       # the same tree served again: it was not left busy


def test_one_tree_many_threads() -> None:
    game = boardcore.make("just4fun", players=3)
    state = game.new_state(seed=3)
    tree = _search.Tree()
    alone = _search.ismcts(state, _search.Tree(), 200, 0.0, 0.7, 9)
    results: list[object] = []
    errors: list[BaseException] = []

    def search() -> None:
        try:
            for _ in range(5):
                results.append(_search.ismcts(state, tree, 200, 0.0, 0.7, 9))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=search) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert results == [alone] * 30   # a busy tree is never shared: each search is whole
