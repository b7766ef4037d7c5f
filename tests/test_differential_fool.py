"""Fool: the compiled engine against the pure-Python reference, state by state.

Every step of every seeded random game compares the legal actions, the seat to play, the
whole ``to_dict`` (hands, trick, Fools, round, dealer, scores, +10 counts, history, PRNG
words), the scores and, at the end, the outcome.  The random player is the house one:
``legal[rng.bounded(len(legal))]`` from its own generator, so ``simulate`` is checked
against the reference too.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import boardcore
from boardcore.simulate import derive_seed
from tests.reference import fool as ref
from tests.reference._rng import Rng

BATCH_SEED = 20261129
# Non-default decks (highest green, red, yellow, blue, wild 1s) per player count.
ODD_DECKS = {4: (9, 9, 9, 9, 4), 5: (12, 12, 12, 13, 5), 6: (8, 8, 8, 8, 2),
             7: (9, 9, 9, 9, 3), 8: (5, 5, 5, 5, 0)}


def _config(i: int) -> tuple[int, dict[str, object]]:
    players = 4 + i % 5
    options: dict[str, object] = {}
    if i % 7 == 3:
        options["start_player"] = i % players
    if i % 11 == 5:
        options["deck"] = ODD_DECKS[players]
    return players, options


def _compare_game(i: int) -> int:
    players, options = _config(i)
    game = boardcore.make("fool", players=players, **options)
    seed = derive_seed(BATCH_SEED, 0, i)
    state = game.new_state(seed=seed)
    oracle = ref.FoolRef(players, seed, **options)  # type: ignore[arg-type]
    player = Rng(derive_seed(BATCH_SEED, 1, i))
    steps = 0
    while True:
        legal = state.legal_actions()
        assert legal == oracle.legal_actions(), (i, steps)
        assert state.current_player == oracle.current_player(), (i, steps)
        assert state.to_dict() == oracle.to_dict(), (i, steps)
        assert state.scores() == tuple(oracle.scores), (i, steps)
        assert state.is_over() == oracle.over, (i, steps)
        if not legal:
            break
        action = legal[player.bounded(len(legal))]
        state.apply(action)
        oracle.apply(action)
        steps += 1
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == oracle.winners() and outcome.scores == tuple(oracle.scores)
    return steps


def _check_batch(start: int, stop: int) -> None:
    steps = sum(_compare_game(i) for i in range(start, stop))
    assert steps > 100 * (stop - start)


@pytest.mark.parametrize("block", range(4))
def test_engine_matches_reference_on_2000_seeded_games(block: int) -> None:
    _check_batch(500 * block, 500 * (block + 1))


@pytest.mark.slow
@pytest.mark.parametrize("block", range(4, 40))
def test_engine_matches_reference_on_many_more_games(block: int) -> None:
    _check_batch(500 * block, 500 * (block + 1))


@pytest.mark.parametrize("players", range(4, 9))
def test_simulate_matches_reference_rollouts(players: int) -> None:
    game = boardcore.make("fool", players=players)
    result = boardcore.simulate(game, 60, seed=BATCH_SEED + players)
    ends = {"minus_80": 0, "six_plus_10": 1, "both": 2}
    for i in range(result.games):
        oracle = ref.FoolRef(players, derive_seed(BATCH_SEED + players, 0, i))
        oracle.rollout(derive_seed(BATCH_SEED + players, 1, i))
        assert list(result.scores[i]) == oracle.scores
        assert set(np.flatnonzero(result.winners[i])) == oracle.winners()
        assert result.lengths[i] == len(oracle.history)
        assert result.stats["rounds"][i] == oracle.round
        assert oracle.end_reason is not None
        assert result.stats["end"][i] == ends[oracle.end_reason]
        assert game.end_reasons[result.stats["end"][i]] == oracle.end_reason


def test_reference_replays_the_golden_playthroughs() -> None:
    from tests import golden

    paths = sorted(golden.DATA.glob("fool_playthrough_*.json"))
    assert len(paths) >= 3
    parse = {ref.name(kind): kind for kind in range(len(ref.CARDS))}
    for path in paths:
        doc = json.loads(path.read_text(encoding="utf-8"))
        oracle = ref.FoolRef(doc["players"], doc["seed"], **doc["options"])
        oracle.rollout(doc["player_seed"])
        assert [ref.name(a) for a in oracle.history] == doc["actions"]
        assert oracle.scores == doc["outcome"]["scores"]
        assert sorted(oracle.winners()) == doc["outcome"]["winners"]
        assert oracle.to_dict() == doc["final"]
        replayed = ref.FoolRef(doc["players"], doc["seed"], **doc["options"])
        for text in doc["actions"]:
            replayed.apply(parse[text])
        assert replayed.to_dict() == doc["final"]
