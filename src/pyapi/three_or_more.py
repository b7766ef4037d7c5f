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

#: The table: 7 card rows x 23 card columns, 3 squares a card row.
TABLE_ROWS, TABLE_COLS = 7, 23


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

    How they fit together (T5-T7) is the engine's to check, with the cards.
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
    """Check a set-up position's fields; return them for the engine.

    Here: every field's type, the hands' order, the scores and the turn order; the
    engine checks the table (T5-T7), that the cards are the deck (T2, T3), who holds how
    many (T8, T9) and what the last move scored (T10, T11).
    """
    n = game.num_players
    position = _read_table(data)
    hands = [_card_list(h, "hands", 3) for h in list_field(data, "hands", n)]
    for p, hand in enumerate(hands):
        if [card_code(c) for c in hand] != sorted(card_code(c) for c in hand):
            raise InvalidStateError(
                f"field 'hands': seat {p}'s hand {hand!r} must be ascending by card code")
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
