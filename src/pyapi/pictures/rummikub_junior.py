"""The picture of a Rummikub Junior position: the runs, the racks, the stars, the pool."""

from __future__ import annotations

from math import cos, pi, sin
from typing import TYPE_CHECKING
from xml.sax.saxutils import quoteattr

from boardcore.pictures import HIGHLIGHT, INK, SEAT_COLOURS, Canvas
from boardcore.rummikub_junior import STARS_TOTAL, TILES, _run_texts

if TYPE_CHECKING:
    from boardcore._engine.rummikub_junior import RummikubJuniorState
    from boardcore.rummikub_junior import Plain
    from boardcore.values import RummikubJuniorMove, RummikubJuniorView

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


def text(state: RummikubJuniorState, plain: Plain, seat: int) -> str:
    """Return the text picture (``str(state)``) of ``plain``, the position ``state`` holds.

    Racks other than ``seat``'s show as ``?``, unless ``seat`` is negative.
    """
    current, racks, stars, runs, pool, laid, pending, passes, _, _ = plain
    lines = [repr(state), "table:"]
    lines += [f"  {r:>2}: {run}" for r, run in enumerate(_run_texts(runs))] or ["  (empty)"]
    lines.append(f"pool {len(pool)} tiles, bank {STARS_TOTAL - sum(stars)} stars, "
                 f"passes with the pool empty {passes}")
    for p, rack in enumerate(racks):
        mark = ">" if p == current else " "
        shown = (" ".join([TILES[t] for t in rack]) if seat < 0 or seat == p
                 else " ".join("?" * len(rack))) or "-"
        lines.append(f"{mark} seat {p}: {stars[p]:>2} stars, {len(rack):>2} tiles: {shown}")
    if pending:
        lines.append("turn: holds a taken joker; the next action must lay a joker")
    elif laid:
        lines.append("turn: has laid; may lay more or end")
    if current is None:
        lines.append(f"over: {state.outcome()}")
    return "\n".join(lines)


