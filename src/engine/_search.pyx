# The agents, written once over the kernel table: every game at once.
#
# Five kinds (``agent_t``): the random player, the greedy one, flat Monte Carlo,
# information-set MCTS and the expert (IS-MCTS playing out with the game's heuristic
# player, the kernel's ``heuristic`` slot, where the game has one).  ``evaluate`` weighs
# every legal action as a kind does and ``choose`` picks the action it plays; the Python
# agents (``Searcher``) and the vectorised environments' opponents (``_vector.pyx``) both
# decide through them.
#
# Every kind but the random player decides for the seat to act from that seat's
# information only: each sample of the position is a determinization (the kernel's
# ``determinize`` slot redraws everything that seat cannot see, the state's generator
# included), so two positions that differ only in hidden parts give the same decisions
# from the same seed.
#
# Information-set MCTS (single observer; Cowling, Powley & Whitehouse 2012): each
# iteration determinizes the root, descends the one tree over the actions legal in that
# determinization -- UCB with availability counts, ``r/v + c*sqrt(ln(a)/v)`` -- expands one
# untried action, plays out with the game's compiled random play-out (the expert: with
# the heuristic player, where the game has one) and backs up every seat's result
# (``results``) into the nodes whose move that seat made.  Nodes live in
# one preallocated array (``node_t``, 32 bytes) that the caller keeps between moves.
#
# A decision runs without the GIL on private memory (a ``Work``).  A Python caller's
# decision (``Searcher``) looks every 32 iterations or play-outs at the clock: about
# every 50 ms it takes the GIL to run the signal handlers (Ctrl-C), and it stops when
# ``interrupt()`` was called since it began.
cimport cython
from libc.math cimport INFINITY, isfinite, log, sqrt
from libc.stdint cimport INT64_MIN, int8_t, int32_t, int64_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy

from _kernel cimport MAX_ACTIONS, MAX_PLAYERS, kernel_t
from _rng cimport STREAM_DECISION, derive_seed, rng_bounded, rng_seed, rng_t

from boardcore._engine._state cimport EngineState

