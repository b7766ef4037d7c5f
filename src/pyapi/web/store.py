"""The matches on disk: one SQLite file, each move stored before it is acknowledged.

Two tables.  ``matches`` holds what a match was made with -- the game, its players and
options, the seed (as text: seeds reach ``2**64 - 1``, past SQLite's integers), each
seat's kind, the SHA-256 of each human seat's token (never the token), the undo rule,
the bots' pace -- and its ``version``, which every move and every take-back raises.
``moves`` holds each match's actions by ply.  A position is its match's seed and moves,
replayed.  Every change is one transaction, committed before the server answers, in
write-ahead-log mode with ``synchronous=NORMAL``: a committed move survives the
server's process being killed (``SIGKILL``); a power cut may lose the last moves
(``synchronous=FULL`` would keep them, at an fsync per move).

>>> store = Store(":memory:")
>>> store.add_match(MatchRow("m1", 0.0, "fool", 4, {}, 7, [None, "random", None, "greedy"],
...                          ["ab12", None, "cd34", None], "safe", 0.5, False, 0, []))
>>> store.add_move("m1", 0, 3, version=1)
>>> row = store.matches()[0]
>>> row.seed, row.version, row.actions
(7, 1, [3])
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass

__all__ = ["MatchRow", "Store"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    options TEXT NOT NULL,
    seed TEXT NOT NULL,
    seats TEXT NOT NULL,
    tokens TEXT NOT NULL,
    undo TEXT NOT NULL,
    delay REAL NOT NULL,
    paused INTEGER NOT NULL DEFAULT 0,
    version INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS moves (
    match TEXT NOT NULL,
    ply INTEGER NOT NULL,
    action INTEGER NOT NULL,
    PRIMARY KEY (match, ply)
) WITHOUT ROWID;
"""


@dataclass
class MatchRow:
    """One match as stored: how it was made, its version and its actions."""

    id: str
    created: float
    game: str
    players: int
    options: dict[str, object]
    seed: int
    seats: list[str | None]        # per seat: None for a person, else the agent's name
    tokens: list[str | None]       # per seat: the SHA-256 of its token, None for a bot
    undo: str
    delay: float
    paused: bool
    version: int
    actions: list[int]


class Store:
    """The SQLite file of a server's matches (``":memory:"`` for none)."""

    def __init__(self, path: str) -> None:
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    def add_match(self, row: MatchRow) -> None:
        """Store a new match (with no moves)."""
        with self._db:
            self._db.execute(
                "INSERT INTO matches (id, created, game, players, options, seed, seats, tokens,"
                " undo, delay, paused, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (row.id, row.created or time.time(), row.game, row.players,
                 json.dumps(row.options), str(row.seed), json.dumps(row.seats),
                 json.dumps(row.tokens), row.undo, row.delay, int(row.paused), row.version))

    def add_move(self, match: str, ply: int, action: int, version: int) -> None:
        """Store action ``ply`` of ``match`` and its new version, in one transaction."""
        with self._db:
            self._db.execute("INSERT INTO moves (match, ply, action) VALUES (?, ?, ?)",
                             (match, ply, action))
            self._db.execute("UPDATE matches SET version = ? WHERE id = ?", (version, match))

    def take_back(self, match: str, ply: int, version: int) -> None:
        """Delete ``match``'s actions from ``ply`` on and store its new version."""
        with self._db:
            self._db.execute("DELETE FROM moves WHERE match = ? AND ply >= ?", (match, ply))
            self._db.execute("UPDATE matches SET version = ? WHERE id = ?", (version, match))

    def set_pace(self, match: str, delay: float, paused: bool) -> None:
        """Store the bots' pace of ``match``."""
        with self._db:
            self._db.execute("UPDATE matches SET delay = ?, paused = ? WHERE id = ?",
                             (delay, int(paused), match))

    def matches(self) -> list[MatchRow]:
        """Return every stored match with its actions, oldest first."""
        moves: dict[str, list[int]] = {}
        for match, action in self._db.execute(
                "SELECT match, action FROM moves ORDER BY match, ply"):
            moves.setdefault(match, []).append(action)
        rows = []
        for (id_, created, game, players, options, seed, seats, tokens, undo, delay, paused,
             version) in self._db.execute("SELECT id, created, game, players, options, seed,"
                                          " seats, tokens, undo, delay, paused, version"
                                          " FROM matches ORDER BY created, id"):
            rows.append(MatchRow(id_, created, game, players, json.loads(options), int(seed),
                                 json.loads(seats), json.loads(tokens), undo, delay,
                                 bool(paused), version, moves.get(id_, [])))
        return rows