def draw(state: RummikubJuniorState, perspective: int | None) -> Canvas:
    """Draw ``state``; racks other than ``perspective``'s face down (all up if ``None``)."""
    n = state.game.num_players
    racks = state.to_dict()["racks"]
    view = state.view(0 if perspective is None else perspective)
    last = state.last_move
    outcome = state.outcome()
    winners = frozenset() if outcome is None else outcome.winners
    rows = max(1, (len(view.table) + 1) // 2)
    rack_lines = [max(1, -(-len(rack) // PER_LINE)) for rack in racks]
    table_top = MARGIN + 72
    racks_top = table_top + 30 + rows * ROW + 18
    height = racks_top + sum(22 + lines * (TILE_H + 6) for lines in rack_lines) + MARGIN
    canvas = Canvas(WIDTH, height, f"Rummikub Junior, {n} players")
    _header(canvas, state, view, last)
    if perspective is not None:
        canvas.text(WIDTH - MARGIN, MARGIN + 58, f"as seat {perspective} sees it", size=11,
                    anchor="end", fill="#7d8a78")
    _table(canvas, view, last, table_top, rows)
    y = racks_top
    for q in range(n):
        shown = perspective is None or perspective == q
        block = 22 + rack_lines[q] * (TILE_H + 6)
        _rack(canvas, view, q, racks[q] if shown else None, len(racks[q]), y, winners)
        if last is not None and last.player == q and last.kind in ("pass", "end"):
            canvas.rect(MARGIN - 6, y - 4, WIDTH - 2 * MARGIN + 12, block, stroke=HIGHLIGHT,
                        width=2.5, rx=6, dash="7 4")
        y += block
    return canvas


def _header(canvas: Canvas, state: RummikubJuniorState, view: RummikubJuniorView,
            last: RummikubJuniorMove | None) -> None:
    canvas.text(MARGIN, MARGIN + 16, "Rummikub Junior", size=18, anchor="start", bold=True)
    canvas.text(MARGIN + 186, MARGIN + 16, _status(state, view), size=14, anchor="start")
    if last is not None:
        canvas.text(MARGIN, MARGIN + 40, _told(last), size=13, anchor="start",
                    fill=HIGHLIGHT)
    # The bank's stars and the pool, at the right.
    x = WIDTH - MARGIN - 250
    _star(canvas, x + 12, MARGIN + 11, 11)
    canvas.text(x + 30, MARGIN + 16, f"bank {view.bank}", size=14, anchor="start")
    x += 120
    for k in range(min(3, view.draw_pile_size)):
        canvas.card(x + 3 * k, MARGIN - 2 + 2 * k, 18, 24, None)
    canvas.text(x + 30, MARGIN + 16, f"pool {view.draw_pile_size}", size=14, anchor="start")
    if view.passes:
        canvas.text(WIDTH - MARGIN, MARGIN + 40,
                    f"passes with the pool empty: {view.passes} of {len(view.scores)}",
                    size=12, anchor="end")


def _status(state: RummikubJuniorState, view: RummikubJuniorView) -> str:
    outcome = state.outcome()
    if outcome is not None:
        winners = " and ".join(f"seat {p}" for p in sorted(outcome.winners))
        how = f"seat {view.went_out} went out" if view.went_out is not None else "blocked"
        return f"over ({how}): {winners} won"
    text = f"seat {view.current_player} to act"
    if view.joker_pending:
        return text + ", must lay the taken joker"
    if view.laid_this_turn:
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


def _table(canvas: Canvas, view: RummikubJuniorView, last: RummikubJuniorMove | None,
           top: float, rows: int) -> None:
    canvas.rect(MARGIN - 6, top - 6, WIDTH - 2 * MARGIN + 12, 30 + rows * ROW + 8,
                fill=FELT, stroke=EDGE, rx=10)
    canvas.rect(MARGIN + PANEL + 12, top + 2, 0, 20 + rows * ROW, stroke="#c5d1c1")
    for panel in range(2):
        left = MARGIN + panel * (PANEL + 24)
        for k in range(10):
            canvas.text(left + LABEL + k * PITCH + TILE_W / 2, top + 12, k + 1, size=11,
                        fill="#7d8a78")
    if not view.table:
        canvas.text(MARGIN + LABEL, top + 30 + TILE_H / 2 + 5, "no runs on the table yet",
                    size=13, anchor="start", fill="#7d8a78")
    for r, run in enumerate(view.table):
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


def _rack(canvas: Canvas, view: RummikubJuniorView, q: int, tiles: list[str] | None,
          size: int, y: float, winners: frozenset[int]) -> None:
    to_act = not view.is_over and q == view.current_player
    if to_act:
        lines = max(1, -(-size // PER_LINE))
        canvas.rect(MARGIN - 6, y - 4, WIDTH - 2 * MARGIN + 12, 22 + lines * (TILE_H + 6),
                    fill=_light(SEAT_COLOURS[q]), stroke=None, rx=6)
    canvas.circle(MARGIN + 10, y + 12, 9, fill=SEAT_COLOURS[q], width=3 if to_act else 1)
    mark = " to act" if to_act else " won" if q in winners else ""
    canvas.text(MARGIN + 26, y + 17, f"seat {q}{mark}", size=14, anchor="start",
                bold=bool(mark))
    _star(canvas, MARGIN + 34, y + 34, 9)
    canvas.text(MARGIN + 48, y + 39, f"{_count(view.scores[q], 'star')}, "
                f"{_count(size, 'tile')}", size=12, anchor="start")
    for k in range(size):
        x = RACK_X + (k % PER_LINE) * RACK_PITCH
        _tile(canvas, x, y + 2 + (k // PER_LINE) * (TILE_H + 6), None if tiles is None
              else tiles[k])


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"


def _light(colour: str) -> str:
    # The seat's colour mostly white: the background of the seat to act.
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(*((v + 3 * 255) // 4 for v in (r, g, b)))
