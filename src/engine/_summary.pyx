# The streaming summary behind ``simulate(..., keep="summary")``: the exact counts of a
# batch of random games, in memory that does not grow with the number of games.
#
# A ``tally_t`` is plain C memory: how many games; each seat's wins (alone or shared) and
# its shared wins; the games by how many seats won them; and one histogram per per-game
# number ("figures", in this order): the length in actions, each seat's final score,
# then each of the game's statistics in the kernel's ``stats`` order (``end`` codes too).
# Sums and sums of squares follow exactly from the histograms, so they are not kept twice.
#
# A histogram (``bins_t``) is exact and dense over a window of values: ``counts[i]`` games
# had the value ``lo + i``.  A value outside the window grows it to cover the value, at
# least doubling its width (amortised O(1) per value), the new room on the side it grew
# towards; the window follows the values seen and is never anchored at zero, so negative
# values (Fool's scores) cost nothing extra.  Its memory is thus 8 bytes times a little
# more than (max - min + 1) of the values seen, whatever the number of games: a few KiB
# per figure for every game here.  A window wider than ``MAX_BINS`` values is refused
# (no game comes near it: its numbers are bounded by its rules).  Counts are int64, exact
# up to 9.2e18 games.
#
# Threads: ``Tally.play`` plays into a private tally without the GIL, then adds it to
# ``self`` inside a critical section, holding the GIL: nothing another thread can reach
# is touched without it, and concurrent calls on one tally add up.  Adding is exact and
# commutative, so the counts never depend on how a batch was cut or in which order the
# parts were added.
cimport cython
from libc.stdint cimport UINT64_MAX, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

from _kernel cimport LINE_PAD, MAX_PLAYERS, kernel_t, line_aligned
from _rng cimport STREAM_GAME, STREAM_PLAYER, derive_seed, rng_seed, rng_t

from boardcore._engine._state cimport EngineConfig

import numpy as np

from boardcore.errors import ConfigurationError, InvalidStateError
from boardcore.values import check_int

cdef enum:
    STATS_LIMIT = 8                         # a game's statistics, at most
    FIGURES_LIMIT = 1 + MAX_PLAYERS + STATS_LIMIT
    BINS_LIMIT = 1 << 20                    # a histogram's window, at most (8 MiB)
    FIRST_BINS = 16                         # a histogram's first window
    ERR_WIDE = -1                           # a window would exceed BINS_LIMIT
    ERR_MEMORY = -2                         # malloc failed
    ERR_SHAPE = -3                          # tallies of different shapes

#: A game's statistics a tally counts, at most.
MAX_STATS = STATS_LIMIT
#: The widest range of values (max - min + 1) one histogram holds.
MAX_BINS = BINS_LIMIT
# Values a histogram takes at all: far beyond any game's numbers, and small enough that
# no window arithmetic below can overflow.
cdef int64_t VALUE_LIMIT = (<int64_t>1) << 60


ctypedef struct bins_t:
    int64_t lo                 # the value counted by counts[0]
    int64_t size               # bins allocated; 0: nothing counted yet (counts NULL)
    int64_t *counts


ctypedef struct tally_t:
    int players                # 0: not set up
    int n_stats
    int64_t games
    int64_t wins[MAX_PLAYERS]              # games the seat won, alone or shared
    int64_t shared[MAX_PLAYERS]            # ... of them with more than one winner
    int64_t by_winners[MAX_PLAYERS + 1]    # games by their number of winners
    bins_t figures[FIGURES_LIMIT]          # 1 + players + n_stats of them in use


cdef inline int figure_count(const tally_t *t) noexcept nogil:
    return 1 + t.players + t.n_stats


