# Rummikub Junior, compiled: the rules K1-K12 of ``boardcore rules rummikub_junior``.
#
# Data layout
# -----------
# A numbered tile is ``10 * colour + (number - 1)`` with colours R B Y K = 0..3, so
# 0..39; a joker is 40.  A rack is a 40-bit mask of numbered tiles (bit = tile) plus a
# joker count, so ``(rack >> 10 * c) & 0x3FF`` is colour c's numbers, bit k = number
# k + 1.  A table run is its colour, its first number ``lo``, its length and a joker
# mask (bit i: position i is a joker, standing for number ``lo + i``).  The pool is
# ``pool[pool_pos:44]`` in draw order.
#
# Actions (9,858 in all), ascending in this order:
#   0                      pass: lay nothing, pay 1 star and draw 1 tile (K8)
#   1                      end the turn (K5)
#   2 + 4*r + 2*s + j      extend run r (0..13) on side s (0 left, 1 right) with its
#                          tile (j = 0) or a joker (j = 1) (K5b)
#   58 + 10*r + i          swap the joker at position i (0..9) of run r (K5c)
#   198 + k                lay new run k (K5a): k orders every (colour, lo, length,
#                          joker mask) by colour, lo, length, then the mask as an
#                          integer; masks hold at most 4 jokers and leave at least one
#                          numbered tile (K6): 4 * 2,415 = 9,660 runs
#
# Chance, all from the state's own generator: one Fisher-Yates shuffle of the 44 tiles
# listed R1..R10 B1..B10 Y1..Y10 K1..K10 J J J J; the pool is drawn from its front;
# seats 0..n-1 in turn each take the next 6 tiles (K4).  Nothing else is random.
cimport cython
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

from _history cimport hist_t
from _kernel cimport kernel_t, play_out
from _rng cimport rng_bounded, rng_next, rng_seed, rng_shuffle_u8, rng_t

from boardcore._engine._state cimport EngineConfig, EngineState

from boardcore.errors import ConfigurationError, InvalidStateError
from boardcore.values import check_int, quote

# The rules' numbers the Python half reads too (module attributes: one source).
cpdef enum:
    JOKER = 40            # the joker's tile number, after the 40 numbered tiles
    STARS_TOTAL = 56      # K2
    STARS_MAX = 1000000   # a set-up position's stars, at most
    MAX_RUNS = 14         # every run holds at least 3 of the 44 tiles
    A_PASS = 0            # the first action of each kind (see above)
    A_END = 1
    A_EXTEND = 2
    A_SWAP = 58
    A_NEW = 198

cdef enum:
    N_COLOURS = 4
    N_NUMBERS = 10
    N_NUMBERED = 40
    N_TILES = 44
    N_JOKERS = 4
    RACK_START = 6        # K4
    STARS_START = 6       # K2
    MAX_SEATS = 4
    DEAL_TRIES = 10000    # determinization: deals drawn at most for a taken joker
    NO_SEAT = 255
    N_NEW = 9660
    N_NEW_COLOUR = 2415   # new runs of one colour
    N_ACTIONS = 9858
    # pass and end exclude each other; a rack of 39 tiles and 4 jokers makes nearly
    # every new run legal at once, so no much lower bound holds.
    MAX_LEGAL = N_ACTIONS - 1

# End codes; stats["end"] is the code, labels in RummikubJunior.end_reasons.
cdef enum:
    END_WENT_OUT = 0
    END_BLOCKED = 1

ctypedef struct run_t:
    uint8_t colour
    uint8_t lo                       # first number, 1..10
    uint8_t length                   # 3..10
    uint16_t jokers                  # bit i: position i is a joker

