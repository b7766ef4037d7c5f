"""A 3 Or More position in Python: a seat's view, the ``to_dict`` fields, set-up positions.

A set-up position is read back from those fields, checked against the rules (T1-T11);
the engine takes plain ints: the table laid card by card in an order play could have
laid it (the last move last), the hands and the stock as codes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardcore._checks import field, int_list, list_field, seat_field
from boardcore._engine.three_or_more import ROW1, START_COL, TABLE_COLS, TABLE_ROWS
from boardcore.errors import InvalidStateError, NotationError
from boardcore.three_or_more.moves import (
    COLOURS,
    DIRECTIONS,
    PLACES,
    breakdown,
    card_code,
    card_text,
    parse,
)
from boardcore.three_or_more.picture import open_row, places
from boardcore.three_or_more.values import (
    MoveScore,
    ScoredLine,
    ThreeOrMorePosition,
    ThreeOrMoreSnapshot,
    ThreeOrMoreView,
)
from boardcore.values import quote

if TYPE_CHECKING:
    from boardcore._engine.three_or_more import ThreeOrMoreState
    from boardcore.three_or_more import ThreeOrMore

__all__ = ["fields", "read_position", "set_up", "view"]


def view(snapshot: ThreeOrMoreSnapshot, player: int) -> ThreeOrMoreView:
    """Return what seat ``player`` may see: the table, scores, its own hand, sizes."""
    p = snapshot
    return ThreeOrMoreView.of(
        p, player,
        hand=tuple([card_text(c) for c in p.hands[player]]),
        hand_sizes=tuple([len(h) for h in p.hands]),
        draw_pile_size=len(p.stock),
        grid=p.grid,
        places=places(p),
        cards_laid=p.laid,
        last_move=breakdown(p),
    )


def fields(snapshot: ThreeOrMoreSnapshot) -> dict[str, Any]:
    """Return the game's fields of ``to_dict`` (``ThreeOrMorePosition``)."""
    p = snapshot
    last = breakdown(p)
    position: ThreeOrMorePosition = {
        "current_player": p.current_player,
        "scores": list(p.scores),
        "hands": [[card_text(c) for c in hand] for hand in p.hands],
        "stock": [card_text(c) for c in p.stock],
        "grid": list(p.grid),
        "row1": list(p.row1),
        "block": list(p.block),
        "open_row": open_row(p),
        "last_move": None if last is None else {
            "player": last.player,
            "move": last.move,
            "points": last.points,
            "lines": [{"direction": ln.direction,
                       "squares": [list(sq) for sq in ln.squares],
                       "points": ln.points} for ln in last.lines],
        },
        "rng": list(p.rng),
    }
    return dict(position)


def set_up(game: ThreeOrMore, fields: dict[str, Any], seed: int) -> ThreeOrMoreState:
    """Return the set-up position a document's ``setup`` fields describe, checked."""
    state = _laid_out(game, read_position(game, fields), seed)
    if "rng" in fields and fields["rng"] != list(state.snapshot().rng):
        raise InvalidStateError(
            f"field 'rng' is {quote(fields['rng'])}, but 3 Or More draws nothing after "
            f"the deal: its words are the seed's (leave the field out)")
    return state


def _card_list(value: object, name: str, most: int) -> list[str]:
    """A list of at most ``most`` card patterns (part of field ``name``)."""
    if type(value) is not list or len(value) > most:
        raise InvalidStateError(
            f"field {name!r} must hold lists of at most {most} cards, not {quote(value)}")
    for card in value:
        if type(card) is not str or len(card) != 3 or any(c not in COLOURS for c in card):
            raise InvalidStateError(
                f"field {name!r} holds {quote(card)}; a card is 3 of the letters R, G, B, Y")
    return value


def _read_table(data: dict[str, Any]) -> dict[str, Any]:
    """The table fields' types: ``grid``, ``row1``, ``block``, ``open_row``.

    How they fit together (T5-T7) is ``_read_cards``'s to check.
    """
    grid = list_field(data, "grid", 3 * TABLE_ROWS)
    for line in grid:
        if type(line) is not str or len(line) != TABLE_COLS or any(c not in "RGBY." for c in line):
            raise InvalidStateError(
                f"field 'grid' must hold {3 * TABLE_ROWS} strings of {TABLE_COLS} squares "
                f"(R, G, B, Y or .), not {quote(line)}")
    open_row = field(data, "open_row")
    return {
        "grid": grid,
        "row1": int_list(field(data, "row1"), "row1", 0, TABLE_COLS - 1, 2),
        "block": int_list(field(data, "block"), "block", 0, TABLE_ROWS - 1, 2),
        "open_row": None if open_row is None
        else int_list(open_row, "open_row", -1, TABLE_COLS - 1, 3),
    }


