"""``boardcore serve``'s API: matches, seats, bots, undo rules, replays, hostile input.

In process through Starlette's test client; ``tests/test_web_process.py`` runs a real
server (restarts after SIGKILL), ``tests/test_web_browser.py`` a real browser.  Skipped
where the web extra is missing.
"""

from __future__ import annotations

import json
import random
import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest

import boardcore

pytest.importorskip("starlette")
pytest.importorskip("httpx2")
pytest.importorskip("uvicorn")

from starlette.testclient import TestClient

from boardcore.web import create_app
from boardcore.web.server import MAX_BODY, MAX_MESSAGE

CARD = re.compile(r"\b[GRYB][0-9]{1,2}\b")


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(":memory:", workers=2)) as c:
        yield c


def make(client: TestClient, game: str, seats: list[str], **spec: Any) -> dict[str, Any]:
    response = client.post("/api/matches", json={"game": game, "seats": seats, "delay": 0,
                                                 **spec})
    assert response.status_code == 200, response.text
    made: dict[str, Any] = response.json()
    return made


def wait_for(ws: Any, test: Any, limit: int = 10_000) -> dict[str, Any]:
    """Read messages until one passes ``test``; return it."""
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        if test(message):
            return message
    raise AssertionError("no such message")


def fool_leaks(text: str, seat: int | None, state: Any) -> set[str]:
    """Return the cards of other seats' hands that ``text`` shows (should be none).

    Fool's cards are unique but for the wild 1s: a card another seat holds that has
    never been played in sight of everyone (this round or an earlier one) may not appear
    anywhere in what a seat is sent.
    """
    snapshot, cards = state.snapshot(), boardcore.fool.CARDS
    walk = state.game.new_state(seed=state.seed)
    public = {"W1"}
    for action in state.history():
        public.add(cards[action])
        walk.apply(action)
    others = {cards[c] for q, hand in enumerate(snapshot.hands) if q != seat for c in hand}
    return set(CARD.findall(text)) & (others - public)


def position(game: Any, seed: int, actions: list[str]) -> Any:
    """Return the position of ``game`` after ``actions`` (notation) from ``seed``."""
    state = game.new_state(seed=seed)
    for move in actions:
        state.apply(state.parse_action(move))
    return state


def sent_for(state: Any, seat: int | None) -> tuple[object, str]:
    """Return the view (JSON form) and picture the server must send ``seat``."""
    perspective = "spectator" if seat is None else seat
    from boardcore.web.matches import PICTURE_WIDTH

    snapshot = state.snapshot()
    picture = state.game.draw(snapshot, state.last_move, perspective).render(PICTURE_WIDTH)
    return state.view(perspective).to_json(), picture


def test_the_page_is_served_from_the_installed_package(client: TestClient) -> None:
    # The page ships in the wheel: an sdist that drops a file of it breaks the page.
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    for name, kind in (("app.js", "javascript"), ("style.css", "text/css")):
        served = client.get(f"/static/{name}")
        assert served.status_code == 200 and kind in served.headers["content-type"]


