"""Rummikub Junior: lay coloured runs of numbers, collect stars, empty your rack first.

The rules are ``boardcore rules rummikub_junior``; the action encoding, the ``to_dict``
schema and the options are in ``docs/games/rummikub_junior.md``.

>>> from boardcore.rummikub_junior import RummikubJunior
>>> game = RummikubJunior(players=2)
>>> state = game.new_state(seed=2)
>>> state.view(0).hand
('R2', 'R3', 'R6', 'Y1', 'K7', 'J')
>>> [state.action_to_str(a) for a in state.legal_actions()]
['pass', 'new J(R1) R2 R3', 'new R2 R3 J(R4)']
>>> state.apply(state.parse_action("new R2 R3 J(R4)"))
>>> state.scores(), state.view(0).table, state.view(0).hand_sizes
((10, 6), ('R2 R3 J(R4)',), (3, 6))
>>> state.apply(state.parse_action("end"))
>>> state.current_player
1
"""

from __future__ import annotations

import re
from types import MappingProxyType
from typing import Any, ClassVar

from boardcore._checks import (
    bool_field,
    field,
    int_field,
    int_list,
    list_field,
    rng_field,
    seat_field,
)
from boardcore._engine import rummikub_junior as _engine
from boardcore._engine._state import EngineConfig
from boardcore._engine.rummikub_junior import RummikubJuniorState
from boardcore.errors import (
    ConfigurationError,
    IllegalActionError,
    InvalidStateError,
    NotationError,
)
from boardcore.protocol import Game
from boardcore.values import RummikubJuniorView, check_int, quote

__all__ = ["RummikubJunior", "RummikubJuniorState", "RummikubJuniorView"]

COLOURS = "RBYK"
#: Tile ``10 * colour + number - 1`` (R1..R10 B1..K10), then 40, the joker.
TILES = tuple(f"{c}{n}" for c in COLOURS for n in range(1, 11)) + ("J",)
TILE_INDEX = {name: t for t, name in enumerate(TILES)}
JOKER = TILE_INDEX["J"]
STARS_TOTAL = 56        # K2
STARS_MAX = 1_000_000   # a set-up position's stars, at most
MAX_RUNS = 14           # every run holds at least 3 of the 44 tiles
# The first action of each kind (docs/games/rummikub_junior.md).
A_PASS, A_END, A_EXTEND, A_SWAP, A_NEW = 0, 1, 2, 58, 198

#: A table run as the engine hands it over: colour, first number, length, joker mask
#: (bit i: position i is a joker).
Run = tuple[int, int, int, int]
#: The whole position as ``RummikubJuniorState`` hands it over, taken as one step:
#: the seat to act (None once over), the racks (tile numbers, ascending), the stars,
#: the table, the pool (next first), laid_this_turn, joker_pending, passes, went_out
#: (or None) and the generator's 4 words.
Plain = tuple[int | None, list[list[int]], list[int], list[Run], list[int], bool, bool,
              int, int | None, list[int]]


