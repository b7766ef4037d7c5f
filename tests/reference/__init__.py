"""The games' references: slow, obviously correct transcriptions of the rules pages.

Each ``tests/reference/<game>.py`` names its game's reference class ``Reference``, made as
``Reference(players, seed, **options)`` (the game's options as ``boardcore.make`` takes
them) and meeting the protocol below; ``tests/test_differential.py`` drives it beside the
compiled engine, action by action, on seeded random games.
"""

from __future__ import annotations

from typing import Any, Protocol


class Reference(Protocol):
    """What every game's reference gives: the engine's answers, computed plainly."""

    @property
    def current_player(self) -> int | None:
        """The seat to act, ``None`` once the game is over."""

    def legal_actions(self) -> list[int]:
        """The legal actions, ascending, in the engine's encoding (empty once over)."""

    def apply(self, action: int) -> None:
        """Apply a legal action."""

    def to_dict(self) -> dict[str, Any]:
        """The engine's ``to_dict()`` after its header: the game's fields, then history."""

    def outcome(self) -> tuple[tuple[int, ...], frozenset[int]] | None:
        """``None`` until over, then every seat's score and the winning seats."""

    def stats(self) -> dict[str, int | str]:
        """Once over: ``simulate``'s statistics by name (``"end"``: the end's label)."""
