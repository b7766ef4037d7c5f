"""boardcore.simulate: seeded batches in compiled code, independent of workers."""

from __future__ import annotations

import io

import numpy as np
import pytest

import boardcore
from tests.conftest import player_counts


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_shapes_and_dtypes(name: str) -> None:
    for players in player_counts(name):
        game = boardcore.make(name, players=players)
        result = boardcore.simulate(game, 50, seed=3)
        assert result.games == 50 and result.game == game and result.seed == 3
        assert result.scores.shape == (50, players) and result.scores.dtype == np.int64
        assert result.winners.shape == (50, players) and result.winners.dtype == np.bool_
        assert result.lengths.shape == (50,) and (result.lengths > 0).all()
        assert result.winners.any(axis=1).all(), "every game has a winner"
        assert set(result.stats) == set(game.stat_names)
        if "end" in result.stats:
            ends = result.stats["end"]
            assert ((ends >= 0) & (ends < len(game.end_reasons))).all()


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_same_seed_same_result_whatever_the_workers(name: str) -> None:
    game = boardcore.make(name, players=player_counts(name)[-1])
    n = 9000  # more than two chunks, so the workers really split the batch
    one = boardcore.simulate(game, n, seed=42)
    two = boardcore.simulate(game, n, seed=42, workers=2)
    three = boardcore.simulate(game, n, seed=42, workers=3)
    for other in (two, three):
        assert np.array_equal(one.scores, other.scores)
        assert np.array_equal(one.winners, other.winners)
        assert np.array_equal(one.lengths, other.lengths)
        for key in one.stats:
            assert np.array_equal(one.stats[key], other.stats[key])
    different = boardcore.simulate(game, n, seed=43)
    assert not np.array_equal(one.scores, different.scores)


def test_progress_bar_and_chunk_callback() -> None:
    game = boardcore.make("just4fun", players=2)
    out = io.StringIO()
    seen: list[int] = []
    boardcore.simulate(game, 9000, seed=1, progress=out, on_chunk=seen.append)
    assert seen == [4096, 8192, 9000]
    text = out.getvalue()
    assert "9000/9000 games" in text and text.endswith("\n")


def test_seed_none_draws_a_seed() -> None:
    game = boardcore.make("just4fun", players=2)
    result = boardcore.simulate(game, 2, seed=None)
    assert 0 <= result.seed < 2**64
    again = boardcore.simulate(game, 2, seed=result.seed)
    assert np.array_equal(result.lengths, again.lengths)
