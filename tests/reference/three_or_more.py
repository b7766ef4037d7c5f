"""3 Or More in plain Python: a slow, literal transcription of the rules page T1-T13.

Chance, in the order it is drawn from the state's own generator ``Rng(seed)``:
  1. the deck (option ``deck``, or ``DEFAULT_DECK``, in its given order) is shuffled
     once with ``Rng.shuffle`` (Fisher-Yates from the end);
  that is the only draw.  Dealing and drawing then take cards from the front of the
  shuffled deck: seat 0 gets cards 0-2, seat 1 cards 3-5, and so on; the next card
  starts row 1 (T4); the rest is the stock, drawn from the front (T8).

The table: card rows 0..6 and card columns 0..22; the starting card is at card row 3,
column 11.  Card row ``r`` holds square rows ``3r`` (top) .. ``3r+2`` (bottom), so a
square is ``(row, col)`` with row 0..20 and col 0..22.

Actions: ``(place * turns + turned) * 64 + code(card as held)`` with
``code = top * 16 + middle * 4 + bottom`` over R=0, G=1, B=2, Y=3; ``turns`` is 2 with
``allow_rotation`` (then ``turned`` is 0 or 1), else 1; ``place`` 0 = next square of
the open row, 1 left, 2 right, 3 top-left, 4 top-right, 5 bottom-left, 6 bottom-right.
"""

from __future__ import annotations

from typing import Any

from tests.reference._rng import Rng

COLOURS = "RGBY"
PLACES = ["next", "left", "right", "top-left", "top-right", "bottom-left", "bottom-right"]
DIRECTIONS = [("horizontal", 0, 1), ("vertical", 1, 0), ("falling", 1, 1), ("rising", 1, -1)]


def default_deck() -> list[str]:
    """T2: XXX three times per colour; one each of XXZ XZX ZXX XZZ ZXZ ZZX per pair."""
    deck = []
    for c in COLOURS:
        deck += [c * 3] * 3
    for i in range(4):
        for j in range(i + 1, 4):
            x, z = COLOURS[i], COLOURS[j]
            deck += [x + x + z, x + z + x, z + x + x, x + z + z, z + x + z, z + z + x]
    return deck


def code(card: str) -> int:
    return COLOURS.index(card[0]) * 16 + COLOURS.index(card[1]) * 4 + COLOURS.index(card[2])


