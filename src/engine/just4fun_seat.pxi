# Just4Fun: what one seat knows, as the kernel table's ``determinize`` and
# ``observe`` slots see it (included at the end of ``just4fun.pyx``, whose types,
# tables and rules it uses).

cdef void _determinize(void *state, int seat, rng_t *rng) noexcept nogil:
    # What `seat` cannot see: the other hands, the draw pile's order and the state's
    # generator (future reshuffles).  The discards and every hand size are public and
    # play reveals nothing more (an exchanged hand goes face up to the discard pile), so
    # the unseen cards -- put in ascending order first, so that nothing of their hidden
    # arrangement leaks -- are shuffled and dealt back by size: a uniform consistent deal.
    cdef j4f_t *s = <j4f_t *>state
    cdef uint8_t unseen[DECK_SIZE]
    cdef uint8_t count[20]
    cdef int n = 0, k = 0, p, i, v
    cdef uint32_t h
    memset(count, 0, sizeof(count))
    for p in range(s.n_players):
        if p != seat:
            for i in range(s.hand_n[p]):
                count[s.hand[p][i]] += 1
    for i in range(s.draw_n):
        count[s.draw[i]] += 1
    for v in range(1, 20):
        for _ in range(count[v]):
            unseen[n] = v
            n += 1
    rng_shuffle_u8(rng, unseen, n)
    for p in range(s.n_players):
        if p != seat:
            h = EMPTY_HAND
            for _ in range(s.hand_n[p]):
                h = HAND_ADD[h - N_HANDS][unseen[k]]
                k += 1
            _set_hand(s, p, h, s.hand_n[p])
    memcpy(s.draw, &unseen[k], s.draw_n)
    rng_seed(&s.rng, rng_next(rng))


# Observation planes (docs/games/just4fun.md), in this order; seats are relative to the
# observer (0 = the observer, 1 = the next seat to its left, ...), cells row-major.
cdef int _observation_size(const void *config) noexcept nogil:
    cdef int n = (<const j4f_cfg_t *>config).n_players
    return N_FIELDS * (3 + n) + 2 * 19 + 3 * n + 1


cdef void _observe(const void *state, int seat, float *out) noexcept nogil:
    # Row by row, so that within a row the cells' bits are consecutive (bit
    # y * WIDTH + x) and the plain loops over them vectorize; each seat's stone plane
    # starts at plane 3, the observer's first.
    cdef const j4f_t *s = <const j4f_t *>state
    cdef int n = s.n_players
    cdef int i, r, q, x, y, o
    cdef int64_t sc[MAX_SEATS]
    cdef const uint8_t *cells
    cdef float *row
    cdef uint64_t locked = s.locked, closed = s.closed[seat]
    for y in range(6):
        cells = &s.field[y * WIDTH]
        row = &out[y * 6]
        for x in range(6):
            row[x] = cells[x] * <float>(1.0 / 36)                       # layout
            # (an int, not a uint64_t, becomes a float in one instruction)
            row[N_FIELDS + x] = <int>((locked >> (y * WIDTH + x)) & 1)   # locked (J8)
            row[2 * N_FIELDS + x] = <int>((closed >> cells[x]) & 1)    # closed to the observer
        q = seat
        for r in range(n):                                              # stones / 20
            cells = &s.stones[q][y * WIDTH]
            row = &out[(3 + r) * N_FIELDS + y * 6]
            for x in range(6):
                row[x] = cells[x] * <float>0.05
            q = q + 1 if q + 1 < n else 0
    o = (3 + n) * N_FIELDS
    memset(&out[o], 0, 38 * sizeof(float))                     # hand, discards / 4
    for i in range(s.hand_n[seat]):
        out[o + s.hand[seat][i] - 1] += <float>0.25
    for i in range(s.discard_n):
        out[o + 18 + s.discard[i]] += <float>0.25
    o += 38
    _scores(s, sc)
    q = seat
    for r in range(n):                                  # supplies / 20, scores / 666, to act
        out[o + r] = s.supply[q] * <float>0.05
        out[o + n + r] = sc[q] * <float>(1.0 / 666)
        out[o + 2 * n + r] = s.end == RUNNING and s.current == q
        q = q + 1 if q + 1 < n else 0
    out[o + 3 * n] = s.draw_n * <float>(1.0 / 55)
