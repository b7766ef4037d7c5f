"""Gymnasium and PettingZoo adapters (``pip install "boardcore[rl]"``).

``boardcore`` itself never imports this package, and this package imports gymnasium and
pettingzoo only when an environment is made, so the core works without them.

* ``pettingzoo_env(game, players=…, **options)``: a PettingZoo AEC environment, every
  seat an agent (``player_0 …``), observations ``Dict(observation, action_mask)``.
* ``gymnasium.make("boardcore/Just4Fun-v1", players=2, opponents="random")``: one seat
  learns, the others are played by agents (``"random"``, ``"greedy"``, ``"flat:N"``,
  ``"ismcts:N"``); the ids are registered when this package is imported.

>>> import boardcore.envs
>>> boardcore.envs.GYMNASIUM_IDS["fool"]
'boardcore/Fool-v1'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardcore._registry import CLASSES
from boardcore.envs._common import require, resolve_game

if TYPE_CHECKING:
    from boardcore.envs.aec import BoardcoreAECEnv

__all__ = ["GYMNASIUM_IDS", "pettingzoo_env", "register_gymnasium"]

#: The Gymnasium id of every game's single-agent environment (``Game.gymnasium_id``).
GYMNASIUM_IDS: dict[str, str] = {cls.name: cls.gymnasium_id for cls in CLASSES}


def pettingzoo_env(game: object, *, players: int | None = None,
                   render_mode: str | None = None, **options: object) -> BoardcoreAECEnv:
    """Return a PettingZoo AEC environment of ``game``.

    Args:
        game: a name from ``boardcore.GAMES`` (or a configuration from
            ``boardcore.make``, then without ``players`` and options).
        players: the number of seats (default: the game's smallest).
        render_mode: ``None`` or ``"ansi"``.
        **options: the game's options (``docs/games/<game>.md``).

    Raises:
        ImportError: pettingzoo is not installed.
    """
    require("pettingzoo")
    from boardcore.envs.aec import BoardcoreAECEnv

    return BoardcoreAECEnv(resolve_game(game, players, options), render_mode)


def register_gymnasium() -> bool:
    """Register ``GYMNASIUM_IDS`` with Gymnasium (done on import); False without it."""
    try:
        import gymnasium
    except ImportError:
        return False
    for name, env_id in GYMNASIUM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="boardcore.envs.single:BoardcoreEnv",
                               kwargs={"game": name})
    return True


def __getattr__(name: str) -> Any:
    if name == "BoardcoreEnv":
        from boardcore.envs.single import BoardcoreEnv
        return BoardcoreEnv
    if name == "BoardcoreAECEnv":
        from boardcore.envs.aec import BoardcoreAECEnv
        return BoardcoreAECEnv
    raise AttributeError(f"module 'boardcore.envs' has no attribute {name!r}")


register_gymnasium()
