"""Just4Fun's moves: the notation (``5+11+13``, ``exchange``) and what a move does."""

from __future__ import annotations

from boardcore._engine.just4fun import EXCHANGE, PLAYS
from boardcore.errors import NotationError
from boardcore.just4fun.values import Just4FunMove, Just4FunSnapshot
from boardcore.values import quote

__all__ = ["action_to_str", "explain", "holds_four", "parse_action", "reveals"]

#: Each play's action, by its ascending card values.
_ACTION_OF = {values: action for action, values in enumerate(PLAYS)}


def action_to_str(position: Just4FunSnapshot | None, action: int) -> str:
    """Return the notation of ``action``: its values ascending, ``+``-joined, or ``exchange``.

    Any position writes it alike.

    >>> action_to_str(None, PLAYS.index((5, 11, 13))), action_to_str(None, EXCHANGE)
    ('5+11+13', 'exchange')
    """
    return "exchange" if action == EXCHANGE else "+".join([str(v) for v in PLAYS[action]])


def parse_action(position: Just4FunSnapshot | None, text: object) -> int:
    """Return the action written ``text`` (values in any order, or ``exchange``).

    Raises:
        NotationError: ``text`` is not a play of 1-4 cards naming a field, nor ``exchange``.
    """
    if not isinstance(text, str):
        raise NotationError(f"notation must be a str, not {quote(text)}")
    t = text.strip().lower()
    if t == "exchange":
        return EXCHANGE
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


def explain(before: Just4FunSnapshot, after: Just4FunSnapshot, action: int, *,
            played: bool) -> Just4FunMove:
    """Return what ``action``, played in ``before``, did to reach ``after``.

    Everything it tells is on the board or in the mover's hand: ``played`` or not alike.
    """
    player = before.current_player
    assert player is not None
    move = action_to_str(before, action)
    gains = tuple(b - a for a, b in zip(before.scores, after.scores, strict=True))
    if action == EXCHANGE:
        return Just4FunMove(player=player, move=move, cards=before.hands[player],
                            field=None, stones=0, locked=False,
                            removed=(0,) * len(gains), four_in_a_row=False, gains=gains)
    cards = PLAYS[action]
    field = sum(cards)
    cell = before.layout.index(field)
    removed = tuple(max(0, a[cell] - b[cell]) if q != player else 0
                    for q, (a, b) in enumerate(zip(before.stones, after.stones, strict=True)))
    return Just4FunMove(
        player=player,
        move=move,
        cards=cards,
        field=field,
        stones=after.stones[player][cell],
        locked=before.owners[cell] is None and after.owners[cell] == player,
        removed=removed,
        four_in_a_row=after.outcome is not None and holds_four(after, player),
        gains=gains,
    )


def holds_four(position: Just4FunSnapshot, player: int) -> bool:
    """Return whether ``player`` holds four fields in a line: a row, a column, a diagonal (J13)."""
    held = {i for i in range(36)
            if _holder(position.owners[i], [row[i] for row in position.stones]) == player}
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


def reveals(before: Just4FunSnapshot, after: Just4FunSnapshot) -> bool:
    """Return whether the move showed hidden cards: a draw (J10), or a reshuffle (J11).

    The draw pile is the one hidden thing besides the hands; a move that drew from it
    or shuffled the discards into it changed it.

    >>> import boardcore
    >>> state = boardcore.make("just4fun", players=2).new_state(seed=1)
    >>> state.apply(state.legal_actions()[0])
    >>> state.can_undo()            # the mover drew a card to replace the one played
    False
    """
    return before.draw_pile != after.draw_pile
