# Fool (Friedemann Friese), compiled: the rules F1-F13 of ``boardcore rules fool``.
#
# Data layout
# -----------
# A card kind is an action id (0..82), contiguous in the order of the rules page:
#   green 2..27 -> 0..25, red 2..23 -> 26..47, yellow 2..21 -> 48..67,
#   blue 2..15 -> 68..81, wild 1 -> 82.
# The six wild 1s are distinct physical cards of one kind: the prepared deck holds kind 82
# once per wild 1, so the shuffle treats them as separate cards.
# A hand is a bitset over the 88 cards split into five 32-bit words: word c (c = colour
# 0..3: green, red, yellow, blue) has bit v-2 set when the card of value v is held; word 4
# counts the wild 1s held as a thermometer ((1 << k) - 1 for k wild 1s), so "has the lead
# colour" is one word test and legal cards are a mask of at most two words.
# What play revealed (F6): a seat that played a coloured card off the lead colour holds
# none of that colour for the rest of the round; ``voids`` keeps these colours, four
# bits per seat (bit 4*p + c), cleared at each deal and when the game ends.
# The whole position is the struct ``fool_t`` (no pointer: a copy is a memcpy); the
# configuration is ``fool_cfg_t``.  The kernel table (``_kernel.pxd``) is filled below.
cimport cython
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, memcpy, memmove, memset

from _history cimport hist_push, hist_t
from _kernel cimport kernel_t
from _rng cimport rng_bounded, rng_next, rng_seed, rng_shuffle_u8, rng_t

from boardcore._engine._state cimport EngineConfig, EngineState

import numpy as np

