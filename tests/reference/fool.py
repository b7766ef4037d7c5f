"""Fool, transcribed plainly from the rules page (src/pyapi/rules/fool.md): the test oracle.

Slow and obvious on purpose: hands are sorted lists of card kinds, tricks are lists, and
every rule is written out as the page words it, with no bit tricks.

Cards are the engine's actions: green 2-27 are 0-25, red 2-23 are 26-47, yellow 2-21
are 48-67, blue 2-15 are 68-81, and 82 is a wild 1 (several copies of the same kind).

Order of chance draws, all from the state's own generator ``Rng(seed)``:

1. When the game is made, the deck of round 1 is shuffled.
2. After each round that does not end the game (F12), the next round's deck is shuffled.

Nothing else draws.  Before each shuffle the prepared deck (F2) is in canonical order:
green 2..top, red 2..top, yellow 2..top, blue 2..top, then one W1 per wild 1.  It is
shuffled with ``Rng.shuffle`` (Fisher-Yates from the end) and dealt one card at a time,
clockwise, starting with the dealer's left-hand neighbour (the seat after the dealer).

The random player draws from its own ``Rng(rollout seed)``:
``legal[player.bounded(len(legal))]`` with ``legal`` ascending.
"""

from __future__ import annotations

from typing import Any

from tests.reference._rng import Rng

COLOURS = ("G", "R", "Y", "B")
COLOUR_NAMES = {"G": "green", "R": "red", "Y": "yellow", "B": "blue"}
TOPS = {"G": 27, "R": 23, "Y": 21, "B": 15}  # F1
W1 = 82
DECKS = {  # F2: highest green, red, yellow, blue, and wild 1s
    4: (17, 13, 11, 8, 3),
    5: (20, 16, 14, 10, 4),
    6: (23, 19, 17, 12, 5),
    7: (26, 22, 20, 14, 6),
    8: (27, 23, 21, 15, 6),
}
FOOLS_PER_TRICK = {4: 1, 5: 1, 6: 1, 7: 2, 8: 2}

# Card kind <-> (colour, value); colour "W" for the wild 1.
CARDS: list[tuple[str, int]] = []
for _colour in COLOURS:
    for _value in range(2, TOPS[_colour] + 1):
        CARDS.append((_colour, _value))
CARDS.append(("W", 1))
KIND = {card: kind for kind, card in enumerate(CARDS)}


def name(kind: int) -> str:
    """The notation of a card kind: ``G17``, ``W1``."""
    colour, value = CARDS[kind]
    return f"{colour}{value}"


def colour_of(kind: int) -> str:
    return CARDS[kind][0]


def value_of(kind: int) -> int:
    return CARDS[kind][1]


def points(kind: int) -> int:
    """F11: what a card left in hand costs; a wild 1 counts 5."""
    return 5 if kind == W1 else value_of(kind)


def lead_colour(trick: list[tuple[int, int]]) -> str | None:
    """F5: the colour of the first non-1 card played to the trick, else None."""
    for _seat, kind in trick:
        if kind != W1:
            return colour_of(kind)
    return None


def legal_cards(hand: list[int], trick: list[tuple[int, int]]) -> list[int]:
    """F6: the distinct card kinds a player may play, ascending."""
    lead = lead_colour(trick)
    if lead is None:
        allowed = set(hand)
    else:
        of_lead = [k for k in hand if k != W1 and colour_of(k) == lead]
        if of_lead:
            allowed = set(of_lead) | ({W1} if W1 in hand else set())
        else:
            allowed = set(hand)
    return sorted(allowed)


def trick_winner(trick: list[tuple[int, int]]) -> int:
    """F7: the seat of the highest lead-colour card; all 1s: the first played."""
    lead = lead_colour(trick)
    if lead is None:
        return trick[0][0]
    best_seat, best_value = -1, 0
    for seat, kind in trick:
        if kind == W1:
            value = 1  # the lowest card of the lead colour
        elif colour_of(kind) == lead:
            value = value_of(kind)
        else:
            continue
        if value > best_value:
            best_seat, best_value = seat, value
    return best_seat


def trick_fools(trick: list[tuple[int, int]], how_many: int) -> list[int]:
    """F8: the seats of the worst card(s), worst first.

    Off-colour cards first (lowest, then the later played), then lead-colour cards with
    the 1s as their lowest (lowest, then the later played).
    """
    lead = lead_colour(trick)
    off = []
    on = []
    for position, (seat, kind) in enumerate(trick):
        if kind == W1 or colour_of(kind) == lead:
            on.append((value_of(kind), -position, seat))
        else:
            off.append((value_of(kind), -position, seat))
    order = sorted(off) + sorted(on)
    return [seat for _value, _later, seat in order[:how_many]]


