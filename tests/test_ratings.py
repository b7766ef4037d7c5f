"""Ratings and ladders: known strengths are recovered, ladders replay, bad input is refused."""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import pytest

import boardcore
from boardcore.errors import ConfigurationError
from boardcore.ratings import ELO, from_places

TRUE = np.array([0.0, 150.0, 300.0, -100.0, 500.0])     # Elo, the anchor first
NAMES = ["random", "b", "c", "d", "e"]


def synthetic(rng: np.random.Generator, elo: npt.NDArray[np.float64],
              tables: Sequence[tuple[int, ...]], games: int,
              tie: float) -> tuple[npt.NDArray[np.int64], ...]:
    """Games drawn from the Plackett-Luce model of ``elo``, with shared places.

    Each table plays ``games`` games, seats rotated; a game's order is a Plackett-Luce
    draw (Gumbel keys).  The places 1-2, 3-4, ... are then merged into one shared place
    with probability ``tie * min(P(i, j), P(j, i)) / P(order drawn)`` (``P`` the
    probability of the pair's order given the seats below it): a shared place then hides
    an order that was equally likely either way, which is what the ratings assume.
    Returns the seats, the places and each game's table (the strata).
    """
    theta = elo / ELO
    seats, places, strata = [], [], []
    for t, table in enumerate(tables):
        for g in range(games):
            row = np.array([table[(g + p) % len(table)] for p in range(len(table))])
            strength = theta[row]
            order = np.argsort(-(strength + rng.gumbel(size=len(row))))
            place = np.empty(len(row), dtype=np.int64)
            k = 0
            while k < len(row):
                if k + 1 < len(row):
                    i, j = order[k], order[k + 1]
                    rest = np.exp(strength[order[k + 2:]]).sum()
                    a, b = np.exp(strength[i]), np.exp(strength[j])
                    drawn = a / (a + b + rest) * b / (b + rest)
                    other = b / (a + b + rest) * a / (a + rest)
                    if rng.random() < tie * min(drawn, other) / drawn:
                        place[[i, j]] = k
                        k += 2
                        continue
                place[order[k]] = k
                k += 1
            seats.append(row)
            places.append(place)
            strata.append(t)
    return np.array(seats), np.array(places), np.array(strata)


@pytest.mark.parametrize(("players", "games"), [(2, 60), (4, 40), (6, 80)])
def test_known_strengths_are_recovered_within_their_intervals(players: int,
                                                              games: int) -> None:
    # 20 data sets from fixed seeds, 4 rated agents each (the anchor is 0 by
    # construction): 80 intervals.  Over 200 seeds per case the intervals covered 92-94 %
    # of the true ratings, at most 3 misses in a data set; with the per-data-set misses
    # of even a pessimistic [70, 20, 6, 3, 1] % for 0..4, more than 32 misses in 20 data
    # sets has a probability of 4e-7, and a mean error of 50 Elo is some 7 standard
    # errors.  A wrong scale, tie rule or sign fails both by far.
    tables = (list(itertools.combinations(range(5), players)) if players < 5
              else [(0, 1, 2, 3, 4, 0)])           # 6 seats: the anchor sits twice
    misses, errors, widths = 0, [], []
    for seed in range(20):
        rng = np.random.default_rng(10_000 + seed)
        seats, places, strata = synthetic(rng, TRUE, tables, games, tie=0.3)
        rated = from_places(NAMES, seats, places, strata=strata, resamples=300, seed=seed)
        assert rated.elo[0] == 0 and rated.low[0] == rated.high[0] == 0
        misses += int(((TRUE < rated.low) | (TRUE > rated.high)).sum())
        errors.append(rated.elo - TRUE)
        widths.append((rated.high - rated.low)[1:])
    assert misses <= 32, f"{misses} of 80 intervals missed the true rating"
    assert np.abs(np.mean(errors, axis=0)).max() < 50
    assert 30 < np.mean(widths) < 400


def test_shared_places_are_unbiased_over_many_games() -> None:
    rng = np.random.default_rng(7)
    seats, places, _ = synthetic(rng, TRUE, list(itertools.combinations(range(5), 4)),
                                 1500, tie=0.9)
    assert (places[:, :, None] == places[:, None, :]).sum() > seats.size * 1.5  # many ties
    rated = from_places(NAMES, seats, places, resamples=10)
    assert np.abs(rated.elo - TRUE).max() < 25          # some 4 standard errors


