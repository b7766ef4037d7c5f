"""Matches in play: who sits where, what each client is sent, and the bots' moves.

Nothing here knows HTTP or websockets (``server.py`` does): a ``Hub`` holds the matches,
checks every request against the public API -- the rules are the engine's, never
repeated here -- stores each change (``Store``) before anyone hears of it, and hands
each client the messages for its seat.  Everything runs on one asyncio event loop, so a
match changes in one place at a time; only the bots' and hints' searches leave it, each
on a private copy of the position in an ``Advisor``'s threads, where the compiled
search runs without the GIL.

What leaves for a seat is that seat's view, its picture and, when it is to act, its
legal moves; a spectator gets the public view.  A bot's candidate moves tell what it
holds, so they are sent only in matches without a person at the table.

>>> hub = Hub(Store(":memory:"), Advisor(max_workers=1))
>>> match, tokens = hub.create({"game": "fool", "seats": ["human"] * 4, "seed": 7})
>>> hub.move(match, 0, "G5", version=0)
>>> match.version, match.log
(1, [[0, 'G5']])
>>> hub.move(match, 0, "G6", version=1)
Traceback (most recent call last):
...
boardcore.web.matches.Refusal: seat 1 is to act, not seat 0
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
import secrets
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

import boardcore
from boardcore.agents import HINT_LEVEL, LevelAgent, agent_from_string
from boardcore.app import Advisor, take_back
from boardcore.errors import BoardcoreError, IllegalActionError, NotationError
from boardcore.values import options_to_json, quote
from boardcore.web.store import MatchRow, Store

__all__ = ["AGENTS", "Client", "Hub", "Match", "Refusal", "levels"]

log = logging.getLogger("boardcore.web")

#: Matches a server holds at most (finished ones included).
MAX_MATCHES = 20_000
#: Clients one match serves at most (seats and spectators).
MAX_CLIENTS = 64
#: The longest pause before a bot moves, in seconds.
MAX_DELAY = 10.0
#: The undo rules a match is made with: ``safe`` refuses to go back past an action that
#: showed hidden information, ``any`` allows it, ``off`` offers no undo.
UNDO_RULES = ("safe", "any", "off")
#: Agent names the lobby offers besides the levels (any agent string is accepted).
AGENTS = ("random", "greedy", "flat:100", "ismcts:1000", "ismcts:0.5s")
#: The agent that gives hints, as ``boardcore play --hint``.
HINT_AGENT = f"level:{HINT_LEVEL}"
#: Candidates a hint lists, and a bot's move shows.
HINT_SIZE = 3
CANDIDATES = 5
#: Image width of a picture sent to a client, in pixels.
PICTURE_WIDTH = 720


class Refusal(Exception):
    """A request refused: ``code`` for programs, the message for people.

    Codes: ``bad_json``, ``bad_request``, ``too_big``, ``unknown_match``, ``bad_token``,
    ``spectator``, ``not_your_turn``, ``stale``, ``game_over``, ``notation``,
    ``illegal``, ``undo_refused``, ``busy``, ``full``, ``storage``.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code

    def to_json(self, request: object = None) -> dict[str, object]:
        """Return the error message a client is sent."""
        return {"type": "error", "code": self.code, "message": str(self),
                "request": request if isinstance(request, str) else None}


class Client(Protocol):
    """A subscriber to a match: a seat's page, a spectator, a program."""

    #: The seat it plays, ``None`` for a spectator.
    seat: int | None
    #: Whether it wants the picture (SVG) in each state message.
    svg: bool

    def deliver(self, text: str) -> None:
        """Queue one message (JSON text) for it; never blocks."""


def levels() -> list[str]:
    """Return the difficulty levels (``level:1`` ...), weakest first."""
    return [f"level:{n}" for n in LevelAgent.LEVELS]


