"""Golden files: the same seed gives the same game, on every platform and version."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import boardcore
from boardcore.simulate import derive_seed as public_derive_seed
from tests import golden
from tests.reference._rng import Rng, derive_seed

PLAYTHROUGHS = sorted(golden.DATA.glob("*_playthrough_*.json"))


def _load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_every_game_has_playthroughs() -> None:
    for name in boardcore.GAMES:
        assert len([p for p in PLAYTHROUGHS if p.name.startswith(name + "_")]) >= 3, name


@pytest.mark.parametrize("path", PLAYTHROUGHS, ids=lambda p: p.stem)
def test_playthrough_is_unchanged(path: Path) -> None:
    doc = _load(path)
    fresh = golden.playthrough(
        doc["game"], doc["players"], doc["options"], doc["seed"], doc["player_seed"]
    )
    assert fresh["actions"] == doc["actions"]
    assert fresh["outcome"] == doc["outcome"]
    assert fresh["final"] == doc["final"]
    assert fresh["picture"] == doc["picture"]


@pytest.mark.parametrize("path", PLAYTHROUGHS, ids=lambda p: p.stem)
def test_playthrough_replays_from_notation(path: Path) -> None:
    doc = _load(path)
    game = boardcore.make(doc["game"], players=doc["players"], **doc["options"])
    state = game.new_state(seed=doc["seed"])
    for text in doc["actions"]:
        state.apply(state.parse_action(text))
    assert state.to_dict() == doc["final"]
    assert state.is_over()


def test_rng_stream_is_unchanged() -> None:
    assert golden.rng_stream() == _load(golden.DATA / "rng_stream.json")


def test_python_twin_matches_the_golden_stream() -> None:
    doc = _load(golden.DATA / "rng_stream.json")
    for seed, outputs in doc["stream"].items():
        rng = Rng(int(seed))
        assert [rng.next_u64() for _ in outputs] == outputs
    for n, draws in doc["bounded"].items():
        rng = Rng(12345)
        assert [rng.bounded(int(n)) for _ in draws] == draws
    for n, order in doc["shuffled"].items():
        items = list(range(int(n)))
        Rng(int(n)).shuffle(items)
        assert items == order
    for seed, stream, index, value in doc["derive_seed"]:
        assert derive_seed(seed, stream, index) == value
        assert public_derive_seed(seed, stream, index) == value


def test_bounded_draws_are_in_range_and_cover_it() -> None:
    from boardcore._engine import _random

    draws = _random.bounded(7, 6, 6000)
    assert set(draws) == set(range(6))
    assert all(900 <= draws.count(k) <= 1100 for k in range(6))
    with pytest.raises(ValueError):
        _random.bounded(7, 0, 1)
