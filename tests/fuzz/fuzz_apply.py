"""``apply``, ``undo`` and ``copy`` driven by bytes: legal moves, illegal ones, wrong types.

Input: game and players (2 bytes), seed (8), then one step per byte: mostly a legal
action (its index taken from the next byte), else an out-of-range or wrong-typed
argument (``2**64``, ``-1``, ``True``, ``1.0``, ``"3"``, ``None``, numpy integers of
every width ...), an undo, a copy played on.  Every refusal is documented and changes
nothing; every legal action's notation is ASCII and reads back; the final position's
``to_dict()`` loads back.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardcore import IllegalActionError
from tests.fuzz._harness import (
    Bytes,
    ContractError,
    call,
    check_loads_back,
    check_notation,
    game_and_state,
    run,
    unchanged,
)

MAX_STEPS = 400


def _odd_argument(reader: Bytes, num_actions: int) -> Any:
    """A value ``apply`` must refuse or read as an integer action."""
    kind = reader.below(12)
    raw = reader.uint(reader.below(9))
    return [
        lambda: raw,                        # any unsigned int up to 2**64-1
        lambda: -1 - raw,                   # negative
        lambda: num_actions + raw,          # just past the end
        lambda: 2**64 + raw,                # past every C integer
        lambda: bool(raw & 1),
        lambda: float(raw),
        lambda: str(raw),
        lambda: None,
        lambda: np.int64(raw - 2**63),
        lambda: np.uint64(raw),
        lambda: np.int8(raw % 256 - 128),
        lambda: [raw],
    ][kind]()


def _odd_apply(state: Any, value: Any, before: dict[str, Any]) -> None:
    """Apply ``value``: an integer is played if legal, refused otherwise; others: TypeError."""
    integer = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    legal = state.legal_actions()
    ok, exc = call(f"apply({value!r:.60})", state.apply, value)
    if ok:
        if not integer or int(value) not in legal:
            raise ContractError(f"apply accepted {value!r:.60}; legal: {legal[:12]}")
        return
    if integer and int(value) in legal:
        raise ContractError(f"apply refused the legal action {value!r}: {exc}")
    expected = IllegalActionError if integer else TypeError
    if not isinstance(exc, expected):
        raise ContractError(f"apply({value!r:.60}) raised {type(exc).__name__}: {exc}; "
                            f"expected {expected.__name__}")
    unchanged(before, state, f"apply({value!r:.60})")


def one_input(data: bytes) -> None:
    reader = Bytes(data)
    game, state = game_and_state(reader)
    for _ in range(MAX_STEPS):
        if not reader.more():
            break
        op = reader.byte()
        if op < 160:
            legal = state.legal_actions()
            if legal:
                action = legal[reader.below(len(legal))]
                check_notation(state, action)
                state.apply(action)
            continue
        before = state.to_dict()
        if op < 230:
            value = _odd_argument(reader, game.num_actions)
            _odd_apply(state, value, before)
        elif op < 250:
            ok, _ = call("undo()", state.undo)
            if not ok:
                unchanged(before, state, "undo()")
        else:
            copy = state.copy()
            copy.rollout(seed=reader.uint(4))
            unchanged(before, state, "rollout() of a copy")
            check_loads_back(copy)
    check_loads_back(state)


if __name__ == "__main__":
    run(one_input)
