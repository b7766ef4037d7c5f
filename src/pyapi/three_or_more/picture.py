"""3 Or More's pictures: the table, the places open, the scores and the hands."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence

from boardcore.pictures import HIGHLIGHT, INK, SEAT_COLOURS, Canvas
from boardcore.three_or_more.moves import PLACES, breakdown, card_text
from boardcore.three_or_more.values import ThreeOrMoreMove, ThreeOrMoreSnapshot
from boardcore.values import Perspective

__all__ = ["draw", "open_row", "places", "text"]

#: The square colours, by letter.
COLOURS = {"R": "#e5473d", "G": "#3aa655", "B": "#3f6fd1", "Y": "#f2c230"}
FELT = "#e9e4d6"            # the table under the cards
SQ = 24                     # one square of the table
FRAME_COLS, FRAME_ROWS = 13, 5   # the most card slots the table ever shows at once
MARGIN = 16
PANEL = 220                 # the side panel: scores, hands, stock
MINI = 12                   # one square of a card in hand
SEAT_H = 66                 # one seat's part of the panel
HEAD = 112                  # the panel's head: the game, the stock, the last move
SHORT = {"left": "L", "right": "R", "top-left": "TL", "top-right": "TR",
         "bottom-left": "BL", "bottom-right": "BR", "next": "N"}

Place = Callable[[int, int], tuple[float, float]]


def places(p: ThreeOrMoreSnapshot) -> tuple[str, ...]:
    """Return the names of the places the next card may go (T6, T7), ``()`` once over."""
    if p.current_player is None:
        return ()
    if p.laid < 12:
        return PLACES[1:3]
    if p.laid % 12 == 0:
        return PLACES[3:]
    return ("next",)


def open_row(p: ThreeOrMoreSnapshot) -> list[int] | None:
    """The open row (rows 2-4) while one is being laid: its row, next column, direction."""
    return None if p.laid <= 12 or p.laid % 12 == 0 else list(p.open_row)


def text(p: ThreeOrMoreSnapshot, perspective: Perspective) -> str:
    """Return the text picture; hands other than ``perspective``'s as ``???`` (all if None)."""
    lo, hi = p.row1
    top, bottom = p.block
    slots = _places(p.current_player, p.row1, p.block, open_row(p))
    rows = [top, bottom, *[r for r, _ in slots]]
    cols = [lo, hi, *[c for _, c in slots]]
    c0, c1 = min(cols), max(cols)
    table = p.grid
    head = "over" if p.current_player is None else f"seat {p.current_player} to play"
    lines = [
        f"3 Or More, {p.players} players, {p.laid} of 48 cards laid, {head}; "
        f"scores {' '.join(str(v) for v in p.scores)}; stock {len(p.stock)}",
        "      " + "".join([str(c % 10) for c in range(c0, c1 + 1)]),
    ]
    for y in range(3 * min(rows), 3 * max(rows) + 3):
        cells = list(table[y][c0:c1 + 1])
        for r, c in slots:
            if r == y // 3 and cells[c - c0] == ".":
                cells[c - c0] = "*"
        lines.append(f"  {y:>2}  {''.join(cells)}")
    last = breakdown(p)
    if last is not None:
        parts = ", ".join(f"{ln.direction} {len(ln.squares)} = {ln.points}"
                          for ln in last.lines) or "no line"
        lines.append(f"last: seat {last.player} laid {last.move} for {last.points} ({parts})")
    shown = [[card_text(c) for c in hand] if perspective is None or perspective == seat
             else ["???"] * len(hand) for seat, hand in enumerate(p.hands)]
    lines.append("hands: " + " | ".join(f"{seat}: " + (" ".join(cards) or "-")
                                        for seat, cards in enumerate(shown)))
    if p.current_player is not None:
        lines.append("next card goes at * (" + ", ".join(places(p)) + ")")
    return "\n".join(lines)


def draw(p: ThreeOrMoreSnapshot, last: ThreeOrMoreMove | None,
         perspective: Perspective) -> Canvas:
    """Draw ``p``; hands other than ``perspective``'s face down (all up if ``None``)."""
    n = p.players
    grid = p.grid
    cards = {(r, c) for r in range(7) for c in range(23) if grid[3 * r][c] != "."}
    slots = _places(p.current_player, p.row1, p.block, open_row(p))
    used = cards | set(slots)
    rows = [r for r, _ in used]
    cols = [c for _, c in used]
    # What is in use, centred in a fixed frame: the picture keeps its size all game.
    r0 = min(rows) - (FRAME_ROWS - (max(rows) - min(rows) + 1)) / 2
    c0 = min(cols) - (FRAME_COLS - (max(cols) - min(cols) + 1)) / 2
    table_w, table_h = FRAME_COLS * SQ, FRAME_ROWS * 3 * SQ
    width = 2 * MARGIN + table_w + 20 + PANEL
    height = max(2 * MARGIN + table_h, 2 * MARGIN + HEAD + n * SEAT_H)
    canvas = Canvas(width, height, f"3 Or More, {n} players")
    canvas.rect(MARGIN - 6, MARGIN - 6, table_w + 12, table_h + 12, fill=FELT, stroke=None,
                rx=10)

    def at(r: int, c: int) -> tuple[float, float]:
        return MARGIN + (c - c0) * SQ, MARGIN + (r - r0) * 3 * SQ

    for r, c in sorted(cards):
        x, y = at(r, c)
        for i in range(3):
            canvas.rect(x, y + i * SQ, SQ, SQ, fill=COLOURS[grid[3 * r + i][c]],
                        stroke="#ffffff", width=0.8)
        canvas.rect(x, y, SQ, 3 * SQ, stroke=INK, width=1.0)
    for (r, c), place in sorted(slots.items()):
        x, y = at(r, c)
        canvas.rect(x + 2, y + 2, SQ - 4, 3 * SQ - 4, fill="#fbfaf6", stroke="#7a7a7a",
                    width=1.3, rx=3, dash="4 3")
        canvas.text(x + SQ / 2, y + 1.5 * SQ + 4, SHORT[place], size=10, fill="#7a7a7a",
                    bold=True)
    if last is not None:
        _highlight(canvas, last, at)
    _panel(canvas, p, perspective, last, MARGIN + table_w + 20)
    return canvas


