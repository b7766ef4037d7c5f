"""What a Just4Fun move does: the cards, the field, the stones, a lock, a four in a row."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardcore._engine.just4fun import PLAYS
from boardcore.errors import NotationError
from boardcore.values import Just4FunMove, quote

if TYPE_CHECKING:
    from boardcore._engine.just4fun import Just4FunState

__all__ = ["explain"]


def explain(before: Just4FunState, after: Just4FunState, action: int) -> Just4FunMove:
    """Return what ``action``, played in ``before``, did to reach ``after``."""
    player = before.current_player
    assert player is not None
    old, new = before.to_dict(), after.to_dict()
    move = before.action_to_str(action)
    gains = tuple(b - a for a, b in zip(before.scores(), after.scores(), strict=True))
    if move == "exchange":
        return Just4FunMove(player=player, move=move, cards=tuple(old["hands"][player]),
                            field=None, stones=0, locked=False,
                            removed=(0,) * len(gains), four_in_a_row=False, gains=gains)
    cards = tuple(int(v) for v in move.split("+"))
    field = sum(cards)
    cell = old["layout"].index(field)
    removed = tuple(max(0, a[cell] - b[cell]) if q != player else 0
                    for q, (a, b) in enumerate(zip(old["stones"], new["stones"], strict=True)))
    return Just4FunMove(
        player=player,
        move=move,
        cards=cards,
        field=field,
        stones=new["stones"][player][cell],
        locked=old["owners"][cell] is None and new["owners"][cell] == player,
        removed=removed,
        four_in_a_row=after.is_over() and _holds_four(after, player),
        gains=gains,
    )


def _holds_four(state: Just4FunState, player: int) -> bool:
    # J13: ``player`` holds four fields in a line (a row, a column or a diagonal).
    view = state.view(player)
    held = {i for i in range(36) if _holder(view.owners[i], [row[i] for row in view.stones])
            == player}
    for i in held:
        r, c = divmod(i, 6)
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            if all(0 <= r + k * dr < 6 and 0 <= c + k * dc < 6
                   and (r + k * dr) * 6 + c + k * dc in held for k in range(4)):
                return True
    return False


def _holder(owner: int | None, stacks: list[int]) -> int | None:
    # J12: the seat holding a field: its owner once locked, else the strict largest stack.
    if owner is not None:
        return owner
    top = max(stacks)
    return stacks.index(top) if top and stacks.count(top) == 1 else None


_EXCHANGE = len(PLAYS)    # the last action, after the plays
#: Each play's action, by its ascending card values.
_ACTION_OF = {values: action for action, values in enumerate(PLAYS)}


def parse(text: object) -> int:
    """Return the action written ``text`` (``Just4FunState.parse_action``)."""
    if not isinstance(text, str):
        raise NotationError(f"notation must be a str, not {quote(text)}")
    t = text.strip().lower()
    if t == "exchange":
        return _EXCHANGE
    parts = [p.strip() for p in t.split("+")]
    if not 1 <= len(parts) <= 4 or not all([p.isascii() and p.isdigit() for p in parts]):
        raise NotationError(
            f"bad notation {text[:40]!r}: write 1-4 card values joined by '+', "
            f"like '5+11+13', or 'exchange'"
        )
    # A card value is written in one or two digits; more are out of range whatever
    # they say (and int() refuses past 4,300 of them).
    values = sorted([int(p) if len(p) <= 2 else 100 for p in parts])
    if values[0] < 1 or values[-1] > 19:
        raise NotationError(f"bad notation {quote(text)}: card values are 1..19")
    action = _ACTION_OF.get(tuple(values))
    if action is None:
        raise NotationError(
            f"bad notation {quote(text)}: no play; the sum must be 1..36 and the values "
            f"within the deck (four each of 1-12, one each of 13-19)"
        )
    return action
