"""The compiled Just4Fun engine against the pure-Python reference, state by state."""

from __future__ import annotations

import pytest

import boardcore
from boardcore.simulate import derive_seed
from tests.reference import just4fun as ref
from tests.reference._rng import Rng

GAMES_DEFAULT = 2000
GAMES_SLOW = 20000

CONFIGS = [
    (2, {}),
    (3, {}),
    (4, {}),
    (3, {"returned_on_lock": True}),
    (2, {"layout": "random", "start_player": 1}),
    (4, {"layout": "random", "returned_on_lock": True, "start_player": 3}),
]


def _reference(players: int, options: dict[str, object], seed: int) -> ref.Just4FunRef:
    return ref.Just4FunRef(players, seed, **options)  # type: ignore[arg-type]


def _compare(state: object, model: ref.Just4FunRef) -> None:
    d = state.to_dict()  # type: ignore[attr-defined]
    for key, value in model.snapshot().items():
        assert d[key] == value, key
    assert list(state.scores()) == model.scores()  # type: ignore[attr-defined]


def play_side_by_side(players: int, options: dict[str, object], index: int) -> int:
    """Play game ``index`` of a batch in both, comparing everything after every action."""
    game = boardcore.make("just4fun", players=players, **options)
    seed = derive_seed(12345, 0, index)
    state = game.new_state(seed=seed)
    model = _reference(players, options, seed)
    chooser = Rng(derive_seed(12345, 1, index))
    _compare(state, model)
    steps = 0
    while not state.is_over():
        legal = state.legal_actions()
        assert legal == model.legal_actions()
        action = legal[chooser.bounded(len(legal))]
        state.apply(action)
        model.apply(action)
        _compare(state, model)
        steps += 1
    assert model.end is not None
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == model.winners()
    assert state.legal_actions() == model.legal_actions() == []
    return steps


@pytest.mark.parametrize("players, options", CONFIGS)
def test_engine_matches_reference(players: int, options: dict[str, object]) -> None:
    per_config = GAMES_DEFAULT // len(CONFIGS) + 1
    for i in range(per_config):
        play_side_by_side(players, options, i)


@pytest.mark.slow
@pytest.mark.parametrize("players, options", CONFIGS)
def test_engine_matches_reference_many(players: int, options: dict[str, object]) -> None:
    for i in range(GAMES_SLOW // len(CONFIGS)):
        play_side_by_side(players, options, 10_000 + i)


@pytest.mark.parametrize("players, options", CONFIGS[:3])
def test_simulate_matches_reference(players: int, options: dict[str, object]) -> None:
    """simulate()'s compiled random player makes the reference's choices."""
    game = boardcore.make("just4fun", players=players, **options)
    result = boardcore.simulate(game, 40, seed=12345)
    for i in range(40):
        model = _reference(players, options, derive_seed(12345, 0, i))
        chooser = Rng(derive_seed(12345, 1, i))
        steps = 0
        while model.end is None:
            legal = model.legal_actions()
            model.apply(legal[chooser.bounded(len(legal))])
            steps += 1
        assert result.lengths[i] == steps
        assert list(result.scores[i]) == model.scores()
        assert {int(p) for p in result.winners[i].nonzero()[0]} == model.winners()
        end = game.end_reasons[int(result.stats["end"][i])]
        assert end == model.end
