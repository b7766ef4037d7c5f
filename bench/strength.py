"""The strength tables of ``docs/agents.md``: every agent against every other, per game.

Usage (from an installed boardcore)::

    python bench/strength.py GAME [--games N] [--seed S] [--workers W] [--self-play]
                                  [--headline-games N]

For a 2-player game (just4fun, three_or_more, rummikub_junior) it plays one arena per
pair of agents, seats rotated, and prints the markdown table of the row agent's win rate
against the column agent with its 95 % Wilson interval; ``--self-play`` first plays
IS-MCTS against itself and prints each seat's wins alone and the shared ones.  For Fool
(4 players) a pair takes the seats alternately (A B A B, rotated), and it first plays the
headline arena of one IS-MCTS seat against three random ones (``--headline-games``, 200
by default), with each agent's mean score and its interval.

Each arena is ``boardcore.arena`` with the same seed, which is exactly
``boardcore arena GAME --players P --agents A,B --games N --seed S``; its readable table
goes to stderr as it finishes.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import math
import sys

import numpy as np

import boardcore
from boardcore.stats import Z95, wilson

AGENTS = ("random", "greedy", "flat:200", "ismcts:1000")


def play(game: boardcore.GameName, players: int, agents: list[str], games: int, seed: int,
         workers: int) -> boardcore.ArenaResult:
    """One arena; its table (what ``boardcore arena`` prints) goes to stderr."""
    result = boardcore.arena(boardcore.make(game, players=players), agents, games,
                             seed=seed, workers=workers)
    print(f"$ boardcore arena {game} --players {players} --agents {','.join(agents)} "
          f"--games {games} --seed {seed}\n{result.table()}\n", file=sys.stderr, flush=True)
    return result


def rate(wins: float, n: int) -> str:
    """A win rate and its 95 % Wilson interval, in percent."""
    lo, hi = wilson(min(round(wins), n), n)
    return f"{wins / n:.0%} [{lo:.0%}, {hi:.0%}]"


def mean_score(result: boardcore.ArenaResult, agent: int) -> str:
    """An agent's mean score per seat and its 95 % interval over the games."""
    mask = result.seats == agent
    per_game = (result.scores * mask).sum(axis=1) / mask.sum(axis=1)
    half = Z95 * per_game.std(ddof=1) / math.sqrt(len(per_game))
    return f"{per_game.mean():.1f} ± {half:.1f}"


def print_matrix(cell: dict[tuple[str, str], str]) -> None:
    """A markdown table: one row and one column per agent, ``cell[row, column]`` inside."""
    print("| | " + " | ".join(f"`{c}`" for c in AGENTS) + " |")
    print("|---" * (len(AGENTS) + 1) + "|")
    for r in AGENTS:
        print(f"| `{r}` | " + " | ".join("—" if r == c else cell[r, c] for c in AGENTS)
              + " |")


def main() -> None:
    """Play the arenas of one game and print its markdown tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=boardcore.GAMES)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--headline-games", type=int, default=200,
                        help="games of Fool's IS-MCTS against three random seats (0: none)")
    parser.add_argument("--self-play", action="store_true")
    args = parser.parse_args()
    players = 4 if args.game == "fool" else 2
    if args.game == "fool" and args.headline_games:
        agents = ["ismcts:1000", "random", "random", "random"]
        result = play(args.game, players, agents, args.headline_games, args.seed,
                      args.workers)
        merged = np.where(result.seats > 0, 1, 0)
        pooled = dataclasses.replace(result, agents=("ismcts:1000", "random"), seats=merged)
        won = pooled.wins()
        print(f"`ismcts:1000` against three `random` seats, {args.headline_games} games, "
              f"seed {args.seed}: IS-MCTS wins {rate(won[0], args.headline_games)}, mean score "
              f"{mean_score(pooled, 0)}; a random seat wins "
              f"{rate(won[1], 3 * args.headline_games)}, mean score {mean_score(pooled, 1)}\n")
    if args.self_play:
        result = play(args.game, players, ["ismcts:1000"], args.games, args.seed,
                      args.workers)
        # counted as `boardcore simulate` counts them, to compare with random play
        alone = result.winners & (result.winners.sum(axis=1, keepdims=True) == 1)
        shared = int((result.winners.sum(axis=1) > 1).sum())
        print(f"`ismcts:1000` against itself, {args.games} games, seed {args.seed}: "
              + ", ".join(f"seat {p} wins alone {rate(w, args.games)}"
                          for p, w in enumerate(alone.sum(axis=0)))
              + f", shared wins {rate(shared, args.games)}\n")
    cell: dict[tuple[str, str], str] = {}
    scores: dict[tuple[str, str], str] = {}
    # the pairs with IS-MCTS first: the headline figures are the ones to have soonest
    pairs = sorted(itertools.combinations(AGENTS, 2), key=lambda p: AGENTS[-1] not in p)
    for a, b in pairs:
        result = play(args.game, players, [a, b], args.games, args.seed, args.workers)
        seats = result.appearances()
        for i, name, other in ((0, a, b), (1, b, a)):
            cell[name, other] = rate(result.wins()[i], int(seats[i]))
            scores[name, other] = f"{result.mean_scores()[i]:.1f}"
    print(f"**{args.game}**, {players} players, {args.games} games per pair, seed "
          f"{args.seed}: the row agent's win rate against the column agent, 95 % interval\n")
    print_matrix(cell)
    print("\nmean score of the row agent against the column agent:\n")
    print_matrix(scores)


if __name__ == "__main__":
    main()