def _read_last_move(data: dict[str, Any], players: int) -> MoveScore | None:
    """Field ``last_move`` as a ``MoveScore``; ``set_up`` checks what it scores."""
    last = field(data, "last_move")
    if last is None:
        return None
    if type(last) is not dict or set(last) != {"player", "move", "points", "lines"}:
        raise InvalidStateError(
            f"field 'last_move' must be null or hold player, move, points and lines, not "
            f"{quote(last)}")
    if type(last["player"]) is not int or not 0 <= last["player"] < players:
        raise InvalidStateError(f"field 'last_move' names seat {quote(last['player'])}")
    if type(last["move"]) is not str or type(last["points"]) is not int:
        raise InvalidStateError(f"field 'last_move' is {quote(last)}")
    lines = []
    for line in last["lines"] if type(last["lines"]) is list else [None]:
        if (type(line) is not dict or set(line) != {"direction", "squares", "points"}
                or line["direction"] not in DIRECTIONS or type(line["points"]) is not int
                or type(line["squares"]) is not list):
            raise InvalidStateError(f"field 'last_move' holds the line {quote(line)}")
        squares = [int_list(sq, "last_move", 0, TABLE_COLS - 1, 2) for sq in line["squares"]]
        lines.append(ScoredLine(line["direction"], tuple((r, c) for r, c in squares),
                                line["points"]))
    return MoveScore(player=last["player"], move=last["move"], points=last["points"],
                     lines=tuple(lines))


def read_position(game: ThreeOrMore, data: dict[str, Any]) -> dict[str, Any]:
    """Check a set-up position's fields; return them for the engine.

    Here: every field's type, the hands' order, the scores and the turn order; then
    ``set_up`` checks the table (T5-T7), that the cards are the deck (T2, T3), who
    holds how many (T8, T9) and what the last move scored (T10, T11).
    """
    n = game.num_players
    position = _read_table(data)
    hands = [_card_list(h, "hands", 3) for h in list_field(data, "hands", n)]
    for p, hand in enumerate(hands):
        if [card_code(c) for c in hand] != sorted(card_code(c) for c in hand):
            raise InvalidStateError(
                f"field 'hands': seat {p}'s hand {quote(hand)} must be ascending by card code")
    current = seat_field(data, "current_player", n)
    scores = int_list(field(data, "scores"), "scores", 0, 9024, n)
    last = _read_last_move(data, n)
    if last is not None and current is not None and last.player != (current - 1) % n:
        raise InvalidStateError(
            f"field 'last_move': seat {last.player} laid last, so seat {current} cannot be "
            f"the next to play (T1)")
    if last is not None and not 0 <= last.points <= scores[last.player]:
        raise InvalidStateError(
            f"field 'last_move' scores {last.points}, more than seat {last.player}'s total")
    return {**position, "hands": hands, "stock": _card_list(field(data, "stock"), "stock", 48),
            "scores": scores, "current_player": current, "last_move": last}


def _read_cards(position: dict[str, Any]) -> dict[tuple[int, int], int]:
    """T5-T7: the cards on the table by card slot, as codes.

    The grid holds whole cards exactly in the slots ``row1``, ``block`` and
    ``open_row`` describe: row 1 (card row 3) from its left to its right end, the
    block's other rows whole but the open row, laid from its corner to ``next``.
    """
    (lo, hi), (top, bottom), open_row = position["row1"], position["block"], position["open_row"]
    if not lo <= START_COL <= hi or hi - lo >= 12:
        raise InvalidStateError(f"field 'row1' is {[lo, hi]}: row 1 holds the starting "
                                f"card's column {START_COL} and at most 12 cards (T6)")
    if not top <= ROW1 <= bottom or bottom - top >= 4:
        raise InvalidStateError(f"field 'block' is {[top, bottom]}: the block holds row 1 "
                                f"(card row {ROW1}) and at most 4 rows (T5)")
    if hi - lo < 11 and (top != bottom or open_row is not None):
        raise InvalidStateError("fields 'block' and 'open_row': another row begins only "
                                "once row 1 holds 12 cards (T7)")
    filled = {(r, c) for r in range(top, bottom + 1) for c in range(lo, hi + 1)}
    if open_row is not None:
        r, nxt, d = open_row
        if (r not in (top, bottom) or r == ROW1 or d not in (1, -1)
                or not (lo < nxt <= hi if d == 1 else lo <= nxt < hi)):
            raise InvalidStateError(f"field 'open_row' is {open_row}: the open row is the "
                                    f"block's top or bottom row, begun at a corner and not "
                                    f"yet full (T7)")
        filled -= {(r, c) for c in range(lo, hi + 1) if (c >= nxt if d == 1 else c <= nxt)}
    grid = position["grid"]
    cards = {}
    for r in range(TABLE_ROWS):
        for c in range(TABLE_COLS):
            card = grid[3 * r][c] + grid[3 * r + 1][c] + grid[3 * r + 2][c]
            if (r, c) in filled:
                if "." in card:
                    raise InvalidStateError(
                        f"field 'grid': the card at card row {r}, column {c} is {quote(card)}; "
                        f"the fields 'row1', 'block' and 'open_row' say a card lies there")
                cards[(r, c)] = card_code(card)
            elif card != "...":
                raise InvalidStateError(
                    f"field 'grid': squares {quote(card)} at card row {r}, column {c}, where the "
                    f"fields 'row1', 'block' and 'open_row' say no card lies")
    return cards


