"""Fool (Friedemann Friese): shed your hand, and never play the worst card of a trick.

Actions are card kinds (``0..82``): green 2-27, red 2-23, yellow 2-21, blue 2-15, then
the wild 1 (``82``); the notation is the colour letter and value (``G17``, ``W1``).  The
Fools of a trick sit out the next one and are never ``current_player``; rounds score and
deal themselves, and ``scores()`` are the running totals (``docs/games/fool.md``).

>>> import boardcore
>>> game = boardcore.make("fool", players=4)
>>> game.deck, game.hand_size, game.fools_per_trick
((17, 13, 11, 8, 3), 12, 1)
>>> state = game.new_state(seed=7)
>>> state.current_player
0
>>> card = state.legal_actions()[0]
>>> state.action_to_str(card), state.parse_action(state.action_to_str(card)) == card
('G5', True)
>>> state.apply(card)
>>> state.view(1).trick
((0, 'G5'),)
>>> state.rollout(seed=1).winners
frozenset({1})
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, cast

from boardcore._checks import field, int_field, list_field, rng_field
from boardcore._engine import fool as _engine
from boardcore._engine._state import EngineConfig
from boardcore._engine.fool import CARDS, FoolState
from boardcore.errors import ConfigurationError, InvalidStateError
from boardcore.protocol import Game
from boardcore.values import FoolMove, FoolView, quote

__all__ = [
    "CARDS", "DECKS", "FOOLS_PER_TRICK", "NUM_ACTIONS", "Fool", "FoolMove", "FoolState",
    "FoolView",
]

#: Rule F2 as data: players -> highest green, red, yellow and blue value, wild 1s.
DECKS: Mapping[int, tuple[int, int, int, int, int]] = MappingProxyType({
    4: (17, 13, 11, 8, 3),
    5: (20, 16, 14, 10, 4),
    6: (23, 19, 17, 12, 5),
    7: (26, 22, 20, 14, 6),
    8: (27, 23, 21, 15, 6),
})
#: Rule F2: players -> Fool discs handed out per trick.
FOOLS_PER_TRICK: Mapping[int, int] = MappingProxyType({4: 1, 5: 1, 6: 1, 7: 2, 8: 2})
#: Every card kind of the box (F1): ``G2..G27, R2..R23, Y2..Y21, B2..B15, W1``.
NUM_ACTIONS = 83
_LIMITS = (27, 23, 21, 15, 6)
_DECK_FIELDS = ("green", "red", "yellow", "blue", "wild 1s")
_ACTION = {name: a for a, name in enumerate(CARDS)}
_W1 = 82
_COLOURS = ("green", "red", "yellow", "blue")
#: A set-up position's round and scores stay within these bounds.
_ROUND_MAX = 1_000_000
_SCORE_MIN = -1_000_000


class Fool(Game[FoolState]):
    """The configuration of a game of Fool for 4-8 players.

    Options:
        deck: ``None`` for the F2 table, or ``(green, red, yellow, blue, wilds)``: the
            highest value kept of each colour (2..27, 2..23, 2..21, 2..15; every colour
            keeps its lowest values from 2) and the number of wild 1s (0..6).  The deck
            must split evenly between the players.
        start_player: the seat that leads the first round (the dealer sits to its right).

    >>> Fool(players=6, deck=(20, 19, 17, 12, 2)).hand_size
    11
    >>> Fool(players=4, start_player=4)
    Traceback (most recent call last):
    ...
    boardcore.errors.ConfigurationError: option 'start_player' is 4, expected a seat in range(4)
    """

    name = "fool"
    min_players = 4
    max_players = 8
    rules_version = 1
    option_defaults = MappingProxyType({"deck": None, "start_player": 0})
    end_reasons = ("minus_80", "six_plus_10", "both")
    stat_names = ("end", "rounds")
    state_class: ClassVar[type[FoolState]] = FoolState

    __slots__ = ()

    def _normalize_options(self, options: dict[str, object]) -> dict[str, object]:
        n = self.num_players
        start = options["start_player"]
        if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < n:
            raise ConfigurationError(
                f"option 'start_player' is {quote(start)}, expected a seat in range({n})"
            )
        deck = options["deck"]
        if deck is not None:
            deck = self._check_deck(deck, n)
            if deck == DECKS[n]:
                deck = None
        return {"deck": deck, "start_player": start}

    @staticmethod
    def _check_deck(deck: object, n: int) -> tuple[int, int, int, int, int]:
        if not isinstance(deck, (tuple, list)) or len(deck) != 5:
            raise ConfigurationError(
                f"option 'deck' is {quote(deck)}, expected None or (green, red, yellow, blue, "
                "wilds): the highest value of each colour and the number of wild 1s"
            )
        for value, limit, name in zip(deck, _LIMITS, _DECK_FIELDS, strict=True):
            low = 0 if name == "wild 1s" else 2
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= limit:
                raise ConfigurationError(
                    f"option 'deck' has {name} {quote(value)}, expected an int in {low}..{limit}"
                )
        g, r, y, b, w = deck
        size = (g - 1) + (r - 1) + (y - 1) + (b - 1) + w
        if size % n:
            raise ConfigurationError(
                f"option 'deck' is {quote(deck)}: its {size} cards do not split evenly "
                f"between {n} players"
            )
        return (g, r, y, b, w)

    def _configure(self) -> EngineConfig:
        return _engine.config(
            self.num_players, _start(self), self.deck, self.fools_per_trick
        )

    def _set_up(self, fields: dict[str, Any], seed: int) -> FoolState:
        return FoolState._set_up(self._engine, self, seed, _read_position(self, fields))

    # The state's view, document fields and text picture, made from the plain values of
    # ``FoolState._position()`` (documented there).

    def _view(self, state: FoolState, seat: int) -> FoolView:
        (rnd, dealer, leader, current, lead, fools, _, trick, hands, played, scores, plus10,
         _) = state._position()
        return FoolView(
            player=seat,
            current_player=None if current < 0 else current,
            is_over=current < 0,
            scores=tuple(scores),
            hand=tuple(hands[seat]),
            hand_sizes=tuple(map(len, hands)),
            round=rnd,
            dealer=dealer,
            leader=leader,
            lead_colour=None if lead < 0 else _COLOURS[lead],
            trick=tuple(trick),
            played=tuple(played),
            fools=frozenset(_seats(fools, len(hands))),
            plus10=tuple(plus10),
        )

    def _fields(self, state: FoolState) -> dict[str, object]:
        rnd, dealer, leader, _, _, fools, voids, trick, hands, _, scores, plus10, rng = (
            state._position())
        n = len(hands)
        fields: dict[str, object] = {
            "round": rnd,
            "dealer": dealer,
            "leader": leader,
            "fools": _seats(fools, n),
            "trick": [[p, card] for p, card in trick],
        }
        if voids:             # only while some seat has shown a void (F6)
            fields["voids"] = [[_COLOURS[c] for c in range(4) if voids >> (4 * p + c) & 1]
                               for p in range(n)]
        fields.update(hands=hands, scores=scores, plus10=plus10, rng=rng)
        return fields

    def _text(self, state: FoolState, seat: int) -> str:
        # Every card face up when seat < 0, otherwise only seat's.
        rnd, dealer, _, current, lead, fools, _, trick, hands, _, scores, plus10, _ = (
            state._position())
        n = len(hands)
        lines = [
            f"Fool, {n} players, round {rnd}, dealer seat {dealer}"
            + (", game over" if current < 0 else ""),
            "scores: " + "  ".join([f"{p}:{scores[p]:+d} ({plus10[p]}x+10)" for p in range(n)]),
            "fools:  " + (" ".join([f"seat {p}" for p in _seats(fools, n)]) or "none"),
            "trick:  " + (" ".join([f"{p}:{card}" for p, card in trick]) or "-")
            + ("" if lead < 0 else f"  (lead colour {_COLOURS[lead]})"),
        ]
        for p, hand in enumerate(hands):
            mark = ">" if p == current else " "
            cards = " ".join(hand) if seat < 0 or seat == p else " ".join(["??"] * len(hand))
            lines.append(f"{mark} seat {p} [{len(hand):2d}] {cards or '-'}")
        return "\n".join(lines)

    @property
    def observation_planes(self) -> tuple[tuple[str, int], ...]:
        """The planes of ``FoolState.observation`` (docs/games/fool.md)."""
        n = self.num_players
        return (("hand", NUM_ACTIONS), ("played", NUM_ACTIONS), ("trick", 6 * n),
                ("leader", n), ("lead_colour", 4), ("fools", n), ("voids", 4 * n),
                ("hand_sizes", n), ("to_act", n), ("scores", n), ("plus10", n),
                ("dealer", n))

    @property
    def deck(self) -> tuple[int, int, int, int, int]:
        """The deck in play: highest green, red, yellow, blue value and wild 1s."""
        deck = self.options["deck"]
        if deck is None:
            return DECKS[self.num_players]
        return cast("tuple[int, int, int, int, int]", deck)

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat per round."""
        g, r, y, b, w = self.deck
        return ((g - 1) + (r - 1) + (y - 1) + (b - 1) + w) // self.num_players

    @property
    def fools_per_trick(self) -> int:
        """Fool discs handed out per trick (F2)."""
        return FOOLS_PER_TRICK[self.num_players]


