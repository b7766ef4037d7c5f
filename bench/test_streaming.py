"""The streaming summary (``simulate(keep="summary")``): as fast as keeping rows, flat memory.

Run:   pytest bench/test_streaming.py --benchmark-only
Smoke: pytest bench --benchmark-disable               (each body once, as CI does)

* ``<game> summary / rows games/s`` (>= 0.95): the same seeded games with
  ``keep="summary"`` (each worker counts its games in compiled code) against
  ``keep="rows"`` (one row per game into numpy arrays), one worker, alternated.
* ``peak RSS growth, 1e5 -> 1e7 games`` (<= 16 MiB): the peak RSS of a streaming run of
  10^7 Just4Fun games over that of 10^5 games, each in a fresh interpreter
  (``memory_probe``: the peak is reset after the imports, so it is what the run adds).
  With rows the 10^7 games would hold about 440 MB.

Figures are named ``streaming: ...``; nothing asserts on a timing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import boardcore

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = {"just4fun": 2, "three_or_more": 2, "fool": 4, "rummikub_junior": 3}
# Games per side of a round: about a tenth of a second to half a second each.
GAMES = {"just4fun": 64 * 1024, "three_or_more": 32 * 1024, "fool": 8 * 1024,
         "rummikub_junior": 8 * 1024}
MEMORY_COUNTS = (10**5, 10**7)
MEMORY_SMOKE = (10**3, 10**4)
MEMORY_TARGET_MIB = 16

# Peak RSS (KiB) of one streaming run in this fresh interpreter, beyond its imports (and,
# with Ray, beyond connecting and a first small batch): argv game players games backend.
PROBE = """\
import json, sys
import boardcore
from tests.test_memory import _peak_kib, _reset_peak
game, players, games, backend = sys.argv[1:]
config = boardcore.make(game, players=int(players))
boardcore.simulate(config, 4096, seed=2, keep="summary", backend=backend)
_reset_peak()
summary = boardcore.simulate(config, int(games), seed=1, keep="summary", backend=backend,
                             workers=2 if backend == "threads" else 1)
assert summary.games == int(games)
print(json.dumps({"peak_kib": _peak_kib(), "seconds": summary.seconds}))
"""


def memory_probe(game: str, games: int, backend: str = "threads",
                 env: dict[str, str] | None = None) -> dict[str, float]:
    """Peak RSS (KiB) and seconds of a ``keep="summary"`` run in a fresh interpreter."""
    done = subprocess.run([sys.executable, "-c", PROBE, game, str(PLAYERS[game]), str(games),
                           backend], cwd=ROOT, capture_output=True, text=True, env=env,
                          timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(f"the memory probe failed ({done.returncode}): {done.stderr}")
    result: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return result


@pytest.mark.parametrize("game", list(PLAYERS))
@pytest.mark.benchmark(group="streaming")
def test_summary_vs_rows(game, figures, alternate):
    config = boardcore.make(game, players=PLAYERS[game])
    games = GAMES[game]
    rows = boardcore.simulate(config, games, seed=1)
    summary = boardcore.simulate(config, games, seed=1, keep="summary")
    assert summary == boardcore.SimulationSummary.from_result(rows)   # the same games
    m = alternate({
        "rows": lambda: boardcore.simulate(config, games, seed=1),
        "summary": lambda: boardcore.simulate(config, games, seed=1, keep="summary"),
    }, rounds=7)
    if m is None:
        return
    figures.record(f"{game} simulate(keep='summary'), 1 worker", games / m["summary"],
                   "games/s")
    figures.record_ratio(f"{game} summary / rows games/s", m["rows"] / m["summary"], ">= 0.95")


@pytest.mark.benchmark(group="streaming")
def test_memory_flat(benchmark, figures):
    small, large = MEMORY_SMOKE if benchmark.disabled else MEMORY_COUNTS
    runs = benchmark.pedantic(lambda: [memory_probe("just4fun", n) for n in (small, large)],
                              rounds=1, iterations=1)
    if benchmark.disabled:
        return
    figures.record(f"peak RSS of a streaming run, {large:,} games", runs[1]["peak_kib"] / 1024,
                   "MiB")
    figures.record(f"peak RSS growth, {small:,} -> {large:,} games",
                   (runs[1]["peak_kib"] - runs[0]["peak_kib"]) / 1024, "MiB",
                   f"<= {MEMORY_TARGET_MIB}")
    figures.record(f"streaming {large:,} just4fun games, workers=2",
                   large / runs[1]["seconds"], "games/s")
