"""Just4Fun: play cards, place stones on the field their sum names, hold four in a row.

The rules are ``boardcore rules just4fun``; the action encoding, the ``to_dict`` schema
and the options are in ``docs/games/just4fun.md``.

>>> from boardcore.just4fun import Just4Fun
>>> game = Just4Fun(players=3)
>>> state = game.new_state(seed=11)
>>> state.view(0).hand
(2, 4, 6, 19)
>>> [state.action_to_str(a) for a in state.legal_actions()][:4]
['2', '4', '6', '2+4']
>>> state.apply(state.parse_action("2+4"))
>>> view = state.view(1)
>>> view.stones[0][view.layout.index(6)], view.supplies, view.discard_pile
(1, (19, 20, 20), (2, 4))
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from boardcore._engine import just4fun as _engine
from boardcore._engine._state import EngineConfig
from boardcore._engine.just4fun import DECK, SUPPLY, Just4FunState
from boardcore.errors import ConfigurationError
from boardcore.just4fun import moves, picture, positions
from boardcore.just4fun.values import (
    Just4FunDocument,
    Just4FunMove,
    Just4FunMoveJSON,
    Just4FunPosition,
    Just4FunSnapshot,
    Just4FunView,
    Just4FunViewJSON,
)
from boardcore.protocol import Game
from boardcore.values import check_int, quote

__all__ = ["CLASSIC_LAYOUT", "DECK", "SUPPLY", "Just4Fun", "Just4FunDocument", "Just4FunMove",
           "Just4FunMoveJSON", "Just4FunPosition", "Just4FunSnapshot", "Just4FunState",
           "Just4FunView", "Just4FunViewJSON"]

#: J2: the board, row by row from the top (row 0), as printed in the rules page.
CLASSIC_LAYOUT: tuple[int, ...] = (
    1, 14, 30, 24, 19, 8,
    33, 11, 9, 16, 35, 21,
    6, 27, 31, 20, 3, 12,
    15, 32, 5, 29, 17, 26,
    22, 10, 18, 36, 25, 2,
    28, 7, 23, 4, 13, 34,
)  # fmt: skip


class Just4Fun(Game[Just4FunState], positions=positions, moves=moves, picture=picture):
    """The Just4Fun configuration: 2-4 players and the options of the rules page.

    Options:
        layout: ``"classic"`` (J2's board), ``"random"`` (a board drawn from each
            state's seed) or a permutation of 1..36, flat or as 6 rows of 6.
        returned_on_lock: stones removed by a lock go back to their supplies (J8).
        start_player: the seat that moves first (J1).

    >>> Just4Fun(players=2, layout="random").options["layout"]
    'random'
    >>> Just4Fun(players=5)
    Traceback (most recent call last):
    ...
    boardcore.errors.ConfigurationError: just4fun takes 2..4 players, not 5
    """

    name = "just4fun"
    title = "Just4Fun"
    min_players = 2
    max_players = 4
    rules_version = 1
    option_defaults = MappingProxyType(
        {"layout": "classic", "returned_on_lock": False, "start_player": 0}
    )
    end_reasons = ("four_in_a_row", "exhaustion", "exchange_limit")
    stat_names = ("end",)
    words = MappingProxyType({
        "four_in_a_row": "a seat held four fields in a straight line (J13)",
        "exhaustion": "no seat could take a turn, then scored by held fields (J14)",
        "exchange_limit": "20 turns in a row without a stone, the safety valve, then scored (J14)",
    })
    gymnasium_id = "boardcore/Just4Fun-v1"
    state_class = Just4FunState
    snapshot_class = Just4FunSnapshot

    __slots__ = ("_layout",)

    def _normalize_options(self, options: dict[str, object]) -> dict[str, object]:
        layout = options["layout"]
        if isinstance(layout, str) and layout == "classic":
            self._layout: tuple[int, ...] | None = CLASSIC_LAYOUT
        elif isinstance(layout, str) and layout == "random":
            self._layout = None
        else:
            layout = self._layout = _check_layout(layout)
        if not isinstance(options["returned_on_lock"], bool):
            raise ConfigurationError(
                f"option 'returned_on_lock' must be True or False, not "
                f"{quote(options['returned_on_lock'])}"
            )
        start = self._seat_option(options, "start_player")
        return {**options, "layout": layout, "start_player": start}

    def _configure(self) -> EngineConfig:
        start = check_int(self.options["start_player"], "start_player")
        return _engine.config(self.num_players, start, self.options["returned_on_lock"] is True,
                              self._layout)

    @property
    def observation_planes(self) -> tuple[tuple[str, int], ...]:
        """The planes of ``Just4FunState.observation`` (docs/games/just4fun.md)."""
        n = self.num_players
        return (("layout", 36), ("locked", 36), ("closed", 36), ("stones", 36 * n),
                ("hand", 19), ("discard_pile", 19), ("supplies", n), ("scores", n),
                ("to_act", n), ("draw_pile_size", 1))


def _check_layout(layout: object) -> tuple[int, ...]:
    """Return a custom layout as a flat row-major tuple, or raise ``ConfigurationError``."""
    if isinstance(layout, str) or not isinstance(layout, Sequence):
        raise ConfigurationError(
            f"option 'layout' must be 'classic', 'random' or a permutation of 1..36, "
            f"not {quote(layout)}"
        )
    cells: list[object] = []
    if len(layout) == 6 and all(
        isinstance(row, Sequence) and not isinstance(row, str) for row in layout
    ):
        for row in layout:
            if len(row) != 6:
                raise ConfigurationError(f"option 'layout': row {quote(row)} must hold 6 fields")
            cells.extend(row)
    else:
        cells.extend(layout)
    if len(cells) != 36 or any(type(x) is not int for x in cells):
        raise ConfigurationError(
            f"option 'layout' must hold 36 field numbers (flat or 6 rows of 6), not {quote(layout)}"
        )
    numbers = [int(x) for x in cells]  # type: ignore[call-overload]
    if sorted(numbers) != list(range(1, 37)):
        missing = sorted(set(range(1, 37)) - set(numbers))
        raise ConfigurationError(
            f"option 'layout' must be a permutation of 1..36; missing {missing}"
        )
    return tuple(numbers)
