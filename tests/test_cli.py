"""The boardcore command in-process: summaries, outputs, counts, errors and exit codes.

How it behaves as a process (pipes, files, a terminal, Ctrl-C) is in test_cli_process.py.
"""

from __future__ import annotations

import csv
import io
import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

import boardcore
from boardcore import cli
from boardcore.cli import EXIT_BUG, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, main
from boardcore.stats import summarize
from tests.conftest import player_counts

ROOT = Path(__file__).resolve().parent.parent


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def run_game(name: str, games: int, seed: int,
             capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str, int]:
    """``boardcore simulate`` of ``name`` at its most players: code, stdout, stderr, players."""
    players = player_counts(name)[-1]
    code, out, err = run(["simulate", name, "--players", str(players), "--games", str(games),
                          "--seed", str(seed)], capsys)
    return code, out, err, players


def assert_one_line_error(err: str) -> None:
    assert err.startswith("boardcore: error: "), err
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err and len(err) < 420, err


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_simulate_prints_a_summary(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err, players = run_game(name, 300, 1, capsys)
    assert code == EXIT_OK
    assert f"{name}: 300 games, {players} players, seed 1" in out
    assert "win rate" in out and "95% CI" in out and "mean score" in out
    assert "length (actions)" in out and "throughput" in out
    for label in boardcore.make(name, players=players).end_reasons:
        assert label in out
    assert err == ""  # not a terminal: no progress bar


def _table(out: str, title: str) -> tuple[list[tuple[int, float]], tuple[int, float]]:
    """The rows (games, percent) of a counted table, and its total row."""
    lines = out.split(f"\n{title}:")[1].split("\n\n")[0].splitlines()[1:]
    rows = [(int(m[1].replace(",", "")), float(m[2]))
            for m in (re.search(r"\s([\d,]+)\s+([\d.]+)%$", line) for line in lines) if m]
    return rows[:-1], rows[-1]


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_summary_percentages_add_up(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _, players = run_game(name, 777, 5, capsys)
    assert code == EXIT_OK
    titles = ["who won", *(["how games ended"] if boardcore.make(
        name, players=players).end_reasons else [])]
    for title in titles:
        rows, total = _table(out, title)
        assert total == (777, 100.0)
        assert sum(g for g, _ in rows) == 777
        assert round(sum(p for _, p in rows), 2) == 100.0, (title, rows)


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_summary_explains_its_words(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _, players = run_game(name, 400, 2, capsys)
    game = boardcore.make(name, players=players)
    notes = out.split("what the words mean:")[1]
    assert "shared win: a game with several winners" in notes
    assert "win rate: the games a seat won, alone or shared" in notes
    result = boardcore.simulate(game, 400, seed=2)
    total = 100 * result.winners.sum() / 400
    assert f"here they add up to {total:.2f}%" in " ".join(notes.split())
    for word in (*game.end_reasons, *(s for s in game.stat_names if s != "end")):
        line = next(line for line in notes.splitlines() if line.strip().startswith(f"{word}:"))
        assert len(line.split(":", 1)[1].strip()) > 15, f"{word} is not explained"
    # a seat's win rate is its 'alone' share plus its 'shared' share
    s = summarize(result)
    for seat in s.seats:
        assert seat.alone + seat.shared == seat.wins


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


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["--version"], capsys)
    assert (code, out, err) == (EXIT_OK, f"boardcore {boardcore.__version__}\n", "")


def test_every_option_shows_its_range_and_default() -> None:
    parser = cli._parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    simulate = sub.choices["simulate"]  # type: ignore[index]
    ranges = {"players": "2..4", "games": "1..1e12", "seed": "0..2**64-1",
              "workers": "1..1024", "game": "just4fun, three_or_more, fool"}
    for action in simulate._actions:
        if action.dest == "help":
            continue
        text = simulate._get_formatter()._expand_help(action)
        assert "default" in text or action.required, f"--{action.dest}: {text}"
        if action.dest in ranges:
            assert ranges[action.dest] in text, f"--{action.dest}: {text}"
    assert "fool 4..8" in simulate.format_help()


@pytest.mark.parametrize("spelling", ["100", "100_000", "1e5", "1E5", "1.5e2", "+200"])
def test_game_counts_are_read_as_written(spelling: str, capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    expected = {"100": 100, "100_000": 100_000, "1e5": 100_000, "1E5": 100_000,
                "1.5e2": 150, "+200": 200}[spelling]
    seen: list[int] = []

    def fake(game: object, games: int, **kw: object) -> object:
        seen.append(games)
        return boardcore.simulate(game, 7, seed=1)  # type: ignore[arg-type]

    monkeypatch.setattr(cli, "simulate", fake)
    code, _, _ = run(["simulate", "just4fun", "--players", "2", "--games", spelling], capsys)
    assert code == EXIT_OK and seen == [expected]


@pytest.mark.parametrize("bad", ["1.5", "0", "-3", "abc", "", "inf", "nan", "1e15",
                                 "1000000000000000", "1e999999999", "1__0", "0x10", "١٠٠"])
def test_bad_game_counts_are_one_line(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["simulate", "just4fun", "--players", "2", "--games", bad], capsys)
    assert code == EXIT_USAGE and out == ""
    assert_one_line_error(err)
    assert "--games" in err


DEEP = "[" * 100_000
HOSTILE = [
    ["simulate", "just4fun", "--players", "2", "-o", "layout=" + DEEP],
    ["simulate", "just4fun", "--players", "2", "-o", "layout=" + "[" * 900 + "]" * 900],
    ["simulate", "fool", "--players", "4", "-o", "deck=" + "[" * 900 + "]" * 900],
    ["simulate", "three_or_more", "--players", "2", "-o", "deck=" + "[" * 900 + "]" * 900],
    ["simulate", "just4fun", "--players", "2", "-o", "layout=" + json.dumps(list(range(30000)))],
    ["simulate", "just4fun", "--players", "2", "-o", "layout=" + "x" * 100_000],
    ["simulate", "just4fun", "--players", "2", "-o", "x" * 100_000],
    ["simulate", "just4fun", "--players", "2", "-o", "out.csv"],
    ["simulate", "just4fun", "--players", "2", "-o", "players=3"],
    ["simulate", "just4fun", "--players", "2", "-o", "name=fool"],
    ["simulate", "just4fun", "--players", "2", "-o", "start_player=1e400"],
    ["simulate", "just4fun", "--players", "x" * 100_000],
    ["simulate", "just4fun", "--players", "9" * 5000],
    ["simulate", "just4fun", "--players", "-1"],
    ["simulate", "just4fun", "--players", "٢"],
    ["simulate", "just4fun", "--players", "2", "--seed", "١"],
    ["simulate", "just4fun"],
    ["simulate", "chess", "--players", "2"],
    ["simulate", "just4fun", "--players", "2", "--seed", str(2**64)],
    ["simulate", "just4fun", "--players", "2", "--seed", "-1"],
    ["simulate", "just4fun", "--players", "2", "--workers", "0"],
    ["simulate", "just4fun", "--players", "2", "--workers", "1e9"],
    ["simulate", "just4fun", "--players", "2", "--json", "--csv"],
    ["simulate", "just4fun", "--players", "2", "--output", "/nonexistent/dir/x.json"],
    ["simulate", "just4fun", "--players", "2", "--output", "."],
    ["simulate", "just4fun", "--players", "2", "--plot", "/nonexistent/dir/x.png"],
    ["simulate", "just4fun", "--players", "2", "--games", "1e12", "--csv"],
    ["simulate", "just4fun", "--players", "2", "--frobnicate"],
    ["simulate", "just4fun", "--play", "2"],
    ["rules", "chess"],
    ["rules"],
    [],
    ["\udcff"],
]


@pytest.mark.parametrize("args", HOSTILE, ids=lambda a: " ".join(a)[:60])
def test_no_traceback_for_any_input(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(args, capsys)
    assert code == EXIT_USAGE and out == ""
    assert_one_line_error(err)


def test_more_rows_than_memory_are_refused_before_playing(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # --csv keeps a row per game: refused, naming the limit, before any game is played.
    module = sys.modules["boardcore.simulate"]
    monkeypatch.setattr(module, "_run_parts", lambda *a: pytest.fail("played"))
    monkeypatch.setattr(module, "_physical_memory", lambda: 2**30)
    code, _, err = run(["simulate", "just4fun", "--players", "4", "--games", "1e9", "--csv"],
                       capsys)
    assert code == EXIT_USAGE and "1,000,000,000 games needs about" in err, err
    assert f"at most {2**30 // 64:,} games keep their rows here" in err
    assert "keep='summary'" in err
    assert_one_line_error(err)


def test_the_summary_needs_no_rows(capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # Without --csv the command keeps only the counts: no row limit applies.
    module = sys.modules["boardcore.simulate"]
    seen: list[object] = []
    real = cli.simulate

    def spy(*args: object, **kwargs: object) -> object:
        seen.append(kwargs["keep"])
        return real(*args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(module, "_physical_memory", lambda: 1)   # not even one row fits
    monkeypatch.setattr(cli, "simulate", spy)
    code, out, _ = run(["simulate", "just4fun", "--players", "2", "--games", "5000",
                        "--seed", "1"], capsys)
    assert code == EXIT_OK and seen == ["summary"] and "just4fun: 5,000 games" in out


@pytest.mark.parametrize(("exc", "code", "message"), [
    (KeyboardInterrupt(), EXIT_INTERRUPTED, "boardcore: interrupted\n"),
    (MemoryError(), EXIT_USAGE, "boardcore: error: not enough memory"),
    (RecursionError(), EXIT_USAGE, "boardcore: error: a value is nested too deeply\n"),
    (BrokenPipeError(), EXIT_OK, ""),
    (RuntimeError("boom\n" * 200), EXIT_BUG, "boardcore: internal error: RuntimeError: boom"),
])
def test_failures_end_in_one_line_and_an_exit_code(
        exc: BaseException, code: int, message: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: object, **kwargs: object) -> None:
        raise exc

    monkeypatch.setattr(cli, "simulate", fail)
    got, out, err = run(["simulate", "just4fun", "--players", "2"], capsys)
    assert got == code and out == ""
    assert err.startswith(message) and err.count("\n") == (1 if message else 0), err
    assert len(err) < 420


def _summary(args: list[str]) -> boardcore.SimulationResult:
    return boardcore.simulate(boardcore.make(args[0], players=int(args[1])), int(args[2]),
                              seed=int(args[3]))


def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["simulate", "fool", "--players", "5", "--games", "600", "--seed",
                          "4", "--json"], capsys)
    assert code == EXIT_OK and err == ""
    doc = json.loads(out)
    result = _summary(["fool", "5", "600", "4"])
    assert doc["format"] == "boardcore-simulation" and doc["version"] == 2
    assert (doc["game"], doc["players"], doc["games"], doc["seed"]) == ("fool", 5, 600, 4)
    assert doc["partial"] is False and doc["requested"] == 600
    # The histograms are exact: every row's value counted once.
    hist = doc["histograms"]
    assert sorted(hist) == sorted(["length", "end", "rounds",
                                   *(f"score_{p}" for p in range(5))])
    for name, column in [("length", result.lengths), ("rounds", result.stats["rounds"]),
                         ("end", result.stats["end"]),
                         *((f"score_{p}", result.scores[:, p]) for p in range(5))]:
        values, counts = np.unique(column, return_counts=True)
        assert hist[name] == {"values": values.tolist(), "counts": counts.tolist()}, name
    assert [s["wins"] for s in doc["seats"]] == result.winners.sum(axis=0).tolist()
    assert doc["won_alone"] + doc["shared_games"] + doc["no_winner"] == 600
    assert sum(e["games"] for e in doc["ends"]) == 600
    assert all(e["meaning"] for e in doc["ends"]) and doc["stat_meanings"]["rounds"]
    assert "shared" in doc["notes"] and "win_rate" in doc["notes"]
    for seat in doc["seats"]:
        assert seat["ci_low"] <= seat["win_rate"] <= seat["ci_high"]


def test_csv_output_one_row_per_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["simulate", "rummikub_junior", "--players", "3", "--games", "250",
                          "--seed", "8", "--csv"], capsys)
    assert code == EXIT_OK and err == ""
    rows = list(csv.DictReader(io.StringIO(out)))
    result = _summary(["rummikub_junior", "3", "250", "8"])
    assert len(rows) == 250
    assert list(rows[0]) == ["index", "score_0", "score_1", "score_2", "winner_0", "winner_1",
                             "winner_2", "length", "end", "turns"]
    assert [int(r["index"]) for r in rows] == list(range(250))
    assert np.array_equal([[int(r[f"score_{p}"]) for p in range(3)] for r in rows],
                          result.scores)
    assert np.array_equal([[r[f"winner_{p}"] == "1" for p in range(3)] for r in rows],
                          result.winners)
    assert [int(r["length"]) for r in rows] == result.lengths.tolist()
    ends = result.game.end_reasons
    assert [r["end"] for r in rows] == [ends[c] for c in result.stats["end"]]
    assert [int(r["turns"]) for r in rows] == result.stats["turns"].tolist()


@pytest.mark.parametrize("fmt", ["text", "--json", "--csv"])
def test_output_file(fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "out"
    extra = [] if fmt == "text" else [fmt]
    code, out, err = run(["simulate", "three_or_more", "--players", "2", "--games", "50",
                          "--seed", "3", "--output", str(target), *extra], capsys)
    assert (code, out, err) == (EXIT_OK, "", "")
    data = target.read_bytes()
    assert b"\r" not in data and data.endswith(b"\n")
    if fmt == "--json":
        assert json.loads(data)["games"] == 50
    elif fmt == "--csv":
        assert data.count(b"\n") == 51
    else:
        assert data.startswith(b"three_or_more: 50 games")
    # -O is the short form; -o stays the game option
    again = tmp_path / "again"
    assert main(["simulate", "three_or_more", "--players", "2", "--games", "50", "--seed",
                 "3", "-O", str(again), *extra]) == EXIT_OK
    if fmt == "--csv":
        assert again.read_bytes() == data
    elif fmt == "--json":
        first, second = json.loads(data), json.loads(again.read_bytes())
        del first["seconds"], second["seconds"]
        assert first == second


def test_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    png, svg = tmp_path / "p.png", tmp_path / "p.svg"
    code, out, _ = run(["simulate", "fool", "--players", "4", "--games", "300", "--seed",
                        "1", "--plot", str(png)], capsys)
    assert code == EXIT_OK and out.startswith("fool: 300 games")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 20_000
    assert main(["simulate", "three_or_more", "--players", "4", "--games", "100", "--seed",
                 "1", "--plot", str(svg), "--csv", "-O", str(tmp_path / "x.csv")]) == 0
    from xml.etree import ElementTree

    root = ElementTree.parse(svg).getroot()
    text = svg.read_text()
    assert root.tag.endswith("svg")
    for title in ("win rate by seat", "final scores per seat", "game length"):
        assert all(word in text for word in title.split())
    code, _, err = run(["simulate", "fool", "--players", "4", "--plot",
                        str(tmp_path / "p.nope")], capsys)
    assert code == EXIT_USAGE and ".png" in err
    assert_one_line_error(err)


def test_plot_without_matplotlib_names_the_extra_before_playing(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    monkeypatch.setattr(cli, "simulate", lambda *a, **k: pytest.fail("played"))
    code, _, err = run(["simulate", "fool", "--players", "4", "--plot",
                        str(tmp_path / "p.png")], capsys)
    assert code == EXIT_USAGE and "pip install 'boardcore[plot]'" in err
    assert_one_line_error(err)


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_rules_prints_the_rules_page(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", name]) == 0
    out = capsys.readouterr().out
    assert "rules as boardcore implements them" in out


def test_readme_first_command_still_parses_and_runs(capsys: pytest.CaptureFixture[str]) -> None:
    readme = (ROOT / "README.md").read_text()
    line = re.search(r"\.venv/bin/boardcore (simulate [^\n`]*)", readme)
    assert line, "the README's first command moved"
    args = line[1].split()
    assert args == ["simulate", "just4fun", "--players", "4", "--games", "100000",
                    "--seed", "1"]
    parsed = cli._parser().parse_args(args)
    assert (parsed.games, parsed.players, parsed.seed) == (100_000, 4, 1)
    args[args.index("--games") + 1] = "2000"  # kept short: the suite must stay fast
    code, out, _ = run(args, capsys)
    assert code == EXIT_OK and out.startswith("just4fun: 2,000 games, 4 players, seed 1")


def test_csv_is_written_block_by_block(monkeypatch: pytest.MonkeyPatch) -> None:
    from boardcore import _report

    result = boardcore.simulate(boardcore.make("fool", players=4), 30, seed=1)
    whole = io.StringIO()
    _report.write_csv(result, whole)
    monkeypatch.setattr(_report, "_CSV_BLOCK", 7)  # 30 rows: blocks of 7, 7, 7, 7 and 2
    blocks = io.StringIO()
    _report.write_csv(result, blocks)
    assert blocks.getvalue() == whole.getvalue() and whole.getvalue().count("\n") == 31


def test_a_lost_interrupt_still_stops_the_games(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    # A KeyboardInterrupt raised inside a finalizer is only printed, never seen by the
    # command (seen under a starved `make wheels`: Ctrl-C, then every game played). The
    # command remembers Ctrl-C and the games stop at the next chunk all the same.
    import signal

    played: list[int] = []
    real = cli.simulate

    def simulate(*args: object, **kwargs: object) -> object:
        try:
            signal.getsignal(signal.SIGINT)(signal.SIGINT, None)  # type: ignore[operator]
        except KeyboardInterrupt:
            pass                                    # lost, as in a finalizer
        on_chunk = kwargs["on_chunk"]

        def counting(done: int) -> None:
            played.append(done)
            on_chunk(done)  # type: ignore[operator]
        return real(*args, **{**kwargs, "on_chunk": counting})

    monkeypatch.setattr(cli, "simulate", simulate)
    before = signal.getsignal(signal.SIGINT)
    code = main(["simulate", "just4fun", "--players", "2", "--games", "100000", "--seed", "1"])
    assert code == EXIT_INTERRUPTED and played == [4096]
    assert capsys.readouterr().err == "boardcore: interrupted\n"
    assert signal.getsignal(signal.SIGINT) is before       # the handler is put back
