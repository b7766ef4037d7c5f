"""Rummikub Junior in plain Python: the rules page (K1-K12) transcribed, slow and obvious.

The oracle of the differential tests.  Tiles are their notation (``"R7"``, ``"J"``), a
rack is a list of tiles, a table run is its colour, its first number and one flag per
position saying whether a joker lies there.  ``to_dict`` gives the same document as
the engine's ``RummikubJuniorState.to_dict``.

Chance draws, all from ``Rng(seed)`` (tests/reference/_rng.py), in this order:
  1. one ``shuffle`` of the 44 tiles listed R1..R10, B1..B10, Y1..Y10, K1..K10, J, J,
     J, J (K4) - the pool, drawn from its front;
  2. seats 0, 1, .., n-1 in turn each take the next 6 tiles of the pool (K4).
Nothing else is random: a pass draws the pool's next tile (K8).

Action encoding (the engine's):
  0 pass (K8); 1 end (K5);
  2 + 4*r + 2*side + joker: extend run r at side 0 (left) / 1 (right) with the tile
      that fits (joker 0) or with a joker (joker 1) (K5b);
  58 + 10*r + i: swap the joker at position i of run r (K5c);
  198 + k: lay ``NEW_RUNS[k]`` (K5a), every (colour, lo, length, joker mask) in that
      order with at most 4 jokers and at least one numbered tile (K6).
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass, field
from typing import Any

from tests.reference._rng import Rng

COLOURS = "RBYK"
TILES = [f"{c}{n}" for c in COLOURS for n in range(1, 11)] + ["J"]
ORDER = {t: i for i, t in enumerate(TILES)}
PASS, END, EXTEND, SWAP, NEW = 0, 1, 2, 58, 198
MAX_RUNS = 14


def _build_new_runs() -> list[tuple[str, int, int, int]]:
    runs = []
    for colour in COLOURS:
        for lo in range(1, 11):
            for length in range(3, 11):
                if lo + length - 1 > 10:  # K3/K6: every position within 1..10
                    continue
                for mask in range(1 << length):
                    jokers = mask.bit_count()
                    # K2: 4 jokers exist; K6: at least one numbered tile.
                    if jokers <= 4 and jokers < length:
                        runs.append((colour, lo, length, mask))
    return runs


NEW_RUNS = _build_new_runs()
NUM_ACTIONS = NEW + len(NEW_RUNS)


def decode(action: int) -> tuple[Any, ...]:
    """Decode an action.

    Return ``("pass",)``, ``("end",)``, ``("extend", r, side, joker)``,
    ``("swap", r, i)`` or ``("new", colour, lo, length, mask)``.
    """
    if action == PASS:
        return ("pass",)
    if action == END:
        return ("end",)
    if action < SWAP:
        x = action - EXTEND
        return ("extend", x // 4, (x // 2) % 2, x % 2)
    if action < NEW:
        return ("swap", (action - SWAP) // 10, (action - SWAP) % 10)
    return ("new", *NEW_RUNS[action - NEW])


def _requirements() -> dict[str, list[tuple[int, frozenset[int], int]]]:
    # For each colour: every new run of the encoding as (action, numbers it needs from
    # the rack, jokers it needs).
    out: dict[str, list[tuple[int, frozenset[int], int]]] = {c: [] for c in COLOURS}
    for k, (colour, lo, length, mask) in enumerate(NEW_RUNS):
        numbers = frozenset(lo + i for i in range(length) if not (mask >> i) & 1)
        out[colour].append((NEW + k, numbers, mask.bit_count()))
    return out


REQUIREMENTS = _requirements()


@functools.cache
def new_runs_of_colour(colour: str, held: frozenset[int], jokers: int,
                       pending: bool) -> tuple[int, ...]:
    """Every new run of ``colour`` a rack can lay.

    The rack holds numbers ``held`` of that colour and
    ``jokers`` jokers can lay, by trying every run of the encoding (brute force).
    """
    return tuple(
        action
        for action, numbers, joker_count in REQUIREMENTS[colour]
        # K5c: with a taken joker pending, the next action lays a joker.
        if joker_count <= jokers and numbers <= held and (joker_count or not pending)
    )


@dataclass
class Run:
    """A table run: colour, first number, and whether each position is a joker."""

    colour: str
    lo: int
    jokers: list[bool] = field(default_factory=list)

    @property
    def hi(self) -> int:
        return self.lo + len(self.jokers) - 1

    def text(self) -> str:
        return " ".join(
            f"J({self.colour}{self.lo + i})" if j else f"{self.colour}{self.lo + i}"
            for i, j in enumerate(self.jokers)
        )

    @staticmethod
    def parse(text: str) -> Run:
        jokers = []
        colour = text.split()[0].removeprefix("J(")[0]
        lo = int(text.split()[0].removeprefix("J(").rstrip(")")[1:])
        for word in text.split():
            jokers.append(word.startswith("J("))
        return Run(colour, lo, jokers)


class RummikubJuniorRef:
    """A Rummikub Junior position, plain Python."""

    def __init__(self, players: int, seed: int, start_player: int = 0) -> None:
        self.players = players
        self.seed = seed
        self.start_player = start_player
        rng = Rng(seed)
        tiles = TILES[:40] + ["J"] * 4
        rng.shuffle(tiles)  # K4
        self.pool: list[str] = tiles
        self.racks: list[list[str]] = [[] for _ in range(players)]
        for p in range(players):
            for _ in range(6):
                self.racks[p].append(self.pool.pop(0))
        self.rng = list(rng.s)
        self.stars = [6] * players  # K2
        self.table: list[Run] = []
        self.current: int | None = start_player  # K1
        self.laid = False
        self.pending = False
        self.passes = 0
        self.went_out: int | None = None
        self.history: list[int] = []

    def copy(self) -> RummikubJuniorRef:
        other = copy.copy(self)
        other.pool = list(self.pool)
        other.racks = [list(rack) for rack in self.racks]
        other.stars = list(self.stars)
        other.table = [Run(run.colour, run.lo, list(run.jokers)) for run in self.table]
        other.history = list(self.history)
        return other

    # -- the rules ------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return self.current

    def is_over(self) -> bool:
        return self.current is None

    def _rack(self) -> list[str]:
        assert self.current is not None
        return self.racks[self.current]

    def legal_actions(self) -> list[int]:
        """The legal actions, generated rule by rule, new runs by brute force."""
        if self.current is None:
            return []
        rack = self._rack()
        jokers = rack.count("J")
        actions = []
        if not self.pending:
            actions.append(END if self.laid else PASS)  # K5, K8
        for r, run in enumerate(self.table):  # K5b
            for side, number in ((0, run.lo - 1), (1, run.hi + 1)):
                if not 1 <= number <= 10:
                    continue
                if not self.pending and f"{run.colour}{number}" in rack:
                    actions.append(EXTEND + 4 * r + 2 * side)
                if jokers:
                    actions.append(EXTEND + 4 * r + 2 * side + 1)
        if not self.pending:  # K5c
            for r, run in enumerate(self.table):
                for i, is_joker in enumerate(run.jokers):
                    if is_joker and f"{run.colour}{run.lo + i}" in rack \
                            and self._joker_has_place_after_swap(r, i):
                        actions.append(SWAP + 10 * r + i)
        for colour in COLOURS:  # K5a
            held = frozenset(int(t[1:]) for t in rack if t[0] == colour)
            actions.extend(new_runs_of_colour(colour, held, jokers, self.pending))
        return sorted(actions)

    def _joker_has_place_after_swap(self, r: int, i: int) -> bool:
        # K5c [decided]: the taken joker must be laid by the very next action.
        trial = self.copy()
        trial._swap(r, i)
        return bool(trial.legal_actions())

    def is_legal(self, action: int) -> bool:
        """Whether ``action`` is legal, checked from its decoding alone."""
        if self.current is None or not 0 <= action < NUM_ACTIONS:
            return False
        rack = self._rack()
        kind, *args = decode(action)
        if kind == "pass":
            return not self.laid and not self.pending
        if kind == "end":
            return self.laid and not self.pending
        if kind == "extend":
            r, side, joker = args
            if r >= len(self.table):
                return False
            run = self.table[r]
            number = run.lo - 1 if side == 0 else run.hi + 1
            if not 1 <= number <= 10:
                return False
            if joker:
                return "J" in rack
            return not self.pending and f"{run.colour}{number}" in rack
        if kind == "swap":
            r, i = args
            if self.pending or r >= len(self.table) or i >= len(self.table[r].jokers):
                return False
            run = self.table[r]
            return run.jokers[i] and f"{run.colour}{run.lo + i}" in rack \
                and self._joker_has_place_after_swap(r, i)
        colour, lo, length, mask = args
        joker_count = mask.bit_count()
        if joker_count > rack.count("J") or (self.pending and joker_count == 0):
            return False
        return all(f"{colour}{lo + i}" in rack for i in range(length) if not (mask >> i) & 1)

    def _swap(self, r: int, i: int) -> None:
        run = self.table[r]
        rack = self._rack()
        rack.remove(f"{run.colour}{run.lo + i}")
        rack.append("J")
        run.jokers[i] = False
        self.stars[self.current] += 1  # type: ignore[index]  # K7: the tile put in
        self.laid = True
        self.pending = True

    def apply(self, action: int) -> None:
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action}")
        self.history.append(action)
        p = self.current
        assert p is not None
        rack = self.racks[p]
        kind, *args = decode(action)
        if kind == "pass":  # K8
            if self.pool:
                if self.stars[p] > 0:
                    self.stars[p] -= 1
                rack.append(self.pool.pop(0))
            else:
                self.passes += 1  # K11
                if self.passes == self.players:
                    self._finish(None)
                    return
            self._next_turn()
            return
        if kind == "end":
            self.passes = 0
            self._next_turn()
            return
        if kind == "swap":
            self._swap(*args)
            return
        if kind == "extend":  # K5b
            r, side, joker = args
            run = self.table[r]
            number = run.lo - 1 if side == 0 else run.hi + 1
            rack.remove("J" if joker else f"{run.colour}{number}")
            if side == 0:
                run.lo -= 1
                run.jokers.insert(0, bool(joker))
            else:
                run.jokers.append(bool(joker))
            earned = 1  # K7
        else:  # K5a
            colour, lo, length, mask = args
            jokers = [(mask >> i) & 1 == 1 for i in range(length)]
            for i in range(length):
                rack.remove("J" if jokers[i] else f"{colour}{lo + i}")
            self.table.append(Run(colour, lo, jokers))
            earned = length + 1  # K7: a star per tile, one per new run
        if self.pending:
            earned -= 1  # K7 [decided]: the retaken joker earns nothing more
            self.pending = False
        self.stars[p] += earned
        self.laid = True
        if not rack:
            self._finish(p)  # K10

    def _next_turn(self) -> None:
        assert self.current is not None
        self.current = (self.current + 1) % self.players
        self.laid = False
        self.pending = False

    def _finish(self, went_out: int | None) -> None:
        # K10/K11: the others pay a star per tile left, as far as their stars go.
        for q in range(self.players):
            if q != went_out:
                self.stars[q] -= min(self.stars[q], len(self.racks[q]))
        if went_out is not None:
            self.stars[went_out] += 1
        self.went_out = went_out
        self.current = None
        self.laid = False
        self.pending = False

    def scores(self) -> tuple[int, ...]:
        return tuple(self.stars)

    def outcome(self) -> tuple[tuple[int, ...], frozenset[int]] | None:
        """``(scores, winners)`` once over (K12), else None."""
        if self.current is not None:
            return None
        top = max(self.stars)
        tied = {p for p in range(self.players) if self.stars[p] == top}
        if self.went_out in tied:
            tied = {self.went_out}
        return self.scores(), frozenset(tied)

    # -- documents --------------------------------------------------------------------

    def stats(self) -> dict[str, int | str]:
        assert self.current is None
        return {"end": "blocked" if self.went_out is None else "went_out",
                "turns": sum(a in (PASS, END) for a in self.history)}

    def to_dict(self) -> dict[str, Any]:
        """The engine's ``to_dict()`` after its header."""
        return {
            "current_player": self.current,
            "racks": [sorted(rack, key=ORDER.__getitem__) for rack in self.racks],
            "stars": list(self.stars),
            "bank": 56 - sum(self.stars),
            "table": [run.text() for run in self.table],
            "pool": list(self.pool),
            "laid_this_turn": self.laid,
            "joker_pending": self.pending,
            "passes": self.passes,
            "went_out": self.went_out,
            "rng": list(self.rng),
            "history": list(self.history),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RummikubJuniorRef:
        st = cls.__new__(cls)
        st.players = d["players"]
        st.seed = d["seed"]
        st.start_player = d["options"]["start_player"]
        st.pool = list(d["pool"])
        st.racks = [list(r) for r in d["racks"]]
        st.rng = list(d["rng"])
        st.stars = list(d["stars"])
        st.table = [Run.parse(t) for t in d["table"]]
        st.current = d["current_player"]
        st.laid = d["laid_this_turn"]
        st.pending = d["joker_pending"]
        st.passes = d["passes"]
        st.went_out = d["went_out"]
        st.history = list(d["history"])
        return st


Reference = RummikubJuniorRef
