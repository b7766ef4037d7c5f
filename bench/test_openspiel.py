"""boardcore inside OpenSpiel: its random-game loop and its IS-MCTS against OpenSpiel's own.

* ``OpenSpiel random loop``: random games through OpenSpiel's API (``legal_actions``,
  ``apply_action``, ``is_terminal``; chance sampled from ``chance_outcomes``) over
  ``boardcore_just4fun`` and over OpenSpiel's own Python ``python_tic_tac_toe`` in the
  same loop, alternated; moves per second (chance outcomes not counted).  Target >= 1.
* ``IS-MCTS iterations/s vs OpenSpiel ISMCTSBot, same game``: from the first decision of
  a deal with a choice, boardcore's ``ISMCTSAgent`` (3,000 iterations) and OpenSpiel's
  ``ISMCTSBot`` (its Python implementation with its random roll-out evaluator) on the
  *same* ``boardcore_<game>`` state, alternated.  Informational.
* ``match at equal time``: ``bench/openspiel_match.py`` (its docstring says how), a few
  games of each; its own command line plays the full matches of ``docs/openspiel.md``.
"""

from __future__ import annotations

import pytest
from openspiel_match import (
    EXPLORATION,
    PLAYERS,
    first_decision,
    load,
    match,
    openspiel_ismcts,
    random_games,
)

import boardcore

OURS = 3000          # boardcore IS-MCTS iterations per timed search
THEIRS = 30          # OpenSpiel ISMCTSBot simulations per timed search


@pytest.mark.benchmark(group="openspiel")
def test_random_loop_vs_python_tic_tac_toe(figures, alternate, open_spiel):
    from open_spiel.python.games import tic_tac_toe  # noqa: F401  (registers it)

    ours, peer = load("just4fun"), open_spiel.load_game("python_tic_tac_toe")
    units = {"boardcore_just4fun": random_games(ours, 40), "python_tic_tac_toe":
             random_games(peer, 200)}
    m = alternate({"boardcore_just4fun": lambda: random_games(ours, 40),
                   "python_tic_tac_toe": lambda: random_games(peer, 200)}, rounds=7)
    if m is None:
        return
    rates = {k: units[k] / m[k] for k in m}
    figures.record_peer("OpenSpiel python_tic_tac_toe, random loop", rates["python_tic_tac_toe"],
                        "moves/s")
    figures.record("boardcore_just4fun in OpenSpiel, random loop", rates["boardcore_just4fun"],
                   "moves/s")
    figures.record_ratio("OpenSpiel random loop: boardcore_just4fun / python_tic_tac_toe",
                         rates["boardcore_just4fun"] / rates["python_tic_tac_toe"], ">= 1")


@pytest.mark.parametrize("name", boardcore.GAMES)
@pytest.mark.benchmark(group="openspiel")
def test_ismcts_vs_openspiel_ismcts_same_game(name, figures, alternate, open_spiel):
    from boardcore.agents import ISMCTSAgent

    game = load(name)
    state = first_decision(game, 1)

    def ours() -> None:
        ISMCTSAgent(OURS, exploration=EXPLORATION, seed=1).visits(state.boardcore_state)

    def theirs() -> None:
        openspiel_ismcts(game, THEIRS, 1).step(state)

    m = alternate({"ours": ours, "theirs": theirs}, rounds=5)
    if m is None:
        return
    figures.record(f"{name}, {PLAYERS[name]} players: OpenSpiel ISMCTSBot on boardcore_{name}",
                   THEIRS / m["theirs"], "simulations/s")
    figures.record(f"{name}, {PLAYERS[name]} players: boardcore IS-MCTS on the same state",
                   OURS / m["ours"], "iterations/s")
    figures.record_ratio(f"{name}: IS-MCTS iterations/s vs OpenSpiel ISMCTSBot, same game",
                         (OURS / m["ours"]) / (THEIRS / m["theirs"]), None)


@pytest.mark.parametrize("name", boardcore.GAMES)
@pytest.mark.benchmark(group="openspiel")
def test_match_at_equal_time(name, benchmark, figures, open_spiel):
    # A short match (one game of a few simulations when benchmarks are disabled).
    games, simulations = (1, 2) if benchmark.disabled else (4 if name != "fool" else 2, 30)
    ours, theirs = benchmark.pedantic(match, args=(name, games, simulations, 2026),
                                      rounds=1, iterations=1)
    assert ours.games == theirs.games == games and ours.seats == theirs.seats > 0
    assert ours.wins + theirs.wins == pytest.approx(games)
    if benchmark.disabled:
        return
    figures.record(f"{name}: boardcore IS-MCTS share of the wins against ISMCTSBot, equal "
                   f"time ({games} games)", ours.wins / games, "")
    figures.record(f"{name}: seconds per decision, boardcore / OpenSpiel",
                   ours.mean_seconds() / theirs.mean_seconds(), "x")
