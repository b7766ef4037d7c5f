"""Typed to the last call: what a user's ``mypy --strict`` sees of every game.

For every game, every public member of its configuration, its state and its view is
revealed in a consumer file and none may be ``Any``; the mistakes a user makes are
reported; and the stubs match the compiled modules (stubtest).  All run against the
installed package (``make test`` installs the wheel first).
"""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pytest

import boardcore

# Arguments for the members that take some: enough to call each one once.
ARGUMENTS = {
    "apply": "state.legal_actions()[0]",
    "action_to_str": "0",
    "parse_action": "'x'",
    "view": "0",
    "rollout": "1",
    "new_state": "1",
    "state_from_dict": "state.to_dict()",
    "__deepcopy__": "{}",
    "explain": "state.legal_actions()[0]",
    "observation": "0",
    "text": "0",
    "svg": "",
}
# The game's side of a position: each takes the state's snapshot.
GAME_ARGUMENTS = {
    "view": "state.snapshot(), 0",
    "fields": "state.snapshot()",
    "text": "state.snapshot(), None",
    "action_to_str": "state.snapshot(), 0",
    "parse_action": "state.snapshot(), 'x'",
    "explain": "state.snapshot(), state.snapshot(), 0, played=True",
    "draw": "state.snapshot(), None, None",
    "reveals": "state.snapshot(), state.snapshot()",
}
# Members whose revealed type may mention numpy's own ``Any`` (its shape parameter).
NUMPY_ANY = re.compile(r"ndarray\[tuple\[Any, \.\.\.\]")


def _members(obj: object) -> list[str]:
    return sorted(n for n in dir(obj) if not n.startswith("_") or n in ARGUMENTS)


def _consumer(name: str) -> tuple[str, list[str]]:
    """Return a consumer that reveals every public member of game ``name``, and the labels."""
    game = boardcore.make(name, players=type(boardcore.make(name, players=4)).min_players)
    state = game.new_state(seed=1)
    view = state.view(0)
    lines = [
        "import boardcore",
        f"game = boardcore.make({name!r}, players={game.num_players})",
        "state = game.new_state(seed=1)",
        "view = state.view(0)",
        "snapshot = state.snapshot()",
        "reveal_type(game)",
        "reveal_type(state)",
        "reveal_type(view)",
        "reveal_type(snapshot)",
    ]
    labels = ["make", "new_state", "view", "snapshot"]
    for var, obj, arguments in (("game", game, {**ARGUMENTS, **GAME_ARGUMENTS}),
                                ("state", state, ARGUMENTS)):
        for member in _members(obj):
            if member in ("__deepcopy__",) and var == "game":
                continue
            attr = getattr(obj, member)
            expr = f"{var}.{member}"
            if callable(attr) and not isinstance(attr, type):
                expr += f"({arguments.get(member, '')})"
            lines.append(f"reveal_type({expr})")
            labels.append(f"{name}: {var}.{member}")
    for var, value in (("view", view), ("snapshot", state.snapshot())):
        for f in dataclasses.fields(value):
            lines.append(f"reveal_type({var}.{f.name})")
            labels.append(f"{name}: {var}.{f.name}")
    return "\n".join(lines) + "\n", labels


MODULE_CONSUMER = """
import boardcore
for name in boardcore.GAMES:
    reveal_type(boardcore.make(name, players=4))
g = boardcore.make("fool", players=4)
result = boardcore.simulate(g, 10, seed=1)
reveal_type(result)
reveal_type(result.scores)
reveal_type(result.stats)
reveal_type(boardcore.record(g.new_state(seed=1)))
reveal_type(boardcore.replay(boardcore.record(g.new_state(seed=1))))
reveal_type(g.new_state(seed=1).rollout(seed=2).winners)
"""

# Each line is a mistake mypy --strict must report.
MISTAKES = [
    'boardcore.make("just4fun", players=2).new_state(seed=1).aply(3)',
    'boardcore.make("just4fun", players=2).new_state(seed=1).apply("3")',
    'boardcore.make("just5fun", players=2)',
    'boardcore.make("just4fun", players=2, layot="classic")',
    'boardcore.make("fool", players=4).new_state(seed=1).view("0")',
    'boardcore.make("rummikub_junior", players=2).new_state(seed="1")',
    'boardcore.make("three_or_more", players=2).new_state(seed=1).parse_action(3)',
    'x: int = boardcore.make("fool", players=4).new_state(seed=1).current_player',
]


def _mypy(tmp_path: Path, files: dict[str, str]) -> str:
    pytest.importorskip("mypy")
    for file, text in files.items():
        (tmp_path / file).write_text(text)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir",
         str(tmp_path / "cache"), "--no-error-summary", *files],
        check=False, capture_output=True, text=True, cwd=tmp_path,
    )
    return done.stdout + done.stderr


def test_no_public_member_of_any_game_is_any(tmp_path: Path) -> None:
    files, labels = {}, {}
    for name in boardcore.GAMES:
        text, names = _consumer(name)
        files[f"consumer_{name}.py"] = text
        labels[f"consumer_{name}.py"] = names
    files["consumer_module.py"] = MODULE_CONSUMER
    out = _mypy(tmp_path, files)
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert not errors, "\n".join(errors)
    revealed: dict[str, list[str]] = {}
    for line in out.splitlines():
        match = re.match(r"(consumer_\w+\.py):\d+: note: Revealed type is \"(.*)\"$", line)
        if match:
            revealed.setdefault(match.group(1), []).append(match.group(2))
    for file, names in labels.items():
        assert len(revealed[file]) == len(names), file
        for label, shown in zip(names, revealed[file]):
            assert "Any" not in NUMPY_ANY.sub("", shown), f"{label} is {shown}"
    assert all("Any" not in NUMPY_ANY.sub("", t) for t in revealed["consumer_module.py"]), \
        revealed["consumer_module.py"]


def test_mistakes_are_reported(tmp_path: Path) -> None:
    text = "import boardcore\n" + "\n".join(MISTAKES) + "\n"
    out = _mypy(tmp_path, {"mistakes.py": text})
    reported = {int(m.group(1)) for m in re.finditer(r"mistakes\.py:(\d+): error", out)}
    missed = [m for i, m in enumerate(MISTAKES, start=2) if i not in reported]
    assert not missed, f"mypy --strict accepted: {missed}\n{out}"


def test_stubs_match_the_compiled_modules(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    modules = ["boardcore._engine._random", "boardcore._engine._state",
               "boardcore._engine._summary",
               *(f"boardcore._engine.{name}" for name in boardcore.GAMES)]
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", *modules],
        check=False, capture_output=True, text=True, cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
