"""The seed streams: one table in ``_rng.pxd``, the same in the docs, used by name."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from boardcore._engine import _random

ROOT = Path(__file__).resolve().parent.parent


def _declared() -> dict[str, int]:
    """The ``STREAM_*`` enum of ``_rng.pxd``, by name."""
    text = (ROOT / "src" / "engine" / "_rng.pxd").read_text(encoding="utf-8")
    return {m[1]: int(m[2]) for m in re.finditer(r"^\s+(STREAM_\w+) = (\d+)", text, re.M)}


def test_every_stream_has_one_number_and_python_sees_it() -> None:
    declared = _declared()
    assert len(declared) >= 7
    assert len(set(declared.values())) == len(declared)     # never two uses on one number
    exported = {name: getattr(_random, name) for name in dir(_random)
                if name.startswith("STREAM_")}
    assert exported == declared


def test_the_documented_table_is_the_declared_one() -> None:
    text = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \| `(STREAM_\w+)` \|", text, re.M)
    assert {name: int(number) for number, name in rows} == _declared()


def test_no_caller_writes_a_stream_as_a_number() -> None:
    """Every derive_seed call of the package names its stream.

    Docs and tests may write the numbers: they are the contract.
    """
    calls = []
    for path in (ROOT / "src").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "derive_seed"
                    and len(node.args) > 1 and isinstance(node.args[1], ast.Constant)):
                calls.append((path.name, node.lineno))
    for path in [*(ROOT / "src").rglob("*.pyx"), *(ROOT / "src").rglob("*.pxi")]:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "``" not in line and re.search(r"derive_seed\([^,()]+, *\d", line):
                calls.append((path.name, n))
    assert calls == []


def test_the_streams_are_the_recorded_ones() -> None:
    """The numbers are a contract: recorded games replay from them."""
    assert (_random.STREAM_GAME, _random.STREAM_PLAYER, _random.STREAM_DECISION,
            _random.STREAM_EPISODE, _random.STREAM_OPPONENTS, _random.STREAM_ARENA_SEAT,
            _random.STREAM_PLAY_SEAT, _random.STREAM_RESAMPLE,
            _random.STREAM_LADDER_TABLE) == (0, 1, 2, 4, 5, 6, 7, 8, 9)