from boardcore.errors import ConfigurationError, IllegalActionError
from boardcore.values import check_int, quote

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
    /* interrupt() calls so far: a search that sees the count change stops. */
    static volatile long long boardcore_interrupts = 0;
    static void boardcore_interrupt(void) { boardcore_interrupts++; }
    """
    long long boardcore_now_ns() noexcept nogil
    long long boardcore_interrupts
    void boardcore_interrupt() noexcept nogil
    # Runs the signal handlers (the main thread only); -1 with their exception set.
    int run_signal_handlers "PyErr_CheckSignals"() noexcept


cdef enum:
    POOL_NODES = 1 << 20        # MAX_NODES
    MAX_DEPTH = 4096            # nodes of one descent, at most
    LOOK_NS = 50_000_000        # how often a Python caller's decision runs the handlers
    INTERRUPTED_SIGNAL = 1      # a signal handler raised: its exception is pending
    INTERRUPTED_CALL = 2        # interrupt() was called
    DECIDE_ACT = 0              # Searcher._decide's modes: the action played,
    DECIDE_VALUES = 1           # each legal action's value,
    DECIDE_ESTIMATES = 2        # each legal action's root visits and mean result


#: The agent kinds' names, by kind number (``AGENT_*``).
KINDS = ("random", "greedy", "flat", "ismcts", "expert")
#: Bytes per tree node; a search holds at most ``iterations + 1`` nodes.
NODE_BYTES = sizeof(node_t)
#: Nodes a search may grow to (32 MiB): a time limit alone, or more iterations.
MAX_NODES = POOL_NODES
#: The budgets' names and ranges, by kind: play-outs per action, iterations.
BUDGETS = {AGENT_FLAT: ("rollouts", 1, 10_000_000),
           AGENT_ISMCTS: ("iterations", 1, 100_000_000),
           AGENT_EXPERT: ("iterations", 1, 100_000_000)}
#: The longest time limit, in seconds, and the largest UCB constant.
MAX_SECONDS = 86400
MAX_EXPLORATION = 100


@cython.binding(False)      # a method called through the class checks its self
cdef class Work:
    """The memory one caller's decisions work in, reused from call to call.

    A ``Searcher`` keeps one, a ``VectorEnv`` one per thread; one call uses it at a time.
    """

    def __cinit__(self):
        self.w.legal = <uint16_t *>malloc(MAX_ACTIONS * sizeof(uint16_t))
        self.w.moves = <uint16_t *>malloc(MAX_ACTIONS * sizeof(uint16_t))
        self.w.untried = <uint16_t *>malloc(MAX_ACTIONS * sizeof(uint16_t))
        self.w.visits = <uint32_t *>malloc(MAX_ACTIONS * sizeof(uint32_t))
        self.w.path = <int32_t *>malloc(MAX_DEPTH * sizeof(int32_t))
        self.w.value = <double *>malloc(MAX_ACTIONS * sizeof(double))
        self.w.mean = <double *>malloc(MAX_ACTIONS * sizeof(double))
        if (self.w.legal == NULL or self.w.moves == NULL or self.w.untried == NULL
                or self.w.visits == NULL or self.w.path == NULL or self.w.value == NULL
                or self.w.mean == NULL):
            raise MemoryError()

    def __dealloc__(self):
        free(self.w.scratch)
        free(self.w.nodes)
        free(self.w.legal)
        free(self.w.moves)
        free(self.w.untried)
        free(self.w.visits)
        free(self.w.path)
        free(self.w.value)
        free(self.w.mean)

    cdef bint take(self) noexcept:
        # Take it for one call; False if another call has it.
        cdef bint taken
        with cython.critical_section(self):
            taken = not self.busy
            self.busy = True
        return taken

    cdef int fit(self, size_t state_size, Py_ssize_t nodes) except -1:
        # Grow it (taken) to positions of ``state_size`` bytes and ``nodes`` tree nodes.
        cdef char *scratch
        cdef node_t *grown
        if state_size > self.w.state_size:
            scratch = <char *>realloc(self.w.scratch, 3 * state_size)
            if scratch == NULL:
                raise MemoryError()
            self.w.scratch = scratch
            self.w.state_size = state_size
        if nodes > self.w.cap:
            grown = <node_t *>realloc(self.w.nodes, nodes * sizeof(node_t))
            if grown == NULL:
                raise MemoryError(f"no memory for {nodes} search nodes")
            self.w.nodes = grown
            self.w.cap = nodes
        return 0

    cdef void give(self) noexcept:
        # Released inside the critical section, so that the next call to take it also
        # sees every write this one made (free-threaded builds).
        with cython.critical_section(self):
            self.busy = False

    @property
    def capacity(self):
        """Tree nodes the pool holds now (it grows to the largest search, never shrinks)."""
        return self.w.cap


cdef Py_ssize_t tree_nodes(const agent_t *agent) noexcept nogil:
    """The nodes a decision of ``agent`` may grow its tree to (0: it needs no tree)."""
    if agent.kind != AGENT_ISMCTS and agent.kind != AGENT_EXPERT:
        return 0
    if agent.budget == 0 or agent.budget >= POOL_NODES:
        return POOL_NODES
    return agent.budget + 1


cdef bint _look(work_t *w) noexcept nogil:
    # Whether the decision must stop: its time is up, interrupt() was called, or a
    # signal handler raised (run about every LOOK_NS, with the GIL).
    cdef long long now = boardcore_now_ns()
    if w.deadline and now >= w.deadline:
        return True
    if not w.watch:
        return False
    if boardcore_interrupts != w.generation:
        w.interrupted = INTERRUPTED_CALL
    elif now >= w.next_look:
        w.next_look = now + LOOK_NS
        with gil:
            if run_signal_handlers() < 0:
                w.interrupted = INTERRUPTED_SIGNAL
    return w.interrupted != 0


cdef inline bint _stop(work_t *w) noexcept nogil:
    return (w.deadline != 0 or w.watch) and _look(w)


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


cdef void _heuristic_play_out(const kernel_t *k, void *s, rng_t *rng) noexcept nogil:
    # The expert's play-out: the game's heuristic player (the kernel's ``heuristic``)
    # for every seat, to the end.
    cdef int a = k.heuristic(s, rng)
    while a >= 0:
        k.apply(s, a)
        a = k.heuristic(s, rng)


cdef void _ismcts(const kernel_t *k, const void *root, int seat, const agent_t *agent,
                  rng_t *rng, work_t *w) noexcept nogil:
    """Search; count the root children's visits into ``w.visits`` (by action)."""
    cdef node_t *nodes = w.nodes
    cdef uint16_t *legal = w.moves
    cdef uint16_t *untried = w.untried
    cdef int32_t *path = w.path
    cdef void *buf = w.scratch + 2 * w.state_size
    cdef double r[MAX_PLAYERS]
    cdef Py_ssize_t used = 1, it = 0, b, cap = tree_nodes(agent)
    cdef Py_ssize_t iterations = agent.budget if agent.budget > 0 else <Py_ssize_t>1 << 62
    # The search never holds more nodes than this, so as many hash chains keep them
    # at one node per chain on average, and only these chain heads need clearing (the
    # root's node always exists).
    cdef Py_ssize_t chains = max(1, min(cap, iterations + 1))
    cdef int32_t node, child, best, fresh
    cdef int n, i, u, depth, mover
    cdef double c = agent.exploration, score, best_score
    cdef bint guided = agent.kind == AGENT_EXPERT and k.heuristic != NULL
    # The clock starts when the decision was asked for (``w.called``; now if no caller
    # set it): clearing the pool below, up to 32 MiB, is part of the time spent.  It is
    # first read after 32 iterations.
    if agent.time_limit > 0:
        w.deadline = ((w.called if w.called else boardcore_now_ns())
                      + <long long>(agent.time_limit * 1e9))
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
        if (it & 31) == 0 and it > 0 and _stop(w):
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
        if guided:
            _heuristic_play_out(k, buf, rng)
        else:
            k.play_out(buf, rng, NULL)
        results(k, buf, r)
        for i in range(depth):
            node = path[i]
            nodes[node].visits += 1
            if nodes[node].mover >= 0:
                nodes[node].reward += r[nodes[node].mover]
        it += 1
    for b in range(1, used):
        if nodes[b].parent == 0:
            w.visits[nodes[b].action] = nodes[b].visits
            w.mean[nodes[b].action] = (nodes[b].reward / nodes[b].visits
                                       if nodes[b].visits else 0.0)
    w.iterations = it