class RummikubJunior(Game[RummikubJuniorState]):
    """The Rummikub Junior configuration: 2-4 players and the options of the rules page.

    Options:
        start_player: the seat that moves first (K1).

    >>> RummikubJunior(players=4, start_player=2).new_state(seed=1).current_player
    2
    >>> RummikubJunior(players=5)
    Traceback (most recent call last):
    ...
    boardcore.errors.ConfigurationError: rummikub_junior takes 2..4 players, not 5
    """

    name: ClassVar[str] = "rummikub_junior"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    rules_version: ClassVar[int] = 1
    option_defaults = MappingProxyType({"start_player": 0})
    end_reasons: ClassVar[tuple[str, ...]] = ("went_out", "blocked")
    stat_names: ClassVar[tuple[str, ...]] = ("end", "turns")
    state_class = RummikubJuniorState

    __slots__ = ()

    def _normalize_options(self, options: dict[str, object]) -> dict[str, object]:
        start = options["start_player"]
        if isinstance(start, bool) or not isinstance(start, int) or not (
            0 <= start < self.num_players
        ):
            raise ConfigurationError(
                f"option 'start_player' must be a seat in 0..{self.num_players - 1}, "
                f"not {quote(start)}"
            )
        return dict(options)

    def _configure(self) -> EngineConfig:
        start = check_int(self.options["start_player"], "start_player")
        return _engine.config(self.num_players, start)

    @property
    def observation_planes(self) -> tuple[tuple[str, int], ...]:
        """The planes of ``RummikubJuniorState.observation`` (docs/games/rummikub_junior.md)."""
        n = self.num_players
        return (("rack", 40), ("rack_jokers", 1), ("run_colours", 4 * MAX_RUNS),
                ("run_tiles", 10 * MAX_RUNS), ("run_jokers", 10 * MAX_RUNS), ("stars", n),
                ("rack_sizes", n), ("to_act", n), ("pool_size", 1), ("laid_this_turn", 1),
                ("joker_pending", 1), ("passes", 1))

    # The engine's Python half, reached through the state's game (the engine never
    # imports this module): notation, the view and the fields of to_dict.
    def _action_to_str(self, runs: list[Run], action: object, a: int) -> str:
        return _action_to_str(runs, action, a)

    def _parse_action(self, runs: list[Run], text: object) -> int:
        return _parse_action(runs, text)

    def _view(self, plain: Plain, p: int) -> RummikubJuniorView:
        return _view(plain, p)

    def _fields(self, plain: Plain) -> dict[str, Any]:
        return _fields(plain)

    def _set_up(self, fields: dict[str, Any], seed: int) -> RummikubJuniorState:
        return RummikubJuniorState._set_up(self._engine, self, seed, _read_position(self, fields))


def _tiles(value: object, name: str) -> list[int]:
    """Return ``value`` (part of field ``name``), a list of tiles, as tile numbers."""
    if type(value) is not list or any(type(t) is not str or t not in TILE_INDEX for t in value):
        raise InvalidStateError(
            f"field {name!r} is {quote(value)}; expected a list of tiles like 'R7' or 'J'")
    return [TILE_INDEX[t] for t in value]


def _run(text: object) -> int:
    """Return a table run written ``R3 J(R4) R5`` as its index among the new runs."""
    if type(text) is not str:
        raise InvalidStateError(f"field 'table' holds {quote(text)}; runs are strings")
    try:
        return _parse_run(text, text.split())
    except NotationError as exc:
        raise InvalidStateError(f"field 'table': {exc}") from None


def _read_position(game: RummikubJunior, data: dict[str, Any]) -> dict[str, Any]:
    """Check a set-up position's fields; return them as the engine's trusted values."""
    n = game.num_players
    racks = [_tiles(rack, "racks") for rack in list_field(data, "racks", n)]
    texts = list_field(data, "table")
    table = [_run(text) for text in texts]
    if len(table) > MAX_RUNS:
        raise InvalidStateError(f"field 'table' holds {len(table)} runs; at most {MAX_RUNS} fit")
    pool = _tiles(field(data, "pool"), "pool")
    tiles = [t for rack in racks for t in rack] + pool + [
        JOKER if word.startswith("J(") else TILE_INDEX[word]
        for text in texts for word in str(text).split()
    ]
    if sorted(tiles) != list(range(JOKER)) + [JOKER] * 4:
        raise InvalidStateError(
            "fields 'racks', 'table' and 'pool' together must hold each numbered tile "
            "once and 4 jokers (K2)")
    stars = int_list(field(data, "stars"), "stars", 0, STARS_MAX, n)
    bank = field(data, "bank")
    if type(bank) is not int or bank != STARS_TOTAL - sum(stars):
        raise InvalidStateError(
            f"field 'bank' is {quote(bank)}, expected {STARS_TOTAL - sum(stars)} "
            f"(56 stars in all, K2/K9)")
    laid = bool_field(data, "laid_this_turn")
    pending = bool_field(data, "joker_pending")
    passes = int_field(data, "passes", 0, n)
    if passes and pool:
        raise InvalidStateError(
            "field 'passes' counts passes with the pool empty, but the pool is not (K11)")
    rng = rng_field(data)
    current = seat_field(data, "current_player", n)
    went_out = field(data, "went_out")
    if current is None:
        if went_out is None and passes != n:
            raise InvalidStateError(
                f"field 'passes' is {passes}; a game over without 'went_out' ended "
                f"by a full round of {n} passes (K11)")
        if went_out is not None and (type(went_out) is not int or not 0 <= went_out < n
                                     or racks[went_out]):
            raise InvalidStateError(
                f"field 'went_out' is {quote(went_out)}; expected null or the seat whose "
                f"rack is empty (K10)")
        if laid or pending:
            raise InvalidStateError(
                "fields 'laid_this_turn' and 'joker_pending' must be false once over")
    else:
        if passes == n:
            raise InvalidStateError(
                f"field 'passes' is {n}: a full round of passes ends the game (K11)")
        if went_out is not None:
            raise InvalidStateError(
                f"field 'went_out' is {quote(went_out)}, but the game is not over "
                f"(expected null)")
        for p, rack in enumerate(racks):
            if not rack:
                raise InvalidStateError(
                    f"field 'racks': seat {p}'s rack is empty, so the game is over (K10)")
        if pending and (not laid or JOKER not in racks[current]):
            raise InvalidStateError(
                "field 'joker_pending': a taken joker needs 'laid_this_turn' and a joker in "
                "the rack of the seat to act (K5c)")
    return {
        "racks": racks, "table": table, "pool": pool, "stars": stars,
        "laid_this_turn": laid, "joker_pending": pending, "passes": passes,
        "went_out": -1 if went_out is None else went_out,
        "current_player": -1 if current is None else current, "rng": rng,
    }


