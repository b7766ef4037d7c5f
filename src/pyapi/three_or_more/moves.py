"""3 Or More's moves: cards and their notation, and what a laid card does and scores.

An action is ``(place * turns + turned) * 64 + card``: ``card`` is the card as held
(``card_code``), ``turned`` is 1 when it is laid upside down (``turns`` is 2 with
``allow_rotation``, else 1), ``place`` indexes ``PLACES``.
"""

from __future__ import annotations

from boardcore.errors import NotationError
from boardcore.three_or_more.values import (
    MoveScore,
    ScoredLine,
    ThreeOrMoreMove,
    ThreeOrMoreSnapshot,
)
from boardcore.values import quote

__all__ = ["COLOURS", "DIRECTIONS", "PLACES", "action_to_str", "breakdown", "card_code",
           "card_text", "explain", "notation", "parse", "parse_action", "reveals"]

#: The four colours, in card-code order.
COLOURS = "RGBY"
#: The places by number in an action: 0 the open row's next slot (written without a
#: place), 1-2 row 1's ends, 3-6 the block's corners, where rows 2-4 begin.
PLACES = ("", "left", "right", "top-left", "top-right", "bottom-left", "bottom-right")
#: The directions of scored lines, numbered as the engine's scoring kernel numbers them.
DIRECTIONS = ("horizontal", "vertical", "falling", "rising")

#: Each line direction's step (row, column), from its top (left) end.
STEPS = {"horizontal": (0, 1), "vertical": (1, 0), "falling": (1, 1), "rising": (1, -1)}


def card_code(text: object) -> int:
    """Return the 6-bit code ``top * 16 + middle * 4 + bottom`` of a card such as ``"RRG"``.

    Raises:
        NotationError: ``text`` is not 3 of the letters R, G, B, Y.

    >>> card_code("RRG"), card_text(card_code("RRG"))
    (1, 'RRG')
    """
    if not isinstance(text, str) or len(text) != 3 or any(c not in COLOURS for c in text):
        raise NotationError(f"a card is 3 of the letters R, G, B, Y (top, middle, bottom), "
                            f"not {quote(text)}")
    return (COLOURS.index(text[0]) << 4) | (COLOURS.index(text[1]) << 2) | COLOURS.index(text[2])


def card_text(card: int) -> str:
    """Return the pattern of card code ``card`` (``"RRG"``), ``card_code``'s inverse."""
    return COLOURS[(card >> 4) & 3] + COLOURS[(card >> 2) & 3] + COLOURS[card & 3]


def action_to_str(position: ThreeOrMoreSnapshot, action: int) -> str:
    """Return the notation of ``action`` (any in range): ``"RRG@left"``, ``"RGB^@top-left"``.

    Only the configuration matters (``allow_rotation``: 2 forms a card).
    """
    return notation(action, position.turns)


def parse_action(position: ThreeOrMoreSnapshot, text: object) -> int:
    """Return the action written ``text`` (``"RRG@left"``, ``"RRG^@right"``, ``"RRG"``).

    The card as held, ``^`` if it is turned, then ``@place`` where there is a choice;
    whether it is legal is ``apply``'s to say.

    Raises:
        NotationError: ``text`` names no action.
    """
    return parse(text, position.turns)


def notation(action: int, turns: int) -> str:
    """Return the notation of ``action`` with ``turns`` forms a card.

    >>> notation(64 + card_code("RRG"), 1), notation(3 * 64 + card_code("RRG"), 2)
    ('RRG@left', 'RRG^@left')
    """
    card, rest, turned = action & 63, action >> 6, 0
    if turns == 2:
        turned, rest = rest & 1, rest >> 1
    text = card_text(card) + ("^" if turned else "")
    return text + "@" + PLACES[rest] if rest else text


def parse(text: object, turns: int) -> int:
    """Return the action ``text`` names (``notation``'s inverse), legal or not.

    Raises:
        NotationError: ``text`` names no action.
    """
    if not isinstance(text, str):
        raise NotationError(f"a move must be a str such as 'RRG@left', not {quote(text)}")
    card_part, sep, place_text = text.partition("@")
    turned = card_part.endswith("^")
    held = card_part[:len(card_part) - 1] if turned else card_part
    if len(held) != 3 or any(c not in COLOURS for c in held) \
            or (sep and place_text not in PLACES[1:]):
        raise NotationError(
            f"{text[:40]!r} is not a move: write a card as held (3 of the letters R, G, B, "
            f"Y), '^' if it is turned, then '@left', '@right', '@top-left', '@top-right', "
            f"'@bottom-left' or '@bottom-right' where there is a choice, e.g. 'RRG@left'"
        )
    if turned and turns == 1:
        raise NotationError(f"{quote(text)} turns a card, which needs allow_rotation=True")
    place = PLACES.index(place_text) if sep else 0
    return (place * turns + (1 if turned else 0)) * 64 + card_code(held)


def breakdown(position: ThreeOrMoreSnapshot) -> MoveScore | None:
    """Return how the last card laid scored, ``None`` before the first move."""
    if position.last_player is None:
        return None
    scored = []
    for d, row, col, length in position.last_lines:
        dy, dx = STEPS[DIRECTIONS[d]]
        scored.append(ScoredLine(
            direction=DIRECTIONS[d],
            squares=tuple([(row + t * dy, col + t * dx) for t in range(length)]),
            points=length * (2 if d >= 2 else 1),
        ))
    return MoveScore(player=position.last_player,
                     move=notation(position.last_action, position.turns),
                     points=position.last_points, lines=tuple(scored))


def explain(before: ThreeOrMoreSnapshot, after: ThreeOrMoreSnapshot, action: int, *,
            played: bool) -> ThreeOrMoreMove:
    """Return what ``action``, played in ``before``, did to reach ``after``.

    Everything it tells is on the table (which card the mover draws is never told):
    ``played`` or not alike.

    >>> import boardcore
    >>> state = boardcore.make("three_or_more", players=2).new_state(seed=7)
    >>> move = state.explain(state.parse_action("BBG@left"))
    >>> move.place, move.slot, move.shown, move.points, move.drew
    ('left', (3, 10), 'BBG', 0, True)
    """
    player = before.current_player
    score = breakdown(after)
    assert player is not None and score is not None
    move = notation(action, before.turns)
    held, _, place = move.partition("@")
    old, new = before.grid, after.grid
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
        drew=len(before.stock) > 0,
    )


def reveals(before: ThreeOrMoreSnapshot, after: ThreeOrMoreSnapshot) -> bool:
    """Return whether the move showed a hidden card: the mover's draw from the stock.

    >>> import boardcore
    >>> state = boardcore.make("three_or_more", players=2).new_state(seed=1)
    >>> state.apply(state.legal_actions()[0])
    >>> state.last_move.drew, state.can_undo()
    (True, False)
    """
    return before.stock != after.stock
