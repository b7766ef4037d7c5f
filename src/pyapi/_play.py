"""``boardcore play``: one game in the terminal, a person against bots.

The person plays one seat; bots (``random``, ``greedy``, ``flat:N``, ``ismcts:N``,
``level:N``) play the others, their moves announced and explained; with hints, each of
the person's turns also shows the strongest level's three best moves and their values.
Each turn shows the position as that seat sees it and its legal moves in notation; a bad
move is answered with the error and the legal moves, and the game goes on.  ``undo``
takes back the person's last move (and the bots' replies), ``moves`` lists the legal
moves again, ``quit`` ends the game.  It reads from any stream, so a script can play a
whole game through a pipe.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from boardcore._engine._random import STREAM_PLAY_SEAT, derive_seed
from boardcore.agents import HINT_LEVEL, ExpertAgent, LevelAgent, agent_from_string
from boardcore.errors import BoardcoreError, ConfigurationError, IllegalActionError
from boardcore.records import record

if TYPE_CHECKING:
    from boardcore._registry import AnyGame

__all__ = ["hint", "play"]

COMMANDS = "commands: a move in notation, 'moves', 'undo', 'quit'"


def hint(state: Any, adviser: LevelAgent, count: int = 3) -> str:
    """The ``count`` moves ``adviser``'s search likes best for the seat to act, in words.

    Each move with its estimated value for that seat (its mean result in the search: 1 a
    win, 0 a loss) and its share of the search's visits, the most visited first.
    """
    found = adviser.estimates(state)
    total = sum(visits for visits, _ in found.values()) or 1
    best = sorted(found, key=lambda a: (-found[a][0], a))[:count]
    expert = isinstance(adviser.agent_for(state.game.name), ExpertAgent)
    return f"hint (level {adviser.level}{', the expert' if expert else ''}): " + ", ".join(
        f"{state.action_to_str(a)} value {found[a][1]:.2f} ({found[a][0] / total:.0%} of visits)"
        for a in best)


def play(game: AnyGame, *, seat: int, bots: Sequence[str], seed: int, stdin: TextIO,
         stdout: TextIO, save: str | None = None, hints: bool = False) -> int:
    """Play one game, ``seat`` read from ``stdin``; return how many moves the person made.

    With ``hints``, each of the person's turns shows the three best moves of the expert
    (level 5; ``hint``).

    Raises:
        ConfigurationError: ``seat`` is not a seat of the game, or a bot name is unknown.
    """
    n = game.num_players
    if not 0 <= seat < n:
        raise ConfigurationError(f"--seat must be a seat of the game, 0..{n - 1}, not {seat}")
    names = list(bots) or ["ismcts:1000"]
    others = [p for p in range(n) if p != seat]
    table: dict[int, Any] = {
        p: agent_from_string(names[i % len(names)],
                             seed=derive_seed(seed, STREAM_PLAY_SEAT, p))
        for i, p in enumerate(others)
    }
    labels = {p: names[i % len(names)] for i, p in enumerate(others)}
    adviser = LevelAgent(HINT_LEVEL, seed=derive_seed(seed, STREAM_PLAY_SEAT, seat))
    state = game.new_state(seed)
    say = stdout.write
    say(f"{game.name}, {n} players, seed {seed}: you are seat {seat}; "
        + ", ".join(f"seat {p} is {labels[p]}" for p in others) + f"\n{COMMANDS}\n")
    moves = 0
    while not state.is_over():
        player = state.current_player
        assert player is not None
        if player != seat:
            action = table[player].act(state)
            say(f"seat {player} ({labels[player]}) plays {state.action_to_str(action)}"
                f"{_told(state, action)}\n")
            state.apply(action)
            continue
        say("\n" + state.text(perspective=seat) + "\n")
        say("your moves: " + ", ".join(state.action_to_str(a) for a in state.legal_actions())
            + "\n")
        if hints:
            say(hint(state, adviser) + "\n")
        while True:
            say("your move> ")
            stdout.flush()
            line = stdin.readline()
            if not line:
                say("\n(no more input: the game stops here)\n")
                return _finish(state, stdout, save, moves)
            text = line.strip()
            if not text:
                continue
            if text == "quit":
                return _finish(state, stdout, save, moves)
            if text == "moves":
                say(", ".join(state.action_to_str(a) for a in state.legal_actions()) + "\n")
                continue
            if text == "undo":
                if _undo_turn(state, seat):
                    say("taken back\n")
                    break
                say("nothing of yours to take back\n")
                continue
            try:
                action = state.parse_action(text)
                told = _told(state, action)
                state.apply(action)
            except IllegalActionError:
                say(f"{text!r} is not a legal move here; your moves: "
                    + ", ".join(state.action_to_str(a) for a in state.legal_actions()) + "\n")
                continue
            except BoardcoreError as exc:
                say(f"{exc}\n{COMMANDS}\n")
                continue
            say(f"you play {state.action_to_str(action)}{told}\n")
            moves += 1
            break
    return _finish(state, stdout, save, moves)


def _told(state: Any, action: int) -> str:
    # A short explanation of the move, where the game's move value says something.
    try:
        move = state.explain(action)
    except BoardcoreError:
        return ""
    words = [f"{k} {v}" for k, v in _interesting(move)]
    return f" ({', '.join(words)})" if words else ""


def _interesting(move: Any) -> list[tuple[str, object]]:
    # The fields of a move value worth a word: set flags, non-zero gains, named places.
    out: list[tuple[str, object]] = []
    for name in getattr(move, "__dataclass_fields__", {}):
        if name in ("player", "move", "action"):
            continue
        value = getattr(move, name)
        if value in (None, False, 0, (), "") or (isinstance(value, tuple)
                                                 and not any(value)):
            continue
        out.append((name.replace("_", " "), value if value is not True else "yes"))
    return out[:4]


def _undo_turn(state: Any, seat: int) -> bool:
    # Take back the bots' replies and the person's last move: back to their turn.
    history = state.history()
    if not history:
        return False
    probe = state.copy()
    steps = 0
    while probe.history():
        probe.undo()
        steps += 1
        if probe.current_player == seat:
            for _ in range(steps):
                state.undo()
            return True
    return False


def _finish(state: Any, stdout: TextIO, save: str | None, moves: int) -> int:
    outcome = state.outcome()
    if outcome is not None:
        winners = " and ".join(f"seat {p}" for p in sorted(outcome.winners))
        stdout.write(f"\ngame over: scores {list(outcome.scores)}; {winners} won\n")
    if save is not None:
        with open(save, "w", encoding="utf-8") as out:
            json.dump(record(state), out, indent=1)
            out.write("\n")
        stdout.write(f"record saved to {save}\n")
    return moves
