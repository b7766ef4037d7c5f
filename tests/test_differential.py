"""Every compiled engine against its pure-Python reference, state by state.

Each game's reference (``tests/reference/<game>.py``, the protocol of
``tests/reference/__init__.py``) plays the same seeded random games beside the engine:
after every action the legal actions, the seat to act, the whole ``to_dict`` (past its
header: every hand, pile, score, the generator's words and the history) and the outcome
must agree.  The random player is the house one, ``legal[rng.bounded(len(legal))]`` from
its own generator, so ``simulate`` (and its statistics) is checked against the
references too.  ``pytest -m slow`` plays ten times more.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import boardcore
from boardcore._registry import GAME_CLASSES
from boardcore.simulate import derive_seed
from tests.reference import Reference
from tests.reference._rng import Rng

HEADER = ("game", "rules_version", "players", "options", "seed")

Config = Callable[[int], tuple[int, dict[str, Any]]]


def _cycle(*configs: tuple[int, dict[str, Any]]) -> Config:
    """Game ``i`` of a batch plays ``configs[i % len(configs)]``."""
    return lambda i: configs[i % len(configs)]


def _three_or_more(i: int) -> tuple[int, dict[str, Any]]:
    # 2-4 players, rotation, the seat that starts, now and then a deck of random cards.
    players = 2 + i % 3
    options: dict[str, Any] = {"allow_rotation": i % 4 == 1, "start_player": (i // 3) % players}
    if i % 7 == 3:
        rng = Rng(i)
        options["deck"] = ["".join("RGBY"[rng.bounded(4)] for _ in range(3)) for _ in range(48)]
    return players, options


# Fool decks other than F2's (highest green, red, yellow, blue, wild 1s), per player count.
ODD_DECKS = {4: (9, 9, 9, 9, 4), 5: (12, 12, 12, 13, 5), 6: (8, 8, 8, 8, 2),
             7: (9, 9, 9, 9, 3), 8: (5, 5, 5, 5, 0)}


def _fool(i: int) -> tuple[int, dict[str, Any]]:
    players = 4 + i % 5
    options: dict[str, Any] = {}
    if i % 7 == 3:
        options["start_player"] = i % players
    if i % 11 == 5:
        options["deck"] = ODD_DECKS[players]
    return players, options


@dataclass(frozen=True)
class Batch:
    """A game's seeded games: the batch seed, how many, and the configuration of each."""

    seed: int
    games: int
    slow: int
    config: Config


BATCHES = {
    "just4fun": Batch(12345, 2004, 20000, _cycle(
        (2, {}), (3, {}), (4, {}), (3, {"returned_on_lock": True}),
        (2, {"layout": "random", "start_player": 1}),
        (4, {"layout": "random", "returned_on_lock": True, "start_player": 3}))),
    "three_or_more": Batch(2024, 2000, 20000, _three_or_more),
    "fool": Batch(20261129, 2000, 18000, _fool),
    "rummikub_junior": Batch(4242, 2004, 30000, _cycle(
        (2, {}), (3, {}), (4, {}), (2, {"start_player": 1}), (3, {"start_player": 2}),
        (4, {"start_player": 3}))),
}
assert set(BATCHES) == set(boardcore.GAMES)
BLOCKS = 4


def reference(name: str, players: int, seed: int, options: dict[str, Any]) -> Reference:
    """Game ``name``'s reference, dealt from ``seed``."""
    module = importlib.import_module(f"tests.reference.{name}")
    model: Reference = module.Reference(players, seed, **options)
    return model


def _agree(state: Any, model: Reference, where: object) -> None:
    assert state.legal_actions() == model.legal_actions(), where
    assert state.current_player == model.current_player, where
    doc = state.to_dict()
    assert {k: v for k, v in doc.items() if k not in HEADER} == model.to_dict(), where
    outcome = state.outcome()
    assert (None if outcome is None else (outcome.scores, outcome.winners)) == model.outcome()


def play_side_by_side(name: str, players: int, options: dict[str, Any], seed: int,
                      player_seed: int) -> int:
    """Play one seeded game in the engine and its reference; return its length."""
    state = boardcore.make(name, players=players, **options).new_state(seed=seed)
    model = reference(name, players, seed, options)
    player = Rng(player_seed)
    steps = 0
    while True:
        _agree(state, model, (name, seed, steps))
        legal = state.legal_actions()
        if not legal:
            assert state.is_over()
            return steps
        action = legal[player.bounded(len(legal))]
        state.apply(action)
        model.apply(action)
        steps += 1


def _play_batch(name: str, start: int, stop: int) -> None:
    batch = BATCHES[name]
    steps = 0
    for i in range(start, stop):
        players, options = batch.config(i)
        steps += play_side_by_side(name, players, options, derive_seed(batch.seed, 0, i),
                                   derive_seed(batch.seed, 1, i))
    assert steps > 10 * (stop - start)


@pytest.mark.parametrize("block", range(BLOCKS))
@pytest.mark.parametrize("name", boardcore.GAMES)
def test_engine_matches_reference(name: str, block: int) -> None:
    games = BATCHES[name].games
    _play_batch(name, block * games // BLOCKS, (block + 1) * games // BLOCKS)


@pytest.mark.slow
@pytest.mark.parametrize("block", range(BLOCKS))
@pytest.mark.parametrize("name", boardcore.GAMES)
def test_engine_matches_reference_on_many_more_games(name: str, block: int) -> None:
    batch = BATCHES[name]
    first = batch.games + block * batch.slow // BLOCKS
    _play_batch(name, first, batch.games + (block + 1) * batch.slow // BLOCKS)


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_simulate_matches_reference(name: str) -> None:
    """simulate()'s compiled random player makes the reference's choices and counts."""
    cls = GAME_CLASSES[name]
    seed = BATCHES[name].seed
    for players in range(cls.min_players, cls.max_players + 1):
        game = boardcore.make(name, players=players)  # type: ignore[call-overload]
        result = boardcore.simulate(game, 40, seed=seed + players)
        for i in range(result.games):
            model = reference(name, players, derive_seed(seed + players, 0, i), {})
            player = Rng(derive_seed(seed + players, 1, i))
            steps = 0
            while model.current_player is not None:
                legal = model.legal_actions()
                model.apply(legal[player.bounded(len(legal))])
                steps += 1
            outcome = model.outcome()
            assert outcome is not None
            assert result.lengths[i] == steps
            assert tuple(int(x) for x in result.scores[i]) == outcome[0]
            assert set(np.flatnonzero(result.winners[i])) == outcome[1]
            stats = model.stats()
            assert set(stats) == set(game.stat_names)
            for stat, value in stats.items():
                got = int(result.stats[stat][i])
                assert (game.end_reasons[got] if stat == "end" else got) == value, stat


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_rollout_is_a_game_of_simulate(name: str) -> None:
    game = boardcore.make(name, players=GAME_CLASSES[name].min_players)  # type: ignore[call-overload]
    result = boardcore.simulate(game, 20, seed=5)
    for i in range(20):
        state = game.new_state(seed=derive_seed(5, 0, i))
        outcome = state.rollout(derive_seed(5, 1, i))
        assert outcome.scores == tuple(result.scores[i])
        assert len(state.history()) == result.lengths[i]
