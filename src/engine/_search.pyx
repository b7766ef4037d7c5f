# Search agents, written once over the kernel table: every game at once.
#
# All four searches decide for the seat to act from that seat's information only: each
# sample of the position is a determinization (the kernel's ``determinize`` slot redraws
# everything that seat cannot see, the state's generator included), so two positions that
# differ only in hidden parts give the same decisions from the same seed.
#
# Information-set MCTS (single observer; Cowling, Powley & Whitehouse 2012): each
# iteration determinizes the root, descends the one tree over the actions legal in that
# determinization -- UCB with availability counts, ``r/v + c*sqrt(ln(a)/v)`` -- expands one
# untried action, plays out with the game's compiled random play-out and backs up every
# seat's result (a win is 1, a shared win 1/k, a loss 0) into the nodes whose move that
# seat made.  Nodes live in one preallocated array (``node_t``, 32 bytes) that an agent
# keeps between moves.  The whole search runs without the GIL on private memory.
cimport cython
from libc.math cimport log, sqrt
from libc.stdint cimport INT64_MIN, int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset

from _kernel cimport MAX_ACTIONS, MAX_PLAYERS, kernel_t
from _rng cimport rng_bounded, rng_seed, rng_t

from boardcore._engine._state cimport EngineState

cdef extern from *:
    """
    /* Monotonic nanoseconds without the GIL, on every platform the wheels cover. */
    #if defined(_WIN32)
    #include <windows.h>
    static long long boardcore_now_ns(void) {
        LARGE_INTEGER f, c;
        QueryPerformanceFrequency(&f);
        QueryPerformanceCounter(&c);
        return (long long)((double)c.QuadPart * 1e9 / (double)f.QuadPart);
    }
    #else
    #include <time.h>
    static long long boardcore_now_ns(void) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
    }
    #endif
    """
    long long boardcore_now_ns() noexcept nogil

#: Bytes per tree node; a search holds at most ``iterations + 1`` nodes.
NODE_BYTES = sizeof(node_t)
#: Nodes a time-limited search may grow to (32 MiB).
MAX_NODES = 1 << 20
cdef int MAX_DEPTH = 4096


cdef inline void _rewards(const kernel_t *k, const void *s, double *r) noexcept nogil:
    # A finished game's result per seat: 1 for a sole winner, 1/k for k who share.
    cdef uint8_t w[MAX_PLAYERS]
    cdef int p, n = k.num_players(s), count = 0
    k.winners(s, w)
    for p in range(n):
        count += w[p] != 0
    for p in range(n):
        r[p] = (1.0 / count) if w[p] and count else 0.0


@cython.binding(False)
cdef class Tree:
    """The node pool of one searcher, kept between moves (reused, never shrunk)."""

    cdef node_t *nodes
    cdef Py_ssize_t cap
    cdef bint busy

    def __dealloc__(self):
        free(self.nodes)

    cdef int reserve(self, Py_ssize_t n) except -1:
        cdef node_t *grown
        if n <= self.cap:
            return 0
        grown = <node_t *>realloc(self.nodes, n * sizeof(node_t))
        if grown == NULL:
            raise MemoryError(f"no memory for {n} search nodes")
        self.nodes = grown
        self.cap = n
        return 0

    @property
    def capacity(self):
        """Nodes the pool holds now."""
        return self.cap


# ln(n) for n below 65,536, from the same ``log`` the search would call: the UCB term
# reads it for every legal child at every level (the root's children count up to the
# iterations), and the table gives bit-identical scores.
cdef enum:
    N_LOGS = 65536
cdef double LOGS[N_LOGS]
for _n in range(1, N_LOGS):
    LOGS[_n] = log(<double>_n)


cdef inline double _ln(uint32_t n) noexcept nogil:
    return LOGS[n] if n < N_LOGS else log(<double>n)


cdef inline Py_ssize_t _chain(int32_t parent, uint16_t action, Py_ssize_t chains) noexcept nogil:
    # Fibonacci hashing of (parent, action), scaled to 0..chains-1 without a division.
    cdef uint64_t h = ((<uint64_t>parent << 16) | action) * <uint64_t>0x9E3779B97F4A7C15ULL
    return <Py_ssize_t>(((h >> 32) * <uint64_t>chains) >> 32)


