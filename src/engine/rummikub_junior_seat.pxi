# Rummikub Junior: what one seat knows, as the kernel table's ``determinize`` and
# ``observe`` slots see it (included at the end of ``rummikub_junior.pyx``, whose types,
# tables and rules it uses).

from libc.string cimport memcpy

cdef void _determinize(void *state, int seat, rng_t *rng) noexcept nogil:
    # What `seat` cannot see: the other racks, the pool's order and the state's generator
    # (which only dealt).  The table, the stars and every rack size are public, and play
    # reveals one thing more: a seat that swapped a joker this turn holds it until its
    # next action lays a joker (K5c), and its swap was legal only if one could be laid.
    # So the unseen tiles -- numbered ones ascending, then the jokers, so that nothing of
    # their hidden arrangement leaks -- are shuffled and dealt back by size, the taken
    # joker staying with its seat; a deal leaving that seat no legal action is drawn
    # again.  Every consistent deal is equally likely.
    cdef rkj_t *s = <rkj_t *>state
    cdef rkj_t before
    cdef uint8_t unseen[N_TILES]
    cdef uint8_t size[MAX_SEATS]
    cdef uint64_t hidden = 0
    cdef int jokers = 0, n = 0, k, p, t, _
    cdef int keep = NO_SEAT              # the seat holding a taken joker everyone saw
    for p in range(s.n_players):
        size[p] = _rack_size(s, p)
        if p != seat:
            hidden |= s.rack[p]
            jokers += s.rack_jokers[p]
    for t in range(s.pool_pos, N_TILES):
        if s.pool[t] == JOKER:
            jokers += 1
        else:
            hidden |= (<uint64_t>1) << s.pool[t]
    if s.pending and s.current != seat:
        keep = s.current
        jokers -= 1
        before = s[0]
    for t in range(N_NUMBERED):
        if (hidden >> t) & 1:
            unseen[n] = t
            n += 1
    for _ in range(jokers):
        unseen[n] = JOKER
        n += 1
    for _ in range(DEAL_TRIES):
        rng_shuffle_u8(rng, unseen, n)
        k = 0
        for p in range(s.n_players):
            if p != seat:
                s.rack[p] = 0
                s.rack_jokers[p] = p == keep
                for t in range(k, k + size[p] - (p == keep)):
                    _take(s, p, unseen[t])
                k += size[p] - (p == keep)
        for t in range(s.pool_pos, N_TILES):
            s.pool[t] = unseen[k]
            k += 1
        if keep == NO_SEAT or _joker_place(s, s.rack[keep], s.rack_jokers[keep]):
            break
    else:
        # The true deal is a consistent one, so each draw succeeds with a probability of
        # at least 1 in C(unseen, rack) -- in practice within a few draws.  Should every
        # draw fail, the true deal stays: the one case where the result shows it.
        s[0] = before
    rng_seed(&s.rng, rng_next(rng))


# Observation planes (docs/games/rummikub_junior.md), in this order; seats are relative
# to the observer (0 = the observer, 1 = the next seat, ...), tiles R1..R10 B1..K10.
cdef int _observation_size(const void *config) noexcept nogil:
    cdef int n = (<const rkj_cfg_t *>config).n_players
    return N_NUMBERED + 1 + MAX_RUNS * (N_COLOURS + 2 * N_NUMBERS) + 3 * n + 4


# Import-time tables of _observe.  BIT4[b]: the four bits of b as 0/1 floats (one line):
# the rack's 40 bits, and each run's row of ten numbers, are written four at a time.
# RUNS_BYTES: the bytes of the runs planes, a variable, not a constant, so that their
# memset is the C library's (wide stores chosen for the CPU at run time) and not GCC's
# inline SSE2 loop (180 instructions for 1,344 bytes).
cdef float BIT4[16][4]
cdef size_t RUNS_BYTES


cdef void _build_observe_tables() noexcept:
    global RUNS_BYTES
    cdef int b, x
    for b in range(16):
        for x in range(4):
            BIT4[b][x] = (b >> x) & 1
    RUNS_BYTES = MAX_RUNS * (N_COLOURS + 2 * N_NUMBERS) * sizeof(float)


_build_observe_tables()


cdef inline void _number_row(float *out, uint32_t bits) noexcept nogil:
    # Ten numbers' bits (bit i: number i + 1) as 0/1 floats: 4 + 4 + 2, never past the row.
    memcpy(out, BIT4[bits & 15], 4 * sizeof(float))
    memcpy(&out[4], BIT4[(bits >> 4) & 15], 4 * sizeof(float))
    memcpy(&out[8], BIT4[(bits >> 8) & 3], 2 * sizeof(float))


cdef void _observe(const void *state, int seat, float *out) noexcept nogil:
    cdef const rkj_t *s = <const rkj_t *>state
    cdef const run_t *run
    cdef int n = s.n_players
    cdef int t, r, q
    cdef uint32_t held, joker
    cdef int o = N_NUMBERED + 1
    cdef float *colours = &out[o]
    cdef float *tiles = &out[o + MAX_RUNS * N_COLOURS]
    cdef float *jokers = &out[o + MAX_RUNS * (N_COLOURS + N_NUMBERS)]
    cdef uint64_t rack = s.rack[seat]
    cdef const float *bits
    for t in range(0, N_NUMBERED, 4):                     # own rack, own jokers / 4
        bits = BIT4[(rack >> t) & 15]
        out[t], out[t + 1], out[t + 2], out[t + 3] = bits[0], bits[1], bits[2], bits[3]
    out[N_NUMBERED] = s.rack_jokers[seat] * <float>0.25
    memset(colours, 0, RUNS_BYTES)
    for r in range(s.n_runs):                            # runs: colour, tiles, jokers
        run = &s.runs[r]
        colours[N_COLOURS * r + run.colour] = 1
        held = ((<uint32_t>1) << run.length) - 1         # its positions, then its numbers
        joker = (run.jokers & held) << (run.lo - 1)      # (bit n - 1: number n)
        held <<= run.lo - 1
        _number_row(&tiles[N_NUMBERS * r], held & ~joker)
        _number_row(&jokers[N_NUMBERS * r], joker)
    o += MAX_RUNS * (N_COLOURS + 2 * N_NUMBERS)
    q = seat
    for r in range(n):                       # stars / 56, rack sizes / 44, to act
        out[o + r] = s.stars[q] * <float>(1.0 / STARS_TOTAL)
        out[o + n + r] = _rack_size(s, q) * <float>(1.0 / N_TILES)
        out[o + 2 * n + r] = s.current == q
        q = q + 1 if q + 1 < n else 0
    o += 3 * n
    out[o] = (N_TILES - s.pool_pos) * <float>(1.0 / N_TILES)
    out[o + 1] = s.laid
    out[o + 2] = s.pending
    out[o + 3] = s.passes * <float>0.25
