"""mypy --strict accepts a small consumer of the installed package (stubs and py.typed)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CONSUMER = '''
import boardcore
from boardcore import Outcome, SimulationResult
from boardcore.just4fun import Just4Fun, Just4FunState, Just4FunView

game: boardcore.Game = boardcore.make("just4fun", players=3)
j4f = Just4Fun(players=2, layout="random")
state: Just4FunState = j4f.new_state(seed=1)
actions: list[int] = state.legal_actions()
state.apply(actions[0])
text: str = state.action_to_str(state.parse_action("exchange"))
view: Just4FunView = state.view(0)
hand: tuple[int, ...] = view.hand
copy: Just4FunState = state.copy()
outcome: Outcome = copy.rollout(seed=3)
winners: frozenset[int] = outcome.winners
result: SimulationResult = boardcore.simulate(game, 10, seed=1)
total: int = int(result.scores.sum())
record: dict[str, object] = boardcore.record(state)
again = boardcore.replay(record)
player: int | None = state.current_player
'''


def test_mypy_strict_consumer(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    (tmp_path / "consumer.py").write_text(CONSUMER)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental",
         "--cache-dir", str(tmp_path / "cache"), str(tmp_path / "consumer.py")],
        check=False, capture_output=True, text=True, cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    shutil.rmtree(tmp_path / "cache", ignore_errors=True)
