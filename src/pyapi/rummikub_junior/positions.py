"""A Rummikub Junior position in Python: a seat's view, the ``to_dict`` fields, set-ups.

A set-up position is read back from those fields, checked against the rules (K2-K11).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardcore._checks import (
    bool_field,
    field,
    int_field,
    int_list,
    list_field,
    rng_field,
    seat_field,
)
from boardcore._engine.rummikub_junior import JOKER, MAX_RUNS, STARS_MAX, STARS_TOTAL
from boardcore.errors import InvalidStateError, NotationError
from boardcore.rummikub_junior.moves import TILES, bank, parse_run, run_texts
from boardcore.rummikub_junior.values import (
    RummikubJuniorPosition,
    RummikubJuniorSnapshot,
    RummikubJuniorView,
)
from boardcore.values import quote

if TYPE_CHECKING:
    from boardcore._engine.rummikub_junior import RummikubJuniorState
    from boardcore.rummikub_junior import RummikubJunior

__all__ = ["fields", "read_position", "set_up", "view"]


def view(snapshot: RummikubJuniorSnapshot, player: int) -> RummikubJuniorView:
    """Return what seat ``player`` may see: the table, the stars, its own rack, sizes.

    Never another rack or the pool's order.
    """
    p = snapshot
    return RummikubJuniorView.of(
        p, player,
        hand=tuple([TILES[t] for t in p.racks[player]]),
        hand_sizes=tuple([len(rack) for rack in p.racks]),
        draw_pile_size=len(p.pool),
        table=tuple(run_texts(p.runs)),
        bank=bank(p),
        laid_this_turn=p.laid_this_turn,
        joker_pending=p.joker_pending,
        passes=p.passes,
        went_out=p.went_out,
    )


def fields(snapshot: RummikubJuniorSnapshot) -> dict[str, Any]:
    """Return the game's fields of ``to_dict`` (``RummikubJuniorPosition``)."""
    p = snapshot
    position: RummikubJuniorPosition = {
        "current_player": p.current_player,
        "racks": [[TILES[t] for t in rack] for rack in p.racks],
        "stars": list(p.scores),
        "bank": bank(p),
        "table": run_texts(p.runs),
        "pool": [TILES[t] for t in p.pool],
        "laid_this_turn": p.laid_this_turn,
        "joker_pending": p.joker_pending,
        "passes": p.passes,
        "went_out": p.went_out,
        "rng": list(p.rng),
    }
    return dict(position)


def set_up(game: RummikubJunior, fields: dict[str, Any], seed: int) -> RummikubJuniorState:
    """Return the set-up position a document's ``setup`` fields describe, checked."""
    state: RummikubJuniorState = game._engine.set_up(game, seed, read_position(game, fields))
    return state

TILE_INDEX = {name: t for t, name in enumerate(TILES)}


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
        return parse_run(text, text.split())
    except NotationError as exc:
        raise InvalidStateError(f"field 'table': {exc}") from None


def read_position(game: RummikubJunior, data: dict[str, Any]) -> dict[str, Any]:
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
    if laid and not table:
        raise InvalidStateError(
            "field 'laid_this_turn' is true, but the table is empty: what is laid stays on "
            "the table (K5)")
    pending = bool_field(data, "joker_pending")
    passes = int_field(data, "passes", 0, n)
    if passes and pool:
        raise InvalidStateError(
            "field 'passes' counts passes with the pool empty, but the pool is not (K11)")
    rng = rng_field(data)
    current = seat_field(data, "current_player", n)
    went_out = field(data, "went_out")
    # K7: a star for each tile laid (a taken joker earned its own before it was taken:
    # one more while it waits in the rack) and each run; K10: the bonus.
    laid_tiles = len(tiles) - len(pool) - sum(len(rack) for rack in racks)
    most = 6 * n + laid_tiles + len(table) + pending + (went_out is not None)
    if sum(stars) > most:
        raise InvalidStateError(
            f"field 'stars' adds up to {sum(stars)}, but the seats began with {6 * n} and "
            f"the {laid_tiles} tiles and {len(table)} runs on the table earned at most "
            f"{most - 6 * n} more (K2, K7, K10)")
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
