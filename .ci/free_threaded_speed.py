"""What a second thread buys, per game: ``simulate(workers=2)`` and two IS-MCTS searches.

Run by ``make prove-free-threaded`` (``.ci/free_threaded.sh``) on a free-threaded
interpreter, works on any.  Each figure is the best of three wall-clock runs (the
machine is shared: the best is the least disturbed); the speed-up is one thread's time
over two threads' time for the same work, so 2.0 is perfect on two cores.

- simulate: ``simulate(game, GAMES, seed=1, workers=1)`` against ``workers=2``;
- IS-MCTS: two searches of ``ITERATIONS`` iterations (each its own agent and position
  copy) one after the other in one thread, against one in each of two threads.
"""

from __future__ import annotations

import sys
import sysconfig
import threading
import time
from collections.abc import Callable

import boardcore
from boardcore.agents import ISMCTSAgent

PLAYERS = {"just4fun": 2, "three_or_more": 2, "fool": 4, "rummikub_junior": 3}
GAMES = {"just4fun": 200_000, "three_or_more": 100_000, "fool": 50_000, "rummikub_junior": 200_000}
ITERATIONS = 100_000


def best(work: Callable[[], object], runs: int = 3) -> float:
    """The least wall-clock time of ``runs`` calls of ``work``."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def in_threads(jobs: list[Callable[[], object]]) -> None:
    """Run every job in a thread of its own; wait for all."""
    threads = [threading.Thread(target=job) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def rows(game: str, players: int) -> list[tuple[str, float, float]]:
    """(work, one thread's seconds, two threads' seconds) for ``game``."""
    config = boardcore.make(game, players=players)
    n = GAMES[game]
    state = config.new_state(seed=1)

    def search(seed: int) -> Callable[[], object]:
        return lambda: ISMCTSAgent(iterations=ITERATIONS, seed=seed).visits(state.copy())

    return [
        (f"simulate {n:,} games",
         best(lambda: boardcore.simulate(config, n, seed=1, workers=1)),
         best(lambda: boardcore.simulate(config, n, seed=1, workers=2))),
        (f"IS-MCTS 2 x {ITERATIONS:,} iterations",
         best(lambda: [search(s)() for s in (1, 2)]),
         best(lambda: in_threads([search(1), search(2)]))),
    ]


def main() -> None:
    """Print one row per game and kind of work."""
    gil = getattr(sys, "_is_gil_enabled", lambda: True)()
    print(f"{sys.version.split()[0]} Py_GIL_DISABLED={sysconfig.get_config_var('Py_GIL_DISABLED')}"
          f" GIL {'on' if gil else 'off'}")
    print(f"{'game':16} {'work':28} {'1 thread s':>10} {'2 threads s':>11} {'speed-up':>8}")
    for game, players in PLAYERS.items():
        for work, one, two in rows(game, players):
            print(f"{game:16} {work:28} {one:10.2f} {two:11.2f} {one / two:8.2f}")


if __name__ == "__main__":
    main()
