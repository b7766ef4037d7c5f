"""``boardcore.replay`` on any JSON document, and ``record`` of what it replays.

Input: a JSON document (the seed corpus holds real records of every game, with and
without ``setup``).  A record either replays or is refused with ``InvalidStateError``
(``TypeError`` never: a record is data); one that replays gives a state whose own record
replays to the same position.
"""

from __future__ import annotations

import boardcore
from boardcore import InvalidStateError
from tests.fuzz._harness import ContractError, call, check_loads_back, run
from tests.fuzz._json import NOT_JSON, document


def one_input(data: bytes) -> None:
    rec = document(data)
    if rec is NOT_JSON:
        return
    ok, state = call("replay", boardcore.replay, rec)
    if not ok:
        if not isinstance(state, InvalidStateError):
            raise ContractError(f"replay raised {type(state).__name__}, not "
                                f"InvalidStateError: {state}")
        return
    again = boardcore.replay(boardcore.record(state))
    if again.to_dict() != state.to_dict():
        raise ContractError("record() of a replayed state replays to another position")
    check_loads_back(state)


if __name__ == "__main__":
    run(one_input)