def _seats(mask: int, n: int) -> list[int]:
    """The seats of bitmask ``mask`` (bit ``p``: seat ``p``), ascending."""
    return [p for p in range(n) if mask >> p & 1]


# ---------------------------------------------------------------------------------
# Set-up positions: every field checked, and the rules between them (F2-F12).
# ---------------------------------------------------------------------------------


class _Cards:
    """The cards of one deck seen so far: each coloured card once, the wild 1s counted."""

    def __init__(self, deck: tuple[int, int, int, int, int]) -> None:
        self.deck = deck
        self.seen: set[int] = set()
        self.wilds = 0

    def take(self, text: object, name: str, clash: str = "") -> int:
        """Return the action of card ``text`` (part of field ``name``) and count it.

        ``clash`` replaces the reason given for a card not in the deck or seen before.
        """
        if type(text) is not str or text not in _ACTION:
            raise InvalidStateError(
                f"field {name!r} holds {quote(text)}, expected a card such as 'G17'")
        a = _ACTION[text]
        if a == _W1:
            self.wilds += 1
            return a
        if int(text[1:]) > self.deck["GRYB".index(text[0])]:
            clash = clash or "not in this deck (F2)"
        elif a in self.seen:
            clash = clash or "held twice"
        else:
            clash = ""
        if clash:
            raise InvalidStateError(f"field {name!r} holds {quote(text)}, {clash}")
        self.seen.add(a)
        return a

    def check_wilds(self, what: str) -> None:
        """Refuse more wild 1s than the deck holds (``what`` names the fields and verb)."""
        if self.wilds > self.deck[4]:
            raise InvalidStateError(
                f"{what} {self.wilds} wild 1s, this deck has {self.deck[4]}")


