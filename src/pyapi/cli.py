"""The ``boardcore`` command: ``boardcore simulate GAME …`` and ``boardcore rules GAME``."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence

import numpy as np

from boardcore import GAMES, make, rules
from boardcore.errors import BoardcoreError
from boardcore.simulate import SimulationResult, simulate

__all__ = ["main", "summary"]


def _option(text: str) -> tuple[str, object]:
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"options are written key=value, not {text!r}")
    try:
        value: object = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key, value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="boardcore", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play seeded random games and summarise them")
    sim.add_argument("game", choices=GAMES)
    sim.add_argument("--players", type=int, required=True)
    sim.add_argument("--games", type=int, default=10_000)
    sim.add_argument("--seed", type=int, default=None, help="batch seed (default: random)")
    sim.add_argument("--workers", type=int, default=1, help="threads (results do not change)")
    sim.add_argument(
        "--option", "-o", type=_option, action="append", default=[], metavar="KEY=VALUE",
        help="a game option; VALUE is read as JSON when it parses (true, 3, [..])",
    )
    sim.add_argument("--no-progress", action="store_true", help="no progress bar")
    rul = sub.add_parser("rules", help="print a game's rules page")
    rul.add_argument("game", choices=GAMES)
    return parser


def _wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion."""
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def summary(result: SimulationResult) -> str:
    """Return the readable summary of a simulation the CLI prints."""
    game = result.game
    n = result.games
    lines = [
        f"{game.name}: {n:,} games, {game.num_players} players, seed {result.seed}"
        + (f", options {dict(game.options)}" if game.options else ""),
        "",
        "seat  win rate  95% CI            shared  mean score",
    ]
    shared = result.winners.sum(axis=1) > 1
    for seat in range(game.num_players):
        wins = result.winners[:, seat]
        lo, hi = _wilson(float(wins.sum()), n)
        lines.append(
            f"{seat:>4}  {wins.mean():8.2%}  [{lo:6.2%}, {hi:6.2%}]  "
            f"{(wins & shared).mean():6.2%}  {result.scores[:, seat].mean():10.2f}"
        )
    if "end" in result.stats:
        lines += ["", "how games ended:"]
        codes = result.stats["end"]
        for code, label in enumerate(game.end_reasons):
            count = int((codes == code).sum())
            lines.append(f"  {label:<20} {count:>10,}  {count / n:7.2%}")
    for name, column in result.stats.items():
        if name != "end":
            lines.append(
                f"{name}: mean {column.mean():.2f}, min {column.min()}, max {column.max()}"
            )
    q = np.percentile(result.lengths, [10, 50, 90])
    lines.append("")
    lines.append(
        f"length (actions): mean {result.lengths.mean():.1f}, min {result.lengths.min()}, "
        f"p10 {q[0]:.0f}, median {q[1]:.0f}, p90 {q[2]:.0f}, max {result.lengths.max()}"
    )
    actions = int(result.lengths.sum())
    secs = max(result.seconds, 1e-9)
    lines.append(
        f"throughput: {n / secs:,.0f} games/s, {actions / secs:,.0f} actions/s "
        f"({result.seconds:.2f} s)"
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "rules":
            print(rules.text(args.game))
            return 0
        game = make(args.game, players=args.players, **dict(args.option))
        result = simulate(
            game, args.games, seed=args.seed, workers=args.workers,
            progress=not args.no_progress,
        )
    except (BoardcoreError, ValueError, TypeError) as exc:
        print(f"boardcore: error: {exc}", file=sys.stderr)
        return 2
    print(summary(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