def test_the_lobby_lists_games_and_makes_matches(client: TestClient) -> None:
    games = client.get("/api/games").json()
    assert [g["game"] for g in games["games"]] == list(boardcore.GAMES)
    assert "random" in games["agents"] and games["undo"] == ["safe", "any", "off"]
    for spec in games["games"]:
        n = spec["min_players"]
        made = make(client, spec["game"], ["human"] + ["greedy"] * (n - 1))
        assert set(made["tokens"]) == {"0"} and len(made["tokens"]["0"]) >= 40
    listed = client.get("/api/matches").json()["matches"]
    assert len(listed) == 4 and all("tokens" not in m for m in listed)
    assert "seed" not in json.dumps(listed)
    for bad, word in [({"game": "chess", "seats": ["human"]}, "unknown game"),
                      ({"game": "fool", "seats": ["human"] * 3}, "4..8 players"),
                      ({"game": "fool", "seats": ["human", "nobody", "random", "random"]},
                       "unknown agent"),
                      ({"game": "fool", "seats": ["human"] * 4, "options": {"deck": 3}},
                       "option 'deck'"),
                      ({"game": "fool", "seats": ["human"] * 4, "undo": "sometimes"}, "undo"),
                      ({"game": "fool", "seats": ["human"] * 4, "delay": -1}, "delay"),
                      ({"game": "fool", "seats": ["human"] * 4, "seed": 2**64}, "seed"),
                      ({"game": "fool", "seats": ["human"] * 4, "colour": 1}, "unknown field"),
                      ([], "JSON object")]:
        response = client.post("/api/matches", json=bad)
        assert response.status_code == 400 and word in response.json()["message"], bad
    assert len(client.get("/api/matches").json()["matches"]) == 4


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_a_whole_game_against_a_bot_over_the_websocket(client: TestClient, name: str) -> None:
    players = 4 if name == "fool" else 2
    made = make(client, name, ["human"] + ["greedy"] * (players - 1), seed=11)
    rng = random.Random(1)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "token": made["tokens"]["0"], "svg": True})
        message = ws.receive_json()
        moves = 0
        while message["outcome"] is None:
            assert message["svg"].startswith("<svg") and message["seat"] == 0
            if message["to_act"] == 0:
                assert message["moves"] and message["view"]["hand"] is not None
                move = rng.choice(message["moves"])["move"]
                ws.send_json({"type": "move", "move": move, "version": message["version"]})
                version = message["version"]
                message = wait_for(ws, lambda m, v=version: m["type"] == "state"
                                   and m["version"] > v)
                assert message["log"][version] == [0, move]          # acknowledged
                moves += 1
            else:
                assert message["moves"] == []
                message = wait_for(ws, lambda m: m["type"] == "state")
    assert moves > 3
    record = client.get(f"/api/matches/{made['match']}/record").json()
    state = boardcore.replay(record)
    assert state.outcome() is not None and state.outcome().to_json() == message["outcome"]
    assert [m for _, m in message["log"]] == record["actions"]


def test_a_fool_seat_never_receives_another_seats_cards(client: TestClient) -> None:
    made = make(client, "fool", ["human", "random", "human", "random"], seed=5)
    game = boardcore.make("fool", players=4)
    received: dict[int, list[str]] = {0: [], 2: []}
    with client.websocket_connect("/ws") as one, client.websocket_connect("/ws") as two:
        sockets = {0: one, 2: two}
        for seat, ws in sockets.items():
            ws.send_json({"type": "join", "token": made["tokens"][str(seat)], "svg": True})
        target = 0
        while True:
            # Each page reads until the bots are done and a person is to act.
            latest = {}
            for seat, ws in sockets.items():
                while True:
                    text = ws.receive_text()
                    received[seat].append(text)
                    message = json.loads(text)
                    if message["version"] >= target and (message["to_act"] in sockets
                                                         or message["outcome"] is not None):
                        latest[seat] = message
                        break
            top = latest[0]
            if top["outcome"] is not None or top["ply"] >= 150:
                break
            seat = top["to_act"]
            sockets[seat].send_json({"type": "move", "move": latest[seat]["moves"][0]["move"],
                                     "version": top["version"]})
            target = top["version"] + 1
    record = client.get(f"/api/matches/{made['match']}/record",
                        headers={"Authorization": "Bearer " + made["tokens"]["0"]}).json()
    assert record["format"] == "boardcore-seat-record" and "seed" not in record
    actions = record["actions"]
    checked = 0
    for seat, texts in received.items():
        for text in texts:
            message = json.loads(text)
            state = position(game, 5, actions[:message["ply"]])
            assert (message["view"], message["svg"]) == sent_for(state, seat)
            assert not fool_leaks(text, seat, state), (seat, message["ply"])
            checked += 1
    assert checked > 100


def test_a_spectator_sees_public_information_and_cannot_act(client: TestClient) -> None:
    made = make(client, "rummikub_junior", ["human", "human"], seed=3)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "watch", "match": made["match"], "svg": True})
        message = ws.receive_json()
        assert message["seat"] is None and message["view"]["hand"] == []
        assert message["view"]["player"] is None and message["moves"] == []
        for request in ({"type": "move", "move": "pass", "version": 0}, {"type": "undo",
                        "version": 0}, {"type": "hint"}, {"type": "pace", "delay": 1}):
            ws.send_json(request)
            refusal = ws.receive_json()
            assert refusal["type"] == "error" and refusal["code"] == "spectator"
    state = client.get(f"/api/matches/{made['match']}?svg=1").json()
    assert state["view"]["hand"] == [] and "as a spectator sees it" in state["svg"]