def _reverse(card: int) -> int:
    """The card turned upside down (T3): top and bottom swap."""
    return ((card & 3) << 4) | (card & 12) | (card >> 4)


def _check_cards(game: ThreeOrMore, laid: list[int], hands: list[list[int]],
                 stock: list[int], current: int | None) -> None:
    """T2, T3: the table, the hands and the stock are the deck; T8, T9: who holds what."""
    n = game.num_players
    rest = [0] * 64
    for code in game._deck():
        rest[code] += 1
    for code in [c for h in hands for c in h] + stock:
        rest[code] -= 1
    if min(rest) < 0:
        raise InvalidStateError("fields 'hands' and 'stock' hold cards the deck does not (T2)")
    table = [0] * 64
    for code in laid:
        table[code] += 1
    if game.options["allow_rotation"]:   # a card on the table may lie either way up: by pairs
        for i in range(64):
            if _reverse(i) < i:
                rest[_reverse(i)] += rest[i]
                table[_reverse(i)] += table[i]
                rest[i] = table[i] = 0
    if rest != table:
        raise InvalidStateError("fields 'grid', 'hands' and 'stock' together must be the "
                                "deck's 48 cards (T2)")
    sizes = [len(h) for h in hands]
    if (current is None) != (len(laid) == 48):
        raise InvalidStateError(
            f"field 'current_player' is {quote(current)}, but {len(laid)} of 48 cards are laid: "
            f"the game is over exactly when all are (T9)")
    if current is None:
        return
    if stock and sizes != [3] * n:
        raise InvalidStateError(
            f"field 'hands': every seat holds 3 cards while the stock lasts (T8), not {sizes}")
    order = [sizes[(current + i) % n] for i in range(n)]
    if order != sorted(order, reverse=True) or order[0] - order[n - 1] > 1:
        raise InvalidStateError(
            f"field 'hands': with the stock gone, seat {current} plays from the largest "
            f"hand and each seat after it holds as many cards or one fewer (T8), not {sizes}")


def _laid_out(game: ThreeOrMore, position: dict[str, Any], seed: int) -> ThreeOrMoreState:
    """The position of checked fields, once the table, the cards and the last move fit.

    The engine takes plain ints: the table in an order play could have laid it (the
    last move last), the hands and the stock as codes.
    """
    cards = _read_cards(position)
    hands = [[card_code(c) for c in hand] for hand in position["hands"]]
    stock = [card_code(c) for c in position["stock"]]
    last = position["last_move"]
    _check_cards(game, list(cards.values()), hands, stock, position["current_player"])
    most = _most_points(position["grid"], cards)
    if sum(position["scores"]) > most:
        raise InvalidStateError(
            f"field 'scores' adds up to {sum(position['scores'])}, but the {len(cards) - 1} "
            f"cards laid after the starting one score at most {most} in all, however they "
            f"were laid (T4, T11)")
    plain = {"table": [cards[(ROW1, START_COL)]], "last_player": None, "hands": hands,
             "stock": stock, "scores": position["scores"],
             "current_player": position["current_player"]}
    if last is None:
        if len(cards) != 1:
            raise InvalidStateError("field 'last_move' is null, but cards were laid after "
                                    "the starting card")
        state: ThreeOrMoreState = game._engine.set_up(game, seed, plain)
        return state
    if len(cards) == 1:
        raise InvalidStateError("field 'last_move': no card was laid after the starting card")
    action, shown, slots = _last_move(game, position, len(cards), last)
    for slot in slots:
        order = _laying_order(position, cards, slot, 2 if game.options["allow_rotation"] else 1)
        if cards.get(slot) == shown and order[-1][1] == slot:
            plain["table"] = [cards[(ROW1, START_COL)]] + [a for a, _ in order[:-1]] + [action]
            plain["last_player"] = last.player
            state = game._engine.set_up(game, seed, plain)
            if breakdown(state.snapshot()) == last:
                return state
    raise InvalidStateError(f"field 'last_move' is {quote(last)}, which is not what laying "
                            f"{card_text(shown)} last scores on this table")


#: The directions a line runs in (down, across, the two diagonals) and a square's points.
_STEPS = ((1, 0, 1), (0, 1, 1), (1, 1, 2), (1, -1, 2))