# ---------------------------------------------------------------------------------
# What RummikubJuniorState's methods hand over to Python: the notation, the view, the
# fields of to_dict, from the plain values the engine took as one step.
# ---------------------------------------------------------------------------------

def _action_to_str(runs: list[Run], action: object, a: int) -> str:
    """``action_to_str`` of ``action``, checked as ``a`` in ``range(num_actions)``."""
    if a == A_PASS:
        return "pass"
    if a == A_END:
        return "end"
    if a < A_SWAP:
        x = a - A_EXTEND
        side = "right" if (x >> 1) & 1 else "left"
        tile = _end_tile(runs, x >> 2, (x >> 1) & 1)
        if tile is None:
            raise IllegalActionError(
                f"action {quote(action)} (extend run {x >> 2} {side} "
                f"with {'a joker' if x & 1 else 'a tile'}) cannot be written here: the table "
                f"has {len(runs)} runs and an extension needs its run to have room at that end"
            )
        return f"extend {x >> 2} {side} {f'J({tile})' if x & 1 else tile}"
    if a < A_NEW:
        return f"swap {(a - A_SWAP) // 10} {(a - A_SWAP) % 10}"
    return "new " + _run_text(*_engine._new_run(a - A_NEW))


def _parse_action(runs: list[Run], text: object) -> int:
    """``parse_action``: only an ``extend`` reads the table (``runs``)."""
    if not isinstance(text, str):
        raise NotationError(f"notation must be a str, not {quote(text)}")
    words = text.split()
    if words == ["pass"]:
        return A_PASS
    if words == ["end"]:
        return A_END
    if len(words) == 3 and words[0] == "swap" and _is_index(words[1], MAX_RUNS) \
            and _is_index(words[2], 10):
        return A_SWAP + 10 * int(words[1]) + int(words[2])
    if len(words) >= 2 and words[0] == "new":
        return A_NEW + _parse_run(text, words[1:])
    if len(words) == 4 and words[0] == "extend" and _is_index(words[1], MAX_RUNS) \
            and words[2] in ("left", "right"):
        r = int(words[1])
        right = words[2] == "right"
        if r >= len(runs):
            raise NotationError(
                f"bad notation {quote(text)}: there is no run {r} on the table "
                f"(runs 0..{len(runs) - 1})"
            )
        tile = _end_tile(runs, r, right)
        if tile is None:
            raise NotationError(
                f"bad notation {quote(text)}: run {r} has no room at its {words[2]} end")
        if words[3] == tile:
            return A_EXTEND + 4 * r + 2 * right
        if words[3] == f"J({tile})":
            return A_EXTEND + 4 * r + 2 * right + 1
        raise NotationError(
            f"bad notation {quote(text)}: the {words[2]} end of run {r} takes {quote(tile)} "
            f"or 'J({tile})', not {quote(words[3])}"
        )
    raise NotationError(
        f"bad notation {quote(text)}: write 'new R3 J(R4) R5', 'extend 2 left R2', "
        f"'extend 2 right J(R9)', 'swap 2 1', 'end' or 'pass'"
    )


