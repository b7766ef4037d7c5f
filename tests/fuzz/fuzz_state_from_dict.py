"""``make`` and ``state_from_dict`` on any JSON document.

Input: a JSON document (the seed corpus holds real ``to_dict()`` documents of every
game, with and without ``setup``).  The game is made from the document's own ``game``,
``players`` and ``options`` when they make one (else the first game, so that documents
of the wrong game are fuzzed too).  A document either loads or is refused with
``InvalidStateError``/``TypeError``; one that loads is a position that works: every
method answers, every legal action's notation reads back, a random play-out ends, and
its ``to_dict()`` loads back to itself.
"""

from __future__ import annotations

from typing import Any

import boardcore
from tests.fuzz._harness import (
    ContractError,
    call,
    check_loads_back,
    check_notation,
    run,
)
from tests.fuzz._json import NOT_JSON, document


def game_for(doc: Any) -> Any:
    """The game ``doc`` names, when it names one; else the first game for 2 players."""
    if isinstance(doc, dict) and isinstance(doc.get("options"), dict):
        ok, game = call("make", lambda: boardcore.make(
            doc.get("game"), players=doc.get("players"), **doc["options"]))
        if ok:
            return game
    return boardcore.make(boardcore.GAMES[0], players=2)


def exercise(state: Any) -> None:
    """Every read-only method of a loaded state answers, then a play-out ends it."""
    game = state.game
    legal = state.legal_actions()
    mask = state.legal_actions_mask()
    if sorted(set(legal)) != legal or [i for i in range(len(mask)) if mask[i]] != legal:
        raise ContractError(f"legal_actions {legal[:12]} and its mask disagree")
    for action in legal:
        check_notation(state, action)
    for seat in range(game.num_players):
        state.view(seat)
    str(state)
    repr(state)
    state.scores()
    state.outcome()
    if state.is_over() != (state.current_player is None) or state.is_over() != (not legal):
        raise ContractError("is_over, current_player and legal_actions disagree")
    check_loads_back(state)
    copy = state.copy()
    copy.rollout(seed=1)
    if not copy.is_over():
        raise ContractError("rollout() returned before the game ended")
    check_loads_back(copy)


def one_input(data: bytes) -> None:
    doc = document(data)
    if doc is NOT_JSON:
        return
    game = game_for(doc)
    ok, state = call("state_from_dict", game.state_from_dict, doc)
    if ok:
        exercise(state)


if __name__ == "__main__":
    run(one_input)
