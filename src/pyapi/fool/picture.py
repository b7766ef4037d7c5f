"""Fool's pictures: the trick, the Fools, the hands, the scores."""

from __future__ import annotations

from boardcore._engine.fool import CARDS
from boardcore.fool.moves import COLOURS
from boardcore.fool.values import FoolMove, FoolSnapshot
from boardcore.pictures import HIGHLIGHT, INK, SEAT_COLOURS, Canvas, watcher
from boardcore.values import Perspective

__all__ = ["draw", "text"]

WIDTH = 740
MARGIN = 16
HEAD = 62                      # the title and the headline
TABLE_H = 148                  # the trick on the table
ROW_H = 58                     # one seat
CARD_W, CARD_H = 34, 48        # a card in hand
TRICK_W, TRICK_H = 48, 68      # a card on the table
HAND_X = 262                   # where the hands start
FELT, FELT_EDGE = "#2f5d50", "#1f3f36"
# Card faces by colour letter: the fill and the ink of the value.
FACES = {"G": ("#2b8a3e", "white"), "R": ("#c92a2a", "white"),
         "Y": ("#f2b705", INK), "B": ("#1c64c6", "white")}
SWATCH = {"green": "#2b8a3e", "red": "#c92a2a", "yellow": "#f2b705", "blue": "#1c64c6"}
FOOL_DISC = "#7048e8"


def text(p: FoolSnapshot, perspective: Perspective) -> str:
    """Return the text picture; hands other than ``perspective``'s face down (``??``)."""
    seat = perspective
    n = p.players
    lines = [
        f"Fool, {n} players, round {p.round}, dealer seat {p.dealer}"
        + (", game over" if p.outcome is not None else ""),
        "scores: " + "  ".join([f"{q}:{p.scores[q]:+d} ({p.plus10[q]}x+10)" for q in range(n)]),
        "fools:  " + (" ".join([f"seat {q}" for q in p.fools]) or "none"),
        "trick:  " + (" ".join([f"{q}:{CARDS[card]}" for q, card in p.trick]) or "-")
        + ("" if p.lead < 0 else f"  (lead colour {COLOURS[p.lead]})"),
    ]
    for q, hand in enumerate(p.hands):
        mark = ">" if q == p.current_player else " "
        cards = (" ".join([CARDS[c] for c in hand]) if seat is None or seat == q
                 else " ".join(["??"] * len(hand)))
        lines.append(f"{mark} seat {q} [{len(hand):2d}] {cards or '-'}")
    return "\n".join(lines)


def draw(p: FoolSnapshot, last_move: FoolMove | None, perspective: Perspective) -> Canvas:
    """Draw ``p``; hands other than ``perspective``'s face down (all up if ``None``)."""
    n, last = p.players, last_move
    canvas = Canvas(WIDTH, HEAD + TABLE_H + 14 + n * ROW_H + MARGIN,
                    f"Fool, {n} players, round {p.round}")
    title = f"Fool · round {p.round} · dealer: seat {p.dealer}"
    if perspective is not None:
        title += f" · seen by {watcher(perspective)}"
    canvas.text(MARGIN, 26, title, size=17, anchor="start", bold=True)
    canvas.text(MARGIN, 48, _headline(p, last), size=13, anchor="start")
    _table(canvas, p, last)
    top = HEAD + TABLE_H + 14
    for q in range(n):
        y = top + q * ROW_H
        shown = perspective is None or perspective == q
        voids = [COLOURS[c] for c in range(4) if p.voids[q] >> c & 1]
        _seat(canvas, p, q, y, [CARDS[c] for c in p.hands[q]], shown, voids)
    return canvas


def _headline(p: FoolSnapshot, last: FoolMove | None) -> str:
    if p.outcome is not None:
        won = " and ".join(f"seat {q}" for q in sorted(p.outcome.winners))
        return f"game over: {won} {'win' if len(p.outcome.winners) > 1 else 'wins'}"
    if last is None:
        return f"seat {p.current_player} to play"
    text = f"seat {last.player} played {last.move}"
    if last.void is not None:
        text += f" (shows no {last.void})"
    if last.winner is not None:
        fools = ", ".join(f"seat {q}" for q in sorted(last.fools))
        text += f"; seat {last.winner} takes the trick, Fool: {fools}"
    if last.round_over:
        text += "; round scored"
    return text + f"; seat {p.current_player} to play"


