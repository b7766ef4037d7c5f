"""Fool's moves: the notation (``G17``, ``W1``) and what a card does to the trick and round."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import numpy as np

from boardcore._engine.fool import CARDS, W1, _trick_kernel
from boardcore.errors import NotationError
from boardcore.fool.values import FoolMove, FoolSnapshot
from boardcore.values import quote

__all__ = ["COLOURS", "FOOLS_PER_TRICK", "action_to_str", "colour", "explain", "parse_action",
           "reveals"]

#: The colours, by number (a card's colour letter is ``"GRYB"[c]``).
COLOURS = ("green", "red", "yellow", "blue")
#: Rule F2: players -> Fool discs handed out per trick.
FOOLS_PER_TRICK: Mapping[int, int] = MappingProxyType({4: 1, 5: 1, 6: 1, 7: 2, 8: 2})
_ACTION = {name: a for a, name in enumerate(CARDS)}


def action_to_str(position: FoolSnapshot | None, action: int) -> str:
    """Return the notation of card kind ``action``: ``G17``, ``R2``, ``W1`` (any position)."""
    return CARDS[action]


def parse_action(position: FoolSnapshot | None, text: object) -> int:
    """Return the card kind written ``text`` (``G17``, ``" w1 "``; any case, blanks around).

    Raises:
        NotationError: ``text`` names no card of the box (G2..G27, R2..R23, Y2..Y21,
            B2..B15 or W1).
    """
    if not isinstance(text, str):
        raise NotationError(f"notation must be a str, not {quote(text)}")
    a = _ACTION.get(text.strip().upper())
    if a is None:
        raise NotationError(f"{quote(text, 60)} is not a Fool card: write G2..G27, "
                            "R2..R23, Y2..Y21, B2..B15 or W1")
    return a


def colour(card: int) -> int:
    """Return the colour (0..3) of a coloured card, -1 for a wild 1."""
    return -1 if card == W1 else "GRYB".index(CARDS[card][0])


def explain(before: FoolSnapshot, after: FoolSnapshot, action: int, *,
            played: bool) -> FoolMove:
    """Return what card ``action``, played in ``before``, did to reach ``after``.

    It reads only the table, the scores and the player's own hand; unless the card is
    ``played`` (``last_move``), the scores of a round's end that hang on hands the
    player cannot see are ``None``.
    """
    player = before.current_player
    assert player is not None
    move = CARDS[action]
    own = colour(action)
    seen = None if before.lead < 0 else COLOURS[before.lead]
    lead = seen if seen is not None else (None if own < 0 else COLOURS[own])
    # F6: a coloured card off a set lead colour shows the player holds none of it.
    void = seen if own >= 0 and seen is not None and COLOURS[own] != seen else None
    trick = (*[(p, CARDS[c]) for p, c in before.trick], (player, move))
    winner: int | None = None
    fools: frozenset[int] = frozenset()
    if len(trick) == before.players - len(before.fools):
        winner, fools = _resolve([*before.trick, (player, action)], lead,
                                 FOOLS_PER_TRICK[before.players])
    round_over = winner is not None and (after.outcome is not None or after.round != before.round)
    gains: tuple[int | None, ...] = tuple(
        b - a for a, b in zip(before.scores, after.scores, strict=True))
    game_over: bool | None = after.outcome is not None
    if round_over and not played:
        # F11: a seat left holding cards loses their sum, which only it can see.
        known = {q for q in range(before.players) if q == player or not before.hands[q]}
        gains = tuple(g if q in known else None for q, g in enumerate(gains))
        ended = any(after.scores[q] <= -80 or after.plus10[q] >= 6 for q in known)
        game_over = True if ended else (None if len(known) < before.players else game_over)
    return FoolMove(player=player, move=move, lead_colour=lead, void=void, trick=trick,
                    winner=winner, fools=fools, round_over=round_over, gains=gains,
                    game_over=game_over)


def _resolve(trick: list[tuple[int, int]], lead: str | None,
             nfools: int) -> tuple[int, frozenset[int]]:
    # F7, F8 by the engine's own trick kernel: the winner and the Fools' seats.
    seats = np.zeros((1, 8), dtype=np.uint8)
    cards = np.zeros((1, 8), dtype=np.uint8)
    for i, (seat, card) in enumerate(trick):
        seats[0, i] = seat
        cards[0, i] = card
    leads = np.array([-1 if lead is None else COLOURS.index(lead)], dtype=np.int8)
    lengths = np.array([len(trick)], dtype=np.uint8)
    winners, fools = _trick_kernel(seats, cards, leads, lengths, nfools)
    mask = int(fools[0])
    return int(winners[0]), frozenset(p for p in range(8) if mask >> p & 1)


def reveals(before: FoolSnapshot, after: FoolSnapshot) -> bool:
    """Return whether the card showed hidden cards: it ended a round and a new deal began.

    Every other card is played face up from its player's own hand.

    >>> import boardcore
    >>> state = boardcore.make("fool", players=4).new_state(seed=7)
    >>> state.apply(state.legal_actions()[0])
    >>> state.can_undo()
    True
    """
    return sum(map(len, after.hands)) > sum(map(len, before.hands))
