"""Rummikub Junior: lay coloured runs of numbers, collect stars, empty your rack first.

The rules are ``boardcore rules rummikub_junior``; the action encoding, the ``to_dict``
schema and the options are in ``docs/games/rummikub_junior.md``.

>>> from boardcore.rummikub_junior import RummikubJunior
>>> game = RummikubJunior(players=2)
>>> state = game.new_state(seed=2)
>>> state.view(0).rack
('R2', 'R3', 'R6', 'Y1', 'K7', 'J')
>>> [state.action_to_str(a) for a in state.legal_actions()]
['pass', 'new J(R1) R2 R3', 'new R2 R3 J(R4)']
>>> state.apply(state.parse_action("new R2 R3 J(R4)"))
>>> state.scores(), state.view(0).table, state.view(0).rack_sizes
((10, 6), ('R2 R3 J(R4)',), (3, 6))
>>> state.apply(state.parse_action("end"))
>>> state.current_player
1
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar

from boardcore._engine.rummikub_junior import RummikubJuniorState
from boardcore.errors import ConfigurationError
from boardcore.protocol import Game

__all__ = ["RummikubJunior", "RummikubJuniorState", "RummikubJuniorView"]


@dataclass(frozen=True, slots=True)
class RummikubJuniorView:
    """What one seat may see: the table, every star count, its own rack, and the sizes
    of the pool and of every rack.

    Attributes:
        player: the seat this view belongs to.
        current_player: the seat to act, ``None`` once over.
        table: the runs in the order they were laid, in notation (``R3 J(R4) R5``).
        stars: every seat's stars.
        bank: the bank's stars (56 minus the players'; negative past its 56, K9).
        rack: this seat's tiles, ``R1`` .. ``K10`` in colour order, then jokers ``J``.
        rack_sizes: every seat's number of tiles.
        pool_size: tiles left to draw.
        laid_this_turn: the seat to act has laid a tile this turn (``end`` is legal).
        joker_pending: it holds a joker taken by a swap that the next action must lay.
        passes: passes in a row made with the pool already empty (K11).
        went_out: the seat that laid its last tile (K10), else ``None``.
        is_over: whether the game has ended.
    """

    player: int
    current_player: int | None
    table: tuple[str, ...]
    stars: tuple[int, ...]
    bank: int
    rack: tuple[str, ...]
    rack_sizes: tuple[int, ...]
    pool_size: int
    laid_this_turn: bool
    joker_pending: bool
    passes: int
    went_out: int | None
    is_over: bool


class RummikubJunior(Game):
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
    _state_class = RummikubJuniorState

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

    @property
    def num_actions(self) -> int:
        """Pass, end, 56 extensions, 140 swaps and 9,660 new runs: 9,858."""
        return 9858