def _places(current: int | None, row1: Sequence[int], block: Sequence[int],
            open_row: Sequence[int] | None) -> dict[tuple[int, int], str]:
    """The card slots where the next card may go, with their place names (T6, T7)."""
    if current is None:
        return {}
    lo, hi = row1
    top, bottom = block
    if open_row is not None:
        return {(open_row[0], open_row[1]): "next"}
    if hi - lo < 11:
        return {(3, lo - 1): "left", (3, hi + 1): "right"}
    return {(top - 1, lo): "top-left", (top - 1, hi): "top-right",
            (bottom + 1, lo): "bottom-left", (bottom + 1, hi): "bottom-right"}


def _highlight(canvas: Canvas, last: ThreeOrMoreMove, at: Place) -> None:
    """Mark the card laid last and draw every line it scored through its squares."""
    x, y = at(*last.slot)
    canvas.rect(x - 2.5, y - 2.5, SQ + 5, 3 * SQ + 5, stroke="#ffffff", width=5.0, rx=3)
    canvas.rect(x - 2.5, y - 2.5, SQ + 5, 3 * SQ + 5, stroke=HIGHLIGHT, width=3.0, rx=3)
    for line in last.lines:
        (ra, ca), (rb, cb) = line.squares[0], line.squares[-1]
        xa, ya = at(ra // 3, ca)
        xb, yb = at(rb // 3, cb)
        ends = (xa + SQ / 2, ya + (ra % 3 + 0.5) * SQ, xb + SQ / 2, yb + (rb % 3 + 0.5) * SQ)
        for colour, stroke in (("#ffffff", 6.0), (HIGHLIGHT, 3.0)):
            canvas.parts.append(
                f'<line x1="{ends[0]:.1f}" y1="{ends[1]:.1f}" x2="{ends[2]:.1f}" '
                f'y2="{ends[3]:.1f}" stroke="{colour}" stroke-width="{stroke}" '
                f'stroke-linecap="round"/>')
        for r, c in (line.squares[0], line.squares[-1]):
            cx, cy = at(r // 3, c)
            canvas.circle(cx + SQ / 2, cy + (r % 3 + 0.5) * SQ, 3.5, fill=HIGHLIGHT,
                          stroke="#ffffff", width=1.5)


def _panel(canvas: Canvas, p: ThreeOrMoreSnapshot, perspective: Perspective,
           last: ThreeOrMoreMove | None, left: float) -> None:
    """The side panel: the stock, the last move, then every seat's score and hand."""
    n = p.players
    canvas.text(left, MARGIN + 14, "3 Or More", size=16, anchor="start", bold=True)
    laid = 48 - len(p.stock) - sum(len(h) for h in p.hands)
    canvas.text(left, MARGIN + 34, f"{laid} of 48 cards laid, stock {len(p.stock)}",
                size=12, anchor="start")
    if last is not None:
        canvas.text(left, MARGIN + 54, f"last: seat {last.player} laid {last.move}, "
                    f"{last.points} points", size=12, anchor="start", fill=HIGHLIGHT, bold=True)
        parts = ", ".join(f"{ln.direction} {len(ln.squares)}" for ln in last.lines)
        for k, text in enumerate(textwrap.wrap(parts, 34)[:2]):
            canvas.text(left, MARGIN + 70 + 14 * k, text, size=11, anchor="start")
    winners = p.outcome.winners if p.outcome is not None else frozenset()
    scores = p.scores
    for q in range(n):
        y = MARGIN + HEAD + q * SEAT_H
        to_act = q == p.current_player
        label = f"seat {q}" + (" to play" if to_act else " won" if q in winners else "")
        canvas.circle(left + 9, y + 10, 8, fill=SEAT_COLOURS[q], width=3.0 if to_act else 1.0)
        canvas.text(left + 24, y + 15, label, size=13, anchor="start",
                    bold=to_act or q in winners)
        canvas.text(left + PANEL - 16, y + 15, scores[q], size=15, anchor="end", bold=True)
        shown = perspective is None or perspective == q
        for k, code in enumerate(p.hands[q]):
            _hand_card(canvas, left + 24 + k * (MINI + 12), y + 24,
                       card_text(code) if shown else None)


def _hand_card(canvas: Canvas, x: float, y: float, card: str | None) -> None:
    """A card in hand: its three squares, or its back when ``card`` is ``None``."""
    if card is None:
        canvas.rect(x, y, MINI, 3 * MINI, fill="#5b6b8c", rx=2)
        canvas.rect(x + 2.5, y + 3, MINI - 5, 3 * MINI - 6, stroke="#c9d2e3", width=0.8, rx=1)
        return
    for i, colour in enumerate(card):
        canvas.rect(x, y + i * MINI, MINI, MINI, fill=COLOURS[colour], stroke="#ffffff",
                    width=0.6)
    canvas.rect(x, y, MINI, 3 * MINI, stroke=INK, width=0.9)