ctypedef struct rkj_t:
    rng_t rng
    uint64_t rack[MAX_SEATS]         # numbered tiles held, bit = tile
    int32_t stars[MAX_SEATS]
    uint8_t rack_jokers[MAX_SEATS]
    run_t runs[MAX_RUNS]             # in the order they were laid
    uint8_t pool[N_TILES]            # draw order; pool[pool_pos:] is still face down
    uint8_t pool_pos
    uint8_t n_runs
    uint8_t n_players
    uint8_t current                  # seat to act, NO_SEAT once over
    uint8_t laid                     # K5: a tile was laid this turn
    uint8_t pending                  # K5c: a taken joker the next action must lay
    uint8_t passes                   # K11: passes in a row with the pool already empty
    uint8_t went_out                 # K10: the seat that laid its last tile
    uint16_t turns                   # passes and ends played (simulate's statistic)

ctypedef struct rkj_cfg_t:
    uint8_t n_players
    uint8_t start_player

# The action tables, filled once at import.
cdef uint8_t POP[1024]               # popcount of a 10-bit mask
cdef uint8_t LOW[1024]               # index of the lowest set bit of a 10-bit mask
cdef int16_t RANK[11][1024]          # rank of a joker mask among a length's valid masks
cdef int16_t BASE[N_COLOURS][11][11]  # first new-run index of (colour, lo, length)
cdef uint8_t NEW_COLOUR[N_NEW]
cdef uint8_t NEW_LO[N_NEW]
cdef uint8_t NEW_LEN[N_NEW]
cdef uint16_t NEW_MASK[N_NEW]
# How many new runs one colour offers: [pending][jokers][numbers held] (K5a, K5c, K6);
# the random player counts colours here and lists only the one its draw lands in.
cdef uint16_t NEW_COUNT[2][N_JOKERS + 1][1024]


cdef int _build_tables() except -1:
    cdef int m, length, c, lo, r, jokers, pending, k = 0
    for m in range(1024):
        POP[m] = POP[m >> 1] + (m & 1) if m else 0
        LOW[m] = 0 if m & 1 or m == 0 else LOW[m >> 1] + 1
    for length in range(11):
        for m in range(1024):
            RANK[length][m] = -1
    for length in range(3, 11):
        r = 0
        for m in range(1 << length):
            # K6: at most the 4 jokers, and at least one numbered tile.
            if POP[m] <= N_JOKERS and m != (1 << length) - 1:
                RANK[length][m] = r
                r += 1
    for c in range(N_COLOURS):
        for lo in range(1, 9):
            for length in range(3, 12 - lo):
                BASE[c][lo][length] = k
                for m in range(1 << length):
                    if RANK[length][m] >= 0:
                        NEW_COLOUR[k] = c
                        NEW_LO[k] = lo
                        NEW_LEN[k] = length
                        NEW_MASK[k] = m
                        k += 1
    if k != N_NEW:
        raise AssertionError(f"new-run table holds {k} runs, expected {N_NEW}")
    for pending in range(2):
        for jokers in range(N_JOKERS + 1):
            for m in range(1024):
                NEW_COUNT[pending][jokers][m] = _new_runs(0, m, jokers, pending, NULL, 0)
    return 0


_build_tables()

# ---------------------------------------------------------------------------------
# The rules, on the C struct.  Inner functions trust their input.
# ---------------------------------------------------------------------------------

cdef inline int _rack_size(const rkj_t *s, int p) noexcept nogil:
    cdef uint64_t r = s.rack[p]
    return (POP[r & 0x3FF] + POP[(r >> 10) & 0x3FF] + POP[(r >> 20) & 0x3FF]
            + POP[(r >> 30) & 0x3FF] + s.rack_jokers[p])


cdef inline int _tile(int colour, int number) noexcept nogil:
    return colour * N_NUMBERS + number - 1


cdef inline uint64_t _bit(int colour, int number) noexcept nogil:
    return (<uint64_t>1) << _tile(colour, number)


