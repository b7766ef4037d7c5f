"""``boardcore serve`` under load, over 127.0.0.1: many matches, each a person and a bot.

Each match is Just4Fun for two: seat 0 a websocket client standing in for a person (it
joins with its token and asks for the board's SVG, as the page does), seat 1 the
``random`` bot with no delay.  The person thinks ``THINK`` seconds on average (uniform
0.5-1.5 s) before each move, then sends it; a finished match is replaced by a new one,
so the number of matches stays the same.  Per number of matches (50, 200, 1,000):

* ``moves/s``: every move the clients saw played, the person's and the bot's;
* ``p99 round trip``: the 99th percentile of a person's move from sending it to the
  state message that acknowledges it (the bot's reply comes later and is not counted),
  and its median;
* ``server CPU busy`` and ``server CPU per move``: the server's CPU time while measured
  (``/proc``), which neighbours on a shared machine change much less than the times.

The server is one ``boardcore serve --workers 1`` process pinned to one CPU
(``sched_setaffinity`` on each of its threads); the clients run in this process on the
other CPUs.  The target: 200 matches on one core with p99 <= 50 ms.  A smoke run
(``--benchmark-disable``) plays five matches for two seconds.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
from websockets.asyncio.client import connect

from tests.test_web_process import Server

THINK = 1.0           # a person's mean seconds between seeing the board and moving
WARM_UP = 3.0         # seconds of load before measuring
MEASURE = 15.0        # seconds measured
SIZES = (50, 200, 1000)
MATCH = {"game": "just4fun", "seats": ["human", "random"], "delay": 0}


class Load:
    """What the clients measured: round trips and moves seen, while ``counting``."""

    def __init__(self) -> None:
        self.counting = False
        self.round_trips: list[float] = []
        self.moves = 0
        self.refusals: list[str] = []
        self.server_cpu = 0.0        # seconds of CPU the server used while counting


async def _person(server: Server, load: Load, stop: asyncio.Event, rng: random.Random) -> None:
    """One seat 0 through match after match until ``stop``."""
    while not stop.is_set():
        made = await asyncio.to_thread(server.post, "/api/matches",
                                       {**MATCH, "seed": rng.randrange(2**32)})
        async with connect(server.url.replace("http", "ws") + "/ws",
                           max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "join", "token": made["tokens"]["0"],
                                      "svg": True}))
            await _play(ws, load, stop, rng)


async def _play(ws: Any, load: Load, stop: asyncio.Event, rng: random.Random) -> None:
    sent: tuple[int, float] | None = None    # (version moved at, when)
    ply = 0
    while not stop.is_set():
        try:
            message = json.loads(await asyncio.wait_for(ws.recv(), timeout=1.0))
        except asyncio.TimeoutError:
            continue
        if message["type"] == "error":
            load.refusals.append(message["message"])
            continue
        if message["type"] != "state":
            continue
        if sent is not None and message["version"] > sent[0]:
            if load.counting:
                load.round_trips.append(time.perf_counter() - sent[1])
            sent = None
        if load.counting:
            load.moves += max(message["ply"] - ply, 0)
        ply = message["ply"]
        if message["outcome"] is not None:
            return
        if message["to_act"] == 0 and message["moves"] and sent is None:
            await asyncio.sleep(rng.uniform(0.5, 1.5) * THINK)
            choice = rng.choice(message["moves"])["action"]
            sent = (message["version"], time.perf_counter())
            await ws.send(json.dumps({"type": "move", "move": choice,
                                      "version": message["version"]}))


def _pin(pid: int) -> None:
    """Keep every thread of process ``pid`` on one CPU, the last this process may use.

    This process (the clients) keeps the others, if there are any.
    """
    mine = os.sched_getaffinity(0)
    cpu = max(mine)
    for task in os.listdir(f"/proc/{pid}/task"):
        os.sched_setaffinity(int(task), {cpu})
    os.sched_setaffinity(0, mine - {cpu} or mine)


def _cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used, all its threads, user and system."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _run(server: Server, matches: int, warm_up: float, measure: float) -> Load:
    load, stop = Load(), asyncio.Event()
    pid = server.process.pid  # type: ignore[union-attr]
    clients = [asyncio.create_task(_person(server, load, stop, random.Random(i)))
               for i in range(matches)]
    await asyncio.sleep(warm_up)
    load.counting, cpu = True, _cpu_seconds(pid)
    await asyncio.sleep(measure)
    load.counting, load.server_cpu = False, _cpu_seconds(pid) - cpu
    stop.set()
    await asyncio.gather(*clients)
    return load


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


@pytest.mark.parametrize("matches", SIZES)
def test_web_load(benchmark: Any, figures: Any, tmp_path: Path, matches: int) -> None:
    smoke = getattr(benchmark, "disabled", False)
    if smoke and matches != SIZES[0]:
        pytest.skip("the smoke run plays the smallest load only")
    count, warm_up, measure = (5, 0.5, 2.0) if smoke else (matches, WARM_UP, MEASURE)
    server = Server(tmp_path / "matches.sqlite3", tmp_path / "server.log")
    server.start()
    mine = os.sched_getaffinity(0)
    try:
        _pin(server.process.pid)  # type: ignore[union-attr]
        load = benchmark.pedantic(lambda: asyncio.run(_run(server, count, warm_up, measure)),
                                  rounds=1, iterations=1)
    finally:
        os.sched_setaffinity(0, mine)
        server.stop()
    assert not load.refusals, load.refusals[:5]
    assert load.round_trips and load.moves > 0
    p99 = _percentile(load.round_trips, 0.99) * 1000
    benchmark.extra_info.update({"matches": count, "moves": load.moves,
                                 "round_trips": len(load.round_trips), "p99_ms": p99})
    figures.record(f"{matches} matches: moves/s", load.moves / measure, "moves/s")
    figures.record(f"{matches} matches: p99 round trip of a person's move", p99, "ms",
                   target="<= 50" if matches == 200 else None)
    figures.record(f"{matches} matches: median round trip",
                   _percentile(load.round_trips, 0.5) * 1000, "ms")
    # What the server's core did: busy share, and CPU per move (a busy machine's
    # neighbours slow the round trips, much less this).
    figures.record(f"{matches} matches: server CPU busy", load.server_cpu / measure, "cores")
    figures.record(f"{matches} matches: server CPU per move",
                   load.server_cpu / load.moves * 1000, "ms")
