"""The four games inside OpenSpiel (``pip install "boardcore[openspiel]"``).

Importing this package registers ``boardcore_just4fun``, ``boardcore_three_or_more``,
``boardcore_fool`` and ``boardcore_rummikub_junior`` with ``pyspiel``: ``players`` and
every game option are game parameters.  A game starts with eight chance nodes that draw
its 64-bit seed, a byte each (``deal_actions(seed)`` deals a given one).
``bot(game, "ismcts:1000", player)`` makes a boardcore agent an OpenSpiel bot.
``import boardcore`` never imports this package, nor ``pyspiel``.  The guide is
``docs/openspiel.md``.

>>> import pyspiel
>>> import boardcore.openspiel
>>> game = pyspiel.load_game("boardcore_fool", {"players": 5})
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(5, 83, 256)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 256)
>>> for byte in boardcore.openspiel.deal_actions(7):   # deal boardcore's game of seed 7
...     state.apply_action(byte)
>>> state.current_player(), state.action_to_string(state.legal_actions()[0])
(0, 'G9')
>>> state.boardcore_state.view(0) == boardcore.make("fool", players=5).new_state(7).view(0)
True
>>> bots = [boardcore.openspiel.bot(game, "random", p, seed=p) for p in range(5)]
>>> sum(pyspiel.evaluate_bots(state, bots, 1))
1.0
"""

from __future__ import annotations

try:
    import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError("boardcore.openspiel needs OpenSpiel: pip install 'boardcore[openspiel]' "
                      f"({exc})") from None

from boardcore.openspiel._bot import AgentBot, bot
from boardcore.openspiel._game import (
    GAME_CLASSES,
    GAME_NAMES,
    BoardcoreGame,
    BoardcoreState,
    deal_actions,
    game_type,
)
from boardcore.openspiel._observer import Observer

__all__ = ["GAME_CLASSES", "GAME_NAMES", "AgentBot", "BoardcoreGame", "BoardcoreState",
           "Observer", "bot", "deal_actions", "register"]


def register() -> None:
    """Register every game with ``pyspiel`` (done on import; a second call does nothing)."""
    known = set(pyspiel.registered_names())
    for name, short_name in GAME_NAMES.items():
        if short_name not in known:
            pyspiel.register_game(game_type(name), GAME_CLASSES[name])


register()
