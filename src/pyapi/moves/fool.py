"""What a Fool move does: the card, the lead colour, a void shown, the trick's outcome."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from boardcore._engine.fool import _trick_kernel
from boardcore.fool import _COLOURS
from boardcore.values import FoolMove

if TYPE_CHECKING:
    from boardcore._engine.fool import FoolState

__all__ = ["explain"]


def explain(before: FoolState, after: FoolState, action: int) -> FoolMove:
    """Return what ``action``, played in ``before``, did to reach ``after``."""
    player = before.current_player
    assert player is not None
    seen, later = before.view(player), after.view(player)   # the table, as everyone sees it
    move = before.action_to_str(action)
    colour = None if move == "W1" else _COLOURS["GRYB".index(move[0])]
    lead = seen.lead_colour if seen.lead_colour is not None else colour
    # F6: a coloured card off a set lead colour shows the player holds none of it.
    void = seen.lead_colour if colour is not None and colour != seen.lead_colour else None
    trick = (*seen.trick, (player, move))
    winner: int | None = None
    fools: frozenset[int] = frozenset()
    if len(trick) == before.game.num_players - len(seen.fools):
        winner, fools = _resolve(before, trick, lead)
    gains = tuple(b - a for a, b in zip(before.scores(), after.scores(), strict=True))
    return FoolMove(
        player=player,
        move=move,
        lead_colour=lead,
        void=void,
        trick=trick,
        winner=winner,
        fools=fools,
        round_over=winner is not None and (later.is_over or later.round != seen.round),
        gains=gains,
        game_over=later.is_over,
    )


def _resolve(state: FoolState, trick: tuple[tuple[int, str], ...],
             lead: str | None) -> tuple[int, frozenset[int]]:
    # F7, F8 by the engine's own trick kernel: the winner and the Fools' seats.
    seats = np.zeros((1, 8), dtype=np.uint8)
    cards = np.zeros((1, 8), dtype=np.uint8)
    for i, (seat, card) in enumerate(trick):
        seats[0, i] = seat
        cards[0, i] = state.parse_action(card)
    leads = np.array([-1 if lead is None else _COLOURS.index(lead)], dtype=np.int8)
    lengths = np.array([len(trick)], dtype=np.uint8)
    winners, fools = _trick_kernel(seats, cards, leads, lengths, state.game.fools_per_trick)
    mask = int(fools[0])
    return int(winners[0]), frozenset(p for p in range(8) if mask >> p & 1)