cdef inline int32_t _child(const node_t *nodes, int32_t parent, uint16_t action,
                           Py_ssize_t chains) noexcept nogil:
    # The child of ``parent`` reached by ``action``, -1 if it has none yet.
    cdef int32_t i = nodes[_chain(parent, action, chains)].bucket
    while i >= 0 and (nodes[i].parent != parent or nodes[i].action != action):
        i = nodes[i].next_in_bucket
    return i


cdef Py_ssize_t _ismcts(const kernel_t *k, const void *root, int seat, Py_ssize_t iterations,
                        long long deadline, double c, rng_t *rng, node_t *nodes,
                        Py_ssize_t cap, void *buf, uint32_t *visits_out) noexcept nogil:
    """Run the search; write root children's visits per action; return the iterations."""
    cdef uint16_t legal[MAX_ACTIONS]
    cdef uint16_t untried[MAX_ACTIONS]
    cdef int32_t path[4096]
    cdef double r[MAX_PLAYERS]
    cdef Py_ssize_t used = 1, it = 0, b
    # The search never holds more nodes than this, so as many hash chains keep them
    # at one node per chain on average, and only these chain heads need clearing (the
    # root's node always exists).
    cdef Py_ssize_t chains = max(1, min(cap, iterations + 1))
    cdef int32_t node, child, best, fresh
    cdef int n, i, u, depth, mover
    cdef double score, best_score
    for b in range(chains):
        nodes[b].bucket = -1
    nodes[0].parent = -1
    nodes[0].next_in_bucket = -1
    nodes[0].visits = 0
    nodes[0].avail = 0
    nodes[0].reward = 0.0
    nodes[0].action = 0
    nodes[0].mover = -1
    while it < iterations:
        if deadline and (it & 31) == 0 and boardcore_now_ns() >= deadline:
            break
        memcpy(buf, root, k.state_size)
        k.determinize(buf, seat, rng)
        node = 0
        depth = 0
        path[depth] = 0
        depth += 1
        while depth < MAX_DEPTH and k.current(buf) >= 0:
            mover = k.current(buf)
            n = k.legal(buf, legal)
            # UCB over the tried legal children; the highest score, and among equal
            # scores the newest child (the highest index).
            best = -1
            best_score = -1.0
            u = 0
            for i in range(n):
                child = _child(nodes, node, legal[i], chains)
                if child < 0:
                    untried[u] = legal[i]
                    u += 1
                    continue
                nodes[child].avail += 1
                score = (nodes[child].reward / nodes[child].visits
                         + c * sqrt(_ln(nodes[child].avail) / nodes[child].visits))
                if score > best_score or (score == best_score and child > best):
                    best_score = score
                    best = child
            if u > 0 and used < cap:
                # Expand one untried action: a new child, first in its hash chain.
                fresh = <int32_t>used
                used += 1
                nodes[fresh].parent = node
                nodes[fresh].visits = 0
                nodes[fresh].avail = 1
                nodes[fresh].reward = 0.0
                nodes[fresh].action = untried[rng_bounded(rng, <uint32_t>u)]
                nodes[fresh].mover = <int8_t>mover
                b = _chain(node, nodes[fresh].action, chains)
                nodes[fresh].next_in_bucket = nodes[b].bucket
                nodes[b].bucket = fresh
                k.apply(buf, nodes[fresh].action)
                path[depth] = fresh
                depth += 1
                break
            if best < 0:
                break           # the pool is full and nothing here was tried: play out
            k.apply(buf, nodes[best].action)
            node = best
            path[depth] = node
            depth += 1
        k.play_out(buf, rng, NULL)
        _rewards(k, buf, r)
        for i in range(depth):
            node = path[i]
            nodes[node].visits += 1
            if nodes[node].mover >= 0:
                nodes[node].reward += r[nodes[node].mover]
        it += 1
    for b in range(1, used):
        if nodes[b].parent == 0:
            visits_out[nodes[b].action] = nodes[b].visits
    return it


cdef int _root(EngineState state, void **root, int *seat) except -1:
    # A private copy of the position to search from, and the seat to act.
    cdef const kernel_t *k
    if not isinstance(state, EngineState) or state._players == 0:
        raise TypeError(f"an agent acts on a boardcore state, not {type(state).__name__}")
    k = state._k
    if k.determinize == NULL:
        raise NotImplementedError(f"{k.name.decode()} has no determinization yet")
    root[0] = malloc(2 * k.state_size)
    if root[0] == NULL:
        raise MemoryError()
    with cython.critical_section(state):
        memcpy(root[0], state._s, k.state_size)
    seat[0] = k.current(root[0])
    if seat[0] < 0:
        free(root[0])
        root[0] = NULL
        raise ValueError("the game is over: there is no seat to act for")
    return 0


