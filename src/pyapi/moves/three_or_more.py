"""What a 3 Or More move does: its notation, the lines it scores, what it changes.

The engine keeps the position and scores it; the Python-only work on moves is here:
the notation (``state.action_to_str``, ``state.parse_action``), the last move's
``MoveScore`` (``state.last_breakdown()``) and ``explain``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from boardcore.errors import NotationError
from boardcore.values import MoveScore, ScoredLine, ThreeOrMoreMove, quote

if TYPE_CHECKING:
    from boardcore._engine.three_or_more import ThreeOrMoreState

__all__ = ["COLOURS", "DIRECTIONS", "PLACES", "Position", "breakdown", "card_code", "card_text",
           "explain", "notation", "parse"]

#: The four colours, in card-code order.
COLOURS = "RGBY"
#: The places by number in an action: 0 the open row's next slot (written without a
#: place), 1-2 row 1's ends, 3-6 the block's corners, where rows 2-4 begin.
PLACES = ("", "left", "right", "top-left", "top-right", "bottom-left", "bottom-right")
#: The directions of scored lines, numbered as the engine's scoring kernel numbers them.
DIRECTIONS = ("horizontal", "vertical", "falling", "rising")

#: Each line direction's step (row, column), from its top (left) end.
STEPS = {"horizontal": (0, 1), "vertical": (1, 0), "falling": (1, 1), "rising": (1, -1)}


class Position(NamedTuple):
    """A 3 Or More position as plain values, as the engine hands it over.

    Cards are codes (``card_code``); ``grid`` is the table as ``state.grid()`` gives it.
    """

    players: int
    turns: int                      # 1, or 2 with allow_rotation
    current: int                    # the seat to act, -1 once over
    laid: int                       # cards on the table, the starting card included
    scores: list[int]
    hands: list[list[int]]
    stock: list[int]
    grid: tuple[str, ...]
    table: tuple[int, int, int, int]     # row 1's ends, the block's top and bottom rows
    open_row: tuple[int, int, int]       # the open row, its next column, its direction
    #: the last move: seat, action, points, lines as (direction, row, col, length)
    last: tuple[int, int, int, list[tuple[int, int, int, int]]] | None
    rng: list[int]                  # the generator's words after the setup shuffle


def card_code(text: str) -> int:
    """Return the 6-bit code ``top * 16 + middle * 4 + bottom`` of a card such as ``"RRG"``.

    Raises:
        TypeError: ``text`` is not a str.
        ValueError: ``text`` is not 3 of the letters R, G, B, Y.
    """
    if not isinstance(text, str):
        raise TypeError(f"a card must be a str such as 'RRG', not {quote(text)}")
    if len(text) != 3 or any(c not in COLOURS for c in text):
        raise ValueError(f"a card is 3 of the letters R, G, B, Y (top, middle, bottom), "
                         f"not {quote(text)}")
    return (COLOURS.index(text[0]) << 4) | (COLOURS.index(text[1]) << 2) | COLOURS.index(text[2])


def card_text(card: int) -> str:
    """Return the pattern of card code ``card`` (``"RRG"``), ``card_code``'s inverse."""
    return COLOURS[(card >> 4) & 3] + COLOURS[(card >> 2) & 3] + COLOURS[card & 3]


def notation(action: int, turns: int) -> str:
    """Return the notation of ``action`` (any in range) with ``turns`` forms a card.

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


def breakdown(p: Position) -> MoveScore | None:
    """Return how the last card laid scored, ``None`` before the first move."""
    if p.last is None:
        return None
    player, action, points, lines = p.last
    scored = []
    for d, row, col, length in lines:
        dy, dx = STEPS[DIRECTIONS[d]]
        scored.append(ScoredLine(
            direction=DIRECTIONS[d],
            squares=tuple([(row + t * dy, col + t * dx) for t in range(length)]),
            points=length * (2 if d >= 2 else 1),
        ))
    return MoveScore(player=player, move=notation(action, p.turns), points=points,
                     lines=tuple(scored))


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