cdef int bins_cover(bins_t *b, int64_t lo, int64_t hi) noexcept nogil:
    """Grow ``b``'s window to hold ``lo..hi`` (``lo <= hi``); 0, or an ERR_ code (``b``
    unchanged)."""
    cdef int64_t top, want_lo, want_hi, width, size, slack, start
    cdef int64_t *counts
    if lo < -VALUE_LIMIT or hi > VALUE_LIMIT:
        return ERR_WIDE
    top = b.lo + b.size - 1
    if b.size != 0 and lo >= b.lo and hi <= top:
        return 0
    want_lo = lo if b.size == 0 or lo < b.lo else b.lo
    want_hi = hi if b.size == 0 or hi > top else top
    width = want_hi - want_lo + 1
    if width > BINS_LIMIT:
        return ERR_WIDE
    size = FIRST_BINS if b.size == 0 else 2 * b.size
    size = min(max(size, width), <int64_t>BINS_LIMIT)
    slack = size - width
    # The new room goes where the window grew: all below if it grew downwards only, none
    # if upwards only, half each way otherwise (and for a first window).
    if b.size != 0 and want_lo < b.lo and want_hi == top:
        start = want_lo - slack
    elif b.size != 0 and want_lo == b.lo:
        start = want_lo
    else:
        start = want_lo - slack // 2
    counts = <int64_t *>calloc(<size_t>size, sizeof(int64_t))
    if counts == NULL:
        return ERR_MEMORY
    if b.size != 0:
        memcpy(counts + (b.lo - start), b.counts, <size_t>b.size * sizeof(int64_t))
        free(b.counts)
    b.lo = start
    b.size = size
    b.counts = counts
    return 0


cdef int bins_add_slow(bins_t *b, int64_t v) noexcept nogil:
    cdef int err = bins_cover(b, v, v)
    if err == 0:
        b.counts[v - b.lo] += 1
    return err


cdef inline int bins_add(bins_t *b, int64_t v) noexcept nogil:
    """Count one game with value ``v``; 0, or an ERR_ code."""
    # Unsigned: wraps for any v instead of overflowing; in the window iff below size.
    cdef uint64_t i = <uint64_t>v - <uint64_t>b.lo
    if i < <uint64_t>b.size:
        b.counts[i] += 1
        return 0
    return bins_add_slow(b, v)


cdef bint bins_span(const bins_t *b, int64_t *lo, int64_t *hi) noexcept nogil:
    """The first and last value counted; False if nothing is."""
    cdef int64_t i = 0, j = b.size - 1
    while i <= j and b.counts[i] == 0:
        i += 1
    if i > j:
        return False
    while b.counts[j] == 0:
        j -= 1
    lo[0] = b.lo + i
    hi[0] = b.lo + j
    return True


cdef void tally_init(tally_t *t, int players, int n_stats) noexcept nogil:
    memset(t, 0, sizeof(tally_t))
    t.players = players
    t.n_stats = n_stats


cdef void tally_free(tally_t *t) noexcept nogil:
    cdef int f
    for f in range(FIGURES_LIMIT):
        free(t.figures[f].counts)
    memset(t, 0, sizeof(tally_t))


cdef int tally_shape_of(tally_t *t, const tally_t *model) noexcept nogil:
    """Give ``t``'s empty windows those of ``model`` (so that playing into ``t`` rarely
    grows them); 0, or an ERR_ code."""
    cdef int f, err
    cdef const bins_t *b
    for f in range(figure_count(model)):
        b = &model.figures[f]
        if b.size != 0:
            err = bins_cover(&t.figures[f], b.lo, b.lo + b.size - 1)
            if err != 0:
                return err
    return 0


cdef int tally_merge(tally_t *t, const tally_t *other) noexcept nogil:
    """Add ``other``'s counts to ``t`` (the same shape); 0, or an ERR_ code with ``t``'s
    counts unchanged: every window is grown first, then the counts are added."""
    cdef int f, p, err
    cdef int64_t i, lo, hi, offset
    cdef const bins_t *b
    if t.players != other.players or t.n_stats != other.n_stats:
        return ERR_SHAPE      # (a tally set up again by another thread meanwhile)
    for f in range(figure_count(other)):
        if bins_span(&other.figures[f], &lo, &hi):
            err = bins_cover(&t.figures[f], lo, hi)
            if err != 0:
                return err
    for f in range(figure_count(other)):
        b = &other.figures[f]
        if b.size != 0:
            offset = b.lo - t.figures[f].lo
            for i in range(b.size):
                if b.counts[i] != 0:
                    t.figures[f].counts[offset + i] += b.counts[i]
    t.games += other.games
    for p in range(t.players):
        t.wins[p] += other.wins[p]
        t.shared[p] += other.shared[p]
    for p in range(t.players + 1):
        t.by_winners[p] += other.by_winners[p]
    return 0