class FoolRef:
    """A whole game of Fool, in plain Python."""

    def __init__(self, players: int, seed: int, deck: Any = None, start_player: int = 0):
        self.n = players
        self.seed = seed
        self.deck_option = None if deck is None else list(deck)
        self.deck_spec = tuple(deck) if deck is not None else DECKS[players]
        self.start_player = start_player
        self.fools_per_trick = FOOLS_PER_TRICK[players]
        self.rng = Rng(seed)
        self.round = 1
        self.dealer = (start_player - 1) % players  # F3: seat n-1 deals when seat 0 leads
        self.scores = [0] * players
        self.plus10 = [0] * players
        self.over = False
        self.end_reason: str | None = None
        self.history: list[int] = []
        self.hands: list[list[int]] = []
        self.trick: list[tuple[int, int]] = []
        self.fools: set[int] = set()
        self.voids: list[set[str]] = [set() for _ in range(players)]
        self.leader = 0
        self.deal()

    # F2, F3 -----------------------------------------------------------------------------
    def prepared_deck(self) -> list[int]:
        cards = []
        for colour, top in zip(COLOURS, self.deck_spec[:4]):
            for value in range(2, top + 1):
                cards.append(KIND[(colour, value)])
        cards += [W1] * self.deck_spec[4]
        return cards

    def deal(self) -> None:
        cards = self.prepared_deck()
        self.rng.shuffle(cards)
        self.hands = [[] for _ in range(self.n)]
        seat = (self.dealer + 1) % self.n
        self.leader = seat
        for card in cards:
            self.hands[seat].append(card)
            seat = (seat + 1) % self.n
        for hand in self.hands:
            hand.sort()
        self.trick = []
        self.fools = set()
        self.voids = [set() for _ in range(self.n)]   # what play revealed starts afresh

    # F4 ---------------------------------------------------------------------------------
    def taking_part(self) -> list[int]:
        """The seats that play this trick, clockwise from the leader."""
        order = [(self.leader + k) % self.n for k in range(self.n)]
        return [seat for seat in order if seat not in self.fools]

    @property
    def current_player(self) -> int | None:
        if self.over:
            return None
        return self.taking_part()[len(self.trick)]

    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        player = self.current_player
        assert player is not None
        return legal_cards(self.hands[player], self.trick)

    def apply(self, action: int) -> None:
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action}")
        player = self.current_player
        assert player is not None
        lead = lead_colour(self.trick)
        if lead is not None and action != W1 and colour_of(action) != lead:
            self.voids[player].add(lead)  # F6: off the lead colour, so none of it held
        self.hands[player].remove(action)
        self.trick.append((player, action))
        self.history.append(action)
        if len(self.trick) == len(self.taking_part()):
            self.end_trick()

    # F7-F10 -----------------------------------------------------------------------------
    def end_trick(self) -> None:
        winner = trick_winner(self.trick)
        new_fools = set(trick_fools(self.trick, self.fools_per_trick))
        round_over = any(not self.hands[seat] for seat, _kind in self.trick)
        self.trick = []
        self.fools = new_fools
        self.leader = winner
        if round_over:
            self.end_round()

    # F11, F12 ---------------------------------------------------------------------------
    def end_round(self) -> None:
        for seat in range(self.n):
            if not self.hands[seat]:
                if seat not in self.fools:
                    self.scores[seat] += 10
                    self.plus10[seat] += 1
            else:
                self.scores[seat] -= sum(points(k) for k in self.hands[seat])
        minus = any(score <= -80 for score in self.scores)
        six = any(count >= 6 for count in self.plus10)
        if minus or six:
            self.over = True
            self.voids = [set() for _ in range(self.n)]
            self.end_reason = "both" if minus and six else ("minus_80" if minus else "six_plus_10")
            return
        self.round += 1
        self.dealer = (self.dealer + 1) % self.n
        self.deal()

    # F13 --------------------------------------------------------------------------------
    def winners(self) -> frozenset[int]:
        best = max(self.scores)
        return frozenset(seat for seat in range(self.n) if self.scores[seat] == best)

    def rollout(self, seed: int) -> None:
        player = Rng(seed)
        while not self.over:
            legal = self.legal_actions()
            self.apply(legal[player.bounded(len(legal))])

    def outcome(self) -> tuple[tuple[int, ...], frozenset[int]] | None:
        return (tuple(self.scores), self.winners()) if self.over else None

    def stats(self) -> dict[str, int | str]:
        assert self.end_reason is not None
        return {"end": self.end_reason, "rounds": self.round}

    def to_dict(self) -> dict[str, Any]:
        """The engine's ``to_dict()`` after its header (docs/games/fool.md)."""
        doc: dict[str, Any] = {
            "round": self.round,
            "dealer": self.dealer,
            "leader": self.leader,
            "fools": sorted(self.fools),
            "trick": [[seat, name(kind)] for seat, kind in self.trick],
            "hands": [[name(kind) for kind in hand] for hand in self.hands],
            "scores": list(self.scores),
            "plus10": list(self.plus10),
            "history": list(self.history),
            "rng": list(self.rng.s),
        }
        if any(self.voids):
            doc["voids"] = [[COLOUR_NAMES[c] for c in COLOURS if c in v] for v in self.voids]
        return doc


Reference = FoolRef