cdef inline void _greedy_root(const kernel_t *k, const void *state, int seat, rng_t *rng,
                              char *root, int64_t *before) noexcept nogil:
    # The greedy agent's position: one determinization of ``state``, and its scores.
    memcpy(root, state, k.state_size)
    k.determinize(root, seat, rng)
    k.scores(root, before)


cdef inline int64_t _gain(const kernel_t *k, const char *root, char *buf, int action,
                          int seat, const int64_t *before) noexcept nogil:
    # The gain in ``seat``'s score of playing ``action`` in ``root`` (played in ``buf``).
    cdef int64_t after[MAX_PLAYERS]
    memcpy(buf, root, k.state_size)
    k.apply(buf, action)
    k.scores(buf, after)
    return after[seat] - before[seat]


cdef double _evaluate(const kernel_t *k, const void *state, const agent_t *agent,
                      rng_t *rng, work_t *w, int n) noexcept nogil:
    """Weigh the ``n`` legal actions ``w.legal`` of ``state`` for its seat to act.

    ``w.value[i]`` is what the agent weighs action ``w.legal[i]`` by: 1 each (random),
    the immediate gain in the game's own score on one determinization (greedy), the mean
    result of ``budget`` play-outs, each from a fresh determinization (flat), the root
    child's visits (ISMCTS, expert).  Return the largest.
    """
    cdef int seat = k.current(state), i
    cdef Py_ssize_t played = 0
    cdef char *one = w.scratch + w.state_size
    cdef char *two = one + w.state_size
    cdef int64_t before[MAX_PLAYERS]
    cdef double r[MAX_PLAYERS]
    cdef double total, top = -INFINITY
    w.deadline = 0
    w.iterations = 0
    if agent.kind == AGENT_RANDOM:
        for i in range(n):
            w.value[i] = 1.0
        return 1.0
    if agent.kind == AGENT_GREEDY:
        _greedy_root(k, state, seat, rng, one, before)
        for i in range(n):
            w.value[i] = <double>_gain(k, one, two, w.legal[i], seat, before)
            top = max(top, w.value[i])
    elif agent.kind == AGENT_FLAT:
        for i in range(n):
            total = 0.0
            for _ in range(agent.budget):
                if (played & 31) == 0 and played > 0 and _stop(w):
                    return top
                played += 1
                memcpy(two, state, k.state_size)
                k.determinize(two, seat, rng)
                k.apply(two, w.legal[i])
                k.play_out(two, rng, NULL)
                results(k, two, r)
                total += r[seat]
            w.value[i] = total / agent.budget
            top = max(top, w.value[i])
    else:
        for i in range(n):
            w.visits[w.legal[i]] = 0
            w.mean[w.legal[i]] = 0.0
        _ismcts(k, state, seat, agent, rng, w)
        for i in range(n):
            w.value[i] = w.visits[w.legal[i]]
            top = max(top, w.value[i])
    return top