cdef void _init(void *state, const void *config, uint64_t seed) noexcept nogil:
    cdef rkj_t *s = <rkj_t *>state
    cdef const rkj_cfg_t *cfg = <const rkj_cfg_t *>config
    cdef int i, p, _
    memset(s, 0, sizeof(rkj_t))
    rng_seed(&s.rng, seed)
    for i in range(N_TILES):
        s.pool[i] = i if i < N_NUMBERED else JOKER
    rng_shuffle_u8(&s.rng, s.pool, N_TILES)          # K4
    s.n_players = cfg.n_players
    for p in range(s.n_players):
        s.stars[p] = STARS_START                      # K2
        for _ in range(RACK_START):
            _draw(s, p)
    s.current = cfg.start_player                      # K1
    s.went_out = NO_SEAT


cdef inline void _draw(rkj_t *s, int p) noexcept nogil:
    s.pool_pos += 1
    _take(s, p, s.pool[s.pool_pos - 1])


cdef inline void _take(rkj_t *s, int p, uint8_t t) noexcept nogil:
    # Tile t goes into seat p's rack.
    if t == JOKER:
        s.rack_jokers[p] += 1
    else:
        s.rack[p] |= (<uint64_t>1) << t


cdef int _new_runs(int c, uint32_t held, int jokers, bint pending, uint16_t *out,
                   int n) noexcept nogil:
    # K5a/K6: every run of colour c the rack can lay: each placement (lo, length) whose
    # numbers the rack holds but for at most `jokers`, with a joker on every missing
    # number and optionally on held ones; never all jokers; with a taken joker pending,
    # at least one joker (K5c).  Appends ascending to `out` (when not NULL) from index
    # n and returns the new count.  Masks are relative to the run: bit i = position i.
    cdef int lo, length, k, need
    cdef uint32_t span, missing, spare, sub, m, full
    if held == 0 or POP[held] + jokers < 3:
        return n                           # K3/K6: 3 tiles, one of them numbered
    for lo in range(1, 9):
        for length in range(3, 12 - lo):
            span = (((<uint32_t>1) << length) - 1) << (lo - 1)
            missing = (span & ~held) >> (lo - 1)
            need = POP[missing]
            if need > jokers:
                break                      # longer runs from this lo miss even more
            full = ((<uint32_t>1) << length) - 1
            if need == jokers or jokers == 0:
                spare = 0                  # no joker left to put on a held number
            else:
                spare = (span & held) >> (lo - 1)
            sub = 0
            while True:
                m = missing | sub
                k = POP[m]
                if k <= jokers and m != full and (k > 0 or not pending):
                    if out != NULL:
                        out[n] = A_NEW + BASE[c][lo][length] + RANK[length][m]
                    n += 1
                if sub == spare:
                    break
                sub = (sub - spare) & spare    # next subset of `spare`, ascending
    return n


cdef bint _joker_place(const rkj_t *s, uint64_t rack, int jokers) noexcept nogil:
    # K5c: after a swap, can the next action lay a joker?  Any run with room at an end
    # takes it; otherwise a new run with a joker from the rack after the swap.
    cdef int r, c
    for r in range(s.n_runs):
        if s.runs[r].length < N_NUMBERS:
            return True
    for c in range(N_COLOURS):
        if NEW_COUNT[1][jokers][(rack >> (c * N_NUMBERS)) & 0x3FF]:
            return True
    return False


