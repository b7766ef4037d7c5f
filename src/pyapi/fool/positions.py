"""A Fool position in Python: a seat's view, the ``to_dict`` fields, set-up positions.

A set-up position is read back from those fields, checked against the rules (F2-F12).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from boardcore._checks import field, int_field, list_field, rng_field
from boardcore._engine.fool import CARDS, ROUND_MAX, SCORE_MAX, W1
from boardcore.errors import InvalidStateError
from boardcore.fool.moves import COLOURS
from boardcore.fool.values import FoolSnapshot, FoolView
from boardcore.values import quote

if TYPE_CHECKING:
    from boardcore._engine.fool import FoolState
    from boardcore.fool import Fool

__all__ = ["fields", "read_position", "set_up", "view"]


def view(snapshot: FoolSnapshot, player: int) -> FoolView:
    """Return what seat ``player`` may see, as a ``FoolView`` (cards in notation)."""
    p = snapshot
    return FoolView.of(
        p, player,
        hand=tuple([CARDS[c] for c in p.hands[player]]),
        hand_sizes=tuple(map(len, p.hands)),
        round=p.round,
        dealer=p.dealer,
        leader=p.leader,
        lead_colour=None if p.lead < 0 else COLOURS[p.lead],
        trick=tuple([(q, CARDS[c]) for q, c in p.trick]),
        played=tuple([CARDS[c] for c in p.played]),
        fools=frozenset(p.fools),
        plus10=p.plus10,
    )


def fields(snapshot: FoolSnapshot) -> dict[str, Any]:
    """Return the game's fields of ``to_dict`` (``FoolPosition``)."""
    p = snapshot
    fields: dict[str, Any] = {
        "round": p.round,
        "dealer": p.dealer,
        "leader": p.leader,
        "fools": list(p.fools),
        "trick": [[q, CARDS[c]] for q, c in p.trick],
    }
    if any(p.voids):             # only while some seat has shown a void (F6)
        fields["voids"] = [[COLOURS[c] for c in range(4) if mask >> c & 1]
                           for mask in p.voids]
    fields.update(hands=[[CARDS[c] for c in hand] for hand in p.hands],
                  scores=list(p.scores), plus10=list(p.plus10), rng=list(p.rng))
    return fields


def set_up(game: Fool, fields: dict[str, Any], seed: int) -> FoolState:
    """Return the set-up position a document's ``setup`` fields describe, checked."""
    state: FoolState = game._engine.set_up(game, seed, read_position(game, fields))
    return state

ACTION = {name: a for a, name in enumerate(CARDS)}


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
        if type(text) is not str or text not in ACTION:
            raise InvalidStateError(
                f"field {name!r} holds {quote(text)}, expected a card such as 'G17'")
        a = ACTION[text]
        if a == W1:
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


def _seat(data: Mapping[str, object], name: str, n: int) -> int:
    value = field(data, name)
    if type(value) is not int or not 0 <= value < n:
        raise InvalidStateError(f"field {name!r} is {quote(value)}, expected a seat in range({n})")
    return value


def read_position(game: Fool, data: dict[str, Any]) -> dict[str, Any]:
    """Check a set-up position's fields; return them as the engine's trusted values."""
    n = game.num_players
    nfools = game.fools_per_trick
    rnd = int_field(data, "round", 1, ROUND_MAX)
    dealer = _seat(data, "dealer", n)
    expected = (cast(int, game.options["start_player"]) - 1 + rnd - 1) % n
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
        if not -SCORE_MAX <= x <= 10 * y:
            raise InvalidStateError(
                f"field 'scores' holds {quote(x)}, expected an int in "
                f"{-SCORE_MAX}..{10 * y} (10 per +10 round)")
    _check_scores(scores, plus10, done, nfools)
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
        if a != W1:
            colour = "GRYB".index(entry[1][0])
            if lead is not None and colour != lead and any(
                    b != W1 and "GRYB".index(CARDS[b][0]) == lead for b in held[q]):
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
    if fools:
        _check_sitting_out(game, held, fools, in_trick, out - len(trick))
    return {
        "round": rnd, "dealer": dealer, "leader": leader, "fools": sorted(fools),
        "trick": played, "hands": held, "scores": scores, "plus10": plus10,
        "rng": rng_field(data), "voids": voids,
    }


def _check_scores(scores: list[int], plus10: list[int], done: int, nfools: int) -> None:
    """F11: the scores ``done`` completed rounds can give.

    None before the first round is scored.  Every round ends while the Fools of the trick
    before sit out its last trick with cards in hand (F9, F10), so each round costs at
    least 2 points (a card's least value) per Fool: the scores add up to at most 10 per
    +10 less that.
    """
    if done == 0 and any(scores):
        raise InvalidStateError(
            f"field 'scores' is {quote(scores)}, but no round has been scored yet (F11)")
    most = 10 * sum(plus10) - 2 * nfools * done
    if done and sum(scores) > most:
        raise InvalidStateError(
            f"field 'scores' adds up to {sum(scores)}, but {done} round(s) with "
            f"{sum(plus10)} +10s give at most {most}: each round ends with its Fools "
            f"holding cards (F9-F11)")


def _check_sitting_out(game: Fool, held: list[list[int]], fools: list[object],
                       in_trick: set[int], played: int) -> None:
    """F4, F9: hand sizes a sequence of tricks gives, ``played`` cards into them so far.

    Every seat plays the first trick of a round and the Fools sit out each later one, so
    ``t`` tricks take ``n + (t - 1) * (n - Fools)`` cards.  A seat has sat out as many
    tricks as it played fewer than ``t``: never the first, never two in a row, and the
    present Fools, who played the last one, not that one either.
    """
    n, nfools = game.num_players, game.fools_per_trick
    rest = played - n
    if rest < 0 or rest % (n - nfools):
        raise InvalidStateError(
            f"field 'hands': {played} cards were played in the tricks of this round, which "
            f"no number of tricks takes ({n} for the first, {n - nfools} for each later "
            f"one) (F4, F9)")
    tricks = 1 + rest // (n - nfools)
    for p in range(n):
        sat_out = tricks - (game.hand_size - len(held[p]) - (p in in_trick))
        most = (tricks - 1) // 2 if p in fools else tricks // 2
        if not 0 <= sat_out <= most:
            raise InvalidStateError(
                f"field 'hands': seat {p} holds {len(held[p])} cards, so it sat out {sat_out} "
                f"of the {tricks} tricks played, where a seat sits out at most {most} "
                f"(never the first, never two in a row) (F4, F9)")


def _read_voids(data: Mapping[str, object], held: list[list[int]], over: bool) -> list[int]:
    """The colours each seat has shown it lacks (F6), as bitmasks; none when absent."""
    n = len(held)
    if "voids" not in data:
        return [0] * n
    raw = list_field(data, "voids", n)
    masks = []
    for p, colours in enumerate(raw):
        if (type(colours) is not list or any(c not in COLOURS for c in colours)
                or len(set(colours)) != len(colours)):
            raise InvalidStateError(
                f"field 'voids' holds {quote(colours)}, expected distinct colours such as "
                "['green', 'blue']")
        mask = 0
        for colour in colours:
            c = COLOURS.index(colour)
            shown = [CARDS[a] for a in held[p] if a != W1 and CARDS[a][0] == "GRYB"[c]]
            if shown:
                raise InvalidStateError(
                    f"field 'voids' says seat {p} holds no {colour}, but its hand holds "
                    f"{shown[0]} (F6)")
            mask |= 1 << c
        masks.append(mask)
    if over and any(masks):
        raise InvalidStateError("field 'voids' must be empty once the game is over")
    return masks