cdef int choose(const kernel_t *k, const void *state, const agent_t *agent, rng_t *rng,
                work_t *w) noexcept nogil:
    """The action ``agent`` plays for the seat to act (``state`` is not changed).

    The random player draws ``legal[bounded(count)]``; the greedy one the same among
    the actions of the largest gain; the searches play the action of the largest value
    (the lowest among ties).  A single legal action is played without a search.
    """
    cdef int n, i, seat, ties = 0
    cdef int64_t before[MAX_PLAYERS]
    cdef int64_t gain, most = INT64_MIN
    cdef double top
    cdef uint16_t *legal = w.legal
    cdef char *one = w.scratch + w.state_size
    cdef char *two = one + w.state_size
    if agent.kind == AGENT_RANDOM:
        return k.random_action(state, rng)
    n = k.legal(state, legal)
    if n == 1:
        return legal[0]
    if agent.kind == AGENT_GREEDY:
        # _evaluate's gains in one pass (the greedy opponents of a VectorEnv play often),
        # keeping the tied best actions at the front of the list.
        seat = k.current(state)
        _greedy_root(k, state, seat, rng, one, before)
        for i in range(n):
            gain = _gain(k, one, two, legal[i], seat, before)
            if gain > most:
                most = gain
                ties = 0
            if gain == most:
                legal[ties] = legal[i]
                ties += 1
        return legal[rng_bounded(rng, <uint32_t>ties)]
    top = _evaluate(k, state, agent, rng, w, n)
    i = 0
    while i < n - 1 and w.value[i] != top:     # (an interrupted decision: any)
        i += 1
    return w.legal[i]


cdef int _raise_pending() except -1:
    # Hand on the exception a signal handler raised inside a decision.
    return -1


cdef double _number(object value, str name, double high, bint positive) except? -1.0:
    # A real number in 0..high (above 0 if ``positive``), else TypeError or
    # ConfigurationError; an int too large for a float is out of range.
    cdef double x
    if isinstance(value, (bool, str, bytes)) or value is None:
        raise TypeError(f"{name} must be a number, not {quote(value)}")
    try:
        x = float(value)
    except TypeError:
        raise TypeError(f"{name} must be a number, not {quote(value)}") from None
    except OverflowError:
        x = float("inf")
    if not (isfinite(x) and 0 <= x <= high) or (positive and x == 0):
        span = f"(0, {high:g}]" if positive else f"0..{high:g}"
        raise ConfigurationError(f"{name} must be in {span}, not {quote(value)}")
    return x


