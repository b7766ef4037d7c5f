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

from collections import Counter
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from boardcore._checks import field, int_field, int_list, list_field, rng_field, seat_field
from boardcore._engine import just4fun as _engine
from boardcore._engine._state import EngineConfig
from boardcore._engine.just4fun import DECK, Just4FunState
from boardcore.errors import ConfigurationError, InvalidStateError
from boardcore.moves.just4fun import _holds_four
from boardcore.protocol import Game
from boardcore.values import Just4FunView, check_int, quote

__all__ = ["CLASSIC_LAYOUT", "DECK", "Just4Fun", "Just4FunState", "Just4FunView"]

#: J2: the board, row by row from the top (row 0), as printed in the rules page.
CLASSIC_LAYOUT: tuple[int, ...] = (
    1, 14, 30, 24, 19, 8,
    33, 11, 9, 16, 35, 21,
    6, 27, 31, 20, 3, 12,
    15, 32, 5, 29, 17, 26,
    22, 10, 18, 36, 25, 2,
    28, 7, 23, 4, 13, 34,
)  # fmt: skip
SUPPLY = 20          # J4: stones per seat
# Each play's action, keyed by its values ascending (the engine's PLAYS, inverted).


class Just4Fun(Game[Just4FunState]):
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
    state_class = Just4FunState

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
        start = options["start_player"]
        if isinstance(start, bool) or not isinstance(start, int) or not (
            0 <= start < self.num_players
        ):
            raise ConfigurationError(
                f"option 'start_player' must be a seat in 0..{self.num_players - 1}, "
                f"not {quote(start)}"
            )
        return {**options, "layout": layout}

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

    def _set_up(self, fields: dict[str, Any], seed: int) -> Just4FunState:
        position = _read_position(self, fields)
        state = Just4FunState._set_up(self._engine, self, seed, position)
        # The engine ends the game at the first four in a row; a position with two
        # (J13 ends the game at the first) or with a seat to act once over is no position.
        if sum(_holds_four(state, p) for p in range(self.num_players)) > 1:
            raise InvalidStateError(
                "field 'stones': two seats hold four in a row, but the first ends the game")
        if state.is_over() and position["current_player"] >= 0:
            raise InvalidStateError(
                f"field 'current_player' is {quote(position['current_player'])}, but the game is "
                f"over (expected null)")
        return state


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


def _read_position(game: Just4Fun, data: dict[str, Any]) -> dict[str, Any]:
    """Check a set-up position's fields; return them as the engine's trusted values."""
    n = game.num_players
    layout = int_list(field(data, "layout"), "layout", 1, 36, 36)
    if sorted(layout) != list(range(1, 37)):
        raise InvalidStateError("field 'layout' is not a permutation of 1..36")
    if game._layout is not None and tuple(layout) != game._layout:
        raise InvalidStateError("field 'layout' differs from the game's layout option")
    stones = [int_list(row, "stones", 0, SUPPLY, 36) for row in list_field(data, "stones", n)]
    supplies = int_list(field(data, "supplies"), "supplies", 0, SUPPLY, n)
    for p in range(n):
        if supplies[p] + sum(stones[p]) > SUPPLY:
            raise InvalidStateError(
                f"field 'supplies': seat {p} has more than {SUPPLY} stones in all (J4)")
    owners: list[int] = []
    for i, o in enumerate(list_field(data, "owners", 36)):
        if o is not None and (type(o) is not int or not 0 <= o < n):
            raise InvalidStateError(f"field 'owners' holds {quote(o)}; allowed seats or null")
        column = [stones[q][i] for q in range(n)]
        if o is not None:
            if any(column[q] for q in range(n) if q != o) or column[o] < 2:
                raise InvalidStateError(
                    f"field 'owners': locked field {layout[i]} must hold only its owner's "
                    f"stones (at least 2) (J8)")
        elif any(all(column[q] >= column[r] + 2 for r in range(n) if r != q) for q in range(n)):
            raise InvalidStateError(
                f"field 'stones': a seat leads field {layout[i]} by 2 but it is not locked (J8)")
        owners.append(-1 if o is None else o)
    hands = [int_list(h, "hands", 1, 19) for h in list_field(data, "hands", n)]
    for p, hand in enumerate(hands):
        if len(hand) > 4 or hand != sorted(hand):
            raise InvalidStateError(
                f"field 'hands': seat {p}'s hand {quote(hand)} must be at most 4 values, ascending")
    draw = int_list(field(data, "draw_pile"), "draw_pile", 1, 19)
    discard = int_list(field(data, "discard_pile"), "discard_pile", 1, 19)
    if Counter([v for h in hands for v in h] + draw + discard) != Counter(DECK):
        raise InvalidStateError(
            "fields 'hands', 'draw_pile' and 'discard_pile' together must be the 55-card deck")
    if not draw:
        raise InvalidStateError("field 'draw_pile' is empty; it is refilled the moment it empties")
    current = seat_field(data, "current_player", n)
    return {
        "layout": layout, "stones": stones, "owners": owners, "supplies": supplies,
        "hands": hands, "draw_pile": draw, "discard_pile": discard,
        "idle_turns": int_field(data, "idle_turns", 0, 20), "rng": rng_field(data),
        "current_player": -1 if current is None else current,
    }
