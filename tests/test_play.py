"""``boardcore play``: a whole game through a stream, bad input answered, a saved record."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import boardcore
from boardcore._play import hint, play
from boardcore.agents import LevelAgent


class FirstMove(io.StringIO):
    """Stdin that answers each prompt with the first move the game just listed."""

    def __init__(self, out: io.StringIO, extra: list[str]) -> None:
        super().__init__()
        self.out = out
        self.extra = list(extra)

    def readline(self, size: int | None = -1) -> str:
        if self.extra:
            return self.extra.pop(0) + "\n"
        listed = [line for line in self.out.getvalue().splitlines()
                  if line.startswith("your moves: ")]
        return listed[-1].removeprefix("your moves: ").split(", ")[0] + "\n"


@pytest.mark.parametrize("name", ["just4fun", "three_or_more"])
def test_a_whole_game_through_a_stream(name: str, tmp_path: Path) -> None:
    game = boardcore.make(name, players=2)
    out = io.StringIO()
    saved = tmp_path / "game.json"
    moves = play(game, seat=1, bots=["greedy"], seed=5,
                 stdin=FirstMove(out, ["nonsense", "undo", "moves"]), stdout=out,
                 save=str(saved))
    text = out.getvalue()
    assert moves > 3 and "game over: scores" in text and "record saved" in text
    assert "'nonsense'" in text            # the bad move is answered, and play goes on
    assert "seat 0 (greedy) plays" in text
    state = boardcore.replay(json.loads(saved.read_text()))
    assert state.is_over()
    assert f"scores {list(state.outcome().scores)}" in text


def test_the_play_command_through_a_pipe(tmp_path: Path) -> None:
    script = "4+8\nnot-a-move\nmoves\nquit\n"
    done = subprocess.run(
        [sys.executable, "-m", "boardcore", "play", "just4fun", "--players", "2",
         "--bots", "random", "--seed", "3", "--save", str(tmp_path / "g.json")],
        input=script, capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "'4+8' is not a legal move here; your moves: 3, 7" in done.stdout
    assert "bad notation 'not-a-move'" in done.stdout
    assert "hand ? ? ? ?" in done.stdout        # the bot's hand is hidden
    assert json.loads((tmp_path / "g.json").read_text())["actions"] == []


def test_bad_arguments() -> None:
    from boardcore.cli import EXIT_USAGE, main

    for args in (["--seat", "2"], ["--bots", "minimax"], ["--players", "9"]):
        assert main(["play", "just4fun", "--players", "2", *args]) == EXIT_USAGE


def test_levels_and_hints_through_the_command(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "boardcore", "play", "three_or_more", "--players", "2",
         "--level", "1", "--hint", "--seed", "3", "--seat", "1"],
        input="quit\n", capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "seat 0 is level:1" in done.stdout and "seat 0 (level:1) plays" in done.stdout
    hint = next(line for line in done.stdout.splitlines() if line.startswith("hint"))
    assert hint.startswith("hint (level 5, the expert): ") and hint.count(" value ") == 3


def test_a_hint_is_level_5s_three_most_visited_moves() -> None:
    state = boardcore.make("just4fun", players=2).new_state(seed=4)
    found = LevelAgent(5, seed=1).estimates(state)
    best = sorted(found, key=lambda a: (-found[a][0], a))[:3]
    text = hint(state, LevelAgent(5, seed=1))
    total = sum(v for v, _ in found.values())
    assert text == "hint (level 5, the expert): " + ", ".join(
        f"{state.action_to_str(a)} value {found[a][1]:.2f} ({found[a][0] / total:.0%} of visits)"
        for a in best)
    # The same decision seed, the same search: the hint depends on the seat's view only.
    from boardcore._engine import _search

    other = _search.determinize(state, 0, seed=9)
    assert hint(other, LevelAgent(5, seed=1)) == text


def test_level_arguments() -> None:
    from boardcore.cli import EXIT_USAGE, main

    for args in (["--level", "0"], ["--level", "6"], ["--level", "x"],
                 ["--level", "2", "--bots", "greedy"]):
        assert main(["play", "just4fun", "--players", "2", *args]) == EXIT_USAGE
