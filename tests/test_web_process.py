"""``boardcore serve`` as a real process: killed with SIGKILL mid-match, started again.

Every match must go on from its last acknowledged move; a real uvicorn must refuse an
oversized websocket message and stay up; the command binds the loopback address by
default and says how to get the web extra where it is missing.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import boardcore


def test_serve_without_the_web_extra_says_how_to_get_it() -> None:
    code = ("import sys; sys.modules['starlette'] = None; from boardcore.cli import main; "
            "sys.exit(main(['serve', '--port', '1']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 2
    assert "pip install 'boardcore[web]'" in done.stderr and "Traceback" not in done.stderr
    bad = subprocess.run([sys.executable, "-m", "boardcore", "serve", "--port", "70000"],
                         capture_output=True, text=True, timeout=60, check=False)
    assert bad.returncode == 2 and "1..65535" in bad.stderr


pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
websockets = pytest.importorskip("websockets")
from websockets.sync.client import connect  # noqa: E402


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """A ``boardcore serve`` subprocess on a free loopback port."""

    def __init__(self, db: Path, log: Path) -> None:
        self.db, self.log = db, log
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "boardcore", "serve", "--port", str(self.port), "--db",
                 str(self.db), "--workers", "1"], stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                self.get("/api/games")
                return
            except OSError:
                assert self.process.poll() is None, self.log.read_text()
                time.sleep(0.1)
        raise AssertionError("the server did not start:\n" + self.log.read_text())

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def get(self, path: str, token: str | None = None) -> Any:
        request = urllib.request.Request(self.url + path)
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)

    def post(self, path: str, body: object) -> Any:
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)

    def ws(self) -> Any:
        return connect(f"ws://127.0.0.1:{self.port}/ws", open_timeout=30, close_timeout=5)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "matches.sqlite3", tmp_path / "server.log")
    running.start()
    yield running
    running.stop()


def _read_until(ws: Any, test: Any) -> dict[str, Any]:
    for _ in range(100_000):
        message: dict[str, Any] = json.loads(ws.recv(timeout=60))
        if test(message):
            return message
    raise AssertionError("no such message")


def _play(ws: Any, message: dict[str, Any]) -> dict[str, Any]:
    """Play the first legal move once seat's turn comes; return the acknowledgement."""
    if message["to_act"] != message["seat"]:
        message = _read_until(ws, lambda m: m["type"] == "state"
                              and (m["to_act"] == m["seat"] or m["outcome"] is not None))
    if message["outcome"] is not None:
        return message
    version = message["version"]
    ws.send(json.dumps({"type": "move", "move": message["moves"][-1]["move"],
                        "version": version}))
    return _read_until(ws, lambda m: m["type"] == "state" and m["version"] > version)


def test_sigkill_and_restart_lose_no_acknowledged_move(server: Server) -> None:
    specs = [("just4fun", ["human", "greedy"]), ("three_or_more", ["human", "random"]),
             ("fool", ["human", "random", "greedy", "random"]),
             ("rummikub_junior", ["human", "greedy", "random"])]
    matches = [(server.post("/api/matches", {"game": g, "seats": s, "delay": 0, "seed": 3}), g)
               for g, s in specs]
    bots = server.post("/api/matches", {"game": "fool", "seats": ["random"] * 4, "delay": 0.01,
                                        "seed": 4})
    acknowledged: dict[str, list[list[object]]] = {}
    for cycle in range(3):
        stack = contextlib.ExitStack()
        sockets = []
        for made, _ in matches:
            ws = stack.enter_context(server.ws())
            ws.send(json.dumps({"type": "join", "token": made["tokens"]["0"]}))
            message = json.loads(ws.recv(timeout=60))
            # Everything acknowledged before the kill is still there, in order.
            before = acknowledged.get(made["match"], [])
            assert message["log"][:len(before)] == before, (cycle, made["match"])
            for _ in range(4):
                message = _play(ws, message)
            acknowledged[made["match"]] = message["log"]
            sockets.append((ws, message))
        watcher = stack.enter_context(server.ws())
        watcher.send(json.dumps({"type": "watch", "match": bots["match"]}))
        seen = json.loads(watcher.recv(timeout=60))
        before = acknowledged.get(bots["match"], [])
        assert seen["log"][:len(before)] == before
        seen = _read_until(watcher, lambda m, p=seen["ply"]: m["ply"] >= p + 10
                           or m["outcome"] is not None)
        acknowledged[bots["match"]] = seen["log"]
        # A move on its way when the server dies: it may land or not, never half.
        for ws, message in sockets:
            if message["to_act"] == 0 and message["outcome"] is None:
                ws.send(json.dumps({"type": "move", "move": message["moves"][0]["move"],
                                    "version": message["version"]}))
        server.kill()
        stack.close()
        server.start()
        for made, name in matches:
            state = server.get(f"/api/matches/{made['match']}", made["tokens"]["0"])
            assert state["log"][:len(acknowledged[made["match"]])] == \
                acknowledged[made["match"]]
            replayed = boardcore.make(name, players=state["players"]).new_state(seed=3)
            for _, move in state["log"]:
                replayed.apply(replayed.parse_action(move))
            assert state["view"] == replayed.view(0).to_json()
    # The bots of the bot-only match went on after each restart.
    final = server.get(f"/api/matches/{bots['match']}")
    assert final["ply"] >= len(acknowledged[bots["match"]])


def test_a_real_server_refuses_what_is_too_big_and_stays_up(server: Server) -> None:
    made = server.post("/api/matches", {"game": "just4fun", "seats": ["human", "human"]})
    with server.ws() as ws, pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
        ws.send("x" * 100_000)
        for _ in range(10):
            ws.recv(timeout=30)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    # A body announced too big is refused before it is read.
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as raw:
        raw.sendall(b"POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Type: "
                    b"application/json\r\nContent-Length: 50000000\r\n\r\n[[[[")
        answer = ""
        while "}" not in answer:
            chunk = raw.recv(65536).decode()
            assert chunk, answer
            answer += chunk
    assert answer.startswith("HTTP/1.1 413") and '"code":"too_big"' in answer
    with pytest.raises(urllib.error.HTTPError) as refused:
        server.post("/api/matches", {"game": "fool", "seats": "x" * 10})
    refused.value.close()
    assert refused.value.code == 400
    with server.ws() as again:
        again.send(json.dumps({"type": "join", "token": made["tokens"]["1"]}))
        assert json.loads(again.recv(timeout=30))["seat"] == 1
    text = server.log.read_text()
    assert f"http://127.0.0.1:{server.port}" in text and "Traceback" not in text
