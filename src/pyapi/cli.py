"""The ``boardcore`` command: ``boardcore simulate GAME …`` and ``boardcore rules GAME``.

``python -m boardcore`` is the same command. Every failure ends with one line on stderr
and one of these exit codes (``docs/cli.md``):

- 0: done — also when the reader of stdout closed it early (``… | head``);
- 1: an unexpected internal error (a bug in boardcore: please report it);
- 2: a usage error or bad input (an unknown game, a bad count, an option the game
  refuses, a file that cannot be written, a missing optional extra);
- 130: interrupted (Ctrl-C).

>>> main(["simulate", "just4fun", "--players", "2", "--games", "3", "--seed", "1",
...       "--csv"]) == EXIT_OK
index,score_0,score_1,winner_0,winner_1,length,end
0,162,217,0,1,40,exhaustion
1,183,184,0,1,40,exhaustion
2,186,215,0,1,40,exhaustion
True
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import NoReturn, TextIO

from boardcore import GAMES, __version__, make, rules
from boardcore._ray import BACKENDS
from boardcore._registry import GAME_CLASSES
from boardcore.errors import BoardcoreError
from boardcore.simulate import SimulationInterrupted, SimulationResult, SimulationSummary, simulate
from boardcore.values import quote

__all__ = [
    "EXIT_BUG",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "MAX_GAMES",
    "main",
    "parse_count",
    "summary",
]

EXIT_OK = 0
EXIT_BUG = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

#: The most games one ``boardcore simulate`` plays (the summary needs constant memory for
#: any count; this is about a core-century of games).
MAX_GAMES = 10**12
MAX_WORKERS = 1024
_MESSAGE_LIMIT = 300
_NUMBER = re.compile(r"[+-]?[0-9](_?[0-9])*(\.[0-9]*)?([eE][+-]?[0-9]+)?")


class _UsageError(Exception):
    """A bad command line, already worded as its one-line message."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and never exit by themselves."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(f"{message} (see {self.prog} --help)")


def parse_count(text: str, *, low: int = 1, high: int = MAX_GAMES) -> int:
    """Read a count written ``100000``, ``100_000`` or ``1e5``; refuse anything else.

    Args:
        text: the count as typed.
        low: the least count allowed.
        high: the largest count allowed.

    Raises:
        ValueError: not a whole number, or outside ``low..high`` (a one-line message).

    >>> parse_count("1e5"), parse_count("100_000"), parse_count("2.5e3")
    (100000, 100000, 2500)
    >>> parse_count("1.5")
    Traceback (most recent call last):
    ...
    ValueError: '1.5' is not a whole number (write 100000, 100_000 or 1e5)
    >>> parse_count("1e15")
    Traceback (most recent call last):
    ...
    ValueError: '1e15' is more than 1,000,000,000,000
    """
    shown = _quote(text)
    if not _NUMBER.fullmatch(text.strip()):
        raise ValueError(f"{shown} is not a whole number (write 100000, 100_000 or 1e5)")
    try:
        value = Decimal(text.strip().replace("_", ""))
    except InvalidOperation:
        raise ValueError(f"{shown} is not a whole number") from None
    if value != value.to_integral_value():
        raise ValueError(f"{shown} is not a whole number (write 100000, 100_000 or 1e5)")
    if value < low:
        raise ValueError(f"{shown} is less than {low:,}")
    if value > high:
        raise ValueError(f"{shown} is more than {high:,}")
    return int(value)


def _quote(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:40] + "...")


