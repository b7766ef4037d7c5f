"""Shared benchmark infrastructure for every game's ``bench/test_<game>.py``.

What a bench file gets from here:

* ``figures`` (fixture): records named figures for the table.  The name is prefixed
  with the game automatically, taken from the requesting module (``bench/test_<game>.py``
  -> ``<game>: ``), so never write the game into a name.  ``figures.record(name, value,
  unit, target=">= 3")`` stores one; ``figures.record_ratio(name, value, target,
  unit="x")`` is the same for ratios; ``figures.record_peer(name, value, unit)`` stores a
  peer's own figure under the neutral ``peer: `` prefix, once (the first record wins).
  Targets are strings ``">= X"`` or ``"<= X"`` (or ``None`` for an informational
  figure).  Nothing is recorded when benchmarks are disabled (``--benchmark-disable``:
  each body runs once, so its timings mean nothing).
* ``alternate`` (fixture, uses ``benchmark``): times several callables side by side,
  A, B, B, A, A, B, ... (the order flips every round so drift in machine load hits every
  side alike) and returns each side's median seconds per call.  Every ratio against a
  peer, or between two configurations, comes from one ``alternate`` call.
* ``median_seconds(benchmark)`` (fixture returning a function): the median of a plain
  pytest-benchmark measurement, or ``None`` when benchmarks are disabled.
* ``open_spiel`` / ``rlcard`` (fixtures): the peer module, or a clean skip when the
  bench extras (``pip install boardcore[bench]``) are not installed; ``connect_four`` /
  ``uno``: the peer games (``common.ConnectFour`` / ``common.Uno``), built once;
  ``pettingzoo`` / ``connect_four_v3`` / ``pgx``: the same for ``bench/test_rl.py``.
* ``session_cache`` (session fixture): a dict for what is measured once per session
  (the peer comparisons, see ``common.per_unit_jointly``; each game's call floor).
* ``process_pair`` (session fixture): two separate processes serving
  ``simulate(workers=1)`` (``common.ProcessPair``), for the threads-against-processes
  ratio.

The standard benchmarks every game runs are in ``common.py``.

The ``pytest_terminal_summary`` hook below prints every recorded figure as a table on
the last lines of the output (just above pytest's own ``N passed`` line).  Benchmarks
never assert on a timing: a figure that misses its target prints ``not met``, it does
not fail the run.  Every target of docs/performance.md whose test was collected has a
row, measured or not: ``not measured: pyspiel not installed`` when its peer is missing,
``not measured: its test did not finish`` when it failed or skipped.
"""

from __future__ import annotations

import importlib.util
import math
import os
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from common import Case, ConnectFour, ProcessPair, Target, Uno

import boardcore

# The repo root, so `tests.reference.<game>` (the pure-Python references) imports.
# Nothing under the root is named `boardcore`, so this cannot shadow the installed
# package.
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PEER = "peer"   # the group of the peers' own figures, shared by every game
_TARGET = re.compile(r"^\s*(>=|<=)\s*([0-9.eE+-]+)\s*$")


@dataclass
class Figure:
    group: str   # the game, or PEER
    name: str
    value: float
    unit: str
    target: str | None
    source: str
    missing: str | None = None   # why a target's figure was not measured

    def verdict(self) -> str:
        if self.missing is not None:
            return f"not measured: {self.missing}"
        if self.target is None:
            return "info"
        op, bound = _parse_target(self.target)
        if math.isnan(self.value):
            return "n/a"
        ok = self.value >= bound if op == ">=" else self.value <= bound
        return "met" if ok else "not met"


def _parse_target(target: str) -> tuple[str, float]:
    m = _TARGET.match(target)
    if m is None:
        raise ValueError(f"target must look like '>= 3' or '<= 0.25', not {target!r}")
    return m.group(1), float(m.group(2))


