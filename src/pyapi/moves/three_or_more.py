"""What a 3 Or More move does: the card, where it goes, the lines it scores, a draw."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardcore.values import ThreeOrMoreMove

if TYPE_CHECKING:
    from boardcore._engine.three_or_more import ThreeOrMoreState

__all__ = ["explain"]


def explain(before: ThreeOrMoreState, after: ThreeOrMoreState, action: int) -> ThreeOrMoreMove:
    """Return what ``action``, played in ``before``, did to reach ``after``.

    >>> import boardcore
    >>> state = boardcore.make("three_or_more", players=2).new_state(seed=7)
    >>> move = state.explain(state.parse_action("BBG@left"))
    >>> move.place, move.slot, move.shown, move.points, move.drew
    ('left', (3, 10), 'BBG', 0, True)
    """
    player = before.current_player
    score = after.last_breakdown()
    assert player is not None and score is not None
    move = before.action_to_str(action)
    held, _, place = move.partition("@")
    old, new = before.grid(), after.grid()
    row, col = next((r, c) for r in range(len(new)) for c in range(len(new[r]))
                    if old[r][c] != new[r][c])
    slot = (row // 3, col)
    return ThreeOrMoreMove(
        player=player,
        move=move,
        card=held.rstrip("^"),
        shown="".join(new[3 * slot[0] + i][col] for i in range(3)),
        place=place or "next",
        slot=slot,
        points=score.points,
        lines=score.lines,
        drew=before.view(player).draw_pile_size > 0,
    )
