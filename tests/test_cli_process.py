"""The boardcore command as a process: under a pipe, into files, on a terminal, on Ctrl-C."""

from __future__ import annotations

import functools
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import boardcore

BOARDCORE = [sys.executable, "-m", "boardcore"]
SIMULATE = [*BOARDCORE, "simulate", "just4fun", "--players", "4", "--seed", "1"]
posix_only = pytest.mark.skipif(os.name != "posix", reason="pipes and ptys as on POSIX")


def test_console_script_runs() -> None:
    done = subprocess.run([*SIMULATE, "--games", "1000"], capture_output=True, text=True,
                          check=True)
    assert "four_in_a_row" in done.stdout and "exhaustion" in done.stdout
    assert done.stderr == ""


def test_python_m_boardcore_is_the_command() -> None:
    done = subprocess.run([*BOARDCORE, "--version"], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, f"boardcore {boardcore.__version__}\n")
    script = shutil.which("boardcore", path=str(Path(sys.executable).parent))
    if script:  # the console script installed beside this interpreter
        same = subprocess.run([script, "--version"], capture_output=True, text=True)
        assert (same.returncode, same.stdout) == (done.returncode, done.stdout)
    bad = subprocess.run([*BOARDCORE, "simulate", "just4fun", "--players", "4", "--games",
                          "1000000000000000"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("boardcore: error: ") and bad.stderr.count("\n") == 1


CLOSED_PIPE = {
    "rules": [*BOARDCORE, "rules", "just4fun"],
    "summary": [*SIMULATE, "--games", "300"],
    "csv": [*SIMULATE, "--games", "3000", "--csv"],
    "json": [*SIMULATE, "--games", "300", "--json"],
    "help": [*BOARDCORE, "simulate", "--help"],
    "version": [*BOARDCORE, "--version"],
}


@posix_only
@pytest.mark.parametrize("command", CLOSED_PIPE.values(), ids=CLOSED_PIPE.keys())
def test_a_closed_pipe_ends_quietly(command: list[str]) -> None:
    read, write = os.pipe()
    os.close(read)  # the reader is gone before a byte is written: every write fails
    try:
        done = subprocess.run(command, stdout=write, stderr=subprocess.PIPE, timeout=120)
    finally:
        os.close(write)
    assert done.returncode == 0
    assert done.stderr == b""  # no traceback, no "Exception ignored"


@posix_only
@pytest.mark.parametrize("line", ["rules just4fun | head -3",
                                  "simulate just4fun --players 4 --seed 1 --games 300 | head -1",
                                  "simulate fool --players 4 --games 3e4 --seed 1 --csv | head -1"])
def test_head_reads_the_first_lines(line: str) -> None:
    command, head = line.split(" | ")
    python = " ".join([sys.executable, "-m", "boardcore"])
    done = subprocess.run(
        ["bash", "-c", f"{python} {command} | {head}; exit ${{PIPESTATUS[0]}}"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0 and done.stderr == ""
    assert len(done.stdout.splitlines()) == int(head.split("-")[-1])


@pytest.mark.parametrize("extra", [[], ["--json"], ["--csv"]], ids=["text", "json", "csv"])
def test_files_and_pipes_get_no_carriage_return(extra: list[str], tmp_path: Path) -> None:
    out, err = tmp_path / "out", tmp_path / "err"
    with out.open("wb") as o, err.open("wb") as e:
        done = subprocess.run([*SIMULATE, "--games", "3000", *extra], stdout=o, stderr=e)
    assert done.returncode == 0
    assert b"\r" not in out.read_bytes() and out.stat().st_size > 0
    assert err.read_bytes() == b""  # the bar is for terminals only
    piped = subprocess.run([*SIMULATE, "--games", "3000", *extra], capture_output=True)
    assert b"\r" not in piped.stdout and piped.stderr == b""


# The command as Windows runs it: stdout and stderr in text mode, where each "\n" written
# becomes "\r\n" (io.TextIOWrapper's newline=None on Windows), on any platform.
WINDOWS_TEXT_MODE = (
    "import io, sys\n"
    "for name in ('stdout', 'stderr'):\n"
    "    setattr(sys, name, io.TextIOWrapper(getattr(sys, name).buffer, newline='\\r\\n'))\n"
    "from boardcore.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


@pytest.mark.parametrize("args", [["simulate", "fool", "--players", "4", "--games", "300",
                                   "--seed", "1", *extra] for extra in ([], ["--csv"])]
                         + [["rules", "fool"], ["simulate", "fool", "--players", "9"]],
                         ids=["text", "csv", "rules", "error"])
def test_windows_text_mode_writes_plain_newlines(args: list[str]) -> None:
    done = subprocess.run([sys.executable, "-c", WINDOWS_TEXT_MODE, *args], capture_output=True)
    assert done.stdout.count(b"\n") + done.stderr.count(b"\n") > 0
    assert b"\r" not in done.stdout and b"\r" not in done.stderr


def test_this_machines_memory_is_known() -> None:
    # The check that refuses rows larger than memory needs it: on Windows too.
    have = sys.modules["boardcore.simulate"]._physical_memory()
    assert have is not None and have >= 2**26, have


def test_rows_larger_than_memory_are_refused(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from boardcore import cli

    module = sys.modules["boardcore.simulate"]
    played: list[int] = []

    def play(*args: object) -> None:
        played.append(1)
        raise KeyboardInterrupt     # stands for playing them: nothing is played here

    monkeypatch.setattr(module, "_run_parts", play)
    monkeypatch.setattr(module, "_physical_memory", lambda: 10**9)    # a 1 GB machine
    command = ["simulate", "just4fun", "--players", "4", "--games", "1e8", "--csv"]  # 6.4 GB
    assert cli.main(command) == cli.EXIT_USAGE and played == []
    err = capsys.readouterr().err
    assert "needs about 6.4 GB of memory, more than this machine's 1.0 GB" in err, err
    monkeypatch.setattr(module, "_physical_memory", lambda: None)     # unknown: not refused
    monkeypatch.setattr(module, "_rows", lambda game, n: (np.zeros((1, 4), np.int64),) * 4)
    assert cli.main(command) == cli.EXIT_INTERRUPTED and played == [1]
    # Without --csv only the counts are kept: no row limit at all.
    monkeypatch.setattr(module, "_physical_memory", lambda: 10**9)
    assert cli.main(command[:-1]) == cli.EXIT_INTERRUPTED and played == [1, 1]


def test_a_trillion_rows_are_refused_by_the_process() -> None:
    done = subprocess.run([*SIMULATE, "--games", "1e12", "--csv"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert "of memory, more than this machine's" in done.stderr
    assert "keep='summary' gives the exact summary in constant memory" in done.stderr


def _read_until(fd: int, marker: bytes, seconds: float) -> bytes:
    seen = b""
    end = time.monotonic() + seconds
    while marker not in seen and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the terminal's other side closed
                break
            if not chunk:
                break
            seen += chunk
    return seen


@posix_only
@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_bar_is_drawn_on_a_terminal_and_ctrl_c_ends_in_one_line(workers: str) -> None:
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    # Far more games than the test waits for (minutes of play): it ends only by the
    # interrupt, sent once the bar shows that games are being played.
    proc = subprocess.Popen([*SIMULATE, "--games", "1e7", "--workers", workers],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    try:
        # The bar shows games done (not the first frame's 0): some chunks are counted.
        drawn = _read_until(master, b" games ", 60)
        while not re.search(rb"\] [1-9][0-9]*/10000000 games", drawn):
            more = _read_until(master, b" games ", 60)
            assert more, drawn
            drawn += more
        assert drawn.startswith(b"\r["), drawn
        proc.send_signal(signal.SIGINT)
        start = time.monotonic()
        # The terminal is read before waiting for the exit: a terminal nobody reads
        # fills up and then blocks the writer.
        rest = _read_until(master, b"interrupted\r\n", 60)
        out, _ = proc.communicate(timeout=60)
        stopped = time.monotonic() - start
    finally:
        _end(proc)
        os.close(master)
    assert proc.returncode == 130
    _assert_partial(out)
    assert stopped < 20  # the queued chunks were dropped, not played
    # What the terminal shows last is the message alone on its line: the bar's line is
    # returned to (\r) and cleared (ESC [K) first, in case the bar was cut short.
    lines = (drawn + rest).replace(b"\r\n", b"\n").split(b"\n")
    assert lines[-1] == b"" and lines[-2].endswith(b"\r\x1b[Kboardcore: interrupted")
    assert lines[-2].split(b"\r")[-1] == b"\x1b[Kboardcore: interrupted", lines[-3:]
    assert b"Traceback" not in drawn + rest and b"KeyboardInterrupt" not in drawn + rest


def _assert_partial(out: bytes) -> None:
    """Ctrl-C printed the summary of the games finished, marked partial, on stdout."""
    head = re.match(rb"just4fun: PARTIAL, interrupted after ([0-9,]+) of 10,000,000 games, "
                    rb"4 players, seed 1\n", out)
    assert head, out[:200]
    done = int(head.group(1).replace(b",", b""))
    assert 0 < done < 10_000_000 and done % 4096 == 0          # whole chunks
    assert re.search(rf"\n  total +{done:,} +100\.00%\n".encode(), out), out
    assert b"what the words mean" in out


def _end(proc: subprocess.Popen[bytes]) -> None:
    # A test that failed midway leaves no process and no open pipe behind (either
    # would fail a later test with a ResourceWarning).
    if proc.poll() is None:
        proc.kill()
    proc.communicate()


@functools.cache
def _import_cpu() -> float:
    """CPU seconds a fresh interpreter takes to import the command and the agents.

    Measured, not assumed: about 0.5 s on a release build, several times that under
    AddressSanitizer, so that a wait for "imports done" holds on every build.
    """
    before = os.times()
    subprocess.run([sys.executable, "-c", "import boardcore.cli, boardcore.agents"],
                   check=True)
    after = os.times()
    return ((after.children_user + after.children_system)
            - (before.children_user + before.children_system))


def _wait_past_imports(pid: int) -> None:
    """Wait until process ``pid`` is surely past its imports and at work (Linux).

    CPU time, unlike a sleep, does not depend on the load of the machine.
    """
    _wait_for_cpu(pid, 2 * _import_cpu() + 1.0)


def _wait_for_cpu(pid: int, seconds: float) -> None:
    """Wait until process ``pid`` has used ``seconds`` of CPU (Linux), else 3 s."""
    stat = Path(f"/proc/{pid}/stat")
    if not stat.exists():
        time.sleep(3)
        return
    tick = os.sysconf("SC_CLK_TCK")
    end = time.monotonic() + 120
    while time.monotonic() < end:
        fields = stat.read_text().rsplit(")", 1)[1].split()
        if (int(fields[11]) + int(fields[12])) / tick >= seconds:  # utime + stime
            return
        time.sleep(0.05)
    pytest.fail(f"the process used less than {seconds} s of CPU in 120 s")


@posix_only
def test_ctrl_c_off_a_terminal_is_one_line_too(tmp_path: Path) -> None:
    err = tmp_path / "err"
    with err.open("wb") as e:
        proc = subprocess.Popen([*SIMULATE, "--games", "1e7"], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=e)
        try:
            # No bar off a terminal to say when play began: wait until the process has
            # used more CPU than its imports take, far from the end (minutes of games).
            _wait_past_imports(proc.pid)
            proc.send_signal(signal.SIGINT)
            out, _ = proc.communicate(timeout=60)
        finally:
            _end(proc)
    assert proc.returncode == 130
    _assert_partial(out)
    assert err.read_bytes() == b"boardcore: interrupted\n"


def test_optional_extras_are_not_imported_unless_asked() -> None:
    code = (
        "import sys\n"
        "import boardcore, boardcore.cli, boardcore.stats\n"
        "assert boardcore.cli.main(['simulate', 'fool', '--players', '4', '--games', '50',"
        " '--seed', '1', '--json', '-O', '/dev/null' if sys.platform != 'win32' else 'NUL']) == 0\n"
        "print(sorted(m for m in ('matplotlib', 'pandas', 'tqdm', 'rich') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout == "[]\n"


def test_the_core_install_needs_only_numpy() -> None:
    from importlib.metadata import requires

    needed = [r for r in requires("boardcore") or [] if "extra ==" not in r]
    assert [r.split(">")[0].split("=")[0].strip() for r in needed] == ["numpy"]
    extras = " ".join(r for r in requires("boardcore") or [] if "extra ==" in r)
    assert 'extra == "plot"' in extras and 'extra == "pandas"' in extras
