"""Memory stays flat as the number of games grows (docs/performance.md, "scaling").

Each measurement runs in a fresh interpreter (``python -m tests.test_memory``), so that
nothing else of the test session shows in its peak RSS: it plays ``N`` games, reads its
peak RSS, plays up to ``4N`` and reads it again.  The growth between the two readings,
less what the results themselves hold (``simulate`` returns arrays of one row per game),
must stay under ``BOUND_KIB``: generous against the allocator's noise, yet a leak of one
small object per move (a legal-actions list, say) passes it several times over, as
``test_a_leak_shows`` checks.  The bench measures the same at 100,000 and a million
games (``bench/``, figures ``memory: ...``).  No timing is asserted here.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import boardcore
from boardcore._registry import CLASSES

ROOT = Path(__file__).resolve().parents[1]
BOUND_KIB = 4096
#: Every game, at its fewest seats.
PLAYERS = {cls.name: cls.min_players for cls in CLASSES}
#: The quick test's first count (N) of Python-driven moves, about, in every game.
PYTHON_MOVES = 30_000
SIMULATE_GAMES = 8192


def _reset_peak() -> None:
    # Linux: start the peak (VmHWM) again from here, so that the import's own transient
    # peak does not hide what the games add.  Elsewhere the peak stays the process's.
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def _peak_kib() -> int:
    """This process's peak resident memory in KiB.

    VmHWM on Linux, the peak working set on Windows, getrusage's ru_maxrss elsewhere.
    """
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    if sys.platform == "win32":
        return _windows_peak_kib()
    import resource  # POSIX only: imported here, so that Windows collects this module

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak   # macOS counts bytes


def _windows_peak_kib() -> int:
    import ctypes

    class Counters(ctypes.Structure):   # PROCESS_MEMORY_COUNTERS
        _fields_ = [("cb", ctypes.c_uint32), ("page_faults", ctypes.c_uint32),
                    *((name, ctypes.c_size_t) for name in (
                        "peak_working_set", "working_set", "peak_paged_pool", "paged_pool",
                        "peak_nonpaged_pool", "nonpaged_pool", "pagefile", "peak_pagefile"))]

    counters = Counters(cb=ctypes.sizeof(Counters))
    kernel32 = ctypes.windll.kernel32
    if not kernel32.K32GetProcessMemoryInfo(kernel32.GetCurrentProcess(),
                                            ctypes.byref(counters), counters.cb):
        raise OSError("GetProcessMemoryInfo failed")
    return int(counters.peak_working_set) // 1024


def _python_games(state: Any, games: int, rnd: random.Random,
                  keep: list[object] | None) -> None:
    choice = rnd.choice
    for _ in range(games):
        s = state.copy()
        while not s.is_over():
            legal = s.legal_actions()
            if keep is not None:
                keep.append(legal)
            s.apply(choice(legal))


def probe(game: str, players: int, mode: str, counts: list[int]) -> list[dict[str, int]]:
    """Peak RSS (KiB) after each count of games, and the bytes the results hold.

    ``mode``: ``"python"`` plays the counts as one growing run of Python-driven games
    (``legal_actions``, ``random.choice``, ``apply``, ``is_over``); ``"leak"`` does the
    same but keeps every legal-actions list, a leak on purpose; ``"simulate"`` calls
    ``simulate`` once per count, dropping each result before the next.
    """
    config = boardcore.make(game, players=players)
    start = config.new_state(seed=1)
    rnd = random.Random(1)
    keep: list[object] | None = [] if mode == "leak" else None
    played = 0
    rows = []
    _reset_peak()
    for count in counts:
        held = 0
        if mode == "simulate":
            r = boardcore.simulate(config, count, seed=1, workers=1)
            # What simulate holds at its peak: its working arrays (scores and lengths
            # are returned as they are; winners and stats are returned as copies).
            held = (r.scores.nbytes + 2 * r.winners.nbytes + r.lengths.nbytes
                    + 8 * count * max(1, len(r.stats)) + sum(v.nbytes for v in r.stats.values()))
            del r
        else:
            _python_games(start, count - played, rnd, keep)
            played = count
        rows.append({"games": count, "peak_kib": _peak_kib(), "held": held})
    return rows


def start_probe(game: str, players: int, mode: str, counts: list[int]) -> subprocess.Popen[str]:
    """Start ``probe`` in a fresh interpreter (from the repository root)."""
    return subprocess.Popen(
        [sys.executable, "-m", "tests.test_memory", game, str(players), mode,
         *map(str, counts)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def probe_rows(proc: subprocess.Popen[str]) -> list[dict[str, int]]:
    """The rows of a probe started by ``start_probe``."""
    out, err = proc.communicate(timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"the memory probe failed ({proc.returncode}): {err}")
    rows: list[dict[str, int]] = json.loads(out)
    return rows


def run_probe(game: str, players: int, mode: str, counts: list[int]) -> list[dict[str, int]]:
    """``probe`` in a fresh interpreter; its rows."""
    return probe_rows(start_probe(game, players, mode, counts))


def growth_kib(rows: list[dict[str, int]]) -> float:
    """Peak RSS growth from the first count to the last, less the results' own growth."""
    first, last = rows[0], rows[-1]
    return last["peak_kib"] - first["peak_kib"] - (last["held"] - first["held"]) / 1024