def card_of(c: int) -> str:
    return COLOURS[c // 16] + COLOURS[(c // 4) % 4] + COLOURS[c % 4]


class State:
    """A 3 Or More position."""

    def __init__(self, players: int, seed: int, deck: list[str] | None = None,
                 allow_rotation: bool = False, start_player: int = 0) -> None:
        assert 2 <= players <= 4                                          # T1
        self.players = players
        self.turns = 2 if allow_rotation else 1
        self.rng = Rng(seed)
        cards = list(deck) if deck is not None else default_deck()
        assert len(cards) == 48                                           # T2
        self.rng.shuffle(cards)                                           # T4
        self.hands: list[list[str]] = []
        for seat in range(players):
            self.hands.append(sorted(cards[3 * seat:3 * seat + 3], key=code))
        first = cards[3 * players]
        self.stock = cards[3 * players + 1:]
        self.cards: dict[tuple[int, int], str] = {}     # (card row, card col) -> shown
        self.squares: dict[tuple[int, int], str] = {}   # (row, col) -> colour
        self.row1 = [11, 11]
        self.block = [3, 3]
        self.open_row: list[int] | None = None          # [card row, next col, direction]
        self.lay(3, 11, first)                          # T4: the starting card scores nothing
        self.scores = [0] * players
        self.current: int | None = start_player
        self.history: list[int] = []
        self.last: dict[str, Any] | None = None
        self.lines = 0          # lines scored, and the most points one card scored
        self.best = 0

    @property
    def current_player(self) -> int | None:
        return self.current

    # ------------------------------------------------------------------ rules

    def lay(self, r: int, c: int, shown: str) -> list[tuple[int, int]]:
        assert (r, c) not in self.cards
        self.cards[(r, c)] = shown
        new = [(3 * r + i, c) for i in range(3)]
        for i, sq in enumerate(new):
            self.squares[sq] = shown[i]
        return new

    def places(self) -> list[int]:
        laid = len(self.cards)
        if laid < 12:
            return [1, 2]                 # T6: row 1 grows at either end
        if laid % 12 == 0:
            return [3, 4, 5, 6]           # T7: a row is complete: choose a corner
        return [0]                        # T7: the open row goes on

    def legal_actions(self) -> list[int]:
        if self.current is None:
            return []
        out = []
        for place in self.places():
            for turned in range(self.turns):
                for card in set(self.hands[self.current]):
                    if turned and card[::-1] == card:
                        continue          # T3: no turned form
                    out.append((place * self.turns + turned) * 64 + code(card))
        return sorted(out)

    def decode(self, action: int) -> tuple[int, int, str]:
        rest, c = divmod(action, 64)
        place, turned = divmod(rest, self.turns)
        return place, turned, card_of(c)

    def action_to_str(self, action: int) -> str:
        place, turned, card = self.decode(action)
        text = card + ("^" if turned else "")
        return text if place == 0 else f"{text}@{PLACES[place]}"

    def target(self, place: int) -> tuple[int, int]:
        """Where a card goes for ``place``, updating the layout bookkeeping (T6-T7)."""
        if place == 1:
            self.row1[0] -= 1
            return 3, self.row1[0]
        if place == 2:
            self.row1[1] += 1
            return 3, self.row1[1]
        if place == 0:
            assert self.open_row is not None
            r, c, d = self.open_row
            self.open_row = [r, c + d, d]
            return r, c
        if place in (3, 4):
            self.block[0] -= 1
            r = self.block[0]
        else:
            self.block[1] += 1
            r = self.block[1]
        if place in (3, 5):
            c, d = self.row1[0], 1
        else:
            c, d = self.row1[1], -1
        self.open_row = [r, c + d, d]
        return r, c

    def line_through(self, sq: tuple[int, int], dy: int, dx: int) -> list[tuple[int, int]]:
        """The maximal run of ``sq``'s colour through ``sq`` in direction (dy, dx)."""
        colour = self.squares[sq]
        y, x = sq
        while self.squares.get((y - dy, x - dx)) == colour:
            y, x = y - dy, x - dx
        run = []
        while self.squares.get((y, x)) == colour:
            run.append((y, x))
            y, x = y + dy, x + dx
        return run

    def score(self, new: list[tuple[int, int]]) -> tuple[int, list[dict[str, Any]]]:
        """T10-T11: each line of 3+ through a new square once, full length, diagonals x2."""
        found: dict[frozenset[tuple[int, int]], tuple[int, int, str, list[tuple[int, int]]]] = {}
        for i, sq in enumerate(new):
            for k, (name, dy, dx) in enumerate(DIRECTIONS):
                run = self.line_through(sq, dy, dx)
                if len(run) >= 3 and frozenset(run) not in found:
                    found[frozenset(run)] = (i, k, name, run)
        lines = []
        for _, _, name, run in sorted(found.values(), key=lambda v: (v[0], v[1])):
            per = 2 if name in ("falling", "rising") else 1
            lines.append({"direction": name, "squares": [list(s) for s in run],
                          "points": per * len(run)})
        return sum(ln["points"] for ln in lines), lines

    def apply(self, action: int) -> None:
        assert action in self.legal_actions()
        seat = self.current
        assert seat is not None
        place, turned, card = self.decode(action)
        self.hands[seat].remove(card)
        shown = card[::-1] if turned else card          # T3
        r, c = self.target(place)
        new = self.lay(r, c, shown)
        points, lines = self.score(new)                 # T8: lay, score, draw
        self.scores[seat] += points
        self.lines += len(lines)
        self.best = max(self.best, points)
        if self.stock:
            self.hands[seat].append(self.stock.pop(0))
            self.hands[seat].sort(key=code)
        self.history.append(action)
        self.last = {"player": seat, "move": self.action_to_str(action),
                     "points": points, "lines": lines}
        if len(self.cards) == 48:                       # T9
            self.current = None
        else:
            self.current = (seat + 1) % self.players

    def outcome(self) -> tuple[tuple[int, ...], frozenset[int]] | None:
        if self.current is not None:
            return None
        best = max(self.scores)                         # T12
        return tuple(self.scores), frozenset(i for i, v in enumerate(self.scores) if v == best)

    def grid(self) -> list[str]:
        return ["".join(self.squares.get((y, x), ".") for x in range(23)) for y in range(21)]

    def stats(self) -> dict[str, int | str]:
        return {"lines": self.lines, "best_move": self.best}

    def to_dict(self) -> dict[str, Any]:
        """The engine's ``to_dict()`` after its header."""
        laid = len(self.cards)
        return {
            "current_player": self.current,
            "scores": list(self.scores),
            "hands": [list(h) for h in self.hands],
            "stock": list(self.stock),
            "grid": self.grid(),
            "row1": list(self.row1),
            "block": list(self.block),
            "open_row": None if laid <= 12 or laid % 12 == 0 else list(self.open_row or []),
            "last_move": self.last,
            "history": list(self.history),
            "rng": list(self.rng.s),
        }


Reference = State