def test_undo_refuses_to_take_back_a_draw_unless_the_match_allows_it(client: TestClient) -> None:
    # Rummikub Junior, 2 players, seed 3: seat 0's pass draws the joker.
    for rule, allowed in (("safe", False), ("any", True), ("off", False)):
        made = make(client, "rummikub_junior", ["human", "human"], seed=3, undo=rule)
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "token": made["tokens"]["0"]})
            ws.receive_json()
            ws.send_json({"type": "undo", "version": 0})
            assert ws.receive_json()["code"] in ("undo_refused",)
            ws.send_json({"type": "move", "move": "pass", "version": 0})
            message = ws.receive_json()
            assert "J" in message["view"]["hand"]
            ws.send_json({"type": "undo", "version": 1})
            answer = ws.receive_json()
            if allowed:
                assert answer["type"] == "state" and answer["ply"] == 0
                assert "J" not in answer["view"]["hand"] and answer["version"] == 2
            else:
                assert answer["type"] == "error" and answer["code"] == "undo_refused"
                word = "hidden information" if rule == "safe" else "without undo"
                assert word in answer["message"]
        state = client.get(f"/api/matches/{made['match']}").json()
        assert state["ply"] == (0 if allowed else 1)


def test_undo_takes_back_the_bots_replies(client: TestClient) -> None:
    made = make(client, "fool", ["human", "greedy", "greedy", "greedy"], seed=7)
    token = made["tokens"]["0"]
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "token": token})
        first = ws.receive_json()
        ws.send_json({"type": "move", "move": first["moves"][0]["move"], "version": 0})
        mine = wait_for(ws, lambda m: m["type"] == "state" and m["to_act"] == 0)
        assert mine["ply"] >= 4
        ws.send_json({"type": "undo", "version": mine["version"]})
        back = wait_for(ws, lambda m: m["type"] == "state" and m["ply"] == 0)
        assert back["view"] == first["view"] and back["version"] == mine["version"] + 1


def test_hints_and_the_bots_candidates(client: TestClient) -> None:
    made = make(client, "just4fun", ["human", "greedy"], seed=2)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "token": made["tokens"]["0"]})
        ws.receive_json()
        ws.send_json({"type": "hint"})
        hint = wait_for(ws, lambda m: m["type"] == "hint")
        assert len(hint["candidates"]) == 3 and hint["version"] == 0
        weights = [c["weight"] for c in hint["candidates"]]
        assert weights == sorted(weights, reverse=True) and 0 < sum(weights) <= 1
        # level:5's search: each move's visits and mean result, as play --hint shows them
        state = boardcore.make("just4fun", players=2).new_state(seed=2)
        found = boardcore.agents.agent_from_string("level:5", seed=2).estimates(state)
        best = sorted(found, key=lambda a: (-found[a][0], a))[:3]
        assert hint["agent"] == "level:5"
        assert [(c["action"], c["move"], c["visits"], c["value"]) for c in hint["candidates"]] \
            == [(a, state.action_to_str(a), *found[a]) for a in best]
    # Made paused and started once watched, so that the spectator sees every bot move.
    bots = make(client, "fool", ["ismcts:300", "flat:20", "greedy", "random"], seed=1,
                paused=True)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "watch", "match": bots["match"]})
        wait_for(ws, lambda m: m["type"] == "state")
        ws.send_json({"type": "pace", "paused": False})
        seen = {}
        while len(seen) < 4:
            message = wait_for(ws, lambda m: m["type"] == "state" and m["analysis"])
            analysis = message["analysis"]
            seen[analysis["agent"]] = analysis
            assert message["log"][analysis["version"]][1] == analysis["candidates"][0]["move"] \
                if analysis["candidates"] else True
    assert all(c["visits"] > 0 and 0 <= c["value"] <= 1
               for c in seen["ismcts:300"]["candidates"][:1])
    assert seen["flat:20"]["candidates"] and "value" in seen["flat:20"]["candidates"][0]
    assert seen["greedy"]["candidates"] == seen["random"]["candidates"] == []
    # A person at the table never sees a bot's candidates (they tell its cards).
    made = make(client, "fool", ["human", "ismcts:300", "greedy", "random"], seed=1)
    state = client.get(f"/api/matches/{made['match']}").json()
    assert state["analysis"] is None


