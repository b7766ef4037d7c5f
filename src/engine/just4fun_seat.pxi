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


# Import-time tables of _observe.  BIT_ROW: a board row's 6 bits as 0/1 floats (padded
# to 8 floats, 32 bytes a row).  The discard pile is counted in one register,
# 3 bits per value (at most 4 of a value, J3): CARD_COUNT[v] is value v's 1, and
# COUNT_PAIR turns two 3-bit counts into two floats / 4.
cdef float BIT_ROW[64][8]
cdef uint64_t CARD_COUNT[20]
cdef float COUNT_PAIR[64][2]


cdef void _build_observe_tables() noexcept:
    cdef int i, x
    for i in range(64):
        for x in range(8):
            BIT_ROW[i][x] = (i >> x) & 1 if x < 6 else 0
        COUNT_PAIR[i][0] = (i & 7) * <float>0.25
        COUNT_PAIR[i][1] = (i >> 3) * <float>0.25
    CARD_COUNT[0] = 0
    for i in range(1, 20):
        CARD_COUNT[i] = (<uint64_t>1) << (3 * (i - 1))


_build_observe_tables()


cdef inline void _bit_row(float *out, uint64_t bits, int y) noexcept nogil:
    memcpy(&out[y * 6], BIT_ROW[(bits >> (y * WIDTH)) & 63], 6 * sizeof(float))


cdef inline void _bit_plane(float *out, uint64_t bits) noexcept nogil:
    # The 36 cells of a bitboard (bit y * WIDTH + x) as 0/1, row-major; unrolled by hand
    # (the compiler keeps a loop of six).
    _bit_row(out, bits, 0)
    _bit_row(out, bits, 1)
    _bit_row(out, bits, 2)
    _bit_row(out, bits, 3)
    _bit_row(out, bits, 4)
    _bit_row(out, bits, 5)


cdef extern from *:
    """
    /* The 36 cells of a per-cell byte array (6 rows of 7 bytes, the last padding) times
       ``scale``, row-major, into out[0..35].  On SSE2 (every x86-64; the wheels build
       for no more) two rows at a time, straight from the array: one load, the second
       row shifted down a byte onto the first's padding, then 12 floats.  Else a loop
       the compiler may vectorize. */
    #if defined(__SSE2__) || defined(_M_X64)
    #include <emmintrin.h>
    static inline void j4f_rows2(float *out, __m128i v, __m128 scale) {
        const __m128i first = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        const __m128i second = _mm_setr_epi8(0, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0);
        const __m128i z = _mm_setzero_si128();
        __m128i w = _mm_or_si128(_mm_and_si128(v, first),
                                 _mm_and_si128(_mm_srli_si128(v, 1), second));
        __m128i lo = _mm_unpacklo_epi8(w, z), hi = _mm_unpackhi_epi8(w, z);
        _mm_storeu_ps(out, _mm_mul_ps(_mm_cvtepi32_ps(_mm_unpacklo_epi16(lo, z)), scale));
        _mm_storeu_ps(out + 4, _mm_mul_ps(_mm_cvtepi32_ps(_mm_unpackhi_epi16(lo, z)), scale));
        _mm_storeu_ps(out + 8, _mm_mul_ps(_mm_cvtepi32_ps(_mm_unpacklo_epi16(hi, z)), scale));
    }
    static inline void j4f_byte_plane(float *out, const uint8_t *cells, float scale) {
        __m128 k = _mm_set1_ps(scale);
        j4f_rows2(out, _mm_loadu_si128((const __m128i *)cells), k);
        j4f_rows2(out + 12, _mm_loadu_si128((const __m128i *)(cells + 14)), k);
        /* Rows 4-5 are the array's last 14 bytes: loaded as its last 16, shifted down. */
        j4f_rows2(out + 24, _mm_srli_si128(_mm_loadu_si128((const __m128i *)(cells + 26)), 2), k);
    }
    /* 0xFF in byte i where bit i of ``bits`` (16) is set. */
    static inline __m128i j4f_bytes16(unsigned bits) {
        const __m128i sel = _mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128,
                                          1, 2, 4, 8, 16, 32, 64, -128);
        __m128i x = _mm_cvtsi32_si128((int)bits);
        x = _mm_unpacklo_epi8(x, x);
        x = _mm_unpacklo_epi16(x, x);
        x = _mm_unpacklo_epi32(x, x);
        return _mm_cmpeq_epi8(_mm_and_si128(x, sel), sel);
    }
    /* J15's score: the sum of the fields on the cells of ``held``, 16 cells at a time
       (the last load is the array's last 16 bytes, its first 6 counted already); the
       three masked loads add bytewise (3 x 36 < 256), and psadbw sums the bytes. */
    static inline int j4f_held_sum(const uint8_t *field, uint64_t held) {
        __m128i a = _mm_and_si128(j4f_bytes16((unsigned)held & 0xFFFF),
                                  _mm_loadu_si128((const __m128i *)field));
        __m128i b = _mm_and_si128(j4f_bytes16((unsigned)(held >> 16) & 0xFFFF),
                                  _mm_loadu_si128((const __m128i *)(field + 16)));
        __m128i c = _mm_and_si128(j4f_bytes16((unsigned)(held >> 26) & 0xFFC0),
                                  _mm_loadu_si128((const __m128i *)(field + 26)));
        __m128i sums = _mm_sad_epu8(_mm_add_epi8(_mm_add_epi8(a, b), c), _mm_setzero_si128());
        return _mm_cvtsi128_si32(sums) + _mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
    }
    #else
    static inline void j4f_byte_plane(float *out, const uint8_t *cells, float scale) {
        for (int i = 0; i < 36; i++) out[i] = cells[(i / 6) * 7 + i % 6] * scale;
    }
    static inline int j4f_held_sum(const uint8_t *field, uint64_t held) {
        int sum = 0;
        for (int c = 0; c < 42; c++) sum += (int)((held >> c) & 1) * field[c];
        return sum;
    }
    #endif
    """
    void j4f_byte_plane(float *out, const uint8_t *cells, float scale) noexcept nogil
    int j4f_held_sum(const uint8_t *field, uint64_t held) noexcept nogil


