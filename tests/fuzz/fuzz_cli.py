"""The ``boardcore`` command line on any arguments.

Input: the arguments, separated by NUL bytes (as the kernel hands them over; undecodable
bytes arrive as surrogates, as in ``sys.argv``).  Only the parsing and checking is
fuzzed: the work itself (``simulate``, ``arena``, ``play``) is replaced by a stand-in
that stops the run once the command has been read, the game made and the files checked,
so that a fuzzed ``--games 1e12`` costs nothing and nothing is ever written.  ``main``
must return 0 (``--help``, ``--version``, ``rules``) or 2 with one line on stderr, and
never 1 (an internal error) or a traceback.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import sys
from collections.abc import Iterator
from typing import Any

from boardcore import cli
from tests.fuzz._harness import ContractError, run

# (boardcore.arena is the function: the package re-exports it over its module's name)
_ARENA = importlib.import_module("boardcore.arena")
_PLAY = importlib.import_module("boardcore._play")

#: A usage error is one line: "boardcore: error: " and a message cut at 300 characters.
LINE_LIMIT = 400


class _Started(BaseException):
    """The command was read and checked, and its work would start now."""


def _stand_in(*args: Any, **kwargs: Any) -> Any:
    raise _Started


@contextlib.contextmanager
def stand_ins() -> Iterator[None]:
    """Replace the commands' work by ``_stand_in`` and their streams by buffers."""
    saved = (cli.simulate, _ARENA.arena, _PLAY.play, sys.stdin, sys.stdout, sys.stderr)
    cli.simulate = _ARENA.arena = _PLAY.play = _stand_in
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(), io.StringIO(), io.StringIO()
    try:
        yield
    finally:
        cli.simulate, _ARENA.arena, _PLAY.play, sys.stdin, sys.stdout, sys.stderr = saved


def arguments(data: bytes) -> list[str]:
    if not data:
        return []
    return [a.decode("utf-8", "surrogateescape") for a in data.split(b"\0")]


def one_input(data: bytes) -> None:
    argv = arguments(data)
    with stand_ins():
        try:
            code = cli.main(argv)
        except _Started:
            return
        err = sys.stderr.getvalue()
    if code == cli.EXIT_OK:
        return
    if code != cli.EXIT_USAGE:
        raise ContractError(f"boardcore {argv!r:.300} exited {code}: {err[:400]}")
    lines = err.splitlines()
    if len(lines) != 1 or not lines[0].startswith("boardcore: error: ") \
            or len(lines[0]) > LINE_LIMIT or "Traceback" in err:
        raise ContractError(f"boardcore {argv!r:.300} exited 2 saying {err[:500]!r}")


if __name__ == "__main__":
    run(one_input)