@dataclass
class Figures:
    """Session registry of named figures, printed by ``pytest_terminal_summary``."""

    enabled: bool
    rows: list[Figure] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    current_test: str = ""
    cpu_at_start: tuple[float, float, float] | None = None
    # Every game's targets whose tests were collected: the table lists each of them.
    expected: dict[str, list[Target]] = field(default_factory=dict)

    def unmeasured(self) -> list[Figure]:
        """A row for every expected target nobody recorded, saying why."""
        done = {(r.group, r.name) for r in self.rows}
        rows = []
        for game, targets in self.expected.items():
            for t in targets:
                if (game, t.name) in done:
                    continue
                why = ("its test did not finish" if t.peer is None
                       or importlib.util.find_spec(t.peer) is not None
                       else f"{t.peer} not installed")
                rows.append(Figure(game, t.name, math.nan, t.unit, t.target, t.test, why))
        return rows

    def record(self, group: str, name: str, value: float, unit: str,
               target: str | None = None, replace: bool = True) -> None:
        """Store figure ``name`` of ``group`` (a later record replaces it if ``replace``)."""
        if target is not None:
            _parse_target(target)  # fail early on a malformed target
        if not self.enabled:
            return
        same = [r for r in self.rows if (r.group, r.name) == (group, name)]
        if same and not replace:
            return
        self.rows = [r for r in self.rows if r not in same]
        self.rows.append(Figure(group, name, float(value), unit, target, self.current_test))

    def note(self, text: str) -> None:
        """A line printed under the table (e.g. why a peer group did not run)."""
        if text not in self.notes:
            self.notes.append(text)


@dataclass
class GameFigures:
    """A test's ``figures``: records under the game of the requesting module."""

    registry: Figures
    game: str

    def record(self, name: str, value: float, unit: str, target: str | None = None) -> None:
        """Store ``<game>: name`` (a later record of the same name replaces it)."""
        self.registry.record(self.game, name, value, unit, target)

    def record_ratio(self, name: str, value: float, target: str | None, unit: str = "x") -> None:
        """Store a ratio; ``target`` like ``">= 3"`` (or ``None``: informational)."""
        self.record(name, value, unit, target)

    def record_peer(self, name: str, value: float, unit: str) -> None:
        """Store a peer's own figure, ``peer: name``, once: the first record wins."""
        self.registry.record(PEER, name, value, unit, None, replace=False)

    def note(self, text: str) -> None:
        self.registry.note(text)


_FIGURES = pytest.StashKey[Figures]()


def _cpu_snapshot() -> tuple[float, float, float] | None:
    """(wall s, whole-machine busy CPU s, this process's CPU s), or None off Linux."""
    try:
        with open("/proc/stat") as f:
            ticks = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    hz = os.sysconf("SC_CLK_TCK")
    busy = (sum(ticks) - ticks[3] - (ticks[4] if len(ticks) > 4 else 0)) / hz
    own = time.process_time()
    return time.perf_counter(), busy, own


def _neighbours(start: tuple[float, float, float] | None) -> str:
    end = _cpu_snapshot()
    if start is None or end is None or end[0] <= start[0]:
        return f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs"
    others = ((end[1] - start[1]) - (end[2] - start[2])) / (end[0] - start[0])
    return f"other processes used {max(others, 0.0):.2f} of {os.cpu_count()} CPUs during the run"


def pytest_configure(config: pytest.Config) -> None:
    disabled = bool(
        config.getoption("benchmark_disable", False)
        and not config.getoption("benchmark_enable", False)
    )
    figs = Figures(enabled=not disabled)
    figs.cpu_at_start = _cpu_snapshot()
    config.stash[_FIGURES] = figs


def pytest_collection_finish(session: pytest.Session) -> None:
    """Note each game's targets whose tests will run (after -k and the like)."""
    expected = session.config.stash[_FIGURES].expected
    for item in session.items:
        case = getattr(getattr(item, "module", None), "CASE", None)
        name = getattr(item, "originalname", item.name)
        if not isinstance(case, Case):
            continue
        found = expected.setdefault(case.game, [])
        found.extend(t for t in case.targets() if t.test == name and t not in found)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    item.config.stash[_FIGURES].current_test = item.name