cdef inline int _legal_head(const rkj_t *s, uint16_t *out) noexcept nogil:
    # The legal actions below the new runs, ascending, into ``out`` (room for A_NEW);
    # how many.  Each is written and kept by its count: no branch on the rack.
    cdef int p = s.current, r, i, n = 0, base
    cdef int jokers = s.rack_jokers[p] > 0
    cdef uint64_t tiles = not s.pending               # K5c: a taken joker goes first
    cdef uint64_t rack = s.rack[p], tile
    cdef uint16_t jm, swaps = 0
    cdef const run_t *run
    if tiles:
        out[n] = A_END if s.laid else A_PASS          # K5 end, K8 pass
        n += 1
    for r in range(s.n_runs):                          # K5b
        run = &s.runs[r]
        base = run.colour * N_NUMBERS + run.lo - 1     # the tile of the run's first place
        if run.lo > 1:
            out[n] = A_EXTEND + 4 * r
            n += <int>((rack >> (base - 1)) & tiles)
            out[n] = A_EXTEND + 4 * r + 1
            n += jokers
        if run.lo + run.length <= N_NUMBERS:
            out[n] = A_EXTEND + 4 * r + 2
            n += <int>((rack >> (base + run.length)) & tiles)
            out[n] = A_EXTEND + 4 * r + 3
            n += jokers
        swaps |= run.jokers & <uint16_t>(rack >> base)
    if tiles and swaps:                                # K5c
        for r in range(s.n_runs):
            run = &s.runs[r]               # its joker places whose tile the rack holds:
            jm = run.jokers & <uint16_t>(rack >> (run.colour * N_NUMBERS + run.lo - 1))
            while jm:
                i = LOW[jm]
                jm &= jm - 1
                tile = _bit(run.colour, run.lo + i)
                if _joker_place(s, rack & ~tile, s.rack_jokers[p] + 1):
                    out[n] = A_SWAP + 10 * r + i
                    n += 1
    return n


cdef inline int _colour_runs(const rkj_t *s, int c, uint16_t *out, int n) noexcept nogil:
    # The new runs of colour c the seat to act can lay: appended to ``out`` from index
    # n (the new count returned), or only counted (from the table) when ``out`` is NULL.
    cdef uint32_t held = (s.rack[s.current] >> (c * N_NUMBERS)) & 0x3FF
    cdef int count = NEW_COUNT[s.pending][s.rack_jokers[s.current]][held]
    if out == NULL or count == 0:
        return n + count
    return _new_runs(c, held, s.rack_jokers[s.current], s.pending, out, n)


cdef int _legal(const void *state, uint16_t *out) noexcept nogil:
    """Write the legal actions of the seat to act, ascending; return their number."""
    cdef const rkj_t *s = <const rkj_t *>state
    cdef int c, n
    if s.current == NO_SEAT:
        return 0
    n = _legal_head(s, out)
    for c in range(N_COLOURS):                         # K5a
        n = _colour_runs(s, c, out, n)
    return n


@cython.cdivision(True)
cdef bint _is_legal(const void *state, int a) noexcept nogil:
    """Whether action a (in range) is legal: the same rules as _legal, one action."""
    cdef const rkj_t *s = <const rkj_t *>state
    cdef int p, x, r, i, k, num
    cdef uint64_t rack, tile, need
    cdef const run_t *run
    if s.current == NO_SEAT:
        return False
    p = s.current
    rack = s.rack[p]
    if a == A_PASS:
        return not s.laid
    if a == A_END:
        return s.laid and not s.pending
    if a < A_SWAP:
        x = a - A_EXTEND
        r = x >> 2
        if r >= s.n_runs:
            return False
        run = &s.runs[r]
        # K5b: the number that extends the run at that end; outside 1..10 without room
        num = run.lo + run.length if (x >> 1) & 1 else run.lo - 1
        if not 1 <= num <= N_NUMBERS:
            return False
        if x & 1:
            return s.rack_jokers[p] > 0
        return not s.pending and (rack & _bit(run.colour, num)) != 0
    if a < A_NEW:
        x = a - A_SWAP
        r = x / 10
        i = x % 10
        if s.pending or r >= s.n_runs:
            return False
        run = &s.runs[r]
        if i >= run.length or not (run.jokers >> i) & 1:
            return False
        tile = _bit(run.colour, run.lo + i)
        return (rack & tile) != 0 and _joker_place(s, rack & ~tile, s.rack_jokers[p] + 1)
    x = a - A_NEW
    need = (<uint64_t>(((1 << NEW_LEN[x]) - 1) & ~NEW_MASK[x])) << (
        NEW_COLOUR[x] * N_NUMBERS + NEW_LO[x] - 1)
    k = POP[NEW_MASK[x]]
    return (rack & need) == need and k <= s.rack_jokers[p] and (k > 0 or not s.pending)