@cython.binding(False)
cdef class Searcher:
    """A compiled agent: its kind and settings, its seed and decisions made, its memory.

    Decision ``i`` draws from ``derive_seed(seed, STREAM_DECISION, i)``; every decision
    (``act`` or ``values``) counts one.  ``kind`` is one of ``KINDS``; ``budget`` the
    play-outs per action (flat) or iterations (ISMCTS and the expert, ``None``: no
    limit), ``time_limit`` seconds per decision (the same two, ``None``: none),
    ``exploration`` the UCB constant (the same two); the other kinds take ``None``,
    ``None`` and ``0``.
    """

    def __cinit__(self, kind, budget, time_limit, exploration, seed, decisions=0):
        # Set once (__cinit__): a decision running without the GIL reads these.
        cdef int i
        if not isinstance(kind, str) or kind not in KINDS:
            raise ConfigurationError(f"kind must be one of {KINDS}, not {quote(kind)}")
        i = KINDS.index(kind)
        if i in BUDGETS:
            name, low, high = BUDGETS[i]
            if budget is not None or i < AGENT_ISMCTS or time_limit is None:
                budget = check_int(budget, name)
                if not low <= budget <= high:
                    raise ConfigurationError(f"{name} must be in {low}..{high}, not "
                                             f"{quote(budget)}")
        elif budget is not None:
            raise ConfigurationError(f"the {kind} agent takes no budget, not {quote(budget)}")
        if time_limit is not None and i < AGENT_ISMCTS:
            raise ConfigurationError(f"the {kind} agent takes no time limit")
        self.agent.time_limit = (0.0 if time_limit is None
                                 else _number(time_limit, "time_limit", MAX_SECONDS, True))
        self.agent.exploration = _number(exploration, "exploration", MAX_EXPLORATION, False)
        seed, decisions = check_int(seed, "seed"), check_int(decisions, "decisions")
        for name, value in (("seed", seed), ("decisions", decisions)):
            if not 0 <= value < 2**64:
                raise ConfigurationError(f"{name} must be in 0..2**64-1, not {quote(value)}")
        self.agent.kind = i
        self.agent.budget = 0 if budget is None else budget
        self.seed = seed
        self.made = decisions
        self.clock = -1
        self.work = Work()

    def __reduce__(self):
        return (Searcher, (self.kind, self.budget, self.time_limit, self.agent.exploration,
                           self.seed, self.decisions))

    @property
    def kind(self):
        """The agent's kind, one of ``KINDS``."""
        return KINDS[self.agent.kind]

    @property
    def budget(self):
        """Play-outs per action (flat), iterations (ISMCTS, expert); ``None``: none."""
        return self.agent.budget if self.agent.budget > 0 else None

    @property
    def time_limit(self):
        """Seconds per decision (ISMCTS, expert); ``None``: none."""
        return self.agent.time_limit if self.agent.time_limit > 0 else None

    @property
    def exploration(self):
        """ISMCTS's UCB constant."""
        return self.agent.exploration

    @property
    def decisions(self):
        """Decisions made so far."""
        with cython.critical_section(self):
            return self.made

    @property
    def last_iterations(self):
        """Iterations the last search (ISMCTS, expert) ran."""
        return self.searched

    @property
    def last_clock(self):
        """Seconds from the call of the last decision to its search's deadline (``None``:
        it had none): the time limit itself, as the clock starts when the call begins."""
        return self.clock / 1e9 if self.clock >= 0 else None

    @property
    def capacity(self):
        """Tree nodes the pool holds now."""
        return self.work.w.cap

    def act(self, state):
        """Return the action the agent plays for ``state``'s seat to act."""
        return self._decide(state, DECIDE_ACT)

    def values(self, state):
        """Return what the agent weighs each legal action of ``state`` by (``_evaluate``)."""
        return self._decide(state, DECIDE_VALUES)

    def estimates(self, state):
        """Search (ISMCTS, expert) and return each legal action's root visits and mean result for
        the seat to act: ``{action: (visits, mean)}`` (mean 0 if unvisited)."""
        if tree_nodes(&self.agent) == 0:
            raise ConfigurationError(f"the {self.kind} agent grows no search tree to estimate "
                                     "from")
        return self._decide(state, DECIDE_ESTIMATES)

    cdef object _decide(self, object state, int mode):
        cdef EngineState st
        cdef const kernel_t *k
        cdef Work work
        cdef work_t *w
        cdef rng_t rng
        cdef uint64_t index
        cdef int i, n = 0, action = -1
        cdef long long called = boardcore_now_ns()
        if not isinstance(state, EngineState) or (<EngineState>state)._players == 0:
            raise TypeError(f"an agent acts on a boardcore state, not {quote(state)}")
        st = <EngineState>state
        k = st._k
        if k.determinize == NULL and self.agent.kind != AGENT_RANDOM:
            raise NotImplementedError(f"{k.name.decode()} has no determinization yet")
        work = self.work
        if not work.take():             # in use by another thread: decide in fresh memory
            work = Work()
            work.take()
        w = &work.w
        try:
            work.fit(k.state_size, tree_nodes(&self.agent))
            with cython.critical_section(st):
                memcpy(w.scratch, st._s, k.state_size)
            if k.current(w.scratch) < 0:
                raise IllegalActionError("the game is over: there is no seat to act for")
            with cython.critical_section(self):
                index = self.made
                self.made += 1
            rng_seed(&rng, derive_seed(self.seed, STREAM_DECISION, index))
            w.watch = True
            w.interrupted = 0
            w.generation = boardcore_interrupts
            w.next_look = boardcore_now_ns() + LOOK_NS
            w.iterations = 0
            w.called = called
            w.deadline = 0
            with nogil:
                if mode != DECIDE_ACT:
                    n = k.legal(w.scratch, w.legal)
                    _evaluate(k, w.scratch, &self.agent, &rng, w, n)
                else:
                    action = choose(k, w.scratch, &self.agent, &rng, w)
            if w.interrupted == INTERRUPTED_SIGNAL:
                _raise_pending()
            if w.interrupted == INTERRUPTED_CALL:
                raise KeyboardInterrupt("the search was interrupted")
            self.searched = w.iterations
            self.clock = w.deadline - called if w.deadline else -1
            if mode == DECIDE_ESTIMATES:
                return {w.legal[i]: (int(w.value[i]), w.mean[w.legal[i]]) for i in range(n)}
            if mode == DECIDE_VALUES:
                return {w.legal[i]: w.value[i] for i in range(n)}
            return action
        finally:
            w.watch = False
            work.give()


