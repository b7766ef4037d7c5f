"""Free-threaded Python: importing boardcore keeps the GIL off; an agent shared by threads.

Every compiled module declares free-threading support (``setup.py``); on a free-threaded
interpreter (3.14t, the ``cp314t`` wheels) importing them must not turn the GIL back on
(the RuntimeWarning it would raise is an error under this suite's settings, too).  The
memory an agent keeps between decisions is handed from decision to decision through a
flag taken and released inside a critical section: a failed decision must release it.
"""

from __future__ import annotations

import importlib
import sys
import sysconfig
import threading

import pytest

import boardcore
from boardcore._engine import _search
from boardcore.errors import IllegalActionError

MODULES = ["_state", "_search", "_summary", "_vector", "_random", "_cyutility",
           *boardcore.GAMES]


@pytest.mark.skipif(not sysconfig.get_config_var("Py_GIL_DISABLED"),
                    reason="a free-threaded interpreter (3.13t, 3.14t) only")
def test_importing_every_module_keeps_the_gil_off() -> None:
    for name in MODULES:
        importlib.import_module(f"boardcore._engine.{name}")
    assert not sys._is_gil_enabled()  # type: ignore[attr-defined]


def test_a_failed_search_releases_its_memory() -> None:
    game = boardcore.make("just4fun", players=2)
    over = game.new_state(seed=1)
    over.rollout(seed=1)
    searcher = _search.Searcher("ismcts", 50, None, 0.7, 1)
    with pytest.raises(IllegalActionError, match="game is over"):
        searcher.act(over)
    with pytest.raises(TypeError):
        searcher.act(None)
    assert searcher.work.capacity == 51     # fitted before the position was looked at
    assert not searcher.work.busy and searcher.decisions == 0
    searcher.act(game.new_state(seed=1))
    assert not searcher.work.busy and searcher.decisions == 1


def test_one_searcher_many_threads() -> None:
    """Decisions of one searcher from many threads: each whole, in its own memory."""
    game = boardcore.make("just4fun", players=3)
    state = game.new_state(seed=3)
    alone = _search.Searcher("ismcts", 200, None, 0.7, 9)
    expected = [alone.values(state) for _ in range(30)]
    searcher = _search.Searcher("ismcts", 200, None, 0.7, 9)
    results: list[object] = []
    errors: list[BaseException] = []

    def search() -> None:
        try:
            for _ in range(5):
                results.append(searcher.values(state))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=search) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    # Each decision took its own number: together they are the 30 decisions made alone.
    assert sorted(map(repr, results)) == sorted(map(repr, expected))
    assert searcher.decisions == 30