def _start(game: Fool) -> int:
    return cast(int, game.options["start_player"])


def _seat(data: Mapping[str, object], name: str, n: int) -> int:
    value = field(data, name)
    if type(value) is not int or not 0 <= value < n:
        raise InvalidStateError(f"field {name!r} is {quote(value)}, expected a seat in range({n})")
    return value


def _read_position(game: Fool, data: dict[str, Any]) -> dict[str, Any]:
    """Check a set-up position's fields; return them as the engine's trusted values."""
    n = game.num_players
    nfools = game.fools_per_trick
    rnd = int_field(data, "round", 1, _ROUND_MAX)
    dealer = _seat(data, "dealer", n)
    expected = (_start(game) - 1 + rnd - 1) % n
    if dealer != expected:
        raise InvalidStateError(
            f"field 'dealer' is {quote(dealer)}, expected {expected!r} in round {rnd} (F3)")
    # Scores and +10 counts; the end condition (F12) decides whether the game is over.
    raw_scores, raw_plus10 = list_field(data, "scores"), list_field(data, "plus10")
    if len(raw_scores) != n or len(raw_plus10) != n:
        raise InvalidStateError(f"fields 'scores' and 'plus10' need {n} entries")
    for x, y in zip(raw_scores, raw_plus10, strict=True):
        if type(x) is not int or type(y) is not int:
            raise InvalidStateError(
                f"fields 'scores' and 'plus10' hold {quote(x)}, {quote(y)}, expected ints")
    scores, plus10 = cast("list[int]", raw_scores), cast("list[int]", raw_plus10)
    over = any(x <= -80 for x in scores) or any(y >= 6 for y in plus10)
    # A finished game stays on its last round, so that round counts as completed.
    done = rnd if over else rnd - 1
    for x, y in zip(scores, plus10, strict=True):
        if not 0 <= y <= min(done, 6):
            raise InvalidStateError(
                f"field 'plus10' holds {quote(y)}, expected an int in 0..{min(done, 6)}")
        if not _SCORE_MIN <= x <= 10 * y:
            raise InvalidStateError(
                f"field 'scores' holds {quote(x)}, expected an int in "
                f"{_SCORE_MIN}..{10 * y} (10 per +10 round)")
    # Hands: cards of this deck, each held once, wild 1s within the deck's count.
    cards = _Cards(game.deck)
    hands = list_field(data, "hands")
    if len(hands) != n:
        raise InvalidStateError(f"field 'hands' needs {n} hands, not {len(hands)}")
    held: list[list[int]] = []
    for hand in hands:
        if type(hand) is not list:
            raise InvalidStateError(f"field 'hands' holds {quote(hand)}, expected a list")
        held.append([cards.take(text, "hands") for text in hand])
    cards.check_wilds("field 'hands' holds")
    # The trick so far: seats clockwise from the leader skipping the Fools, cards out of
    # the players' hands, each one legal when it was played (F4-F6).
    fools = list_field(data, "fools")
    for x in fools:
        if type(x) is not int or not 0 <= x < n or fools.count(x) > 1:
            raise InvalidStateError(f"field 'fools' holds {quote(x)}, expected distinct seats")
    if len(fools) not in (0, nfools):
        raise InvalidStateError(
            f"field 'fools' is {quote(fools)}, expected none or {nfools} seat(s) (F2, F9)")
    leader = _seat(data, "leader", n)
    if leader in fools:
        raise InvalidStateError(f"field 'leader' is {quote(leader)}, a Fool who sits out (F9)")
    trick = list_field(data, "trick")
    size = n - len(fools)
    if len(trick) >= size or (over and trick):
        raise InvalidStateError(
            f"field 'trick' has {len(trick)} cards, expected fewer than {size}"
            + (" and none once the game is over" if over else ""))
    lead = None
    q = leader
    played: list[list[int]] = []
    for i, entry in enumerate(trick):
        if type(entry) is not list or len(entry) != 2 or type(entry[0]) is not int:
            raise InvalidStateError(f"field 'trick' holds {quote(entry)}, expected [seat, card]")
        if entry[0] != q:
            raise InvalidStateError(
                f"field 'trick' holds {quote(entry)}, but seat {q} plays card {i} (F4)")
        a = cards.take(entry[1], "trick", "not in this deck or also in a hand")
        if a != _W1:
            colour = "GRYB".index(entry[1][0])
            if lead is not None and colour != lead and any(
                    b != _W1 and "GRYB".index(CARDS[b][0]) == lead for b in held[q]):
                raise InvalidStateError(
                    f"field 'trick' holds {quote(entry)}, but seat {q} holds the lead colour (F6)")
            if lead is None:
                lead = colour
        played.append([q, a])
        q = (q + 1) % n
        while q in fools:
            q = (q + 1) % n
    cards.check_wilds("fields 'hands' and 'trick' hold")
    voids = _read_voids(data, held, over)
    # Fools: none on the first trick of a round, otherwise exactly the Fools per trick.
    dealt = sum(game.deck[:4]) - 4 + game.deck[4]
    out = dealt - sum(len(h) for h in held)
    if not fools:
        if out != len(trick) or leader != (dealer + 1) % n:
            raise InvalidStateError(
                "field 'fools' is empty, which only the first trick of a round led by the "
                f"dealer's left ({(dealer + 1) % n}) allows (F3)")
    elif out <= len(trick):
        raise InvalidStateError(
            f"field 'fools' is {quote(fools)}, expected {nfools} seat(s) after the first trick")
    # A round deals every seat the same hand (F3), and hands only shrink: on the first
    # trick each seat holds it whole but for the card it has just played.
    in_trick = {q for q, _ in played}
    for p in range(n):
        if not fools and len(held[p]) != game.hand_size - (p in in_trick):
            raise InvalidStateError(
                f"field 'hands' gives seat {p} {len(held[p])} cards, expected "
                f"{game.hand_size - (p in in_trick)} on the round's first trick (F3)")
        if len(held[p]) > game.hand_size:
            raise InvalidStateError(
                f"field 'hands' gives seat {p} {len(held[p])} cards, expected "
                f"at most the {game.hand_size} dealt (F3)")
    if not over:
        for p in range(n):
            if not held[p] and p not in in_trick:
                raise InvalidStateError(
                    f"field 'hands' has an empty hand for seat {p}, who has not just played "
                    "their last card (F10)")
    return {
        "round": rnd, "dealer": dealer, "leader": leader, "fools": sorted(fools),
        "trick": played, "hands": held, "scores": scores, "plus10": plus10,
        "rng": rng_field(data), "voids": voids,
    }


def _read_voids(data: Mapping[str, object], held: list[list[int]], over: bool) -> list[int]:
    """The colours each seat has shown it lacks (F6), as bitmasks; none when absent."""
    n = len(held)
    if "voids" not in data:
        return [0] * n
    raw = list_field(data, "voids", n)
    masks = []
    for p, colours in enumerate(raw):
        if (type(colours) is not list or any(c not in _COLOURS for c in colours)
                or len(set(colours)) != len(colours)):
            raise InvalidStateError(
                f"field 'voids' holds {quote(colours)}, expected distinct colours such as "
                "['green', 'blue']")
        mask = 0
        for colour in colours:
            c = _COLOURS.index(colour)
            shown = [CARDS[a] for a in held[p] if a != _W1 and CARDS[a][0] == "GRYB"[c]]
            if shown:
                raise InvalidStateError(
                    f"field 'voids' says seat {p} holds no {colour}, but its hand holds "
                    f"{shown[0]} (F6)")
            mask |= 1 << c
        masks.append(mask)
    if over and any(masks):
        raise InvalidStateError("field 'voids' must be empty once the game is over")
    return masks