from boardcore.errors import ConfigurationError, InvalidStateError

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline int fool_ctz(unsigned int x) {
        unsigned long i; _BitScanForward(&i, x); return (int)i;
    }
    static __inline int fool_ctz64(unsigned long long x) {   /* 32-bit Windows too */
        return (unsigned int)x ? fool_ctz((unsigned int)x) : 32 + fool_ctz((unsigned int)(x >> 32));
    }
    #else
    static inline int fool_ctz(unsigned int x) { return __builtin_ctz(x); }
    static inline int fool_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    #endif
    /* The x86-64 baseline the wheels target has no popcnt instruction, and there
       __builtin_popcount is a call into libgcc (a quarter of a play-out's instructions):
       inline bit arithmetic instead, the builtin only where it is one instruction. */
    #if defined(__GNUC__) && (defined(__POPCNT__) || defined(__aarch64__))
    static inline int fool_popcount(unsigned int x) { return __builtin_popcount(x); }
    #else
    static inline int fool_popcount(unsigned int x) {
        x = x - ((x >> 1) & 0x55555555u);
        x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
        return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
    }
    #endif
    /* The cards of each colour word of a hand, packed one byte per colour (colour 0
       lowest): two words at a time, each 64-bit sum of bytes gathered per 32-bit half
       by one multiplication (byte 3 sums bytes 0-3, byte 7 bytes 4-7; no sum carries). */
    static inline uint32_t fool_colour_counts(const uint32_t *h) {
        uint64_t a = (uint64_t)h[0] | ((uint64_t)h[1] << 32);
        uint64_t b = (uint64_t)h[2] | ((uint64_t)h[3] << 32);
        a = a - ((a >> 1) & 0x5555555555555555ull);
        b = b - ((b >> 1) & 0x5555555555555555ull);
        a = (a & 0x3333333333333333ull) + ((a >> 2) & 0x3333333333333333ull);
        b = (b & 0x3333333333333333ull) + ((b >> 2) & 0x3333333333333333ull);
        a = ((a + (a >> 4)) & 0x0F0F0F0F0F0F0F0Full) * 0x01010101ull;
        b = ((b + (b >> 4)) & 0x0F0F0F0F0F0F0F0Full) * 0x01010101ull;
        return (uint32_t)(((a >> 24) & 0xFF) | ((a >> 48) & 0xFF00)
                          | ((b >> 8) & 0xFF0000) | ((b >> 32) & 0xFF000000u));
    }
    """
    int fool_popcount(uint32_t x) noexcept nogil
    uint32_t fool_colour_counts(const uint32_t *h) noexcept nogil
    int fool_ctz(uint32_t x) noexcept nogil
    int fool_ctz64(uint64_t x) noexcept nogil

# The rules' numbers the Python half reads too (module attributes: one source).
cpdef enum:
    NUM_ACTIONS = 83    # every card kind of the box (F1)
    W1 = 82             # the action (card kind) of a wild 1
    ROUND_MAX = 1000000     # a set-up position's round, at most
    SCORE_MAX = 1000000     # a set-up position's scores, at most this far from 0

cdef enum:
    MAX_SEATS = 8
    WILD = 4            # index of the wild-1 word of a hand
    WORDS = 5
    MAX_WILDS = 6
    DECK_MAX = 88
    NO_SEAT = 255
    SHIFT = 16          # the play-out takes a card out of a row by two 8-byte moves
    ROW = 128           # DECK_MAX + SHIFT bytes, rounded up: a seat's row one shift away

# ---------------------------------------------------------------------------------------
# Tables, built once at import: what each card is, the weights of the determinization,
# the random player's and the trick kernel's and the scoring's lookups.

# Highest value of each colour in the full 88-card box (F1).
cdef uint8_t COLOUR_TOP[4]
COLOUR_TOP[:] = [27, 23, 21, 15]
cdef uint8_t COLOUR_OFFSET[5]
COLOUR_OFFSET[:] = [0, 26, 48, 68, 82]
# Per action: its colour word (4 for a wild 1), bit in that word, face value (1 for W1).
cdef uint8_t CARD_COLOUR[NUM_ACTIONS]
cdef uint8_t CARD_BIT[NUM_ACTIONS]
cdef uint8_t CARD_VALUE[NUM_ACTIONS]
# k! and 1/k!, the weights of the determinization's count tables.
cdef double FACT[DECK_MAX + 1]
cdef double INV_FACT[DECK_MAX + 1]
# Per action: the bit it sets in its word (for a wild 1 the thermometer's new bit, below
# the others shifted up), the mask that takes it out again (a wild 1 shifts instead), and
# what it counts in a hand's packed colour counts (one byte per colour, ``_sort_hand``;
# nothing for a wild 1).
cdef uint32_t CARD_MASK[NUM_ACTIONS]
cdef uint32_t CARD_CLEAR[NUM_ACTIONS]
cdef uint32_t CARD_COUNT[NUM_ACTIONS]
# The trick kernel's key of each card without its position, by lead colour + 1 (0: no
# lead colour yet), so that resolving a trick reads one table row.
cdef uint16_t LEAD_KEY[5][NUM_ACTIONS]
# BYTE_POINTS[k][b]: the points (F11) of the cards whose bits in byte k of a colour
# word are b (a card's value is its bit + 2).
cdef uint16_t BYTE_POINTS[4][256]
# The bytes of the packed colour counts that hold the legal cards when the lead colour
# (+ 1) is held; with no lead colour all four.
cdef uint32_t LEAD_BYTES[5]
LEAD_BYTES[:] = [0xFFFFFFFF, 0xFF, 0xFF00, 0xFF0000, 0xFF000000]


cdef void _init_tables() noexcept:
    cdef int c, v, k
    FACT[0] = 1.0
    for v in range(1, DECK_MAX + 1):
        FACT[v] = FACT[v - 1] * v
    for v in range(DECK_MAX + 1):
        INV_FACT[v] = 1.0 / FACT[v]
    for c in range(4):
        for v in range(2, COLOUR_TOP[c] + 1):
            CARD_COLOUR[COLOUR_OFFSET[c] + v - 2] = c
            CARD_BIT[COLOUR_OFFSET[c] + v - 2] = v - 2
            CARD_VALUE[COLOUR_OFFSET[c] + v - 2] = v
    CARD_COLOUR[W1] = WILD
    CARD_BIT[W1] = 0
    CARD_VALUE[W1] = 1
    for v in range(NUM_ACTIONS):
        CARD_MASK[v] = (<uint32_t>1) << CARD_BIT[v]
        CARD_CLEAR[v] = 0xFFFFFFFF if v == W1 else ~CARD_MASK[v]
        CARD_COUNT[v] = 0 if v == W1 else (<uint32_t>1) << (8 * CARD_COLOUR[v])
        for c in range(5):
            LEAD_KEY[c][v] = ((((CARD_COLOUR[v] == c - 1) | (v == W1)) << 12)
                              | (CARD_VALUE[v] << 4))
    for k in range(4):
        for v in range(256):
            BYTE_POINTS[k][v] = 0
            for c in range(8):
                if (v >> c) & 1:
                    BYTE_POINTS[k][v] += 8 * k + c + 2


_init_tables()

#: The notation of every action: ``CARDS[a]`` is ``"G2"`` .. ``"B15"``, then ``"W1"``.
CARDS = tuple([f"{'GRYB'[CARD_COLOUR[a]]}{CARD_VALUE[a]}" for a in range(W1)] + ["W1"])
#: The box (F1): the highest value of green, red, yellow and blue, and the wild 1s.
BOX = (COLOUR_TOP[0], COLOUR_TOP[1], COLOUR_TOP[2], COLOUR_TOP[3], MAX_WILDS)

# End codes (stats["end"], Fool.end_reasons order).
cdef enum:
    END_MINUS_80 = 0
    END_SIX_PLUS_10 = 1
    END_BOTH = 2


ctypedef struct fool_t:
    uint32_t hand[MAX_SEATS][WORDS]
    int32_t score[MAX_SEATS]
    uint8_t plus10[MAX_SEATS]           # rounds in which each seat scored +10
    uint8_t trick_seat[MAX_SEATS]       # the current trick, in play order
    uint8_t trick_card[MAX_SEATS]
    uint8_t deck[DECK_MAX]              # the prepared deck (F2), canonical order
    uint32_t deck_mask[WORDS]           # the same deck as a hand-shaped bitset
    uint32_t round                      # 1-based
    uint8_t n, nfools, deck_len
    uint8_t trick_len, trick_size       # cards played / players taking part (F4)
    uint8_t leader, to_move             # to_move is NO_SEAT once the game is over
    int8_t lead                         # lead colour, -1 until a coloured card is played
    uint8_t fools                       # bitmask of the seats holding a Fool disc
    uint8_t dealer
    uint8_t over, end
    uint32_t voids                      # F6: colours each seat showed it lacks, 4 bits a seat
    rng_t rng


ctypedef struct fool_cfg_t:
    uint8_t n_players
    uint8_t start_player                # leads round 1; the dealer sits to its right
    uint8_t nfools                      # Fool discs per trick (F2)
    uint8_t deck[WORDS]                 # highest green, red, yellow, blue value; wild 1s


# ---------------------------------------------------------------------------------------
# Compiled rules: every function below trusts its input (validated at the boundary).

cdef inline bint _hand_empty(const uint32_t *h) noexcept nogil:
    return (h[0] | h[1] | h[2] | h[3] | h[4]) == 0


cdef inline int _colour_cards(const uint32_t *h) noexcept nogil:
    # The coloured cards of a hand: its packed counts' bytes summed.
    return (fool_colour_counts(h) * <uint32_t>0x01010101) >> 24


cdef inline int _hand_size(const uint32_t *h) noexcept nogil:
    return _colour_cards(h) + fool_popcount(h[WILD])


cdef int _hand_points(const uint32_t *h) noexcept nogil:
    # F11: a card scores its value, a wild 1 scores 5.  A colour word's points are its
    # four bytes' points, read from BYTE_POINTS: no loop over the cards, so no branch
    # that the cards left in a hand decide.
    cdef int c, total = 5 * fool_popcount(h[WILD])
    cdef uint32_t m
    for c in range(4):
        m = h[c]
        total += (BYTE_POINTS[0][m & 0xFF] + BYTE_POINTS[1][(m >> 8) & 0xFF]
                  + BYTE_POINTS[2][(m >> 16) & 0xFF] + BYTE_POINTS[3][m >> 24])
    return total


cdef inline void _give(uint32_t *hand, uint8_t card) noexcept nogil:
    # Add a card to a hand, without a branch: a wild 1 shifts its thermometer up one.
    cdef int c = CARD_COLOUR[card]
    hand[c] = (hand[c] << (card == W1)) | CARD_MASK[card]


cdef void _deal(fool_t *s) noexcept nogil:
    # F3: shuffle the whole prepared deck, deal it one card at a time clockwise from the
    # dealer's left; that player leads, nobody is a Fool.  The shuffle (Fisher-Yates from
    # the end) settles card i of the deck at its step i, and card i goes to seat
    # (leader + i) % n: so each card is dealt in the step that settles it, one loop.
    # The seat's hand is walked as a pointer, one hand back a card, wrapping round.
    cdef uint8_t cards[DECK_MAX]
    cdef rng_t rng = s.rng          # in a local: the hands' stores cannot alias it
    cdef int i, j, seat, n = s.n, length = s.deck_len
    cdef uint32_t *hand
    cdef uint32_t *first = s.hand[0]
    cdef uint32_t *last = s.hand[n - 1]
    cdef uint8_t card
    # Fixed sizes, so that the compiler copies and clears with plain moves, not with a
    # string instruction (slow to start for so few bytes).
    memcpy(cards, s.deck, DECK_MAX)
    for i in range(n):
        memset(s.hand[i], 0, sizeof(s.hand[i]))
    seat = s.dealer + 1
    if seat == n:
        seat = 0
    s.leader = seat
    s.to_move = seat
    hand = s.hand[(seat + length - 1) % n]
    for i in range(length - 1, 0, -1):
        j = rng_bounded(&rng, <uint32_t>(i + 1))
        card = cards[j]
        cards[j] = cards[i]
        _give(hand, card)
        hand = last if hand == first else hand - WORDS
    _give(hand, cards[0])
    s.rng = rng
    s.fools = 0
    s.voids = 0
    s.trick_len = 0
    s.trick_size = s.n
    s.lead = -1


cdef inline void _legal_masks(const fool_t *s, uint32_t *m) noexcept nogil:
    # F6: a player holding the lead colour plays it or a wild 1; otherwise any card.
    # m[4] is 1 when W1 is legal.
    cdef const uint32_t *h = s.hand[s.to_move]
    if s.lead >= 0 and h[s.lead]:
        m[0] = 0
        m[1] = 0
        m[2] = 0
        m[3] = 0
        m[s.lead] = h[s.lead]
    else:
        m[0] = h[0]
        m[1] = h[1]
        m[2] = h[2]
        m[3] = h[3]
    m[WILD] = 1 if h[WILD] else 0


cdef inline int _trick_key(int lead, int card, int position, int seat) noexcept nogil:
    # The trick kernel's order (F7, F8): one key ranks every card from worst to best,
    #   key = in_lead_colour << 15 | value << 7 | (15 - position) << 3 | seat
    # where wild 1s count as the lead colour with value 1.  The highest key wins (highest
    # lead-colour card; among 1s only, the first played), the lowest keys are the Fools
    # (off-colour before lead colour, lower before higher, later before earlier).  Keys
    # are distinct (they carry their card's position) and carry their seat.  A wild 1's
    # key is the same whatever the lead colour, so a key never changes once its card is
    # played: the play-out ranks each card as it is played.
    return ((LEAD_KEY[lead + 1][card] | (15 - position)) << 3) | seat


cdef enum:
    NO_KEY = 1 << 20    # above every key: the lowest keys of a trick not yet begun


cdef inline uint8_t _trick_result(int best, int lo1, int lo2, int nfools,
                                  uint8_t *winner) noexcept nogil:
    # The winner's seat (the highest key) into ``winner``; the bitmask of the Fools'
    # seats (the lowest key, and the second lowest with two Fools a trick).
    winner[0] = best & 7
    return ((<uint8_t>1) << (lo1 & 7)) | (<uint8_t>(nfools - 1) << (lo2 & 7))


cdef uint8_t _trick_fools(const uint8_t *seats, const uint8_t *cards, int length, int lead,
                          int nfools, uint8_t *winner) noexcept nogil:
    # The trick kernel: the highest and the two lowest keys, by minimum and maximum (no
    # data-dependent branch), then _trick_result.  (With one Fool a trick, the second
    # lowest is not needed: the test on nfools is the same at every card, so the
    # compiler makes two loops of it.)
    cdef int i, key, best = 0, lo1 = NO_KEY, lo2 = NO_KEY
    for i in range(length):
        key = _trick_key(lead, cards[i], i, seats[i])
        best = max(best, key)
        if nfools > 1:
            lo2 = min(lo2, max(lo1, key))
        lo1 = min(lo1, key)
    return _trick_result(best, lo1, lo2, nfools, winner)


cdef void _end_round(fool_t *s, uint8_t fools) noexcept nogil:
    # F11 scoring, then F12: the game ends or the next round is dealt.
    cdef int p
    cdef bint minus = False, six = False
    for p in range(s.n):
        if _hand_empty(s.hand[p]):
            if not (fools >> p) & 1:
                s.score[p] += 10
                s.plus10[p] += 1
        else:
            s.score[p] -= _hand_points(s.hand[p])
        if s.score[p] <= -80:
            minus = True
        if s.plus10[p] >= 6:
            six = True
    if minus or six:
        s.over = 1
        s.end = END_BOTH if minus and six else (END_MINUS_80 if minus else END_SIX_PLUS_10)
        s.fools = fools
        s.voids = 0
        s.trick_len = 0
        s.trick_size = s.n - fool_popcount(fools)
        s.lead = -1
        s.to_move = NO_SEAT
        return
    s.round += 1
    s.dealer += 1
    if s.dealer == s.n:
        s.dealer = 0
    _deal(s)


cdef void _close_trick(fool_t *s, bint ran_out) noexcept nogil:
    # F9, F10: name the Fools; the winner leads the next trick unless a hand ran out.
    cdef uint8_t winner
    cdef uint8_t fools = _trick_fools(s.trick_seat, s.trick_card, s.trick_len, s.lead,
                                      s.nfools, &winner)
    s.leader = winner
    if ran_out:
        _end_round(s, fools)
        return
    s.fools = fools
    s.to_move = winner
    s.trick_len = 0
    s.trick_size = s.n - s.nfools       # a trick names exactly nfools Fools
    s.lead = -1


cdef void _end_trick(fool_t *s) noexcept nogil:
    cdef int i
    cdef bint ran_out = False
    for i in range(s.trick_len):
        ran_out |= _hand_empty(s.hand[s.trick_seat[i]])
    _close_trick(s, ran_out)


# The end of a trick and of a round through pointers: kept out of line, so that the
# common play of a card into a trick (here and in the play-out) needs no register saves.
cdef void (*END_TRICK)(fool_t *) noexcept nogil
cdef void (*END_ROUND)(fool_t *, uint8_t) noexcept nogil
END_TRICK = _end_trick
END_ROUND = _end_round


cdef inline int _take(uint32_t *hand, int a, int lead, bint coloured) noexcept nogil:
    # Card ``a`` (legal) out of ``hand``; returns the lead colour after it (F5: the first
    # coloured card sets it).  ``coloured`` is ``a != W1``: the play-out knows it from
    # its own branch.
    cdef int c = CARD_COLOUR[a]
    if coloured:
        hand[c] &= CARD_CLEAR[a]
        return c if lead < 0 else lead
    hand[WILD] >>= 1            # one wild 1 fewer: the thermometer shifts down
    return lead


cdef inline uint32_t _playing(const fool_t *s) noexcept nogil:
    # F4: the seats taking part in the trick, a bit each: all but the Fools.
    return ~(<uint32_t>s.fools) & ((<uint32_t>1 << s.n) - 1)


cdef inline bint _to_trick(fool_t *s, uint8_t p, int a, uint32_t playing) noexcept nogil:
    # Card ``a`` of seat p joins the trick; True when that completes it, else the next
    # seat is to act (F4: clockwise, skipping the Fools: the first seat after p that is
    # no Fool, else the first from seat 0).  ``playing`` is _playing(s).
    cdef uint32_t after
    s.trick_seat[s.trick_len] = p
    s.trick_card[s.trick_len] = a
    s.trick_len += 1
    if s.trick_len == s.trick_size:
        return True
    after = playing & (~(<uint32_t>1) << p)
    s.to_move = fool_ctz(after if after else playing)
    return False


cdef inline void _play(fool_t *s, int a) noexcept nogil:
    # Play card ``a`` (legal) for the seat to act.  F6: a coloured card off the lead
    # colour shows that p holds none of it (the play-out, which ends the game and so
    # clears them, does not keep these).
    cdef uint8_t p = s.to_move
    cdef int c = CARD_COLOUR[a], lead = s.lead
    s.voids |= (<uint32_t>((c != WILD) & (lead >= 0) & (c != lead))) << (4 * p + (lead & 3))
    s.lead = _take(s.hand[p], a, lead, c != WILD)
    if _to_trick(s, p, a, _playing(s)):
        END_TRICK(s)


cdef void _apply(void *state, int a) noexcept nogil:
    _play(<fool_t *>state, a)


cdef void _winners(const void *state, uint8_t *out) noexcept nogil:
    # F13: the highest total wins; tied leaders share.
    cdef const fool_t *s = <const fool_t *>state
    cdef int p
    cdef int32_t top = s.score[0]
    for p in range(1, s.n):
        if s.score[p] > top:
            top = s.score[p]
    for p in range(s.n):
        out[p] = s.score[p] == top


# ---------------------------------------------------------------------------------------
# The kernel table: the rules above as every generic piece of boardcore sees them.

cdef int _check_config(const void *config) noexcept nogil:
    # F1, F2: 4-8 seats, 1 or 2 Fools with at least three seats in every trick, each
    # colour from 2 to at most its box top, at most six wild 1s, dealt out evenly.
    cdef const fool_cfg_t *cfg = <const fool_cfg_t *>config
    cdef int c, size = cfg.deck[WILD]
    if not 4 <= cfg.n_players <= MAX_SEATS or cfg.start_player >= cfg.n_players:
        return -1
    if not 1 <= cfg.nfools <= 2 or cfg.n_players - cfg.nfools < 3 or size > MAX_WILDS:
        return -1
    for c in range(4):
        if not 2 <= cfg.deck[c] <= COLOUR_TOP[c]:
            return -1
        size += cfg.deck[c] - 1
    return 0 if size % cfg.n_players == 0 else -1


cdef void _prototype(fool_t *s, const fool_cfg_t *cfg) noexcept nogil:
    # The configuration's part of a position: seats, Fools per trick, the prepared deck
    # (F2, canonical order), round 1 and its dealer.
    cdef int c, v, k = 0
    memset(s, 0, sizeof(fool_t))
    s.n = cfg.n_players
    s.nfools = cfg.nfools
    for c in range(4):
        for v in range(2, cfg.deck[c] + 1):
            s.deck[k] = COLOUR_OFFSET[c] + v - 2
            k += 1
        s.deck_mask[c] = ((<uint32_t>1) << (cfg.deck[c] - 1)) - 1
    memset(&s.deck[k], W1, cfg.deck[WILD])
    s.deck_mask[WILD] = ((<uint32_t>1) << cfg.deck[WILD]) - 1
    s.deck_len = k + cfg.deck[WILD]
    s.round = 1
    s.dealer = (cfg.start_player + s.n - 1) % s.n


cdef void _init(void *state, const void *config, uint64_t seed) noexcept nogil:
    cdef fool_t *s = <fool_t *>state
    _prototype(s, <const fool_cfg_t *>config)
    rng_seed(&s.rng, seed)
    _deal(s)


cdef int _num_players(const void *state) noexcept nogil:
    return (<const fool_t *>state).n


cdef int _num_actions(const void *state) noexcept nogil:
    return NUM_ACTIONS


cdef int _current(const void *state) noexcept nogil:
    cdef const fool_t *s = <const fool_t *>state
    return -1 if s.over else s.to_move


cdef int _legal(const void *state, uint16_t *out) noexcept nogil:
    # The legal cards ascending, a wild 1 once however many are held.
    cdef const fool_t *s = <const fool_t *>state
    cdef uint32_t m[WORDS]
    cdef uint32_t w
    cdef int c, k = 0
    if s.over:
        return 0
    _legal_masks(s, m)
    for c in range(4):
        w = m[c]
        while w:
            out[k] = COLOUR_OFFSET[c] + fool_ctz(w)
            k += 1
            w &= w - 1
    if m[WILD]:
        out[k] = W1
        k += 1
    return k


cdef bint _is_legal(const void *state, int a) noexcept nogil:
    cdef const fool_t *s = <const fool_t *>state
    cdef uint32_t m[WORDS]
    if s.over:
        return False
    _legal_masks(s, m)
    return (m[CARD_COLOUR[a]] >> CARD_BIT[a]) & 1


# ---------------------------------------------------------------------------------------
# The random player, as the kernel table's ``random_action`` and ``play_out`` slots play
# it.  A hand's coloured cards are kept as a sorted row of card kinds with their counts by
# colour packed one byte each: the legal cards are one run of the row (F6), so the
# random card is found by one index, and the play-out keeps every row from move to
# move, sorting afresh only after a deal.


cdef inline uint32_t _sort_hand(const uint32_t *h, uint8_t *row) noexcept nogil:
    # The coloured cards of hand ``h`` into ``row``, ascending (the order of the legal
    # actions); returns how many of each colour, packed one byte per colour (colour 0
    # lowest), so that one multiplication gives every running total.  The colour words
    # laid end to end are the card kinds' bits (COLOUR_OFFSET): two 64-bit walks.
    cdef int t = 0
    cdef uint64_t w = h[0] | (<uint64_t>h[1] << 26) | (<uint64_t>h[2] << 48)
    while w:
        row[t] = fool_ctz64(w)
        t += 1
        w &= w - 1
    w = (h[2] >> 16) | (<uint64_t>h[3] << 4)
    while w:
        row[t] = 64 + fool_ctz64(w)
        t += 1
        w &= w - 1
    return fool_colour_counts(h)


cdef inline int _pick(const uint8_t *row, uint32_t counts, uint32_t wild, int lead,
                      rng_t *player, uint32_t *at) noexcept nogil:
    # The random player's card, legal[bounded(count)], from a hand: its sorted coloured
    # cards ``row``, their packed counts, ``wild`` (1: it holds a wild 1); -1 if the
    # hand is empty.  By F6 the legal cards are the lead colour's if held (one run of
    # ``row``), else all of ``row``, then one wild 1.  Writes the card's index in ``row``.
    cdef uint32_t legal = counts & LEAD_BYTES[lead + 1]
    cdef uint32_t total, i
    if legal == 0:
        legal = counts
    total = (legal * <uint32_t>0x01010101) >> 24
    if total + wild == 0:
        return -1
    i = rng_bounded(player, total + wild)
    if i == total:
        return W1
    # the run starts after the cards of the colours below its first one
    at[0] = i + ((((counts * <uint32_t>0x01010101) << 8)
                  >> (fool_ctz(legal) & ~7)) & 0xFF)
    return row[at[0]]


cdef int _random_action(const void *state, rng_t *player) noexcept nogil:
    # legal[bounded(count)] from the hand's sorted cards, as the play-out draws it.
    cdef const fool_t *s = <const fool_t *>state
    cdef const uint32_t *h
    cdef uint8_t row[DECK_MAX]
    cdef uint32_t counts, at
    if s.over:
        return -1
    h = s.hand[s.to_move]
    counts = _sort_hand(h, row)
    return _pick(row, counts, h[WILD] & 1, s.lead, player, &at)


cdef inline void _take_out(uint8_t *row, uint32_t at, uint32_t length) noexcept nogil:
    # Remove row[at] from a row of ``length`` cards: what follows moves down one, by two
    # fixed 8-byte moves (the bytes past the end are spare) unless the tail is longer
    # (a set-up's long hand): no call, no loop.
    cdef uint64_t low, high
    if length - at <= SHIFT:
        memcpy(&low, &row[at + 1], 8)
        memcpy(&high, &row[at + 9], 8)
        memcpy(&row[at], &low, 8)
        memcpy(&row[at + 8], &high, 8)
    else:
        memmove(&row[at], &row[at + 1], length - at)


cdef Py_ssize_t _play_out(void *state, rng_t *player, hist_t *history) noexcept nogil:
    # The kernel's random play-out (_kernel.play_out's contract: the same draws as
    # _random_action at every move), a trick at a time, with every hand kept sorted and
    # counted by colour from move to move and sorted afresh only after a deal.  What
    # _play and _close_trick do, but with what the loop knows: whether the card is a
    # wild 1 (its own branch), whether a hand of the trick ran out (``ran_out``, from
    # the counts), the trick's highest and two lowest keys (so that closing it reads
    # three keys), and that nothing but the end of a round can end the game.  The seat
    # to act, the lead colour, the trick's length and size, the Fools and the leader
    # live in locals between the ends of rounds and are written back when the loop
    # stops.  It keeps no voids (F6), which the end of the game clears.  A hand that is
    # empty when its seat is to act (no set-up allows one) stops it, as it stops the
    # generic play-out.
    cdef fool_t *s = <fool_t *>state
    cdef rng_t local = player[0]        # in a local, the generator stays in registers
    cdef uint8_t rows[MAX_SEATS][ROW]
    cdef uint32_t counts[MAX_SEATS]
    cdef uint32_t at, after, playing
    cdef uint8_t *row
    cdef uint8_t leader, fools
    cdef Py_ssize_t played = 0
    cdef bint ran_out = False
    cdef int p, q, a, key, lead, length, size
    cdef int best = 0, lo1 = NO_KEY, lo2 = NO_KEY
    if s.over:
        return 0
    for p in range(s.n):
        counts[p] = _sort_hand(s.hand[p], rows[p])
    p = s.to_move
    lead = s.lead
    length = s.trick_len
    size = s.trick_size
    fools = s.fools
    leader = s.leader
    playing = _playing(s)
    for q in range(length):             # a trick under way: its cards so far
        ran_out |= _hand_empty(s.hand[s.trick_seat[q]])
        key = _trick_key(lead, s.trick_card[q], q, s.trick_seat[q])
        best = max(best, key)
        lo2 = min(lo2, max(lo1, key))
        lo1 = min(lo1, key)
    while True:
        row = rows[p]
        a = _pick(row, counts[p], s.hand[p][WILD] & 1, lead, &local, &at)
        if a < 0:
            break
        if history != NULL and hist_push(history, <uint16_t>a) < 0:
            played = -1
            break
        if a != W1:
            _take_out(row, at, (counts[p] * <uint32_t>0x01010101) >> 24)
            counts[p] -= CARD_COUNT[a]
            lead = _take(s.hand[p], a, lead, True)
        else:
            lead = _take(s.hand[p], a, lead, False)
        ran_out |= (counts[p] | s.hand[p][WILD]) == 0
        played += 1
        s.trick_seat[length] = p
        s.trick_card[length] = a
        key = _trick_key(lead, a, length, p)
        best = max(best, key)
        lo2 = min(lo2, max(lo1, key))
        lo1 = min(lo1, key)
        length += 1
        if length < size:               # F4: the next seat clockwise that is no Fool
            after = playing & (~(<uint32_t>1) << p)
            p = fool_ctz(after if after else playing)
            continue
        # F7-F10: the highest key wins and leads next; the lowest are the Fools.
        fools = _trick_result(best, lo1, lo2, s.nfools, &leader)
        if ran_out:
            s.leader = leader
            END_ROUND(s, fools)
            if s.over:
                break
            for q in range(s.n):        # a deal
                counts[q] = _sort_hand(s.hand[q], rows[q])
            leader = s.leader
            fools = 0
            size = s.n
        else:
            size = s.n - s.nfools
        p = leader
        playing = ~(<uint32_t>fools) & ((<uint32_t>1 << s.n) - 1)
        lead = -1
        length = 0
        best = 0
        lo1 = lo2 = NO_KEY
        ran_out = False
    if not s.over:      # stopped mid-way: the locals back into the position
        s.to_move = p
        s.lead = lead
        s.trick_len = length
        s.trick_size = size
        s.fools = fools
        s.leader = leader
    player[0] = local
    return played


cdef void _scores(const void *state, int64_t *out) noexcept nogil:
    # The running totals of the finished rounds (F11).
    cdef const fool_t *s = <const fool_t *>state
    cdef int p
    for p in range(s.n):
        out[p] = s.score[p]


cdef void _stats(const void *state, int64_t *out) noexcept nogil:
    # Fool.stat_names: how the game ended (Fool.end_reasons) and the rounds played.
    cdef const fool_t *s = <const fool_t *>state
    out[0] = s.end
    out[1] = s.round


cdef kernel_t KERNEL = kernel_t(
    name=b"fool", state_size=sizeof(fool_t), config_size=sizeof(fool_cfg_t),
    max_legal=NUM_ACTIONS, n_stats=2, check_config=_check_config, init=_init,
    num_players=_num_players, num_actions=_num_actions, current=_current, legal=_legal,
    is_legal=_is_legal, apply=_apply, random_action=_random_action, play_out=_play_out,
    scores=_scores, winners=_winners, stats=_stats, own_history=NULL,
    determinize=_determinize, observation_size=_observation_size, observe=_observe,
    heuristic=NULL)


def config(players, start_player, deck, fools):
    """Return the engine configuration of a Fool game (checked).

    Args:
        players: 4..8 seats.
        start_player: the seat that leads round 1.
        deck: ``(green, red, yellow, blue, wilds)``: the highest value of each colour
            (each keeps its values from 2) and the number of wild 1s (0..6); the deck
            must split evenly between the players.
        fools: Fool discs handed out per trick, 1 or 2 (at least three seats play a trick).

    Raises:
        ConfigurationError: not a configuration the engine can play (TypeError or
            OverflowError for values that are not small ints).
    """
    cdef fool_cfg_t cfg
    cdef int c
    if len(deck) != WORDS:
        raise ConfigurationError(f"deck must hold {WORDS} numbers, not {len(deck)}")
    memset(&cfg, 0, sizeof(cfg))
    cfg.n_players = players
    cfg.start_player = start_player
    cfg.nfools = fools
    for c in range(WORDS):
        cfg.deck[c] = deck[c]
    return EngineConfig(FoolState, (<char *>&cfg)[:sizeof(cfg)])


# ---------------------------------------------------------------------------------------
# The public state class: the shared methods come from EngineState.

@cython.final
@cython.no_gc      # holds only the (immutable) game, seed and configuration: no cycles
@cython.binding(False)
@cython.embedsignature.format("clinic")
cdef class FoolState(EngineState):
    """A position of Fool: every hand, the trick so far, the Fools, the running scores.

    Made by ``Fool.new_state(seed)`` or ``Fool.state_from_dict(data)``.

    >>> import boardcore
    >>> state = boardcore.make("fool", players=4).new_state(seed=7)
    >>> print(str(state).splitlines()[4])
    > seat 0 [12] G5 G6 G9 G14 R4 R7 R8 R13 Y5 Y9 B8 W1
    >>> state.apply(state.parse_action("R13"))
    >>> state.view(1).lead_colour, state.current_player
    ('red', 1)
    >>> twin = state.copy()
    >>> twin.rollout(seed=3) == state.copy().rollout(seed=3)
    True
    """

    cdef fool_t s

    def __cinit__(self):
        self._s = &self.s
        self._k = &KERNEL

    cdef dict _values(self, const void *position):
        # The snapshot's fields (boardcore.fool.FoolSnapshot): cards as their actions.
        cdef const fool_t *s = <const fool_t *>position
        cdef uint32_t played[WORDS]
        cdef int c, p, i, held = 0
        for c in range(WILD):           # the deck minus every hand (wild 1s by count)
            played[c] = s.deck_mask[c]
            for p in range(s.n):
                played[c] &= ~s.hand[p][c]
        for p in range(s.n):
            held += fool_popcount(s.hand[p][WILD])
        played[WILD] = s.deck_mask[WILD] >> held
        return {
            "round": s.round,
            "dealer": s.dealer,
            "leader": s.leader,
            "lead": s.lead,
            "fools": tuple([p for p in range(s.n) if (s.fools >> p) & 1]),
            "voids": tuple([(s.voids >> (4 * p)) & 15 for p in range(s.n)]),
            "trick": tuple([(s.trick_seat[i], s.trick_card[i]) for i in range(s.trick_len)]),
            "hands": tuple([_cards(s.hand[p]) for p in range(s.n)]),
            "played": _cards(played),
            "plus10": tuple([s.plus10[p] for p in range(s.n)]),
            "rng": tuple([s.rng.s[i] for i in range(4)]),
        }

    cdef int _fill(self, const void *config, dict values) except -1:
        # ``values``: the checked fields of boardcore.fool.positions.
        return _fill(&self.s, <const fool_cfg_t *>config, values)


# ---------------------------------------------------------------------------------------
# Card lists, set-up positions, the trick kernel.

cdef tuple _cards(const uint32_t *h):
    # The cards of a hand-shaped bitset as their actions, ascending; W1 once per wild 1.
    cdef int c
    cdef uint32_t w
    cdef list out = []
    for c in range(4):
        w = h[c]
        while w:
            out.append(COLOUR_OFFSET[c] + fool_ctz(w))
            w &= w - 1
    return tuple(out + [W1] * fool_popcount(h[WILD]))


cdef bint _ints(object values, object lo, object hi):
    # Whether ``values`` is a list of ints in lo..hi.
    if type(values) is not list:
        return False
    for v in values:
        if type(v) is not int or not lo <= v <= hi:
            return False
    return True


cdef int _fill(fool_t *s, const fool_cfg_t *cfg, dict f) except -1:
    # A set-up position from checked fields; only what could overrun the struct or keep
    # the seat-order walk from ending (every seat a Fool) is checked again here.  The
    # end, the lead colour and the seat to act follow from the rules (F4, F5, F12).
    cdef int n = cfg.n_players, p, i, a, q, wilds = 0
    hands, trick, fools, rng = f["hands"], f["trick"], f["fools"], f["rng"]
    voids = f.get("voids", [0] * n)
    if not (_ints([f["round"]], 1, ROUND_MAX) and _ints([f["dealer"], f["leader"]], 0, n - 1)
            and _ints(voids, 0, 15) and len(voids) == n
            and _ints(fools, 0, n - 1) and len(fools) <= cfg.nfools
            and _ints(f["scores"], -SCORE_MAX, SCORE_MAX) and len(f["scores"]) == n
            and _ints(f["plus10"], 0, 6) and len(f["plus10"]) == n
            and _ints(rng, 0, 2**64 - 1) and len(rng) == 4 and any(rng)
            and type(hands) is list and len(hands) == n
            and all([_ints(h, 0, NUM_ACTIONS - 1) for h in hands])
            and type(trick) is list and len(trick) < n - len(fools)
            and all([_ints(e, 0, NUM_ACTIONS - 1) and len(e) == 2 and e[0] < n for e in trick])):
        raise InvalidStateError("a Fool position does not fit: sizes or values out of range")
    _prototype(s, cfg)
    s.round = f["round"]
    s.dealer = f["dealer"]
    s.leader = f["leader"]
    for p in range(n):
        s.score[p] = f["scores"][p]
        s.plus10[p] = f["plus10"][p]
        for a in hands[p]:
            if a == W1:
                s.hand[p][WILD] = (s.hand[p][WILD] << 1) | 1
                wilds += 1
            else:
                s.hand[p][CARD_COLOUR[a]] |= (<uint32_t>1) << CARD_BIT[a]
    for p in fools:
        s.fools |= 1 << p
    for p in range(n):
        s.voids |= (<uint32_t>voids[p]) << (4 * p)
    s.trick_size = n - fool_popcount(s.fools)
    s.lead = -1
    q = s.leader
    for i in range(len(trick)):
        a = trick[i][1]
        wilds += a == W1
        if a != W1:
            if s.lead < 0:
                s.lead = CARD_COLOUR[a]
            elif CARD_COLOUR[a] != s.lead:        # F6: the trick shows a void
                s.voids |= (<uint32_t>1) << (4 * trick[i][0] + s.lead)
        s.trick_seat[i] = trick[i][0]
        s.trick_card[i] = a
        q = (q + 1) % n
        while (s.fools >> q) & 1:
            q = (q + 1) % n
    s.trick_len = len(trick)
    if wilds > cfg.deck[WILD]:
        raise InvalidStateError("a Fool position does not fit: more wild 1s than the deck")
    for i in range(4):
        s.rng.s[i] = rng[i]
    minus = any([x <= -80 for x in f["scores"]])
    six = any([x >= 6 for x in f["plus10"]])
    if minus or six:
        s.over = 1
        s.end = END_BOTH if minus and six else (END_MINUS_80 if minus else END_SIX_PLUS_10)
        s.to_move = NO_SEAT
        s.voids = 0
    else:
        s.to_move = q
    return 0


def _trick_kernel(const uint8_t[:, ::1] seats not None, const uint8_t[:, ::1] cards not None,
                  const int8_t[::1] leads not None, const uint8_t[::1] lengths not None,
                  int nfools, Py_ssize_t repeat=1):
    """Resolve prepared tricks in compiled code: ``(winners, fools)`` arrays.

    Row ``i`` is a trick of ``lengths[i]`` cards (action ids) played by ``seats[i]`` with
    lead colour ``leads[i]`` (-1: only wild 1s).  ``repeat`` resolves the whole batch
    that many times (for the kernel benchmark); the result is the same.
    """
    cdef Py_ssize_t n, i, r
    # Private copies, checked and then read without the GIL: the caller's arrays could be
    # rewritten by another thread between the checks and the loop.
    seats, cards = np.array(seats, copy=True), np.array(cards, copy=True)
    leads, lengths = np.array(leads, copy=True), np.array(lengths, copy=True)
    n = seats.shape[0]
    if cards.shape[0] != n or leads.shape[0] != n or lengths.shape[0] != n:
        raise ConfigurationError("seats, cards, leads and lengths must have one row per trick")
    if seats.shape[1] < MAX_SEATS or cards.shape[1] < MAX_SEATS:
        raise ConfigurationError(f"seats and cards need {MAX_SEATS} columns")
    if nfools not in (1, 2):
        raise ConfigurationError(f"nfools must be 1 or 2, not {nfools!r}")
    for i in range(n):
        if not 2 < lengths[i] <= MAX_SEATS or not -1 <= leads[i] < 4:
            raise ConfigurationError(
                f"trick {i} has length {lengths[i]} or lead {leads[i]} out of range")
        for r in range(lengths[i]):
            if cards[i, r] >= NUM_ACTIONS or seats[i, r] >= MAX_SEATS:
                raise ConfigurationError(f"trick {i} has a card or seat out of range")
    winners = np.zeros(n, dtype=np.uint8)
    fools = np.zeros(n, dtype=np.uint8)
    cdef uint8_t[::1] w = winners, f = fools
    cdef uint8_t win
    cdef Py_ssize_t _again
    with nogil:
        for _again in range(repeat):
            for i in range(n):
                f[i] = _trick_fools(&seats[i, 0], &cards[i, 0], lengths[i], leads[i],
                                    nfools, &win)
                w[i] = win
    return winners, fools


# What one seat knows: the determinize and observe slots of KERNEL, in their own file.
include "fool_seat.pxi"