def _most_points(grid: list[str], cards: dict[tuple[int, int], int]) -> int:
    """T4, T11: the most the cards laid after the starting card can have scored in all.

    A card scored each line through its squares at the line's length then.  Lines only
    grow as cards are laid, and the lines through one card's squares are distinct lines
    of the table as it lies now, so each card scored at most the lines through its
    squares on this table: their sum over the cards bounds the scores, whatever the
    order of laying.
    """
    height, width = len(grid), len(grid[0])

    def colour(y: int, x: int) -> str:
        return grid[y][x] if 0 <= y < height and 0 <= x < width else "."

    total = 0
    for r, c in cards:
        if (r, c) == (ROW1, START_COL):
            continue                                # it scores nothing (T4)
        lines = set()
        for y in range(3 * r, 3 * r + 3):
            for dy, dx, points in _STEPS:
                y0, x0 = y, c
                while colour(y0 - dy, x0 - dx) == grid[y][c]:
                    y0, x0 = y0 - dy, x0 - dx
                length = 0
                while colour(y0 + length * dy, x0 + length * dx) == grid[y][c]:
                    length += 1
                if length >= 3:
                    lines.add((dy, dx, y0, x0, length * points))
        total += sum(line[-1] for line in lines)
    return total


def _laying_order(position: dict[str, Any], cards: dict[tuple[int, int], int],
                  last: tuple[int, int], turns: int) -> list[tuple[int, tuple[int, int]]]:
    """An order play could have laid the table's cards in, ending at slot ``last`` if any.

    Each card but the starting one with the action that lays it, unturned: row 1 out
    from the starting card (towards ``last`` last), then rows 2-4 each from a corner,
    the open row or the row ``last`` is in last, begun at its other end.
    """
    (lo, hi), (top, bottom), open_row = position["row1"], position["block"], position["open_row"]
    final = open_row[0] if open_row is not None else last[0]

    def lay(place: str, row: int, cols: range) -> list[tuple[int, tuple[int, int]]]:
        return [((PLACES.index(place if i == 0 or row == ROW1 else "") * turns) * 64
                 + cards[(row, c)], (row, c)) for i, c in enumerate(cols) if (row, c) in cards]

    left = lay("left", ROW1, range(START_COL - 1, lo - 1, -1))
    right = lay("right", ROW1, range(START_COL + 1, hi + 1))
    order = right + left if last == (ROW1, lo) else left + right
    rows = [*range(ROW1 - 1, top - 1, -1), *range(ROW1 + 1, bottom + 1)]
    for r in sorted(rows, key=lambda r: r == final):    # stable: the final row last
        rightwards = open_row[2] == 1 if open_row is not None and r == final else last != (r, lo)
        corner = ("top-" if r < ROW1 else "bottom-") + ("left" if rightwards else "right")
        order += lay(corner, r, range(lo, hi + 1) if rightwards else range(hi, lo - 1, -1))
    return order


def _last_move(game: ThreeOrMore, position: dict[str, Any], laid: int,
               last: MoveScore) -> tuple[int, int, list[tuple[int, int]]]:
    """The last move's action, its card as it lies, and the card slots it may lie in.

    Its place must have been open when it laid card ``laid`` (T6, T7), and it lies
    where that place is; a card that filled a row of rows 2-4 lies at one of the newest
    row's ends, which the fields do not name: top row before bottom, left before right.
    """
    turns = 2 if game.options["allow_rotation"] else 1
    try:
        action = parse(last.move, turns)
    except NotationError as exc:
        raise InvalidStateError(f"field 'last_move': {exc}") from None
    card, place, turned = action & 63, action >> 6, 0
    if turns == 2:
        place, turned = place >> 1, place & 1
    corner = place >= PLACES.index("top-left")
    before = laid - 1
    if before < 12:
        expected = PLACES[place] in ("left", "right")
    else:
        expected = corner if before % 12 == 0 else place == 0
    if not expected or (turned and _reverse(card) == card):
        raise InvalidStateError(f"field 'last_move': {quote(last.move)} cannot have laid card "
                                f"{laid} of the table (T6, T7)")
    (lo, hi), (top, bottom), open_row = position["row1"], position["block"], position["open_row"]
    slots = []
    if open_row is not None:
        r, nxt, d = open_row
        if not corner or ((r < ROW1) == PLACES[place].startswith("top")
                          and (d == 1) == PLACES[place].endswith("left")):
            slots = [(r, nxt - d)]
    elif not corner and place:
        slots = [(ROW1, lo if PLACES[place] == "left" else hi)]
    elif not corner and laid % 12 == 0:
        slots = [(r, c) for r in (top, bottom) if r != ROW1 for c in (lo, hi)]
    return action, _reverse(card) if turned else card, slots
