"""The HTTP and websocket face of a ``Hub``, on Starlette (``docs/web.md``: the API).

Every request is read whole, within a size limit, parsed as JSON and handed to the
hub; a refusal is answered with ``{"type": "error", "code", "message"}`` (an HTTP error
status for HTTP) and changes nothing.  A seat's token travels in the first websocket
message or in an ``Authorization: Bearer`` header, never in a URL, so that no log
holds one.

>>> import boardcore
>>> state = boardcore.make("just4fun", players=2).new_state(seed=1)
>>> state.apply(state.legal_actions()[0])
>>> step = frame(boardcore.record(state), 1, "spectator")
>>> step["ply"], step["plies"], step["view"]["hand"], step["svg"][:4]
(1, 1, [], '<svg')
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, Literal, cast

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import boardcore
from boardcore._registry import GAME_CLASSES
from boardcore.app import Advisor
from boardcore.errors import BoardcoreError, InvalidStateError
from boardcore.records import seat_record
from boardcore.values import quote
from boardcore.web.matches import AGENTS, UNDO_RULES, Hub, Match, Refusal, levels
from boardcore.web.store import Store

__all__ = ["MAX_BODY", "MAX_MESSAGE", "create_app"]

log = logging.getLogger("boardcore.web")

STATIC = Path(__file__).resolve().parent / "static"
#: The largest websocket message a client may send, in bytes.
MAX_MESSAGE = 16 * 1024
#: The largest HTTP request body (a record to replay), in bytes.
MAX_BODY = 4 * 1024 * 1024
#: Messages queued for one websocket client at most: a client this far behind is let go.
MAX_QUEUE = 256
#: The HTTP status of each refusal code.
STATUS = {"bad_json": 400, "bad_request": 400, "too_big": 413, "unknown_match": 404,
          "bad_token": 403, "spectator": 403, "not_your_turn": 409, "stale": 409,
          "game_over": 409, "notation": 400, "illegal": 409, "undo_refused": 409,
          "busy": 429, "full": 503, "storage": 500}


def create_app(db: str = "boardcore-matches.sqlite3", *, workers: int | None = None) -> Starlette:
    """Return the server's ASGI application, its matches kept in the SQLite file ``db``.

    Args:
        db: the SQLite file (made if missing; ``":memory:"`` keeps nothing).
        workers: threads for the bots' and hints' searches (default: one per CPU).
    """
    hub: Hub | None = None

    def the_hub() -> Hub:
        assert hub is not None, "the application has not started"
        return hub

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        nonlocal hub
        store = Store(db)
        advisor = Advisor(workers)
        hub = Hub(store, advisor)
        count = hub.load()
        hub.start()
        log.info("boardcore: %d matches loaded from %s", count, db)
        try:
            yield
        finally:
            advisor.shutdown(wait=False)
            store.close()

    api = _Api(the_hub)
    routes = [
        Route("/", lambda request: FileResponse(STATIC / "index.html")),
        Route("/api/games", api.games),
        Route("/api/matches", api.matches, methods=["GET", "POST"]),
        Route("/api/matches/{match}", api.state),
        Route("/api/matches/{match}/record", api.record),
        Route("/api/matches/{match}/{action:str}", api.act, methods=["POST"]),
        Route("/api/replay", api.replay, methods=["POST"]),
        WebSocketRoute("/ws", api.websocket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


def _refused(refusal: Refusal, request: str | None = None) -> JSONResponse:
    return JSONResponse(refusal.to_json(request), status_code=STATUS.get(refusal.code, 400))


def _answer(handler: Callable[..., Awaitable[object]]) -> Callable[..., Awaitable[Response]]:
    # An HTTP handler returns a JSON value or raises Refusal.
    async def handle(self: _Api, request: Request) -> Response:
        try:
            return JSONResponse(await handler(self, request))
        except Refusal as refusal:
            return _refused(refusal)
    return handle


async def _body(request: Request) -> Any:
    # The request's JSON body, read within MAX_BODY.
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY:
        raise Refusal("too_big", f"a request body is at most {MAX_BODY} bytes")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise Refusal("too_big", f"a request body is at most {MAX_BODY} bytes")
    return _parse(bytes(data))


def _parse(text: str | bytes) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise Refusal("bad_json", f"not JSON: {exc}") from None


def _token(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if header is None:
        return None
    kind, _, token = header.partition(" ")
    if kind.lower() != "bearer" or not token:
        raise Refusal("bad_token", "write the seat's token as 'Authorization: Bearer TOKEN'")
    return token


class _Api:
    """The HTTP handlers and the websocket endpoint over one hub."""

    def __init__(self, hub: Callable[[], Hub]) -> None:
        self._hub = hub

    def _seat(self, request: Request, match: Match, required: bool) -> int | None:
        token = _token(request)
        if token is None:
            if required:
                raise Refusal("spectator", "this needs a seat's token "
                                           "('Authorization: Bearer TOKEN')")
            return None
        found, seat = self._hub().seat_of(token)
        if found is not match:
            raise Refusal("bad_token", "no seat of this match has this token")
        return seat

    @_answer
    async def games(self, request: Request) -> object:
        return {
            "games": [{"game": cls.name, "title": cls.title, "min_players": cls.min_players,
                       "max_players": cls.max_players,
                       "options": boardcore.values.options_to_json(cls.option_defaults)}
                      for cls in GAME_CLASSES.values()],
            "levels": levels(), "agents": list(AGENTS), "undo": list(UNDO_RULES),
            "version": boardcore.__version__,
        }

    @_answer
    async def matches(self, request: Request) -> object:
        hub = self._hub()
        if request.method == "POST":
            match, tokens = hub.create(await _body(request))
            return {"match": match.id, "tokens": {str(p): t for p, t in tokens.items()},
                    "summary": match.summary()}
        return {"matches": [m.summary() for m in reversed(hub.matches.values())]}

    @_answer
    async def state(self, request: Request) -> object:
        match = self._hub().match(request.path_params["match"])
        seat = self._seat(request, match, required=False)
        return json.loads(match.message(seat, request.query_params.get("svg") == "1"))

    @_answer
    async def record(self, request: Request) -> object:
        match = self._hub().match(request.path_params["match"])
        seat = self._seat(request, match, required=False)
        if match.state.is_over():
            return boardcore.record(match.state)
        return seat_record(match.state, "spectator" if seat is None else seat)

    @_answer
    async def act(self, request: Request) -> object:
        hub = self._hub()
        match = hub.match(request.path_params["match"])
        action = request.path_params["action"]
        if action not in ("move", "undo", "hint", "pace"):
            raise Refusal("bad_request", f"no action {quote(action, 40)}: move, undo, hint "
                                         "or pace")
        body = await _body(request)
        if not isinstance(body, dict):
            raise Refusal("bad_request", "the body must be a JSON object")
        if action == "pace":
            if match.humans:
                self._seat(request, match, required=True)
            hub.pace(match, body)
            return json.loads(match.message(None, False))
        seat = self._seat(request, match, required=True)
        assert seat is not None
        if action == "hint":
            return await hub.hint(match, seat)
        if action == "move":
            hub.move(match, seat, body.get("move"), body.get("version"))
        else:
            hub.undo(match, seat, body.get("version"))
        return json.loads(match.message(seat, request.query_params.get("svg") == "1"))

    @_answer
    async def replay(self, request: Request) -> object:
        body = await _body(request)
        if not isinstance(body, dict):
            raise Refusal("bad_request", "the body must be {record, ply, perspective}")
        return frame(body.get("record"), body.get("ply"), body.get("perspective", "all"))

    async def websocket(self, ws: WebSocket) -> None:
        await ws.accept()
        connection = _Connection(self._hub(), ws)
        pump = asyncio.create_task(connection.pump())
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    connection.refuse(Refusal("bad_request", "send text messages (JSON)"))
                elif len(text) > MAX_MESSAGE:
                    connection.refuse(Refusal("too_big", f"a message is at most "
                                                         f"{MAX_MESSAGE} bytes"))
                else:
                    connection.handle(text)
        except WebSocketDisconnect:
            pass
        finally:
            connection.leave()
            pump.cancel()


class _Connection:
    """One websocket client: the seat it joined or the match it watches, and its queue."""

    def __init__(self, hub: Hub, ws: WebSocket) -> None:
        self.hub = hub
        self.ws = ws
        self.seat: int | None = None
        self.svg = False
        self.match: Match | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.tasks: set[asyncio.Task[None]] = set()

    def deliver(self, text: str) -> None:
        if self.queue.qsize() >= MAX_QUEUE:     # too slow to keep up: let it go
            self.leave()
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    async def pump(self) -> None:
        with contextlib.suppress(Exception):
            while True:
                text = await self.queue.get()
                if text is None:
                    await self.ws.close(code=1008)
                    return
                await self.ws.send_text(text)

    def leave(self) -> None:
        if self.match is not None:
            self.hub.unsubscribe(self.match, self)
        for task in self.tasks:
            task.cancel()

    def refuse(self, refusal: Refusal, request: str | None = None) -> None:
        self.deliver(json.dumps(refusal.to_json(request)))

    def handle(self, text: str) -> None:
        kind = None
        try:
            data = _parse(text)
            if not isinstance(data, dict):
                raise Refusal("bad_request", "a message is a JSON object with a 'type'")
            kind = data.get("type")
            self._handle(kind, data)
        except Refusal as refusal:
            self.refuse(refusal, kind if isinstance(kind, str) else None)

    def _handle(self, kind: object, data: dict[str, Any]) -> None:
        hub = self.hub
        if kind == "ping":
            self.deliver(json.dumps({"type": "pong"}))
            return
        if kind in ("join", "watch"):
            if self.match is not None:
                raise Refusal("bad_request", "this connection has joined a match already")
            svg = data.get("svg", False)
            if type(svg) is not bool:
                raise Refusal("bad_request", f"'svg' must be true or false, not {quote(svg, 40)}")
            if kind == "join":
                joined, seat = hub.seat_of(data.get("token"))
            else:
                joined, seat = hub.match(data.get("match")), None
            self.seat, self.svg = seat, svg
            hub.subscribe(joined, self)
            self.match = joined
            return
        match = self.match
        if kind not in ("move", "undo", "hint", "pace"):
            raise Refusal("bad_request", f"unknown message type {quote(kind, 40)}; allowed: "
                                         "join, watch, move, undo, hint, pace, ping")
        if match is None:
            raise Refusal("bad_request", "join a seat or watch a match first")
        if kind == "pace":
            if match.humans and self.seat is None:
                raise Refusal("spectator", "only the players set the pace of a match "
                                           "with people in it")
            hub.pace(match, data)
            return
        seat = self.seat
        if seat is None:
            raise Refusal("spectator", "a spectator cannot move, undo or ask for a hint")
        if kind == "move":
            hub.move(match, seat, data.get("move"), data.get("version"))
        elif kind == "undo":
            hub.undo(match, seat, data.get("version"))
        else:
            task = asyncio.get_running_loop().create_task(self._hint(match, seat))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _hint(self, match: Match, seat: int) -> None:
        try:
            self.deliver(json.dumps(await self.hub.hint(match, seat)))
        except Refusal as refusal:
            self.refuse(refusal, "hint")


def frame(record: object, ply: object, perspective: object) -> dict[str, object]:
    """Return one step of a replay: the position after ``ply`` actions of ``record``.

    ``perspective``: ``"all"`` (every card), ``"spectator"`` or a seat.
    """
    if not isinstance(record, dict) or not isinstance(record.get("actions"), list):
        raise Refusal("bad_request", "'record' must be a game record (boardcore.record)")
    try:
        whole = boardcore.replay(record)
    except (InvalidStateError, RecursionError) as exc:
        raise Refusal("bad_request", f"the record does not replay: {exc}") from None
    plies = len(whole.history())
    if type(ply) is not int or not 0 <= ply <= plies:
        raise Refusal("bad_request", f"'ply' must be 0..{plies}, not {quote(ply, 40)}")
    if perspective != "all" and perspective != "spectator" and (
            type(perspective) is not int or not 0 <= perspective < whole.game.num_players):
        raise Refusal("bad_request", f"'perspective' must be 'all', 'spectator' or a seat, "
                                     f"not {quote(perspective, 40)}")
    state = boardcore.replay({**record, "actions": record["actions"][:ply]})
    seen = None if perspective == "all" else cast("int | Literal['spectator']", perspective)
    game, snapshot, last = state.game, state.snapshot(), state.last_move
    log_ = []
    walk = boardcore.replay({**record, "actions": []})
    for action in whole.history():
        log_.append([walk.current_player, walk.action_to_str(action)])
        walk.apply(action)
    outcome = snapshot.outcome
    try:
        view = None if seen is None else game.view(snapshot, seen).to_json()
    except BoardcoreError as exc:
        raise Refusal("bad_request", str(exc)) from None
    return {"type": "frame", "game": game.name, "title": game.title,
            "players": game.num_players, "ply": ply, "plies": plies, "log": log_,
            "perspective": perspective, "view": view,
            "svg": game.draw(snapshot, last, seen).render(720),
            "last_move": None if last is None else last.to_json(),
            "outcome": None if outcome is None else outcome.to_json()}