def _game_of(path: Path) -> str:
    """``bench/test_<game>.py`` -> ``<game>``."""
    if not path.stem.startswith("test_"):
        raise ValueError(f"a bench module is named test_<game>.py, not {path.name}")
    return path.stem[len("test_"):]


@pytest.fixture
def figures(request: pytest.FixtureRequest) -> GameFigures:
    return GameFigures(request.config.stash[_FIGURES], _game_of(request.path))


@pytest.fixture(scope="session")
def session_cache() -> dict[str, object]:
    """What is measured once per session, shared by every game's tests."""
    return {}


@pytest.fixture
def median_seconds() -> Callable[[object], float | None]:
    """Return a function: the median seconds per call of a finished ``benchmark``."""

    def get(benchmark: object) -> float | None:
        stats = getattr(benchmark, "stats", None)
        if getattr(benchmark, "disabled", False) or stats is None:
            return None
        return float(stats.stats.median)

    return get


@pytest.fixture
def alternate(benchmark: object) -> Callable[..., dict[str, float] | None]:
    """Time callables side by side; return ``{name: median seconds per call}``.

    ``alternate({"ours": f, "peer": g}, rounds=7)`` runs one warm-up round, then
    ``rounds`` rounds; each round calls every side once, in an order that is reversed
    every other round (A B, B A, A B, ...).  The whole thing runs under
    ``benchmark.pedantic`` so ``--benchmark-only`` keeps the test and
    ``--benchmark-disable`` calls each side once (and the result is ``None``).  The
    pytest-benchmark row of such a test is the time of one full round (all sides); the
    per-side medians and their ratios go into ``benchmark.extra_info`` and the figures
    table.
    """

    def run(sides: dict[str, Callable[[], object]], rounds: int = 7) -> dict[str, float] | None:
        names = list(sides)
        times: dict[str, list[float]] = {n: [] for n in names}
        flip = [False]

        def one_round() -> None:
            order = names[::-1] if flip[0] else names
            flip[0] = not flip[0]
            for n in order:
                fn = sides[n]
                t0 = time.perf_counter()
                fn()
                times[n].append(time.perf_counter() - t0)

        bench = benchmark  # type: ignore[assignment]
        bench.pedantic(one_round, rounds=rounds, iterations=1, warmup_rounds=1)  # type: ignore[attr-defined]
        if getattr(bench, "disabled", False):
            return None
        # pedantic's warm-up round also went through one_round: drop it.
        medians = {n: statistics.median(t[1:]) for n, t in times.items()}
        bench.extra_info.update({f"median_s[{n}]": v for n, v in medians.items()})  # type: ignore[attr-defined]
        return medians

    return run


def _peer(name: str, figures: Figures, what: str) -> object:
    try:
        return pytest.importorskip(name, exc_type=ImportError)
    except pytest.skip.Exception:
        figures.note(
            f"{what} not installed (pip install boardcore[bench]): its ratios were not measured")
        raise


@pytest.fixture(scope="session")
def open_spiel(pytestconfig: pytest.Config) -> object:
    """The ``pyspiel`` module (OpenSpiel), or skip the test."""
    return _peer("pyspiel", pytestconfig.stash[_FIGURES], "OpenSpiel (open-spiel)")


@pytest.fixture(scope="session")
def rlcard(pytestconfig: pytest.Config) -> object:
    """The ``rlcard`` module, or skip the test."""
    return _peer("rlcard", pytestconfig.stash[_FIGURES], "RLCard (rlcard)")


@pytest.fixture(scope="session")
def pettingzoo(pytestconfig: pytest.Config) -> object:
    """The ``pettingzoo`` module, or skip the test (bench/test_rl.py)."""
    return _peer("pettingzoo", pytestconfig.stash[_FIGURES], "PettingZoo (pettingzoo)")


@pytest.fixture(scope="session")
def connect_four_v3(pytestconfig: pytest.Config) -> object:
    """PettingZoo's ``connect_four_v3`` module (it imports pygame), or skip the test."""
    return _peer("pettingzoo.classic.connect_four_v3", pytestconfig.stash[_FIGURES],
                 "PettingZoo connect_four_v3 (pettingzoo and pygame)")


