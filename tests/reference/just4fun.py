"""Just4Fun in plain Python: a slow, obviously correct transcription of the rules page.

Chance uses the engines' generator (``_rng.Rng``) in the engine's order:
1. layout "random": the list 1..36 is shuffled; it is the board row by row;
2. the deck, ascending (four each of 1..12, one each of 13..19), is shuffled; the draw
   pile's top is its last card;
3. seats 0..n-1 in turn each take 4 cards from the top;
4. whenever the draw pile becomes empty (also in the middle of a draw) the discard pile
   is shuffled to become the new draw pile.
Played cards go to the discard pile in ascending order; hands are kept ascending.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from tests.reference._rng import Rng

CLASSIC = [
    [1, 14, 30, 24, 19, 8],
    [33, 11, 9, 16, 35, 21],
    [6, 27, 31, 20, 3, 12],
    [15, 32, 5, 29, 17, 26],
    [22, 10, 18, 36, 25, 2],
    [28, 7, 23, 4, 13, 34],
]
DECK = [v for v in range(1, 20) for _ in range(4 if v <= 12 else 1)]


def all_plays() -> list[tuple[int, ...]]:
    """Every card multiset that can name a field, in action order (sum, size, values)."""
    from itertools import combinations_with_replacement

    plays = []
    for size in range(1, 5):
        for values in combinations_with_replacement(range(1, 20), size):
            if sum(values) <= 36 and all(
                values.count(v) <= DECK.count(v) for v in set(values)
            ):
                plays.append(values)
    return sorted(plays, key=lambda t: (sum(t), len(t), t))


PLAYS = all_plays()
EXCHANGE = len(PLAYS)
ACTION_OF = {play: i for i, play in enumerate(PLAYS)}


def lines() -> list[list[tuple[int, int]]]:
    """The 54 lines of four adjacent fields (J13)."""
    out = []
    for r in range(6):
        for c in range(6):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(4)]
                if all(0 <= rr < 6 and 0 <= cc < 6 for rr, cc in cells):
                    out.append(cells)
    return out


LINES = lines()


class Just4FunRef:
    """One game of Just4Fun, state in plain lists."""

    def __init__(
        self,
        players: int,
        seed: int,
        layout: str | list[list[int]] = "classic",
        returned_on_lock: bool = False,
        start_player: int = 0,
    ) -> None:
        self.n = players
        self.returned_on_lock = returned_on_lock
        self.rng = Rng(seed)
        if layout == "classic":
            self.layout = [row[:] for row in CLASSIC]
        elif layout == "random":
            perm = list(range(1, 37))
            self.rng.shuffle(perm)
            self.layout = [perm[r * 6 : r * 6 + 6] for r in range(6)]
        else:
            self.layout = [list(row) for row in layout]  # type: ignore[union-attr]
        self.position = {self.layout[r][c]: (r, c) for r in range(6) for c in range(6)}
        self.stones = [[[0] * 6 for _ in range(6)] for _ in range(players)]
        self.owner: list[list[int | None]] = [[None] * 6 for _ in range(6)]
        self.supply = [20] * players
        self.draw = DECK[:]
        self.rng.shuffle(self.draw)
        self.discard: list[int] = []
        self.hands: list[list[int]] = []
        for _ in range(players):
            hand = [self.draw.pop() for _ in range(4)]
            self.hands.append(sorted(hand))
        self.current: int | None = start_player
        self.idle = 0
        self.end: str | None = None
        self.winner: int | None = None
        self.history: list[int] = []

    # -- rules ----------------------------------------------------------------------

    def where(self, field: int) -> tuple[int, int]:
        """The (row, column) of a field number on this board."""
        return self.position[field]

    def may_place(self, p: int, field: int) -> bool:
        r, c = self.where(field)
        if self.owner[r][c] is not None:  # J8: nobody places on a locked field
            return False
        mine = self.stones[p][r][c]
        # J7: closed if some other player has at least 2 more stones than p.
        return all(self.stones[q][r][c] < mine + 2 for q in range(self.n) if q != p)

    def can_take_turn(self, p: int) -> bool:
        # J11
        return self.supply[p] > 0 and any(self.may_place(p, f) for f in range(1, 37))

    def legal_actions(self) -> list[int]:
        if self.end is not None:
            return []
        p = self.current
        assert p is not None
        hand = self.hands[p]
        found = set()
        for size in range(1, len(hand) + 1):
            for combo in combinations(hand, size):
                if sum(combo) <= 36 and self.may_place(p, sum(combo)):
                    found.add(ACTION_OF[tuple(sorted(combo))])
        if not found:
            return [EXCHANGE]  # J10
        return sorted(found)

    def holder(self, r: int, c: int) -> int | None:
        # J12
        if self.owner[r][c] is not None:
            return self.owner[r][c]
        counts = [self.stones[q][r][c] for q in range(self.n)]
        top = max(counts)
        if top > 0 and counts.count(top) == 1:
            return counts.index(top)
        return None

    def scores(self) -> list[int]:
        out = [0] * self.n
        for r in range(6):
            for c in range(6):
                h = self.holder(r, c)
                if h is not None:
                    out[h] += self.layout[r][c]
        return out

    def four_in_a_row(self, p: int) -> bool:
        return any(all(self.holder(r, c) == p for r, c in line) for line in LINES)

    def draw_one(self, p: int) -> None:
        self.hands[p].append(self.draw.pop())
        self.hands[p].sort()
        if not self.draw:  # J9
            self.draw = self.discard
            self.discard = []
            self.rng.shuffle(self.draw)

    @property
    def current_player(self) -> int | None:
        return self.current

    def apply(self, action: int) -> None:
        assert action in self.legal_actions()
        p = self.current
        assert p is not None
        self.history.append(action)
        if action == EXCHANGE:
            self.discard.extend(self.hands[p])
            self.hands[p] = []
            while len(self.hands[p]) < 4:
                self.draw_one(p)
            self.idle += 1
        else:
            play = PLAYS[action]
            for v in play:
                self.hands[p].remove(v)
                self.discard.append(v)
            r, c = self.where(sum(play))
            self.stones[p][r][c] += 1
            self.supply[p] -= 1
            self.idle = 0
            mine = self.stones[p][r][c]
            if all(mine >= self.stones[q][r][c] + 2 for q in range(self.n) if q != p):
                # J8: lock
                self.owner[r][c] = p
                for q in range(self.n):
                    if q != p:
                        if self.returned_on_lock:
                            self.supply[q] += self.stones[q][r][c]
                        self.stones[q][r][c] = 0
            if self.four_in_a_row(p):  # J13
                self.end = "four_in_a_row"
                self.winner = p
                self.current = None
                return
            while len(self.hands[p]) < 4:
                self.draw_one(p)
        if self.idle >= 20:  # J14 safety valve
            self.end = "exchange_limit"
            self.current = None
            return
        for k in range(1, self.n + 1):
            q = (p + k) % self.n
            if self.can_take_turn(q):
                self.current = q
                return
        self.end = "exhaustion"
        self.current = None

    def winners(self) -> set[int]:
        if self.end == "four_in_a_row":
            assert self.winner is not None
            return {self.winner}
        scores = self.scores()
        top = max(scores)
        tied = [q for q in range(self.n) if scores[q] == top]
        best_field, best = 0, None
        for q in tied:
            for r in range(6):
                for c in range(6):
                    if self.holder(r, c) == q and self.layout[r][c] > best_field:
                        best_field, best = self.layout[r][c], q
        return {best} if best is not None else set(tied)

    def outcome(self) -> tuple[tuple[int, ...], frozenset[int]] | None:
        if self.end is None:
            return None
        return tuple(self.scores()), frozenset(self.winners())

    def stats(self) -> dict[str, int | str]:
        assert self.end is not None
        return {"end": self.end}

    def to_dict(self) -> dict[str, Any]:
        """The engine's ``to_dict()`` after its header."""
        return {
            "layout": [f for row in self.layout for f in row],
            "stones": [[x for row in self.stones[q] for x in row] for q in range(self.n)],
            "owners": [o for row in self.owner for o in row],
            "supplies": self.supply[:],
            "hands": [h[:] for h in self.hands],
            "draw_pile": self.draw[:],
            "discard_pile": self.discard[:],
            "current_player": self.current,
            "idle_turns": self.idle,
            "rng": self.rng.s[:],
            "history": self.history[:],
        }


Reference = Just4FunRef
