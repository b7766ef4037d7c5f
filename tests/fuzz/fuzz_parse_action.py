"""``parse_action`` on any text, in a seeded position of any game.

Input: game and players (2 bytes), seed (8), random moves to play first (1), then the
text.  A text that parses names an action in ``range(num_actions)`` whose notation reads
back to it; parsing never changes the state; applying the parsed action either plays
it or is refused with ``IllegalActionError``, the state unchanged.
"""

from __future__ import annotations

import random

from boardcore import IllegalActionError
from tests.fuzz._harness import (
    Bytes,
    ContractError,
    call,
    check_notation,
    game_and_state,
    run,
    unchanged,
)


def one_input(data: bytes) -> None:
    reader = Bytes(data)
    game, state = game_and_state(reader)
    rng = random.Random(state.seed)
    for _ in range(reader.byte()):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_actions()))
    text = reader.text()
    before = state.to_dict()
    ok, action = call(f"parse_action({text!r:.80})", state.parse_action, text)
    unchanged(before, state, "parse_action")
    if not ok:
        return
    if type(action) is not int or not 0 <= action < game.num_actions:
        raise ContractError(f"parse_action({text!r:.80}) returned {action!r}, "
                            f"not an action in range({game.num_actions})")
    check_notation(state, action)
    ok, exc = call(f"apply({action})", state.apply, action)
    if not ok:
        if not isinstance(exc, IllegalActionError):
            raise ContractError(f"apply of a parsed action raised {type(exc).__name__}: {exc}")
        unchanged(before, state, f"apply({action})")


if __name__ == "__main__":
    run(one_input)