def _argument(reader: Callable[[str], object], what: str) -> Callable[[str], object]:
    """Wrap ``reader`` as an argparse type whose errors are argparse's one-liners."""

    def read(text: str) -> object:
        try:
            return reader(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    read.__name__ = what
    return read


def _level(text: str) -> int:
    level = _integer(text)
    if not 1 <= level <= 5:
        raise ValueError(f"a level is 1..5, not {level}")
    return level


def _integer(text: str) -> int:
    if not text.isascii():  # int() would read other scripts' digits: "١" is 1
        raise ValueError(f"{_quote(text)} is not an integer (write it in ASCII digits)")
    try:
        return int(text, 0) if text.strip().lower().startswith(("0x", "0o", "0b")) else int(text)
    except ValueError:
        if text.strip().isdigit():  # past Python's limit on the digits of an int
            raise ValueError(f"{_quote(text)} is far too large") from None
        raise ValueError(f"{_quote(text)} is not an integer") from None


def _seed(text: str) -> int:
    value = _integer(text)
    if not 0 <= value < 2**64:
        raise ValueError(f"{_quote(text)} is not in 0..2**64-1")
    return value


def _port(text: str) -> int:
    value = _integer(text)
    if not 1 <= value <= 65535:
        raise ValueError(f"must be a TCP port, 1..65535, not {value}")
    return value


def _workers(text: str) -> int:
    return parse_count(text, high=MAX_WORKERS)


def _option(text: str) -> tuple[str, object]:
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise ValueError(
            f"options are written key=value, not {_quote(text)} "
            "(-o is --option; --output FILE writes to a file)"
        )
    if key == "players":
        raise ValueError("players is not a game option: give it as --players N")
    if key == "name":
        raise ValueError("name is not a game option: the game is the first argument")
    try:
        value: object = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    except RecursionError:
        raise ValueError(f"option {quote(key)}: the value is nested too deeply") from None
    return key, value


def _game_and_players(command: argparse.ArgumentParser, ranges: str) -> None:
    """Add the arguments every game command takes first: the game and its seats."""
    command.add_argument("game", choices=GAMES, metavar="GAME", help="the game: %(choices)s")
    command.add_argument("--players", type=_argument(_integer, "players"), required=True,
                         metavar="N", help=f"number of seats (required): {ranges}")


def _parser() -> _Parser:
    ranges = ", ".join(
        f"{name} {cls.min_players}..{cls.max_players}" for name, cls in GAME_CLASSES.items()
    )
    parser = _Parser(
        prog="boardcore",
        description="Fast, faithful rules engines for four tabletop games: play seeded "
                    "random games and summarise them, or read a game's rules.",
        epilog="exit codes: 0 ok (also on a closed pipe), 1 internal error, "
               "2 usage or bad input, 130 interrupted. See docs/cli.md.",
        allow_abbrev=False,
    )
    parser.add_argument("--version", action="version", version=f"boardcore {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sim = sub.add_parser(
        "simulate", help="play seeded random games and summarise them",
        description="Play seeded, uniformly random games in compiled code and summarise "
                    "them: who won, win rates with 95% intervals, scores, how games "
                    "ended, lengths. Text by default; --json or --csv for programs.",
        epilog="exit codes: 0 ok (also on a closed pipe), 1 internal error, "
               "2 usage or bad input, 130 interrupted.",
        allow_abbrev=False,
    )
    _game_and_players(sim, ranges)
    sim.add_argument(
        "--games", type=_argument(parse_count, "games"), default=10_000, metavar="G",
        help="games to play, 1..1e12 (default 10,000); "
             "100000, 100_000 and 1e5 are the same; without --csv any count runs in "
             "constant memory",
    )
    sim.add_argument("--seed", type=_argument(_seed, "seed"), default=None, metavar="S",
                     help="batch seed, 0..2**64-1 (default: drawn at random and printed); "
                          "equal seeds give equal games")
    sim.add_argument("--workers", type=_argument(_workers, "workers"), default=1,
                     metavar="W", help=f"threads, 1..{MAX_WORKERS} (default 1; with "
                                       "--backend ray: threads per task); "
                                       "the results do not depend on it")
    sim.add_argument("--backend", choices=BACKENDS, default="threads",
                     help="threads: on this machine (default); ray: tasks on the Ray "
                          "cluster at RAY_ADDRESS, else a local Ray (needs boardcore[ray]); "
                          "the same results either way")
    sim.add_argument(
        "--option", "-o", type=_argument(_option, "option"), action="append", default=[],
        metavar="KEY=VALUE",
        help="a game option, repeatable (default: none, the game's defaults); VALUE is "
             "read as JSON when it parses (true, 3, [..]); see boardcore rules GAME",
    )
    fmt = sim.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true",
                     help="write the summary as JSON instead of text (default: text)")
    fmt.add_argument("--csv", action="store_true",
                     help="write one CSV row per game instead of the summary (default: text)")
    sim.add_argument("--output", "-O", metavar="FILE", default="-",
                     help="write the summary, JSON or CSV to FILE (default: -, stdout)")
    sim.add_argument("--plot", metavar="FILE", default=None,
                     help="also draw win rates, scores and lengths into an image FILE "
                          "(.png, .svg, .pdf, ...; needs boardcore[plot]; default: none)")
    sim.add_argument("--no-progress", action="store_true",
                     help="no progress bar (default: a bar on stderr when it is a "
                          "terminal, never in a file or pipe)")
    are = sub.add_parser(
        "arena", help="play agents against each other and compare them",
        description="Play seeded games between agents, seats rotated, and print each "
                    "agent's win rate with its 95% interval and mean score. The results "
                    "do not depend on --workers.",
        epilog="agents: random, greedy, flat:N (N play-outs per action), ismcts:N "
               "(N iterations per move) or ismcts:Ts (T seconds per move). exit codes: "
               "0 ok, 1 internal error, 2 usage or bad input, 130 interrupted.",
        allow_abbrev=False,
    )
    _game_and_players(are, ranges)
    are.add_argument("--agents", required=True, metavar="A,B,...",
                     help="the agents, comma-separated (required), e.g. "
                          "ismcts:1000,greedy,random; they fill the seats in turn")
    are.add_argument("--games", type=_argument(lambda t: parse_count(t, high=10**7), "games"),
                     default=100, metavar="G", help="games to play, 1..1e7 (default 100)")
    are.add_argument("--seed", type=_argument(_seed, "seed"), default=None, metavar="S",
                     help="arena seed, 0..2**64-1 (default: drawn at random and printed)")
    are.add_argument("--workers", type=_argument(_workers, "workers"), default=1,
                     metavar="W", help=f"threads, 1..{MAX_WORKERS} (default 1); "
                                       "the results do not depend on it")
    are.add_argument("--backend", choices=BACKENDS, default="threads",
                     help="threads: on this machine (default); ray: tasks on the Ray "
                          "cluster at RAY_ADDRESS (needs boardcore[ray]); the same results")
    are.add_argument(
        "--option", "-o", type=_argument(_option, "option"), action="append", default=[],
        metavar="KEY=VALUE", help="a game option, repeatable (default: the game's defaults)",
    )
    are.add_argument("--json", action="store_true",
                     help="write the results as JSON instead of a table (default: table)")
    are.add_argument("--no-progress", action="store_true",
                     help="no progress bar (default: a bar on stderr when it is a terminal)")
    _ladder_parser(sub, ranges)
    pla = sub.add_parser(
        "play", help="play a game in the terminal against bots",
        description="Play one game in the terminal: you play --seat, bots play the "
                    "others. Type a move in the game's notation ('moves' lists them, "
                    "'undo' takes your last move back, 'quit' stops); a bad move is "
                    "answered with the error and the game goes on. Reads any stream, so "
                    "a script can play through a pipe.",
        epilog="bots: random, greedy, flat:N, ismcts:N, ismcts:Ts or level:N. exit codes: "
               "0 ok, 1 internal error, 2 usage or bad input, 130 interrupted.",
        allow_abbrev=False,
    )
    _game_and_players(pla, ranges)
    pla.add_argument("--seat", type=_argument(_integer, "seat"), default=0, metavar="S",
                     help="your seat, 0..N-1 (default 0)")
    bots = pla.add_mutually_exclusive_group()
    bots.add_argument("--bots", default="ismcts:1000", metavar="A,B,...",
                      help="the bots of the other seats in turn, comma-separated "
                           "(default ismcts:1000)")
    bots.add_argument("--level", type=_argument(_level, "level"), default=None, metavar="N",
                      help="every other seat plays difficulty level N, 1 (easiest) to 5 "
                           "(the expert): the same as --bots level:N (default: --bots)")
    pla.add_argument("--hint", action="store_true",
                     help="before each of your moves, print the three best moves of the expert "
                          "(level 5) with their estimated values (default: no hints)")
    pla.add_argument("--seed", type=_argument(_seed, "seed"), default=None, metavar="S",
                     help="the game's seed, 0..2**64-1 (default: drawn at random)")
    pla.add_argument(
        "--option", "-o", type=_argument(_option, "option"), action="append", default=[],
        metavar="KEY=VALUE", help="a game option, repeatable (default: the game's defaults)",
    )
    pla.add_argument("--save", metavar="FILE", default=None,
                     help="save the game's record (JSON) to FILE at the end (default: none)")
    ser = sub.add_parser(
        "serve", help="play, watch and replay games in a browser (needs boardcore[web])",
        description="Run the web server: a lobby to make matches of any game with people "
                    "and bots, a page per seat reached by its own link, spectators, "
                    "replays, and the JSON/websocket API of docs/web.md. Matches are kept "
                    "in an SQLite file; each move is stored before it is acknowledged.",
        epilog="exit codes: 0 stopped, 2 usage or bad input (the web extra missing "
               "included), 130 interrupted.",
        allow_abbrev=False,
    )
    ser.add_argument("--host", default="127.0.0.1",
                     help="the address to listen on (default 127.0.0.1: this machine only; "
                          "0.0.0.0 lets every machine that reaches the port in)")
    ser.add_argument("--port", type=_argument(_port, "port"), default=8000, metavar="N",
                     help="the TCP port, 1..65535 (default 8000)")
    ser.add_argument("--db", default="boardcore-matches.sqlite3", metavar="PATH",
                     help="the SQLite file of the matches, made if missing "
                          "(default boardcore-matches.sqlite3; ':memory:' keeps nothing)")
    ser.add_argument("--workers", type=_argument(_workers, "workers"), default=None,
                     metavar="W", help="threads for the bots' searches (default: one per CPU)")
    rul = sub.add_parser("rules", help="print a game's rules page",
                         description="Print a game's rules as boardcore implements them.",
                         allow_abbrev=False)
    rul.add_argument("game", choices=GAMES, metavar="GAME", help="the game: %(choices)s")
    return parser


