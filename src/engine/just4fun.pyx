# Just4Fun, compiled: the rules J1-J16 of ``boardcore rules just4fun``.
#
# Data layout
# -----------
# Cells are bit indices of a 6x7 bitboard, ``bit = row * 7 + col``; column 6 is padding,
# so a shift by 1 (east), 7 (south), 8 (south-east) or 6 (south-west) never wraps a
# line around the board edge, and four-in-a-row is four shift-and-ands (J13).
# Per-player bitboards: ``held`` (J12) by cell; ``closed`` (J7/J8: may not place there)
# by field number (bit f = field f), so a play's field is tested without a lookup.
# Per-cell arrays are indexed by the same bit index (42 slots, 6 unused).
#
# Actions are the distinct card multisets that can name a field (1-4 cards, values
# 1-19 within the deck's multiplicities, sum <= 36), sorted by (sum, size, values), then
# the exchange as the last action: 3,923 plays + 1 = 3,924 actions.  A hand subset maps
# to its action through KEY_TO_ACTION, keyed by its ascending values read as base-20
# digits (values are never 0, so different sizes never collide).
#
# Hands are numbered: the 7,315 multisets of 4 cards of 1..19 (ids 0..7314, in
# lexicographic order), then the 1,540 of 0-3 cards (a hand being drawn up).  The state
# keeps each hand both as its ascending values and as its id, and every change of a hand
# is a table step on the id: HAND_ADD (one card drawn), and, per full hand, HAND_SLOTS:
# its distinct plays ascending, each one 32-bit word holding the field it names, the
# action and the id of the cards left, and in the row's last word (a hand has at most
# 15 plays) how many there are.  So the legal plays are one pass over at most 15 words
# (keep those whose field is open, J7/J8) and a play needs no search of the hand; a row
# is one 64-byte cache line (the table is aligned to one).
#
# Chance, all from the state's own generator, in this order: the "random" layout (a
# shuffle of 1..36, row-major), then the 55-card deck (ascending) is shuffled; the draw
# pile's top is its last card; seats 0..n-1 each take 4 cards from the top in turn.
# When the draw pile runs empty (also mid-draw) the discard pile is shuffled into it.
#
# Card counts: a multiset of cards packed in one word, 3 bits per value (at most four of
# a value, J3; value v counts CARD_COUNT[v] = 1 << 3 * (v - 1)), so a pile is counted by
# adding words.  The struct keeps what a reshuffle made public in two such words per
# state: ``reshuffled``, the cards of the new draw pile (the discard pile every seat saw),
# and per seat ``drawn``, what it drew since (the seat knows its own).  Determinizations
# read them (``just4fun_seat.pxi``); the rules never do.
cimport cython
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from _history cimport hist_push, hist_t
from _kernel cimport kernel_t
from _rng cimport rng_bounded, rng_next, rng_seed, rng_shuffle_u8, rng_t

from boardcore._engine._state cimport EngineConfig, EngineState

from boardcore.errors import ConfigurationError, InvalidStateError

cdef extern from *:
    """
    /* The lowest set bit of a non-zero mask (scores visit only the held cells). */
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline int j4f_ctz64(unsigned long long x) {
        unsigned long i; _BitScanForward64(&i, x); return (int)i;
    }
    #else
    static inline int j4f_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    #endif
    """
    int j4f_ctz64(uint64_t x) noexcept nogil

cdef extern from *:
    """
    /* A hint to load a table row early (nothing where the compiler has no such hint). */
    #if defined(__GNUC__) || defined(__clang__)
    #define j4f_prefetch(p) __builtin_prefetch(p)
    #else
    #define j4f_prefetch(p) ((void)0)
    #endif
    """
    void j4f_prefetch(const void *p) noexcept nogil

cdef extern from *:
    """
    /* The actions of a full hand's 16 slot words (bits 6-17), 0xFFFF from entry ``count``
       on, into out[0..15], four words at a time on SSE2 (every x86-64; the scalar loop
       costs five instructions a word); j4f_find16: the entry holding ``a``, 16 at once. */
    #if defined(__SSE2__) || defined(_M_X64)
    #include <emmintrin.h>
    #define J4F_ACTS(k) _mm_and_si128(_mm_srli_epi32(_mm_loadu_si128(w + k), 6), m)
    static inline void j4f_actions16(const uint32_t *slots, int count, uint16_t *out) {
        const __m128i *w = (const __m128i *)slots;
        __m128i m = _mm_set1_epi32(0xFFF), c = _mm_set1_epi16((short)(count - 1));
        __m128i lo = _mm_packs_epi32(J4F_ACTS(0), J4F_ACTS(1));   /* < 4096: none saturates */
        __m128i hi = _mm_packs_epi32(J4F_ACTS(2), J4F_ACTS(3));
        lo = _mm_or_si128(lo, _mm_cmpgt_epi16(_mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7), c));
        hi = _mm_or_si128(hi, _mm_cmpgt_epi16(_mm_setr_epi16(8, 9, 10, 11, 12, 13, 14, 15), c));
        _mm_storeu_si128((__m128i *)out, lo);
        _mm_storeu_si128((__m128i *)(out + 8), hi);
    }
    static inline int j4f_find16(const uint16_t *actions, uint16_t a) {
        __m128i k = _mm_set1_epi16((short)a);
        __m128i lo = _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)actions), k);
        __m128i hi = _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)(actions + 8)), k);
        return j4f_ctz64(_mm_movemask_epi8(lo) | (_mm_movemask_epi8(hi) << 16)) >> 1;
    }
    static inline int j4f_holds16(const uint16_t *actions, uint16_t a) {
        __m128i k = _mm_set1_epi16((short)a);
        __m128i lo = _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)actions), k);
        __m128i hi = _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)(actions + 8)), k);
        return _mm_movemask_epi8(_mm_or_si128(lo, hi)) != 0;
    }
    #else
    static inline void j4f_actions16(const uint32_t *slots, int count, uint16_t *out) {
        for (int i = 0; i < 16; i++) out[i] = i < count ? (slots[i] >> 6) & 0xFFF : 0xFFFF;
    }
    static inline int j4f_find16(const uint16_t *actions, uint16_t a) {
        int i = 0; while (actions[i] != a) i++; return i;
    }
    static inline int j4f_holds16(const uint16_t *actions, uint16_t a) {
        for (int i = 0; i < 16; i++) if (actions[i] == a) return 1;
        return 0;
    }
    #endif
    """
    void j4f_actions16(const uint32_t *slots, int count, uint16_t *out) noexcept nogil
    int j4f_find16(const uint16_t *actions, uint16_t a) noexcept nogil
    # Whether ``a`` is among the 16 entries (j4f_find16's question, for any ``a``).
    bint j4f_holds16(const uint16_t *actions, uint16_t a) noexcept nogil

