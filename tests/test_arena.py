"""Arenas: seats rotate, results do not depend on the workers, bad input is refused."""

from __future__ import annotations

import json

import numpy as np
import pytest

import boardcore


def test_same_results_whatever_the_workers() -> None:
    game = boardcore.make("just4fun", players=3)
    one = boardcore.arena(game, ["ismcts:60", "greedy", "random"], 12, seed=4)
    two = boardcore.arena(game, ["ismcts:60", "greedy", "random"], 12, seed=4, workers=3)
    for field in ("seats", "scores", "winners", "lengths"):
        assert np.array_equal(getattr(one, field), getattr(two, field)), field
    assert one.to_dict() == two.to_dict()
    json.dumps(one.to_dict())


def test_seats_rotate_and_wins_add_up() -> None:
    game = boardcore.make("three_or_more", players=2)
    result = boardcore.arena(game, ["greedy", "random"], 10, seed=2)
    assert result.seats.tolist() == [[g % 2, (g + 1) % 2] for g in range(10)]
    assert (result.appearances() == [10, 10]).all()
    assert result.wins().sum() == pytest.approx(10)
    four = boardcore.arena(boardcore.make("fool", players=4), ["random", "greedy"], 3, seed=1)
    assert four.seats.tolist() == [[0, 1, 0, 1], [1, 0, 1, 0], [0, 1, 0, 1]]


def test_each_game_replays_alone() -> None:
    game = boardcore.make("just4fun", players=2)
    a = boardcore.arena(game, ["random", "random"], 5, seed=9)
    b = boardcore.arena(game, ["random", "random"], 3, seed=9)
    assert np.array_equal(a.scores[:3], b.scores)


def test_bad_input() -> None:
    game = boardcore.make("just4fun", players=2)
    for agents in ([], "random", ["minimax"], [3], None):
        with pytest.raises((TypeError, ValueError)):
            boardcore.arena(game, agents, 2, seed=1)  # type: ignore[arg-type]
    for games in (0, -1, "3", 2.5):
        with pytest.raises((TypeError, ValueError)):
            boardcore.arena(game, ["random"], games, seed=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        boardcore.arena("just4fun", ["random"], 2, seed=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        boardcore.arena(game, ["random"], 2, seed=1, workers=0)


def test_the_arena_command(capsys: pytest.CaptureFixture[str]) -> None:
    from boardcore.cli import EXIT_OK, EXIT_USAGE, main

    args = ["arena", "just4fun", "--players", "2", "--agents", "ismcts:50,random",
            "--games", "6", "--seed", "2", "--no-progress"]
    assert main(args) == EXIT_OK
    table = capsys.readouterr().out
    assert "just4fun: 6 games, 2 players, seed 2, seats rotated" in table
    assert "ismcts:50" in table and "95% CI" in table
    assert main([*args, "--workers", "2"]) == EXIT_OK
    assert capsys.readouterr().out.split("throughput")[0] == table.split("throughput")[0]
    assert main([*args, "--json"]) == EXIT_OK
    doc = json.loads(capsys.readouterr().out)
    assert [a["agent"] for a in doc["agents"]] == ["ismcts:50", "random"]
    assert sum(a["wins"] for a in doc["agents"]) == pytest.approx(6)
    for bad in (["--agents", "minimax"], ["--agents", ""], ["--games", "0"]):
        assert main([*args, *bad]) == EXIT_USAGE
        assert capsys.readouterr().err.startswith("boardcore: error:")


def test_places_follow_the_winners_then_the_scores() -> None:
    result = boardcore.arena(boardcore.make("fool", players=4), ["greedy", "random"], 30,
                             seed=5)
    places = result.places()
    assert places.shape == (30, 4)
    assert np.array_equal(places == 0, result.winners)
    for g in range(30):
        for t in range(4):
            for s in range(4):
                ahead = (result.winners[g, t] and not result.winners[g, s]) or (
                    not result.winners[g, t] and not result.winners[g, s]
                    and result.scores[g, t] > result.scores[g, s])
                assert (places[g, t] < places[g, s]) == ahead
            # a place counts the seats strictly ahead
            assert places[g, t] == sum(places[g, u] < places[g, t] for u in range(4))


def test_every_action_is_one_timed_decision() -> None:
    result = boardcore.arena(boardcore.make("three_or_more", players=2),
                             ["ismcts:20", "random"], 4, seed=3)
    assert np.array_equal(result.decisions.sum(axis=1), result.lengths)
    assert (result.thinking > 0).all()
    slow, fast = result.seconds_per_decision()
    assert slow > 0 and fast > 0