def _is_index(word: str, limit: int) -> bool:
    # A plain decimal below limit, without sign or leading zeros; the length is checked
    # first: int() refuses more than 4,300 digits with a ValueError.
    return (word.isascii() and word.isdigit() and len(word) <= len(str(limit))
            and word == str(int(word)) and int(word) < limit)


_TOKEN = re.compile(r"(J\()?([RBYK])(10|[1-9])(\))?")


def _parse_run(text: str, words: list[str]) -> int:
    """Return the index among the new runs (0..9659) of the run ``words`` (K3, K6).

    Raises:
        NotationError: the words are not a run, saying what is wrong (quoting ``text``).
    """
    if not 3 <= len(words) <= 10:
        raise NotationError(f"bad notation {quote(text)}: a run holds 3..10 tiles (K3)")
    colours = set()
    numbers = []
    jokers = 0
    for i, word in enumerate(words):
        m = _TOKEN.fullmatch(word)
        if m is None or (m.group(1) is None) != (m.group(4) is None):
            raise NotationError(
                f"bad notation: {quote(word)} is not a tile like 'R7' or a joker "
                f"like 'J(R7)'")
        colours.add(m.group(2))
        numbers.append(int(m.group(3)))
        if m.group(1):
            jokers |= 1 << i
    if len(colours) != 1:
        raise NotationError(f"bad notation {quote(text)}: a run is of one colour (K3)")
    if numbers != list(range(numbers[0], numbers[0] + len(numbers))):
        raise NotationError(
            f"bad notation {quote(text)}: a run's numbers go up by one, left to right (K3)")
    if bin(jokers).count("1") > 4 or jokers == (1 << len(words)) - 1:
        raise NotationError(
            f"bad notation {quote(text)}: a run holds at most 4 jokers and at least one "
            f"numbered tile (K6)")
    return _engine._new_index(COLOURS.index(colours.pop()), numbers[0], len(words), jokers)


def _end_tile(runs: list[Run], r: int, right: int) -> str | None:
    # The tile that extends run r at its right (or left) end, or None: no such run or
    # no room there (K5b).
    if r >= len(runs):
        return None
    colour, lo, length, _ = runs[r]
    num = lo + length if right else lo - 1
    return f"{COLOURS[colour]}{num}" if 1 <= num <= 10 else None


def _run_text(colour: int, lo: int, length: int, jokers: int) -> str:
    # ``R3 J(R4) R5``: each position's tile, a joker showing its value in brackets.
    first = 10 * colour + lo - 1
    return " ".join([f"J({tile})" if (jokers >> i) & 1 else tile
                     for i, tile in enumerate(TILES[first:first + length])])


def _run_texts(runs: list[Run]) -> list[str]:
    return [_run_text(*run) for run in runs]


def _view(plain: Plain, p: int) -> RummikubJuniorView:
    """``view(p)``: the table, the stars, rack p and the sizes of the rest."""
    current, racks, stars, runs, pool, laid, pending, passes, went_out, _ = plain
    return RummikubJuniorView(
        player=p,
        current_player=current,
        is_over=current is None,
        scores=tuple(stars),
        hand=tuple([TILES[t] for t in racks[p]]),
        hand_sizes=tuple([len(rack) for rack in racks]),
        draw_pile_size=len(pool),
        table=tuple(_run_texts(runs)),
        bank=STARS_TOTAL - sum(stars),
        laid_this_turn=laid,
        joker_pending=pending,
        passes=passes,
        went_out=went_out,
    )


def _fields(plain: Plain) -> dict[str, Any]:
    """The game's fields of ``to_dict`` (docs/games/rummikub_junior.md)."""
    current, racks, stars, runs, pool, laid, pending, passes, went_out, rng = plain
    return {
        "current_player": current,
        "racks": [[TILES[t] for t in rack] for rack in racks],
        "stars": stars,
        "bank": STARS_TOTAL - sum(stars),
        "table": _run_texts(runs),
        "pool": [TILES[t] for t in pool],
        "laid_this_turn": laid,
        "joker_pending": pending,
        "passes": passes,
        "went_out": went_out,
        "rng": rng,
    }