def _table(canvas: Canvas, p: FoolSnapshot, last: FoolMove | None) -> None:
    # The current trick in play order; right after a trick, that trick with its winner
    # and Fools.
    x0, y0 = MARGIN, HEAD
    canvas.rect(x0, y0, WIDTH - 2 * MARGIN, TABLE_H, fill=FELT, stroke=FELT_EDGE, width=2.0,
                rx=14)
    trick: tuple[tuple[int, str], ...] = tuple((q, CARDS[c]) for q, c in p.trick)
    lead = None if p.lead < 0 else COLOURS[p.lead]
    label = "trick"
    done = not trick and last is not None and last.winner is not None
    if done:
        assert last is not None
        trick, lead, label = last.trick, last.lead_colour, "last trick"
    canvas.text(x0 + 16, y0 + 24, label, size=13, anchor="start", fill="white", bold=True)
    canvas.text(x0 + 16, y0 + 44, "lead colour", size=11, anchor="start", fill="#d8e6df")
    if lead is None:
        canvas.text(x0 + 16, y0 + 62, "none yet", size=12, anchor="start", fill="white")
    else:
        canvas.rect(x0 + 16, y0 + 50, 16, 16, fill=SWATCH[lead], stroke="white", rx=3)
        canvas.text(x0 + 38, y0 + 63, lead, size=12, anchor="start", fill="white")
    if not trick:
        canvas.text(x0 + 150, y0 + 80, f"seat {p.current_player} leads"
                    if p.outcome is None else "", size=13, anchor="start", fill="#d8e6df")
    for i, (seat, card) in enumerate(trick):
        x = x0 + 150 + i * (TRICK_W + 22)
        y = y0 + 24
        _card(canvas, x, y, TRICK_W, TRICK_H, card)
        if last is not None and i == len(trick) - 1 and (done or trick == last.trick):
            canvas.rect(x - 4, y - 4, TRICK_W + 8, TRICK_H + 8, stroke=HIGHLIGHT, width=3.0,
                        rx=8)
        canvas.circle(x + TRICK_W / 2, y + TRICK_H + 16, 7, fill=SEAT_COLOURS[seat],
                      stroke="white")
        canvas.text(x + TRICK_W / 2, y + TRICK_H + 36, f"seat {seat}", size=11, fill="white")
        if done:
            assert last is not None
            if seat == last.winner:
                canvas.text(x + TRICK_W / 2, y - 6, "wins", size=11, fill="white", bold=True)
            if seat in last.fools:
                _disc(canvas, x + TRICK_W - 2, y + 2, 9)


def _seat(canvas: Canvas, p: FoolSnapshot, q: int, y: float, hand: list[str], shown: bool,
          voids: list[str]) -> None:
    to_play = p.current_player == q
    if to_play:
        canvas.rect(MARGIN - 4, y + 2, WIDTH - 2 * MARGIN + 8, ROW_H - 4, fill="#fff4d6",
                    stroke="#e0c36a", rx=8)
    canvas.circle(MARGIN + 12, y + 20, 10, fill=SEAT_COLOURS[q], width=3 if to_play else 1)
    won = p.outcome is not None and q in p.outcome.winners
    canvas.text(MARGIN + 30, y + 25, f"seat {q}" + (" to play" if to_play else "")
                + (" wins" if won else ""), size=13, anchor="start", bold=to_play or won)
    x = MARGIN + 126
    if q in p.fools:
        _disc(canvas, x + 10, y + 20, 10)
        canvas.text(x + 24, y + 25, "Fool", size=11, anchor="start")
    if q == p.dealer:
        canvas.circle(x + 70, y + 20, 9, fill="white")
        canvas.text(x + 70, y + 24.5, "D", size=11, bold=True)
    score = f"{p.scores[q]:+d}" if p.scores[q] else "0"
    canvas.text(MARGIN + 30, y + 44, f"score {score} · +10 ×{p.plus10[q]}", size=12,
                anchor="start")
    if voids:
        canvas.text(x + 60, y + 44, "no", size=11, anchor="start")
        for k, colour in enumerate(voids):
            cx = x + 82 + k * 16
            canvas.rect(cx, y + 34, 12, 12, fill=SWATCH[colour], stroke=INK, rx=2)
            canvas.text(cx + 6, y + 44, "×", size=12, fill="white" if colour != "yellow"
                        else INK, bold=True)
    if not hand:
        canvas.text(HAND_X, y + 32, "no cards", size=12, anchor="start", fill="#777777")
    for k, card in enumerate(hand):
        _card(canvas, HAND_X + k * (CARD_W + 4), y + 5, CARD_W, CARD_H, card if shown else None)


def _card(canvas: Canvas, x: float, y: float, w: float, h: float, card: str | None) -> None:
    # A coloured card with its value, a white wild 1 with the four colours, or a back.
    if card is None:
        canvas.card(x, y, w, h, None)
        return
    if card == "W1":
        canvas.card(x, y, w, h, "1", fill="#f8f9fa")
        band = (w - 8) / 4
        for i, colour in enumerate(SWATCH.values()):
            canvas.rect(x + 4 + i * band, y + h - 10, band, 5, fill=colour, stroke=None)
        return
    fill, ink = FACES[card[0]]
    canvas.card(x, y, w, h, card[1:], fill=fill, text_fill=ink)


def _disc(canvas: Canvas, cx: float, cy: float, r: float) -> None:
    # A Fool disc: a violet token with a jester's F.
    canvas.circle(cx, cy, r, fill=FOOL_DISC, stroke="white", width=1.5)
    canvas.text(cx, cy + r * 0.42, "F", size=r * 1.2, fill="white", bold=True)

