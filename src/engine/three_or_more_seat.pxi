# 3 Or More: what one seat knows, as the kernel table's ``determinize`` and
# ``observe`` slots see it (included at the end of ``three_or_more.pyx``, whose types,
# tables and rules it uses).

cdef void _determinize(void *state, int seat, rng_t *rng) noexcept nogil:
    # What ``seat`` cannot see: the other hands and the stock's order (the state keeps
    # no generator: chance ends with the deal).  Every laid card is public and a card is
    # drawn face down, so play reveals nothing about a hand: the unseen cards -- put in
    # ascending order first, so that nothing of their hidden arrangement leaks -- are
    # shuffled and dealt back by size, a uniform consistent deal.  The deck's drawn part
    # (which held the true deal) is cleared: nothing reads it after the deal.
    cdef tom_t *s = <tom_t *>state
    cdef uint8_t count[64]
    cdef uint8_t unseen[DECK]
    cdef int n = 0, k = 0, p, i, c, _copy
    memset(count, 0, sizeof(count))
    for p in range(s.players):
        if p != seat:
            for i in range(s.hand_n[p]):
                count[s.hand[p][i]] += 1
    for i in range(s.next_draw, DECK):
        count[s.deck[i]] += 1
    for c in range(64):
        for _copy in range(count[c]):
            unseen[n] = <uint8_t>c
            n += 1
    rng_shuffle_u8(rng, unseen, n)
    for p in range(s.players):
        if p != seat:
            i = s.hand_n[p]
            s.hand_n[p] = 0
            while i > 0:
                _insert_card(s, p, unseen[k])
                k += 1
                i -= 1
    memset(s.deck, 0, s.next_draw)
    for i in range(s.next_draw, DECK):
        s.deck[i] = unseen[k]
        k += 1


# Observation planes (docs/games/three_or_more.md), in this order.  The table is seen
# through the block's frame: 12 x 12 squares from the block's top row and row 1's left
# end (the bitboards' own frame); seats are relative to the observer (0 = the observer,
# 1 = the next seat after it, ...).
cdef enum:
    OBS_TABLE = 0           # 4 colours x 144 squares
    OBS_NEXT = 576          # 48 card slots: the open row's next slot
    OBS_PHASE = 624         # 3: row 1 / a corner / the open row
    OBS_HAND = 627          # 3 cards x 3 squares x 4 colours
    OBS_UNSEEN = 663        # 64 patterns: cards the observer cannot see, / 3
    OBS_SEATS = 727         # hand sizes, scores, to act: one per seat each; then stock
    OBS_FIXED = 728         # everything but the per-seat planes


cdef int _observation_size(const void *config) noexcept nogil:
    return OBS_FIXED + 3 * (<const tom_cfg_t *>config).players


# Four table squares (one nibble of a bitboard row) as four floats, for the table plane.
cdef float NIBBLE[16][4]
for _n in range(16):
    for _b in range(4):
        NIBBLE[_n][_b] = (_n >> _b) & 1


cdef void _observe(const void *state, int seat, float *out) noexcept nogil:
    cdef const tom_t *s = <const tom_t *>state
    cdef int n = s.players, k, y, i, j, p, q, r, card, phase
    cdef int rows = 3 * (s.bottom - s.top + 1)
    cdef uint32_t w
    cdef float *t
    cdef float third = <float>(1.0 / 3)
    for k in range(4):                      # table: plane rows 1..12, bits 1..12, by nibbles
        t = &out[OBS_TABLE + k * 144]
        for y in range(rows):
            w = s.plane[k][y + 1] >> 1
            memcpy(t, NIBBLE[w & 15], 4 * sizeof(float))
            memcpy(t + 4, NIBBLE[(w >> 4) & 15], 4 * sizeof(float))
            memcpy(t + 8, NIBBLE[(w >> 8) & 15], 4 * sizeof(float))
            t += ROW_CARDS
        memset(t, 0, (ROW_CARDS - rows) * ROW_CARDS * sizeof(float))
    memset(&out[OBS_NEXT], 0, (OBS_FIXED - OBS_NEXT) * sizeof(float))
    if s.current >= 0:
        phase = _phase(s)
        if phase == 0:
            out[OBS_NEXT + (s.open_row - s.top) * ROW_CARDS + s.open_next - s.lo] = 1
            out[OBS_PHASE + 2] = 1
        else:
            out[OBS_PHASE + phase - 1] = 1
    for i in range(s.hand_n[seat]):                     # hand: card i, square j, colour
        card = s.hand[seat][i]
        for j in range(HAND):
            out[OBS_HAND + i * 12 + j * 4 + ((card >> (4 - 2 * j)) & 3)] = 1
    for p in range(n):                                  # unseen: other hands and stock
        if p != seat:
            for i in range(s.hand_n[p]):
                out[OBS_UNSEEN + s.hand[p][i]] += third
    for i in range(s.next_draw, DECK):
        out[OBS_UNSEEN + s.deck[i]] += third
    q = seat
    for r in range(n):                          # hand sizes / 3, scores / 128, to act
        out[OBS_SEATS + r] = s.hand_n[q] * third
        out[OBS_SEATS + n + r] = s.score[q] * <float>(1.0 / 128)
        out[OBS_SEATS + 2 * n + r] = s.current == q
        q = q + 1 if q + 1 < n else 0
    out[OBS_SEATS + 3 * n] = (DECK - s.next_draw) * <float>(1.0 / 48)
