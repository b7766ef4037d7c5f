"""The Ray backend: the same numbers as the local run, on a real two-node Ray cluster.

The cluster tests need Ray (``pip install 'boardcore[ray]'``; ``make test-ray`` and CI
install it) and skip without it; the checks of the arguments and of the error a missing
Ray gives run everywhere.  They run on the cluster at ``RAY_ADDRESS`` (``make test-ray``
starts one with ``tests/ray_cluster.py``: a head and a second node of one CPU each, each
its own raylet), or start that cluster themselves.  Every test checks that both nodes
are alive; the simulations check that both nodes played.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import boardcore
from boardcore import _ray, cli
from boardcore.simulate import SimulationInterrupted
from boardcore.stats import summarize
from tests.conftest import player_counts
from tests.ray_cluster import TwoNodeCluster


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
    for total, cpus, least, most in [(1, 1, 1, None), (10, 1, 4, None),
                                     (4096 * 3 + 1, 2, 4096, None), (7, 64, 1, None),
                                     (1_000_003, 48, 4096, None), (10**7, 2, 4096, 65536)]:
        parts = list(_ray.parts(total, cpus, least, most))
        assert parts[0][0] == 0 and parts[-1][1] == total
        assert all(a < b and b == c for (a, b), (c, _) in zip(parts, parts[1:] + [(total, 0)]))
        assert all(b - a >= min(least, most or least) for a, b in parts[:-1])
        assert most is None or all(b - a <= most for a, b in parts)
    assert _ray.split(10, 1, 4) == list(_ray.parts(10, 1, 4))


def test_parts_are_lazy() -> None:
    # 10**12 games in parts of at most 2**19: never a list of two million parts.
    parts = _ray.parts(10**12, 2, _ray.MIN_SIMULATE_GAMES, _ray.MAX_SIMULATE_GAMES)
    assert not isinstance(parts, list)
    assert next(parts) == (0, _ray.MAX_SIMULATE_GAMES)


def test_a_task_counts_the_same_with_threads() -> None:
    # A task's body, here: its threads add up to the same counts as one thread.
    game = boardcore.make("fool", players=6)
    one = _ray.summary_part(game, 3, 1000, 14000, 1, boardcore.__version__)
    three = _ray.summary_part(game, 3, 1000, 14000, 3, boardcore.__version__)
    assert one.counts()[:4] == three.counts()[:4] and one.games == 13000
    for (lo, a), (hi, b) in zip(one.counts()[4], three.counts()[4], strict=True):
        assert lo == hi and np.array_equal(a, b)
    with pytest.raises(RuntimeError, match="install the same version on every node"):
        _ray.summary_part(game, 3, 0, 10, 1, "0.0.0")


# -- on a real two-node cluster ----------------------------------------------------------


@pytest.fixture(scope="module")
def cluster() -> Iterator[dict[str, str]]:
    """The two-node cluster at RAY_ADDRESS, or one started here; yields a driver's env."""
    if importlib.util.find_spec("ray") is None:
        pytest.skip("needs Ray: pip install 'boardcore[ray]'")
    with contextlib.ExitStack() as stack:
        if os.environ.get("RAY_ADDRESS"):
            env = {k: os.environ[k] for k in ("RAY_ADDRESS", "RAY_AUTH_MODE", "RAY_AUTH_TOKEN")
                   if k in os.environ}
        else:
            # Ray reads its token settings when it is imported: they are set first.
            assert sys.modules.get("ray") is None, "Ray was imported before its cluster began"
            env = stack.enter_context(TwoNodeCluster()).env
            patch = stack.enter_context(pytest.MonkeyPatch.context())
            for key, value in env.items():
                patch.setenv(key, value)
        import ray

        if ray.is_initialized():  # pragma: no cover - another module left one running
            ray.shutdown()
        ray.init(address=env["RAY_ADDRESS"])
        stack.callback(ray.shutdown)
        _both_nodes()
        _warm(ray)
        yield env


def _node_id() -> str:
    import ray

    return str(ray.get_runtime_context().get_node_id())


