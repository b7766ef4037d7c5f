"""Observers: what a seat sees, as OpenSpiel tensors and strings, from boardcore's views.

OpenSpiel asks a Python game for an observer of an ``IIGObservationType`` (``perfect_recall``,
``public_info``, ``private_info``) and reads ``tensor`` and ``dict`` after ``set_from`` and
a string from ``string_from``.  Everything here comes from what the seat may see:

* the **tensor** (private information of the observing seat, public information) is
  boardcore's observation, ``state.observation(player)``, and ``dict`` names its planes
  (``game.observation_planes``); with ``perfect_recall`` it is the same planes.
* the **string** is the seat's view (``state.view(player)``), one field a line, in the
  view's order: the public fields; the seat's ``hand`` when its private information is
  asked for (every seat's hand for ``ALL_PLAYERS``); and with ``perfect_recall`` the
  moves played so far (every move is public in the four games).

Types without private information or without public information have strings only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

from boardcore.errors import ConfigurationError
from boardcore.values import quote

if TYPE_CHECKING:
    from boardcore import AnyGame, AnyState
    from boardcore.openspiel._game import BoardcoreState

__all__ = ["Observer", "observer_for"]

# What a view holds that is the observing seat's own: its seat number and its cards.
PRIVATE_FIELDS = ("player", "hand")


class Observer:
    """An observer of one configuration (``make_observation`` and OpenSpiel's C++ side).

    Args:
        game: the boardcore configuration.
        private: ``"none"``, ``"single"`` (the observing seat's) or ``"all"``.
        public: whether public information is included.
        recall: whether the moves so far are included (``perfect_recall``).
    """

    def __init__(self, game: AnyGame, private: str, public: bool, recall: bool) -> None:
        self.game = game
        self.private = private
        self.public = public
        self.recall = recall
        self.tensor: npt.NDArray[np.float32] | None = None
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        if private == "single" and public:
            self.tensor = np.zeros(game.observation_shape, np.float32)
            offset = 0
            for name, size in game.observation_planes:
                self.dict[name] = self.tensor[offset:offset + size]
                offset += size

    def set_from(self, state: BoardcoreState, player: int) -> None:
        """Write what ``player`` sees of ``state`` into ``tensor`` (zeros before the deal)."""
        if self.tensor is None:
            return
        position = _position(state, player, self.game)
        if position is None:
            self.tensor.fill(0)
        else:
            position.observation(player, out=self.tensor)

    def string_from(self, state: BoardcoreState, player: int) -> str:
        """What ``player`` sees of ``state``, one field a line."""
        position = _position(state, player, self.game)
        lines = [f"seat: {player}"] if self.private == "single" else []
        if position is None:
            return "\n".join([*lines, "before the deal"])
        view = position.view(player)
        for field in fields(view):
            name = field.name
            if name in PRIVATE_FIELDS:
                if name == "hand" and self.private == "single":
                    lines.append(f"hand: {_text(view.hand)}")
                elif name == "hand" and self.private == "all":
                    lines.extend(f"hand {p}: {_text(position.view(p).hand)}"
                                 for p in range(self.game.num_players))
            elif self.public:
                lines.append(f"{name.replace('_', ' ')}: {_text(getattr(view, name))}")
        if self.recall and self.public:
            lines.append(f"moves: {' '.join(map(str, state.moves())) or '-'}")
        return "\n".join(lines)


def _position(state: object, player: object, game: AnyGame) -> AnyState | None:
    from boardcore.openspiel._game import BoardcoreState

    if not isinstance(state, BoardcoreState):
        raise TypeError(f"a boardcore observer reads a boardcore_* state, not {quote(state)}")
    if isinstance(player, bool) or not isinstance(player, int) or not (
            0 <= player < game.num_players):
        raise ConfigurationError(f"player {quote(player)} is not a seat of this game")
    return state.boardcore_state


def _text(value: object) -> str:
    """A view field as text: sequences by spaces (inner ones by commas), ``-`` for none."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, frozenset):
        value = sorted(value)
    if isinstance(value, (tuple, list)):
        items = [",".join(map(_text, v)) if isinstance(v, (tuple, list)) else _text(v)
                 for v in value]
        # Items written with spaces (Rummikub Junior's runs) are set apart by bars.
        return (" | " if any(" " in item for item in items) else " ").join(items) or "-"
    return str(value)


def observer_for(game: AnyGame, iig_obs_type: object = None,
                 params: Mapping[str, object] | None = None) -> Observer:
    """Return the observer of ``iig_obs_type`` (``None``: the default observation).

    Raises:
        ConfigurationError: ``params`` is not empty (no observer takes parameters).
    """
    if params:
        raise ConfigurationError(
            f"boardcore observers take no parameters, not {quote(dict(params))}")
    if iig_obs_type is None:
        return Observer(game, "single", True, False)
    private = {
        pyspiel.PrivateInfoType.NONE: "none",
        pyspiel.PrivateInfoType.SINGLE_PLAYER: "single",
        pyspiel.PrivateInfoType.ALL_PLAYERS: "all",
    }[iig_obs_type.private_info]  # type: ignore[attr-defined]
    return Observer(game, private, bool(iig_obs_type.public_info),  # type: ignore[attr-defined]
                    bool(iig_obs_type.perfect_recall))  # type: ignore[attr-defined]
