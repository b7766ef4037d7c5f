"""Agents that play any boardcore game: random, greedy, flat Monte Carlo and IS-MCTS.

Every agent decides for the seat to act in the state it is given, from that seat's
information only: the searches sample the hidden parts of the position afresh
(determinizations), so a position that differs only in what the seat cannot see gets
the same decision from the same seed.  Agents are seeded and reproducible: the same seed
and the same sequence of ``act`` calls give the same actions (a time limit aside).

>>> import boardcore
>>> from boardcore.agents import ISMCTSAgent, RandomAgent, agent_from_string
>>> state = boardcore.make("just4fun", players=2).new_state(seed=5)
>>> agent = ISMCTSAgent(iterations=500, seed=1)
>>> action = agent.act(state)
>>> action in state.legal_actions()
True
>>> agent_from_string("flat:50", seed=3)
FlatMonteCarloAgent(rollouts=50, seed=3)
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol, SupportsIndex, runtime_checkable

from boardcore._engine import _search
from boardcore._engine._state import EngineState, derive_seed
from boardcore.errors import ConfigurationError, IllegalActionError
from boardcore.values import check_int, check_seed, quote

if TYPE_CHECKING:
    from boardcore._registry import AnyState

__all__ = [
    "Agent",
    "FlatMonteCarloAgent",
    "GreedyAgent",
    "ISMCTSAgent",
    "RandomAgent",
    "agent_from_string",
]

#: Bytes of one search-tree node: an IS-MCTS search of N iterations holds N + 1 nodes.
NODE_BYTES: int = _search.NODE_BYTES


@runtime_checkable
class Agent(Protocol):
    """What every agent does: choose an action for the seat to act."""

    def act(self, state: AnyState) -> int:
        """Return the action the agent plays for ``state``'s seat to act."""
        ...

    def policy(self, state: AnyState) -> dict[int, float]:
        """Return a probability for every legal action (what ``act`` would weigh)."""
        ...


class _Seeded:
    """An agent's own generator: one derived seed per decision."""

    def __init__(self, seed: SupportsIndex | None) -> None:
        self.seed = check_seed(seed)
        self._decisions = 0

    def _next_seed(self) -> int:
        seed = derive_seed(self.seed, 2, self._decisions)
        self._decisions += 1
        return seed

    @staticmethod
    def _check(state: object) -> EngineState:
        if not isinstance(state, EngineState):
            raise TypeError(f"an agent acts on a boardcore state, not {quote(state)}")
        if state.is_over():
            raise IllegalActionError("the game is over: there is no seat to act for")
        return state


class RandomAgent(_Seeded):
    """Plays a uniformly random legal action.

    >>> import boardcore
    >>> state = boardcore.make("fool", players=4).new_state(seed=2)
    >>> RandomAgent(seed=7).act(state) in state.legal_actions()
    True
    """

    def __init__(self, seed: SupportsIndex | None = None) -> None:
        super().__init__(seed)

    def act(self, state: AnyState) -> int:
        """Return a uniformly random legal action."""
        legal = self._check(state).legal_actions()
        return legal[random.Random(self._next_seed()).randrange(len(legal))]

    def policy(self, state: AnyState) -> dict[int, float]:
        """Return the uniform distribution over the legal actions."""
        legal = self._check(state).legal_actions()
        return {a: 1 / len(legal) for a in legal}

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed})"


class GreedyAgent(_Seeded):
    """Plays the action with the best immediate gain by the game's own score; ties at random.

    >>> import boardcore
    >>> state = boardcore.make("three_or_more", players=2).new_state(seed=2)
    >>> GreedyAgent(seed=1).act(state) in state.legal_actions()
    True
    """

    def __init__(self, seed: SupportsIndex | None = None) -> None:
        super().__init__(seed)

    def _best(self, state: AnyState) -> list[int]:
        gains = _search.greedy_gains(self._check(state), self._next_seed())
        top = max(gains.values())
        return sorted(a for a, g in gains.items() if g == top)

    def act(self, state: AnyState) -> int:
        """Return a legal action of the largest immediate gain (one at random among ties)."""
        best = self._best(state)
        return best[random.Random(self._next_seed()).randrange(len(best))]

    def policy(self, state: AnyState) -> dict[int, float]:
        """Return the uniform distribution over the actions of the largest gain."""
        best = set(self._best(state))
        return {a: (1 / len(best) if a in best else 0.0) for a in state.legal_actions()}

    def __repr__(self) -> str:
        return f"GreedyAgent(seed={self.seed})"


