"""Agents that play any boardcore game: random, greedy, flat Monte Carlo, IS-MCTS, expert.

Each agent is a handle on one compiled agent (``boardcore._engine._search``): the same
code decides for a ``VectorEnv``'s opponents.  Every agent decides for the seat to act in
the state it is given, from that seat's information only: the searches sample the hidden
parts of the position afresh (determinizations), so a position that differs only in what
the seat cannot see gets the same decision from the same seed.  Agents are seeded and
reproducible: the same seed and the same sequence of calls give the same actions (a
time limit aside).

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

import copy
import re
from typing import TYPE_CHECKING, ClassVar, Protocol, SupportsIndex, runtime_checkable

from boardcore._engine import _search
from boardcore._engine._state import EngineState
from boardcore.errors import ConfigurationError
from boardcore.values import check_int, check_seed, quote

if TYPE_CHECKING:
    from typing_extensions import Self

    from boardcore._registry import AnyState

__all__ = [
    "HINT_LEVEL",
    "LEVELS",
    "Agent",
    "ExpertAgent",
    "FlatMonteCarloAgent",
    "GreedyAgent",
    "ISMCTSAgent",
    "LevelAgent",
    "RandomAgent",
    "agent_from_string",
]

#: Bytes of one search-tree node: an IS-MCTS search of N iterations holds N + 1 nodes.
NODE_BYTES: int = _search.NODE_BYTES

# The grammar of agent names: a kind, then ``:`` and its argument where it takes one.
# ASCII only: no sign, space, ``_`` or exponent in a number, no other case.
_NAME = re.compile(r"([a-z]+)(?::(.+))?", re.ASCII)
_COUNT = re.compile(r"[0-9]+", re.ASCII)
_SECONDS = re.compile(r"([0-9]+(?:\.[0-9]+)?)s", re.ASCII)


@runtime_checkable
class Agent(Protocol):
    """What every agent does: choose an action for the seat to act."""

    def act(self, state: AnyState) -> int:
        """Return the action the agent plays for ``state``'s seat to act."""
        ...

    def policy(self, state: AnyState) -> dict[int, float]:
        """Return a probability for every legal action (what ``act`` would weigh)."""
        ...


class _Compiled:
    """An agent whose decisions are made by a compiled one, ``_search.Searcher``.

    Decision ``i`` (each call of ``act``, ``policy``, ``values`` or ``visits``) draws
    from ``derive_seed(seed, STREAM_DECISION, i)``.  The compiled agent checks the
    settings and the state: a bad setting is a ``ConfigurationError`` (``TypeError`` for
    a wrong type), a finished game an ``IllegalActionError``.
    """

    #: The name of the kind in ``agent_from_string`` and ``_search.KINDS``.
    kind: ClassVar[str]
    #: The names ``agent_from_string`` reads for this class (its part of the grammar).
    forms: ClassVar[tuple[str, ...]]

    def __init__(self, seed: SupportsIndex | None, budget: SupportsIndex | None = None,
                 time_limit: float | None = None, exploration: float = 0.0) -> None:
        self._searcher = _search.Searcher(self.kind, budget, time_limit, exploration,
                                          check_seed(seed))

    @property
    def seed(self) -> int:
        """The agent's seed."""
        return self._searcher.seed

    def __copy__(self) -> Self:
        # A copy decides on from where the agent is, with its own count of decisions.
        return copy.deepcopy(self)

    @classmethod
    def _from_argument(cls, arg: str | None, seed: SupportsIndex | None) -> Self | None:
        """Return the agent ``kind:arg`` names (``arg`` ``None``: ``kind`` alone).

        ``None`` if no agent of this class has that name.
        """
        return cls(seed=seed) if arg is None else None

    def act(self, state: AnyState) -> int:
        """Return the action the agent plays for ``state``'s seat to act."""
        return self._searcher.act(state)

    def policy(self, state: AnyState) -> dict[int, float]:
        """Return each legal action's value, normalised to sum to 1 (uniform if all 0)."""
        values = self._searcher.values(state)
        total = sum(values.values())
        if total == 0:
            return {a: 1 / len(values) for a in values}
        return {a: v / total for a, v in values.items()}


