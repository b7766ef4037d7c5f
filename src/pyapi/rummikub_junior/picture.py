"""Rummikub Junior's pictures: the runs, the racks, the stars, the pool."""

from __future__ import annotations

from math import cos, pi, sin
from xml.sax.saxutils import quoteattr

from boardcore._engine.rummikub_junior import RummikubJuniorState
from boardcore.pictures import HIGHLIGHT, INK, SEAT_COLOURS, Canvas, light, watcher
from boardcore.rummikub_junior.moves import TILES, bank, run_texts
from boardcore.rummikub_junior.values import RummikubJuniorMove, RummikubJuniorSnapshot
from boardcore.values import Perspective, describe

__all__ = ["draw", "text"]

#: The ink of each tile colour R B Y K (the red is not HIGHLIGHT's).
TILE_INK = {"R": "#c0392b", "B": "#1f5fae", "Y": "#c98a00", "K": "#1b1b1b"}
IVORY = "#fffdf4"
EDGE = "#a9a38e"
FELT = "#e4ede1"
GOLD = "#f2b01e"

WIDTH = 760
MARGIN = 16
TILE_W, TILE_H = 30, 40
PITCH = 33                  # one number's column on the table
LABEL = 24                  # a run's index, left of its panel
PANEL = LABEL + 10 * PITCH  # one of the table's two columns of runs
ROW = TILE_H + 8
RACK_X = 190                # where a rack's tiles begin
RACK_PITCH = 31
PER_LINE = (WIDTH - MARGIN - RACK_X) // RACK_PITCH


def text(p: RummikubJuniorSnapshot, perspective: Perspective) -> str:
    """Return the text picture: ``repr(state)``, the table, the stars, the racks.

    Racks other than ``perspective``'s show as ``?`` (all shown if ``None``).
    """
    seat = perspective
    title = describe(RummikubJuniorState.__name__, p.players, p.current_player, p.moves)
    lines = [title, "table:"]
    lines += [f"  {r:>2}: {run}" for r, run in enumerate(run_texts(p.runs))] or ["  (empty)"]
    lines.append(f"pool {len(p.pool)} tiles, bank {bank(p)} stars, "
                 f"passes with the pool empty {p.passes}")
    for q, rack in enumerate(p.racks):
        mark = ">" if q == p.current_player else " "
        shown = (" ".join([TILES[t] for t in rack]) if seat is None or seat == q
                 else " ".join("?" * len(rack))) or "-"
        lines.append(f"{mark} seat {q}: {p.scores[q]:>2} stars, {len(rack):>2} tiles: {shown}")
    if p.joker_pending:
        lines.append("turn: holds a taken joker; the next action must lay a joker")
    elif p.laid_this_turn:
        lines.append("turn: has laid; may lay more or end")
    if p.outcome is not None:
        lines.append(f"over: {p.outcome}")
    return "\n".join(lines)


