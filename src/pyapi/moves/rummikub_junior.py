"""What a Rummikub Junior action does: the tiles laid, the run, the stars, the end."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardcore.values import RummikubJuniorMove

if TYPE_CHECKING:
    from boardcore._engine.rummikub_junior import RummikubJuniorState

__all__ = ["explain"]


def explain(before: RummikubJuniorState, after: RummikubJuniorState,
            action: int) -> RummikubJuniorMove:
    """Return what ``action``, played in ``before``, did to reach ``after``.

    Only what every seat sees is read (the table, the stars, the pool's size), so a tile
    drawn face down is never told.
    """
    player = before.current_player
    assert player is not None
    old, new = before.view(player), after.view(player)
    move = before.action_to_str(action)
    words = move.split()
    kind = words[0]
    run: int | None = None
    tiles: tuple[str, ...] = ()
    if kind == "new":
        run, tiles = len(new.table) - 1, tuple(words[1:])
    elif kind == "extend":
        run, tiles = int(words[1]), (words[3],)
    elif kind == "swap":
        run = int(words[1])
        tiles = (old.table[run].split()[int(words[2])][2:-1],)    # J(R4) -> R4
    return RummikubJuniorMove(
        player=player,
        move=move,
        kind=kind,
        tiles=tiles,
        run=run,
        run_after=None if run is None else new.table[run],
        lays_taken_joker=old.joker_pending and kind in ("new", "extend"),
        drew=new.draw_pile_size < old.draw_pile_size,
        went_out=new.went_out == player,
        game_over=new.is_over,
        gains=tuple(b - a for a, b in zip(old.scores, new.scores, strict=True)),
    )
