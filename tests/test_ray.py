"""The Ray backend: the same numbers as the local run, on a local Ray cluster.

The cluster tests need Ray (``pip install 'boardcore[ray]'``; ``make test-ray`` and CI
install it) and skip without it; the checks of the arguments and of the error a missing
Ray gives run everywhere.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import boardcore
from boardcore import _ray, cli


def _same(a: Any, b: Any, fields: tuple[str, ...]) -> None:
    for field in fields:
        assert np.array_equal(getattr(a, field), getattr(b, field)), field


# -- without Ray ---------------------------------------------------------------------


def test_bad_backend_or_address() -> None:
    game = boardcore.make("just4fun", players=2)
    for call in (lambda **kw: boardcore.simulate(game, 10, seed=1, **kw),
                 lambda **kw: boardcore.arena(game, ["random"], 2, seed=1, **kw)):
        with pytest.raises(ValueError, match="backend must be 'threads' or 'ray'"):
            call(backend="dask")
        with pytest.raises(ValueError, match="backend must be"):
            call(backend=None)
        with pytest.raises(ValueError, match="for backend='ray' only"):
            call(address="ray://head:10001")
        with pytest.raises(ValueError, match="a str"):
            call(backend="ray", address=10001)


def test_missing_ray_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)   # `import ray` now fails
    game = boardcore.make("just4fun", players=2)
    with pytest.raises(ImportError, match=r"pip install 'boardcore\[ray\]'"):
        boardcore.simulate(game, 10, seed=1, backend="ray")
    with pytest.raises(ImportError, match=r"pip install 'boardcore\[ray\]'"):
        boardcore.arena(game, ["random"], 2, seed=1, backend="ray")
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = cli.main(["simulate", "just4fun", "--players", "2", "--games", "10",
                         "--seed", "1", "--backend", "ray", "--no-progress"])
    assert code == cli.EXIT_USAGE
    assert err.getvalue() == ("boardcore: error: backend='ray' needs Ray: "
                              "pip install 'boardcore[ray]'\n")


def test_split_covers_every_game_once() -> None:
    for total, cpus, least in [(1, 1, 1), (10, 1, 4), (4096 * 3 + 1, 2, 4096), (7, 64, 1),
                               (1_000_003, 48, 4096)]:
        parts = _ray.split(total, cpus, least)
        assert parts[0][0] == 0 and parts[-1][1] == total
        assert all(a < b and b == c for (a, b), (c, _) in zip(parts, parts[1:] + [(total, 0)]))
        assert all(b - a >= least for a, b in parts[:-1])


# -- on a local Ray ------------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    if ray.is_initialized():  # pragma: no cover - another module left one running
        ray.shutdown()
    ray.init(num_cpus=2)      # local mode no longer exists: a real local cluster
    yield ray
    ray.shutdown()


@pytest.mark.parametrize(("name", "players", "games"), [("just4fun", 3, 10_000),
                                                        ("fool", 5, 9_000),
                                                        ("three_or_more", 2, 5)])
def test_simulate_on_ray_gives_the_local_numbers(cluster: Any, name: str, players: int,
                                                 games: int) -> None:
    game = boardcore.make(name, players=players)
    here = boardcore.simulate(game, games, seed=2026, workers=2)
    seen: list[int] = []
    there = boardcore.simulate(game, games, seed=2026, backend="ray", on_chunk=seen.append)
    _same(here, there, ("scores", "winners", "lengths"))
    assert here.stats.keys() == there.stats.keys()
    for key in here.stats:
        assert np.array_equal(here.stats[key], there.stats[key]), key
    assert there.game == game and there.seed == 2026 and there.winners.dtype == np.bool_
    assert seen == sorted(seen) and seen[-1] == games
    if games > _ray.MIN_SIMULATE_GAMES:
        assert len(seen) > 1          # really split into several tasks


def test_threads_per_task_do_not_change_the_numbers(cluster: Any) -> None:
    game = boardcore.make("just4fun", players=2)
    one = boardcore.simulate(game, 9_000, seed=5, backend="ray")
    two = boardcore.simulate(game, 9_000, seed=5, backend="ray", workers=2)
    _same(one, two, ("scores", "winners", "lengths"))


def test_arena_on_ray_gives_the_local_numbers(cluster: Any) -> None:
    game = boardcore.make("just4fun", players=3)
    agents = ["ismcts:30", "greedy", "random"]
    here = boardcore.arena(game, agents, 10, seed=4)
    seen: list[int] = []
    there = boardcore.arena(game, agents, 10, seed=4, backend="ray", on_game=seen.append)
    _same(here, there, ("seats", "scores", "winners", "lengths", "decisions"))
    assert here.to_dict() == there.to_dict()
    assert seen[-1] == 10 and len(seen) > 1
    assert (there.thinking > 0).all()


def test_ladder_on_ray_gives_the_local_ladder(cluster: Any) -> None:
    game = boardcore.make("three_or_more", players=2)
    agents = ["random", "greedy", "ismcts:20"]
    here = boardcore.ladder(game, agents, 6, seed=3, resamples=50)
    there = boardcore.ladder(game, agents, 6, seed=3, resamples=50, backend="ray")
    assert here.ratings.to_dict() == there.ratings.to_dict()
    assert np.array_equal(here.decisions, there.decisions)


def test_cli_backend_ray(cluster: Any) -> None:
    outputs = []
    for backend in ("threads", "ray"):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = cli.main(["simulate", "fool", "--players", "4", "--games", "6000",
                             "--seed", "7", "--csv", "--backend", backend, "--no-progress"])
        assert code == cli.EXIT_OK
        outputs.append(out.getvalue())
    assert outputs[0] == outputs[1] and outputs[0].count("\n") == 6001