#: ``boardcore.make`` for a game named in a request or a stored row (its overloads want
#: a literal name; ``make`` checks this one).
_make: Callable[..., Any] = boardcore.make


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Match:
    """One match: its stored row, its position, its bots and its clients."""

    row: MatchRow
    state: Any
    agents: dict[int, Any]
    log: list[list[object]]                 # per action: [seat, notation]
    last_move: Any = None
    analysis: dict[str, object] | None = None
    thinking: int | None = None
    pending: int | None = None              # the version a bot move is scheduled for
    hinting: bool = False
    clients: set[Client] = field(default_factory=set)
    cache: dict[tuple[int | None, bool], str] = field(default_factory=dict)
    cached: int = -1                        # the version ``cache`` is of

    @property
    def id(self) -> str:
        """The match's id."""
        return self.row.id

    @property
    def version(self) -> int:
        """Raised by every move and take-back."""
        return self.row.version

    @property
    def humans(self) -> list[int]:
        """The seats people play."""
        return [p for p, agent in enumerate(self.row.seats) if agent is None]

    def summary(self) -> dict[str, object]:
        """Return the match as the lobby lists it: public information only."""
        outcome = self.state.outcome()
        return {
            "match": self.id, "game": self.row.game, "title": self.state.game.title,
            "players": self.row.players, "options": self.row.options,
            "seats": self.seats(), "ply": len(self.log), "version": self.version,
            "over": outcome is not None, "created": self.row.created,
            "outcome": None if outcome is None else outcome.to_json(),
        }

    def seats(self) -> list[dict[str, object]]:
        """Return who plays each seat: a person or an agent's name."""
        return [{"seat": p, "kind": "human"} if agent is None
                else {"seat": p, "kind": "agent", "agent": agent}
                for p, agent in enumerate(self.row.seats)]

    def message(self, seat: int | None, svg: bool) -> str:
        """Return the state message for ``seat`` (``None``: a spectator), as JSON text."""
        if self.cached != self.version:
            self.cache.clear()
            self.cached = self.version
        key = (seat, svg)
        text = self.cache.get(key)
        if text is None:
            text = self.cache[key] = json.dumps(self._message(seat, svg))
        return text

    def _message(self, seat: int | None, svg: bool) -> dict[str, object]:
        state, game = self.state, self.state.game
        snapshot = state.snapshot()
        perspective = "spectator" if seat is None else seat
        to_act = snapshot.current_player
        outcome = snapshot.outcome
        moves = []
        if seat is not None and seat == to_act:
            moves = [{"action": a, "move": game.action_to_str(snapshot, a)}
                     for a in state.legal_actions()]
        message: dict[str, object] = {
            "type": "state", "match": self.id, "version": self.version,
            "ply": len(self.log), "seat": seat, "game": self.row.game, "title": game.title,
            "players": self.row.players, "options": self.row.options, "seats": self.seats(),
            "undo": self.row.undo, "delay": self.row.delay, "paused": self.row.paused,
            "to_act": to_act, "view": game.view(snapshot, perspective).to_json(),
            "moves": moves,
            "last_move": None if self.last_move is None else self.last_move.to_json(),
            "log": self.log, "outcome": None if outcome is None else outcome.to_json(),
            "thinking": self.thinking,
            "analysis": self.analysis if not self.humans else None,
        }
        if svg:
            message["svg"] = game.draw(snapshot, self.last_move, perspective).render(
                PICTURE_WIDTH)
        return message