def draw(p: RummikubJuniorSnapshot, last_move: RummikubJuniorMove | None,
         perspective: Perspective) -> Canvas:
    """Draw ``p``; racks other than ``perspective``'s face down (all up if ``None``)."""
    n, last = p.players, last_move
    racks = [[TILES[t] for t in rack] for rack in p.racks]
    table = run_texts(p.runs)
    winners = frozenset() if p.outcome is None else p.outcome.winners
    rows = max(1, (len(table) + 1) // 2)
    rack_lines = [max(1, -(-len(rack) // PER_LINE)) for rack in racks]
    table_top = MARGIN + 72
    racks_top = table_top + 30 + rows * ROW + 18
    height = racks_top + sum(22 + lines * (TILE_H + 6) for lines in rack_lines) + MARGIN
    canvas = Canvas(WIDTH, height, f"Rummikub Junior, {n} players")
    _header(canvas, p, last)
    if perspective is not None:
        canvas.text(WIDTH - MARGIN, MARGIN + 58, f"as {watcher(perspective)} sees it", size=11,
                    anchor="end", fill="#7d8a78")
    _table(canvas, table, last, table_top, rows)
    y = racks_top
    for q in range(n):
        shown = perspective is None or perspective == q
        block = 22 + rack_lines[q] * (TILE_H + 6)
        _rack(canvas, p, q, racks[q] if shown else None, len(racks[q]), y, winners)
        if last is not None and last.player == q and last.kind in ("pass", "end"):
            canvas.rect(MARGIN - 6, y - 4, WIDTH - 2 * MARGIN + 12, block, stroke=HIGHLIGHT,
                        width=2.5, rx=6, dash="7 4")
        y += block
    return canvas


def _header(canvas: Canvas, p: RummikubJuniorSnapshot, last: RummikubJuniorMove | None) -> None:
    canvas.text(MARGIN, MARGIN + 16, "Rummikub Junior", size=18, anchor="start", bold=True)
    canvas.text(MARGIN + 186, MARGIN + 16, _status(p), size=14, anchor="start")
    if last is not None:
        canvas.text(MARGIN, MARGIN + 40, _told(last), size=13, anchor="start",
                    fill=HIGHLIGHT)
    # The bank's stars and the pool, at the right.
    x = WIDTH - MARGIN - 250
    _star(canvas, x + 12, MARGIN + 11, 11)
    canvas.text(x + 30, MARGIN + 16, f"bank {bank(p)}", size=14, anchor="start")
    x += 120
    for k in range(min(3, len(p.pool))):
        canvas.card(x + 3 * k, MARGIN - 2 + 2 * k, 18, 24, None)
    canvas.text(x + 30, MARGIN + 16, f"pool {len(p.pool)}", size=14, anchor="start")
    if p.passes:
        canvas.text(WIDTH - MARGIN, MARGIN + 40,
                    f"passes with the pool empty: {p.passes} of {p.players}",
                    size=12, anchor="end")


def _status(p: RummikubJuniorSnapshot) -> str:
    if p.outcome is not None:
        winners = " and ".join(f"seat {q}" for q in sorted(p.outcome.winners))
        how = f"seat {p.went_out} went out" if p.went_out is not None else "blocked"
        return f"over ({how}): {winners} won"
    text = f"seat {p.current_player} to act"
    if p.joker_pending:
        return text + ", must lay the taken joker"
    if p.laid_this_turn:
        return text + ", may lay more or end"
    return text


def _told(last: RummikubJuniorMove) -> str:
    # One line saying what the last action did.
    stars = last.gains[last.player]
    gained = f", {stars:+d} star{'' if abs(stars) == 1 else 's'}" if stars else ""
    if last.kind == "pass":
        what = "passed and drew a tile" if last.drew else "passed (the pool is empty)"
    elif last.kind == "end":
        what = "ended the turn"
    elif last.kind == "swap":
        what = f"swapped {last.tiles[0]} for the joker in run {last.run}"
    elif last.kind == "new":
        what = f"laid run {last.run}: {' '.join(last.tiles)}"
    else:
        what = f"laid {last.tiles[0]} on run {last.run}"
    if last.went_out:
        what += " and went out"
    return f"last: seat {last.player} {what}{gained}"


def _table(canvas: Canvas, table: list[str], last: RummikubJuniorMove | None,
           top: float, rows: int) -> None:
    canvas.rect(MARGIN - 6, top - 6, WIDTH - 2 * MARGIN + 12, 30 + rows * ROW + 8,
                fill=FELT, stroke=EDGE, rx=10)
    canvas.rect(MARGIN + PANEL + 12, top + 2, 0, 20 + rows * ROW, stroke="#c5d1c1")
    for panel in range(2):
        left = MARGIN + panel * (PANEL + 24)
        for k in range(10):
            canvas.text(left + LABEL + k * PITCH + TILE_W / 2, top + 12, k + 1, size=11,
                        fill="#7d8a78")
    if not table:
        canvas.text(MARGIN + LABEL, top + 30 + TILE_H / 2 + 5, "no runs on the table yet",
                    size=13, anchor="start", fill="#7d8a78")
    for r, run in enumerate(table):
        left = MARGIN + (r % 2) * (PANEL + 24)
        y = top + 22 + (r // 2) * ROW
        canvas.text(left + LABEL - 8, y + TILE_H / 2 + 5, r, size=13, anchor="end", bold=True)
        words = run.split()
        lo = _number(words[0])
        for i, word in enumerate(words):
            x = left + LABEL + (lo - 1 + i) * PITCH
            _tile(canvas, x, y, word)
        if last is not None and last.run == r:
            first, count = _laid(last, len(words))
            x = left + LABEL + (lo - 1 + first) * PITCH
            canvas.rect(x - 3, y - 3, (count - 1) * PITCH + TILE_W + 6, TILE_H + 6,
                        stroke=HIGHLIGHT, width=2.5, rx=6, dash="6 3")


def _laid(last: RummikubJuniorMove, length: int) -> tuple[int, int]:
    # The positions of run ``last.run`` that the last action laid: (first, how many).
    words = last.move.split()
    if last.kind == "new":
        return 0, length
    if last.kind == "swap":
        return int(words[2]), 1
    return (0 if words[2] == "left" else length - 1), 1


def _number(word: str) -> int:
    # The number a tile or a run's joker shows: R7 -> 7, J(B10) -> 10.
    return int(word.removeprefix("J(").rstrip(")")[1:])


def _tile(canvas: Canvas, x: float, y: float, word: str | None) -> None:
    """Draw a tile: ``R7``, a run's joker ``J(R7)``, a rack's joker ``J``, or face down."""
    if word is None:
        canvas.card(x, y, TILE_W, TILE_H, None)
        return
    canvas.rect(x, y, TILE_W, TILE_H, fill=IVORY, stroke=EDGE, rx=4)
    if word == "J":
        _smiley(canvas, x + TILE_W / 2, y + TILE_H / 2, 9, INK)
        return
    ink = TILE_INK[word.removeprefix("J(")[0]]
    if word.startswith("J("):
        _smiley(canvas, x + TILE_W / 2, y + 12, 7, ink)
        canvas.text(x + TILE_W / 2, y + TILE_H - 6, _number(word), size=12, fill=ink,
                    bold=True)
        return
    canvas.text(x + TILE_W / 2, y + TILE_H / 2 + 6, _number(word), size=17, fill=ink,
                bold=True)


def _smiley(canvas: Canvas, cx: float, cy: float, r: float, ink: str) -> None:
    # The joker's face.
    canvas.circle(cx, cy, r, fill=GOLD, stroke=ink, width=1.2)
    canvas.circle(cx - r * 0.35, cy - r * 0.25, r * 0.13, fill=ink, stroke=None)
    canvas.circle(cx + r * 0.35, cy - r * 0.25, r * 0.13, fill=ink, stroke=None)
    smile = (f"M {cx - r * 0.5:.1f} {cy + r * 0.2:.1f} Q {cx:.1f} {cy + r * 0.8:.1f} "
             f"{cx + r * 0.5:.1f} {cy + r * 0.2:.1f}")
    canvas.parts.append(f"<path d={quoteattr(smile)} fill=\"none\" stroke={quoteattr(ink)} "
                        f"stroke-width=\"1.2\"/>")


def _star(canvas: Canvas, cx: float, cy: float, r: float) -> None:
    # A five-pointed star, the game's score.
    points = " ".join(
        f"{cx + (r if k % 2 == 0 else r * 0.45) * sin(k * pi / 5):.1f},"
        f"{cy - (r if k % 2 == 0 else r * 0.45) * cos(k * pi / 5):.1f}"
        for k in range(10))
    canvas.parts.append(f"<polygon points={quoteattr(points)} fill={quoteattr(GOLD)} "
                        f"stroke=\"#a87400\" stroke-width=\"1\"/>")


def _rack(canvas: Canvas, p: RummikubJuniorSnapshot, q: int, tiles: list[str] | None,
          size: int, y: float, winners: frozenset[int]) -> None:
    to_act = q == p.current_player
    if to_act:
        lines = max(1, -(-size // PER_LINE))
        canvas.rect(MARGIN - 6, y - 4, WIDTH - 2 * MARGIN + 12, 22 + lines * (TILE_H + 6),
                    fill=light(SEAT_COLOURS[q], 4), stroke=None, rx=6)
    canvas.circle(MARGIN + 10, y + 12, 9, fill=SEAT_COLOURS[q], width=3 if to_act else 1)
    mark = " to act" if to_act else " won" if q in winners else ""
    canvas.text(MARGIN + 26, y + 17, f"seat {q}{mark}", size=14, anchor="start",
                bold=bool(mark))
    _star(canvas, MARGIN + 34, y + 34, 9)
    canvas.text(MARGIN + 48, y + 39, f"{_count(p.scores[q], 'star')}, "
                f"{_count(size, 'tile')}", size=12, anchor="start")
    for k in range(size):
        x = RACK_X + (k % PER_LINE) * RACK_PITCH
        _tile(canvas, x, y + 2 + (k // PER_LINE) * (TILE_H + 6), None if tiles is None
              else tiles[k])


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"