cdef int tally_play(tally_t *t, const kernel_t *k, const void *cfg, void *s, uint64_t seed,
                    uint64_t start, uint64_t stop) noexcept nogil:
    """Play games ``start..stop-1`` of batch ``seed`` (``simulate``'s games) into ``t``;
    0, or an ERR_ code (``t`` then holds part of a game: the caller drops it)."""
    cdef int n = t.players
    cdef int m = t.n_stats
    cdef int p, won
    cdef uint64_t g
    cdef rng_t player
    cdef int64_t length
    cdef int64_t sc[MAX_PLAYERS]
    cdef int64_t st[STATS_LIMIT]
    cdef uint8_t w[MAX_PLAYERS]
    cdef int err
    cdef bins_t *fig = t.figures
    for g in range(start, stop):
        k.init(s, cfg, derive_seed(seed, STREAM_GAME, g))
        rng_seed(&player, derive_seed(seed, STREAM_PLAYER, g))
        length = k.play_out(s, &player, NULL)
        k.scores(s, sc)
        k.winners(s, w)
        k.stats(s, st)
        won = 0
        for p in range(n):
            if w[p] != 0:
                won += 1
                t.wins[p] += 1
        if won > 1:
            for p in range(n):
                if w[p] != 0:
                    t.shared[p] += 1
        t.by_winners[won] += 1
        err = bins_add(&fig[0], length)
        for p in range(n):
            if err == 0:
                err = bins_add(&fig[1 + p], sc[p])
        for p in range(m):
            if err == 0:
                err = bins_add(&fig[1 + n + p], st[p])
        if err != 0:
            return err
        t.games += 1
    return 0


cdef object _number(object value, str what, object low, object high):
    """``value`` as an int in ``low..high``: a TypeError or ConfigurationError otherwise."""
    value = check_int(value, what)
    if not low <= value <= high:
        raise ConfigurationError(f"{what} must be in {low}..{high}, not {value}")
    return value


cdef object _failure(int err):
    if err == ERR_MEMORY:
        return MemoryError("no memory left for a histogram of the summary")
    if err == ERR_SHAPE:
        return ConfigurationError("the tally was set up for another game meanwhile")
    return InvalidStateError(f"a figure's values span more than {BINS_LIMIT:,} integers: "
                             "too wide for an exact histogram")


