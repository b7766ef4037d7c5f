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
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar

from boardcore._engine.just4fun import Just4FunState
from boardcore.errors import ConfigurationError
from boardcore.protocol import Game

__all__ = ["CLASSIC_LAYOUT", "Just4Fun", "Just4FunState", "Just4FunView"]

#: J2: the board, row by row from the top (row 0), as printed in the rules page.
CLASSIC_LAYOUT: tuple[int, ...] = (
    1, 14, 30, 24, 19, 8,
    33, 11, 9, 16, 35, 21,
    6, 27, 31, 20, 3, 12,
    15, 32, 5, 29, 17, 26,
    22, 10, 18, 36, 25, 2,
    28, 7, 23, 4, 13, 34,
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Just4FunView:
    """What one seat may see: the board, supplies, discards, its own hand, hand sizes.

    Per-field tuples are row-major over the 6x6 board (index ``row * 6 + col``).
    """

    player: int
    current_player: int | None
    layout: tuple[int, ...]
    stones: tuple[tuple[int, ...], ...]
    owners: tuple[int | None, ...]
    supplies: tuple[int, ...]
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    draw_pile_size: int
    discard_pile: tuple[int, ...]
    scores: tuple[int, ...]
    idle_turns: int
    is_over: bool


class Just4Fun(Game):
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

    name: ClassVar[str] = "just4fun"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    rules_version: ClassVar[int] = 1
    option_defaults = MappingProxyType(
        {"layout": "classic", "returned_on_lock": False, "start_player": 0}
    )
    end_reasons: ClassVar[tuple[str, ...]] = ("four_in_a_row", "exhaustion", "exchange_limit")
    stat_names: ClassVar[tuple[str, ...]] = ("end",)
    _state_class = Just4FunState

    __slots__ = ("_layout",)

    def _normalize_options(self, options: dict[str, object]) -> dict[str, object]:
        layout = options["layout"]
        if layout == "classic":
            self._layout: tuple[int, ...] | None = CLASSIC_LAYOUT
        elif layout == "random":
            self._layout = None
        else:
            layout = self._layout = _check_layout(layout)
        if not isinstance(options["returned_on_lock"], bool):
            raise ConfigurationError(
                f"option 'returned_on_lock' must be True or False, not "
                f"{options['returned_on_lock']!r}"
            )
        start = options["start_player"]
        if isinstance(start, bool) or not isinstance(start, int) or not (
            0 <= start < self.num_players
        ):
            raise ConfigurationError(
                f"option 'start_player' must be a seat in 0..{self.num_players - 1}, "
                f"not {start!r}"
            )
        return {**options, "layout": layout}

    @property
    def num_actions(self) -> int:
        """3,923 card multisets that name a field, then the exchange: 3,924."""
        return 3924


def _check_layout(layout: object) -> tuple[int, ...]:
    """Return a custom layout as a flat row-major tuple, or raise ``ConfigurationError``."""
    if isinstance(layout, str) or not isinstance(layout, Sequence):
        raise ConfigurationError(
            f"option 'layout' must be 'classic', 'random' or a permutation of 1..36, "
            f"not {layout!r}"
        )
    cells: list[object] = []
    if len(layout) == 6 and all(
        isinstance(row, Sequence) and not isinstance(row, str) for row in layout
    ):
        for row in layout:
            if len(row) != 6:
                raise ConfigurationError(f"option 'layout': row {row!r} must hold 6 fields")
            cells.extend(row)
    else:
        cells.extend(layout)
    if len(cells) != 36 or any(isinstance(x, bool) or not isinstance(x, int) for x in cells):
        raise ConfigurationError(
            f"option 'layout' must hold 36 field numbers (flat or 6 rows of 6), not {layout!r}"
        )
    if sorted(cells) != list(range(1, 37)):  # type: ignore[type-var]
        missing = sorted(set(range(1, 37)) - set(cells))
        raise ConfigurationError(
            f"option 'layout' must be a permutation of 1..36; missing {missing}"
        )
    return tuple(int(x) for x in cells)  # type: ignore[call-overload]
