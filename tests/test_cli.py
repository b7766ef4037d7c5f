"""The boardcore command: the README's main job and the rules pages."""

from __future__ import annotations

import subprocess
import sys

import pytest

import boardcore
from boardcore.cli import main
from tests.conftest import player_counts


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_simulate_prints_a_summary(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    players = player_counts(name)[-1]
    assert main(["simulate", name, "--players", str(players), "--games", "300",
                 "--seed", "1"]) == 0
    out, err = capsys.readouterr()
    assert f"{name}: 300 games, {players} players, seed 1" in out
    assert "win rate" in out and "95% CI" in out and "mean score" in out
    assert "length (actions)" in out and "throughput" in out
    for label in boardcore.make(name, players=players).end_reasons:
        assert label in out
    assert "300/300 games" in err  # the progress bar


def test_simulate_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "just4fun", "--players", "3", "--games", "500", "--seed", "9",
            "--no-progress"]
    main(args)
    first = capsys.readouterr().out.split("throughput")[0]
    main(args)
    assert capsys.readouterr().out.split("throughput")[0] == first


def test_options_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "just4fun", "--players", "2", "--games", "10", "--seed", "1",
                 "-o", "returned_on_lock=true", "-o", "layout=random", "--no-progress"]) == 0
    assert "'returned_on_lock': True" in capsys.readouterr().out
    assert main(["simulate", "just4fun", "--players", "9", "--games", "10"]) == 2
    assert "2..4 players" in capsys.readouterr().err
    assert main(["simulate", "just4fun", "--players", "2", "-o", "colour=red"]) == 2
    assert "unknown option 'colour'" in capsys.readouterr().err


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_rules_prints_the_rules_page(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", name]) == 0
    out = capsys.readouterr().out
    assert "rules as boardcore implements them" in out


def test_console_script_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "boardcore", "simulate", "just4fun", "--players", "4",
         "--games", "1000", "--seed", "1"],
        capture_output=True, text=True, check=True,
    )
    assert "four_in_a_row" in done.stdout and "exhaustion" in done.stdout