def _ladder_parser(sub: argparse._SubParsersAction[_Parser], ranges: str) -> None:
    """Add ``boardcore ladder``: its own options, beside the arena's."""
    lad = sub.add_parser(
        "ladder", help="rate agents on one Elo scale, every pairing or table played",
        description="Play every pairing of the agents (a game of two seats) or every "
                    "table of N different agents (N seats; one table of all of them when "
                    "they are no more than the seats), seats rotated, and rate them on one "
                    "Elo scale: Bradley-Terry, or Plackett-Luce on each game's places, "
                    "with 95% bootstrap intervals, the anchor at 0, and each agent's "
                    "mean CPU time per decision. The results do not depend on --workers.",
        epilog="agents: random, greedy, flat:N, ismcts:N or ismcts:Ts. exit codes: 0 ok, "
               "1 internal error, 2 usage or bad input, 130 interrupted. See docs/agents.md.",
        allow_abbrev=False,
    )
    _game_and_players(lad, ranges)
    lad.add_argument("--games", type=_argument(lambda t: parse_count(t, high=10**6), "games"),
                     default=100, metavar="G",
                     help="games of each pairing or table, 1..1e6 (default 100; a multiple "
                          "of N gives every agent every seat equally often)")
    lad.add_argument("--agents", required=True, metavar="A,B,...",
                     help="two or more distinct agents, comma-separated (required), e.g. "
                          "random,greedy,ismcts:1000")
    lad.add_argument("--seed", type=_argument(_seed, "seed"), default=None, metavar="S",
                     help="the ladder's seed, 0..2**64-1 (default: drawn and printed); it "
                          "seeds every table and the bootstrap")
    lad.add_argument("--workers", type=_argument(_workers, "workers"), default=1,
                     metavar="W", help=f"threads, 1..{MAX_WORKERS} (default 1; with --backend "
                                       "ray: threads per task); the ladder does not "
                                       "depend on it, the times per decision do")
    lad.add_argument("--anchor", default="random", metavar="A",
                     help="the agent rated 0, one of --agents (default random)")
    lad.add_argument("--resamples", type=_argument(lambda t: parse_count(t, low=10,
                                                                         high=10**5),
                                                   "resamples"),
                     default=1000, metavar="B",
                     help="bootstrap resamples of the games, 10..1e5 (default 1000)")
    lad.add_argument("--backend", choices=BACKENDS, default="threads",
                     help="threads (default) or ray: each table's games as tasks on a Ray "
                          "cluster (needs boardcore[ray]); the same ladder either way")
    lad.add_argument(
        "--option", "-o", type=_argument(_option, "option"), action="append", default=[],
        metavar="KEY=VALUE", help="a game option, repeatable (default: the game's defaults)",
    )
    lad.add_argument("--json", action="store_true",
                     help="write the ladder as JSON instead of a table (default: table)")
    lad.add_argument("--plot", metavar="FILE", default=None,
                     help="also draw the ladder into an image FILE (.png, .svg, .pdf, ...; "
                          "needs boardcore[plot]; default: none)")
    lad.add_argument("--no-progress", action="store_true",
                     help="no progress bar (default: a bar on stderr on a terminal only)")