cdef void _finish(rkj_t *s, int went_out) noexcept nogil:
    # K10/K11: everyone else pays 1 star per tile left, as far as their stars go; the
    # seat that went out gets its bonus star once.
    cdef int q, pay
    for q in range(s.n_players):
        if q != went_out:
            pay = _rack_size(s, q)
            s.stars[q] -= pay if pay < s.stars[q] else s.stars[q]
    if went_out != NO_SEAT:
        s.stars[went_out] += 1
    s.went_out = went_out
    s.current = NO_SEAT
    s.laid = 0
    s.pending = 0


cdef inline void _next_turn(rkj_t *s) noexcept nogil:
    s.current += 1
    if s.current == s.n_players:
        s.current = 0
    s.laid = 0
    s.pending = 0


@cython.cdivision(True)
cdef void _apply(void *state, int a) noexcept nogil:
    """Apply a legal action of the seat to act."""
    cdef rkj_t *s = <rkj_t *>state
    cdef int p = s.current
    cdef int x, r, i, side, joker, gained
    cdef uint16_t m
    cdef run_t *run
    if a <= A_END:
        s.turns += 1                           # simulate's "turns": passes and ends
    if a == A_PASS:
        if s.pool_pos < N_TILES:
            if s.stars[p] > 0:                 # K8: pay as far as stars go
                s.stars[p] -= 1
            _draw(s, p)
            s.passes = 0                       # K11: a drawing pass does not count
        else:
            s.passes += 1                      # K11: a pass with the pool empty
            if s.passes >= s.n_players:
                _finish(s, NO_SEAT)
                return
        _next_turn(s)
        return
    if a == A_END:
        s.passes = 0                           # a laying turn breaks K11's round
        _next_turn(s)
        return
    if a < A_SWAP:                             # K5b
        x = a - A_EXTEND
        r = x >> 2
        side = (x >> 1) & 1
        joker = x & 1
        run = &s.runs[r]
        if joker:
            s.rack_jokers[p] -= 1
        else:
            s.rack[p] &= ~_bit(run.colour, run.lo - 1 if side == 0 else run.lo + run.length)
        if side == 0:
            run.lo -= 1
            run.jokers = (run.jokers << 1) | joker
        else:
            run.jokers |= joker << run.length
        run.length += 1
        gained = 1
    elif a < A_NEW:                            # K5c
        x = a - A_SWAP
        r = x / 10
        i = x % 10
        run = &s.runs[r]
        run.jokers &= ~(1 << i)
        s.rack[p] &= ~_bit(run.colour, run.lo + i)
        s.rack_jokers[p] += 1
        s.stars[p] += 1                        # K7: the tile put into the run
        s.laid = 1
        s.pending = 1
        return
    else:                                      # K5a
        x = a - A_NEW
        m = NEW_MASK[x]
        run = &s.runs[s.n_runs]
        s.n_runs += 1
        run.colour = NEW_COLOUR[x]
        run.lo = NEW_LO[x]
        run.length = NEW_LEN[x]
        run.jokers = m
        for i in range(run.length):
            if not (m >> i) & 1:
                s.rack[p] &= ~_bit(run.colour, run.lo + i)
        s.rack_jokers[p] -= POP[m]
        gained = run.length + 1                # K7: a star per tile and one per run
    if s.pending:
        gained -= 1                            # K7: the retaken joker earns nothing more
        s.pending = 0
    s.stars[p] += gained
    s.laid = 1
    if s.rack[p] == 0 and s.rack_jokers[p] == 0:
        _finish(s, p)                          # K10


