"""What both adapters share: the game they wrap, their spaces, the final rewards.

Nothing here imports gymnasium or pettingzoo at module level: ``boardcore.envs`` is
importable without the ``rl`` extra, and each adapter asks for its library when built.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

import numpy as np

from boardcore._engine import _search
from boardcore.values import quote

if TYPE_CHECKING:
    import gymnasium.spaces

    from boardcore._registry import AnyGame, AnyState

__all__ = ["FLOAT_MAX", "final_rewards", "observation_space", "require", "resolve_game"]

#: The bound of the observation ``Box``: the planes are scaled to about [0, 1] (each
#: game's page), but no game promises a range, so the box admits every finite float32.
FLOAT_MAX = float(np.finfo(np.float32).max)


def require(module: str) -> Any:
    """Import ``module`` of the ``rl`` extra, or say how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(f"{module} is not installed: pip install 'boardcore[rl]' "
                          f"({exc})") from None


def resolve_game(game: object, players: object, options: dict[str, object]) -> AnyGame:
    """Return the configuration ``game`` names (a name, with ``players`` and options).

    A configuration from ``boardcore.make`` is taken as it is (then ``players`` and
    ``options`` must be left out).
    """
    import boardcore
    from boardcore._registry import GAME_CLASSES
    from boardcore.protocol import Game

    if isinstance(game, Game):
        if players is not None or options:
            raise TypeError("players and options belong to boardcore.make: pass either a "
                            "configuration or a game name with its players and options")
        return game  # type: ignore[return-value]
    if not isinstance(game, str):
        raise TypeError(f"game must be a name from boardcore.GAMES or a configuration, "
                        f"not {quote(game)}")
    if players is None:
        players = GAME_CLASSES[game].min_players if game in GAME_CLASSES else 2
    return boardcore.make(game, players=players, **options)  # type: ignore[call-overload,no-any-return]


def observation_space(game: AnyGame) -> gymnasium.spaces.Dict:
    """``Dict(observation=Box(float32), action_mask=Box(int8, 0..1))`` for ``game``."""
    require("gymnasium")
    from gymnasium import spaces
    return spaces.Dict({
        "observation": spaces.Box(-FLOAT_MAX, FLOAT_MAX, game.observation_shape, np.float32),
        "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
    })


def final_rewards(state: AnyState) -> list[float]:
    """Each seat's reward once the game is over: 1 alone, ``1/k`` shared by ``k``, else 0.

    The agents' result and a ``VectorEnv``'s reward: one compiled definition.
    """
    return _search.final_rewards(state)
