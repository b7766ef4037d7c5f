"""Shared fixtures: the tests run against the *installed* boardcore, never the source tree."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import boardcore


def player_counts(name: str) -> range:
    """Every legal player count of game ``name``."""
    cls = type(boardcore.make(name, players=_any_count(name)))
    return range(cls.min_players, cls.max_players + 1)


def _any_count(name: str) -> int:
    for n in range(1, 10):
        try:
            boardcore.make(name, players=n)
            return n
        except ValueError:
            continue
    raise AssertionError(f"no player count works for {name}")


def random_walk(state: Any, rng: random.Random, limit: int = 10_000) -> Iterator[int]:
    """Apply random legal actions to ``state`` until it ends, yielding each action first."""
    for _ in range(limit):
        if state.is_over():
            return
        action = rng.choice(state.legal_actions())
        yield action
        state.apply(action)
    raise AssertionError("game did not end")


HEADER = ("game", "rules_version", "players", "options", "seed")


def set_up(game: Any, doc: dict[str, Any]) -> Any:
    """Return the position ``doc``'s fields draw, as a set-up position of ``game``.

    ``doc`` is a ``to_dict`` document edited by a test: its position fields become the
    ``setup`` of a new document with no history.
    """
    fields = {k: v for k, v in doc.items() if k not in (*HEADER, "history", "setup")}
    return game.state_from_dict({**{k: doc[k] for k in HEADER}, "setup": fields, "history": []})


@pytest.fixture(params=boardcore.GAMES)
def game_name(request: pytest.FixtureRequest) -> str:
    return str(request.param)