def test_bradley_terry_on_the_elo_scale() -> None:
    # 30 wins, 10 losses: 400 log10(3); a draw is half a win for each side
    flat = 100_000.0      # a prior too weak to matter
    rated = from_places(["a", "b"], [[0, 1]] * 30 + [[1, 0]] * 10, [[0, 1]] * 40,
                        anchor="b", resamples=10, prior=flat)
    assert rated.elo[0] == pytest.approx(400 * math.log10(3), abs=0.01)
    draws = from_places(["a", "b"], [[0, 1]] * 40, [[0, 1]] * 20 + [[0, 0]] * 10
                        + [[1, 0]] * 10, anchor="b", resamples=10, prior=flat)
    assert draws.elo[0] == pytest.approx(400 * math.log10(25 / 15), abs=0.01)
    # only the order of the places counts, and seats can be listed in any order
    same = from_places(["a", "b"], [[1, 0]] * 40, [[7, -3]] * 20 + [[5, 5]] * 10
                       + [[-3, 7]] * 10, anchor="b", resamples=10, prior=flat)
    assert same.elo[0] == pytest.approx(draws.elo[0])
    # the default prior moves a well-measured rating by less than a point
    default = from_places(["a", "b"], [[0, 1]] * 30 + [[1, 0]] * 10, [[0, 1]] * 40,
                          anchor="b", resamples=10)
    assert 0 < rated.elo[0] - default.elo[0] < 1


def test_a_perfect_record_gets_a_finite_rating_and_a_profile_interval() -> None:
    rated = from_places(["a", "b"], [[0, 1]] * 40, [[0, 1]] * 40, anchor="b",
                        resamples=50)
    assert rated.groups == (("a",), ("b",))
    # the same profile, by brute force: θa = -θb = d/2 maximises the prior at gap d
    sd = 1000 / ELO
    d = np.linspace(0, 30, 300_001)
    profile = -40 * np.log1p(np.exp(-d)) - d**2 / (4 * sd**2)
    inside = d[profile >= profile.max() - 3.841458820694124 / 2]
    assert rated.elo[0] == pytest.approx(ELO * d[profile.argmax()], abs=0.1)
    assert rated.low[0] == pytest.approx(ELO * inside.min(), abs=0.1)
    assert rated.high[0] == pytest.approx(ELO * inside.max(), abs=0.1)
    gap, low, high = rated.difference("b", "a")
    assert (gap, low, high) == pytest.approx((-rated.elo[0], -rated.high[0], -rated.low[0]))
    assert "separated: {a} > {b} (every game between two groups went the same way)" \
        in rated.table()


def test_agents_in_several_seats_and_games_among_one_agent() -> None:
    # a table A B A B is two seats of each; a game of B alone says nothing
    seats = [[0, 1, 0, 1]] * 30 + [[1, 1, 1, 1]] * 5
    places = [[0, 1, 2, 3]] * 20 + [[3, 2, 1, 0]] * 10 + [[0, 1, 2, 3]] * 5
    rated = from_places(["a", "b"], seats, places, anchor="b", resamples=20)
    alone = from_places(["a", "b"], seats[:30], places[:30], anchor="b", resamples=20)
    assert rated.elo[0] == pytest.approx(alone.elo[0])
    assert rated.elo[0] > 0 and list(rated.games) == [30, 35]


def test_ratings_of_arenas_match_agents_by_name() -> None:
    game = boardcore.make("three_or_more", players=2)
    one = boardcore.arena(game, ["greedy", "random"], 30, seed=1)
    two = boardcore.arena(game, ["ismcts:30", "greedy"], 30, seed=2)
    rated = boardcore.ratings([one, two], resamples=50)
    assert rated.agents == ("greedy", "random", "ismcts:30")
    assert rated.anchor == "random" and rated.elo[1] == 0
    assert list(rated.games) == [60, 30, 30]
    again = boardcore.ratings([one, two], resamples=50)
    assert np.array_equal(rated.samples, again.samples)           # seeded
    other = boardcore.ratings([one, two], resamples=50, seed=1)
    assert not np.array_equal(rated.samples, other.samples)
    doc = rated.to_dict()
    json.dumps(doc)
    assert [a["agent"] for a in doc["agents"]] == [rated.agents[i] for i in rated.order()]