def _warm(ray: Any) -> None:
    """A task pinned to each node: both run tasks, and both have a worker ready."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    nodes = [n["NodeID"] for n in ray.nodes() if n["Alive"]]
    probe = ray.remote(num_cpus=1)(_node_id)
    ran = ray.get([probe.options(scheduling_strategy=NodeAffinitySchedulingStrategy(
        node, soft=False)).remote() for node in nodes])
    assert ran == nodes


def _both_nodes(played: bool = False) -> None:
    import ray

    alive = [n for n in ray.nodes() if n["Alive"]]
    assert len(alive) == 2, alive
    assert [n["Resources"].get("CPU") for n in alive] == [1.0, 1.0]
    assert len({n["NodeManagerPort"] for n in alive}) == 2      # two raylets
    if played:   # the latest batch's tasks ran on both nodes
        assert set(_ray.tasks_by_node) == {n["NodeID"] for n in alive}, _ray.tasks_by_node


@pytest.mark.parametrize(("name", "players", "games"), [("just4fun", 3, 60_000),
                                                        ("fool", 5, 30_000),
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
    _both_nodes()
    if games > _ray.MIN_SIMULATE_GAMES:
        assert len(seen) > 1          # really split into several tasks


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_summary_on_ray_is_the_summary_of_the_local_rows(cluster: Any, name: str) -> None:
    # Tasks return their counts, not rows; the driver adds them: the same summary as the
    # rows played here, number for number.
    game = boardcore.make(name, players=player_counts(name)[-1])
    games = 9 * _ray.MIN_SIMULATE_GAMES + 17
    rows = boardcore.simulate(game, games, seed=77, workers=2)
    seen: list[int] = []
    there = boardcore.simulate(game, games, seed=77, backend="ray", keep="summary",
                               on_chunk=seen.append)
    _both_nodes()
    assert there == boardcore.SimulationSummary.from_result(rows)
    assert len(seen) > 2 and seen[-1] == games
    a, b = summarize(rows).to_dict(), summarize(there).to_dict()
    assert a.pop("seconds") >= 0 and b.pop("seconds") >= 0 and a == b


def test_both_nodes_play_a_batch(cluster: Any) -> None:
    # A batch of seconds: its tasks are spread over both nodes, and the driver holds one
    # small tally per finished task, never the rows.
    game = boardcore.make("just4fun", players=4)
    games = 8 * 131_072
    there = boardcore.simulate(game, games, seed=9, backend="ray", keep="summary")
    _both_nodes(played=True)
    assert sum(_ray.tasks_by_node.values()) == 8 and min(_ray.tasks_by_node.values()) >= 2
    here = boardcore.simulate(game, games, seed=9, workers=2, keep="summary")
    assert there == here and there.games == games


def test_an_interrupt_on_ray_gives_the_summary_of_the_tasks_done(cluster: Any) -> None:
    game = boardcore.make("fool", players=4)
    seen: list[int] = []

    def stop(done: int) -> None:
        seen.append(done)
        raise KeyboardInterrupt

    with pytest.raises(SimulationInterrupted) as caught:
        boardcore.simulate(game, 10**9, seed=8, backend="ray", keep="summary", on_chunk=stop)
    partial = caught.value.summary
    assert partial.partial and partial.games == seen[0] > 0 and partial.requested == 10**9
    # The pending tasks were cancelled: the cluster is free for the next batch at once.
    after = boardcore.simulate(game, 5000, seed=8, backend="ray", keep="summary")
    assert after == boardcore.simulate(game, 5000, seed=8, keep="summary")


def test_workers_larger_than_any_node_are_refused(cluster: Any) -> None:
    game = boardcore.make("just4fun", players=2)
    with pytest.raises(ValueError, match="the largest node of the Ray cluster has 1"):
        boardcore.simulate(game, 9_000, seed=5, backend="ray", workers=2, keep="summary")


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
    _both_nodes()


def test_ladder_on_ray_gives_the_local_ladder(cluster: Any) -> None:
    game = boardcore.make("three_or_more", players=2)
    agents = ["random", "greedy", "ismcts:20"]
    here = boardcore.ladder(game, agents, 6, seed=3, resamples=50)
    there = boardcore.ladder(game, agents, 6, seed=3, resamples=50, backend="ray")
    assert here.ratings.to_dict() == there.ratings.to_dict()
    assert np.array_equal(here.decisions, there.decisions)
    for a, b in zip(here.results, there.results, strict=True):
        _same(a, b, ("seats", "scores", "winners", "lengths", "decisions"))
    assert (there.seconds_per_decision > 0).all()    # the times per decision come back too
    _both_nodes()


def _command(args: list[str], env: dict[str, str]) -> str:
    """``boardcore ARGS`` in a process of its own, on the cluster; its stdout."""
    done = subprocess.run([sys.executable, "-m", "boardcore", *args], capture_output=True,
                          text=True, env={**os.environ, **env}, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _no_timing(text: str) -> str:
    return "\n".join(line for line in text.splitlines()
                     if not line.startswith(("throughput:", "  \"seconds\"")))


def test_cli_on_the_cluster_gives_the_local_output(cluster: dict[str, str]) -> None:
    # RAY_ADDRESS=... boardcore simulate ... --backend ray, as a user runs it.
    args = ["simulate", "fool", "--players", "4", "--games", "60000", "--seed", "7"]
    for extra in ([], ["--json"]):
        local = _command([*args, *extra], {})
        there = _command([*args, *extra, "--backend", "ray"], cluster)
        assert _no_timing(there) == _no_timing(local)
        assert "fool: 60,000 games" in there if not extra else '"games": 60000' in there
    doc = json.loads(there)
    assert sum(doc["histograms"]["length"]["counts"]) == 60000
    csv_args = [*args[:5], "6000", *args[6:], "--csv"]
    assert _command([*csv_args, "--backend", "ray"], cluster) == _command(csv_args, {})


def test_cli_arena_on_the_cluster_gives_the_local_table(cluster: dict[str, str]) -> None:
    args = ["arena", "three_or_more", "--players", "2", "--agents", "greedy,random",
            "--games", "24", "--seed", "3", "--json"]
    local = json.loads(_command(args, {}))
    there = json.loads(_command([*args, "--backend", "ray"], cluster))
    local.pop("seconds", None)
    there.pop("seconds", None)
    assert there == local


def test_cli_backend_ray_in_process(cluster: Any) -> None:
    outputs = []
    for backend in ("threads", "ray"):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = cli.main(["simulate", "fool", "--players", "4", "--games", "6000",
                             "--seed", "7", "--csv", "--backend", backend, "--no-progress"])
        assert code == cli.EXIT_OK
        outputs.append(out.getvalue())
    assert outputs[0] == outputs[1] and outputs[0].count("\n") == 6001