def test_bots_think_without_stalling_other_matches(client: TestClient) -> None:
    slow = make(client, "fool", ["ismcts:3s"] * 4, seed=1)
    made = make(client, "just4fun", ["human", "human"], seed=1)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "token": made["tokens"]["0"]})
        first = ws.receive_json()
        ws.send_json({"type": "move", "move": first["moves"][0]["move"], "version": 0})
        assert ws.receive_json()["version"] == 1
    # The slow bot's first move has not landed yet: the human move did not wait for it.
    assert client.get(f"/api/matches/{slow['match']}").json()["ply"] == 0


def test_records_and_replays(client: TestClient) -> None:
    made = make(client, "three_or_more", ["random", "greedy"], seed=4)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "watch", "match": made["match"]})
        final = wait_for(ws, lambda m: m["type"] == "state" and m["outcome"] is not None)
    record = client.get(f"/api/matches/{made['match']}/record").json()
    assert record["format"] == "boardcore-record" and record["seed"] == 4
    plies = len(record["actions"])
    assert plies == final["ply"]
    for ply in (0, 1, plies // 2, plies):
        for perspective in ("all", "spectator", 0, 1):
            frame = client.post("/api/replay", json={"record": record, "ply": ply,
                                                     "perspective": perspective}).json()
            assert frame["ply"] == ply and frame["plies"] == plies
            assert frame["svg"].startswith("<svg") and len(frame["log"]) == plies
            assert (frame["outcome"] is not None) == (ply == plies)
    for bad in ({"record": record, "ply": plies + 1}, {"record": record, "ply": "1"},
                {"record": record, "ply": 0, "perspective": 2},
                {"record": {**record, "actions": ["XXX"]}, "ply": 0},
                {"record": [], "ply": 0}, {"ply": 0}):
        response = client.post("/api/replay", json=bad)
        assert response.status_code == 400, bad


def test_hostile_requests_are_refused_and_change_nothing(client: TestClient) -> None:
    made = make(client, "fool", ["human", "human", "random", "random"], seed=9)
    other = make(client, "fool", ["human", "human", "random", "random"], seed=9)
    match, tokens = made["match"], made["tokens"]
    before = client.get(f"/api/matches/{match}").json()

    def refused(response: Any, status: int, code: str) -> None:
        assert response.status_code == status, response.text
        assert response.json()["type"] == "error" and response.json()["code"] == code

    bearer = {"Authorization": "Bearer " + tokens["1"]}
    url = f"/api/matches/{match}"
    refused(client.post(url + "/move", json={"move": "G2", "version": 0}), 403, "spectator")
    refused(client.post(url + "/move", json={"move": "G2", "version": 0},
                        headers={"Authorization": "Bearer " + "x" * 43}), 403, "bad_token")
    refused(client.post(url + "/move", json={"move": "G2", "version": 0},
                        headers={"Authorization": "Bearer " + other["tokens"]["0"]}),
            403, "bad_token")                                   # a foreign token
    refused(client.post(url + "/move", json={"move": "G2", "version": 0},
                        headers={"Authorization": "Basic abc"}), 403, "bad_token")
    refused(client.post(url + "/move", json={"move": "G2", "version": 0}, headers=bearer),
            409, "not_your_turn")                               # another seat's move
    zero = {"Authorization": "Bearer " + tokens["0"]}
    legal = client.get(url, headers=zero).json()["moves"]
    refused(client.post(url + "/move", json={"move": legal[0]["move"], "version": 5},
                        headers=zero), 409, "stale")
    refused(client.post(url + "/move", json={"move": "Q99", "version": 0}, headers=zero),
            400, "notation")
    refused(client.post(url + "/move", json={"move": 10**30, "version": 0}, headers=zero),
            409, "illegal")
    refused(client.post(url + "/move", json={"move": True, "version": 0}, headers=zero),
            400, "bad_request")
    illegal = min(set(range(83)) - {m["action"] for m in legal})
    refused(client.post(url + "/move", json={"move": illegal, "version": 0}, headers=zero),
            409, "illegal")
    refused(client.post(url + "/move", content=b"{not json", headers=zero), 400, "bad_json")
    refused(client.post(url + "/move", content=b"[" * 100_000, headers=zero), 400, "bad_json")
    refused(client.post(url + "/move", content=b" " * (MAX_BODY + 1), headers=zero),
            413, "too_big")
    refused(client.post(url + "/dance", json={}, headers=zero), 400, "bad_request")
    refused(client.get("/api/matches/nope"), 404, "unknown_match")
    refused(client.post(url + "/undo", json={"version": 0}, headers=zero), 409, "undo_refused")
    assert client.get(url).json() == before
    # The same over the websocket, and a thousand random messages.
    with client.websocket_connect("/ws") as ws:
        ws.send_text("x" * (MAX_MESSAGE + 1))
        assert ws.receive_json()["code"] == "too_big"
        ws.send_bytes(b"\x00\x01")
        assert ws.receive_json()["code"] == "bad_request"
        ws.send_json({"type": "move", "move": "G2", "version": 0})
        assert ws.receive_json()["code"] == "bad_request"       # join first
        ws.send_json({"type": "join", "token": tokens["1"]})
        assert ws.receive_json()["type"] == "state"
        rng = random.Random(2)
        for _ in range(1000):
            ws.send_text(_garbage(rng, before["version"]))
            answer = ws.receive_json()
            assert answer["type"] == "error" and answer["message"], answer
    assert client.get(url).json() == before
    with client.websocket_connect("/ws") as ws:                 # still serving
        ws.send_json({"type": "join", "token": tokens["0"]})
        ws.receive_json()
        ws.send_json({"type": "move", "move": legal[0]["move"], "version": 0})
        assert ws.receive_json()["version"] == 1


def _garbage(rng: random.Random, version: int) -> str:
    """A message that must be refused: broken JSON, odd values, wrong fields."""
    values: list[Any] = [None, True, 1.5, -1, 2**70, "", "G", "G2", "pass", "x" * 300, [],
                         {}, [1, [2]], {"type": "move"}, version + 1, "\u202e", "\ud800"]
    kind = rng.randrange(4)
    if kind == 0:
        raw = json.dumps({"type": rng.choice(["move", "undo", "hint", "join", "watch",
                                              "pace", "MOVE", "", None, 7]),
                          rng.choice(["move", "version", "token", "match", "delay", "svg"]):
                          rng.choice(values)})
        return raw
    if kind == 1:
        return json.dumps(rng.choice(values))
    if kind == 2:
        return "".join(rng.choice('{}[]":,0123456789abtrue\\') for _ in range(rng.randrange(30)))
    return json.dumps({"type": "pace", "delay": rng.choice([-1, 11, "1", None, 1e309, []]),
                       "paused": rng.choice([None, 1, "yes"])})


def test_concurrent_clients_on_many_matches(client: TestClient) -> None:
    # Eight matches moved from eight threads at once: every move acknowledged, each
    # match's record its own moves.
    made = [make(client, "just4fun", ["human", "random"], seed=s) for s in range(8)]
    errors: list[BaseException] = []

    def play(spec: dict[str, Any]) -> None:
        try:
            with client.websocket_connect("/ws") as ws:
                ws.send_json({"type": "join", "token": spec["tokens"]["0"]})
                message = ws.receive_json()
                for _ in range(5):
                    message = wait_for(ws, lambda m: m["type"] == "state"
                                       and m["to_act"] == 0) if message["to_act"] != 0 \
                        else message
                    ws.send_json({"type": "move", "move": message["moves"][0]["move"],
                                  "version": message["version"]})
                    version = message["version"]
                    message = wait_for(ws, lambda m, v=version: m["version"] > v)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(spec,)) for spec in made]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for spec in made:
        state = client.get(f"/api/matches/{spec['match']}").json()
        assert [seat for seat, _ in state["log"]].count(0) >= 5
