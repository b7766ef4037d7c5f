"""Just4Fun's pictures: the board with its stacks and locks, the supplies and hands."""

from __future__ import annotations

from boardcore._engine.just4fun import Just4FunState
from boardcore.just4fun.values import Just4FunMove, Just4FunSnapshot
from boardcore.pictures import HIGHLIGHT, SEAT_COLOURS, Canvas, light
from boardcore.values import Perspective, describe

__all__ = ["draw", "text"]

CELL = 70          # one board square
MARGIN = 16
CARD_W, CARD_H = 26, 36


def draw(position: Just4FunSnapshot, last_move: Just4FunMove | None,
         perspective: Perspective) -> Canvas:
    """Draw ``position``; hands other than ``perspective``'s face down (all up if ``None``)."""
    n = position.players
    board = 6 * CELL
    rows_h = 52
    canvas = Canvas(board + 2 * MARGIN, board + 2 * MARGIN + 30 + n * rows_h,
                    f"Just4Fun, {n} players")
    last = last_move
    for i in range(36):
        r, c = divmod(i, 6)
        x, y = MARGIN + c * CELL, MARGIN + r * CELL
        owner = position.owners[i]
        fill = "white" if owner is None else light(SEAT_COLOURS[owner], 3)
        canvas.rect(x, y, CELL, CELL, fill=fill, width=3.0 if owner is not None else 1.0)
        canvas.text(x + 6, y + 17, position.layout[i], size=15, anchor="start", bold=True)
        stacks = [(q, position.stones[q][i]) for q in range(n) if position.stones[q][i]]
        for k, (q, count) in enumerate(stacks):
            cx = x + CELL - 15 - 19 * (len(stacks) - 1 - k)
            canvas.circle(cx, y + CELL - 16, 9, fill=SEAT_COLOURS[q])
            canvas.text(cx, y + CELL - 11.5, count, size=11, bold=True)
        if last is not None and last.field == position.layout[i]:
            canvas.rect(x + 3, y + 3, CELL - 6, CELL - 6, stroke=HIGHLIGHT, width=3.0,
                        dash="6 3")
    top = MARGIN + board + 24
    canvas.text(MARGIN, top, _headline(position, last), size=14, anchor="start")
    for q in range(n):
        y = top + 14 + q * rows_h
        to_act = q == position.current_player
        canvas.circle(MARGIN + 10, y + 18, 9, fill=SEAT_COLOURS[q], width=3 if to_act else 1)
        canvas.text(MARGIN + 26, y + 16, f"seat {q}" + (" to act" if to_act else ""),
                    size=13, anchor="start", bold=to_act)
        canvas.text(MARGIN + 26, y + 32,
                    f"{position.supplies[q]} stones, score {position.scores[q]}",
                    size=12, anchor="start")
        for k, value in enumerate(position.hands[q]):
            shown = perspective is None or perspective == q
            canvas.card(MARGIN + 190 + k * (CARD_W + 6), y + 4, CARD_W, CARD_H,
                        str(value) if shown else None)
    return canvas


def text(position: Just4FunSnapshot, perspective: Perspective) -> str:
    """Return the text picture: ``repr(state)``, the board, supplies, scores, hands.

    Hands other than ``perspective``'s show as ``?`` (all shown if ``None``).
    """
    seat = perspective
    layout, owners, hands = position.layout, position.owners, position.hands
    stacks = list(zip(*position.stones, strict=True))     # per cell, its stones by seat
    title = describe(Just4FunState.__name__, position.players, position.current_player,
                     position.moves)
    lines = [title, "each field: its number, then its stones by seat (. = none); "
                    "#k:n = locked, owned by seat k with n stones"]
    for r in range(0, 36, 6):
        cells = []
        for i in range(r, r + 6):
            owner = owners[i]
            if owner is None:       # at most 20 stones: one character a seat
                stack = "".join(map(".123456789abcdefghijk".__getitem__, stacks[i])) + " "
            else:
                stack = f"#{owner}:{stacks[i][owner]}".ljust(len(hands) + 1)
            cells.append(f"{layout[i]:>2} {stack}")
        lines.append(" | ".join(cells))
    for q, hand in enumerate(hands):
        mark = ">" if q == position.current_player else " "
        shown = (" ".join(map(str, hand)) if seat is None or seat == q
                 else " ".join("?" * len(hand)))
        lines.append(f"{mark} seat {q}: supply {position.supplies[q]:>2}, "
                     f"score {position.scores[q]:>3}, hand {shown}")
    discard = position.discard_pile
    lines.append(f"draw pile {len(position.draw_pile)}, discard pile {len(discard)} "
                 f"(top {discard[-1] if discard else '-'}), "
                 f"turns without a stone {position.idle_turns}")
    if position.outcome is not None:
        lines.append(f"over: {position.outcome}")
    return "\n".join(lines)


def _headline(position: Just4FunSnapshot, last: Just4FunMove | None) -> str:
    if position.outcome is not None:
        winners = sorted(position.outcome.winners)
        return "over; " + " and ".join(f"seat {p}" for p in winners) + " won"
    text = f"draw pile {len(position.draw_pile)}"
    if last is not None:
        text += f"; last: seat {last.player} played {last.move}"
    return text
