# The agents, compiled: one definition of the agent kinds, of their settings, of the
# memory a decision works in and of a finished game's result, shared by the Python agents
# (``boardcore.agents``, through ``Searcher``) and the vectorised environments' opponents
# (``_vector.pyx``, through ``choose``).
cimport cython
from libc.stdint cimport int8_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t

from _kernel cimport MAX_PLAYERS, kernel_t
from _rng cimport rng_t

# A child is found from its parent and action through a hash table whose chain heads
# live in the pool itself (``bucket`` of node i heads chain i), so a node stays 32 bytes
# and a search needs no memory besides its ``iterations + 1`` nodes.
ctypedef struct node_t:
    double reward               # the mover's results summed over the visits
    int32_t parent              # -1 at the root
    int32_t next_in_bucket      # the next node in the same hash chain, -1: last
    int32_t bucket              # the first node of hash chain number (this node's index)
    uint32_t visits
    uint32_t avail              # iterations in which this node's action was legal
    uint16_t action             # the action that leads here
    int8_t mover                # the seat that played it (-1 at the root)

# The agent kinds, in the order of ``KINDS`` (their names) in _search.pyx.
cdef enum:
    AGENT_RANDOM = 0            # the random player: legal[bounded(count)]
    AGENT_GREEDY = 1            # the largest immediate gain in score, ties at random
    AGENT_FLAT = 2              # flat Monte Carlo: the best mean result of its play-outs
    AGENT_ISMCTS = 3            # information-set MCTS: the most visited root child
    AGENT_EXPERT = 4            # IS-MCTS playing out with the game's heuristic player
    N_KINDS = 5

ctypedef struct agent_t:
    int kind                    # AGENT_*
    Py_ssize_t budget           # play-outs per action (flat), iterations (ISMCTS; 0: none)
    double time_limit           # seconds per decision (ISMCTS; 0: none)
    double exploration          # ISMCTS's UCB constant

# Everything a decision works in besides the position it decides for, allocated once
# by its owner (a ``Work``) and reused: nothing large lives on the thread's stack, so a
# search runs in a thread of a 64 KiB stack.
ctypedef struct work_t:
    char *scratch               # three positions: a private root, and two to play on
    size_t state_size           # the largest position ``scratch`` holds
    node_t *nodes               # the search tree's pool
    Py_ssize_t cap              # its nodes
    uint16_t *legal             # MAX_ACTIONS: the legal actions decided between
    uint16_t *moves             # MAX_ACTIONS: the legal actions at a node of a descent
    uint16_t *untried           # MAX_ACTIONS: the untried ones among them
    uint32_t *visits            # MAX_ACTIONS: the root children's visits, by action
    int32_t *path               # MAX_DEPTH: the nodes of one descent
    double *value               # MAX_ACTIONS: each legal action's value (what act weighs)
    double *mean                # MAX_ACTIONS: the root children's mean results, by action
    bint watch                  # look for signals and interrupts (a Python caller's)
    int interrupted             # a look found one (INTERRUPTED_*): the decision is void
    long long called            # the monotonic clock (ns) when the decision was asked for
    long long deadline          # the monotonic clock (ns) a search stops at; 0: none
    long long next_look         # when to look for signals next
    long long generation        # INTERRUPTS when the decision began
    Py_ssize_t iterations       # the last ISMCTS search's


# One owner's decision memory; taken by one call at a time.
@cython.final
cdef class Work:
    cdef work_t w
    cdef readonly bint busy     # taken by a call
    cdef bint take(self) noexcept
    cdef int fit(self, size_t state_size, Py_ssize_t nodes) except -1
    cdef void give(self) noexcept


# A compiled agent with its seed, its decisions so far and its Work (boardcore.agents'
# agents are handles on one; a VectorEnv copies its ``agent`` for the opponents).
@cython.final
cdef class Searcher:
    cdef agent_t agent
    cdef readonly uint64_t seed
    cdef uint64_t made          # decisions made
    cdef readonly Work work
    cdef Py_ssize_t searched    # the last ISMCTS search's iterations
    cdef long long clock        # its deadline - its call (ns), -1: no deadline
    cdef object _decide(self, object state, int mode)


cdef Py_ssize_t tree_nodes(const agent_t *agent) noexcept nogil
cdef int choose(const kernel_t *k, const void *state, const agent_t *agent, rng_t *rng,
                work_t *w) noexcept nogil


cdef inline void results(const kernel_t *k, const void *s, double *r) noexcept nogil:
    # A finished game's result per seat: 1 for a sole winner, 1/k for k who share, 0 for
    # a loss.
    cdef uint8_t w[MAX_PLAYERS]
    cdef int p, n = k.num_players(s), count = 0
    k.winners(s, w)
    for p in range(n):
        count += w[p] != 0
    for p in range(n):
        r[p] = (1.0 / count) if w[p] and count else 0.0