cdef int _best_visited(const kernel_t *k, const void *state, const uint32_t *visits,
                       ) noexcept nogil:
    # The most visited legal action, the lowest among ties.
    cdef uint16_t legal[MAX_ACTIONS]
    cdef int i, n = k.legal(state, legal), best = legal[0]
    for i in range(1, n):
        if visits[legal[i]] > visits[best]:
            best = legal[i]
    return best


cdef int choose(const kernel_t *k, const void *state, const agent_t *agent, rng_t *rng,
                node_t *nodes, Py_ssize_t cap, void *scratch,
                uint32_t *visits) noexcept nogil:
    """The action ``agent`` plays for the seat to act (the state is not changed).

    ``scratch`` holds two positions; ``visits`` ``MAX_ACTIONS`` counters (ISMCTS only).
    """
    cdef uint16_t legal[MAX_ACTIONS]
    cdef int64_t before[MAX_PLAYERS]
    cdef int64_t after[MAX_PLAYERS]
    cdef double r[MAX_PLAYERS]
    cdef void *root = scratch
    cdef void *buf = <char *>scratch + k.state_size
    cdef int seat = k.current(state), n, i, best = 0, ties = 0
    cdef double value, top = -1.0
    cdef int64_t gain, most = INT64_MIN
    if agent.kind == AGENT_RANDOM:
        return k.random_action(state, rng)
    n = k.legal(state, legal)
    if n == 1:
        return legal[0]
    if agent.kind == AGENT_ISMCTS:
        memset(visits, 0, MAX_ACTIONS * sizeof(uint32_t))
        _ismcts(k, state, seat, agent.budget, 0, agent.exploration, rng, nodes, cap, buf,
                visits)
        return _best_visited(k, state, visits)
    memcpy(root, state, k.state_size)
    k.determinize(root, seat, rng)
    if agent.kind == AGENT_GREEDY:
        k.scores(root, before)
        for i in range(n):
            memcpy(buf, root, k.state_size)
            k.apply(buf, legal[i])
            k.scores(buf, after)
            gain = after[seat] - before[seat]
            if gain > most:
                most = gain
                ties = 0
            if gain == most:
                legal[ties] = legal[i]      # keep the tied actions at the front
                ties += 1
        return legal[rng_bounded(rng, <uint32_t>ties)]
    for i in range(n):                      # AGENT_FLAT
        value = 0.0
        for _ in range(agent.budget):
            memcpy(buf, state, k.state_size)
            k.determinize(buf, seat, rng)
            k.apply(buf, legal[i])
            k.play_out(buf, rng, NULL)
            _rewards(k, buf, r)
            value += r[seat]
        if value > top:
            top = value
            best = legal[i]
    return best


def ismcts(EngineState state, Tree tree, Py_ssize_t iterations, double time_limit,
           double exploration, uint64_t seed):
    """Search ``state`` for its seat to act; return ``(iterations run, visits)``.

    ``visits`` maps each legal action to its visit count at the root.  The search stops
    after ``iterations`` (``0``: no limit) or ``time_limit`` seconds (``0``: none).
    """
    cdef void *root = NULL
    cdef int seat
    cdef rng_t rng
    cdef Py_ssize_t done, cap
    cdef long long deadline = 0
    cdef uint32_t *visits = NULL
    cdef node_t *nodes
    cdef uint16_t legal[MAX_ACTIONS]
    cdef int i, n
    if iterations < 0 or not 0 <= time_limit <= 86400 or not 0 <= exploration <= 100:
        raise ValueError("iterations, time_limit or exploration out of range")
    if iterations == 0 and time_limit == 0:
        raise ValueError("give a number of iterations, a time limit or both")
    if tree is None:
        raise TypeError("tree must be a Tree")
    cap = MAX_NODES if iterations == 0 or iterations >= MAX_NODES else iterations + 1
    with cython.critical_section(tree):
        if tree.busy:       # in use by another thread: search in a fresh tree
            tree = Tree()
        tree.busy = True
    try:
        tree.reserve(cap)
        _root(state, &root, &seat)
        visits = <uint32_t *>malloc(MAX_ACTIONS * sizeof(uint32_t))
        if visits == NULL:
            raise MemoryError()
        memset(visits, 0, MAX_ACTIONS * sizeof(uint32_t))
        rng_seed(&rng, seed)
        if time_limit > 0:
            deadline = boardcore_now_ns() + <long long>(time_limit * 1e9)
        if iterations == 0:
            iterations = 1 << 62
        nodes = tree.nodes
        with nogil:
            done = _ismcts(state._k, root, seat, iterations, deadline, exploration, &rng,
                           nodes, cap, <char *>root + state._k.state_size, visits)
        n = state._k.legal(root, legal)
        result = {legal[i]: visits[legal[i]] for i in range(n)}
    finally:
        free(visits)
        free(root)
        # Released on every path (a finished game, a wrong argument), and inside the
        # critical section, so that the next thread to take the tree also sees every
        # write this search made to its nodes (free-threaded builds).
        with cython.critical_section(tree):
            tree.busy = False
    return done, result