# The rules' numbers the Python half reads too (module attributes: one source).
cpdef enum:
    N_FIELDS = 36
    SUPPLY = 20          # J4: stones per seat
    IDLE_LIMIT = 20      # J14: turns in a row without a stone
    EXCHANGE = 3923      # the last action, after the plays
    N_ACTIONS = 3924

cdef enum:
    WIDTH = 7            # bits per board row (6 fields + 1 padding bit)
    N_BITS = 42
    DECK_SIZE = 55
    HAND_SIZE = 4
    MAX_SEATS = 4
    NO_SEAT = 255
    N_PLAYS = 3923
    MAX_LEGAL = 16       # at most 15 non-empty hand subsets, or the exchange
    KEY_SPACE = 160000   # 20**4
    NO_ACTION = 0xFFFF
    N_HANDS = 7315       # 4-multisets of 1..19: full hands, ids 0..7314
    N_PARTIAL = 1540     # multisets of 0-3 cards: ids N_HANDS.. (the empty hand first)
    EMPTY_HAND = N_HANDS
    MAX_PLAYS = 15       # distinct plays of a full hand, at most

# End codes (``end`` field); stats["end"] is end - 1, labels in Just4Fun.end_reasons.
cdef enum:
    RUNNING = 0
    END_FOUR_IN_A_ROW = 1
    END_EXHAUSTION = 2
    END_EXCHANGE_LIMIT = 3

ctypedef struct j4f_t:
    rng_t rng
    uint64_t held[MAX_SEATS]       # J12: cells each seat holds
    uint64_t closed[MAX_SEATS]     # J7/J8: fields (bit f) each seat may not place on
    uint64_t locked                  # J8
    uint64_t reshuffled              # the cards of the last reshuffle (J9), counted; 0: none
    uint64_t drawn[MAX_SEATS]        # cards each seat drew since (since the start before it)
    uint8_t stones[MAX_SEATS][N_BITS]
    uint8_t owner[N_BITS]            # seat owning a locked cell, else NO_SEAT
    uint8_t field[N_BITS]            # field number on each cell, 0 on padding
    uint8_t cell_of[N_FIELDS + 1]    # bit index of field k
    uint8_t hand[MAX_SEATS][HAND_SIZE]   # ascending values (0 past hand_n)
    uint8_t hand_n[MAX_SEATS]
    uint16_t hand_id[MAX_SEATS]    # the id of each hand (see above)
    uint8_t draw[DECK_SIZE]          # bottom .. top
    uint8_t discard[DECK_SIZE + 3]   # bottom .. top; played cards are stored 4 at a time
    uint8_t draw_n
    uint8_t discard_n
    uint8_t supply[MAX_SEATS]
    uint8_t n_players
    uint8_t current                  # seat to act, NO_SEAT once over
    uint8_t idle                     # J14: turns in a row without a stone
    uint8_t end
    uint8_t winner                   # J13: the mover who completed four in a row
    uint8_t returned_on_lock

ctypedef struct j4f_cfg_t:
    uint8_t n_players
    uint8_t start_player
    uint8_t returned_on_lock
    uint8_t random_layout
    uint8_t layout[N_FIELDS]         # row-major field numbers when not random

# The action table, filled once at import.
cdef uint8_t ACTION_SIZE[N_ACTIONS]
cdef uint32_t ACTION_CARDS[N_ACTIONS]  # a play's values, ascending, the first in the low byte
cdef uint8_t ACTION_SUM[N_ACTIONS]
cdef uint16_t KEY_TO_ACTION[KEY_SPACE]
cdef uint64_t ALL_FIELDS = ((<uint64_t>1) << (N_FIELDS + 1)) - 2   # bits 1..36
cdef uint8_t CELL_BIT[N_FIELDS]      # bit index of row-major cell i
cdef uint8_t HIGHEST_BIT[16]         # index of the highest set bit of 1..15
cdef uint8_t SORTED_DECK[DECK_SIZE]  # J3: four each of 1..12, one each of 13..19
cdef uint64_t CARD_COUNT[20]         # value v's 1 in a card count (see above); 0 for 0
# The hand tables (see above).  A slot word: field (6 bits) | action << 6 | rest << 18.
cdef uint32_t HAND_CARDS[N_HANDS + N_PARTIAL]   # a hand's values, one per byte, ascending
cdef uint16_t HAND_ADD[N_PARTIAL][20]           # [id - N_HANDS][v]: that hand plus a v
cdef extern from *:
    """
    /* HAND_SLOTS on cache lines of its own: a row of 16 words is one line. */
    #if defined(_MSC_VER)
    __declspec(align(64)) static uint32_t j4f_hand_slots[7315][16];
    #else
    static uint32_t j4f_hand_slots[7315][16] __attribute__((aligned(64)));
    #endif
    """
    uint32_t HAND_SLOTS "j4f_hand_slots"[N_HANDS][16]   # [h][MAX_PLAYS]: plays of h
