"""The stubs are the compiled modules, and mypy --strict accepts consumers of every game.

Both checks run against the installed package (stubs, ``py.typed``); ``make test``
installs the wheel first.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import boardcore
import pytest

CONSUMERS = {
    "common": '''
import boardcore
from boardcore import Outcome, SimulationResult

game: boardcore.Game = boardcore.make("just4fun", players=3)
result: SimulationResult = boardcore.simulate(game, 10, seed=1, workers=2)
total: int = int(result.scores.sum())
ends: dict[str, int] = {k: int(v.sum()) for k, v in result.stats.items()}
record: dict[str, object] = boardcore.record(game.new_state(seed=1))
again = boardcore.replay(record)
names: tuple[str, ...] = boardcore.GAMES
''',
    "just4fun": '''
from boardcore import Outcome
from boardcore.just4fun import Just4Fun, Just4FunState, Just4FunView

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
player: int | None = state.current_player
''',
    "three_or_more": '''
from typing_extensions import assert_type

import boardcore
from boardcore.three_or_more import (
    DEFAULT_DECK, MoveScore, ScoredLine, ThreeOrMore, ThreeOrMoreState, ThreeOrMoreView,
)

game = ThreeOrMore(players=3, allow_rotation=True, deck=list(DEFAULT_DECK))
state: ThreeOrMoreState = game.new_state(seed=1)
state.apply(state.parse_action(state.action_to_str(state.legal_actions()[0])))
last: MoveScore | None = state.last_breakdown()
lines: tuple[ScoredLine, ...] = () if last is None else last.lines
view: ThreeOrMoreView = state.view(0)
grid: tuple[str, ...] = view.grid
twin: ThreeOrMoreState = state.copy()
winners: frozenset[int] = twin.rollout(seed=2).winners
same: ThreeOrMoreState = game.state_from_dict(state.to_dict())
total: int = int(boardcore.simulate(game, 4, seed=3).stats["best_move"].sum())
assert_type(game.new_state(seed=5), ThreeOrMoreState)
assert_type(game.state_from_dict(state.to_dict()).scores(), tuple[int, ...])
''',
    "fool": '''
import boardcore
from boardcore import Outcome
from boardcore.fool import DECKS, Fool, FoolState, FoolView

game: Fool = Fool(players=7, deck=(9, 9, 9, 9, 3), start_player=2)
state: FoolState = game.new_state(seed=1)
legal: list[int] = state.legal_actions()
state.apply(legal[0])
card: int = state.parse_action("W1")
text: str = state.action_to_str(card)
view: FoolView = state.view(0)
trick: tuple[tuple[int, int], ...] = view.trick
colour: str | None = view.lead_colour
deck: tuple[int, int, int, int, int] = game.deck
default: tuple[int, int, int, int, int] = DECKS[4]
twin: FoolState = state.copy()
outcome: Outcome = twin.rollout(seed=3)
rounds: int = int(boardcore.simulate(game, 10, seed=1).stats["rounds"].max())
data: dict[str, object] = state.to_dict()
again: FoolState = game.state_from_dict(state.to_dict())
''',
    "rummikub_junior": '''
from __future__ import annotations

import boardcore
from boardcore.protocol import Outcome
from boardcore.rummikub_junior import RummikubJunior, RummikubJuniorState, RummikubJuniorView


def play(seed: int) -> tuple[int, ...]:
    game = RummikubJunior(players=3, start_player=1)
    state: RummikubJuniorState = game.new_state(seed=seed)
    view: RummikubJuniorView = state.view(0)
    rack: tuple[str, ...] = view.rack
    while not state.is_over():
        legal: list[int] = state.legal_actions()
        state.apply(state.parse_action(state.action_to_str(legal[-1])))
    outcome: Outcome | None = state.outcome()
    assert outcome is not None and rack
    return state.copy().scores()


result = boardcore.simulate(boardcore.make("rummikub_junior", players=2), 10, seed=1)
''',
}


def _run(args: list[str], cwd: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", *args], check=False, capture_output=True, text=True, cwd=cwd
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_game_has_a_consumer() -> None:
    assert set(boardcore.GAMES) <= set(CONSUMERS)


def test_mypy_strict_consumers(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    files = []
    for name, text in CONSUMERS.items():
        (tmp_path / f"consumer_{name}.py").write_text(text)
        files.append(f"consumer_{name}.py")
    _run(["mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
          *files], tmp_path)


def test_stubs_match_the_compiled_modules(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    modules = [f"boardcore._engine.{name}" for name in boardcore.GAMES]
    _run(["mypy.stubtest", "boardcore._engine._random", *modules], tmp_path)
