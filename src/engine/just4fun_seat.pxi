# Just4Fun: what one seat knows, as the kernel table's ``determinize`` and
# ``observe`` slots see it (included at the end of ``just4fun.pyx``, whose types,
# tables and rules it uses).

cdef inline int _value_count(uint64_t count, int v) noexcept nogil:
    # How many cards of value v a card count holds.
    return (count >> (3 * (v - 1))) & 7


cdef void _determinize(void *state, int seat, rng_t *rng) noexcept nogil:
    # What `seat` cannot see: the other hands, the draw pile's order and the state's
    # generator (future reshuffles).  The discards and every hand size are public and
    # play reveals nothing more (an exchanged hand goes face up to the discard pile), so
    # the unseen cards -- put in ascending order first, so that nothing of their hidden
    # arrangement leaks -- are shuffled and dealt back by size: a uniform consistent deal.
    # After a reshuffle (J9) more is public: the draw pile's cards were the discard pile
    # then, less what has been drawn since (_deal_after_reshuffle).
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
    if s.reshuffled and _deal_after_reshuffle(s, seat, count, rng):
        rng_seed(&s.rng, rng_next(rng))
        return
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


cdef bint _deal_after_reshuffle(j4f_t *s, int seat, const uint8_t *unseen,
                                rng_t *rng) noexcept nogil:
    # Deal the unseen cards (``unseen[v]`` of each value v) as what `seat` knows since the
    # last reshuffle allows; False (nothing dealt) if the counts contradict it.
    #
    # The draw pile holds only cards of the reshuffled pile that `seat` has not drawn:
    # of value v at most lim = reshuffled[v] - drawn[seat][v] (``maybe``: at most
    # unseen[v] of them), and at least lim - discards[v] of them (``must``: no discard
    # since accounts for them) are still unseen, in the pile or in the hand of a seat
    # that drew since -- each seat at most as many as it drew since (its places that
    # may hold them: ``capped``), the rest of its hand held from before.  So the pile is
    # the first draw_n of the shuffled candidates, shuffled again while the must cards
    # left over do not fit the capped places (the 33rd try puts the must cards first);
    # those left over go to capped places drawn uniformly, every other card to the rest.
    cdef uint8_t cand[DECK_SIZE]         # the candidates for the pile, shuffled
    cdef uint8_t rest[DECK_SIZE]         # the cards for every place not given a late one
    cdef uint8_t late[DECK_SIZE]         # the must cards the pile left over
    cdef uint8_t maybe[20]
    cdef uint8_t must[20]
    cdef uint8_t left[20]
    cdef uint8_t dealt[4 * MAX_SEATS]    # the other seats' hands' places, in seat order
    cdef uint8_t capped[4 * MAX_SEATS]
    cdef uint64_t discards = _card_count(s.discard, s.discard_n)
    cdef int n_cand = 0, n_must = 0, n_rest = 0, n_late = 0, n_capped = 0, places = 0
    cdef int v, lim, seen, p, i, j, cap, tries
    cdef bint fits = False
    cdef uint32_t h
    for v in range(1, 20):
        lim = _value_count(s.reshuffled, v) - _value_count(s.drawn[seat], v)
        seen = _value_count(discards, v)
        maybe[v] = unseen[v] if unseen[v] < lim else max(lim, 0)
        must[v] = lim - seen if lim > seen else 0
        if lim < 0 or must[v] > maybe[v]:
            return False
        n_cand += maybe[v]
        n_must += must[v]
    if n_cand < s.draw_n:
        return False
    for p in range(s.n_players):
        if p != seat:
            cap = 0
            for v in range(1, 20):
                cap += _value_count(s.drawn[p], v)
            for i in range(min(cap, s.hand_n[p])):
                capped[n_capped] = places + i
                n_capped += 1
            places += s.hand_n[p]
    for tries in range(33):
        j = 0
        for v in range(1, 20):
            for i in range(must[v] if tries == 32 else maybe[v]):
                cand[j] = v
                j += 1
        if tries == 32:             # the must cards first, each part shuffled
            for v in range(1, 20):
                for i in range(maybe[v] - must[v]):
                    cand[j] = v
                    j += 1
            rng_shuffle_u8(rng, cand, n_must)
            rng_shuffle_u8(rng, &cand[n_must], n_cand - n_must)
        else:
            rng_shuffle_u8(rng, cand, n_cand)
        memcpy(left, must, sizeof(left))
        for i in range(s.draw_n):
            if left[cand[i]]:
                left[cand[i]] -= 1
        n_late = 0
        for v in range(1, 20):
            n_late += left[v]
        if n_late <= n_capped:
            fits = True
            break
    if not fits:
        return False
    n_late = 0
    for i in range(s.draw_n, n_cand):
        v = cand[i]
        if left[v]:
            left[v] -= 1
            late[n_late] = v
            n_late += 1
        else:
            rest[n_rest] = v
            n_rest += 1
    for v in range(1, 20):
        for i in range(unseen[v] - maybe[v]):
            rest[n_rest] = v
            n_rest += 1
    rng_shuffle_u8(rng, rest, n_rest)
    rng_shuffle_u8(rng, capped, n_capped)
    memset(dealt, 0, sizeof(dealt))
    for i in range(n_late):
        dealt[capped[i]] = late[i]
    j = 0
    for i in range(places):
        if not dealt[i]:
            dealt[i] = rest[j]
            j += 1
    i = 0
    for p in range(s.n_players):
        if p != seat:
            h = EMPTY_HAND
            for _ in range(s.hand_n[p]):
                h = HAND_ADD[h - N_HANDS][dealt[i]]
                i += 1
            _set_hand(s, p, h, s.hand_n[p])
    memcpy(s.draw, cand, s.draw_n)
    return True


# Observation planes (docs/games/just4fun.md), in this order; seats are relative to the
# observer (0 = the observer, 1 = the next seat to its left, ...), cells row-major.
cdef int _observation_size(const void *config) noexcept nogil:
    cdef int n = (<const j4f_cfg_t *>config).n_players
    return N_FIELDS * (3 + n) + 2 * 19 + 3 * n + 1


# Import-time tables of _observe.  BIT_ROW: a board row's 6 bits as 0/1 floats (padded
# to 8 floats, 32 bytes a row).  The discard pile is counted in one register (a card
# count, see just4fun.pyx), and COUNT_PAIR turns two 3-bit counts into two floats / 4.
cdef float BIT_ROW[64][8]
cdef float COUNT_PAIR[64][2]


cdef void _build_observe_tables() noexcept:
    cdef int i, x
    for i in range(64):
        for x in range(8):
            BIT_ROW[i][x] = (i >> x) & 1 if x < 6 else 0
        COUNT_PAIR[i][0] = (i & 7) * <float>0.25
        COUNT_PAIR[i][1] = (i >> 3) * <float>0.25


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
    cdef uint64_t m = s.closed[seat] & ALL_FIELDS, closed = 0, count
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
    count = _card_count(s.discard, s.discard_n)                        # discards / 4
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