class RandomAgent(_Compiled):
    """Plays a uniformly random legal action: ``legal[bounded(len(legal))]``.

    The draw is the house random player's, the one of ``state.rollout()``, from the
    agent's own generator.

    >>> import boardcore
    >>> state = boardcore.make("fool", players=4).new_state(seed=2)
    >>> RandomAgent(seed=7).act(state) in state.legal_actions()
    True
    """

    kind = "random"
    forms = ("random",)

    def __init__(self, seed: SupportsIndex | None = None) -> None:
        super().__init__(seed)

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed})"


class GreedyAgent(_Compiled):
    """Plays the action with the best immediate gain by the game's own score; ties at random.

    >>> import boardcore
    >>> state = boardcore.make("three_or_more", players=2).new_state(seed=2)
    >>> GreedyAgent(seed=1).act(state) in state.legal_actions()
    True
    """

    kind = "greedy"
    forms = ("greedy",)

    def __init__(self, seed: SupportsIndex | None = None) -> None:
        super().__init__(seed)

    def policy(self, state: AnyState) -> dict[int, float]:
        """Return the uniform distribution over the actions of the largest gain."""
        gains = self._searcher.values(state)
        top = max(gains.values())
        ties = sum(g == top for g in gains.values())
        return {a: (1 / ties if g == top else 0.0) for a, g in gains.items()}

    def __repr__(self) -> str:
        return f"GreedyAgent(seed={self.seed})"


class FlatMonteCarloAgent(_Compiled):
    """Plays the action whose random play-outs win most often, for the seat to act.

    Args:
        rollouts: play-outs per legal action, each from a fresh determinization.
        seed: the agent's seed (``None`` draws one).
    """

    kind = "flat"
    forms = ("flat", "flat:ROLLOUTS")

    def __init__(self, rollouts: SupportsIndex = 200, seed: SupportsIndex | None = None) -> None:
        super().__init__(seed, rollouts)

    @classmethod
    def _from_argument(cls, arg: str | None, seed: SupportsIndex | None) -> Self | None:
        if arg is None or not _COUNT.fullmatch(arg):
            return super()._from_argument(arg, seed)
        return cls(int(arg), seed=seed)

    @property
    def rollouts(self) -> int:
        """Play-outs per legal action."""
        return self._searcher.budget or 0

    def values(self, state: AnyState) -> dict[int, float]:
        """Return each legal action's mean result (1 a win, 1/k a shared win, 0 a loss)."""
        return self._searcher.values(state)

    def __repr__(self) -> str:
        return f"FlatMonteCarloAgent(rollouts={self.rollouts}, seed={self.seed})"


class ISMCTSAgent(_Compiled):
    """Information-set Monte Carlo tree search (single observer), in compiled code.

    Args:
        iterations: search iterations per decision (default 1,000 without a time limit).
        time_limit: seconds per decision (a search stops at whichever comes first, and
            runs at least 32 iterations).
        exploration: the UCB constant ``c`` of ``r/v + c*sqrt(ln(avail)/v)``.
        seed: the agent's seed (``None`` draws one).

    The search runs without the GIL in a node pool the agent keeps between moves:
    ``NODE_BYTES`` (32) bytes per node, ``iterations + 1`` nodes at most (1,048,576
    with a time limit alone).
    """

    kind = "ismcts"
    forms = ("ismcts", "ismcts:ITERATIONS", "ismcts:SECONDSs")

    def __init__(
        self,
        iterations: SupportsIndex | None = None,
        time_limit: float | None = None,
        exploration: float = 0.7,
        seed: SupportsIndex | None = None,
    ) -> None:
        if iterations is None and time_limit is None:
            iterations = 1000
        super().__init__(seed, iterations, time_limit, exploration)

    @classmethod
    def _from_argument(cls, arg: str | None, seed: SupportsIndex | None) -> Self | None:
        seconds = _SECONDS.fullmatch(arg or "")
        if seconds:
            return cls(time_limit=float(seconds.group(1)), seed=seed)
        if arg is None or not _COUNT.fullmatch(arg):
            return super()._from_argument(arg, seed)
        return cls(int(arg), seed=seed)

    @property
    def iterations(self) -> int | None:
        """Iterations per decision (``None``: the time limit alone)."""
        return self._searcher.budget

    @property
    def time_limit(self) -> float | None:
        """Seconds per decision (``None``: no time limit)."""
        return self._searcher.time_limit

    @property
    def exploration(self) -> float:
        """The UCB constant."""
        return self._searcher.exploration

    @property
    def last_iterations(self) -> int:
        """Iterations the last search ran."""
        return self._searcher.last_iterations

    def visits(self, state: AnyState) -> dict[int, int]:
        """Search and return the visit count of every legal action at the root."""
        return {a: int(v) for a, v in self._searcher.values(state).items()}

    def estimates(self, state: AnyState) -> dict[int, tuple[int, float]]:
        """Search and return every legal action's root visits and mean result.

        The mean result is the search's estimate of the action's value for the seat to
        act (1 a sole win, 1/k a shared win, 0 a loss; 0 for an action never visited).
        """
        return self._searcher.estimates(state)

    def __repr__(self) -> str:
        limit = f", time_limit={self.time_limit}" if self.time_limit is not None else ""
        return (f"{type(self).__name__}(iterations={self.iterations}{limit}, "
                f"exploration={self.exploration}, seed={self.seed})")


