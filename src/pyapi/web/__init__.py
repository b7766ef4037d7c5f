"""``boardcore serve``: play, watch and replay the games in a browser (``boardcore[web]``).

A server on Starlette and uvicorn over the public API: a lobby to make matches of any
game with people and bots, a page per seat reached by its own unguessable link, a
spectator's page, replays, and a JSON and websocket API for apps and bots without the
page (``docs/web.md``).  Matches are kept in SQLite; each move is stored before it is
acknowledged.  The page is plain HTML, JavaScript and CSS shipped in the wheel.

Only ``boardcore.web.store`` and ``boardcore.web.matches`` import nothing beyond
boardcore and the standard library; ``serve`` and ``create_app`` need the extra.

>>> from starlette.testclient import TestClient
>>> with TestClient(create_app(":memory:")) as client:
...     made = client.post("/api/matches", json={"game": "fool", "seats": ["human"] * 4})
...     state = client.get(f"/api/matches/{made.json()['match']}",
...                        headers={"Authorization": "Bearer " + made.json()["tokens"]["2"]})
>>> state.json()["seat"], len(state.json()["view"]["hand"])
(2, 12)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = ["DEFAULT_DB", "create_app", "serve"]

#: The SQLite file ``boardcore serve`` keeps its matches in by default.
DEFAULT_DB = "boardcore-matches.sqlite3"


def _need_extra() -> None:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
        import websockets  # noqa: F401
    except ImportError as exc:
        raise ImportError(f"boardcore serve needs the web extra: pip install 'boardcore[web]' "
                          f"({exc.name} is missing)") from None


def create_app(db: str = DEFAULT_DB, *, workers: int | None = None) -> Starlette:
    """Return the server's ASGI application (``boardcore.web.server.create_app``)."""
    _need_extra()
    from boardcore.web.server import create_app as make

    return make(db, workers=workers)


def serve(host: str = "127.0.0.1", port: int = 8000, db: str = DEFAULT_DB, *,
          workers: int | None = None, log_level: str = "info") -> None:
    """Run the server until interrupted: the page at ``http://HOST:PORT/``.

    It binds the loopback address unless told otherwise: anyone who reaches the port
    can make matches and watch them (each seat is opened only by its token).
    """
    _need_extra()
    import uvicorn

    from boardcore.web.server import MAX_MESSAGE

    uvicorn.run(create_app(db, workers=workers), host=host, port=port, log_level=log_level,
                ws="auto", ws_max_size=MAX_MESSAGE, lifespan="on",
                timeout_graceful_shutdown=2)
