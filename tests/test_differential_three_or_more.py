"""The compiled 3 Or More engine against the pure-Python reference, state by state."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import boardcore
from boardcore.simulate import derive_seed
from tests.reference import three_or_more as ref
from tests.reference._rng import Rng

HEADER = ("game", "rules_version", "players", "options", "seed")


def _config(i: int) -> dict[str, Any]:
    """A spread of configurations: 2-4 players, rotation, start seat, a custom deck."""
    players = 2 + i % 3
    options: dict[str, Any] = {
        "allow_rotation": i % 4 == 1,
        "start_player": (i // 3) % players,
    }
    if i % 7 == 3:
        rng = Rng(i)
        options["deck"] = ["".join("RGBY"[rng.bounded(4)] for _ in range(3)) for _ in range(48)]
    return {"players": players, **options}


def _play_side_by_side(i: int, config: dict[str, Any] | None = None) -> None:
    config = config or _config(i)
    game = boardcore.make("three_or_more", **config)
    seed = derive_seed(2024, 0, i)
    state = game.new_state(seed=seed)
    model = ref.State(seed=seed, **config)
    player = Rng(derive_seed(2024, 1, i))
    while True:
        legal = state.legal_actions()
        assert legal == model.legal_actions()
        doc = state.to_dict()
        assert {k: v for k, v in doc.items() if k not in HEADER} == model.fields()
        assert state.scores() == tuple(model.scores)
        out = state.outcome()
        expected = model.outcome()
        assert (None if out is None else (out.scores, out.winners)) == expected
        if not legal:
            assert state.is_over() and state.current_player is None
            break
        assert state.current_player == model.current
        action = legal[player.bounded(len(legal))]
        assert state.action_to_str(action) == model.action_to_str(action)
        state.apply(action)
        model.apply(action)
        last = state.last_breakdown()
        assert last is not None and model.last is not None
        assert last.points == model.last["points"]
        assert [(ln.direction, [list(sq) for sq in ln.squares], ln.points)
                for ln in last.lines] == [
            (ln["direction"], ln["squares"], ln["points"]) for ln in model.last["lines"]]


def test_differential_2000_games_state_by_state() -> None:
    for i in range(2000):
        _play_side_by_side(i)


def test_differential_single_colour_decks_longest_lines() -> None:
    # Every square red (or nearly): lines of 12 in every direction, the highest scores.
    for i in range(30):
        deck = ["RRR"] * 48 if i % 2 else ["RRR"] * 40 + ["RGR", "GRG"] * 4
        _play_side_by_side(i, {"players": 2 + i % 3, "deck": deck,
                               "allow_rotation": i % 3 == 0})


@pytest.mark.slow
def test_differential_20000_games_state_by_state() -> None:
    for i in range(2000, 22000):
        _play_side_by_side(i)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulate_matches_reference(players: int) -> None:
    game = boardcore.make("three_or_more", players=players, allow_rotation=players == 3)
    result = boardcore.simulate(game, 60, seed=99)
    for i in range(60):
        model = ref.State(players, derive_seed(99, 0, i), allow_rotation=players == 3)
        player = Rng(derive_seed(99, 1, i))
        steps = lines = best = 0
        while model.current is not None:
            legal = model.legal_actions()
            model.apply(legal[player.bounded(len(legal))])
            steps += 1
            assert model.last is not None
            lines += len(model.last["lines"])
            best = max(best, model.last["points"])
        outcome = model.outcome()
        assert outcome is not None
        assert tuple(result.scores[i]) == outcome[0]
        assert set(np.flatnonzero(result.winners[i])) == outcome[1]
        assert result.lengths[i] == steps == 47
        assert result.stats["lines"][i] == lines
        assert result.stats["best_move"][i] == best


def test_rollout_matches_simulate() -> None:
    game = boardcore.make("three_or_more", players=3)
    result = boardcore.simulate(game, 20, seed=5)
    for i in range(20):
        state = game.new_state(seed=derive_seed(5, 0, i))
        outcome = state.rollout(derive_seed(5, 1, i))
        assert outcome.scores == tuple(result.scores[i])
        assert len(state.history()) == result.lengths[i]
