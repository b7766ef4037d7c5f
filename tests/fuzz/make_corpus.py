"""Write the seed corpus: ``python -m tests.fuzz.make_corpus`` (rewrites ``corpus/``).

Per game and its least and greatest player count: ``to_dict()`` documents and records at
the start, after a few moves and at the end, and one started from a set-up position;
``parse_action`` inputs naming a legal action of a seeded position; ``apply`` byte
programs; and command lines of every command.  Deterministic: the same files each run.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import boardcore
from boardcore._registry import GAME_CLASSES

CORPUS = Path(__file__).parent / "corpus"
HEADER = ("game", "rules_version", "players", "options", "seed")


def _counts(name: str) -> tuple[int, int]:
    cls = GAME_CLASSES[name]
    return cls.min_players, cls.max_players


def _positions(game: Any, seed: int) -> dict[str, Any]:
    """A game's start, a few moves in, its end, and a set-up position (re-dealt by hand)."""
    rng = random.Random(seed)
    start = game.new_state(seed=seed)
    middle = start.copy()
    for _ in range(6):
        if not middle.is_over():
            middle.apply(rng.choice(middle.legal_actions()))
    end = middle.copy()
    end.rollout(seed=seed)
    doc = middle.to_dict()
    fields = {k: v for k, v in doc.items() if k not in (*HEADER, "history", "setup")}
    setup = game.state_from_dict({**{k: doc[k] for k in HEADER}, "setup": fields,
                                  "history": []})
    setup.apply(setup.legal_actions()[0])
    return {"start": start, "middle": middle, "end": end, "setup": setup}


def _header(game: Any, players: int, seed: int, moves: int) -> bytes:
    index = boardcore.GAMES.index(game.name)
    cls = type(game)
    return bytes([index, players - cls.min_players]) + seed.to_bytes(8, "little") + \
        bytes([moves])


def _write(harness: str, name: str, data: bytes) -> None:
    folder = CORPUS / harness
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)


def _game_files(name: str) -> None:
    for players in _counts(name):
        game = boardcore.make(name, players=players)
        seed = 1000 + players
        for label, state in _positions(game, seed).items():
            tag = f"{name}-{players}p-{label}"
            _write("state_from_dict", f"{tag}.json", json.dumps(state.to_dict()).encode())
            _write("replay", f"{tag}.json", json.dumps(boardcore.record(state)).encode())
        # parse_action: the notation of a legal action, after 0 and 6 random moves
        for moves in (0, 6):
            state = game.new_state(seed=seed)
            rng = random.Random(state.seed)
            for _ in range(moves):
                if not state.is_over():
                    state.apply(rng.choice(state.legal_actions()))
            for i, action in enumerate(state.legal_actions()[:3]):
                text = state.action_to_str(action)
                _write("parse_action", f"{name}-{players}p-{moves}m-{i}",
                       _header(game, players, seed, moves) +
                       text.encode())
        # apply: legal moves (op < 160), wrong arguments (160..229), undo, a copy's play-out
        program = bytes([0, 3, 1, 7, 200, 5, 1, 2, 240, 0, 9, 165, 3, 4, 250, 1, 2, 3, 4,
                         170, 2, 1, 210, 0, 245, 245, 0, 1, 2, 3, 4, 5, 6, 7])
        _write("apply", f"{name}-{players}p", _header(game, players, seed, 0)[:-1] + program)
        # the command line
        lines = [
            ["simulate", name, "--players", str(players), "--games", "1e3", "--seed", "7"],
            ["simulate", name, "--players", str(players), "--json", "-o", "x=1",
             "--workers", "2", "--output", "out.json", "--no-progress"],
            ["arena", name, "--players", str(players), "--agents", "random,greedy,ismcts:10",
             "--games", "10", "--seed", "0x10"],
            ["play", name, "--players", str(players), "--seat", "1", "--bots", "flat:5",
             "--save", "game.json"],
            ["rules", name],
        ]
        for i, argv in enumerate(lines):
            _write("cli", f"{name}-{players}p-{i}", "\0".join(argv).encode())


def main() -> None:
    shutil.rmtree(CORPUS, ignore_errors=True)
    for name in boardcore.GAMES:
        _game_files(name)
    _write("cli", "help", b"--help")
    _write("cli", "simulate-help", b"simulate\0--help")
    _write("cli", "version", b"--version")
    _write("parse_action", "junk", bytes(11) + "draw 0 \u00e9\xff".encode())


if __name__ == "__main__":
    main()