cdef uint64_t HAND_FIELDS[N_HANDS]              # the fields (bit f) they name


cdef inline uint32_t _slot_action(uint32_t slot) noexcept nogil:
    return (slot >> 6) & 0xFFF


# The tables, built once at import: the action table, and the hand tables of the random
# play-out.

def _build_tables():
    from itertools import combinations_with_replacement
    plays = []
    for size in range(1, 5):
        for values in combinations_with_replacement(range(1, 20), size):
            if sum(values) > N_FIELDS:
                continue
            if any(values.count(v) > (4 if v <= 12 else 1) for v in set(values)):
                continue
            plays.append(values)
    plays.sort(key=lambda t: (sum(t), len(t), t))
    assert len(plays) == N_PLAYS
    for i in range(KEY_SPACE):
        KEY_TO_ACTION[i] = NO_ACTION
    for a, values in enumerate(plays):
        ACTION_SIZE[a] = len(values)
        ACTION_SUM[a] = sum(values)
        ACTION_CARDS[a] = 0
        key = 0
        for k, v in enumerate(values):
            ACTION_CARDS[a] |= v << (8 * k)
            key = key * 20 + v
        KEY_TO_ACTION[key] = a
    ACTION_SIZE[EXCHANGE] = 0
    ACTION_SUM[EXCHANGE] = 0
    ACTION_CARDS[EXCHANGE] = 0
    for i in range(1, 16):
        HIGHEST_BIT[i] = i.bit_length() - 1
    for i in range(N_FIELDS):
        CELL_BIT[i] = (i // 6) * WIDTH + i % 6
    for i in range(DECK_SIZE):
        SORTED_DECK[i] = i // 4 + 1 if i < 48 else i - 35
    CARD_COUNT[0] = 0
    for i in range(1, 20):
        CARD_COUNT[i] = (<uint64_t>1) << (3 * (i - 1))
    _build_hands()
    return plays


def _build_hands():
    # Number the hands, then fill the draw steps and each full hand's plays.
    from itertools import combinations_with_replacement
    full = list(combinations_with_replacement(range(1, 20), 4))
    partial = [h for size in range(4) for h in combinations_with_replacement(range(1, 20), size)]
    assert len(full) == N_HANDS and len(partial) == N_PARTIAL and partial[0] == ()
    assert sizeof(HAND_SLOTS) == N_HANDS * 16 * sizeof(uint32_t)    # the C declaration
    ids = {h: i for i, h in enumerate(full + partial)}
    for h, i in ids.items():
        HAND_CARDS[i] = sum([v << (8 * k) for k, v in enumerate(h)])
    for h in partial:
        for v in range(1, 20):
            HAND_ADD[ids[h] - N_HANDS][v] = ids[tuple(sorted(h + (v,)))]
    for h in full:
        HAND_SLOTS[ids[h]][MAX_PLAYS] = _slots_of(ids[h], h, ids)


cdef int _slots_of(int h, tuple cards, dict ids) except -1:
    # The slot words of full hand ``h`` (ascending ``cards``), ascending by action.
    cdef uint8_t hand[4]
    cdef uint16_t out[MAX_PLAYS]
    cdef uint8_t masks[16]
    cdef int i, j, count
    for i in range(4):
        hand[i] = cards[i]
    count = _plays_of(hand, 4, out, masks)
    for i in range(count):
        rest = tuple([cards[j] for j in range(4) if not (masks[i] >> j) & 1])
        HAND_SLOTS[h][i] = ACTION_SUM[out[i]] | (out[i] << 6) | (<uint32_t>ids[rest] << 18)
        HAND_FIELDS[h] |= (<uint64_t>1) << ACTION_SUM[out[i]]
    return count


cdef int _plays_of(const uint8_t *hand, int n, uint16_t *out, uint8_t *masks) noexcept nogil:
    """Write the distinct plays of an ascending hand (J6), ascending, each with the
    slots it takes (a bit mask) in ``masks``; return how many."""
    cdef int mask, i, high, count = 0
    cdef uint32_t keys[16]
    cdef uint16_t a
    cdef int twins = 0
    # Equal values make equal multisets: with the hand ascending, a subset is canonical
    # when it takes the earlier of two equal cards first, i.e. a bit set in ``twins``
    # (slot i equals slot i - 1) needs the bit below it set too.
    for i in range(1, n):
        if hand[i] == hand[i - 1]:
            twins |= 1 << i
    keys[0] = 0
    for mask in range(1, 1 << n):
        # The key of a subset extends the key of the subset without its highest slot.
        high = HIGHEST_BIT[mask]
        keys[mask] = keys[mask ^ (1 << high)] * 20 + hand[high]
        if mask & twins & ~(mask << 1):
            continue
        a = KEY_TO_ACTION[keys[mask]]
        if a == NO_ACTION:      # J6: sums above 36 name no field
            continue
        i = count
        while i > 0 and out[i - 1] > a:
            out[i] = out[i - 1]
            masks[i] = masks[i - 1]
            i -= 1
        out[i] = a
        masks[i] = mask
        count += 1
    return count


PLAYS = tuple(_build_tables())
DECK = tuple(v for v in range(1, 20) for _ in range(4 if v <= 12 else 1))


# ---------------------------------------------------------------------------------
# The rules, on the C struct.  Inner functions trust their input.
# ---------------------------------------------------------------------------------

cdef inline bint _has_four(uint64_t m) noexcept nogil:
    # J13: four held cells in a line, branch-free per direction.
    cdef uint64_t t
    cdef uint64_t hit = 0
    t = m & (m >> 1)
    hit |= t & (t >> 2)
    t = m & (m >> WIDTH)
    hit |= t & (t >> (2 * WIDTH))
    t = m & (m >> (WIDTH + 1))
    hit |= t & (t >> (2 * (WIDTH + 1)))
    t = m & (m >> (WIDTH - 1))
    hit |= t & (t >> (2 * (WIDTH - 1)))
    return hit != 0


cdef void _init(void *state, const void *config, uint64_t seed) noexcept nogil:
    cdef j4f_t *s = <j4f_t *>state
    cdef const j4f_cfg_t *cfg = <const j4f_cfg_t *>config
    cdef int i, p
    cdef uint8_t perm[N_FIELDS]
    memset(s, 0, sizeof(j4f_t))
    rng_seed(&s.rng, seed)
    s.n_players = cfg.n_players
    s.returned_on_lock = cfg.returned_on_lock
    if cfg.random_layout:
        for i in range(N_FIELDS):
            perm[i] = i + 1
        rng_shuffle_u8(&s.rng, perm, N_FIELDS)
    else:
        memcpy(perm, cfg.layout, N_FIELDS)
    for i in range(N_FIELDS):
        s.field[CELL_BIT[i]] = perm[i]
        s.cell_of[perm[i]] = CELL_BIT[i]
    memset(s.owner, NO_SEAT, N_BITS)
    memcpy(s.draw, SORTED_DECK, DECK_SIZE)
    s.draw_n = DECK_SIZE
    rng_shuffle_u8(&s.rng, s.draw, DECK_SIZE)
    for p in range(s.n_players):
        s.supply[p] = SUPPLY
        _draw_up(s, p, EMPTY_HAND)
    s.current = cfg.start_player
    s.end = RUNNING
    s.winner = NO_SEAT


cdef inline void _set_hand(j4f_t *s, int p, uint32_t h, int size) noexcept nogil:
    # The seat's next turn reads the new hand's row of the tables (HAND_SLOTS alone is
    # 468 KB, in L2 at best): start loading it now, a turn ahead.  Only a full hand has
    # a row (ids below N_HANDS): the address of a partial hand's would lie outside them.
    if h < N_HANDS:
        j4f_prefetch(HAND_SLOTS[h])
        j4f_prefetch(&HAND_FIELDS[h])
    s.hand_id[p] = <uint16_t>h
    memcpy(s.hand[p], &HAND_CARDS[h], HAND_SIZE)
    s.hand_n[p] = size


cdef inline uint64_t _card_count(const uint8_t *cards, int n) noexcept nogil:
    # The count of ``n`` cards (see above), four a round.
    cdef uint64_t count = 0
    cdef int i
    for _ in range(n >> 2):
        count += (CARD_COUNT[cards[0]] + CARD_COUNT[cards[1]]
                  + CARD_COUNT[cards[2]] + CARD_COUNT[cards[3]])
        cards += 4
    for i in range(n & 3):
        count += CARD_COUNT[cards[i]]
    return count


cdef void _draw_up(j4f_t *s, int p, uint32_t h) noexcept nogil:
    # J9: seat p, left with hand h, draws back to 4; the moment the draw pile is empty,
    # the discard pile becomes the new draw pile, shuffled (and every seat knows its cards).
    # The pile's size and the seat's count of drawn cards in locals, stored once: a
    # byte store may alias anything, so storing them every card forces reloads.
    cdef uint8_t card
    cdef uint8_t n = s.draw_n
    cdef uint64_t drawn = s.drawn[p]
    while h >= N_HANDS:
        n -= 1
        card = s.draw[n]
        h = HAND_ADD[h - N_HANDS][card]
        drawn += CARD_COUNT[card]
        if n == 0:
            memcpy(s.draw, s.discard, s.discard_n)
            n = s.discard_n
            s.discard_n = 0
            rng_shuffle_u8(&s.rng, s.draw, n)
            s.reshuffled = _card_count(s.draw, n)
            memset(s.drawn, 0, sizeof(s.drawn))
            drawn = 0
    s.draw_n = n
    s.drawn[p] = drawn
    _set_hand(s, p, h, HAND_SIZE)


cdef inline uint32_t _is_open(uint64_t closed, uint32_t slot) noexcept nogil:
    # 1 if the field of a slot word (its low 6 bits, a shift count as it is) is open.
    return (~closed >> (slot & 63)) & 1


cdef inline int _legal_slots(const j4f_t *s, int p, uint32_t *buf,
                             const uint32_t **out) noexcept nogil:
    # Point ``out`` at the slot words of seat p's legal plays, ascending, and return how
    # many (0: only the exchange).  Mostly no field the hand can name is closed to p
    # (J7/J8) and that is its whole row; else the open ones are copied into ``buf``,
    # branch-free: every slot is written, and counted if its field is open.
    cdef uint32_t h = s.hand_id[p]
    cdef const uint32_t *slots = HAND_SLOTS[h]
    cdef Py_ssize_t i, count = 0
    out[0] = slots
    if HAND_FIELDS[h] & s.closed[p] == 0:
        return slots[MAX_PLAYS]
    for i in range(slots[MAX_PLAYS]):
        buf[count] = slots[i]
        count += _is_open(s.closed[p], slots[i])
    out[0] = buf
    return <int>count


cdef int _legal(const void *state, uint16_t *out) noexcept nogil:
    """Write the legal actions of the seat to act, ascending; return their number.

    ``out`` holds MAX_LEGAL entries (every caller's does), all written if no field is shut.
    """
    cdef const j4f_t *s = <const j4f_t *>state
    cdef uint32_t h
    cdef const uint32_t *slots
    cdef Py_ssize_t i, count = 0
    if s.end != RUNNING:
        return 0
    h = s.hand_id[s.current]
    slots = HAND_SLOTS[h]
    if HAND_FIELDS[h] & s.closed[s.current] == 0:     # mostly: the whole row (J7/J8)
        j4f_actions16(slots, slots[MAX_PLAYS], out)
        return slots[MAX_PLAYS]
    for i in range(slots[MAX_PLAYS]):   # else _legal_slots' pass, writing actions
        out[count] = _slot_action(slots[i])
        count += _is_open(s.closed[s.current], slots[i])
    if count == 0:
        out[0] = EXCHANGE    # J10
        count = 1
    return <int>count


cdef inline void _index_hand(j4f_t *s, int p) noexcept nogil:
    # The id of seat p's hand from its values (a set-up or redrawn hand).
    cdef uint32_t h = EMPTY_HAND
    cdef int i
    for i in range(s.hand_n[p]):
        h = HAND_ADD[h - N_HANDS][s.hand[p][i]]
    s.hand_id[p] = <uint16_t>h


cdef void _settle_cell(j4f_t *s, int c, int p) noexcept nogil:
    # After seat p placed on cell c: lock (J8), holder (J12), closures (J7) of c.
    cdef int q
    cdef int n = s.n_players
    cdef uint64_t bit = (<uint64_t>1) << c
    cdef uint64_t fbit = (<uint64_t>1) << s.field[c]
    cdef int mine = s.stones[p][c]
    cdef int best, second, best_seat, others
    cdef bint lock = True
    for q in range(n):
        if q != p and s.stones[q][c] + 2 > mine:
            lock = False
    if lock:
        s.locked |= bit
        s.owner[c] = p
        for q in range(n):
            if q != p:
                if s.returned_on_lock:
                    s.supply[q] += s.stones[q][c]
                s.stones[q][c] = 0
            s.closed[q] |= fbit
            s.held[q] &= ~bit
        s.held[p] |= bit
        return
    # The two largest stacks decide both the holder (J12: a strict maximum) and, for
    # each seat, the largest stack among the others (J7: closed if 2 above its own).
    best = -1
    second = -1
    best_seat = NO_SEAT
    for q in range(n):
        if s.stones[q][c] > best:
            second = best
            best = s.stones[q][c]
            best_seat = q
        elif s.stones[q][c] > second:
            second = s.stones[q][c]
    for q in range(n):
        s.held[q] &= ~bit
        others = second if q == best_seat else best
        if others >= s.stones[q][c] + 2:
            s.closed[q] |= fbit
        else:
            s.closed[q] &= ~fbit
    if best > second:
        s.held[best_seat] |= bit


cdef inline void _settle_two(j4f_t *s, int c, int p) noexcept nogil:
    # _settle_cell for two seats, o the other: the same rules with one rival stack.
    cdef int o = 1 - p
    cdef int mine = s.stones[p][c]
    cdef int theirs = s.stones[o][c]
    cdef uint64_t bit = (<uint64_t>1) << c
    cdef uint64_t fbit = (<uint64_t>1) << s.field[c]
    if mine >= theirs + 2:
        s.locked |= bit
        s.owner[c] = p
        if s.returned_on_lock:
            s.supply[o] += theirs
        s.stones[o][c] = 0
        s.closed[0] |= fbit
        s.closed[1] |= fbit
        s.held[o] &= ~bit
        s.held[p] |= bit
        return
    s.closed[o] &= ~fbit        # its rival is less than 2 above it
    if theirs >= mine + 2:
        s.closed[p] |= fbit
    else:
        s.closed[p] &= ~fbit
    s.held[p] = (s.held[p] & ~bit) | (bit if mine > theirs else 0)
    s.held[o] = (s.held[o] & ~bit) | (bit if theirs > mine else 0)


cdef inline bint _can_take_turn(const j4f_t *s, int q) noexcept nogil:
    # J11: a seat with stones left and some field open to it.
    return s.supply[q] > 0 and (s.closed[q] & ALL_FIELDS) != ALL_FIELDS


cdef inline void _discard(j4f_t *s, uint32_t cards, int count) noexcept nogil:
    # ``count`` cards, packed one per byte, onto the discard pile in that order (the
    # bytes past them are overwritten later, or never read).
    memcpy(&s.discard[s.discard_n], &cards, 4)
    s.discard_n += count


cdef void _exchange(j4f_t *s, int p) noexcept nogil:
    # J10: discard the whole hand, ascending, and draw 4; no stone.
    _discard(s, HAND_CARDS[s.hand_id[p]], s.hand_n[p])
    _draw_up(s, p, EMPTY_HAND)
    s.idle += 1


cdef bint _play(j4f_t *s, int p, uint32_t slot) noexcept nogil:
    # J6: play the slot's cards (ascending to the discard pile) onto its field, then
    # settle the field (J7, J8, J12); True if that wins (J13), else draw up (J9).
    cdef int a = _slot_action(slot)
    cdef int c = s.cell_of[slot & 63]
    cdef uint32_t rest = slot >> 18
    _discard(s, ACTION_CARDS[a], ACTION_SIZE[a])
    s.stones[p][c] += 1
    s.supply[p] -= 1
    s.idle = 0
    if s.n_players == 2:
        _settle_two(s, c, p)
    else:
        _settle_cell(s, c, p)
    # Only the cell just played can be new to p's holding: no four without it.
    if (s.held[p] >> c) & 1 and _has_four(s.held[p]):
        # J13: the mover wins at once, before drawing.
        _set_hand(s, p, rest, HAND_SIZE - ACTION_SIZE[a])
        s.end = END_FOUR_IN_A_ROW
        s.winner = p
        s.current = NO_SEAT
        return True
    _draw_up(s, p, rest)
    return False


cdef inline void _pass_turn(j4f_t *s, int p) noexcept nogil:
    # After seat p's turn: the J14 ends, else the next seat that can take a turn (J11).
    cdef int n = s.n_players
    cdef int q = p
    if s.idle >= IDLE_LIMIT:
        s.end = END_EXCHANGE_LIMIT          # J14 safety valve
        s.current = NO_SEAT
        return
    for _ in range(n):
        q = q + 1 if q + 1 < n else 0
        if _can_take_turn(s, q):
            s.current = q
            return
    s.end = END_EXHAUSTION                  # J14: nobody can take a turn
    s.current = NO_SEAT


cdef void _apply(void *state, int a) noexcept nogil:
    """Apply a legal action of the seat to act."""
    cdef j4f_t *s = <j4f_t *>state
    cdef int p = s.current
    cdef uint32_t h
    cdef uint16_t actions[MAX_LEGAL]
    if a == EXCHANGE:
        _exchange(s, p)
    else:
        h = s.hand_id[p]
        j4f_actions16(HAND_SLOTS[h], HAND_SLOTS[h][MAX_PLAYS], actions)
        if _play(s, p, HAND_SLOTS[h][j4f_find16(actions, <uint16_t>a)]):
            return
    _pass_turn(s, p)


cdef void _scores(const void *state, int64_t *out) noexcept nogil:
    # J15: the sum of the numbers of the fields each seat holds (j4f_held_sum, in
    # just4fun_seat.pxi, which the observation's scores plane uses too).
    cdef const j4f_t *s = <const j4f_t *>state
    cdef int p
    for p in range(s.n_players):
        out[p] = j4f_held_sum(s.field, s.held[p])


cdef void _winners(const void *state, uint8_t *out) noexcept nogil:
    # J13: the mover who made four in a row; else J16: the highest score, ties broken by
    # the highest-numbered field held; tied players holding nothing share.
    cdef const j4f_t *s = <const j4f_t *>state
    cdef int64_t sc[MAX_SEATS]
    cdef int p, c, best_field, best_seat
    cdef int64_t top = -1
    cdef uint64_t m
    for p in range(s.n_players):
        out[p] = 0
    if s.end == END_FOUR_IN_A_ROW:
        out[s.winner] = 1
        return
    _scores(s, sc)
    for p in range(s.n_players):
        if sc[p] > top:
            top = sc[p]
    best_field = 0
    best_seat = NO_SEAT
    for p in range(s.n_players):
        if sc[p] == top:
            m = s.held[p]
            while m:
                c = j4f_ctz64(m)
                m &= m - 1
                if s.field[c] > best_field:
                    best_field = s.field[c]
                    best_seat = p
    if best_seat != NO_SEAT:
        out[best_seat] = 1
    else:
        for p in range(s.n_players):
            out[p] = sc[p] == top


# ---------------------------------------------------------------------------------
# The kernel table: the rules above as every generic piece of boardcore sees them.
# ---------------------------------------------------------------------------------

cdef int _check_config(const void *config) noexcept nogil:
    cdef const j4f_cfg_t *cfg = <const j4f_cfg_t *>config
    cdef uint64_t seen = 0
    cdef int i
    if not 2 <= cfg.n_players <= MAX_SEATS or cfg.start_player >= cfg.n_players:
        return -1
    if cfg.returned_on_lock > 1 or cfg.random_layout > 1:
        return -1
    if not cfg.random_layout:
        for i in range(N_FIELDS):      # J2: a permutation of 1..36
            if not 1 <= cfg.layout[i] <= N_FIELDS:
                return -1
            seen |= (<uint64_t>1) << cfg.layout[i]
        if seen != ((<uint64_t>1) << (N_FIELDS + 1)) - 2:
            return -1
    return 0


cdef int _num_players(const void *state) noexcept nogil:
    return (<const j4f_t *>state).n_players


cdef int _num_actions(const void *state) noexcept nogil:
    return N_ACTIONS


cdef int _current(const void *state) noexcept nogil:
    cdef const j4f_t *s = <const j4f_t *>state
    return -1 if s.end != RUNNING else s.current


cdef bint _is_legal(const void *state, int a) noexcept nogil:
    # Without listing the legal actions (every Python apply() asks): a play is legal if
    # its field is open to the seat and the hand holds it; the exchange if no play is.
    cdef const j4f_t *s = <const j4f_t *>state
    cdef int p = s.current
    cdef uint32_t h
    cdef uint64_t open_fields
    cdef uint16_t actions[MAX_LEGAL]
    if s.end != RUNNING:
        return False
    h = s.hand_id[p]
    open_fields = ~s.closed[p]
    if a == EXCHANGE:
        return HAND_FIELDS[h] & open_fields == 0        # J10
    if not (HAND_FIELDS[h] & open_fields) >> ACTION_SUM[a] & 1:
        return False
    j4f_actions16(HAND_SLOTS[h], HAND_SLOTS[h][MAX_PLAYS], actions)   # all its plays at once
    return j4f_holds16(actions, <uint16_t>a)


cdef int _random_action(const void *state, rng_t *player) noexcept nogil:
    # legal[bounded(count)], read from the slot words.
    cdef const j4f_t *s = <const j4f_t *>state
    cdef uint32_t buf[MAX_LEGAL]
    cdef const uint32_t *slots
    cdef int count
    if s.end != RUNNING:
        return -1
    count = _legal_slots(s, s.current, buf, &slots)
    if count == 0:
        rng_bounded(player, 1)      # J10: the exchange alone, drawn like any choice
        return EXCHANGE
    return _slot_action(slots[rng_bounded(player, <uint32_t>count)])


cdef inline bint _would_hold(const j4f_t *s, int p, int c) noexcept nogil:
    # Whether seat p holds cell c after one more stone there (J12: no other stack as tall).
    cdef int q
    for q in range(s.n_players):
        if q != p and s.stones[q][c] > s.stones[p][c]:
            return False
    return True


cdef inline bint _wins_on(const j4f_t *s, int p, int c) noexcept nogil:
    # Whether one more stone of seat p on cell c gives it four in a row (J13).
    return _would_hold(s, p, c) and _has_four(s.held[p] | ((<uint64_t>1) << c))


cdef int _heuristic_action(const void *state, rng_t *player) noexcept nogil:
    # The search's play-out player: a play that wins at once (J13), else one that takes
    # the field on which another seat's hand would win at once, else the random player's.
    cdef const j4f_t *s = <const j4f_t *>state
    cdef uint32_t buf[MAX_LEGAL]
    cdef const uint32_t *slots
    cdef uint64_t threats = 0, fields
    cdef int p, q, i, f, count
    if s.end != RUNNING:
        return -1
    p = s.current
    count = _legal_slots(s, p, buf, &slots)
    if count == 0:
        return EXCHANGE
    for i in range(count):
        if _wins_on(s, p, s.cell_of[slots[i] & 63]):
            return _slot_action(slots[i])
    for q in range(s.n_players):
        if q == p or s.supply[q] == 0:
            continue
        fields = HAND_FIELDS[s.hand_id[q]] & ~s.closed[q] if s.hand_n[q] == HAND_SIZE else 0
        while fields:
            f = j4f_ctz64(fields)
            fields &= fields - 1
            if _wins_on(s, q, s.cell_of[f]):
                threats |= (<uint64_t>1) << f
    if threats:
        for i in range(count):
            if (threats >> (slots[i] & 63)) & 1:
                return _slot_action(slots[i])
    return _slot_action(slots[rng_bounded(player, <uint32_t>count)])


cdef Py_ssize_t _play_out(void *state, rng_t *player, hist_t *history) noexcept nogil:
    # _kernel.pxd's play_out with the random player's choice kept as its slot word, so
    # that a play needs no search of the hand.
    cdef j4f_t *s = <j4f_t *>state
    cdef uint32_t buf[MAX_LEGAL]
    cdef const uint32_t *slots
    cdef uint32_t slot
    cdef Py_ssize_t played = 0
    cdef int p, count
    cdef rng_t local = player[0]     # in a local, the generator stays in registers
    while s.end == RUNNING:
        p = s.current
        count = _legal_slots(s, p, buf, &slots)
        if count:
            slot = slots[rng_bounded(&local, <uint32_t>count)]
        else:
            rng_bounded(&local, 1)  # J10: the exchange alone, drawn like any choice
            slot = EXCHANGE << 6
        if history != NULL and hist_push(history, _slot_action(slot)) < 0:
            played = -1
            break
        if count == 0:
            _exchange(s, p)
            _pass_turn(s, p)
        elif not _play(s, p, slot):
            _pass_turn(s, p)
        played += 1
    player[0] = local
    return played


cdef void _stats(const void *state, int64_t *out) noexcept nogil:
    out[0] = (<const j4f_t *>state).end - 1      # Just4Fun.end_reasons


cdef kernel_t KERNEL = kernel_t(
    name=b"just4fun", state_size=sizeof(j4f_t), config_size=sizeof(j4f_cfg_t),
    max_legal=MAX_LEGAL, n_stats=1, check_config=_check_config, init=_init,
    num_players=_num_players, num_actions=_num_actions, current=_current, legal=_legal,
    is_legal=_is_legal, apply=_apply, random_action=_random_action, play_out=_play_out,
    scores=_scores, winners=_winners, stats=_stats, own_history=NULL,
    determinize=_determinize, observation_size=_observation_size, observe=_observe,
    heuristic=_heuristic_action)


def config(players, start_player, returned_on_lock, layout):
    """Return the checked engine configuration of the game's options; ``layout`` is 36
    field numbers row by row (a permutation of 1..36), or ``None``: drawn from each seed.
    """
    cdef j4f_cfg_t cfg
    cdef int i
    memset(&cfg, 0, sizeof(cfg))
    cfg.n_players = players
    cfg.start_player = start_player
    cfg.returned_on_lock = bool(returned_on_lock)
    cfg.random_layout = layout is None
    if layout is not None:
        if len(layout) != N_FIELDS:
            raise ConfigurationError(f"layout must hold {N_FIELDS} field numbers")
        for i in range(N_FIELDS):
            cfg.layout[i] = layout[i]
    return EngineConfig(Just4FunState, (<char *>&cfg)[:sizeof(cfg)])


@cython.final
@cython.no_gc      # holds only the (immutable) game, seed and configuration: no cycles
cdef class Just4FunState(EngineState):
    """A Just4Fun position.  Make one with ``Just4Fun(players=n).new_state(seed)``.

    >>> import boardcore
    >>> state = boardcore.make("just4fun", players=2).new_state(seed=3)
    >>> state.current_player, len(state.view(0).hand)
    (0, 4)
    """

    cdef j4f_t s

    def __cinit__(self):
        self._s = &self.s
        self._k = &KERNEL

    cdef dict _values(self, const void *position):
        # The snapshot's fields (boardcore.just4fun.Just4FunSnapshot), per field row-major.
        cdef const j4f_t *s = <const j4f_t *>position
        cdef int i, q
        return {
            "layout": tuple([s.field[CELL_BIT[i]] for i in range(N_FIELDS)]),
            "stones": tuple([tuple([s.stones[q][CELL_BIT[i]] for i in range(N_FIELDS)])
                             for q in range(s.n_players)]),
            "owners": tuple([None if s.owner[CELL_BIT[i]] == NO_SEAT else s.owner[CELL_BIT[i]]
                             for i in range(N_FIELDS)]),
            "supplies": tuple([s.supply[q] for q in range(s.n_players)]),
            "hands": tuple([tuple([s.hand[q][i] for i in range(s.hand_n[q])])
                            for q in range(s.n_players)]),
            "draw_pile": tuple([s.draw[i] for i in range(s.draw_n)]),
            "discard_pile": tuple([s.discard[i] for i in range(s.discard_n)]),
            "idle_turns": s.idle,
            "rng": tuple([s.rng.s[i] for i in range(4)]),
        }

    cdef int _fill(self, const void *config, dict values) except -1:
        # ``values``: the checked fields of boardcore.just4fun.positions, -1 for no owner
        # and for no seat to act.
        return _fill(&self.s, <const j4f_cfg_t *>config, values)


cdef bint _within(object values, int lo, int hi):
    return all([type(v) is int and lo <= v <= hi for v in values])


cdef int _fill(j4f_t *s, const j4f_cfg_t *cfg, dict f) except -1:
    # A set-up position from checked fields.  Checked here: what could overrun the struct
    # (an empty draw pile, an unsorted hand: through draws, hand indices) and the seat to
    # act.  The derived bitboards and the end come from the rules.
    cdef int p, i, c, q
    cdef int n = cfg.n_players
    layout, stones, owners = f["layout"], f["stones"], f["owners"]
    hands, draw, discard = f["hands"], f["draw_pile"], f["discard_pile"]
    if (len(layout) != N_FIELDS or len(stones) != n or len(owners) != N_FIELDS
            or len(f["supplies"]) != n or len(hands) != n or len(f["rng"]) != 4
            or any([len(row) != N_FIELDS for row in stones])
            or any([len(h) > HAND_SIZE for h in hands])
            or len(draw) + len(discard) + sum([len(h) for h in hands]) != DECK_SIZE
            or not _within(layout, 1, N_FIELDS) or not _within(owners, -1, n - 1)
            or not all([_within(row, 0, SUPPLY) for row in stones])
            or not _within(f["supplies"], 0, SUPPLY)
            or not all([_within(h, 1, 19) and sorted(h) == list(h) for h in hands])
            or not _within(draw, 1, 19) or not _within(discard, 1, 19)
            or not _within([f["idle_turns"]], 0, IDLE_LIMIT)
            or not _within([f["current_player"]], -1, n - 1) or not draw):
        raise InvalidStateError("a Just4Fun position does not fit: sizes or values out of range")
    memset(s, 0, sizeof(j4f_t))
    s.n_players = n
    s.returned_on_lock = cfg.returned_on_lock
    s.winner = NO_SEAT
    for p in range(n):
        s.supply[p] = f["supplies"][p]
        s.hand_n[p] = len(hands[p])
        for i in range(s.hand_n[p]):
            s.hand[p][i] = hands[p][i]
        if s.hand_n[p] == HAND_SIZE:
            _index_hand(s, p)
    s.draw_n = len(draw)
    s.discard_n = len(discard)
    for i in range(s.draw_n):
        s.draw[i] = draw[i]
    for i in range(s.discard_n):
        s.discard[i] = discard[i]
    s.idle = f["idle_turns"]
    for i in range(4):
        s.rng.s[i] = f["rng"][i]
    for i in range(N_FIELDS):
        c = CELL_BIT[i]
        s.field[c] = layout[i]
        s.cell_of[s.field[c]] = c
        s.owner[c] = NO_SEAT if owners[i] < 0 else owners[i]
        for p in range(n):
            s.stones[p][c] = stones[p][i]
        # The cell's lock (J8), holder (J12) and closures (J7).
        if s.owner[c] != NO_SEAT:
            _settle_cell(s, c, s.owner[c])
        else:
            for q in range(n):
                if s.stones[q][c]:
                    _settle_cell(s, c, q)
                    break
    # The end (J13, J14); the facade refuses two fours in a row and a seat to act then.
    for p in range(n):
        if s.end == RUNNING and _has_four(s.held[p]):
            s.end = END_FOUR_IN_A_ROW
            s.winner = p
    if s.end == RUNNING and s.idle >= IDLE_LIMIT:
        s.end = END_EXCHANGE_LIMIT
    if s.end == RUNNING and not any([_can_take_turn(s, q) for q in range(n)]):
        s.end = END_EXHAUSTION
    current = f["current_player"]
    if s.end != RUNNING:
        s.current = NO_SEAT
        return 0
    if not 0 <= current < n:
        raise InvalidStateError("field 'current_player' is null, but the game is not over")
    if not _can_take_turn(s, current):
        raise InvalidStateError(f"field 'current_player': seat {current} cannot take a turn")
    for p in range(n):
        if s.hand_n[p] != HAND_SIZE:
            raise InvalidStateError(f"field 'hands': seat {p} must hold 4 cards mid-game")
    s.current = current
    return 0


def _bench_line_check(const uint64_t[::1] masks not None, int repeats):
    """Run the J13 four-in-a-row check over ``masks`` ``repeats`` times (a kernel bench).

    Returns how many checks found a line, so the work cannot be optimised away.
    """
    cdef Py_ssize_t i, n
    cdef int r
    cdef int64_t hits = 0
    masks = masks.copy()                    # read without the GIL: a private copy
    n = masks.shape[0]
    if not 0 <= repeats <= 100_000:
        raise ConfigurationError(f"repeats must be in 0..100000, not {repeats}")
    with nogil:
        for r in range(repeats):
            for i in range(n):
                hits += _has_four(masks[i] ^ <uint64_t>r)
    return hits


# What one seat knows: the determinize and observe slots of KERNEL, in their own file.
include "just4fun_seat.pxi"
