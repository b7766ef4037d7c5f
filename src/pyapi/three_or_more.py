"""3 Or More: lay cards of three coloured squares into a 12 x 12 grid, score runs of 3+.

Rules: ``boardcore rules three_or_more``; details in ``docs/games/three_or_more.md``.

>>> import boardcore
>>> game = boardcore.make("three_or_more", players=2)
>>> state = game.new_state(seed=7)
>>> [state.action_to_str(a) for a in state.legal_actions()][:2]
['BBG@left', 'BBB@left']
>>> state.apply(state.parse_action("BBG@left"))
>>> state.current_player, state.scores()
(1, (0, 0))
>>> for _ in range(7):
...     state.apply(state.legal_actions()[-1])
>>> print(state)
3 Or More, 2 players, 9 of 48 cards laid, seat 0 to play; scores 9 6; stock 33
      90123456789
   9  *BBGYGYRBB*
  10  *BBYYBYBBY*
  11  *GRYYGYBBY*
last: seat 1 laid BYY@right for 6 (rising 3 = 6)
hands: 0: GGY BGG BBY | 1: RRY RBR BGB
next card goes at * (left, right)
>>> state.last_breakdown().lines
(ScoredLine(direction='rising', squares=((9, 18), (10, 17), (11, 16)), points=6),)
>>> state.rollout(seed=1)
Outcome(scores=(92, 85), winners=frozenset({0}))
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from types import MappingProxyType
from typing import Any, ClassVar

from boardcore._checks import field, int_list, list_field, seat_field
from boardcore._engine import three_or_more as _engine
from boardcore._engine._state import EngineConfig
from boardcore._engine.three_or_more import DIRECTIONS, ThreeOrMoreState, card_code
from boardcore.errors import ConfigurationError, InvalidStateError
from boardcore.protocol import Game
from boardcore.values import (
    MoveScore,
    ScoredLine,
    ThreeOrMoreMove,
    ThreeOrMoreView,
    check_int,
    quote,
)

__all__ = [
    "COLOURS",
    "DEFAULT_DECK",
    "MoveScore",
    "ScoredLine",
    "ThreeOrMore",
    "ThreeOrMoreMove",
    "ThreeOrMoreState",
    "ThreeOrMoreView",
]

#: The four colours, in card-code order.
COLOURS = "RGBY"


def _default_deck() -> tuple[str, ...]:
    # T2 [decided]: XXX three times per colour; per colour pair {X, Z} one each of
    # XXZ XZX ZXX XZZ ZXZ ZZX.
    deck = [c * 3 for c in COLOURS for _ in range(3)]
    for x, z in combinations(COLOURS, 2):
        deck += [x + x + z, x + z + x, z + x + x, x + z + z, z + x + z, z + z + x]
    return tuple(deck)


#: The default 48-card deck (T2), in a fixed order before shuffling.
DEFAULT_DECK: tuple[str, ...] = _default_deck()


class ThreeOrMore(Game[ThreeOrMoreState]):
    """The 3 Or More configuration: 2-4 players and the options below.

    Args:
        players: 2, 3 or 4.
        deck: ``None`` for the default deck (T2), or 48 three-letter patterns over
            ``R G B Y`` (top, middle, bottom).
        allow_rotation: ``True`` lets a card be laid upside down (T3).
        start_player: the seat that lays the first card (T1).

    >>> ThreeOrMore(players=3, allow_rotation=True).num_actions
    896
    >>> ThreeOrMore(players=2, deck=["RRR"] * 47 + ["RRX"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    boardcore.errors.ConfigurationError: deck card 47 is 'RRX': 'X' is not a colour; ...
    """

    name: ClassVar[str] = "three_or_more"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    rules_version: ClassVar[int] = 1
    option_defaults = MappingProxyType(
        {"deck": None, "allow_rotation": False, "start_player": 0}
    )
    stat_names: ClassVar[tuple[str, ...]] = ("lines", "best_move")
    state_class = ThreeOrMoreState

    __slots__ = ()

    def _normalize_options(self, options: dict[str, object]) -> dict[str, object]:
        deck = options["deck"]
        if deck is not None:
            if not isinstance(deck, (list, tuple)):
                raise ConfigurationError(
                    f"deck must be None or a list of 48 card patterns, not {deck!r}"
                )
            if len(deck) != 48:
                raise ConfigurationError(f"deck must hold 48 cards, not {len(deck)}")
            for i, card in enumerate(deck):
                if not isinstance(card, str) or len(card) != 3:
                    raise ConfigurationError(
                        f"deck card {i} is {card!r}: a card is 3 letters of R, G, B, Y "
                        f"(top, middle, bottom)"
                    )
                for colour in card:
                    if colour not in COLOURS:
                        raise ConfigurationError(
                            f"deck card {i} is {card!r}: {colour!r} is not a colour; "
                            f"colours are R, G, B, Y"
                        )
            deck = tuple(deck)
        rotation = options["allow_rotation"]
        if not isinstance(rotation, bool):
            raise ConfigurationError(f"allow_rotation must be True or False, not {rotation!r}")
        try:
            start = check_int(options["start_player"], "start_player")
        except TypeError as exc:
            raise ConfigurationError(str(exc)) from None
        if not 0 <= start < self.num_players:
            raise ConfigurationError(
                f"start_player must be a seat in range({self.num_players}), not {start!r}"
            )
        return {"deck": deck, "allow_rotation": rotation, "start_player": start}

    def _configure(self) -> EngineConfig:
        start, rotation, deck = (
            self.options[k] for k in ("start_player", "allow_rotation", "deck"))
        assert isinstance(start, int) and isinstance(rotation, bool)
        assert deck is None or isinstance(deck, tuple)
        codes = [card_code(card) for card in deck or DEFAULT_DECK]
        return _engine.config(self.num_players, start, rotation, codes)

    @property
    def observation_planes(self) -> tuple[tuple[str, int], ...]:
        """The planes of ``ThreeOrMoreState.observation`` (docs/games/three_or_more.md)."""
        n = self.num_players
        return (("table", 4 * 144), ("next_slot", 48), ("phase", 3), ("hand", 36),
                ("unseen", 64), ("hand_sizes", n), ("scores", n), ("to_act", n),
                ("stock_size", 1))

    def _set_up(self, fields: dict[str, Any], seed: int) -> ThreeOrMoreState:
        position = _read_position(self, fields)
        state = ThreeOrMoreState._set_up(self._engine, self, seed, position)
        if "rng" in fields and fields["rng"] != state.to_dict()["rng"]:
            raise InvalidStateError(
                f"field 'rng' is {quote(fields['rng'])}, but 3 Or More draws nothing after "
                f"the deal: its words are the seed's (leave the field out)")
        return state


# -- set-up positions -------------------------------------------------------------------

#: Card slots of the table: 7 card rows x 23 card columns; row 1 is card row 3.
TABLE_ROWS, TABLE_COLS, ROW1, START_COL = 7, 23, 3, 11


def _reverse(card: str) -> str:
    return card[::-1]


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


def _slots(lo: int, hi: int, top: int, bottom: int,
           open_row: list[int] | None) -> set[tuple[int, int]]:
    """The card slots a table with these ends, rows and open row has filled (T6, T7)."""
    filled = {(ROW1, c) for c in range(lo, hi + 1)}
    for r in range(top, bottom + 1):
        if r != ROW1:
            filled |= {(r, c) for c in range(lo, hi + 1)}
    if open_row is not None:
        r, nxt, d = open_row
        filled -= {(r, c) for c in range(lo, hi + 1)}
        filled |= {(r, c) for c in (range(lo, nxt) if d == 1 else range(nxt + 1, hi + 1))}
    return filled


def _read_table(data: dict[str, Any]) -> tuple[list[str], list[int], list[int],
                                                list[int] | None, list[str]]:
    """Check the table fields: the grid, row 1's ends, the block, the open row (T5-T7).

    Returns them with the cards on the table as they lie.
    """
    grid = list_field(data, "grid", 3 * TABLE_ROWS)
    for line in grid:
        if type(line) is not str or len(line) != TABLE_COLS or any(c not in "RGBY." for c in line):
            raise InvalidStateError(
                f"field 'grid' must hold {3 * TABLE_ROWS} strings of {TABLE_COLS} squares "
                f"(R, G, B, Y or .), not {quote(line)}")
    lo, hi = int_list(field(data, "row1"), "row1", 0, TABLE_COLS - 1, 2)
    if not lo <= START_COL <= hi or hi - lo > 11:
        raise InvalidStateError(
            f"field 'row1' is {[lo, hi]}: row 1 holds the starting card's column "
            f"{START_COL} and at most 12 cards (T6)")
    top, bottom = int_list(field(data, "block"), "block", 0, TABLE_ROWS - 1, 2)
    if not top <= ROW1 <= bottom or bottom - top > 3:
        raise InvalidStateError(
            f"field 'block' is {[top, bottom]}: the block holds row 1 (card row {ROW1}) and "
            f"at most 4 rows (T5)")
    if hi - lo < 11 and top != bottom:
        raise InvalidStateError(
            "field 'block': another row begins only once row 1 holds 12 cards (T7)")
    open_row = field(data, "open_row")
    if open_row is not None:
        open_row = int_list(open_row, "open_row", -1, TABLE_COLS - 1, 3)
        r, nxt, d = open_row
        if (hi - lo < 11 or r not in (top, bottom) or r == ROW1 or d not in (1, -1)
                or not (lo < nxt <= hi if d == 1 else lo <= nxt < hi)):
            raise InvalidStateError(
                f"field 'open_row' is {open_row}: the open row is the top or bottom row of "
                f"the block, begun at a corner and not yet full (T7)")
    filled = _slots(lo, hi, top, bottom, open_row)
    if open_row is None and len(filled) > 12 and len(filled) % 12:
        raise InvalidStateError("field 'open_row' is null, but a row is not full")
    cards = []
    for r in range(TABLE_ROWS):
        for c in range(TABLE_COLS):
            card = "".join(grid[3 * r + i][c] for i in range(3))
            if (r, c) in filled and "." in card:
                raise InvalidStateError(
                    f"field 'grid': the card at card row {r}, column {c} is {card!r}; the "
                    f"fields 'row1', 'block' and 'open_row' say a card lies there")
            if (r, c) not in filled and card != "...":
                raise InvalidStateError(
                    f"field 'grid': squares {card!r} at card row {r}, column {c}, where the "
                    f"fields 'row1', 'block' and 'open_row' say no card lies")
            if (r, c) in filled:
                cards.append(card)
    return grid, [lo, hi], [top, bottom], open_row, cards


def _read_last_move(data: dict[str, Any], players: int) -> MoveScore | None:
    """Field ``last_move`` as a ``MoveScore``; the engine checks what it scores."""
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


def _read_position(game: ThreeOrMore, data: dict[str, Any]) -> dict[str, Any]:
    """Check a set-up position's fields against the rules; return them for the engine."""
    n = game.num_players
    grid, row1, block, open_row, table = _read_table(data)
    hands = [_card_list(h, "hands", 3) for h in list_field(data, "hands", n)]
    for p, hand in enumerate(hands):
        if [card_code(c) for c in hand] != sorted(card_code(c) for c in hand):
            raise InvalidStateError(
                f"field 'hands': seat {p}'s hand {hand!r} must be ascending by card code")
    stock = _card_list(field(data, "stock"), "stock", 48)
    held = [c for h in hands for c in h] + stock
    if len(table) + len(held) != 48:
        raise InvalidStateError(
            f"fields 'grid', 'hands' and 'stock' hold {len(table) + len(held)} cards, not the "
            f"deck's 48")
    deck = game.options["deck"] or DEFAULT_DECK
    assert isinstance(deck, tuple)
    rest = Counter(deck)
    rest.subtract(held)
    laid = list(rest.elements())
    if game.options["allow_rotation"]:   # T3: a card on the table may lie upside down
        laid, table = [min(c, _reverse(c)) for c in laid], [min(c, _reverse(c)) for c in table]
    if any(v < 0 for v in rest.values()) or Counter(laid) != Counter(table):
        raise InvalidStateError(
            "fields 'grid', 'hands' and 'stock' together must be the deck's 48 cards (T2)")
    current = seat_field(data, "current_player", n)
    sizes = [len(h) for h in hands]
    if len(table) == 48:
        if current is not None:
            raise InvalidStateError(
                f"field 'current_player' is {current!r}, but all 48 cards are laid (T9)")
    elif current is None:
        raise InvalidStateError("field 'current_player' is null, but the game is not over")
    elif stock and sizes != [3] * n:
        raise InvalidStateError(
            f"field 'hands': every seat holds 3 cards while the stock lasts (T8), not {sizes}")
    else:
        order = [sizes[(current + k) % n] for k in range(n)]
        if order != sorted(order, reverse=True) or order[0] - order[-1] > 1:
            raise InvalidStateError(
                f"field 'hands': with the stock gone, seat {current} plays from the largest "
                f"hand and each seat after it holds as many cards or one fewer (T8), not "
                f"{sizes}")
    scores = int_list(field(data, "scores"), "scores", 0, 9024, n)
    last = _read_last_move(data, n)
    if last is not None and current is not None and last.player != (current - 1) % n:
        raise InvalidStateError(
            f"field 'last_move': seat {last.player} laid last, so seat {current} cannot be "
            f"the next to play (T1)")
    if last is not None and not 0 <= last.points <= scores[last.player]:
        raise InvalidStateError(
            f"field 'last_move' scores {last.points}, more than seat {last.player}'s total")
    return {"grid": grid, "row1": row1, "block": block, "open_row": open_row,
            "hands": hands, "stock": stock, "scores": scores, "current_player": current,
            "last_move": last}
