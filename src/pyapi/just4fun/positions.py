"""A Just4Fun position in Python: a seat's view, the ``to_dict`` fields, set-up positions.

A set-up position is read back from those fields, checked against the rules (J2-J14).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from boardcore._checks import field, int_field, int_list, list_field, rng_field, seat_field
from boardcore._engine.just4fun import DECK, IDLE_LIMIT, N_FIELDS, SUPPLY
from boardcore.errors import InvalidStateError
from boardcore.just4fun.moves import holds_four
from boardcore.just4fun.values import Just4FunPosition, Just4FunSnapshot, Just4FunView
from boardcore.values import quote

if TYPE_CHECKING:
    from boardcore._engine.just4fun import Just4FunState
    from boardcore.just4fun import Just4Fun

__all__ = ["fields", "read_position", "set_up", "view"]


def view(snapshot: Just4FunSnapshot, player: int) -> Just4FunView:
    """Return what seat ``player`` may see: everything but other hands and the draw order."""
    p = snapshot
    return Just4FunView.of(
        p, player,
        hand=p.hands[player],
        hand_sizes=tuple([len(hand) for hand in p.hands]),
        draw_pile_size=len(p.draw_pile),
        discard_pile=p.discard_pile,
        layout=p.layout,
        stones=p.stones,
        owners=p.owners,
        supplies=p.supplies,
        idle_turns=p.idle_turns,
    )


def fields(snapshot: Just4FunSnapshot) -> dict[str, Any]:
    """Return the game's fields of ``to_dict`` (``Just4FunPosition``)."""
    p = snapshot
    position: Just4FunPosition = {
        "layout": list(p.layout),
        "stones": [list(row) for row in p.stones],
        "owners": list(p.owners),
        "supplies": list(p.supplies),
        "hands": [list(hand) for hand in p.hands],
        "draw_pile": list(p.draw_pile),
        "discard_pile": list(p.discard_pile),
        "current_player": p.current_player,
        "idle_turns": p.idle_turns,
        "rng": list(p.rng),
    }
    return dict(position)


def set_up(game: Just4Fun, fields: dict[str, Any], seed: int) -> Just4FunState:
    """Return the set-up position a document's ``setup`` fields describe, checked."""
    values = read_position(game, fields)
    state: Just4FunState = game._engine.set_up(game, seed, values)
    position = state.snapshot()
    # The engine ends the game at the first four in a row; a position with two
    # (J13 ends the game at the first) or with a seat to act once over is no position.
    if sum(holds_four(position, p) for p in range(game.num_players)) > 1:
        raise InvalidStateError(
            "field 'stones': two seats hold four in a row, but the first ends the game")
    if position.outcome is not None and values["current_player"] >= 0:
        raise InvalidStateError(
            f"field 'current_player' is {quote(values['current_player'])}, but the game "
            f"is over (expected null)")
    return state


def _check_lost_stones(game: Just4Fun, stones: list[list[int]], supplies: list[int],
                       owners: list[int]) -> None:
    """J4, J8: a stone leaves the game only when another seat locks a field it is on.

    The lock took at most the owner's count less 2 of each other seat's stones there (the
    owner led each by 2), and with ``returned_on_lock`` it gave them back to the supply.
    """
    for p, row in enumerate(stones):
        missing = SUPPLY - supplies[p] - sum(row)
        if game.options["returned_on_lock"]:
            could = 0
        else:
            could = sum(stones[o][i] - 2 for i, o in enumerate(owners) if o not in (-1, p))
        if missing > could:
            raise InvalidStateError(
                f"field 'supplies': seat {p} has {missing} of its {SUPPLY} stones neither in "
                f"its supply nor on the board, but " + (
                    "with returned_on_lock the stones a lock removes go back to the supply"
                    if game.options["returned_on_lock"] else
                    f"the fields other seats locked could have taken at most {could}")
                + " (J4, J8)")


def read_position(game: Just4Fun, data: dict[str, Any]) -> dict[str, Any]:
    """Check a set-up position's fields; return them as the engine's trusted values."""
    n = game.num_players
    layout = int_list(field(data, "layout"), "layout", 1, N_FIELDS, N_FIELDS)
    if sorted(layout) != list(range(1, N_FIELDS + 1)):
        raise InvalidStateError("field 'layout' is not a permutation of 1..36")
    if game._layout is not None and tuple(layout) != game._layout:
        raise InvalidStateError("field 'layout' differs from the game's layout option")
    stones = [int_list(row, "stones", 0, SUPPLY, N_FIELDS)
              for row in list_field(data, "stones", n)]
    supplies = int_list(field(data, "supplies"), "supplies", 0, SUPPLY, n)
    for p in range(n):
        if supplies[p] + sum(stones[p]) > SUPPLY:
            raise InvalidStateError(
                f"field 'supplies': seat {p} has more than {SUPPLY} stones in all (J4)")
    owners: list[int] = []
    for i, o in enumerate(list_field(data, "owners", N_FIELDS)):
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
    _check_lost_stones(game, stones, supplies, owners)
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
        "idle_turns": int_field(data, "idle_turns", 0, IDLE_LIMIT), "rng": rng_field(data),
        "current_player": -1 if current is None else current,
    }
