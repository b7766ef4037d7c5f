"""The pictures of a Just4Fun position: the board, the stacks, the locks, the hands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardcore.pictures import HIGHLIGHT, SEAT_COLOURS, Canvas
from boardcore.values import Just4FunView

if TYPE_CHECKING:
    from boardcore._engine.just4fun import Just4FunState

__all__ = ["draw", "text"]

CELL = 70          # one board square
MARGIN = 16
CARD_W, CARD_H = 26, 36


def draw(state: Just4FunState, perspective: int | None) -> Canvas:
    """Draw ``state``; hands other than ``perspective``'s face down (all up if ``None``)."""
    doc = state.to_dict()
    n = state.game.num_players
    last = state.last_move
    board = 6 * CELL
    rows_h = 52
    canvas = Canvas(board + 2 * MARGIN, board + 2 * MARGIN + 30 + n * rows_h,
                    f"Just4Fun, {n} players")
    for i in range(36):
        r, c = divmod(i, 6)
        x, y = MARGIN + c * CELL, MARGIN + r * CELL
        owner = doc["owners"][i]
        fill = "white" if owner is None else _light(SEAT_COLOURS[owner])
        canvas.rect(x, y, CELL, CELL, fill=fill, width=3.0 if owner is not None else 1.0)
        canvas.text(x + 6, y + 17, doc["layout"][i], size=15, anchor="start", bold=True)
        stacks = [(q, doc["stones"][q][i]) for q in range(n) if doc["stones"][q][i]]
        for k, (q, count) in enumerate(stacks):
            cx = x + CELL - 15 - 19 * (len(stacks) - 1 - k)
            canvas.circle(cx, y + CELL - 16, 9, fill=SEAT_COLOURS[q])
            canvas.text(cx, y + CELL - 11.5, count, size=11, bold=True)
        if last is not None and last.field == doc["layout"][i]:
            canvas.rect(x + 3, y + 3, CELL - 6, CELL - 6, stroke=HIGHLIGHT, width=3.0,
                        dash="6 3")
    top = MARGIN + board + 24
    over = state.is_over()
    canvas.text(MARGIN, top, _headline(state, last), size=14, anchor="start")
    scores = state.scores()
    for q in range(n):
        y = top + 14 + q * rows_h
        to_act = not over and q == state.current_player
        canvas.circle(MARGIN + 10, y + 18, 9, fill=SEAT_COLOURS[q], width=3 if to_act else 1)
        canvas.text(MARGIN + 26, y + 16, f"seat {q}" + (" to act" if to_act else ""),
                    size=13, anchor="start", bold=to_act)
        canvas.text(MARGIN + 26, y + 32, f"{doc['supplies'][q]} stones, score {scores[q]}",
                    size=12, anchor="start")
        for k, value in enumerate(doc["hands"][q]):
            shown = perspective is None or perspective == q
            canvas.card(MARGIN + 190 + k * (CARD_W + 6), y + 4, CARD_W, CARD_H,
                        str(value) if shown else None)
    return canvas


def text(state: Just4FunState, seat: int) -> str:
    """Return ``str(state)``: the board with stacks and locks; hands but ``seat``'s as ``?``.

    A negative ``seat`` shows every hand.
    """
    doc = state.to_dict()
    layout, stones, owners, hands = doc["layout"], doc["stones"], doc["owners"], doc["hands"]
    stacks = list(zip(*stones, strict=True))     # per cell, its stones by seat
    lines = [repr(state), "each field: its number, then its stones by seat (. = none); "
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
    scores = state.scores()
    for q, hand in enumerate(hands):
        mark = ">" if q == doc["current_player"] else " "
        shown = " ".join(map(str, hand)) if seat < 0 or seat == q else " ".join("?" * len(hand))
        lines.append(f"{mark} seat {q}: supply {doc['supplies'][q]:>2}, score {scores[q]:>3}, "
                     f"hand {shown}")
    discard = doc["discard_pile"]
    lines.append(f"draw pile {len(doc['draw_pile'])}, discard pile {len(discard)} "
                 f"(top {discard[-1] if discard else '-'}), "
                 f"turns without a stone {doc['idle_turns']}")
    if state.is_over():
        lines.append(f"over: {state.outcome()}")
    return "\n".join(lines)


def _headline(state: Just4FunState, last: object) -> str:
    if state.is_over():
        outcome = state.outcome()
        assert outcome is not None
        return "over; " + " and ".join(f"seat {p}" for p in sorted(outcome.winners)) + " won"
    text = f"draw pile {state.view(0).draw_pile_size}"
    if last is not None:
        text += f"; last: seat {last.player} played {last.move}"   # type: ignore[attr-defined]
    return text


def _light(colour: str) -> str:
    # The seat's colour mixed with white: the background of a locked field.
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(*((v + 2 * 255) // 3 for v in (r, g, b)))


def view(state: Just4FunState, player: int) -> Just4FunView:
    """Return what seat ``player`` may see (``Just4FunState.view``; the seat is checked)."""
    position = state._fields()
    hands = position["hands"]
    return Just4FunView(
        player=player,
        current_player=position["current_player"],
        is_over=position["current_player"] is None,
        scores=state.scores(),
        hand=tuple(hands[player]),
        hand_sizes=tuple([len(hand) for hand in hands]),
        draw_pile_size=len(position["draw_pile"]),
        discard_pile=tuple(position["discard_pile"]),
        layout=tuple(position["layout"]),
        stones=tuple([tuple(row) for row in position["stones"]]),
        owners=tuple(position["owners"]),
        supplies=tuple(position["supplies"]),
        idle_turns=position["idle_turns"],
    )
