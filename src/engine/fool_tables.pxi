# Fool's tables, built once at import (included in ``fool.pyx`` after its constants):
# what each card is, the weights of the determinization, the random player's and the
# trick kernel's and the scoring's lookups.

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
