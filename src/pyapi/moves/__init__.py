"""What a move does: ``state.explain(action)`` before it, ``state.last_move`` after.

Each game has a small typed value (``Just4FunMove``, ``ThreeOrMoreMove``, ``FoolMove``,
``RummikubJuniorMove`` in ``boardcore.values``), worked out by comparing the position
before and after the move; it tells only what the move shows to everyone (never a card
drawn face down).

>>> import boardcore
>>> state = boardcore.make("just4fun", players=2).new_state(seed=1)
>>> move = state.explain(state.legal_actions()[0])
>>> move.player, move.move, move.field
(0, '1', 1)
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from boardcore._engine._state import EngineState

__all__ = ["explain"]


def explain(before: EngineState, after: EngineState, action: int) -> Any:
    """Return what ``action``, played in ``before``, did to reach ``after``."""
    return import_module(f"boardcore.moves.{before.game.name}").explain(before, after, action)
