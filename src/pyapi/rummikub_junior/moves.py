"""Rummikub Junior's moves: the notation and what an action does.

``pass``, ``end``, ``swap R I`` (the joker at position ``I`` of run ``R``), ``new`` and
the run's tiles (``new R3 J(R4) R5``), and ``extend R left|right TILE`` (``docs/games/
rummikub_junior.md``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from boardcore._engine.rummikub_junior import (
    A_END,
    A_EXTEND,
    A_NEW,
    A_PASS,
    A_SWAP,
    MAX_RUNS,
    STARS_TOTAL,
    _new_index,
    _new_run,
)
from boardcore.errors import NotationError
from boardcore.rummikub_junior.values import RummikubJuniorMove, RummikubJuniorSnapshot
from boardcore.values import quote

__all__ = ["ANY", "COLOURS", "TILES", "action_to_str", "bank", "explain", "parse_action",
           "parse_run", "reveals", "run_text", "run_texts"]

COLOURS = "RBYK"
#: Tile ``10 * colour + number - 1`` (R1..R10 B1..K10), then 40, the joker.
TILES = tuple(f"{c}{n}" for c in COLOURS for n in range(1, 11)) + ("J",)
#: The tile of an extension that no table decides (its run is not there).
ANY = "*"

#: A table run: colour, first number, length, joker mask (bit i: position i a joker).
Run = tuple[int, int, int, int]


def action_to_str(position: RummikubJuniorSnapshot, action: int) -> str:
    """Return the notation of ``action`` in ``position``.

    An extension names the tile it adds, which the table decides; one whose run is not
    on the table, or has no room at that end, can never be legal there and is written
    with ``*`` for that tile (``extend 5 left *``, ``extend 5 left J(*)``).

    >>> import boardcore
    >>> start = boardcore.make("rummikub_junior", players=2).new_state(seed=1).snapshot()
    >>> action_to_str(start, A_EXTEND + 4 * 5 + 1), action_to_str(start, A_SWAP + 12)
    ('extend 5 left J(*)', 'swap 1 2')
    """
    runs, a = position.runs, action
    if a == A_PASS:
        return "pass"
    if a == A_END:
        return "end"
    if a < A_SWAP:
        x = a - A_EXTEND
        side = "right" if (x >> 1) & 1 else "left"
        tile = _end_tile(runs, x >> 2, (x >> 1) & 1) or ANY
        return f"extend {x >> 2} {side} {f'J({tile})' if x & 1 else tile}"
    if a < A_NEW:
        return f"swap {(a - A_SWAP) // 10} {(a - A_SWAP) % 10}"
    return "new " + run_text(*_new_run(a - A_NEW))


def parse_action(position: RummikubJuniorSnapshot, text: object) -> int:
    """Return the action written ``text``; only an ``extend`` of a tile reads the table.

    Raises:
        NotationError: ``text`` names no action (here, for an ``extend`` of a tile).
    """
    runs = position.runs
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
        return A_NEW + parse_run(text, words[1:])
    if len(words) == 4 and words[0] == "extend" and _is_index(words[1], MAX_RUNS) \
            and words[2] in ("left", "right"):
        r = int(words[1])
        right = words[2] == "right"
        if words[3] in (ANY, f"J({ANY})"):     # any table: the tile is the run's to say
            return A_EXTEND + 4 * r + 2 * right + (words[3] != ANY)
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


def parse_run(text: str, words: list[str]) -> int:
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
    return _new_index(COLOURS.index(colours.pop()), numbers[0], len(words), jokers)


def _end_tile(runs: Sequence[Run], r: int, right: int) -> str | None:
    # The tile that extends run r at its right (or left) end, or None: no such run or
    # no room there (K5b).
    if r >= len(runs):
        return None
    colour, lo, length, _ = runs[r]
    num = lo + length if right else lo - 1
    return f"{COLOURS[colour]}{num}" if 1 <= num <= 10 else None


def run_text(colour: int, lo: int, length: int, jokers: int) -> str:
    """Return a run in notation, a joker showing the number it stands for: ``R3 J(R4) R5``."""
    first = 10 * colour + lo - 1
    return " ".join([f"J({tile})" if (jokers >> i) & 1 else tile
                     for i, tile in enumerate(TILES[first:first + length])])


def run_texts(runs: Sequence[Run]) -> list[str]:
    """Return the table ``runs`` in notation, in the order they were laid."""
    return [run_text(*run) for run in runs]


def explain(before: RummikubJuniorSnapshot, after: RummikubJuniorSnapshot, action: int, *,
            played: bool) -> RummikubJuniorMove:
    """Return what ``action``, played in ``before``, did to reach ``after``.

    Only what every seat sees is read (the table, the stars, the pool's size), so a tile
    drawn face down is never told: ``played`` or not alike.
    """
    player = before.current_player
    assert player is not None
    move = action_to_str(before, action)
    old, new = run_texts(before.runs), run_texts(after.runs)
    words = move.split()
    kind = words[0]
    run: int | None = None
    tiles: tuple[str, ...] = ()
    if kind == "new":
        run, tiles = len(new) - 1, tuple(words[1:])
    elif kind == "extend":
        run, tiles = int(words[1]), (words[3],)
    elif kind == "swap":
        run = int(words[1])
        tiles = (old[run].split()[int(words[2])][2:-1],)    # J(R4) -> R4
    return RummikubJuniorMove(
        player=player,
        move=move,
        kind=kind,
        tiles=tiles,
        run=run,
        run_after=None if run is None else new[run],
        lays_taken_joker=before.joker_pending and kind in ("new", "extend"),
        drew=len(after.pool) < len(before.pool),
        went_out=after.went_out == player,
        game_over=after.outcome is not None,
        gains=tuple(b - a for a, b in zip(before.scores, after.scores, strict=True)),
    )


def bank(position: RummikubJuniorSnapshot) -> int:
    """Return the bank's stars: 56 minus the players' (negative past its 56, K9)."""
    return STARS_TOTAL - sum(position.scores)


def reveals(before: RummikubJuniorSnapshot, after: RummikubJuniorSnapshot) -> bool:
    """Return whether the action showed a hidden tile: a pass that drew from the pool (K6).

    >>> import boardcore
    >>> state = boardcore.make("rummikub_junior", players=2).new_state(seed=3)
    >>> state.apply(state.parse_action("pass"))       # draws the joker
    >>> state.view(0).hand[-1], state.can_undo()
    ('J', False)
    """
    return before.pool != after.pool
