# Many games stepped in one compiled call, written once over the kernel table.
#
# ``Batch`` holds ``n`` positions of one game in one buffer (``n * state_size`` bytes)
# and steps a slice of them without the GIL, writing observations, action masks (unless
# the caller binds none: then only the legal actions are kept, for ``legal_actions``),
# rewards, flags and the seat to act into the caller's numpy arrays.  Two modes:
# self-play (the caller acts for whichever seat is to move in each game) and
# learner-vs-agents (the caller acts for one seat; the other seats are compiled agents
# played inside the step).  Every game has its own generators (its resets' seeds, its
# opponents' choices), so a trajectory does not depend on how the games are split
# between threads.  Autoreset is Gymnasium's next-step mode: a game that ended in one
# step is reset by the next, which ignores that game's action and reports no reward.
#
# A call works on its games without the GIL, so it first takes them (``_claim``): to
# change them or to read them, refused while another call changes them (or, to change
# them, reads them); a worker's memory (a ``_search.Work``) is taken the same way and
# grown to what this batch's positions and opponents need.  A call split over threads
# (``hold``, then ``run`` of every slice, then ``release``) takes every game and every
# worker before any slice runs, so it runs whole or is refused with nothing changed.  No
# two threads ever touch one position, one mask or one scratch buffer at once, and the
# actions a step plays are the private copy it checked.
cimport cython
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

from _kernel cimport MAX_PLAYERS, kernel_t, pick
from _rng cimport STREAM_EPISODE, STREAM_OPPONENTS, derive_seed, rng_seed, rng_t

from boardcore._engine._search cimport (AGENT_RANDOM, Searcher, Work, agent_t, choose, results,
                                        tree_nodes)
from boardcore._engine._state cimport EngineConfig

import numpy as np

from boardcore.errors import ConfigurationError, IllegalActionError, UsageError

cdef enum:
    CHANGING = -1       # users[i]: a call changes game i (else: how many calls read it)
    SLICES = 256        # the most slices a held call runs in
    # the progress of each slice of a held call
    WAITING = 0
    RUNNING = 1
    DONE = 2

#: The most games one batch holds.
MAX_ENVS = 1 << 20
#: The most slices (threads) one call of a batch is split into.
MAX_SLICES = SLICES


cdef extern from *:
    """
    /* Whether a is one of s[0..15]: two compares of 8 on SSE2 (every x86-64), else a
       loop the compiler may vectorize; no branch an entry either way. */
    #if defined(__SSE2__) || defined(_M_X64)
    #include <emmintrin.h>
    static inline int bc_among16(const uint16_t *s, uint16_t a) {
        __m128i k = _mm_set1_epi16((short)a);
        __m128i lo = _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)s), k);
        __m128i hi = _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)(s + 8)), k);
        return _mm_movemask_epi8(_mm_or_si128(lo, hi)) != 0;
    }
    #else
    static inline int bc_among16(const uint16_t *s, uint16_t a) {
        uint16_t hit = 0;
        for (int j = 0; j < 16; j++) hit |= (uint16_t)-(s[j] == a);
        return hit != 0;
    }
    #endif
    """
    bint bc_among16(const uint16_t *s, uint16_t a) noexcept nogil


cdef inline void _mark(int8_t *mask, const uint16_t *actions, int count,
                       int8_t value) noexcept nogil:
    # Set a mask's entries of ``count`` actions to ``value``, two a round.
    cdef int j
    for j in range(count >> 1):
        mask[actions[2 * j]] = value
        mask[actions[2 * j + 1]] = value
    if count & 1:
        mask[actions[count - 1]] = value