class Hub:
    """Every match of a server, and what changes them.

    Args:
        store: where the matches are kept.
        advisor: the threads that bots and hints search in.
    """

    def __init__(self, store: Store, advisor: Advisor) -> None:
        self.store = store
        self.advisor = advisor
        self.matches: dict[str, Match] = {}
        self._tokens: dict[str, tuple[Match, int]] = {}

    # -- making and loading matches -----------------------------------------------------

    def load(self) -> int:
        """Load every stored match, each at its last stored move; return how many."""
        for row in self.store.matches():
            try:
                self._open(row)
            except (BoardcoreError, TypeError, ValueError) as exc:
                log.error("match %s cannot be loaded: %s", row.id, exc)
        return len(self.matches)

    def start(self) -> None:
        """Set every bot that is to move thinking (call on the running event loop)."""
        for match in self.matches.values():
            self._schedule(match)

    def _open(self, row: MatchRow) -> Match:
        game = _make(row.game, players=row.players, **row.options)
        state = game.new_state(seed=row.seed)
        agents = {p: agent_from_string(name, seed=(row.seed + p) % 2**64)
                  for p, name in enumerate(row.seats) if name is not None}
        match = Match(row=row, state=state, agents=agents, log=[])
        for action in row.actions:
            self._advance(match, action)
        match.last_move = state.last_move
        self.matches[row.id] = match
        for p, digest in enumerate(row.tokens):
            if digest is not None:
                self._tokens[digest] = (match, p)
        return match

    def create(self, spec: object) -> tuple[Match, dict[int, str]]:
        """Make a match from a lobby's request; return it and each person's token.

        ``spec``: ``{"game", "players", "seats": ["human" or an agent name, ...],
        "options": {...}, "seed": int, "undo": "safe" | "any" | "off", "delay":
        seconds, "paused": bool}``, only ``game`` and ``seats`` required.
        """
        if not isinstance(spec, dict):
            raise Refusal("bad_request", f"a match is a JSON object, not {quote(spec, 60)}")
        unknown = sorted(set(spec) - {"game", "players", "seats", "options", "seed", "undo",
                                      "delay", "paused"})
        if unknown:
            raise Refusal("bad_request", f"unknown field {quote(unknown[0], 40)} of a match")
        if len(self.matches) >= MAX_MATCHES:
            raise Refusal("full", f"this server holds {MAX_MATCHES} matches already")
        seats = spec.get("seats")
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise Refusal("bad_request", "'seats' must be a list of 'human' or agent names")
        players = spec.get("players", len(seats))
        options = spec.get("options", {})
        if not isinstance(options, dict):
            raise Refusal("bad_request", "'options' must be a JSON object")
        undo = spec.get("undo", "safe")
        if undo not in UNDO_RULES:
            raise Refusal("bad_request", f"'undo' is {quote(undo, 40)}; allowed: "
                                         + ", ".join(UNDO_RULES))
        delay, paused = self._pace(spec.get("delay", 0.5), spec.get("paused", False))
        try:
            game = _make(spec.get("game"), players=players, **options)
            if len(seats) != game.num_players:
                raise Refusal("bad_request", f"{game.name} for {game.num_players} players "
                                             f"needs {game.num_players} seats, not {len(seats)}")
            for name in seats:
                if name != "human":
                    agent_from_string(name, seed=0)
            seed = boardcore.values.check_seed(spec.get("seed"))
        except (BoardcoreError, TypeError) as exc:
            raise Refusal("bad_request", str(exc)) from None
        tokens = {p: secrets.token_urlsafe(32) for p, s in enumerate(seats) if s == "human"}
        row = MatchRow(
            id=secrets.token_urlsafe(12), created=time.time(), game=game.name,
            players=game.num_players, options=options_to_json(game.options), seed=seed,
            seats=[None if s == "human" else s for s in seats],
            tokens=[_hash(tokens[p]) if p in tokens else None for p in range(len(seats))],
            undo=undo, delay=delay, paused=paused, version=0, actions=[])
        try:
            self.store.add_match(row)
        except sqlite3.Error as exc:
            raise Refusal("storage", f"the match could not be stored: {exc}") from None
        match = self._open(row)
        self._schedule(match)
        return match, tokens

    @staticmethod
    def _pace(delay: object, paused: object) -> tuple[float, bool]:
        if not (isinstance(delay, (int, float)) and type(delay) is not bool
                and math.isfinite(delay) and 0 <= delay <= MAX_DELAY):
            raise Refusal("bad_request", f"'delay' must be 0..{MAX_DELAY:g} seconds, "
                                         f"not {quote(delay, 40)}")
        if type(paused) is not bool:
            raise Refusal("bad_request", f"'paused' must be true or false, not {quote(paused, 40)}")
        return float(delay), paused

    # -- finding who asks -------------------------------------------------------------

    def seat_of(self, token: object) -> tuple[Match, int]:
        """Return the match and seat a token opens; ``bad_token`` for any other."""
        if not isinstance(token, str) or not 20 <= len(token) <= 100:
            raise Refusal("bad_token", "no seat has this token")
        found = self._tokens.get(_hash(token))
        if found is None:
            raise Refusal("bad_token", "no seat has this token")
        return found

    def match(self, match_id: object) -> Match:
        """Return the match of an id; ``unknown_match`` for any other."""
        found = self.matches.get(match_id) if isinstance(match_id, str) else None
        if found is None:
            raise Refusal("unknown_match", f"no match {quote(match_id, 40)}")
        return found

    def subscribe(self, match: Match, client: Client) -> None:
        """Send ``client`` the match's state now and after every change."""
        if len(match.clients) >= MAX_CLIENTS:
            raise Refusal("full", f"match {match.id} has {MAX_CLIENTS} clients already")
        match.clients.add(client)
        client.deliver(match.message(client.seat, client.svg))

    def unsubscribe(self, match: Match, client: Client) -> None:
        """Send ``client`` nothing more."""
        match.clients.discard(client)

    # -- changes ----------------------------------------------------------------------

    def move(self, match: Match, seat: int, move: object, version: object) -> None:
        """Play ``move`` (notation, or an action number) for ``seat`` at ``version``."""
        self._current(match, version)
        state = match.state
        if state.current_player != seat:
            raise Refusal("not_your_turn",
                          f"seat {state.current_player} is to act, not seat {seat}")
        if isinstance(move, str) and len(move) <= 200:
            try:
                action = state.parse_action(move)
            except NotationError as exc:
                raise Refusal("notation", str(exc)) from None
        elif type(move) is int:
            action = move
        else:
            raise Refusal("bad_request", f"a move is its notation (a string) or its action "
                                         f"number, not {quote(move, 40)}")
        self._play(match, action)

    def undo(self, match: Match, seat: int, version: object) -> int:
        """Take back ``seat``'s last action and all since, as the match's rule allows."""
        self._current(match, version)
        rule = match.row.undo
        if rule == "off":
            raise Refusal("undo_refused", "this match was made without undo")
        log_ = match.log
        mine = [i for i, (mover, _) in enumerate(log_) if mover == seat]
        if not mine:
            raise Refusal("undo_refused", f"seat {seat} has no move to take back")
        others = (set(match.humans) - {seat}) & {mover for mover, _ in log_[mine[-1]:]}
        if others:
            raise Refusal("undo_refused", f"seat {min(others)} (a person) has moved since: "
                                          "only your own moves and bots' can be taken back")
        state = match.state.copy()
        try:
            steps = take_back(state, seat, allow_revealing=rule == "any")
        except IllegalActionError as exc:
            raise Refusal("undo_refused", str(exc)) from None
        ply = len(log_) - steps
        try:
            self.store.take_back(match.id, ply, match.version + 1)
        except sqlite3.Error as exc:
            raise Refusal("storage", f"the undo could not be stored: {exc}") from None
        match.state = state
        del log_[ply:]
        match.row.version += 1
        match.last_move = state.last_move
        match.analysis = None
        self._changed(match)
        return steps

    def pace(self, match: Match, request: dict[str, object]) -> None:
        """Set how long bots wait before they move (``delay``), or pause them (``paused``)."""
        if "delay" not in request and "paused" not in request:
            raise Refusal("bad_request", "a pace sets 'delay' (seconds), 'paused' or both")
        row = match.row
        row.delay, row.paused = self._pace(request.get("delay", row.delay),
                                           request.get("paused", row.paused))
        try:
            self.store.set_pace(match.id, row.delay, row.paused)
        except sqlite3.Error as exc:
            raise Refusal("storage", f"the pace could not be stored: {exc}") from None
        match.cached = -1
        self._changed(match)

    async def hint(self, match: Match, seat: int) -> dict[str, object]:
        """Return the hint message: the hint agent's top three moves for ``seat``, weighed."""
        state = match.state
        if state.current_player != seat:
            raise Refusal("not_your_turn", "a hint is for the seat to act")
        if match.hinting:
            raise Refusal("busy", "a hint is being worked out already")
        match.hinting = True
        version = match.version
        try:
            agent = agent_from_string(HINT_AGENT, seed=(match.row.seed + version) % 2**64)
            weighed = await asyncio.wrap_future(self.advisor.ask(partial(weigh, agent), state))
        finally:
            match.hinting = False
        return {"type": "hint", "match": match.id, "version": version, "agent": HINT_AGENT,
                "candidates": weighed}

    def _current(self, match: Match, version: object) -> None:
        if type(version) is not int:
            raise Refusal("bad_request", f"'version' must be the match's version (an int), "
                                         f"not {quote(version, 40)}")
        if version != match.version:
            raise Refusal("stale", f"the match is at version {match.version}, not {version}: "
                                   "it changed since")
        if match.state.is_over():
            raise Refusal("game_over", "the game is over")

    def _play(self, match: Match, action: int) -> None:
        # Apply, store, then tell: a move nobody has heard of yet may be lost, never one
        # that was acknowledged.
        state = match.state
        ply = len(match.log)
        try:
            self._advance(match, action)
        except IllegalActionError as exc:
            raise Refusal("illegal", str(exc)) from None
        try:
            self.store.add_move(match.id, ply, action, match.version + 1)
        except sqlite3.Error as exc:
            state.undo()
            del match.log[ply:]
            match.last_move = state.last_move
            raise Refusal("storage", f"the move could not be stored: {exc}") from None
        match.row.version += 1
        self._changed(match)

    @staticmethod
    def _advance(match: Match, action: int) -> None:
        state, game = match.state, match.state.game
        before = state.snapshot()
        state.apply(action)
        after = state.snapshot()
        match.last_move = game.explain(before, after, action, played=True)
        match.log.append([before.current_player, match.last_move.move])

    def _changed(self, match: Match) -> None:
        for client in list(match.clients):
            client.deliver(match.message(client.seat, client.svg))
        self._schedule(match)

    # -- bots -------------------------------------------------------------------------

    def _schedule(self, match: Match) -> None:
        seat = match.state.current_player
        if seat is None or seat not in match.agents or match.row.paused \
                or match.pending == match.version:
            return
        match.pending = match.version
        asyncio.get_running_loop().create_task(self._bot(match, match.version, seat))

    async def _bot(self, match: Match, version: int, seat: int) -> None:
        await asyncio.sleep(match.row.delay)
        if match.version != version or match.row.paused:
            if match.pending == version:
                match.pending = None
            return
        match.thinking = seat
        try:
            action, weighed = await asyncio.wrap_future(
                self.advisor.ask(partial(decide, match.agents[seat]), match.state))
        except Exception:
            log.exception("the bot of seat %d of match %s failed", seat, match.id)
            match.pending = None
            return
        finally:
            match.thinking = None
        if match.version != version:
            return
        match.analysis = {"seat": seat, "version": version,
                          "agent": match.row.seats[seat], "candidates": weighed}
        try:
            self._play(match, action)
        except Refusal as exc:
            log.error("the bot of seat %d of match %s: %s", seat, match.id, exc)