def interrupt():
    """Stop every decision of a ``Searcher`` running now, in any thread.

    Each stops at its next look (within 32 iterations or play-outs) and raises
    ``KeyboardInterrupt``; later decisions are not affected.  Ctrl-C reaches only the
    main thread: a caller waiting there for searches in other threads (an arena's
    workers) calls this when it is interrupted.
    """
    boardcore_interrupt()


def final_rewards(state):
    """Each seat's result of ``state``: 1 for a sole winner, ``1/k`` for ``k`` who share
    the win, 0 for a loss; all 0 while the game goes on."""
    cdef EngineState st
    cdef double r[MAX_PLAYERS]
    cdef int p
    if not isinstance(state, EngineState) or (<EngineState>state)._players == 0:
        raise TypeError(f"rewards are of a boardcore state, not {quote(state)}")
    st = <EngineState>state
    with cython.critical_section(st):
        for p in range(st._players):
            r[p] = 0.0
        if st._k.current(st._s) < 0:
            results(st._k, st._s, r)
    return [r[p] for p in range(st._players)]


def heuristic_action(state, seed):
    """Return the move the game's heuristic player (the expert's play-outs) makes in
    ``state`` drawing from ``seed``; ``None`` if the game has none or the game is over.

    It reads the whole position, as a play-out does in a determinization.
    """
    cdef EngineState st
    cdef rng_t rng
    cdef int action
    if not isinstance(state, EngineState) or (<EngineState>state)._players == 0:
        raise TypeError(f"heuristic_action takes a boardcore state, not {quote(state)}")
    seed = check_int(seed, "seed")
    if not 0 <= seed < 2**64:
        raise ConfigurationError(f"seed must be in 0..2**64-1, not {quote(seed)}")
    st = <EngineState>state
    if st._k.heuristic == NULL:
        return None
    rng_seed(&rng, seed)
    with cython.critical_section(st):
        action = st._k.heuristic(st._s, &rng)
    return None if action < 0 else action


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
        raise ConfigurationError(f"seat {seat} is not in range({state._players})")
    if state._k.determinize == NULL:
        raise NotImplementedError(f"{state._k.name.decode()} has no determinization yet")
    rng_seed(&rng, seed)
    copy = state.copy()
    with cython.critical_section(copy):
        copy._k.determinize(copy._s, seat, &rng)
    doc = state.to_dict()
    head = {key: doc[key] for key in ("game", "rules_version", "players", "options", "seed")}
    return state.game.state_from_dict({**head, "setup": copy._fields(), "history": []})