cdef void _winners(const void *state, uint8_t *out) noexcept nogil:
    # K12: most stars; on a tie the seat that went out, if tied, else a shared win.
    cdef const rkj_t *s = <const rkj_t *>state
    cdef int p
    cdef int only = NO_SEAT
    cdef int32_t top = s.stars[0]
    for p in range(1, s.n_players):
        if s.stars[p] > top:
            top = s.stars[p]
    if s.went_out != NO_SEAT and s.stars[s.went_out] == top:
        only = s.went_out
    for p in range(MAX_SEATS):
        if p >= s.n_players:
            out[p] = 0
        elif only != NO_SEAT:
            out[p] = p == only
        else:
            out[p] = s.stars[p] == top


# ---------------------------------------------------------------------------------
# The kernel table: the rules above as every generic piece of boardcore sees them.
# ---------------------------------------------------------------------------------

cdef int _check_config(const void *config) noexcept nogil:
    cdef const rkj_cfg_t *cfg = <const rkj_cfg_t *>config
    if not 2 <= cfg.n_players <= MAX_SEATS or cfg.start_player >= cfg.n_players:
        return -1
    return 0


cdef int _num_players(const void *state) noexcept nogil:
    return (<const rkj_t *>state).n_players


cdef int _num_actions(const void *state) noexcept nogil:
    return N_ACTIONS


cdef int _current(const void *state) noexcept nogil:
    cdef const rkj_t *s = <const rkj_t *>state
    return -1 if s.current == NO_SEAT else s.current


cdef int _random_action(const void *state, rng_t *player) noexcept nogil:
    # legal[bounded(count)], writing only the actions below the new runs and the new
    # runs of the one colour the draw lands in (NEW_COUNT counts the others).
    cdef const rkj_t *s = <const rkj_t *>state
    cdef uint16_t legal[A_NEW]
    cdef uint16_t runs[N_NEW_COLOUR]
    cdef int n, c, i, count
    if s.current == NO_SEAT:
        return -1
    count = n = _legal_head(s, legal)
    for c in range(N_COLOURS):
        count = _colour_runs(s, c, NULL, count)
    if count == 0:
        return -1
    i = rng_bounded(player, <uint32_t>count)
    if i < n:
        return legal[i]
    c = 0
    while i >= _colour_runs(s, c, NULL, n):     # n: the actions before colour c's runs
        n = _colour_runs(s, c, NULL, n)
        c += 1
    _colour_runs(s, c, runs, 0)
    return runs[i - n]


cdef Py_ssize_t _play_out(void *state, rng_t *player, hist_t *history) noexcept nogil:
    return play_out(state, player, history, _random_action, _apply)


cdef void _scores(const void *state, int64_t *out) noexcept nogil:
    # K7-K10: the stars.
    cdef const rkj_t *s = <const rkj_t *>state
    cdef int p
    for p in range(s.n_players):
        out[p] = s.stars[p]


cdef void _stats(const void *state, int64_t *out) noexcept nogil:
    # RummikubJunior.stat_names: the end (end_reasons) and the turns played.
    cdef const rkj_t *s = <const rkj_t *>state
    out[0] = END_BLOCKED if s.went_out == NO_SEAT else END_WENT_OUT
    out[1] = s.turns


cdef kernel_t KERNEL = kernel_t(
    name=b"rummikub_junior", state_size=sizeof(rkj_t), config_size=sizeof(rkj_cfg_t),
    max_legal=MAX_LEGAL, n_stats=2, check_config=_check_config, init=_init,
    num_players=_num_players, num_actions=_num_actions, current=_current, legal=_legal,
    is_legal=_is_legal, apply=_apply, random_action=_random_action, play_out=_play_out,
    scores=_scores, winners=_winners, stats=_stats, own_history=NULL,
    determinize=_determinize, observation_size=_observation_size, observe=_observe,
    heuristic=NULL)