def test_bad_input_is_refused() -> None:
    game = boardcore.make("just4fun", players=2)
    result = boardcore.arena(game, ["greedy", "random"], 6, seed=1)
    other = boardcore.arena(boardcore.make("three_or_more", players=2), ["random", "greedy"],
                            2, seed=1)
    for results in (None, "arena", [], [result, 3], {"a": result}):
        with pytest.raises(TypeError):
            boardcore.ratings(results)  # type: ignore[arg-type]
    for kwargs in ({"anchor": "ismcts"}, {"anchor": 3}, {"resamples": 0},
                   {"resamples": 10**6}, {"prior": 0}, {"prior": math.nan},
                   {"prior": True}, {"prior": "wide"}):
        with pytest.raises(ConfigurationError):
            boardcore.ratings(result, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        boardcore.ratings(result, resamples=2.5)  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError, match="one game"):
        boardcore.ratings([result, other])
    for agents, seats, places in (
            (["a", "a"], [[0, 1]], [[0, 1]]),                 # repeated agents
            (["a"], [[0, 0]], [[0, 1]]),                      # one agent
            (["a", "b"], [[0, 2]], [[0, 1]]),                 # seat out of range
            (["a", "b"], [[0, -1]], [[0, 1]]),
            (["a", "b"], [[0, 1]], [[0, 1, 2]]),              # shapes differ
            (["a", "b"], [[0]], [[0]]),                       # one seat
            (["a", "b"], [], []),                             # no games
            (["a", "b"], [[0.5, 1]], [[0, 1]]),               # not integers
            (["a", "b"], [["a", "b"]], [[0, 1]]),
            (["a", "b", "c", "d"], [[0, 1], [2, 3]], [[0, 1], [1, 0]]),  # never met
    ):
        with pytest.raises(ConfigurationError):
            from_places(agents, seats, places, anchor="a")
    with pytest.raises(ConfigurationError, match="strata"):
        from_places(["a", "b"], [[0, 1]], [[0, 1]], strata=[0, 1], anchor="a")
    with pytest.raises(TypeError):
        from_places("ab", [[0, 1]], [[0, 1]], anchor="a")
    rated = boardcore.ratings(result, resamples=10)
    with pytest.raises(ConfigurationError, match="unknown agent"):
        rated.difference("greedy", "flat")


# -- ladders -------------------------------------------------------------------------------


def test_a_ladder_is_the_same_whatever_the_workers() -> None:
    game = boardcore.make("fool", players=4)
    agents = ["random", "greedy", "ismcts:10", "flat:2", "ismcts:5"]
    one = boardcore.ladder(game, agents, 4, seed=11, resamples=50)
    two = boardcore.ladder(game, agents, 4, seed=11, resamples=50, workers=3)
    assert one.tables == two.tables == tuple(itertools.combinations(agents, 4))
    for a, b in zip(one.results, two.results, strict=True):
        for field in ("seats", "scores", "winners", "lengths", "decisions"):
            assert np.array_equal(getattr(a, field), getattr(b, field)), field
    assert one.ratings.to_dict() == two.ratings.to_dict()
    assert np.array_equal(one.ratings.samples, two.ratings.samples)
    assert np.array_equal(one.decisions, two.decisions)
    # table t is the arena of seed derive_seed(seed, 9, t): STREAM_LADDER_TABLE
    from boardcore._engine._random import derive_seed

    alone = boardcore.arena(game, list(one.tables[2]), 4, seed=derive_seed(11, 9, 2))
    assert np.array_equal(alone.scores, one.results[2].scores)
    assert (one.seconds_per_decision > 0).all()


def test_a_ladder_of_few_agents_is_one_table() -> None:
    ladder = boardcore.ladder(boardcore.make("fool", players=5), ["random", "greedy"], 4,
                              seed=3, resamples=20)
    assert ladder.tables == (("random", "greedy"),)
    assert ladder.results[0].seats.tolist()[0] == [0, 1, 0, 1, 0]


