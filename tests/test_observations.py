"""Observations: fixed float32 planes, only what the seat may see, no dead plane."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import boardcore
from boardcore._engine import _search
from tests.conftest import player_counts, random_walk

# Options under which every plane can change (a random board moves Just4Fun's layout).
VARIED: dict[str, dict[str, Any]] = {"just4fun": {"layout": "random"}}


def _games(name: str) -> list[Any]:
    return [boardcore.make(name, players=n, **VARIED.get(name, {})) for n in player_counts(name)]


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_shape_dtype_and_out(name: str) -> None:
    for game in _games(name):
        (size,) = game.observation_shape
        assert sum(n for _, n in game.observation_planes) == size
        state = game.new_state(seed=2)
        obs = state.observation(0)
        assert obs.shape == (size,) and obs.dtype == np.float32
        out = np.full(size, -7.0, dtype=np.float32)
        assert state.observation(0, out=out) is out
        assert np.array_equal(out, obs)
        for bad in (np.zeros(size, np.float64), np.zeros(size + 1, np.float32),
                    np.zeros((size, 2), np.float32)[:, 0], [0.0] * size):
            with pytest.raises(TypeError):
                state.observation(0, out=bad)
        for bad_seat in (-1, game.num_players, None, "0", 1.0):
            with pytest.raises((TypeError, ValueError)):
                state.observation(bad_seat)


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_hidden_information_does_not_show(name: str) -> None:
    """States that differ only in what a seat cannot see give it identical observations."""
    for game in _games(name):
        for i in range(8):
            state = game.new_state(seed=i)
            for _, _a in zip(range(random.Random(i).randrange(40)),
                             random_walk(state, random.Random(i))):
                pass
            for seat in range(game.num_players):
                other = _search.determinize(state, seat, seed=100 + i)
                assert np.array_equal(other.observation(seat), state.observation(seat))


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_no_dead_plane(name: str) -> None:
    """Every plane takes more than one value over seeded games."""
    for game in _games(name):
        rows = []
        for i in range(20):
            state = game.new_state(seed=i)
            rng = random.Random(i)
            rows.append(state.observation(i % game.num_players))
            for _ in random_walk(state, rng):
                rows.append(state.observation(rng.randrange(game.num_players)))
        table = np.array(rows)
        start = 0
        for plane, size in game.observation_planes:
            block = table[:, start:start + size]
            assert (block != block[0]).any(), f"{game!r}: plane {plane} never changes"
            assert np.isfinite(block).all()
            start += size


def _planes(game: Any, obs: np.ndarray) -> dict[str, np.ndarray]:
    """Split an observation into its named planes."""
    out, at = {}, 0
    for plane, size in game.observation_planes:
        out[plane] = obs[at:at + size]
        at += size
    assert at == obs.size
    return out


def test_just4fun_planes_say_what_the_view_says() -> None:
    # The planes decoded by the documented scales equal the observer's view, seats
    # counted from the observer, at every third step of seeded games.
    rng = random.Random(4)
    for n in player_counts("just4fun"):
        game = boardcore.make("just4fun", players=n, layout="random")
        for seed in range(12):
            state = game.new_state(seed=seed)
            step = 0
            while True:
                if step % 3 == 0 or state.is_over:
                    for seat in range(n):
                        view = state.view(seat)
                        planes = _planes(game, state.observation(seat))
                        order = [(seat + r) % n for r in range(n)]
                        assert np.allclose(planes["layout"] * 36, view.layout)
                        locked = [o is not None for o in view.owners]
                        assert planes["locked"].tolist() == locked
                        stones = planes["stones"].reshape(n, 36) * 20
                        assert np.allclose(stones, [view.stones[q] for q in order])
                        hand = np.bincount(view.hand, minlength=20)[1:] / 4
                        discards = np.bincount(view.discard_pile, minlength=20)[1:] / 4
                        assert np.allclose(planes["hand"], hand)
                        assert np.allclose(planes["discard_pile"], discards)
                        assert np.allclose(planes["supplies"] * 20,
                                           [view.supplies[q] for q in order])
                        assert np.allclose(planes["scores"] * 666,
                                           [view.scores[q] for q in order], atol=1e-3)
                        assert planes["to_act"].tolist() == [
                            float(view.current_player == q) for q in order]
                        assert np.isclose(planes["draw_pile_size"][0] * 55,
                                          view.draw_pile_size)
                if state.is_over:
                    break
                state.apply(rng.choice(state.legal_actions()))
                step += 1