def weigh(agent: Any, state: Any) -> list[dict[str, object]]:
    """Return the hint: the agent's likeliest moves, best first (a worker thread).

    Each: the move in notation, its action and its ``weight``.  A search that gives
    ``estimates`` (IS-MCTS and the levels) weighs a move by its share of the root visits
    and adds its ``visits`` and ``value``, the search's mean result for the seat (1 a sole
    win, 1/k a shared win, 0 a loss); flat Monte Carlo weighs a move by its ``value``; any
    other agent's weight is its ``policy``.
    """
    return _searched(agent, state, HINT_SIZE) \
        or _weighed(state, agent.policy(state), None)[:HINT_SIZE]


def decide(agent: Any, state: Any) -> tuple[int, list[dict[str, object]]]:
    """Return the action ``agent`` plays in ``state`` and its candidates (a worker thread).

    A searching agent's move is its best candidate (the most visited, or the best valued,
    the lowest action among equals: what ``act`` would choose); any other plays ``act``
    and shows no candidates.
    """
    weighed = _searched(agent, state, CANDIDATES)
    if not weighed:
        return agent.act(state), []
    best = weighed[0]["action"]
    assert isinstance(best, int)
    return best, weighed


def _searched(agent: Any, state: Any, size: int) -> list[dict[str, object]]:
    # The best ``size`` moves of a search: by root visits, with their mean results
    # (``estimates``), or by value (flat Monte Carlo's ``values``); [] for other agents.
    estimates: Callable[[Any], dict[int, tuple[int, float]]] | None = \
        getattr(agent, "estimates", None)
    if estimates is not None:
        found = estimates(state)
        weighed = _weighed(state, {a: float(v) for a, (v, _) in found.items()}, "visits")
        for item in weighed[:size]:
            action = item["action"]
            assert isinstance(action, int)
            item["value"] = found[action][1]
        return weighed[:size]
    values: Callable[[Any], dict[int, float]] | None = getattr(agent, "values", None)
    return [] if values is None else _weighed(state, values(state), "values")[:size]


def _weighed(state: Any, weights: dict[int, float], kind: str | None) -> list[dict[str, object]]:
    # Best first; the lowest action among equals (as the agents choose).
    snapshot = state.snapshot()
    game = state.game
    total = sum(weights.values()) or 1
    order = sorted(weights, key=lambda a: (-weights[a], a))
    out = []
    for a in order:
        item: dict[str, object] = {"action": a, "move": game.action_to_str(snapshot, a),
                                   "weight": weights[a] / total}
        if kind == "visits":
            item["visits"] = int(weights[a])
        elif kind == "values":
            item["value"] = weights[a]
        out.append(item)
    return out