@pytest.fixture(scope="session")
def pgx(pytestconfig: pytest.Config) -> object:
    """The ``pgx`` module (with JAX on CPU), or skip the test (bench/test_rl.py)."""
    _peer("jax", pytestconfig.stash[_FIGURES], "JAX (jax)")
    return _peer("pgx", pytestconfig.stash[_FIGURES], "pgx")


@pytest.fixture(scope="session")
def process_pair() -> Iterator[ProcessPair]:
    """Two separate processes serving ``simulate(workers=1)`` (one pair per session)."""
    pair = ProcessPair()
    yield pair
    pair.close()


@pytest.fixture(scope="session")
def connect_four(open_spiel: object) -> ConnectFour:
    """OpenSpiel ``connect_four``, its start and mid-game states (one per session)."""
    return ConnectFour(open_spiel)


@pytest.fixture(scope="session")
def uno(rlcard: object) -> Uno:
    """RLCard's ``uno`` environment (one per session)."""
    return Uno(rlcard)


# ---------------------------------------------------------------------------------
# The table, on the last lines.
# ---------------------------------------------------------------------------------


def _fmt(value: float, unit: str) -> str:
    if math.isnan(value):
        return "n/a"
    if unit == "x":   # four digits: 2.996x must not read as a met ">= 3"
        return f"{value:.4g}x" if value < 1000 else f"{value:,.0f}x"
    for scale, prefix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= scale and not unit.startswith(("ns", "us", "ms", "s")):
            return f"{value / scale:.3g} {prefix}{unit}"
    return f"{value:.3g} {unit}"


def _fmt_target(target: str | None, unit: str) -> str:
    if target is None:
        return "-"
    op, bound = _parse_target(target)
    return f"{op} {_fmt(bound, unit)}"


def _group_order(group: str) -> tuple[int, int, str]:
    """The games in ``boardcore.GAMES`` order, then any other group, the peers last."""
    if group in boardcore.GAMES:
        return 0, boardcore.GAMES.index(group), group
    return (2 if group == PEER else 1), 0, group


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_terminal_summary(terminalreporter, exitstatus, config):  # type: ignore[no-untyped-def]
    # Outermost wrapper: runs after pytest-benchmark's tables and pytest's short test
    # summary, so the figures are the last thing before the final "N passed" line.
    result = yield
    figs: Figures = config.stash[_FIGURES]
    tr = terminalreporter
    if not figs.enabled:
        tr.write_sep("=", "boardcore bench: benchmarks disabled (smoke run), no figures")
        return result
    every = figs.rows + figs.unmeasured()
    if not every and not figs.notes:
        return result
    tr.write_sep("=", "boardcore bench figures (medians; ratios from alternated runs)")
    headers = ("figure", "measured", "target", "verdict")
    rows = sorted(every, key=lambda r: _group_order(r.group))   # stable: record order
    body = [(f"{r.group}: {r.name}", _fmt(r.value, r.unit), _fmt_target(r.target, r.unit),
             r.verdict()) for r in rows]
    widths = [max(len(h), *(len(row[i]) for row in body)) if body else len(h)
              for i, h in enumerate(headers)]
    tr.write_line("  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip())
    for i, row in enumerate(body):
        if i == 0 or rows[i].group != rows[i - 1].group:
            tr.write_line("  ".join("-" * w for w in widths))
        verdict = row[3]
        text = "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip()
        tr.write_line(text, red=verdict != "met" and verdict != "info", green=verdict == "met")
    met = sum(r.verdict() == "met" for r in every)
    targets = sum(r.target is not None for r in every)
    for note in figs.notes:
        tr.write_line(f"note: {note}")
    tr.write_line(f"{_neighbours(figs.cpu_at_start)} (above ~0.2, distrust the figures)")
    tr.write_line(f"targets met: {met}/{targets} (timings never fail the run)")
    return result