def _first_count(game: str, mode: str) -> int:
    if mode == "simulate":
        return SIMULATE_GAMES
    # The games of about PYTHON_MOVES moves: 20 seeded games give the mean length.
    config = boardcore.make(game, players=PLAYERS[game])
    moves = 0
    for seed in range(20):
        state = config.new_state(seed=seed)
        state.rollout(seed=seed)
        moves += len(state.history())
    return max(1, PYTHON_MOVES * 20 // moves)


def _under_wine() -> bool:
    """Whether this is a Windows Python under Wine (ntdll then exports wine_get_version)."""
    if sys.platform != "win32":
        return False
    import ctypes

    return hasattr(ctypes.windll.ntdll, "wine_get_version")


@pytest.fixture(scope="module")
def probes() -> Iterator[dict[tuple[str, str], subprocess.Popen[str]]]:
    """Every probe of this module, started at once (they take a core each).

    A probe no selected test reads (``pytest -k``) is stopped and its pipes closed at the
    end, so that no running process or open pipe is left to the garbage collector.
    """
    if _under_wine():   # (make test-windows) its peak stays put: even the leak reads flat
        pytest.skip("Wine's peak working set does not follow the process's allocations")
    runs = [(g, m) for g in PLAYERS for m in ("python", "simulate")] + [("just4fun", "leak")]
    started = {(g, m): start_probe(g, PLAYERS[g], m,
                                   [_first_count(g, m), 4 * _first_count(g, m)])
               for g, m in runs}
    yield started
    for proc in started.values():
        if proc.stdout is not None and not proc.stdout.closed:
            proc.kill()
            proc.communicate()


@pytest.mark.parametrize("game", list(PLAYERS))
@pytest.mark.parametrize("mode", ["python", "simulate"])
def test_memory_flat(probes: dict[tuple[str, str], subprocess.Popen[str]], game: str,
                     mode: str) -> None:
    rows = probe_rows(probes[game, mode])
    grew = growth_kib(rows)
    assert grew < BOUND_KIB, f"{game}, {mode}: peak RSS grew {grew:.0f} KiB: {rows}"


def test_a_leak_shows(probes: dict[tuple[str, str], subprocess.Popen[str]]) -> None:
    # The bound is tight enough to catch a leak of one list per move.
    assert growth_kib(probe_rows(probes["just4fun", "leak"])) > BOUND_KIB


def test_collected_where_there_is_no_resource_module() -> None:
    # Windows has no `resource`: this module must import there (and measure all the same).
    code = "import sys; sys.modules['resource'] = None; import tests.test_memory"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr


if __name__ == "__main__":
    print(json.dumps(probe(sys.argv[1], int(sys.argv[2]), sys.argv[3],
                           [int(c) for c in sys.argv[4:]])))
