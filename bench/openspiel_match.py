"""boardcore's IS-MCTS against OpenSpiel's ISMCTSBot on the same boardcore game, at equal time.

Usage (from an installed boardcore with the ``openspiel`` extra)::

    python bench/openspiel_match.py [GAME ...] [--games N] [--simulations S] [--seed S]

Both play the ``boardcore_<game>`` OpenSpiel game: boardcore's ``ISMCTSAgent`` as an
OpenSpiel bot (``boardcore.openspiel.bot``), OpenSpiel's ``ISMCTSBot`` (its Python
implementation: the C++ one lets go of the GIL in ``step`` and cannot search a Python
game) with its random roll-out evaluator, one roll-out per leaf.  Both use the UCB
constant 0.7 and play their most visited action.  OpenSpiel's bot runs ``S``
simulations per decision (``--simulations``, 100 by default); boardcore's gets, as a
time limit, the mean time OpenSpiel's bot has taken per decision so far in the match
(the first decision: the time of one calibration decision), so both have had the same
mean time per decision when the match ends.  Each side's mean seconds and iterations per
decision are printed with the result.

Game ``g`` is dealt from ``derive_seed(seed, 0, g)`` (``boardcore.openspiel.deal_actions``);
seat ``p`` of game ``g`` is boardcore's when ``(p + g)`` is even, so the sides alternate
seats and first moves (2 players; Fool is played by 4, two seats each).  A side's win
rate is its share of the games won (an even share is 50 % in every game), a win shared
by ``k`` seats counting ``1/k`` for each, with its 95 % Wilson interval.
``bench/test_openspiel.py`` runs a short match of every game.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import boardcore
from boardcore._engine._random import STREAM_ARENA_SEAT, STREAM_GAME, derive_seed
from boardcore.stats import wilson

PLAYERS = {"just4fun": 2, "three_or_more": 2, "fool": 4, "rummikub_junior": 2}
EXPLORATION = 0.7


def load(name: str, players: int | None = None) -> Any:
    """The ``boardcore_<name>`` OpenSpiel game (``players``: the match's count)."""
    import pyspiel

    import boardcore.openspiel

    return pyspiel.load_game(boardcore.openspiel.GAME_NAMES[name],
                             {"players": players or PLAYERS[name]})


def dealt(game: Any, seed: int) -> Any:
    """A new state of ``game`` dealt from ``seed``."""
    import boardcore.openspiel

    state = game.new_initial_state()
    for byte in boardcore.openspiel.deal_actions(seed):
        state.apply_action(byte)
    return state


def first_decision(game: Any, seed: int) -> Any:
    """The first position of the deal of ``seed`` with more than one legal move."""
    state = dealt(game, seed)
    rnd = random.Random(seed)
    while len(state.legal_actions()) <= 1:
        state.apply_action(rnd.choice(state.legal_actions()))
    return state


def openspiel_ismcts(game: Any, simulations: int, seed: int) -> Any:
    """OpenSpiel's ISMCTSBot with its random roll-out evaluator (one roll-out a leaf)."""
    from open_spiel.python.algorithms import ismcts, mcts

    rnd = np.random.RandomState(seed % 2**32)
    return ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rnd), EXPLORATION,
                            simulations, random_state=rnd)


def random_games(game: Any, games: int, seed: int = 2024) -> int:
    """Random games through OpenSpiel's API, chance sampled; the moves played (chance not)."""
    choice = random.Random(seed).choice
    moves = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
            else:
                state.apply_action(choice(state.legal_actions()))
                moves += 1
    return moves


@dataclass
class Side:
    """One side of a match: its decisions, their seconds and iterations, its wins."""

    name: str
    games: int = 0
    decisions: int = 0
    seconds: float = 0.0
    iterations: int = 0
    seats: int = 0
    wins: float = 0.0

    def mean_seconds(self) -> float:
        return self.seconds / max(self.decisions, 1)