@cython.final
@cython.binding(False)
cdef class Batch:
    """``n`` games of one configuration, stepped together (see ``boardcore.VectorEnv``)."""

    cdef const kernel_t *k
    cdef bytes blob               # the configuration; cfg points into it
    cdef const char *cfg
    cdef char *states
    cdef rng_t *opponents         # per game: the opponents' generator
    cdef int64_t *episodes        # per game: episodes begun
    cdef uint8_t *ended           # per game: it ended in the last step (reset next)
    # Per game, its legal actions (those its mask shows), ascending: up to 16 in
    # ``shown`` (32 bytes a game, padded with 0xFFFF, above every action), more in
    # ``spill`` (``max_legal`` a game: Rummikub Junior's 9,857).  A step touches one
    # line of each game's list, never a page of its own per game.
    cdef uint16_t *shown
    cdef uint16_t *spill          # NULL if no game has more than 16
    cdef int *shown_n
    cdef int *to_act              # per game: the seat to act last written (-1: over)
    cdef int32_t *users           # per game: CHANGING while a call changes it, else its readers
    cdef int64_t *acts            # per game: the action its step plays (a private copy)
    cdef Py_ssize_t begun         # games begun at least once
    cdef readonly bint started    # every game has begun (reset)
    # The call held in slices (``hold``): its workers, one per slice (None: no call is
    # held), whether it begins episodes (else it steps), and each slice's progress.
    cdef list held
    cdef bint held_reset
    cdef uint8_t progress[SLICES]
    # The caller's arrays, bound once (``bind``): every call writes into them.
    cdef float[:, ::1] obs
    cdef int8_t[:, ::1] mask      # None: no masks are written
    cdef float[:, ::1] rewards
    cdef uint8_t[::1] terminated
    cdef int32_t[::1] current
    cdef bint bound
    cdef readonly Py_ssize_t n
    cdef readonly int players
    cdef readonly int num_actions
    cdef readonly int observation_size
    cdef readonly int learner     # -1: self-play
    cdef agent_t agent
    cdef uint64_t seed

    def __cinit__(self, EngineConfig config not None, Py_ssize_t n, uint64_t seed,
                  int learner, Searcher opponents):
        self.k = config.k
        self.blob = config.blob
        self.cfg = <const char *>self.blob
        if not 1 <= n <= MAX_ENVS:
            raise ConfigurationError(f"num_envs must be in 1..{MAX_ENVS}, not {n}")
        if config.observation_size == 0:
            raise NotImplementedError(f"{self.k.name.decode()} has no observations yet")
        if (opponents is None) != (learner == -1) or not -1 <= learner < config.num_players:
            raise ConfigurationError("the learner's seat must be a seat of the game with "
                                     f"opponents, or -1 without (self-play), not {learner}")
        if opponents is not None:
            if opponents.agent.time_limit > 0:
                raise ConfigurationError("opponents play a budget, not a time limit: a "
                                         "trajectory must not depend on the clock")
            if opponents.agent.kind != AGENT_RANDOM and self.k.determinize == NULL:
                raise NotImplementedError(f"{self.k.name.decode()} has no determinization yet")
            self.agent = opponents.agent
        self.n = n
        self.players = config.num_players
        self.num_actions = config.num_actions
        self.observation_size = config.observation_size
        self.learner = learner
        self.seed = seed
        self.states = <char *>malloc(n * self.k.state_size)
        self.opponents = <rng_t *>malloc(n * sizeof(rng_t))
        self.episodes = <int64_t *>calloc(n, sizeof(int64_t))
        self.ended = <uint8_t *>calloc(n, sizeof(uint8_t))
        self.shown = <uint16_t *>malloc(n * 16 * sizeof(uint16_t))
        if self.k.max_legal > 16:
            self.spill = <uint16_t *>malloc(n * self.k.max_legal * sizeof(uint16_t))
        self.shown_n = <int *>calloc(n, sizeof(int))
        self.to_act = <int *>calloc(n, sizeof(int))
        self.users = <int32_t *>calloc(n, sizeof(int32_t))
        self.acts = <int64_t *>calloc(n, sizeof(int64_t))
        if (self.states == NULL or self.opponents == NULL or self.episodes == NULL
                or self.ended == NULL or self.shown == NULL or self.shown_n == NULL
                or self.k.max_legal > 16 and self.spill == NULL
                or self.to_act == NULL or self.users == NULL or self.acts == NULL):
            raise MemoryError(f"no memory for {n} games")
        cdef Py_ssize_t i
        for i in range(n):
            rng_seed(&self.opponents[i], derive_seed(seed, STREAM_OPPONENTS, <uint64_t>i))

    def __dealloc__(self):
        free(self.states)
        free(self.opponents)
        free(self.episodes)
        free(self.ended)
        free(self.shown)
        free(self.spill)
        free(self.shown_n)
        free(self.to_act)
        free(self.users)
        free(self.acts)

    cdef void *_state(self, Py_ssize_t i) noexcept nogil:
        return self.states + i * self.k.state_size

    def bind(self, float[:, ::1] obs not None, int8_t[:, ::1] mask,
             float[:, ::1] rewards not None, uint8_t[::1] terminated not None,
             int32_t[::1] current not None):
        """Bind the arrays every later call writes into (once, before ``reset``).

        ``mask`` may be None: then no call writes masks (the legal actions are kept, for
        ``legal_actions``, and every action is still checked against them).
        """
        if (obs.shape[0] != self.n or obs.shape[1] != self.observation_size
                or mask is not None and (mask.shape[0] != self.n
                                         or mask.shape[1] != self.num_actions)
                or rewards.shape[0] != self.n
                or rewards.shape[1] != (self.players if self.learner < 0 else 1)
                or terminated.shape[0] != self.n or current.shape[0] != self.n):
            raise ConfigurationError("the arrays do not fit this batch")
        cdef bint again
        with cython.critical_section(self):
            again = self.bound
            if not again:
                self.obs, self.mask, self.rewards = obs, mask, rewards
                self.terminated, self.current = terminated, current
                self.bound = True
        if again:
            raise UsageError("this batch's arrays are bound already")

    cdef int _claim(self, Py_ssize_t start, Py_ssize_t stop, bint change, bint begun,
                    ) except -1:
        # Take games start..stop for one call, to change them or to read them; with
        # ``begun``, only once every game has begun.  Give them back with _release.
        cdef Py_ssize_t i
        cdef int problem = 0
        cdef bint clash = False
        with cython.critical_section(self):
            if not self.bound:
                problem = 1
            elif not 0 <= start <= stop <= self.n:
                problem = 2
            elif begun and not self.started:
                problem = 3
            else:
                for i in range(start, stop):
                    clash |= self.users[i] == CHANGING or (change and self.users[i] > 0)
                if clash:
                    problem = 4
                else:
                    for i in range(start, stop):
                        self.users[i] = CHANGING if change else self.users[i] + 1
        if problem == 1:
            raise UsageError("bind() the arrays first")
        if problem == 2:
            raise ConfigurationError(f"games {start}..{stop} are not games of this batch")
        if problem == 3:
            raise UsageError("call reset() first: the games have not begun")
        if problem == 4:
            raise UsageError(f"games {start}..{stop} are in use by another thread")
        return 0

    cdef int _take_worker(self, Work worker) except -1:
        # Take a worker's memory for one call, grown to this batch's needs.
        if not worker.take():
            raise UsageError("this worker is in use by another thread")
        try:
            worker.fit(self.k.state_size, tree_nodes(&self.agent))
        except BaseException:
            worker.give()
            raise
        return 0

    cdef void _release(self, Py_ssize_t start, Py_ssize_t stop, bint change,
                       Py_ssize_t fresh=0) noexcept:
        # Give back what _claim took; ``fresh`` games began their first episode.
        cdef Py_ssize_t i
        with cython.critical_section(self):
            for i in range(start, stop):
                self.users[i] = 0 if change else self.users[i] - 1
            self.begun += fresh
            self.started = self.begun == self.n

    cdef void _begin(self, Py_ssize_t i, Work w) noexcept nogil:
        # Start game i's next episode; the opponents move until the learner is to act.
        self.k.init(self._state(i), self.cfg,
                    derive_seed(self.seed, STREAM_EPISODE,
                                (<uint64_t>i << 32) | <uint64_t>self.episodes[i]))
        self.episodes[i] += 1
        self.ended[i] = 0
        self._opponents(i, w)

    cdef void _opponents(self, Py_ssize_t i, Work w) noexcept nogil:
        cdef void *s = self._state(i)
        cdef int seat
        if self.learner < 0:
            return
        while True:
            seat = self.k.current(s)
            if seat < 0 or seat == self.learner:
                return
            self.k.apply(s, choose(self.k, s, &self.agent, &self.opponents[i], &w.w))

    cdef inline const uint16_t *_list(self, Py_ssize_t i) noexcept nogil:
        # Game i's legal actions (``shown_n[i]`` of them).
        if self.shown_n[i] <= 16:
            return self.shown + 16 * i
        return self.spill + i * self.k.max_legal

    cdef inline bint _shown(self, Py_ssize_t i, int64_t a) noexcept nogil:
        # Whether ``a`` is one of the legal actions game i's mask shows: no rules run.
        cdef const uint16_t *shown = self._list(i)
        cdef int lo = 0, hi = self.shown_n[i], mid
        if not 0 <= a < self.num_actions:
            return False
        if hi <= 16:
            return bc_among16(shown, <uint16_t>a)
        while lo < hi:                  # a binary search
            mid = (lo + hi) >> 1
            if shown[mid] < a:
                lo = mid + 1
            else:
                hi = mid
        return lo < self.shown_n[i] and shown[lo] == a

    cdef inline void _show(self, Py_ssize_t i, int seat, int to_act, float *obs,
                           int8_t *mask, int32_t *current, Work w) noexcept nogil:
        # Write game i's observation for ``seat``, its legal actions and the seat to act
        # (``to_act``, that of its position).  The mask (NULL: none) changes only where
        # the legal actions do: last step's are cleared, this step's set, two a round.
        # A game with more than 16 legal actions lists them in the worker's scratch
        # first (``w.w.legal``, free between the opponents' choices), then in ``shown``
        # or ``spill``: its spill row is written only when it needs it.
        cdef void *s = self._state(i)
        cdef uint16_t *small = self.shown + 16 * i
        cdef uint16_t *legal = small if self.k.max_legal <= 16 else w.w.legal
        cdef int count
        self.k.observe(s, seat, obs)
        if mask != NULL:
            _mark(mask, self._list(i), self.shown_n[i], 0)
        memset(small, 0xFF, 16 * sizeof(uint16_t))
        count = self.k.legal(s, legal)
        if legal != small:
            memcpy(small if count <= 16 else self.spill + i * self.k.max_legal, legal,
                   count * sizeof(uint16_t))
        if mask != NULL:
            _mark(mask, legal, count, 1)
        self.shown_n[i] = count
        self.to_act[i] = to_act
        current[0] = to_act

    cdef void _show_begun(self, Py_ssize_t i, float *obs, int8_t *mask,
                          int32_t *current, Work w) noexcept nogil:
        # _show for a game just begun: for the learner, or in self-play the seat to act.
        cdef int to_act = self.k.current(self._state(i))
        self._show(i, self.learner if self.learner >= 0 else to_act, to_act, obs, mask,
                   current, w)

    def reset(self, Py_ssize_t start, Py_ssize_t stop, Work worker not None):
        """Begin a new episode in games ``start..stop-1``, on this thread."""
        cdef Py_ssize_t fresh = 0
        self._claim(start, stop, True, False)
        try:
            self._take_worker(worker)
            try:
                fresh = self._reset(start, stop, worker)
            finally:
                worker.give()
        finally:
            self._release(start, stop, True, fresh)

    def step(self, const int64_t[::1] actions not None, Work worker not None):
        """Play ``actions`` (one per game) in every game, on this thread.

        The actions are copied first, and the copy is what is checked and played: an
        action its game's mask does not show raises ``IllegalActionError`` naming the
        game, and nothing moves.  A game that ended in the last step resets instead (its
        action is ignored).
        """
        if actions.shape[0] != self.n:
            raise ConfigurationError(f"actions must hold {self.n} actions, not {actions.shape[0]}")
        self._claim(0, self.n, True, True)
        try:
            self._take_worker(worker)
            try:
                self._copy_and_check(actions)
                self._step(0, self.n, worker)
            finally:
                worker.give()
        finally:
            self._release(0, self.n, True)

    def hold(self, list workers not None, actions=None):
        """Take every game, and one worker per slice, for one call run in slices.

        With ``actions`` (int64, one per game) the call is a step, its actions copied and
        the copy checked as ``step`` does (an illegal one raises ``IllegalActionError``,
        and nothing is taken); without, it begins a new episode in every game.  Refused
        with ``UsageError``, nothing taken, while another call uses a game or a worker.
        Then ``run(j)`` plays slice ``j`` -- games ``j * n // T`` up to ``(j + 1) * n //
        T``, ``T = len(workers)`` -- with worker ``j``, each once, from any thread, and
        ``release()`` ends the call: it runs whole, or (refused here) not at all.
        """
        cdef Py_ssize_t j, t = len(workers), taken = 0
        cdef const int64_t[::1] copy = None
        if not 1 <= t <= SLICES:
            raise ConfigurationError(f"a call runs in 1..{SLICES} slices, not {t}")
        for w in workers:
            if not isinstance(w, Work):
                raise TypeError(f"workers must be Work objects, not {type(w).__name__}")
        if actions is not None:
            copy = actions
            if copy.shape[0] != self.n:
                raise ConfigurationError(
                    f"actions must hold {self.n} actions, not {copy.shape[0]}")
        self._claim(0, self.n, True, actions is not None)
        try:
            for j in range(t):
                self._take_worker(workers[j])
                taken += 1
            if actions is not None:
                self._copy_and_check(copy)
        except BaseException:
            for j in range(taken):
                (<Work>workers[j]).give()
            self._release(0, self.n, True)
            raise
        with cython.critical_section(self):
            self.held = list(workers)
            self.held_reset = actions is None
            memset(self.progress, WAITING, t)

    def run(self, Py_ssize_t j):
        """Play slice ``j`` of the call ``hold`` took (once; from any thread)."""
        cdef Work worker = None
        cdef Py_ssize_t start = 0, stop = 0, fresh = 0
        cdef bint reset = False
        with cython.critical_section(self):
            if self.held is not None and 0 <= j < len(self.held) and self.progress[j] == WAITING:
                worker = self.held[j]
                start = j * self.n // len(self.held)
                stop = (j + 1) * self.n // len(self.held)
                reset = self.held_reset
                self.progress[j] = RUNNING
        if worker is None:
            raise UsageError(f"slice {j} is not a slice of a held call waiting to run")
        if reset:
            fresh = self._reset(start, stop, worker)
        else:
            self._step(start, stop, worker)
        with cython.critical_section(self):
            self.progress[j] = DONE
            self.begun += fresh

    def release(self):
        """End the call ``hold`` took: give back its games and workers.

        Refused with ``UsageError`` while one of its slices runs.  Every slice should
        have run; one that did not is abandoned (its games stay as they were).
        """
        cdef Py_ssize_t j
        cdef list held = None
        cdef int problem = 1
        with cython.critical_section(self):
            if self.held is not None:
                problem = 0
                for j in range(len(self.held)):
                    if self.progress[j] == RUNNING:
                        problem = 2
                if not problem:
                    held, self.held = self.held, None
        if problem == 1:
            raise UsageError("no call is held")
        if problem == 2:
            raise UsageError("a slice of the held call is still running")
        for w in held:
            (<Work>w).give()
        self._release(0, self.n, True)

    cdef Py_ssize_t _reset(self, Py_ssize_t start, Py_ssize_t stop, Work worker) noexcept:
        # Begin a new episode in games start..stop (taken): each is stepped as a game
        # that has just ended.  Return how many of them began their first.
        cdef Py_ssize_t i, fresh = 0
        for i in range(start, stop):
            fresh += self.episodes[i] == 0
            self.ended[i] = 1
        self._step(start, stop, worker)
        return fresh

    cdef int _copy_and_check(self, const int64_t[::1] actions) except -1:
        # Copy ``actions`` (one per game; the games taken) to ``acts``, then check the
        # copy: IllegalActionError for the first game whose mask does not show its
        # action.  A game that ended in the last step ignores its action.
        cdef Py_ssize_t i, bad = -1
        cdef const int64_t *acts = self.acts
        cdef const uint8_t *ended = self.ended
        memcpy(self.acts, &actions[0], self.n * sizeof(int64_t))
        for i in range(self.n):
            if not ended[i] and not self._shown(i, acts[i]):
                bad = i
                break
        if bad >= 0:
            raise IllegalActionError(
                f"illegal action {acts[bad]} in game {bad}; nothing was played")
        return 0

    cdef void _step(self, Py_ssize_t start, Py_ssize_t stop, Work worker) noexcept:
        # Play ``self.acts`` (checked) in games start..stop (taken); a game that ended
        # begins its next episode instead.
        cdef Py_ssize_t i
        cdef int seat, p, to_act
        cdef double r[MAX_PLAYERS]
        cdef void *s
        cdef float[:, ::1] obs = self.obs, out = self.rewards
        cdef int8_t[:, ::1] mask = self.mask
        cdef int8_t *row = NULL         # game i's mask, if masks are written
        cdef bint masks = mask is not None
        cdef uint8_t[::1] terminated = self.terminated
        cdef int32_t[::1] current = self.current
        with nogil:
            for i in range(start, stop):
                s = self._state(i)
                if masks:
                    row = &mask[i, 0]
                for p in range(out.shape[1]):
                    out[i, p] = 0.0
                terminated[i] = 0
                if self.ended[i]:
                    self._begin(i, worker)
                    self._show_begun(i, &obs[i, 0], row, &current[i], worker)
                    continue
                seat = self.to_act[i]           # the mover: the seat its mask was for
                self.k.apply(s, <int>self.acts[i])
                if self.learner >= 0:
                    self._opponents(i, worker)
                to_act = self.k.current(s)
                if self.learner >= 0:
                    seat = self.learner
                elif to_act >= 0:
                    seat = to_act
                if to_act < 0:
                    results(self.k, s, r)
                    if self.learner >= 0:
                        out[i, 0] = <float>r[self.learner]
                    else:
                        for p in range(self.players):
                            out[i, p] = <float>r[p]
                    terminated[i] = 1
                    self.ended[i] = 1
                self._show(i, seat, to_act, &obs[i, 0], row, &current[i], worker)

    def legal_actions(self):
        """Every game's legal actions (those its mask shows, ascending): ``(ids, counts)``.

        ``ids`` has a row per game and ``max(counts)`` columns (at least one), ``-1``
        after a game's ``counts[i]`` actions; both are read in one call, so no step of
        another thread falls between them.
        """
        cdef Py_ssize_t i
        cdef int j, width = 1
        cdef const uint16_t *shown
        cdef int32_t[::1] c
        cdef int32_t[:, ::1] out
        self._claim(0, self.n, False, True)
        try:
            for i in range(self.n):
                width = max(width, self.shown_n[i])
            counts = np.empty(self.n, dtype=np.int32)
            ids = np.empty((self.n, width), dtype=np.int32)
            c, out = counts, ids
            with nogil:
                for i in range(self.n):
                    shown = self._list(i)
                    c[i] = self.shown_n[i]
                    for j in range(width):
                        out[i, j] = shown[j] if j < c[i] else -1
        finally:
            self._release(0, self.n, False)
        return ids, counts

    def random_actions(self, int64_t[::1] out not None, uint64_t seed):
        """Fill ``out`` with a uniformly random legal action of every game (0 if it ended).

        The draw is the random player's, ``legal[bounded(count)]``, from the legal
        actions the masks show (they are remembered, so nothing is recomputed).
        """
        cdef rng_t rng
        cdef Py_ssize_t i
        cdef int a
        if out.shape[0] != self.n:
            raise ConfigurationError(f"out must hold {self.n} actions")
        self._claim(0, self.n, False, True)
        try:
            rng_seed(&rng, seed)
            with nogil:
                for i in range(self.n):
                    a = pick(self._list(i), self.shown_n[i], &rng)
                    out[i] = a if a >= 0 and not self.ended[i] else 0
        finally:
            self._release(0, self.n, False)

    def state_bytes(self, Py_ssize_t i):
        """Return game ``i``'s position struct (for tests)."""
        if not 0 <= i < self.n:
            raise ConfigurationError(f"game {i} is not in range({self.n})")
        self._claim(i, i + 1, False, False)
        try:
            return (<char *>self._state(i))[:self.k.state_size]
        finally:
            self._release(i, i + 1, False)