class FlatMonteCarloAgent(_Seeded):
    """Plays the action whose random play-outs win most often, for the seat to act.

    Args:
        rollouts: play-outs per legal action, each from a fresh determinization.
        seed: the agent's seed (``None`` draws one).
    """

    def __init__(self, rollouts: SupportsIndex = 200, seed: SupportsIndex | None = None) -> None:
        super().__init__(seed)
        self.rollouts = check_int(rollouts, "rollouts")
        if not 1 <= self.rollouts <= 10_000_000:
            raise ConfigurationError(f"rollouts must be in 1..10000000, not {self.rollouts}")

    def values(self, state: AnyState) -> dict[int, float]:
        """Return each legal action's mean result (1 a win, 1/k a shared win, 0 a loss)."""
        return _search.flat_monte_carlo(self._check(state), self.rollouts, self._next_seed())

    def act(self, state: AnyState) -> int:
        """Return the legal action of the best mean result (the lowest among ties)."""
        values = self.values(state)
        return max(sorted(values), key=values.__getitem__)

    def policy(self, state: AnyState) -> dict[int, float]:
        """Return the mean results, normalised to sum to 1."""
        values = self.values(state)
        total = sum(values.values())
        if total == 0:
            return {a: 1 / len(values) for a in values}
        return {a: v / total for a, v in values.items()}

    def __repr__(self) -> str:
        return f"FlatMonteCarloAgent(rollouts={self.rollouts}, seed={self.seed})"


class ISMCTSAgent(_Seeded):
    """Information-set Monte Carlo tree search (single observer), in compiled code.

    Args:
        iterations: search iterations per decision (default 1,000 without a time limit).
        time_limit: seconds per decision (a search stops at whichever comes first).
        exploration: the UCB constant ``c`` of ``r/v + c*sqrt(ln(avail)/v)``.
        seed: the agent's seed (``None`` draws one).

    The search runs without the GIL in a node pool the agent keeps between moves:
    ``NODE_BYTES`` (32) bytes per node, ``iterations + 1`` nodes at most (1,048,576
    with a time limit alone).
    """

    def __init__(
        self,
        iterations: SupportsIndex | None = None,
        time_limit: float | None = None,
        exploration: float = 0.7,
        seed: SupportsIndex | None = None,
    ) -> None:
        super().__init__(seed)
        if iterations is None and time_limit is None:
            iterations = 1000
        self.iterations = 0 if iterations is None else check_int(iterations, "iterations")
        given = iterations is not None
        if not 0 <= self.iterations <= 100_000_000 or (given and self.iterations == 0):
            raise ConfigurationError(f"iterations must be in 1..100000000, not {quote(iterations)}")
        self.time_limit = 0.0 if time_limit is None else float(time_limit)
        if not 0 <= self.time_limit <= 86400 or (time_limit is not None and self.time_limit == 0):
            raise ConfigurationError(
                f"time_limit must be a positive number of seconds, not {quote(time_limit)}")
        self.exploration = float(exploration)
        if not 0 <= self.exploration <= 100:
            raise ConfigurationError(f"exploration must be in 0..100, not {quote(exploration)}")
        self._tree = _search.Tree()
        self.last_iterations = 0

    def visits(self, state: AnyState) -> dict[int, int]:
        """Search and return the visit count of every legal action at the root."""
        done, visits = _search.ismcts(self._check(state), self._tree, self.iterations,
                                      self.time_limit, self.exploration, self._next_seed())
        self.last_iterations = done
        return visits

    def act(self, state: AnyState) -> int:
        """Return the most visited legal action (the lowest among ties)."""
        legal = self._check(state).legal_actions()
        if len(legal) == 1:
            return legal[0]
        visits = self.visits(state)
        return max(sorted(visits), key=visits.__getitem__)

    def policy(self, state: AnyState) -> dict[int, float]:
        """Return the visit share of every legal action."""
        visits = self.visits(state)
        total = sum(visits.values())
        return {a: v / total for a, v in visits.items()}

    def __repr__(self) -> str:
        limit = f", time_limit={self.time_limit}" if self.time_limit else ""
        count = f"iterations={self.iterations}" if self.iterations else "iterations=None"
        return f"ISMCTSAgent({count}{limit}, exploration={self.exploration}, seed={self.seed})"


AnyAgent = RandomAgent | GreedyAgent | FlatMonteCarloAgent | ISMCTSAgent


def agent_from_string(text: str, seed: SupportsIndex | None = None) -> AnyAgent:
    """Return the agent ``text`` names.

    The names are ``random``, ``greedy``, ``flat:200`` (play-outs per action),
    ``ismcts:2000`` (iterations) and ``ismcts:1.5s`` (seconds per decision).

    Raises:
        ConfigurationError: ``text`` names no agent.
    """
    if not isinstance(text, str):
        raise TypeError(f"an agent is named by a str, not {quote(text)}")
    kind, _, arg = text.strip().lower().partition(":")
    try:
        if kind == "random" and not arg:
            return RandomAgent(seed=seed)
        if kind == "greedy" and not arg:
            return GreedyAgent(seed=seed)
        if kind == "flat":
            return FlatMonteCarloAgent(int(arg) if arg else 200, seed=seed)
        if kind == "ismcts":
            if arg.endswith("s"):
                return ISMCTSAgent(time_limit=float(arg[:-1]), seed=seed)
            return ISMCTSAgent(int(arg) if arg else 1000, seed=seed)
    except ValueError as exc:
        raise ConfigurationError(f"bad agent {quote(text)}: {exc}") from None
    raise ConfigurationError(
        f"unknown agent {quote(text)}; write random, greedy, flat:ROLLOUTS, "
        f"ismcts:ITERATIONS or ismcts:SECONDSs"
    )