def summary(result: SimulationResult | SimulationSummary) -> str:
    """Return the readable summary of a simulation the CLI prints."""
    from boardcore import _report

    return _report.text(result)


def _one_line(message: str) -> str:
    text = " ".join(message.split())
    return text if len(text) <= _MESSAGE_LIMIT else text[:_MESSAGE_LIMIT] + "..."


def _say(stream: TextIO, text: str) -> None:
    """Write ``text``, replacing what the stream's encoding cannot show."""
    try:
        stream.write(text)
    except UnicodeEncodeError:
        encoding = stream.encoding or "ascii"
        stream.write(text.encode(encoding, "replace").decode(encoding))


def _complain(message: str, prefix: str = "") -> None:
    try:
        _say(sys.stderr, f"{prefix}boardcore: {_one_line(message)}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass  # stderr itself is gone: nothing left to tell


def _writable(path: str, what: str) -> None:
    target = Path(path)
    if target.is_dir():
        raise _UsageError(f"{what} {_quote(path)} is a directory")
    if not target.parent.is_dir():
        raise _UsageError(f"{what} {_quote(path)}: no directory {_quote(str(target.parent))}")


def _simulate(args: argparse.Namespace) -> str | None:
    """Run ``boardcore simulate``; return what goes to stdout (None: all went to files)."""
    from boardcore import _report
    from boardcore.stats import summarize

    if args.plot is not None:
        from boardcore import _plot

        _writable(args.plot, "--plot")
        _plot.check_target(args.plot)
    if args.output != "-":
        _writable(args.output, "--output")
    game = make(args.game, players=args.players, **dict(args.option))
    progress = not args.no_progress and _isatty(sys.stderr)
    # Without --csv only the exact counts are kept: constant memory for any count. With
    # --csv every row is kept (simulate refuses, naming the limit, rows that cannot fit).
    result: SimulationResult | SimulationSummary
    stopped: SimulationInterrupted | None = None
    try:
        result = simulate(game, args.games, seed=args.seed, workers=args.workers,
                          progress=progress, backend=args.backend, on_chunk=_Interrupt.check,
                          keep="rows" if args.csv else "summary")
    except SimulationInterrupted as stop:
        if stop.summary.games == 0:
            raise
        result, stopped = stop.summary, stop     # Ctrl-C: the summary of the games done
    figures = summarize(result) if args.plot is not None or not args.csv else None
    if args.plot is not None:
        _plot.save(result, args.plot, figures)
    if args.csv:
        assert isinstance(result, SimulationResult)
        if args.output == "-":
            _report.write_csv(result, sys.stdout)
            return None
        with open(args.output, "w", encoding="utf-8", newline="") as out:
            _report.write_csv(result, out)
        return None
    text = (_report.json_document(result, figures) if args.json
            else _report.text(result, figures) + "\n")
    if args.output == "-" and stopped is None:
        return text
    if args.output == "-":
        _say(sys.stdout, text)
        sys.stdout.flush()
    else:
        with open(args.output, "w", encoding="utf-8", newline="") as out:
            out.write(text)
    if stopped is not None:
        raise stopped       # exit 130, after the partial summary is out
    return None


def _arena(args: argparse.Namespace) -> str:
    """Run ``boardcore arena``; return what goes to stdout."""
    from boardcore.agents import agent_from_string
    from boardcore.arena import arena
    from boardcore.simulate import _ProgressBar

    agents = [a.strip() for a in args.agents.split(",")]
    for name in agents:
        agent_from_string(name, seed=0)
    game = make(args.game, players=args.players, **dict(args.option))
    bar = (_ProgressBar(args.games, sys.stderr)
           if not args.no_progress and _isatty(sys.stderr) else None)
    result = arena(game, agents, args.games, seed=args.seed, workers=args.workers,
                   on_game=bar.update if bar is not None else None, backend=args.backend)
    if bar is not None:
        bar.close(args.games)
    if args.json:
        return json.dumps(result.to_dict(), indent=1) + "\n"
    return result.table() + "\n"


def _ladder(args: argparse.Namespace) -> str:
    """Run ``boardcore ladder``; return what goes to stdout."""
    from boardcore.ladder import ladder, tables
    from boardcore.simulate import _ProgressBar

    agents = [a.strip() for a in args.agents.split(",")]
    if args.plot is not None:
        from boardcore import _plot

        _writable(args.plot, "--plot")
        _plot.check_target(args.plot)
    game = make(args.game, players=args.players, **dict(args.option))
    total = args.games * len(tables(agents, game.num_players))
    bar = (_ProgressBar(total, sys.stderr)
           if not args.no_progress and _isatty(sys.stderr) else None)

    def tick(done: int) -> None:
        _Interrupt.check(done)
        if bar is not None:
            bar.update(done)

    result = ladder(game, agents, args.games, seed=args.seed, workers=args.workers,
                    backend=args.backend, anchor=args.anchor, resamples=args.resamples,
                    on_game=tick)
    if bar is not None:
        bar.close(total)
    if args.plot is not None:
        _plot.ladder_figure(result).savefig(args.plot, dpi=100)
    if args.json:
        return json.dumps(result.to_dict(), indent=1) + "\n"
    return result.table() + "\n"


def _play_command(args: argparse.Namespace) -> None:
    """Run ``boardcore play``: everything is written as the game goes."""
    import secrets

    from boardcore._play import play

    bots = ([f"level:{args.level}"] if args.level is not None
            else [b.strip() for b in args.bots.split(",")])
    for name in bots:
        from boardcore.agents import agent_from_string

        agent_from_string(name, seed=0)
    if args.save is not None:
        _writable(args.save, "--save")
    game = make(args.game, players=args.players, **dict(args.option))
    seed = args.seed if args.seed is not None else secrets.randbits(64)
    play(game, seat=args.seat, bots=bots, seed=seed, stdin=sys.stdin, stdout=sys.stdout,
         save=args.save, hints=args.hint)


def _serve_command(args: argparse.Namespace) -> None:
    """Run ``boardcore serve`` until interrupted."""
    from boardcore.web import serve

    serve(args.host, args.port, args.db, workers=args.workers)


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _run(argv: Sequence[str] | None) -> int:
    try:
        args = _parser().parse_args(argv)
    except SystemExit as done:  # --help and --version
        return done.code if isinstance(done.code, int) else EXIT_OK
    if args.command == "rules":
        text: str | None = rules.text(args.game)
    elif args.command == "arena":
        text = _arena(args)
    elif args.command == "ladder":
        text = _ladder(args)
    elif args.command == "play":
        _play_command(args)
        text = None
    elif args.command == "serve":
        _serve_command(args)
        text = None
    else:
        text = _simulate(args)
    if text is not None:
        _say(sys.stdout, text)
    sys.stdout.flush()
    return EXIT_OK


def _quiet_stdout() -> None:
    """After a closed pipe: point stdout at devnull so the exit flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass  # not a real file (an in-process caller's stream): nothing to protect


class _Interrupt:
    """Ctrl-C, remembered until the command ends.

    A ``KeyboardInterrupt`` can be lost: raised inside a finalizer that the garbage
    collector runs, it is only printed. So the handler also sets ``seen``, and the
    simulate loop asks again after every chunk of games (``check``).
    """

    seen = False

    @classmethod
    def handle(cls, signum: int, frame: object) -> None:
        cls.seen = True
        raise KeyboardInterrupt

    @classmethod
    def check(cls, done: int) -> None:
        if cls.seen:
            raise KeyboardInterrupt


def _plain_newlines() -> None:
    """End lines with LF alone on stdout and stderr, as in the files the command writes.

    A text stream in Windows' text mode turns each LF into CR LF: piped or redirected
    output would differ from ``--output FILE`` and from every other platform.
    """
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):   # else an in-process caller's: left be
            stream.reconfigure(newline="\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit code.

    Never raises for any input: every failure is one line on stderr and an exit code
    (``EXIT_OK``, ``EXIT_BUG``, ``EXIT_USAGE`` or ``EXIT_INTERRUPTED``).
    """
    _Interrupt.seen = False
    _plain_newlines()
    if threading.current_thread() is not threading.main_thread():
        return _main(argv)      # signal handlers belong to the main thread
    previous = signal.signal(signal.SIGINT, _Interrupt.handle)
    try:
        return _main(argv)
    finally:
        signal.signal(signal.SIGINT, previous)


def _main(argv: Sequence[str] | None) -> int:
    try:
        return _run(argv)
    except BrokenPipeError:
        _quiet_stdout()
        return EXIT_OK
    except KeyboardInterrupt:
        if _isatty(sys.stderr):  # a progress bar may be half drawn: clear its line
            _complain("interrupted", "\r\x1b[K")
        else:
            _complain("interrupted")
        return EXIT_INTERRUPTED
    except _UsageError as exc:
        _complain(f"error: {exc}")
        return EXIT_USAGE
    except MemoryError as exc:
        _complain(f"error: not enough memory for these games ({exc or 'allocation failed'}): "
                  "play fewer; batches with different seeds add up")
        return EXIT_USAGE
    except RecursionError:
        _complain("error: a value is nested too deeply")
        return EXIT_USAGE
    except ImportError as exc:
        _complain(f"error: {exc}")
        return EXIT_USAGE
    except OSError as exc:
        name = f": {_quote(exc.filename)}" if isinstance(exc.filename, str) else ""
        _complain(f"error: {exc.strerror or exc}{name}")
        return EXIT_USAGE
    except (BoardcoreError, ValueError, TypeError, OverflowError) as exc:
        _complain(f"error: {exc}")
        return EXIT_USAGE
    except Exception as exc:  # a bug: say so in one line rather than a traceback
        _complain(f"internal error: {type(exc).__name__}: {exc} (please report this)")
        return EXIT_BUG


if __name__ == "__main__":
    sys.exit(main())
