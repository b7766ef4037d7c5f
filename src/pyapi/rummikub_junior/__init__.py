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

from boardcore._engine import rummikub_junior as _engine
from boardcore._engine._state import EngineConfig
from boardcore._engine.rummikub_junior import (
    MAX_RUNS,
    STARS_MAX,
    STARS_TOTAL,
    RummikubJuniorState,
)
from boardcore.protocol import Game
from boardcore.rummikub_junior import moves, picture, positions
from boardcore.rummikub_junior.moves import COLOURS, TILES
from boardcore.rummikub_junior.values import (
    RummikubJuniorDocument,
    RummikubJuniorMove,
    RummikubJuniorMoveJSON,
    RummikubJuniorPosition,
    RummikubJuniorSnapshot,
    RummikubJuniorView,
    RummikubJuniorViewJSON,
)
from boardcore.values import check_int

__all__ = ["COLOURS", "MAX_RUNS", "STARS_MAX", "STARS_TOTAL", "TILES", "RummikubJunior",
           "RummikubJuniorDocument", "RummikubJuniorMove", "RummikubJuniorMoveJSON",
           "RummikubJuniorPosition", "RummikubJuniorSnapshot", "RummikubJuniorState",
           "RummikubJuniorView", "RummikubJuniorViewJSON"]


class RummikubJunior(Game[RummikubJuniorState], positions=positions, moves=moves,
                     picture=picture):
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

    name = "rummikub_junior"
    title = "Rummikub Junior"
    min_players = 2
    max_players = 4
    rules_version = 1
    option_defaults = MappingProxyType({"start_player": 0})
    end_reasons = ("went_out", "blocked")
    stat_names = ("end", "turns")
    words = MappingProxyType({
        "went_out": "a seat laid its last tile (K10)",
        "blocked": "the pool was empty and every seat passed in turn (K11)",
        "turns": "turns taken in the game (each pass or end)",
    })
    gymnasium_id = "boardcore/RummikubJunior-v1"
    state_class = RummikubJuniorState
    snapshot_class = RummikubJuniorSnapshot

    __slots__ = ()

    def _normalize_options(self, options: dict[str, object]) -> dict[str, object]:
        return {"start_player": self._seat_option(options, "start_player")}

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