cdef void _observe(const void *state, int seat, float *out) noexcept nogil:
    cdef const j4f_t *s = <const j4f_t *>state
    cdef int n = s.n_players
    cdef int i, r, q
    cdef uint64_t m = s.closed[seat] & ALL_FIELDS, closed = 0, count = 0
    cdef const uint8_t *pile = s.discard
    j4f_byte_plane(out, s.field, <float>(1.0 / 36))                       # layout
    _bit_plane(&out[N_FIELDS], s.locked)                               # locked (J8)
    while m:            # closed holds fields (bit f); the plane wants their cells
        closed |= (<uint64_t>1) << s.cell_of[j4f_ctz64(m)]
        m &= m - 1
    _bit_plane(&out[2 * N_FIELDS], closed)                             # closed to the observer
    q = seat
    for r in range(n):                                                 # stones / 20
        j4f_byte_plane(&out[(3 + r) * N_FIELDS], s.stones[q], <float>0.05)
        q = q + 1 if q + 1 < n else 0
    out += (3 + n) * N_FIELDS
    memset(out, 0, 19 * sizeof(float))                                 # hand / 4
    for i in range(s.hand_n[seat]):
        out[s.hand[seat][i] - 1] += <float>0.25
    out += 19
    for i in range(s.discard_n >> 2):           # discards / 4, four cards a round
        count += (CARD_COUNT[pile[0]] + CARD_COUNT[pile[1]]
                  + CARD_COUNT[pile[2]] + CARD_COUNT[pile[3]])
        pile += 4
    for i in range(s.discard_n & 3):
        count += CARD_COUNT[pile[i]]
    for i in range(9):
        memcpy(&out[2 * i], COUNT_PAIR[(count >> (6 * i)) & 63], 2 * sizeof(float))
    out[18] = COUNT_PAIR[(count >> 54) & 63][0]
    out += 19
    q = seat
    for r in range(n):                                  # supplies / 20, scores / 666, to act
        out[r] = s.supply[q] * <float>0.05
        out[n + r] = j4f_held_sum(s.field, s.held[q]) * <float>(1.0 / 666)
        out[2 * n + r] = s.end == RUNNING and s.current == q
        q = q + 1 if q + 1 < n else 0
    out[3 * n] = s.draw_n * <float>(1.0 / 55)
