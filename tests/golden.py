"""Golden files: seeded playthroughs and the PRNG stream, written only on purpose.

Write a playthrough (a new file, or a deliberate change of behaviour that bumps the
game's ``rules_version``)::

    python -m tests.golden playthrough just4fun 3 17 18 '{"returned_on_lock": true}'

Rewrite the PRNG stream (never, unless the generator itself changes)::

    python -m tests.golden rng
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import boardcore

DATA = Path(__file__).parent / "data"

RNG_SEEDS = [0, 1, 12345, 2**63, 2**64 - 1]
RNG_BOUNDS = [1, 2, 3, 7, 36, 55, 1000, 2**31 + 1, 2**32 - 1]


def playthrough(name: str, players: int, options: dict[str, Any], seed: int,
                player_seed: int) -> dict[str, Any]:
    """Play one seeded random game and return its transcript."""
    game = boardcore.make(name, players=players, **options)
    state = game.new_state(seed=seed)
    outcome = state.rollout(seed=player_seed)
    record = boardcore.record(state)
    return {
        "game": name,
        "players": players,
        "options": record["options"],
        "seed": seed,
        "player_seed": player_seed,
        "actions": record["actions"],
        "outcome": {"scores": list(outcome.scores), "winners": sorted(outcome.winners)},
        "final": state.to_dict(),
        "picture": str(state).splitlines(),
    }


def rng_stream() -> dict[str, Any]:
    """The generator's outputs the engines must reproduce on every platform."""
    from boardcore._engine import _random
    from boardcore.simulate import derive_seed

    return {
        "stream": {str(s): _random.stream(s, 8) for s in RNG_SEEDS},
        "bounded": {str(n): _random.bounded(12345, n, 16) for n in RNG_BOUNDS},
        "shuffled": {str(n): _random.shuffled(n, n) for n in (1, 2, 10, 55, 88)},
        "derive_seed": [
            [s, stream, i, derive_seed(s, stream, i)]
            for s in RNG_SEEDS for stream in (0, 1) for i in (0, 1, 99)
        ],
    }


def _write(path: Path, doc: dict[str, Any]) -> None:
    path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}")


def main(argv: list[str]) -> None:
    if argv[:1] == ["rng"]:
        _write(DATA / "rng_stream.json", rng_stream())
    elif argv[:1] == ["playthrough"] and len(argv) in (5, 6):
        name, players, seed, player_seed = argv[1], int(argv[2]), int(argv[3]), int(argv[4])
        options = json.loads(argv[5]) if len(argv) == 6 else {}
        doc = playthrough(name, players, options, seed, player_seed)
        _write(DATA / f"{name}_playthrough_{players}p_seed{seed}.json", doc)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
