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

from boardcore._engine import three_or_more as _engine
from boardcore._engine._state import EngineConfig
from boardcore._engine.three_or_more import ThreeOrMoreState
from boardcore.errors import ConfigurationError
from boardcore.protocol import Game
from boardcore.three_or_more import moves, picture, positions
from boardcore.three_or_more.moves import COLOURS, card_code
from boardcore.three_or_more.values import (
    MoveScore,
    ScoredLine,
    ThreeOrMoreDocument,
    ThreeOrMoreMove,
    ThreeOrMoreMoveJSON,
    ThreeOrMorePosition,
    ThreeOrMoreSnapshot,
    ThreeOrMoreView,
    ThreeOrMoreViewJSON,
)
from boardcore.values import quote

__all__ = [
    "COLOURS",
    "DEFAULT_DECK",
    "MoveScore",
    "ScoredLine",
    "ThreeOrMore",
    "ThreeOrMoreDocument",
    "ThreeOrMoreMove",
    "ThreeOrMoreMoveJSON",
    "ThreeOrMorePosition",
    "ThreeOrMoreSnapshot",
    "ThreeOrMoreState",
    "ThreeOrMoreView",
    "ThreeOrMoreViewJSON",
]


def _default_deck() -> tuple[str, ...]:
    # T2 [decided]: XXX three times per colour; per colour pair {X, Z} one each of
    # XXZ XZX ZXX XZZ ZXZ ZZX.
    deck = [c * 3 for c in COLOURS for _ in range(3)]
    for x, z in combinations(COLOURS, 2):
        deck += [x + x + z, x + z + x, z + x + x, x + z + z, z + x + z, z + z + x]
    return tuple(deck)


#: The default 48-card deck (T2), in a fixed order before shuffling.
DEFAULT_DECK: tuple[str, ...] = _default_deck()


class ThreeOrMore(Game[ThreeOrMoreState], positions=positions, moves=moves, picture=picture):
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

    name = "three_or_more"
    title = "3 Or More"
    min_players = 2
    max_players = 4
    rules_version = 1
    option_defaults = MappingProxyType(
        {"deck": None, "allow_rotation": False, "start_player": 0}
    )
    stat_names = ("lines", "best_move")
    words = MappingProxyType({
        "lines": "lines scored in the game",
        "best_move": "the most points one card scored in the game",
    })
    gymnasium_id = "boardcore/ThreeOrMore-v1"
    state_class = ThreeOrMoreState
    snapshot_class = ThreeOrMoreSnapshot

    __slots__ = ()

    def _normalize_options(self, options: dict[str, object]) -> dict[str, object]:
        deck = options["deck"]
        if deck is not None:
            if not isinstance(deck, (list, tuple)):
                raise ConfigurationError(
                    f"deck must be None or a list of 48 card patterns, not {quote(deck)}"
                )
            if len(deck) != 48:
                raise ConfigurationError(f"deck must hold 48 cards, not {len(deck)}")
            for i, card in enumerate(deck):
                if not isinstance(card, str) or len(card) != 3:
                    raise ConfigurationError(
                        f"deck card {i} is {quote(card)}: a card is 3 letters of R, G, B, Y "
                        f"(top, middle, bottom)"
                    )
                for colour in card:
                    if colour not in COLOURS:
                        raise ConfigurationError(
                            f"deck card {i} is {quote(card)}: {quote(colour)} is not a colour; "
                            f"colours are R, G, B, Y"
                        )
            deck = tuple(deck)
        rotation = options["allow_rotation"]
        if not isinstance(rotation, bool):
            raise ConfigurationError(f"allow_rotation must be True or False, not {quote(rotation)}")
        start = self._seat_option(options, "start_player")
        return {"deck": deck, "allow_rotation": rotation, "start_player": start}

    def _configure(self) -> EngineConfig:
        start, rotation = self.options["start_player"], self.options["allow_rotation"]
        assert isinstance(start, int) and isinstance(rotation, bool)
        return _engine.config(self.num_players, start, rotation, self._deck())

    def _deck(self) -> list[int]:
        # The deck's 48 card codes, in their order before the shuffle.
        deck = self.options["deck"]
        assert deck is None or isinstance(deck, tuple)
        return [card_code(card) for card in deck or DEFAULT_DECK]

    @property
    def observation_planes(self) -> tuple[tuple[str, int], ...]:
        """The planes of ``ThreeOrMoreState.observation`` (docs/games/three_or_more.md)."""
        n = self.num_players
        return (("table", 4 * 144), ("next_slot", 48), ("phase", 3), ("hand", 36),
                ("unseen", 64), ("hand_sizes", n), ("scores", n), ("to_act", n),
                ("stock_size", 1))