def test_a_ladder_refuses_bad_input() -> None:
    game = boardcore.make("just4fun", players=2)
    for agents in (["random"], ["random", "random"], ["random", "minimax"], []):
        with pytest.raises(ConfigurationError):
            boardcore.ladder(game, agents, 2, seed=1)
    for agents in ("random,greedy", None, [1, 2]):
        with pytest.raises(TypeError):
            boardcore.ladder(game, agents, 2, seed=1)  # type: ignore[arg-type]
    for kwargs in ({"anchor": "greedy!"}, {"workers": 0}, {"backend": "dask"},
                   {"resamples": 5}):
        with pytest.raises(ConfigurationError):
            boardcore.ladder(game, ["random", "greedy"], 2, seed=1,
                             **kwargs)  # type: ignore[arg-type]
    for games in (0, -1, 10**7):
        with pytest.raises(ConfigurationError):
            boardcore.ladder(game, ["random", "greedy"], games, seed=1)
    with pytest.raises(TypeError):
        boardcore.ladder("just4fun", ["random", "greedy"], 2, seed=1)  # type: ignore[arg-type]
    played: list[int] = []
    with pytest.raises(ConfigurationError, match="resamples"):
        boardcore.ladder(game, ["random", "greedy"], 2, seed=1, resamples=5,
                         on_game=played.append)
    assert played == []                       # refused before the first game


def test_the_ladder_command(capsys: pytest.CaptureFixture[str]) -> None:
    from boardcore.cli import EXIT_OK, EXIT_USAGE, main

    args = ["ladder", "three_or_more", "--players", "2", "--agents",
            "random,greedy,ismcts:20", "--games", "6", "--seed", "5", "--resamples", "40",
            "--no-progress"]
    assert main(args) == EXIT_OK
    out, err = capsys.readouterr()
    assert out.startswith("three_or_more ladder: 3 agents, 3 pairings of 6 games, "
                          "2 players, seed 5\n")
    assert "95% interval" in out and "ms/decision" in out and err == ""
    assert main([*args, "--json", "--workers", "2"]) == EXIT_OK
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) == {"game", "players", "options", "seed", "games_per_table", "games",
                        "tables", "scale", "anchor", "resamples", "prior", "agents",
                        "groups", "workers", "seconds"}
    assert (doc["game"], doc["players"], doc["seed"], doc["games_per_table"],
            doc["games"], doc["anchor"], doc["resamples"], doc["workers"]) == (
        "three_or_more", 2, 5, 6, 18, "random", 40, 2)
    assert doc["tables"] == [["random", "greedy"], ["random", "ismcts:20"],
                             ["greedy", "ismcts:20"]]
    rows = doc["agents"]
    assert {r["agent"] for r in rows} == {"random", "greedy", "ismcts:20"}
    for row in rows:
        assert set(row) == {"agent", "rating", "rating_95", "gap_to_next", "games",
                            "decisions", "seconds_per_decision"}
        low, high = row["rating_95"]
        assert low <= row["rating"] <= high and row["games"] == 12
        assert row["decisions"] > 0 and row["seconds_per_decision"] > 0
    assert [r["rating"] for r in rows] == sorted((r["rating"] for r in rows), reverse=True)
    for row, below in itertools.pairwise(rows):
        gap, low, high = row["gap_to_next"]
        assert gap == pytest.approx(row["rating"] - below["rating"]) and low <= gap <= high
    assert rows[-1]["gap_to_next"] is None
    assert next(r for r in rows if r["agent"] == "random")["rating"] == 0
    for bad in (["--agents", "random"], ["--agents", "random,minimax"],
                ["--agents", "greedy,ismcts:20"], ["--games", "0"], ["--resamples", "5"],
                ["--anchor", "flat"], ["--players", "9"]):
        assert main([*args, *bad]) == EXIT_USAGE
        assert capsys.readouterr().err.startswith("boardcore: error:")


def test_the_ladder_plot(tmp_path: object) -> None:
    pytest.importorskip("matplotlib")
    from pathlib import Path

    from boardcore.cli import EXIT_OK, EXIT_USAGE, main

    target = Path(str(tmp_path)) / "ladder.png"
    args = ["ladder", "just4fun", "--players", "2", "--agents", "random,greedy",
            "--games", "4", "--seed", "1", "--resamples", "20", "--no-progress"]
    assert main([*args, "--plot", str(target)]) == EXIT_OK
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main([*args, "--plot", str(Path(str(tmp_path)) / "ladder.nope")]) == EXIT_USAGE