class ExpertAgent(ISMCTSAgent):
    """IS-MCTS whose play-outs follow the game's heuristic player, in compiled code.

    The tree search is ``ISMCTSAgent``'s with a smaller UCB constant (0.35); a play-out
    plays every seat's moves by a cheap rule of the game where its engine has one (the
    kernel's heuristic: in Just4Fun, a play that makes four in a row, else one that takes
    the field where another seat's hand would make four, else a random play) and the
    random player's moves elsewhere.  A screening result, not a proven expert: see
    "Towards an expert" in docs/agents.md for what each lever gave.

    Args:
        iterations: search iterations per decision (default 1,000 without a time limit).
        time_limit: seconds per decision.
        exploration: the UCB constant.
        seed: the agent's seed (``None`` draws one).

    >>> import boardcore
    >>> state = boardcore.make("just4fun", players=2).new_state(seed=2)
    >>> ExpertAgent(iterations=300, seed=1).act(state) in state.legal_actions()
    True
    """

    kind = "expert"
    forms = ("expert", "expert:ITERATIONS", "expert:SECONDSs")

    def __init__(
        self,
        iterations: SupportsIndex | None = None,
        time_limit: float | None = None,
        exploration: float = 0.35,
        seed: SupportsIndex | None = None,
    ) -> None:
        super().__init__(iterations, time_limit, exploration, seed)


CompiledAgent = RandomAgent | GreedyAgent | FlatMonteCarloAgent | ISMCTSAgent | ExpertAgent

#: The agents of the difficulty levels 1..5 (``level:N``), per game: chosen from each
#: game's ladder in docs/agents.md so that neighbouring levels are about 150-250 Elo
#: apart where the game's scale allows (Rummikub Junior's luck packs its whole ladder
#: into 480 Elo), level 1 a search so small that it blunders where a person sees it,
#: level 5 the expert (``ExpertAgent``) at 10,000 iterations.
LEVELS: dict[str, tuple[str, str, str, str, str]] = {
    "just4fun": ("ismcts:30", "ismcts:100", "ismcts:300", "ismcts:1000", "expert:10000"),
    "three_or_more": ("ismcts:10", "ismcts:30", "ismcts:100", "ismcts:1000", "expert:10000"),
    "fool": ("ismcts:100", "ismcts:300", "ismcts:1000", "ismcts:3000", "expert:10000"),
    "rummikub_junior": ("ismcts:10", "ismcts:30", "ismcts:100", "ismcts:1000",
                        "expert:10000"),
}
#: The level whose search gives hints (``boardcore play --hint``, ``boardcore serve``'s
#: page): level 5, the expert.
HINT_LEVEL = 5


