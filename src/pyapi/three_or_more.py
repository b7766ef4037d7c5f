"""3 Or More: lay cards of three coloured squares into a 12 x 12 grid, score runs of 3+.

Rules: ``boardcore rules three_or_more``; details in ``docs/games/three_or_more.md``.

>>> import boardcore
>>> game = boardcore.make("three_or_more", players=2)
>>> state = game.new_state(seed=7)
>>> [state.action_to_str(a) for a in state.legal_actions()][:2]
['BBG@left', 'BBB@left']
>>> state.apply(state.parse_action("BBG@left"))
>>> state.current_player, state.scores()
(1, (0, 0))
>>> for _ in range(7):
...     state.apply(state.legal_actions()[-1])
>>> print(state)
3 Or More, 2 players, 9 of 48 cards laid, seat 0 to play; scores 9 6; stock 33
      90123456789
   9  *BBGYGYRBB*
  10  *BBYYBYBBY*
  11  *GRYYGYBBY*
last: seat 1 laid BYY@right for 6 (rising 3 = 6)
hands: 0: GGY BGG BBY | 1: RRY RBR BGB
next card goes at * (left, right)
>>> state.last_breakdown().lines
(ScoredLine(direction='rising', squares=((9, 18), (10, 17), (11, 16)), points=6),)
>>> state.rollout(seed=1)
Outcome(scores=(92, 85), winners=frozenset({0}))
"""

from __future__ import annotations

from itertools import combinations
from types import MappingProxyType
from typing import ClassVar

from boardcore._engine import three_or_more as _engine
from boardcore._engine._state import EngineConfig
from boardcore._engine.three_or_more import ThreeOrMoreState, card_code
from boardcore.errors import ConfigurationError
from boardcore.protocol import Game
from boardcore.values import MoveScore, ScoredLine, ThreeOrMoreView, check_int

__all__ = [
    "COLOURS",
    "DEFAULT_DECK",
    "MoveScore",
    "ScoredLine",
    "ThreeOrMore",
    "ThreeOrMoreState",
    "ThreeOrMoreView",
]

#: The four colours, in card-code order.
COLOURS = "RGBY"


def _default_deck() -> tuple[str, ...]:
    # T2 [decided]: XXX three times per colour; per colour pair {X, Z} one each of
    # XXZ XZX ZXX XZZ ZXZ ZZX.
    deck = [c * 3 for c in COLOURS for _ in range(3)]
    for x, z in combinations(COLOURS, 2):
        deck += [x + x + z, x + z + x, z + x + x, x + z + z, z + x + z, z + z + x]
    return tuple(deck)


#: The default 48-card deck (T2), in a fixed order before shuffling.
DEFAULT_DECK: tuple[str, ...] = _default_deck()


class ThreeOrMore(Game[ThreeOrMoreState]):
    """The 3 Or More configuration: 2-4 players and the options below.

    Args:
        players: 2, 3 or 4.
        deck: ``None`` for the default deck (T2), or 48 three-letter patterns over
            ``R G B Y`` (top, middle, bottom).
        allow_rotation: ``True`` lets a card be laid upside down (T3).
        start_player: the seat that lays the first card (T1).

    >>> ThreeOrMore(players=3, allow_rotation=True).num_actions
    896
    >>> ThreeOrMore(players=2, deck=["RRR"] * 47 + ["RRX"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    boardcore.errors.ConfigurationError: deck card 47 is 'RRX': 'X' is not a colour; ...
    """

    name: ClassVar[str] = "three_or_more"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    rules_version: ClassVar[int] = 1
    option_defaults = MappingProxyType(
        {"deck": None, "allow_rotation": False, "start_player": 0}
    )
    stat_names: ClassVar[tuple[str, ...]] = ("lines", "best_move")
    state_class = ThreeOrMoreState

    __slots__ = ()

    def _normalize_options(self, options: dict[str, object]) -> dict[str, object]:
        deck = options["deck"]
        if deck is not None:
            if not isinstance(deck, (list, tuple)):
                raise ConfigurationError(
                    f"deck must be None or a list of 48 card patterns, not {deck!r}"
                )
            if len(deck) != 48:
                raise ConfigurationError(f"deck must hold 48 cards, not {len(deck)}")
            for i, card in enumerate(deck):
                if not isinstance(card, str) or len(card) != 3:
                    raise ConfigurationError(
                        f"deck card {i} is {card!r}: a card is 3 letters of R, G, B, Y "
                        f"(top, middle, bottom)"
                    )
                for colour in card:
                    if colour not in COLOURS:
                        raise ConfigurationError(
                            f"deck card {i} is {card!r}: {colour!r} is not a colour; "
                            f"colours are R, G, B, Y"
                        )
            deck = tuple(deck)
        rotation = options["allow_rotation"]
        if not isinstance(rotation, bool):
            raise ConfigurationError(f"allow_rotation must be True or False, not {rotation!r}")
        try:
            start = check_int(options["start_player"], "start_player")
        except TypeError as exc:
            raise ConfigurationError(str(exc)) from None
        if not 0 <= start < self.num_players:
            raise ConfigurationError(
                f"start_player must be a seat in range({self.num_players}), not {start!r}"
            )
        return {"deck": deck, "allow_rotation": rotation, "start_player": start}

    def _configure(self) -> EngineConfig:
        start, rotation, deck = (self.options[k] for k in ("start_player", "allow_rotation", "deck"))
        assert isinstance(start, int) and isinstance(rotation, bool)
        assert deck is None or isinstance(deck, tuple)
        codes = [card_code(card) for card in deck or DEFAULT_DECK]
        return _engine.config(self.num_players, start, rotation, codes)
