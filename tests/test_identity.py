"""The same seed gives the same results on every platform: bit for bit, as on Linux.

Each run of the suite -- Linux x86-64, the SIMD-off build, aarch64, free-threaded
Python, Windows (``make test-windows``) and every wheel the workflow builds -- computes
these and compares them with ``tests/data/identity.json``, written on Linux x86-64:

- the tables of ``boardcore simulate GAME ... --csv`` (every game, two workers), as the
  bytes the command writes to a pipe: their SHA-256;
- one seeded IS-MCTS search per game, from a position reached by seeded random moves:
  the visit count of every legal action.  Its choices compare floating-point scores
  (UCB), so this also checks that no compiler fused or reordered them (``setup.py``
  builds with ``-ffp-contract=off``; ``docs/packaging.md``).

The golden playthroughs (``test_golden.py``) are the third part of the same promise.
When behaviour is meant to change (a ``rules_version`` bump), write the file again:
``python -m tests.test_identity > tests/data/identity.json``.
"""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import boardcore
from boardcore.agents import ISMCTSAgent

EXPECTED = Path(__file__).resolve().parent / "data" / "identity.json"
# game: (players, games, seed) for the simulation tables
TABLES = {"just4fun": (4, 3000, 11), "three_or_more": (3, 2000, 12), "fool": (4, 1000, 13),
          "rummikub_junior": (3, 2000, 14)}
# game: (players, seed of the deal, random moves before the search, agent seed)
SEARCHES = {"just4fun": (3, 21, 9, 1), "three_or_more": (2, 22, 7, 2), "fool": (5, 23, 11, 3),
            "rummikub_junior": (4, 24, 13, 4)}
ITERATIONS = 3000


def table(game: str) -> dict[str, Any]:
    """The simulation table of ``game`` as the command writes it: its digest and size."""
    players, games, seed = TABLES[game]
    out = subprocess.run(
        [sys.executable, "-m", "boardcore", "simulate", game, "--players", str(players),
         "--games", str(games), "--seed", str(seed), "--workers", "2", "--csv"],
        capture_output=True, check=True, timeout=600).stdout
    return {"sha256": hashlib.sha256(out).hexdigest(), "lines": out.count(b"\n")}


def search(game: str) -> dict[str, int]:
    """The root visit counts of a seeded IS-MCTS search in a seeded position of ``game``."""
    players, deal, moves, agent_seed = SEARCHES[game]
    state = boardcore.make(game, players=players).new_state(seed=deal)
    rnd = random.Random(deal)
    for _ in range(moves):
        state.apply(rnd.choice(state.legal_actions()))
    assert not state.is_over()
    visits = ISMCTSAgent(iterations=ITERATIONS, seed=agent_seed).visits(state)
    return {str(action): count for action, count in sorted(visits.items())}


def expected() -> dict[str, Any]:
    return json.loads(EXPECTED.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_every_game_is_covered() -> None:
    assert set(TABLES) == set(SEARCHES) == set(boardcore.GAMES)
    assert set(expected()["tables"]) == set(expected()["searches"]) == set(boardcore.GAMES)


@pytest.mark.parametrize("game", list(TABLES))
def test_simulation_table_is_the_same_everywhere(game: str) -> None:
    assert table(game) == expected()["tables"][game]


@pytest.mark.parametrize("game", list(SEARCHES))
def test_search_is_the_same_everywhere(game: str) -> None:
    got = search(game)
    assert sum(got.values()) == ITERATIONS
    assert got == expected()["searches"][game]


if __name__ == "__main__":
    document = {"tables": {g: table(g) for g in TABLES},
                "searches": {g: search(g) for g in SEARCHES}}
    print(json.dumps(document, indent=1, sort_keys=True))