class LevelAgent:
    """A difficulty level, 1 (a beginner can beat it) to 5 (the expert).

    In each game it plays as the agent ``LEVELS[game][level - 1]`` names, made on the
    first decision in that game with the level agent's seed, so a level decides exactly
    as that agent does (from its seat's information only, reproducibly).

    >>> import boardcore
    >>> state = boardcore.make("three_or_more", players=2).new_state(seed=2)
    >>> agent = LevelAgent(1, seed=4)
    >>> agent.act(state) in state.legal_actions()
    True
    >>> agent.agent_for("three_or_more")
    ISMCTSAgent(iterations=10, exploration=0.7, seed=4)
    """

    kind: ClassVar[str] = "level"
    forms: ClassVar[tuple[str, ...]] = ("level:LEVEL",)
    #: The levels, weakest first.
    LEVELS: ClassVar[range] = range(1, 6)

    def __init__(self, level: SupportsIndex, seed: SupportsIndex | None = None) -> None:
        n = check_int(level, "level")
        if n not in self.LEVELS:
            raise ConfigurationError(f"level must be in 1..5, not {quote(level)}")
        self.level = n
        self._seed = check_seed(seed)
        self._agents: dict[str, CompiledAgent] = {}

    @classmethod
    def _from_argument(cls, arg: str | None, seed: SupportsIndex | None) -> Self | None:
        if arg is None or not _COUNT.fullmatch(arg):
            return None
        return cls(int(arg), seed=seed)

    @property
    def seed(self) -> int:
        """The level's seed (its agent in each game has this seed)."""
        return self._seed

    def __copy__(self) -> Self:
        # As a compiled agent's copy: it decides on from where the level is.
        return copy.deepcopy(self)

    def agent_for(self, game: str) -> CompiledAgent:
        """Return the agent this level plays ``game`` with (one per game, kept)."""
        if game not in LEVELS:
            raise ConfigurationError(f"no levels for {quote(game)}; games: {', '.join(LEVELS)}")
        if game not in self._agents:
            agent = agent_from_string(LEVELS[game][self.level - 1], seed=self._seed)
            assert not isinstance(agent, LevelAgent)
            self._agents[game] = agent
        return self._agents[game]

    def _agent(self, state: AnyState) -> CompiledAgent:
        game = state.game if isinstance(state, EngineState) else None
        if game is None:        # (a bare EngineState has no game)
            raise TypeError(f"an agent acts on a boardcore state, not {quote(state)}")
        return self.agent_for(game.name)

    def act(self, state: AnyState) -> int:
        """Return the action the level plays for ``state``'s seat to act."""
        return self._agent(state).act(state)

    def policy(self, state: AnyState) -> dict[int, float]:
        """Return the policy of the level's agent for ``state`` (its ``policy``)."""
        return self._agent(state).policy(state)

    def estimates(self, state: AnyState) -> dict[int, tuple[int, float]]:
        """Return the ``estimates`` of the level's agent (a search) for ``state``."""
        agent = self._agent(state)
        if not isinstance(agent, ISMCTSAgent):
            raise ConfigurationError(f"level {self.level} plays {quote(agent)}, which has "
                                     "no estimates")
        return agent.estimates(state)

    def __repr__(self) -> str:
        return f"LevelAgent(level={self.level}, seed={self.seed})"


AnyAgent = CompiledAgent | LevelAgent

#: The agent classes by the kind ``agent_from_string`` names them by.
AGENTS: dict[str, type[AnyAgent]] = {
    cls.kind: cls
    for cls in (RandomAgent, GreedyAgent, FlatMonteCarloAgent, ISMCTSAgent, ExpertAgent,
                LevelAgent)
}
_FORMS = [form for cls in AGENTS.values() for form in cls.forms]
#: Every name ``agent_from_string`` reads, for messages.
GRAMMAR = ", ".join(_FORMS[:-1]) + " or " + _FORMS[-1]


def agent_from_string(text: str, seed: SupportsIndex | None = None) -> AnyAgent:
    """Return the agent ``text`` names, seeded with ``seed``.

    The names, exactly (lower case, no spaces; numbers in ASCII digits, without sign,
    ``_`` or exponent): ``random``, ``greedy``, ``flat`` or ``flat:N`` (``N`` play-outs
    per action, 200 by default), ``ismcts`` or ``ismcts:N`` (``N`` iterations, 1,000 by
    default), ``ismcts:Ts`` (``T`` seconds per decision, such as ``ismcts:0.5s``),
    ``expert``, ``expert:N``, ``expert:Ts`` (the same for ``ExpertAgent``),
    ``level:N`` (difficulty level ``N``, 1..5: ``LevelAgent``).  The defaults are the
    agent classes' own, and each class reads its own names.

    >>> agent_from_string("ismcts:0.5s", seed=1)
    ISMCTSAgent(iterations=None, time_limit=0.5, exploration=0.7, seed=1)

    Raises:
        TypeError: ``text`` is not a str.
        ConfigurationError: ``text`` names no agent, or a setting is out of range.
    """
    if not isinstance(text, str):
        raise TypeError(f"an agent is named by a str, not {quote(text)}")
    name = _NAME.fullmatch(text)
    if name is None or name.group(1) not in AGENTS:
        raise ConfigurationError(f"unknown agent {quote(text)}; write {GRAMMAR}")
    agent = AGENTS[name.group(1)]._from_argument(name.group(2), seed)
    if agent is None:
        raise ConfigurationError(f"bad agent {quote(text)}: write {GRAMMAR}")
    return agent