def flat_monte_carlo(EngineState state, Py_ssize_t rollouts, uint64_t seed):
    """Mean result, for the seat to act, of ``rollouts`` random play-outs after each action.

    Every play-out starts from a fresh determinization of the position.
    """
    cdef void *root
    cdef void *buf
    cdef int seat, n, i
    cdef rng_t rng
    cdef uint16_t legal[MAX_ACTIONS]
    cdef double r[MAX_PLAYERS]
    cdef double *total
    cdef const kernel_t *k = state._k if state is not None else NULL
    if not 1 <= rollouts <= 10_000_000:
        raise ValueError(f"rollouts must be in 1..10000000, not {rollouts}")
    _root(state, &root, &seat)
    k = state._k
    buf = <char *>root + k.state_size
    n = k.legal(root, legal)
    total = <double *>malloc(n * sizeof(double))
    if total == NULL:
        free(root)
        raise MemoryError()
    rng_seed(&rng, seed)
    with nogil:
        for i in range(n):
            total[i] = 0.0
            for _ in range(rollouts):
                memcpy(buf, root, k.state_size)
                k.determinize(buf, seat, &rng)
                k.apply(buf, legal[i])
                k.play_out(buf, &rng, NULL)
                _rewards(k, buf, r)
                total[i] += r[seat]
    result = {legal[i]: total[i] / rollouts for i in range(n)}
    free(total)
    free(root)
    return result


def greedy_gains(EngineState state, uint64_t seed):
    """The immediate gain of each legal action, by the game's own score, for the seat to act.

    Measured on one determinization of the position (a gain never depends on what the
    seat cannot see, but the move is played on a position it could know).
    """
    cdef void *root
    cdef void *buf
    cdef int seat, n, i
    cdef rng_t rng
    cdef uint16_t legal[MAX_ACTIONS]
    cdef int64_t before[MAX_PLAYERS]
    cdef int64_t after[MAX_PLAYERS]
    cdef int64_t *gain
    cdef const kernel_t *k
    _root(state, &root, &seat)
    k = state._k
    buf = <char *>root + k.state_size
    rng_seed(&rng, seed)
    k.determinize(root, seat, &rng)
    n = k.legal(root, legal)
    gain = <int64_t *>malloc(n * sizeof(int64_t))
    if gain == NULL:
        free(root)
        raise MemoryError()
    k.scores(root, before)
    with nogil:
        for i in range(n):
            memcpy(buf, root, k.state_size)
            k.apply(buf, legal[i])
            k.scores(buf, after)
            gain[i] = after[seat] - before[seat]
    result = {legal[i]: gain[i] for i in range(n)}
    free(gain)
    free(root)
    return result


def determinize(EngineState state, int seat, uint64_t seed):
    """Return what a search of ``seat`` samples: ``state`` with its unseen parts redrawn.

    The result is a set-up position (its history starts there), made through the
    game's own loader, so it saves and loads like any state.
    """
    cdef EngineState copy
    cdef rng_t rng
    if not isinstance(state, EngineState) or state._players == 0:
        raise TypeError(f"determinize takes a boardcore state, not {type(state).__name__}")
    if not 0 <= seat < state._players:
        raise ValueError(f"seat {seat} is not in range({state._players})")
    if state._k.determinize == NULL:
        raise NotImplementedError(f"{state._k.name.decode()} has no determinization yet")
    rng_seed(&rng, seed)
    copy = state.copy()
    with cython.critical_section(copy):
        copy._k.determinize(copy._s, seat, &rng)
    doc = state.to_dict()
    head = {key: doc[key] for key in ("game", "rules_version", "players", "options", "seed")}
    return state.game.state_from_dict({**head, "setup": copy._fields(), "history": []})