# Binding off: its methods are method descriptors, which check ``self``'s class (a
# method called through the class with another object raises TypeError, never crashes).
@cython.final
@cython.binding(False)
@cython.embedsignature.format("clinic")
@cython.no_gc          # holds no Python object
cdef class Tally:
    """The exact counts of a batch of random games: what ``simulate(keep="summary")``
    keeps, in memory that does not grow with the number of games.

    ``Tally(players, n_stats)`` counts games of ``players`` seats whose kernel writes
    ``n_stats`` statistics; ``play`` adds games of ``simulate``'s batch, ``merge`` another
    tally's counts, ``counts`` reads them all at once.

    >>> from boardcore._engine import just4fun
    >>> config = just4fun.config(2, 0, False, None)   # what Just4Fun(players=2) plays
    >>> t = Tally(2, 1)
    >>> t.play(config, 1, 0, 3)
    >>> games, wins, shared, by_winners, figures = t.counts()
    >>> games, sum(wins), shared, by_winners, int(figures[0][1].sum())
    (3, 3, (0, 0), (0, 3, 0), 3)
    """

    cdef tally_t t

    def __init__(self, players, n_stats):
        cdef int n = _number(players, "players", 1, MAX_PLAYERS)
        cdef int m = _number(n_stats, "n_stats", 0, STATS_LIMIT)
        with cython.critical_section(self):
            tally_free(&self.t)
            tally_init(&self.t, n, m)

    def __dealloc__(self):
        tally_free(&self.t)

    cdef int _check(self) except -1:
        if self.t.players == 0:
            raise TypeError("this Tally was never set up; make one with Tally(players, n_stats)")
        return 0

    cdef int _snapshot(self, tally_t *out) except -1:
        # A private copy of every count, taken in one critical section (C only: nothing
        # in it can let another thread in halfway); the caller frees it.
        cdef int err
        self._check()
        with cython.critical_section(self):
            tally_init(out, self.t.players, self.t.n_stats)
            err = tally_merge(out, &self.t)
        if err != 0:
            tally_free(out)
            raise _failure(err)
        return 0

    @property
    def players(self):
        """Seats of the games counted."""
        self._check()
        return self.t.players

    @property
    def n_stats(self):
        """Statistics per game counted (the kernel's ``n_stats``)."""
        self._check()
        return self.t.n_stats

    @property
    def games(self):
        """Games counted so far."""
        cdef int64_t games
        self._check()
        with cython.critical_section(self):
            games = self.t.games
        return games

    def counts(self):
        """Every count at once: ``(games, wins, shared, by_winners, figures)``.

        ``wins[p]``: games seat ``p`` won, alone or shared; ``shared[p]``: those it shared;
        ``by_winners[k]``: games that ``k`` seats won (``k = 0..players``); ``figures``:
        one histogram ``(low, counts)`` per figure -- the length, then each seat's score,
        then each statistic -- where ``counts[i]`` games had the value ``low + i``, with
        no zero count at either end (``(0, array([]))`` before any game).
        """
        cdef tally_t snap
        cdef int f, p
        cdef int64_t lo, hi
        cdef int64_t[::1] view
        self._snapshot(&snap)
        try:
            figures = []
            for f in range(figure_count(&snap)):
                if not bins_span(&snap.figures[f], &lo, &hi):
                    figures.append((0, np.zeros(0, dtype=np.int64)))
                    continue
                out = np.empty(hi - lo + 1, dtype=np.int64)
                view = out
                memcpy(&view[0], snap.figures[f].counts + (lo - snap.figures[f].lo),
                       <size_t>(hi - lo + 1) * sizeof(int64_t))
                figures.append((lo, out))
            return (snap.games, tuple([snap.wins[p] for p in range(snap.players)]),
                    tuple([snap.shared[p] for p in range(snap.players)]),
                    tuple([snap.by_winners[p] for p in range(snap.players + 1)]),
                    tuple(figures))
        finally:
            tally_free(&snap)

    def play(self, EngineConfig config not None, seed, start, stop):
        """Add games ``start..stop-1`` of ``simulate``'s batch ``seed`` of ``config``.

        Game ``g`` is ``new_state(derive_seed(seed, STREAM_GAME, g))`` played out by the
        random player seeded ``derive_seed(seed, STREAM_PLAYER, g)``, as in ``simulate``.
        Played without the GIL into private memory, then added in one step: a failed call
        adds nothing.
        """
        cdef tally_t local
        cdef const kernel_t *k = config.k
        cdef const void *cfg
        cdef void *block
        cdef int err = 0
        cdef uint64_t b = _number(seed, "seed", 0, UINT64_MAX)
        cdef uint64_t a = _number(start, "start", 0, UINT64_MAX)
        cdef uint64_t z = _number(stop, "stop", a, UINT64_MAX)
        self._check()
        if k == NULL or config.blob is None:
            raise TypeError("config was never set up; it comes from an engine's config()")
        cfg = <const char *>config.blob
        if config.num_players != self.t.players or k.n_stats != self.t.n_stats:
            raise ConfigurationError(
                f"this tally counts games of {self.t.players} seats and {self.t.n_stats} "
                f"statistics, not {config.num_players} and {k.n_stats}")
        tally_init(&local, self.t.players, self.t.n_stats)
        try:
            with cython.critical_section(self):
                err = tally_shape_of(&local, &self.t)
            if err != 0:
                raise _failure(err)
            block = malloc(k.state_size + LINE_PAD)   # the position on lines of its own
            if block == NULL:
                raise MemoryError()
            with nogil:
                err = tally_play(&local, k, cfg, line_aligned(block), b, a, z)
            free(block)
            if err == 0:
                with cython.critical_section(self):
                    err = tally_merge(&self.t, &local)
            if err != 0:
                raise _failure(err)
        finally:
            tally_free(&local)

    def merge(self, Tally other not None):
        """Add ``other``'s counts (a tally of the same shape) to this one's.

        On failure (no memory) nothing is added.
        """
        cdef tally_t snap
        cdef int err
        self._check()
        other._check()
        if other.t.players != self.t.players or other.t.n_stats != self.t.n_stats:
            raise ConfigurationError(
                f"tallies of different shapes: {self.t.players} seats and "
                f"{self.t.n_stats} statistics, against {other.t.players} and "
                f"{other.t.n_stats}")
        other._snapshot(&snap)      # (so that merging a tally into itself doubles it)
        try:
            with cython.critical_section(self):
                err = tally_merge(&self.t, &snap)
        finally:
            tally_free(&snap)
        if err != 0:
            raise _failure(err)

    def __reduce__(self):
        games, wins, shared, by_winners, figures = self.counts()
        return (_restore, (self.t.players, self.t.n_stats, games, wins, shared, by_winners,
                           tuple([(lo, c.tobytes()) for lo, c in figures])))