def match(name: str, games: int, simulations: int, seed: int,
          progress: Callable[[str], None] | None = None) -> tuple[Side, Side]:
    """Play ``games`` games of ``name``: boardcore's IS-MCTS against OpenSpiel's ISMCTSBot."""
    import boardcore.openspiel
    from boardcore.agents import ISMCTSAgent

    game = load(name)
    ours, theirs = Side("boardcore ISMCTSAgent"), Side("OpenSpiel ISMCTSBot")
    calibration = time.perf_counter()
    openspiel_ismcts(game, simulations, seed).step(first_decision(game, seed))
    budget = time.perf_counter() - calibration
    for g in range(games):
        state = dealt(game, derive_seed(seed, STREAM_GAME, g))
        seats = [ours if (p + g) % 2 == 0 else theirs for p in range(game.num_players())]
        agents = {p: ISMCTSAgent(time_limit=budget, exploration=EXPLORATION,
                                 seed=derive_seed(seed, STREAM_ARENA_SEAT, g * 8 + p))
                  for p in range(game.num_players()) if seats[p] is ours}
        bots = {p: openspiel_ismcts(game, simulations,
                                    derive_seed(seed, STREAM_ARENA_SEAT, g * 8 + p))
                for p in range(game.num_players()) if seats[p] is theirs}
        while not state.is_terminal():
            p = state.current_player()
            side = seats[p]
            single = len(state.legal_actions()) == 1
            start = time.perf_counter()
            if side is ours:
                agent = agents[p]
                action = boardcore.openspiel.bot(game, agent, p).step(state)
                done = 0 if single else agent.last_iterations
            else:
                action = bots[p].step(state)
                done = 0 if single else simulations
            elapsed = time.perf_counter() - start
            state.apply_action(int(action))
            if single:
                continue            # both answer a forced move without searching
            side.decisions += 1
            side.seconds += elapsed
            side.iterations += done
            if side is theirs:
                budget = theirs.mean_seconds()
        for p, r in enumerate(state.returns()):
            seats[p].seats += 1
            seats[p].wins += r
        ours.games += 1
        theirs.games += 1
        if progress is not None:
            progress(f"{name}: game {g + 1}/{games}: boardcore {ours.wins:g} wins, "
                     f"OpenSpiel {theirs.wins:g} (s/decision {ours.mean_seconds():.3f} and "
                     f"{theirs.mean_seconds():.3f})")
    return ours, theirs


def rate(side: Side) -> str:
    """A side's share of the games won, with its 95 % Wilson interval."""
    low, high = wilson(round(side.wins), side.games)
    return (f"{side.wins / max(side.games, 1):.0%} [{low:.0%}, {high:.0%}] "
            f"({side.wins:g} of {side.games})")


def table(results: dict[str, tuple[Side, Side]], simulations: int) -> str:
    """The markdown table of ``docs/openspiel.md``."""
    lines = [
        "| game | seconds per decision (boardcore / OpenSpiel) | IS-MCTS iterations per "
        "decision (boardcore / OpenSpiel) | boardcore wins | OpenSpiel wins |",
        "|---|---|---|---|---|",
    ]
    for name, (ours, theirs) in results.items():
        lines.append(
            f"| {name}, {PLAYERS[name]} players | {ours.mean_seconds():.3f} / "
            f"{theirs.mean_seconds():.3f} | {ours.iterations / max(ours.decisions, 1):,.0f} / "
            f"{simulations} | {rate(ours)} | {rate(theirs)} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="GAME",
                        help=f"games to play (default: all of {', '.join(boardcore.GAMES)})")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    names = args.names or list(boardcore.GAMES)
    unknown = sorted(set(names) - set(boardcore.GAMES))
    if unknown:
        parser.error(f"unknown game {unknown[0]!r}; choose from {', '.join(boardcore.GAMES)}")
    results = {}
    for name in names:
        results[name] = match(name, args.games, args.simulations, args.seed,
                              progress=lambda line: print(line, file=sys.stderr, flush=True))
    print(table(results, args.simulations))
    return 0


if __name__ == "__main__":
    sys.exit(main())
