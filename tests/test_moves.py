"""Explained moves: ``explain(action)`` before a move is ``last_move`` after it."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

import boardcore
from boardcore import IllegalActionError
from tests.conftest import player_counts, random_walk


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_explain_is_last_move(name: str) -> None:
    for players in player_counts(name):
        state = boardcore.make(name, players=players).new_state(seed=players)
        assert state.last_move is None
        rng = random.Random(players)
        for step, _a in enumerate(random_walk(state.copy(), rng)):
            if step > 40 or state.is_over():
                break
            action = rng.choice(state.legal_actions())
            before = state.to_dict()
            told = state.explain(action)
            assert state.to_dict() == before        # explaining changes nothing
            state.apply(action)
            assert _agrees(told, state.last_move)
            assert told.player in range(players)


def _agrees(told: Any, last: Any) -> bool:
    """Whether ``explain`` before a move said what ``last_move`` says after it.

    It may leave out (``None``) what the mover could not know before it: a Fool round's
    end (its ``gains`` and ``game_over``).
    """
    def known(name: str, a: object, b: object) -> bool:
        if name == "gains":
            return all(x is None or x == y for x, y in zip(a, b))  # type: ignore[call-overload]
        return a == b or (name == "game_over" and a is None)

    return type(told) is type(last) and all(
        known(f.name, getattr(told, f.name), getattr(last, f.name))
        for f in dataclasses.fields(told))


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_explain_refuses_illegal_actions(name: str) -> None:
    state = boardcore.make(name, players=player_counts(name)[0]).new_state(seed=1)
    legal = set(state.legal_actions())
    illegal = next(a for a in range(state.game.num_actions) if a not in legal)
    with pytest.raises(IllegalActionError):
        state.explain(illegal)
    with pytest.raises(TypeError):
        state.explain("x")  # type: ignore[arg-type]
