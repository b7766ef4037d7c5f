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
from boardcore._engine.rummikub_junior import TILE_INDEX, RummikubJuniorState
from boardcore.errors import ConfigurationError, InvalidStateError, NotationError
from boardcore.protocol import Game
from boardcore.values import RummikubJuniorView, check_int, quote

__all__ = ["RummikubJunior", "RummikubJuniorState", "RummikubJuniorView"]

JOKER = TILE_INDEX["J"]
STARS_TOTAL = 56        # K2
STARS_MAX = 1_000_000   # a set-up position's stars, at most
MAX_RUNS = 14           # every run holds at least 3 of the 44 tiles


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
                f"not {start!r}"
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
        return _engine._parse_run(text, text.split())
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