def config(players, start_player):
    """Return the engine configuration of a Rummikub Junior game (checked).

    Args:
        players: 2..4 seats.
        start_player: the seat that moves first (K1).
    """
    cdef rkj_cfg_t cfg
    memset(&cfg, 0, sizeof(cfg))
    cfg.n_players = check_int(players, "players")
    cfg.start_player = check_int(start_player, "start_player")
    return EngineConfig(RummikubJuniorState, (<char *>&cfg)[:sizeof(cfg)])


# ---------------------------------------------------------------------------------
# The public state class: the shared methods come from EngineState.
# ---------------------------------------------------------------------------------

@cython.final
@cython.no_gc      # holds only the (immutable) game, seed and configuration: no cycles
@cython.binding(False)
@cython.embedsignature.format("clinic")
cdef class RummikubJuniorState(EngineState):
    """A Rummikub Junior position.  Make one with ``RummikubJunior(players=n).new_state(seed)``.

    >>> import boardcore
    >>> state = boardcore.make("rummikub_junior", players=2).new_state(seed=3)
    >>> state.current_player, len(state.view(0).hand), state.scores()
    (0, 6, (6, 6))
    """

    cdef rkj_t s

    def __cinit__(self):
        self._s = &self.s
        self._k = &KERNEL

    cdef dict _values(self, const void *position):
        # The snapshot's fields (boardcore.rummikub_junior.RummikubJuniorSnapshot).
        cdef const rkj_t *s = <const rkj_t *>position
        cdef int p, r, t
        return {
            "racks": tuple([tuple([t for t in range(N_NUMBERED) if (s.rack[p] >> t) & 1]
                                  + [JOKER] * s.rack_jokers[p]) for p in range(s.n_players)]),
            "runs": tuple([(s.runs[r].colour, s.runs[r].lo, s.runs[r].length, s.runs[r].jokers)
                           for r in range(s.n_runs)]),
            "pool": tuple([s.pool[t] for t in range(s.pool_pos, N_TILES)]),
            "laid_this_turn": bool(s.laid),
            "joker_pending": bool(s.pending),
            "passes": s.passes,
            "went_out": None if s.went_out == NO_SEAT else s.went_out,
            "rng": tuple([s.rng.s[t] for t in range(4)]),
        }

    cdef int _fill(self, const void *config, dict values) except -1:
        # ``values``: the checked fields of boardcore.rummikub_junior.positions.
        cdef uint16_t legal[MAX_LEGAL]
        _fill(&self.s, <const rkj_cfg_t *>config, values)
        if self.s.current != NO_SEAT and _legal(&self.s, legal) == 0:
            raise InvalidStateError(
                "field 'joker_pending': the taken joker has no place on the table or in "
                "a new run (K5c)")
        return 0


def _legal_actions_kernel(list states not None, Py_ssize_t repeats):
    """The legal actions of every ``RummikubJuniorState`` in the list ``states``, generated
    ``repeats`` times without the GIL: their total (the move-generation benchmark)."""
    cdef Py_ssize_t _, i, n
    cdef int64_t total = 0
    cdef rkj_t *buf
    cdef uint16_t legal[MAX_LEGAL]
    cdef RummikubJuniorState st
    states = list(states)       # private: another thread may shrink the caller's list
    n = len(states)
    buf = <rkj_t *>malloc(max(n, 1) * sizeof(rkj_t))
    if buf == NULL:
        raise MemoryError()
    try:
        for i in range(n):
            item = states[i]
            if type(item) is not RummikubJuniorState or (<EngineState>item)._players == 0:
                raise TypeError(
                    f"states must hold set-up RummikubJuniorState objects, not {quote(item)}")
            st = <RummikubJuniorState>item
            with cython.critical_section(st):
                buf[i] = st.s
        with nogil:
            for _ in range(repeats):
                for i in range(n):
                    total += _legal(&buf[i], legal)
    finally:
        free(buf)
    return total


