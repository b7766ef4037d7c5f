"""What every fuzz harness shares: the byte reader, the error discipline, the atheris driver.

A harness is a module ``tests/fuzz/fuzz_<target>.py`` with one function
``one_input(data: bytes)`` that raises only when boardcore broke its contract.  The
function never needs atheris: ``tests/test_fuzz_corpus.py`` replays every file of the
seed corpus through it in the ordinary test run, and ``python -m tests.fuzz.fuzz_<target>
[libFuzzer flags] DIR...`` (what ``make fuzz`` runs) drives it coverage-guided.

The contract checked (docs/api.md, "Errors"): any input to a public call ends in its
result or in a documented exception -- ``TypeError`` for a value of the wrong type, the
``BoardcoreError`` family otherwise -- whose message quotes at most about 200 characters
of the bad value; a refused call leaves the state as it was; notation is ASCII.
"""

from __future__ import annotations

import gc
import sys
import types
from collections.abc import Callable
from typing import Any

import boardcore
from boardcore import BoardcoreError
from boardcore._registry import GAME_CLASSES

#: The longest error message allowed: a quoted bad value (200 characters and its
#: length), the twelve legal actions an illegal-action message lists, and the prose.
MESSAGE_LIMIT = 800


class ContractError(AssertionError):
    """boardcore broke its contract on this input (the fuzzer's finding)."""


class Bytes:
    """Read a fuzzer's bytes as small numbers and text; past the end every read is 0/empty."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def byte(self) -> int:
        if self.pos >= len(self.data):
            return 0
        self.pos += 1
        return self.data[self.pos - 1]

    def uint(self, size: int) -> int:
        """The next ``size`` bytes, little-endian."""
        return int.from_bytes(bytes(self.byte() for _ in range(size)), "little")

    def below(self, n: int) -> int:
        return self.byte() % n

    def rest(self) -> bytes:
        out = self.data[self.pos:]
        self.pos = len(self.data)
        return out

    def text(self) -> str:
        """The remaining bytes as text, the way a terminal or file would give them."""
        return self.rest().decode("utf-8", "surrogateescape")

    def more(self) -> bool:
        return self.pos < len(self.data)


def game_and_state(reader: Bytes) -> tuple[Any, Any]:
    """A game (which one, how many players: 2 bytes) and a position (seed: 8 bytes)."""
    name = boardcore.GAMES[reader.below(len(boardcore.GAMES))]
    cls = GAME_CLASSES[name]
    players = cls.min_players + reader.below(cls.max_players - cls.min_players + 1)
    game = boardcore.make(name, players=players)
    return game, game.new_state(seed=reader.uint(8))


def check_refusal(exc: BaseException, call: str) -> None:
    """``exc`` refused ``call``: it must be a documented exception with a short message."""
    if not isinstance(exc, (TypeError, BoardcoreError)):
        raise ContractError(f"{call} raised {type(exc).__name__}: {str(exc)[:300]}") from exc
    message = str(exc)
    if len(message) > MESSAGE_LIMIT:
        raise ContractError(
            f"{call} raised {type(exc).__name__} with a {len(message)}-character message: "
            f"{message[:300]}...") from exc


def call(what: str, fn: Callable[..., Any], *args: Any) -> tuple[bool, Any]:
    """Run ``fn(*args)``: ``(True, result)``, or ``(False, exc)`` for a documented refusal."""
    try:
        return True, fn(*args)
    except Exception as exc:  # every exception is judged by check_refusal
        check_refusal(exc, what)
        return False, exc


def check_notation(state: Any, action: int) -> str:
    """``action_to_str`` is ASCII and ``parse_action`` reads it back to the same action."""
    text = state.action_to_str(action)
    if not isinstance(text, str) or not text.isascii():
        raise ContractError(f"action {action} is written {text!r}: not ASCII text")
    back = state.parse_action(text)
    if back != action:
        raise ContractError(f"action {action} is written {text!r}, which parses as {back}")
    return text


def check_loads_back(state: Any) -> None:
    """``to_dict()`` of ``state`` loads back to the same document."""
    doc = state.to_dict()
    again = state.game.state_from_dict(doc).to_dict()
    if again != doc:
        raise ContractError(f"to_dict() does not load back: {_first_difference(doc, again)}")


def unchanged(before: dict[str, Any], state: Any, what: str) -> None:
    """A refused call must leave the state exactly as it was."""
    after = state.to_dict()
    if after != before:
        raise ContractError(f"refused {what} changed the state: "
                            f"{_first_difference(before, after)}")


def _first_difference(a: dict[str, Any], b: dict[str, Any]) -> str:
    for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key):
            return f"field {key!r}: {str(a.get(key))[:100]} != {str(b.get(key))[:100]}"
    return "no field differs"


def run(one_input: Callable[[bytes], None]) -> None:
    """Drive ``one_input`` with atheris; libFuzzer's flags and corpus dirs come from argv.

    Coverage is Python-level: every function of ``boardcore``'s Python modules (the
    facade, records, values, the CLI ...), of argparse and of the harnesses is instrumented,
    nothing else (``instrument_all`` takes minutes over numpy and the standard library);
    the compiled engines are not instrumented -- their branches are reached through the
    facade, and the sanitizer build (``make sanitize``) checks their memory.
    """
    import atheris

    for obj in gc.get_objects():
        if isinstance(obj, types.FunctionType) and \
                str(obj.__module__).startswith(("boardcore", "tests.fuzz", "__main__", "argparse")):
            atheris.instrument_func(obj)
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