def _restore(players, n_stats, games, wins, shared, by_winners, figures):
    """A ``Tally`` from its ``__reduce__`` (pickling, Ray), every number checked."""
    cdef Tally t = Tally(players, n_stats)
    cdef int f, p
    cdef int64_t lo
    cdef const int64_t[::1] counts

    def bad(what):
        return InvalidStateError(f"not a pickled Tally: {what}")

    if type(games) is not int or not 0 <= games < 2**63:
        raise bad("games")
    for name, values, size in (("wins", wins, t.t.players), ("shared", shared, t.t.players),
                               ("by_winners", by_winners, t.t.players + 1)):
        if (type(values) is not tuple or len(values) != size
                or not all(type(v) is int and 0 <= v <= games for v in values)):
            raise bad(name)
    if (sum(by_winners) != games or any(s > w for s, w in zip(shared, wins))
            or sum(wins) != sum([k * c for k, c in enumerate(by_winners)])
            or sum(shared) != sum([k * c for k, c in enumerate(by_winners) if k > 1])):
        raise bad("counts that do not add up")
    if type(figures) is not tuple or len(figures) != figure_count(&t.t):
        raise bad("figures")
    for f in range(len(figures)):
        item = figures[f]
        if (type(item) is not tuple or len(item) != 2 or type(item[0]) is not int
                or type(item[1]) is not bytes or len(item[1]) % 8 != 0
                or len(item[1]) // 8 > BINS_LIMIT
                or not -VALUE_LIMIT <= item[0] <= VALUE_LIMIT - len(item[1]) // 8):
            raise bad(f"figure {f}")
        array = np.frombuffer(item[1], dtype=np.int64)
        if (array < 0).any() or sum(array.tolist()) != games:
            raise bad(f"figure {f}")
        if array.shape[0] == 0:
            continue
        counts = array
        lo = item[0]
        if bins_cover(&t.t.figures[f], lo, lo + counts.shape[0] - 1) != 0:
            raise MemoryError()
        memcpy(t.t.figures[f].counts + (lo - t.t.figures[f].lo), &counts[0],
               <size_t>counts.shape[0] * sizeof(int64_t))
    t.t.games = games
    for p in range(t.t.players):
        t.t.wins[p] = wins[p]
        t.t.shared[p] = shared[p]
    for p in range(t.t.players + 1):
        t.t.by_winners[p] = by_winners[p]
    return t