def _new_run(int k):
    """Return new run ``k`` (the action ``198 + k``) as (colour, lo, length, joker mask)."""
    if not 0 <= k < N_NEW:
        raise ConfigurationError(f"new runs are numbered 0..{N_NEW - 1}, not {k}")
    return NEW_COLOUR[k], NEW_LO[k], NEW_LEN[k], NEW_MASK[k]


def _new_index(int colour, int lo, int length, int jokers):
    """Return the number of the new run (colour, lo, length, joker mask) (K3, K6)."""
    if not (0 <= colour < N_COLOURS and 1 <= lo and 3 <= length and lo + length <= N_NUMBERS + 1
            and 0 <= jokers < 1024 and RANK[length][jokers] >= 0):
        raise ConfigurationError(f"no new run is {(colour, lo, length, jokers)}")
    return BASE[colour][lo][length] + RANK[length][jokers]


# ---------------------------------------------------------------------------------
# Set-up positions.
# ---------------------------------------------------------------------------------

cdef bint _within(object values, object lo, object hi):
    return all([type(v) is int and lo <= v <= hi for v in values])


cdef int _fill(rkj_t *s, const rkj_cfg_t *cfg, dict f) except -1:
    # A set-up position from checked fields; only what could overrun the struct or
    # mislead the move generator is checked here: every tile exactly once (so at most
    # 14 runs and 4 jokers in a rack), runs and counts in range.
    cdef int n = cfg.n_players
    cdef int p, r, i, k
    racks, table, pool, stars = f["racks"], f["table"], f["pool"], f["stars"]
    flags = [f["laid_this_turn"], f["joker_pending"]]
    if (type(racks) is not list or len(racks) != n or type(table) is not list
            or len(table) > MAX_RUNS or type(pool) is not list
            or any([type(rack) is not list or not _within(rack, 0, JOKER) for rack in racks])
            or not _within(table, 0, N_NEW - 1) or not _within(pool, 0, JOKER)
            or type(stars) is not list or len(stars) != n or not _within(stars, 0, STARS_MAX)
            or not all([type(x) is bool for x in flags])
            or not _within([f["passes"]], 0, n)
            or not _within([f["went_out"], f["current_player"]], -1, n - 1)
            or type(f["rng"]) is not list or len(f["rng"]) != 4
            or not _within(f["rng"], 0, 2**64 - 1)):
        raise InvalidStateError(
            "a Rummikub Junior position does not fit: sizes or values out of range")
    tiles = [t for rack in racks for t in rack] + list(pool)
    for k in table:
        tiles += [JOKER if (NEW_MASK[k] >> i) & 1 else _tile(NEW_COLOUR[k], NEW_LO[k] + i)
                  for i in range(NEW_LEN[k])]
    if sorted(tiles) != list(range(N_NUMBERED)) + [JOKER] * N_JOKERS:
        raise InvalidStateError(
            "a Rummikub Junior position must hold each numbered tile once and 4 jokers")
    memset(s, 0, sizeof(rkj_t))
    s.n_players = n
    for p in range(n):
        for t in racks[p]:
            _take(s, p, t)
        s.stars[p] = stars[p]
    for r in range(len(table)):
        k = table[r]
        s.runs[r] = run_t(NEW_COLOUR[k], NEW_LO[k], NEW_LEN[k], NEW_MASK[k])
    s.n_runs = len(table)
    s.pool_pos = N_TILES - len(pool)
    for i in range(len(pool)):
        s.pool[s.pool_pos + i] = pool[i]
    s.laid, s.pending = flags
    s.passes = f["passes"]
    s.went_out = NO_SEAT if f["went_out"] < 0 else f["went_out"]
    s.current = NO_SEAT if f["current_player"] < 0 else f["current_player"]
    for i in range(4):
        s.rng.s[i] = f["rng"][i]
    return 0


# What one seat knows: the determinize and observe slots of KERNEL, in their own file.
include "rummikub_junior_seat.pxi"
