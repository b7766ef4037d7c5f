"""Ratings: agents on one Elo scale, fitted to the finishing places of their games.

**The model.** Each agent has a strength ``γ = 10 ** (rating / 400)``.  A game is a
Plackett–Luce ranking of its seats: the first place goes to a seat with probability
proportional to its agent's strength, the second to one of the seats left in the same
way, and so on.  With two seats this is the Bradley–Terry model on the Elo scale:
``P(A ahead of B) = 1 / (1 + 10 ** ((R_B - R_A) / 400))``.  An agent holding several
seats of a game (as in a table ``A B A B``) enters its ranking once per seat.

**Shared places** (a shared win; equal scores, see ``ArenaResult.places``) are counted
as every order of the tied seats, each with weight ``1/k!`` for ``k`` seats: the fit
maximises the log-likelihood averaged over a uniformly random break of each tie.  With
two seats a draw is half a win for each side, as in Elo.  It is exact when a tie hides
an order that was equally likely either way; what a tie cannot say, it does not claim.

**The prior.** Every agent's log-strength has a Gaussian prior of standard deviation
``prior`` Elo (1,000 by default).  Without it an agent that finished ahead of (or behind)
every agent it met in every game would have an infinite rating.  Between two even agents
its weight is about a sixteenth of one game, so it moves a rating that the games do
determine by a fraction of an Elo point; a rating that rests on it is flagged (below).

**The fit.** Newton's method with a backtracking line search on the log-posterior
(strictly concave, so its maximum is unique), in numpy alone.  The ratings are then
shifted so that the ``anchor`` agent (the random player by default) is 0.

**The intervals.** 95 % percentile bootstrap: the games are resampled with replacement
(within each arena given, so that every pairing or table keeps its number of games),
the model is refitted on every resample, and an agent's interval runs from the 2.5th
to the 97.5th percentile of its rating relative to the anchor.  The resamples are drawn
from ``numpy.random.default_rng(seed)``: the same results and seed give the same
intervals.

**Separated groups.** When the agents fall into groups that the results order without
exception (every seat of one group finished ahead of every seat of the other in every
game they shared), the likelihood alone puts those groups infinitely far apart: the
point ratings between groups rest on the prior, and the bootstrap sees no uncertainty
(every resample repeats the same perfect record).  ``Ratings.groups`` lists the groups,
best first (one group: every gap is measured by the games), and an agent outside the
anchor's group gets a **profile interval** instead: the gaps ``d`` to the anchor whose
best log-posterior, with the gap held at ``d``, is within ``χ²₁(95 %)/2 = 1.92`` of the
maximum.  Its near end is what the games bound; its far end is the prior's.

>>> import boardcore
>>> game = boardcore.make("just4fun", players=2)
>>> result = boardcore.arena(game, ["greedy", "random"], games=60, seed=3)
>>> result.win_rates().tolist()                     # 45 wins to 15
[0.75, 0.25]
>>> rated = boardcore.ratings(result, resamples=200)
>>> print(rated.table())
rank  agent          rating  95% interval      gap to the next         games
   1  greedy           +191  [   +83,   +301]   +191 [  +83,  +301]       60
   2  random             +0  [    +0,     +0]                             60
<BLANKLINE>
Elo scale, random = 0: Plackett-Luce on each game's places (Bradley-Terry for 2 seats)
95% intervals: percentile bootstrap over games, 200 resamples, seed 0
gap to the next: the rating above the next agent down, with the 95% interval of the gap itself

The maximum-likelihood gap would be ``400 * log10(45 / 15) = 190.8``; the prior takes
less than one point off it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations, pairwise
from typing import TYPE_CHECKING, Any, SupportsIndex

import numpy as np
import numpy.typing as npt

from boardcore.errors import ConfigurationError
from boardcore.values import check_int, check_seed, quote

if TYPE_CHECKING:
    from boardcore.arena import ArenaResult

__all__ = ["ELO", "Ratings", "check_resamples", "from_places", "ratings"]

#: Elo points per unit of natural log-strength: a rating is ``ELO * log(γ)``.
ELO = 400 / math.log(10)

#: Elements of the largest temporary array of a batch of bootstrap fits.
_BATCH_ELEMENTS = 1_000_000
_MAX_ITERATIONS = 200


@dataclass(frozen=True)
class Ratings:
    """Agents' ratings on the Elo scale, the ``anchor`` at 0, with 95 % intervals.

    Attributes:
        agents: the agents' names, in the order of their first appearance.
        elo: ``float64 (agents,)`` each agent's rating.
        low: ``float64 (agents,)`` the lower end of its 95 % interval.
        high: ``float64 (agents,)`` the upper end.
        games: ``int64 (agents,)`` the games it played (a game counts once however many
            seats it held).
        anchor: the agent rated 0.
        samples: ``float64 (resamples, agents)`` the ratings of every bootstrap resample.
        seed: the bootstrap's seed.
        prior: the prior's standard deviation, in Elo.
        groups: groups of agents that the results order without exception, best first;
            the gaps between groups rest on the prior (one group: none does).  An agent
            outside the anchor's group has a profile interval (see the module).
    """

    agents: tuple[str, ...]
    elo: npt.NDArray[np.float64]
    low: npt.NDArray[np.float64]
    high: npt.NDArray[np.float64]
    games: npt.NDArray[np.int64]
    anchor: str
    samples: npt.NDArray[np.float64]
    seed: int
    prior: float
    groups: tuple[tuple[str, ...], ...]
    _model: _Model = field(repr=False, compare=False)

    @property
    def resamples(self) -> int:
        """The bootstrap resamples drawn."""
        return int(self.samples.shape[0])

    def order(self) -> list[int]:
        """The agents' indices, the highest rating first (the given order among ties)."""
        return sorted(range(len(self.agents)), key=lambda i: -self.elo[i])

    def _index(self, agent: object) -> int:
        if not isinstance(agent, str) or agent not in self.agents:
            raise ConfigurationError(
                f"unknown agent {quote(agent)}; rated: {', '.join(self.agents)}")
        return self.agents.index(agent)

    def difference(self, a: str, b: str) -> tuple[float, float, float]:
        """Return ``a``'s rating minus ``b``'s, with the 95 % interval of the gap.

        The bootstrap interval of the gap itself, which is narrower than the two
        ratings' intervals suggest when both met the anchor through the same games; the
        profile interval when the results separate ``a`` from ``b`` (``groups``).

        Raises:
            ConfigurationError: ``a`` or ``b`` is not a rated agent.
        """
        i, j = self._index(a), self._index(b)
        gap = float(self.elo[i] - self.elo[j])
        if not any(a in g and b in g for g in self.groups):
            low, high = self._model.profile(i, j)
            return gap, low, high
        low, high = np.percentile(self.samples[:, i] - self.samples[:, j], [2.5, 97.5])
        return gap, float(low), float(high)

    def table(self, columns: dict[str, Sequence[str]] | None = None) -> str:
        """Return the readable ladder, the highest rating first.

        Args:
            columns: more columns, by heading: one cell per agent, in ``agents`` order.
        """
        extra = columns or {}
        width = max(12, *(len(a) for a in self.agents))
        head = (f"{'rank':>4}  {'agent':<{width}}  {'rating':>7}  {'95% interval':<16}  "
                f"{'gap to the next':<20}  {'games':>7}"
                + "".join(f"  {h:>{_cell_width(h, c)}}" for h, c in extra.items()))
        rows = [head]
        for rank, (i, gap) in enumerate(zip(self.order(), self.gaps(), strict=True), 1):
            below = "" if gap is None else f"{gap[0]:>+5.0f} [{gap[1]:>+5.0f}, {gap[2]:>+5.0f}]"
            rows.append(f"{rank:>4}  {self.agents[i]:<{width}}  {self.elo[i]:>+7.0f}  "
                        f"[{self.low[i]:>+6.0f}, {self.high[i]:>+6.0f}]  {below:<20}  "
                        f"{self.games[i]:>7,}"
                        + "".join(f"  {c[i]:>{_cell_width(h, c)}}" for h, c in extra.items()))
        rows += ["", f"Elo scale, {self.anchor} = 0: Plackett-Luce on each game's places "
                     "(Bradley-Terry for 2 seats)",
                 f"95% intervals: percentile bootstrap over games, {self.resamples:,} "
                 f"resamples, seed {self.seed}",
                 "gap to the next: the rating above the next agent down, with the 95% "
                 "interval of the gap itself"]
        if len(self.groups) > 1:
            rows += ["separated: " + " > ".join("{" + ", ".join(g) + "}" for g in self.groups)
                     + " (every game between two groups went the same way)",
                     "the ratings across groups rest on the prior; outside "
                     f"{self.anchor}'s group the intervals are profile intervals"]
        return "\n".join(rows)

    def gaps(self) -> list[tuple[float, float, float] | None]:
        """In ``order()``: each agent's ``difference`` to the next one down (None: the last)."""
        order = self.order()
        return [self.difference(self.agents[i], self.agents[j])
                for i, j in pairwise(order)] + [None]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe summary: per agent (the highest rating first), rating, interval, games.

        ``gap_to_next`` is ``[gap, low, high]`` to the next agent down (``None`` for the
        last), as ``difference`` gives it.
        """
        return {
            "scale": "Elo",
            "anchor": self.anchor,
            "resamples": self.resamples,
            "seed": self.seed,
            "prior": self.prior,
            "agents": [{"agent": self.agents[i], "rating": float(self.elo[i]),
                        "rating_95": [float(self.low[i]), float(self.high[i])],
                        "gap_to_next": None if gap is None else list(gap),
                        "games": int(self.games[i])}
                       for i, gap in zip(self.order(), self.gaps(), strict=True)],
            "groups": [list(g) for g in self.groups],
        }


def _cell_width(heading: str, cells: Sequence[str]) -> int:
    return max(len(heading), *(len(c) for c in cells))


# -- input ------------------------------------------------------------------------------


def ratings(
    results: ArenaResult | Sequence[ArenaResult],
    *,
    anchor: str = "random",
    resamples: SupportsIndex = 1000,
    seed: SupportsIndex = 0,
    prior: float = 1000.0,
) -> Ratings:
    """Rate the agents of one or more arenas of one game on one Elo scale.

    Every game is ranked by its seats' finishing places (``ArenaResult.places``: the
    winners first, then by final score); agents are matched by name across arenas.

    Args:
        results: an ``ArenaResult`` or a non-empty sequence of them (the pairings or
            tables of a ladder), of the same game (the player counts may differ).
        anchor: the agent rated 0.
        resamples: bootstrap resamples for the intervals, 10..100000.
        seed: the bootstrap's seed.
        prior: the standard deviation of every rating's Gaussian prior, in Elo,
            1..100000 (see the module's documentation).

    Raises:
        TypeError: ``results`` is not an ``ArenaResult`` or a sequence of them.
        ConfigurationError: results of different games, an ``anchor`` that did not
            play, agents that never met (directly or through others), or a count or
            ``prior`` out of range.
    """
    from boardcore.arena import ArenaResult

    batch = [results] if isinstance(results, ArenaResult) else results
    if isinstance(batch, str) or not isinstance(batch, Sequence) or not batch \
            or not all(isinstance(r, ArenaResult) for r in batch):
        raise TypeError(f"results must be an ArenaResult or a list of them, not "
                        f"{quote(results)}")
    names = {r.game.name for r in batch}
    if len(names) > 1:
        raise ConfigurationError(f"results of one game only, not of {', '.join(sorted(names))}")
    agents: list[str] = []
    for result in batch:
        agents += [a for a in result.agents if a not in agents]
    blocks = []
    for result in batch:
        index = np.array([agents.index(a) for a in result.agents], dtype=np.int64)
        blocks.append((index[result.seats], result.places()))
    return _rate(agents, blocks, anchor, resamples, seed, prior)


def from_places(
    agents: Sequence[str],
    seats: npt.ArrayLike,
    places: npt.ArrayLike,
    *,
    strata: npt.ArrayLike | None = None,
    anchor: str = "random",
    resamples: SupportsIndex = 1000,
    seed: SupportsIndex = 0,
    prior: float = 1000.0,
) -> Ratings:
    """Rate agents from the places of games given as arrays (results from elsewhere).

    Args:
        agents: the agents' names, distinct.
        seats: ``(games, seats)`` integers: which agent (an index into ``agents``) sat
            where.
        places: ``(games, seats)`` integers: each seat's place, lower is better, equal
            is shared (only their order within a game counts).
        strata: ``(games,)`` integers: the bootstrap resamples the games of each value
            apart (default: all games together).
        anchor: the agent rated 0.
        resamples: bootstrap resamples, as for ``ratings``.
        seed: the bootstrap's seed.
        prior: the prior's standard deviation in Elo, as for ``ratings``.

    Raises:
        TypeError: ``agents`` is not a sequence of names.
        ConfigurationError: arrays of the wrong shape or values, duplicate agents, an
            agent that never met another, or as for ``ratings``.

    >>> rated = from_places(["a", "b"], [[0, 1]] * 30 + [[1, 0]] * 10, [[0, 1]] * 40,
    ...                     anchor="b", resamples=100, prior=100000)
    >>> round(float(rated.elo[0]), 1)             # 400 * log10(30 / 10)
    190.8
    """
    if isinstance(agents, str) or not isinstance(agents, Sequence) \
            or not all(isinstance(a, str) for a in agents):
        raise TypeError(f"agents must be a list of agent names, not {quote(agents)}")
    s, p = _int_array(seats, "seats", 2), _int_array(places, "places", 2)
    if s.shape != p.shape or s.shape[0] < 1 or s.shape[1] < 2:
        raise ConfigurationError(f"seats and places must be (games, seats) arrays of one "
                                 f"shape, with games >= 1 and seats >= 2, not {s.shape} "
                                 f"and {p.shape}")
    if s.size and (s.min() < 0 or s.max() >= len(agents)):
        raise ConfigurationError(f"seats must hold indices into agents, 0..{len(agents) - 1}")
    if strata is None:
        return _rate(list(agents), [(s, p)], anchor, resamples, seed, prior)
    k = _int_array(strata, "strata", 1)
    if k.shape != (s.shape[0],):
        raise ConfigurationError(f"strata must be a (games,) array, not {k.shape}")
    return _rate(list(agents), [(s[k == v], p[k == v]) for v in np.unique(k)], anchor,
                 resamples, seed, prior)


def _int_array(values: npt.ArrayLike, what: str, ndim: int) -> npt.NDArray[np.int64]:
    try:
        array = np.asarray(values)
    except (ValueError, TypeError, OverflowError):
        raise ConfigurationError(f"{what} must be an array of integers") from None
    if array.ndim != ndim or not (array.dtype.kind in "iu" or array.size == 0):
        raise ConfigurationError(f"{what} must be a {ndim}-d array of integers, not "
                                 f"{array.ndim}-d {array.dtype}")
    if array.dtype.kind == "u" and array.size and array.max() > np.iinfo(np.int64).max:
        raise ConfigurationError(f"{what} holds integers too large")
    return array.astype(np.int64)


def check_resamples(resamples: SupportsIndex) -> int:
    """Return ``resamples`` checked: a whole number of bootstrap resamples, 10..100000.

    Raises:
        TypeError: not an integer.
        ConfigurationError: out of range.
    """
    n = check_int(resamples, "resamples")
    if not 10 <= n <= 100_000:
        raise ConfigurationError(f"resamples must be in 10..100000, not {n}")
    return n


def _check(agents: list[str], anchor: object, resamples: SupportsIndex, seed: SupportsIndex,
           prior: object) -> tuple[int, int, int, float]:
    """Check the options; return the anchor's index, the resamples, seed and prior."""
    if len(set(agents)) != len(agents):
        raise ConfigurationError(f"agents must be distinct, not {quote(agents)}")
    if len(agents) < 2:
        raise ConfigurationError(f"ratings need two agents at least, not {quote(agents)}")
    if not isinstance(anchor, str) or anchor not in agents:
        raise ConfigurationError(f"the anchor {quote(anchor)} is not among the agents "
                                 f"({', '.join(agents)}); name one with anchor=")
    n = check_resamples(resamples)
    if isinstance(prior, bool) or not isinstance(prior, (int, float)) \
            or not 1 <= prior <= 100_000:
        raise ConfigurationError(f"prior must be a number of Elo in 1..100000, not "
                                 f"{quote(prior)}")
    return agents.index(anchor), n, check_seed(seed), float(prior)


# -- the games as choice events -----------------------------------------------------------


@dataclass(frozen=True)
class _Events:
    """The rankings as Plackett–Luce choices: "this agent, out of these seats".

    ``sets[u, a]`` counts agent ``a``'s seats in the choice set of event ``u`` and
    ``chosen[u]`` is the agent chosen.  Game ``game[o]`` holds event ``event[o]`` with
    weight ``weight[o]`` (``o`` runs over occurrences sorted by event); ``strata`` are
    the games' index ranges, one per arena.
    """

    sets: npt.NDArray[np.float64]
    chosen: npt.NDArray[np.int64]
    game: npt.NDArray[np.int64]
    event: npt.NDArray[np.int64]
    weight: npt.NDArray[np.float64]
    strata: tuple[tuple[int, int], ...]

    def weights(self, counts: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """Each event's total weight when game ``g`` is counted ``counts[:, g]`` times."""
        totals = np.zeros((counts.shape[0], self.sets.shape[0]))
        if not len(self.game):
            return totals
        per = counts[:, self.game] * self.weight
        starts = np.flatnonzero(np.r_[True, self.event[1:] != self.event[:-1]])
        totals[:, self.event[starts]] = np.add.reduceat(per, starts, axis=1)
        return totals


def _choices(agent: Sequence[int], place: Sequence[int]) -> Iterator[tuple[tuple[int, ...],
                                                                            int, float]]:
    """Yield one game's choices: (seats in the choice set, the seat chosen, weight).

    A place shared by ``k`` seats stands for every order of them, each ``1/k!``: when
    ``m`` of them are left, each subset of ``m`` is left with probability
    ``1/C(k, m)`` and each of its seats is chosen next with probability ``1/m``.
    """
    seats = range(len(agent))
    for shared in sorted(set(place)):
        tied = [s for s in seats if place[s] == shared]
        below = tuple(s for s in seats if place[s] > shared)
        k = len(tied)
        for m in range(1, k + 1):
            weight = 1 / (math.comb(k, m) * m)
            for left in combinations(tied, m):
                for seat in left:
                    yield left + below, seat, weight


def _events(agents: int, blocks: Sequence[tuple[npt.NDArray[np.int64],
                                                npt.NDArray[np.int64]]]) -> _Events:
    """Turn the games of every block into choice events (one stratum per block)."""
    index: dict[tuple[tuple[int, ...], int], int] = {}
    memo: dict[tuple[tuple[int, ...], tuple[int, ...]], list[tuple[int, float]]] = {}
    games: list[int] = []
    events: list[int] = []
    weights: list[float] = []
    strata = []
    g = 0
    for seats, places in blocks:
        strata.append((g, g + len(seats)))
        # a place, as the seats strictly ahead: only the order within a game counts
        ahead = (places[:, :, None] < places[:, None, :]).sum(axis=1)
        for row, rank in zip(seats.tolist(), ahead.tolist(), strict=True):
            key = (tuple(row), tuple(rank))
            if key not in memo:
                found = []
                for left, seat, weight in _choices(row, rank):
                    counts = np.bincount([row[s] for s in left], minlength=agents)
                    if np.count_nonzero(counts) > 1:  # a choice among one agent says nothing
                        u = index.setdefault((tuple(counts.tolist()), row[seat]), len(index))
                        found.append((u, weight))
                memo[key] = found
            for u, weight in memo[key]:
                games.append(g)
                events.append(u)
                weights.append(weight)
            g += 1
    sets = np.zeros((max(1, len(index)), agents))
    chosen = np.zeros(max(1, len(index)), dtype=np.int64)
    for (members, c), u in index.items():
        sets[u], chosen[u] = members, c
    if not index:          # no game set two agents against each other: caught by _rate
        sets[0, :2] = 1
    order = np.argsort(np.array(events, dtype=np.int64), kind="stable")
    return _Events(sets=sets, chosen=chosen, game=np.array(games, dtype=np.int64)[order],
                   event=np.array(events, dtype=np.int64)[order],
                   weight=np.array(weights)[order], strata=tuple(strata))


# -- the fit ----------------------------------------------------------------------------------

#: Half the 95 % quantile of chi-squared with one degree of freedom: a profile interval
#: holds the gaps whose best log-posterior is at most this far below the maximum.
_PROFILE_DROP = 3.841458820694124 / 2


@dataclass(frozen=True)
class _Model:
    """The choices of the games, their weights and the prior: what a fit maximises.

    Log-strengths ``θ`` (natural log); event ``u`` of weight ``w`` adds
    ``w * (θ[chosen[u]] - log Σ_a sets[u, a] exp θ[a])`` to the log-posterior, and the
    prior adds ``-precision/2 Σ θ²``.
    """

    sets: npt.NDArray[np.float64]
    chosen: npt.NDArray[np.int64]
    weights: npt.NDArray[np.float64]      # (events,): the games as played
    precision: float

    def posterior(self, theta: npt.NDArray[np.float64], weights: npt.NDArray[np.float64]
                  ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Each row's log-posterior, and each agent's share of each choice set."""
        log_sets = np.where(self.sets > 0, np.log(np.maximum(self.sets, 1)), -np.inf)
        z = log_sets[None] + theta[:, None, :]             # (rows, events, agents)
        top = z.max(axis=2, keepdims=True)
        log_total = top[..., 0] + np.log(np.exp(z - top).sum(axis=2))
        wins = weights @ np.eye(self.sets.shape[1])[self.chosen]
        value = ((wins * theta).sum(axis=1) - (weights * log_total).sum(axis=1)
                 - self.precision / 2 * (theta**2).sum(axis=1))
        return value, np.exp(z - log_total[..., None])

    def fit(self, weights: npt.NDArray[np.float64],
            basis: npt.NDArray[np.float64] | None = None,
            offset: npt.NDArray[np.float64] | None = None) -> npt.NDArray[np.float64]:
        """Maximise the log-posterior of each row of ``weights``; return ``(rows, agents)``.

        With ``basis`` (agents, k) and ``offset`` (rows, agents), over the ``θ = offset
        + basis @ φ`` only (a profile): Newton's method in ``φ``, each step backtracked
        until the log-posterior rises enough (Armijo).
        """
        rows, agents = weights.shape[0], self.sets.shape[1]
        eye = np.eye(agents)
        basis = eye if basis is None else basis
        offset = np.zeros((rows, agents)) if offset is None else offset
        wins = weights @ eye[self.chosen]
        phi = np.zeros((rows, basis.shape[1]))
        theta = offset + phi @ basis.T
        value, share = self.posterior(theta, weights)
        for _ in range(_MAX_ITERATIONS):
            weighted = weights[..., None] * share
            expected = weighted.sum(axis=1)
            gradient = (wins - expected - self.precision * theta) @ basis
            # the Hessian, negated: Σ w (diag p - p pᵀ) + precision I, positive definite
            curvature = (expected[:, :, None] * eye
                         - np.einsum("rua,ruc->rac", weighted, share) + self.precision * eye)
            curvature = np.einsum("ak,rac,cl->rkl", basis, curvature, basis)
            step = np.linalg.solve(curvature, gradient[..., None])[..., 0]
            slope = (gradient * step).sum(axis=1)
            length = np.ones(rows)
            for _ in range(60):
                trial = phi + length[:, None] * step
                new_value, new_share = self.posterior(offset + trial @ basis.T, weights)
                short = new_value < value + 1e-4 * length * slope - 1e-12 * np.abs(value)
                if not short.any():
                    break
                length = np.where(short, length / 2, length)
            phi, value, share = trial, new_value, new_share
            theta = offset + phi @ basis.T
            if np.abs(length[:, None] * step).max() < 1e-9:
                break
        return theta

    def profile(self, i: int, j: int) -> tuple[float, float]:
        """The 95 % profile interval of ``θ[i] - θ[j]``, in Elo.

        The gaps ``d`` whose best log-posterior with ``θ[i] - θ[j] = d`` is at most
        ``_PROFILE_DROP`` below the maximum; the profile is concave in ``d``, so each end
        is found by bisection.
        """
        agents = self.sets.shape[1]
        weights = self.weights[None]
        best = self.fit(weights)[0]
        peak = float(self.posterior(best[None], weights)[0][0])
        # θ[i] = θ[j] + d: every agent but i is free, i follows j
        basis = np.delete(np.eye(agents), i, axis=1)
        basis[i, j - (j > i)] = 1.0
        reach = 20 / math.sqrt(self.precision)       # twenty prior deviations
        gap = best[i] - best[j]
        near, far = np.array([gap, gap]), np.array([gap - reach, gap + reach])
        for _ in range(50):
            middle = (near + far) / 2
            offset = np.zeros((2, agents))
            offset[:, i] = middle
            theta = self.fit(np.repeat(weights, 2, axis=0), basis, offset)
            inside = peak - self.posterior(theta, np.repeat(weights, 2, axis=0))[0] \
                <= _PROFILE_DROP
            near, far = np.where(inside, middle, near), np.where(inside, far, middle)
        return ELO * float(near[0]), ELO * float(near[1])


def _groups(model: _Model) -> list[list[int]]:
    """The strongly connected groups of "finished ahead of or level with", as indices."""
    agents = model.sets.shape[1]
    reach = np.eye(agents, dtype=bool)
    for u in np.flatnonzero(model.weights > 0):
        reach[model.chosen[u], model.sets[u] > 0] = True
    for k in range(agents):          # Warshall's transitive closure
        reach |= reach[:, k:k + 1] & reach[k:k + 1, :]
    groups: list[list[int]] = []
    for a in range(agents):
        if not any(a in g for g in groups):
            groups.append([b for b in range(agents) if reach[a, b] and reach[b, a]])
    return groups


def _check_met(agents: list[str], model: _Model, anchor: int) -> None:
    """Refuse agents that no chain of games sets against the anchor."""
    met = np.eye(len(agents), dtype=bool)
    for u in np.flatnonzero(model.weights > 0):
        present = model.sets[u] > 0
        met |= present[:, None] & present[None, :]
    for k in range(len(agents)):
        met |= met[:, k:k + 1] & met[k:k + 1, :]
    apart = [agents[i] for i in range(len(agents)) if not met[anchor, i]]
    if apart:
        raise ConfigurationError(f"no game sets {', '.join(apart)} against the other "
                                 f"agents, directly or through others: they cannot be rated")


def _bootstrap(model: _Model, events: _Events, resamples: int, seed: int,
               anchor: int) -> npt.NDArray[np.float64]:
    """Each resample's ratings (Elo, the anchor 0): the games redrawn within each arena."""
    rng = np.random.default_rng(seed)
    total = events.strata[-1][1]
    batch = max(1, _BATCH_ELEMENTS // max(model.sets.size, len(events.game), total))
    samples = np.zeros((resamples, model.sets.shape[1]))
    for start in range(0, resamples, batch):
        rows = min(batch, resamples - start)
        counts = np.zeros((rows, total))
        for lo, hi in events.strata:
            counts[:, lo:hi] = rng.multinomial(hi - lo, np.full(hi - lo, 1 / (hi - lo)),
                                               size=rows)
        theta = model.fit(events.weights(counts))
        samples[start:start + rows] = ELO * (theta - theta[:, anchor:anchor + 1])
    return samples


def _rate(agents: list[str], blocks: Sequence[tuple[npt.NDArray[np.int64],
                                                     npt.NDArray[np.int64]]],
          anchor: object, resamples: SupportsIndex, seed: SupportsIndex,
          prior: object) -> Ratings:
    a, n, s, sd = _check(agents, anchor, resamples, seed, prior)
    games = np.zeros(len(agents), dtype=np.int64)
    for seats, _ in blocks:
        for i in range(len(agents)):
            games[i] += int((seats == i).any(axis=1).sum())
    events = _events(len(agents), blocks)
    observed = events.weights(np.ones((1, events.strata[-1][1])))[0]
    model = _Model(sets=events.sets, chosen=events.chosen, weights=observed,
                   precision=(ELO / sd) ** 2)
    _check_met(agents, model, a)
    point = model.fit(observed[None])[0]
    elo = ELO * (point - point[a])
    samples = _bootstrap(model, events, n, s, a)
    low, high = np.percentile(samples, [2.5, 97.5], axis=0)
    groups = sorted(_groups(model), key=lambda g: -float(np.mean(elo[g])))
    for g in groups:
        if a not in g:               # no resample sees past a perfect record: profile
            for i in g:
                low[i], high[i] = model.profile(i, a)
    return Ratings(agents=tuple(agents), elo=elo, low=low, high=high, games=games,
                   anchor=agents[a], samples=samples, seed=s, prior=sd,
                   groups=tuple(tuple(agents[i] for i in g) for g in groups), _model=model)
