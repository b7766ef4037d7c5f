"""3 Or More: the compiled position (rules: ``boardcore rules three_or_more``).

The whole position is one C struct (``tom_t``, its history included); ``copy()`` is a
struct copy.

Table geometry (docs/games/three_or_more.md).  A fixed table of 7 card rows x 23 card
columns, the starting card at card row 3, column 11; card row ``R`` covers square rows
``3R .. 3R+2``, so squares are ``(row, col)`` with ``row`` in 0..20, ``col`` in 0..22.

Bit layout.  The bitboards only cover the block laid so far, which is never more than
12 x 12 squares: ``plane[k][y]`` is a 16-bit row of colour ``k`` (0 R, 1 G, 2 B, 3 Y)
where table square (row, col) is bit ``col - lo + 1`` of
``plane[k][row - 3 * top + 1]`` (``lo``: row 1's leftmost card column, ``top``: the
block's top card row).  Laying at the left end of row 1 shifts every row one bit up;
starting a row above the block shifts the rows three down.  Row 0, row 13, bit 0 and
bits 13.. are always zero, so every walk along a line stops at the padding without a
bounds check.

Cards are 6-bit codes ``top * 16 + middle * 4 + bottom``.  An action is
``(place * turns + turned) * 64 + card`` where ``card`` is the card as held,
``turned`` is 1 when it is laid upside down (only with ``allow_rotation``; ``turns``
is 2 then, else 1), and ``place`` is 0 (the next square of the open row), 1 left,
2 right (row 1), 3 top-left, 4 top-right, 5 bottom-left, 6 bottom-right (the first
card of rows 2-4).

>>> from boardcore.three_or_more import ThreeOrMore
>>> state = ThreeOrMore(players=2).new_state(seed=7)
>>> state.action_to_str(1 * 64 + 1)     # place 1 (left), card 1 (R R G)
'RRG@left'
>>> twin = state.copy()
>>> twin.rollout(seed=1).scores, state.is_over()
((91, 69), False)
"""

cimport cython
from libc.stdint cimport int8_t, int16_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from _history cimport hist_t
from _kernel cimport kernel_t, play_out
from _rng cimport STREAM_GAME, derive_seed, rng_bounded, rng_seed, rng_shuffle_u8, rng_t

from boardcore._engine._state cimport EngineConfig, EngineState

from boardcore.errors import ConfigurationError, InvalidStateError
from boardcore.values import quote

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline int tom_ctz32(unsigned int v) {
        unsigned long i; _BitScanForward(&i, v); return (int)i;
    }
    static __inline int tom_msb32(unsigned int v) {
        unsigned long i; _BitScanReverse(&i, v); return (int)i;
    }
    #else
    static inline int tom_ctz32(unsigned int v) { return __builtin_ctz(v); }
    static inline int tom_msb32(unsigned int v) { return 31 - __builtin_clz(v); }
    #endif
    """
    int tom_ctz32(uint32_t v) noexcept nogil
    int tom_msb32(uint32_t v) noexcept nogil

# The table's numbers the Python half reads too (module attributes: one source).
cpdef enum:
    TABLE_ROWS = 7      # card rows of the table (3 square rows each)
    TABLE_COLS = 23     # card columns of the table
    ROW1 = 3            # card row of row 1
    START_COL = 11      # card column of the starting card

cdef enum:
    DECK = 48
    HAND = 3
    ROW_CARDS = 12
    MAX_SEATS = 4
    NY = 14             # square rows of a plane: 12 plus a padding row at each end
    MAX_LINES = 12      # a card touches at most 11 lines (3 horizontal, 2 vertical, 6 diagonal)
    MAX_LEGAL = 24      # 4 places x 2 forms x 3 cards

cdef enum:
    P_NEXT = 0
    P_LEFT = 1
    P_RIGHT = 2
    P_TOP_LEFT = 3
    P_TOP_RIGHT = 4
    P_BOTTOM_LEFT = 5
    P_BOTTOM_RIGHT = 6
    NUM_PLACES = 7

ctypedef struct lines_t:
    # The lines one card scored, each from its top (left) end, in plane coordinates.
    int n
    uint8_t dir[MAX_LINES]
    uint8_t y[MAX_LINES]
    uint8_t x[MAX_LINES]
    uint8_t len[MAX_LINES]


# Kept to 256 bytes (exactly, with ``start``; one more byte would pad it to 258): the
# history is one byte per move, and the state's generator is not kept: it only shuffles
# at setup (T4), so its state afterwards is a function of the seed (``_setup_rng``).
ctypedef struct tom_t:
    uint16_t plane[4][NY]
    uint8_t deck[DECK]          # the shuffled deck; the stock is deck[next_draw:]
    uint8_t hand[MAX_SEATS][HAND]   # sorted ascending by card code
    uint8_t hand_n[MAX_SEATS]
    int16_t score[MAX_SEATS]  # at most 47 cards x 192 points (all one colour): fits
    uint8_t hist[DECK - 1]      # move m: card | turned << 6 | (1 if placed right) << 7
    uint8_t corners             # bits 2i..2i+1: the corner (place - 3) that began row i + 2
    uint8_t players
    uint8_t turns               # 1, or 2 with allow_rotation
    int8_t current              # seat to act, -1 once over
    uint8_t next_draw
    uint8_t laid                # cards on the table, the starting card included
    uint8_t start               # cards on the table where play began (1, or a set-up's)
    uint8_t lo, hi              # card columns of row 1's two ends
    uint8_t top, bottom         # card rows at the top and bottom of the block
    uint8_t open_row, open_next  # the open row (rows 2-4) and the column of its next card
    int8_t open_dir             # +1: the open row runs right, -1: left
    int8_t last_player          # -1 before the first move
    uint8_t last_row, last_col  # table card slot of the last card laid
    uint8_t last_shown          # the last card as it lies (turned if it was)
    int16_t last_points
    uint16_t lines              # lines scored so far (simulate's ``lines``)
    int16_t best                # the most points one card scored (``best_move``)

ctypedef struct tom_cfg_t:
    uint8_t players
    uint8_t start_player
    uint8_t turns               # 1, or 2 with allow_rotation
    uint8_t deck[DECK]          # card codes, before the shuffle


#: Size of the whole position in bytes (kept <= 256, see tom_t).
STATE_BYTES = sizeof(tom_t)


# --------------------------------------------------------------------------- kernels

cdef inline int _reverse(int card) noexcept nogil:
    # The card turned upside down: top and bottom swap.
    return ((card & 3) << 4) | (card & 12) | (card >> 4)


# A line's worth, indexed by its length (0..NY): its points | 1 << 16 when it is a line
# (3 squares or more), else 0.  Summed over a card's candidate runs, the low half is
# the card's points and the high half how many lines it scored, with no test per run.
# Row 0 straight, row 1 diagonal (2 points a square, T11).  Filled at import.
cdef uint32_t WORTH[2][NY + 2]
for _n in range(3, NY + 2):
    WORTH[0][_n] = _n | 1 << 16
    WORTH[1][_n] = 2 * _n | 1 << 16

# Both diagonal lines through a square, from what lies one and two steps along each of
# their four halves (10 bits: _square's ``around``): their worth, or FAR where a half
# goes on past two squares of the colour (it must be walked).  Filled at import.
cdef enum:
    FAR = 1 << 30       # above any worth
cdef uint32_t DIAG[1024]


cdef void _fill_diag() noexcept:
    cdef int i, up_left, up_right, down_left, down_right
    for i in range(1024):
        up_left, up_right = (i >> 1) & 1, (i >> 3) & 1
        down_left, down_right = (i >> 6) & 1, (i >> 8) & 1
        if up_left & i | up_right & (i >> 4) | down_left & (i >> 5) | down_right & (i >> 9):
            DIAG[i] = FAR
        else:
            DIAG[i] = WORTH[1][1 + up_left + down_right] + WORTH[1][1 + up_right + down_left]


_fill_diag()


cdef inline uint32_t _line(lines_t *out, int d, int y, int x, int n) noexcept nogil:
    # A run of n squares from (y, x) in direction d: its worth (WORTH); recorded in
    # ``out`` when it is a line and ``out`` is given.  In play ``out`` is NULL and
    # nothing is stored, so no store can force the compiler to reload the planes.
    cdef int i
    if out != NULL and n >= 3:
        i = out.n
        out.dir[i] = <uint8_t>d
        out.y[i] = <uint8_t>y
        out.x[i] = <uint8_t>x
        out.len[i] = <uint8_t>n
        out.n = i + 1
    return WORTH[d >= 2][n]


cdef inline int _reach(const uint16_t *p, int y, int x, int dy, int dx) noexcept nogil:
    # How many squares past (y, x) in direction (dy, dx) carry on the run.  A step only
    # goes past a set bit, which is inside the block, so the walk stops at the empty
    # padding at the latest.
    cdef int t = 1
    while (p[y + t * dy] >> (x + t * dx)) & 1:
        t += 1
    return t - 1


cdef inline uint64_t _window(uint64_t rows, int x) noexcept nogil:
    # Columns x - 2 .. x + 2 of a plane row as bits 0..4 (column -1 reads as empty); of
    # each 16-bit lane alike when ``rows`` holds several (_load4), whose bits 5..15 are
    # then left over from the lane above and read by no one.
    return (rows << 2) >> x


cdef inline uint64_t _load4(const uint16_t *first) noexcept nogil:
    # Four plane rows from ``first`` down as the 16-bit lanes of one word: one load.
    cdef uint16_t r[4]
    memcpy(r, first, sizeof(r))
    return r[0] | <uint64_t>r[1] << 16 | <uint64_t>r[2] << 32 | <uint64_t>r[3] << 48


cdef inline int _two(uint32_t near, uint32_t far) noexcept nogil:
    # The first two steps of a run (near, far: 0 or 1): how many squares carry it on.
    return near + (near & far)


cdef uint32_t _diagonals(const uint16_t *p, int y, int x, uint32_t a2, uint64_t rows,
                         lines_t *out) noexcept nogil:
    # The worth of both diagonal lines through square row y, bit x of plane ``p``, where
    # one of their four halves goes on past two squares, or to record them (a2, rows: see
    # _square): the first two steps of each half from the windows, the rest walked.
    cdef uint32_t a1 = <uint32_t>rows, b1 = <uint32_t>(rows >> 32), b2 = <uint32_t>(rows >> 48)
    cdef uint32_t acc
    cdef int up, down
    up = _two((a1 >> 1) & 1, a2 & 1)            # falling (\)
    if up == 2:
        up += _reach(p, y - 2, x - 2, -1, -1)
    down = _two((b1 >> 3) & 1, (b2 >> 4) & 1)
    if down == 2:
        down += _reach(p, y + 2, x + 2, 1, 1)
    acc = _line(out, 2, y - up, x - up, 1 + up + down)
    up = _two((a1 >> 3) & 1, (a2 >> 4) & 1)     # rising (/), from its top-right end
    if up == 2:
        up += _reach(p, y - 2, x + 2, -1, 1)
    down = _two((b1 >> 1) & 1, b2 & 1)
    if down == 2:
        down += _reach(p, y + 2, x - 2, 1, -1)
    return acc + _line(out, 3, y - up, x + up, 1 + up + down)


cdef inline uint32_t _square(const uint16_t *p, int y, int x, uint32_t a2, uint64_t rows,
                             uint32_t vertical, lines_t *out) noexcept nogil:
    # The worth of the lines through square row y, bit x of plane ``p`` of a card just
    # laid; ``vertical``: see _score.  ``a2``: the plane's row y - 2 as a _window (bit i
    # is column x - 2 + i); ``rows``: its rows y - 1 .. y + 2 likewise in the lanes of
    # one word, so bits 0..4 hold row y - 1, bits 32..36 row y + 1, bits 48..52 row y + 2.
    #
    # Without branches on what lies around, which is random: a branch on it would be
    # mispredicted about as often as a neighbour matches (1 in 10 per direction).  The
    # horizontal run is two bit scans; the diagonals are one look-up in DIAG, but where a
    # half goes on past two squares (under 2 % of halves) or the lines are to be
    # recorded: then _diagonals walks them.
    cdef uint32_t w = p[y], acc, diag
    cdef int x0 = tom_msb32(~w & ((<uint32_t>1 << x) - 1)) + 1
    acc = _line(out, 0, y, x0, x - x0 + tom_ctz32(~(w >> x)))
    acc += _line(out, 1, y - <int>(vertical >> 8), x, vertical & 255)
    # around: bits 0, 1 (up-left two steps, one step), 3, 4 (up-right one, two), 5, 6
    # (down-left two, one), 8, 9 (down-right one, two); see DIAG
    diag = DIAG[(rows & 10) | (a2 & 17) | ((rows >> 27) & 320) | ((rows >> 43) & 544)]
    if out != NULL or diag & FAR:
        return acc + _diagonals(p, y, x, a2, rows, out)
    return acc + diag


cdef uint32_t _score(const tom_t *s, int y, int x, int shown,
                     lines_t *out) noexcept nogil:
    # T10-T11: every maximal run of >= 3 same-coloured squares through one of the three
    # squares just laid at plane rows y..y+2, bit x, each once, at its full length;
    # diagonals x2.  The card's squares share one column, so horizontal and diagonal
    # lines through different squares are different lines; a vertical line is counted
    # at the topmost of the card's squares it contains.  Returns the points | the number
    # of lines << 16 (WORTH); the lines themselves go to ``out`` unless it is NULL.
    #
    # Down the card, equal neighbours (e01, e12) make one run; only the top square's can
    # reach above the card (``up``), only the bottom one's below (``down``).  So each is
    # a sum, not a branch, given to _square as length | squares above << 8 (0 for a
    # square that continues the run above it); the squares are written out to fold.
    #
    # Each square reads its plane's rows two above to two below it.  The rows two past
    # the card are outside the plane at the block's top (y = 1) and bottom (y + 4 = NY):
    # there the padding row next to them, empty too, stands in (a step two away is only
    # taken past a set square), chosen by arithmetic, not a branch (y is random).  The
    # bottom square's four rows from two above it are one load inside the plane.
    cdef const uint16_t *p0 = s.plane[shown >> 4]
    cdef const uint16_t *p1 = s.plane[(shown >> 2) & 3]
    cdef const uint16_t *p2 = s.plane[shown & 3]
    cdef int e01 = p0 == p1, e12 = p1 == p2
    cdef uint64_t r0 = _window(_load4(p0 + y - 1), x), r1 = _window(_load4(p1 + y), x)
    cdef uint64_t low = _load4(p2 + y)
    cdef uint64_t r2 = _window((low >> 16) | <uint64_t>p2[y + 4 - (y + 4 == NY)] << 48, x)
    cdef uint32_t a0 = <uint32_t>_window(p0[y - 2 + (y == 1)], x), acc
    cdef int up = _two((r0 >> 2) & 1, (a0 >> 2) & 1)
    cdef int down = _two((r2 >> 34) & 1, (r2 >> 50) & 1)
    if up == 2:
        up += _reach(p0, y - 2, x, -1, 0)
    if down == 2:
        down += _reach(p2, y + 4, x, 1, 0)
    if out != NULL:
        out.n = 0
    acc = _square(p0, y, x, a0, r0,
                  (<uint32_t>up << 8) | (1 + up + e01 + (e01 & e12) * (1 + down)), out)
    acc += _square(p1, y + 1, x, <uint32_t>_window(p1[y - 1], x), r1,
                   (1 - e01) * (1 + e12 * (1 + down)), out)
    acc += _square(p2, y + 2, x, <uint32_t>_window(low & 0xFFFF, x), r2,
                   (1 - e12) * (1 + down), out)
    return acc


cdef inline void _put(tom_t *s, int y, int x, int shown) noexcept nogil:
    # The card's three squares into their colours' planes at rows y..y+2, bit x.
    cdef uint16_t bit = <uint16_t>(1 << x)
    s.plane[shown >> 4][y] |= bit
    s.plane[(shown >> 2) & 3][y + 1] |= bit
    s.plane[shown & 3][y + 2] |= bit


cdef inline int _plane_y(const tom_t *s, int row) noexcept nogil:
    # Plane row of the top square of table card row ``row``.
    return 1 + 3 * (row - s.top)


cdef inline int _plane_x(const tom_t *s, int col) noexcept nogil:
    # Plane bit of table card column ``col``.
    return 1 + col - s.lo


cdef inline void _insert_card(tom_t *s, int seat, int card) noexcept nogil:
    # Keep the hand sorted ascending by card code.
    cdef int j = s.hand_n[seat]
    while j > 0 and s.hand[seat][j - 1] > card:
        s.hand[seat][j] = s.hand[seat][j - 1]
        j -= 1
    s.hand[seat][j] = <uint8_t>card
    s.hand_n[seat] += 1


@cython.cdivision(True)     # non-negative operands: C and Python division agree
cdef int _hist_action(const tom_t *s, int m) noexcept nogil:
    # The action of move m (0-based) from its history byte; move m laid card m + 2, so
    # the phase tells which kind of place it named.
    cdef int b = s.hist[m], laid = m + 1, place
    if laid < ROW_CARDS:
        place = P_LEFT + (b >> 7)
    elif laid % ROW_CARDS == 0:
        place = P_TOP_LEFT + ((s.corners >> (2 * (laid // ROW_CARDS - 1))) & 3)
    else:
        place = P_NEXT
    return (place * s.turns + ((b >> 6) & 1)) * 64 + (b & 63)


cdef void _init(void *state, const void *config, uint64_t seed) noexcept nogil:
    # T4: shuffle, deal 3 cards to each seat (seat 0 takes the first three, seat 1 the
    # next three, ...), then the next card starts row 1.
    cdef tom_t *s = <tom_t *>state
    cdef const tom_cfg_t *cfg = <const tom_cfg_t *>config
    cdef int seat, j, _card
    cdef rng_t rng
    memset(s, 0, sizeof(tom_t))
    for j in range(DECK):
        s.deck[j] = cfg.deck[j]
    rng_seed(&rng, seed)
    rng_shuffle_u8(&rng, s.deck, DECK)
    s.players = cfg.players
    s.turns = cfg.turns
    for seat in range(s.players):
        for _card in range(HAND):
            _insert_card(s, seat, s.deck[s.next_draw])
            s.next_draw += 1
    s.lo = s.hi = START_COL
    s.top = s.bottom = ROW1
    _put(s, 1, 1, s.deck[s.next_draw])
    s.next_draw += 1
    s.laid = 1
    s.start = 1
    s.current = <int8_t>cfg.start_player
    s.last_player = -1


@cython.cdivision(True)     # non-negative operands: C and Python modulo agree
cdef inline int _phase(const tom_t *s) noexcept nogil:
    # Which places are open: 1 row 1 (T6), 2 a corner (T7), 0 the open row's next square.
    if s.laid < ROW_CARDS:
        return 1
    if s.laid % ROW_CARDS == 0:
        return 2
    return 0


cdef inline int _places(const tom_t *s, int *first) noexcept nogil:
    # The open places (T6, T7): the first one and how many there are, in action order.
    cdef int phase = _phase(s)
    first[0] = P_LEFT if phase == 1 else P_TOP_LEFT if phase == 2 else P_NEXT
    return 2 if phase == 1 else 4 if phase == 2 else 1


cdef inline int _forms(const tom_t *s, int seat, uint8_t *forms) noexcept nogil:
    # What every open place offers alike, in action order (an action is ``place * turns
    # * 64`` plus one): each distinct card as held, then with allow_rotation ``64 +`` each
    # one that reads differently turned (T3).  Equal cards are neighbours: hands are sorted.
    cdef const uint8_t *hand = s.hand[seat]
    cdef int n = 0, turned, j, card
    for turned in range(s.turns):
        for j in range(s.hand_n[seat]):     # written always, kept by a count: no branch
            card = hand[j]
            forms[n] = <uint8_t>(turned * 64 + card)
            n += ((j == 0 or card != hand[j - 1])
                  and not (turned and _reverse(card) == card))
    return n


cdef int _legal(const void *state, uint16_t *out) noexcept nogil:
    # Ascending: place, then turned, then card code.
    cdef const tom_t *s = <const tom_t *>state
    cdef uint8_t forms[2 * HAND]
    cdef int n = 0, first, places, place, m, j
    if s.current < 0:
        return 0
    places = _places(s, &first)
    m = _forms(s, s.current, forms)
    for place in range(first, first + places):
        for j in range(m):
            out[n] = <uint16_t>(place * s.turns * 64 + forms[j])
            n += 1
    return n


cdef bint _is_legal(const void *state, int action) noexcept nogil:
    cdef const tom_t *s = <const tom_t *>state
    cdef int card = action & 63, rest = action >> 6, turned = 0, place, first, places, j
    if s.current < 0:
        return False
    if s.turns == 2:
        turned = rest & 1
        rest >>= 1
    place = rest
    if turned and _reverse(card) == card:
        return False
    places = _places(s, &first)
    if not first <= place < first + places:
        return False
    for j in range(s.hand_n[s.current]):
        if s.hand[s.current][j] == card:
            return True
    return False


@cython.cdivision(True)     # non-negative operands: C and Python modulo agree
cdef inline void _apply(void *state, int action) noexcept nogil:
    # T8: lay one card from hand, score it, draw back up to 3 while the stock lasts.
    cdef tom_t *s = <tom_t *>state
    cdef int card = action & 63, rest = action >> 6, turned = 0, place, shown
    cdef int seat = s.current, j, k, y, row, col, pts, drawn, a, b
    cdef uint32_t worth
    cdef uint8_t *hand = s.hand[seat]
    if s.turns == 2:
        turned = rest & 1
        rest >>= 1
    place = rest
    shown = _reverse(card) if turned else card     # T3
    j = (hand[0] != card) + ((hand[0] != card) & (hand[1] != card))    # its first slot
    # The card leaves the hand; while the stock lasts one is drawn (T8).  A full hand
    # (always, but in a set-up position) keeps cards a <= b besides slot j, and the
    # drawn card goes before, between or after them: a min and a max, no branch.
    if s.next_draw < DECK and s.hand_n[seat] == HAND:
        drawn = s.deck[s.next_draw]
        s.next_draw += 1
        a = hand[j == 0]
        b = hand[2 - (j == 2)]
        hand[0] = <uint8_t>(drawn if drawn < a else a)
        hand[2] = <uint8_t>(drawn if drawn > b else b)
        hand[1] = <uint8_t>(a + b + drawn - hand[0] - hand[2])
    else:
        s.hand_n[seat] -= 1
        if j < s.hand_n[seat]:          # at most two cards move: no loop (nor memmove)
            hand[j] = hand[j + 1]
            if j + 1 < s.hand_n[seat]:
                hand[j + 1] = hand[j + 2]
        if s.next_draw < DECK:
            _insert_card(s, seat, s.deck[s.next_draw])
            s.next_draw += 1
    if place == P_NEXT:                 # T7: the next column, away from the corner
        row = s.open_row
        col = s.open_next
        s.open_next = <uint8_t>(col + s.open_dir)
    elif place == P_LEFT:               # T6
        s.lo -= 1
        row, col = ROW1, s.lo
        for k in range(4):              # keep the block's left column at bit 1
            for y in range(1, 4):
                s.plane[k][y] <<= 1
    elif place == P_RIGHT:
        s.hi += 1
        row, col = ROW1, s.hi
    else:                               # T7: a corner of the block starts the next row
        if place <= P_TOP_RIGHT:
            s.top -= 1
            row = s.top
            for k in range(4):          # keep the block's top square row at plane row 1
                for y in range(NY - 2, 3, -1):
                    s.plane[k][y] = s.plane[k][y - 3]
                s.plane[k][1] = s.plane[k][2] = s.plane[k][3] = 0
        else:
            s.bottom += 1
            row = s.bottom
        if place == P_TOP_LEFT or place == P_BOTTOM_LEFT:
            col = s.lo
            s.open_dir = 1
        else:
            col = s.hi
            s.open_dir = -1
        s.open_row = <uint8_t>row
        s.open_next = <uint8_t>(col + s.open_dir)
    y = _plane_y(s, row)
    _put(s, y, _plane_x(s, col), shown)
    worth = _score(s, y, _plane_x(s, col), shown, NULL)
    pts = worth & 0xFFFF
    s.score[seat] += pts
    s.last_points = pts
    s.lines += <uint16_t>(worth >> 16)
    if pts > s.best:
        s.best = <int16_t>pts
    s.last_row = <uint8_t>row
    s.last_col = <uint8_t>col
    s.last_shown = <uint8_t>shown
    s.last_player = <int8_t>seat
    s.hist[s.laid - 1] = <uint8_t>(card | (turned << 6) | ((place == P_RIGHT) << 7))
    if place >= P_TOP_LEFT:
        s.corners |= <uint8_t>((place - P_TOP_LEFT) << (2 * (s.laid // ROW_CARDS - 1)))
    s.laid += 1
    if s.laid == DECK:                  # T9
        s.current = -1
    else:
        s.current = <int8_t>(seat + 1 if seat + 1 < s.players else 0)


# --------------------------------------------------- the kernel table (_kernel.pxd)

cdef int _check_config(const void *config) noexcept nogil:
    cdef const tom_cfg_t *cfg = <const tom_cfg_t *>config
    cdef int i
    if not 2 <= cfg.players <= MAX_SEATS or cfg.start_player >= cfg.players:
        return -1
    if cfg.turns != 1 and cfg.turns != 2:
        return -1
    for i in range(DECK):
        if cfg.deck[i] >= 64:
            return -1
    return 0


cdef int _num_players(const void *state) noexcept nogil:
    return (<const tom_t *>state).players


cdef int _num_actions(const void *state) noexcept nogil:
    return NUM_PLACES * 64 * (<const tom_t *>state).turns


cdef int _current(const void *state) noexcept nogil:
    return (<const tom_t *>state).current


cdef inline int _random_action(const void *state, rng_t *player) noexcept nogil:
    # legal[bounded(count)] without writing the list: every open place offers the same
    # forms, so the draw names a place and a form.
    # Without rotation (turns 1) the forms are the distinct cards of the sorted hand, so
    # form i is card i, or card i + 1 past an equal first pair: no list is written.
    cdef const tom_t *s = <const tom_t *>state
    cdef const uint8_t *hand
    cdef uint8_t forms[2 * HAND]
    cdef int first, places, m, i, n
    if s.current < 0:
        return -1
    places = _places(s, &first)
    hand = s.hand[s.current]
    n = s.hand_n[s.current]
    if s.turns == 1:
        m = (n > 0) + ((n > 1) & (hand[1] != hand[0])) + ((n > 2) & (hand[2] != hand[1]))
    else:
        m = _forms(s, s.current, forms)
    if m == 0:
        return -1       # no legal action (pick's answer too); only a set-up can get here
    i = rng_bounded(player, <uint32_t>(places * m))
    while i >= m:
        i -= m
        first += 1
    if s.turns == 1:
        return first * 64 + hand[i + ((i != 0) & (hand[1] == hand[0]))]
    return first * s.turns * 64 + forms[i]


cdef Py_ssize_t _play_out(void *state, rng_t *player, hist_t *history) noexcept nogil:
    return play_out(state, player, history, _random_action, _apply)


cdef void _scores(const void *state, int64_t *out) noexcept nogil:
    cdef const tom_t *s = <const tom_t *>state
    cdef int p
    for p in range(s.players):
        out[p] = s.score[p]


cdef void _winners(const void *state, uint8_t *out) noexcept nogil:
    # T12: the highest total; tied leaders share.
    cdef const tom_t *s = <const tom_t *>state
    cdef int p, best = s.score[0]
    for p in range(1, s.players):
        if s.score[p] > best:
            best = s.score[p]
    for p in range(s.players):
        out[p] = s.score[p] == best


cdef void _stats(const void *state, int64_t *out) noexcept nogil:
    cdef const tom_t *s = <const tom_t *>state
    out[0] = s.lines        # ThreeOrMore.stat_names
    out[1] = s.best


cdef Py_ssize_t _own_history(const void *state, uint16_t *out) noexcept nogil:
    # One byte a move in the position, so a copy is one struct copy.  Move m laid card
    # m + 2; play began with ``start`` cards down, so its first move is m = start - 1.
    cdef const tom_t *s = <const tom_t *>state
    cdef int m, first = s.start - 1
    for m in range(first, s.laid - 1):
        out[m - first] = <uint16_t>_hist_action(s, m)
    return s.laid - 1 - first


cdef kernel_t KERNEL = kernel_t(
    name=b"three_or_more", state_size=sizeof(tom_t), config_size=sizeof(tom_cfg_t),
    max_legal=MAX_LEGAL, n_stats=2, check_config=_check_config, init=_init,
    num_players=_num_players, num_actions=_num_actions, current=_current, legal=_legal,
    is_legal=_is_legal, apply=_apply, random_action=_random_action, play_out=_play_out,
    scores=_scores, winners=_winners, stats=_stats, own_history=_own_history,
    determinize=_determinize, observation_size=_observation_size, observe=_observe,
    heuristic=NULL)


def config(players, start_player, allow_rotation, deck):
    """Return the engine configuration of a 3 Or More game (checked).

    Args:
        players: 2..4 seats.
        start_player: the seat that lays the first card.
        allow_rotation: whether a card may be laid upside down (T3).
        deck: the 48 cards as codes (``top * 16 + middle * 4 + bottom``), in their order
            before the shuffle.
    """
    cdef tom_cfg_t cfg
    cdef int i
    memset(&cfg, 0, sizeof(cfg))
    cfg.players = players
    cfg.start_player = start_player
    cfg.turns = 2 if allow_rotation else 1
    if len(deck) != DECK:
        raise ConfigurationError(f"deck must hold {DECK} card codes")
    for i in range(DECK):
        cfg.deck[i] = deck[i]
    return EngineConfig(ThreeOrMoreState, (<char *>&cfg)[:sizeof(cfg)])


# ------------------------------------------------------------------- set-up positions

cdef tuple _setup_rng(uint64_t seed):
    # The state's generator words after the setup shuffle of game ``seed``.
    cdef rng_t rng
    cdef uint8_t dummy[DECK]
    rng_seed(&rng, seed)
    rng_shuffle_u8(&rng, dummy, DECK)    # the draws do not depend on the contents
    return (rng.s[0], rng.s[1], rng.s[2], rng.s[3])


cdef int _fill(tom_t *s, const tom_cfg_t *cfg, dict f) except -1:
    # A set-up position (``EngineConfig.set_up``); 1 if it does not fit.  The table is laid card by
    # card in the order given, each a legal action of this kernel, so it is a table play
    # can reach, inside the struct's frame; then the hands, the stock (48 cards in all),
    # the scores and the seat to play go in.  The facade checked the rest.
    cdef int n = cfg.players, i, p, action, code
    cdef int seat = -1 if f["last_player"] is None else f["last_player"]
    cdef int cur = -1 if f["current_player"] is None else f["current_player"]
    cdef tuple table = tuple(f["table"]), stock = tuple(f["stock"]), scores = tuple(f["scores"])
    hands = [tuple(h) for h in f["hands"]]
    codes = [*table[:1], *[c for h in hands for c in h], *stock]
    if not (1 <= len(table) <= DECK and (seat >= 0) == (len(table) > 1) and seat < n
            and -1 <= cur < n and len(hands) == n and len(scores) == n
            and all([len(h) <= HAND for h in hands]) and len(table) - 1 + len(codes) == DECK
            and all([type(c) is int and 0 <= c < 64 for c in codes])
            and all([type(a) is int and 0 <= a < NUM_PLACES * 2 * 64 for a in table[1:]])
            and all([type(v) is int and 0 <= v <= 32767 for v in scores])):
        return 1
    memset(s, 0, sizeof(tom_t))
    s.players, s.turns, s.next_draw, s.last_player = n, cfg.turns, DECK, -1   # no draws
    s.lo = s.hi = START_COL
    s.top = s.bottom = ROW1
    _put(s, 1, 1, table[0])
    s.laid = 1
    for i in range(1, len(table)):
        action = table[i]
        s.current = seat
        _insert_card(s, seat, action & 63)
        if not KERNEL.is_legal(s, action):     # through the table: no second inline copy
            return 1
        KERNEL.apply(s, action)
    s.start = s.laid
    s.lines = s.best = 0        # the statistics count from the start of play
    for p in range(n):
        s.score[p] = scores[p]
        for code in hands[p]:
            _insert_card(s, p, code)
    s.next_draw = <uint8_t>(DECK - len(stock))
    for i in range(len(stock)):
        s.deck[s.next_draw + i] = stock[i]
    s.current = cur
    return 0


# ------------------------------------ the state class (shared methods: EngineState)

@cython.final
@cython.no_gc      # holds only the (immutable) game, seed and configuration: no cycles
@cython.binding(False)
@cython.embedsignature.format("clinic")
cdef class ThreeOrMoreState(EngineState):
    """A 3 Or More position; make one with ``ThreeOrMore(players=...).new_state(seed)``.

    >>> import boardcore
    >>> state = boardcore.make("three_or_more", players=2).new_state(seed=3)
    >>> state.current_player, state.view(0).places
    (0, ('left', 'right'))
    """

    cdef tom_t s

    def __cinit__(self):
        self._s = &self.s
        self._k = &KERNEL

    cdef dict _values(self, const void *position):
        # The snapshot's fields (boardcore.three_or_more.ThreeOrMoreSnapshot).  The last
        # card is the newest on the table, so scoring it again on the table as it
        # stands gives exactly the lines it scored.
        cdef const tom_t *s = <const tom_t *>position
        cdef lines_t found
        cdef int i, k, y, x
        cdef char grid[3 * TABLE_ROWS * TABLE_COLS]     # square row by square row
        cdef const char *letters = b"RGBY"
        memset(grid, b".", sizeof(grid))
        for k in range(4):
            for y in range(1, NY - 1):
                for x in range(1, ROW_CARDS + 1):
                    if (s.plane[k][y] >> x) & 1:
                        grid[(y - 1 + 3 * s.top) * TABLE_COLS + x - 1 + s.lo] = letters[k]
        found.n = 0
        if s.last_player >= 0:
            _score(s, _plane_y(s, s.last_row), _plane_x(s, s.last_col), s.last_shown,
                   &found)
        return {
            "turns": s.turns,
            "laid": s.laid,
            "hands": tuple([tuple([s.hand[k][i] for i in range(s.hand_n[k])])
                            for k in range(s.players)]),
            "stock": tuple([s.deck[i] for i in range(s.next_draw, DECK)]),
            "grid": tuple([grid[TABLE_COLS * i:TABLE_COLS * i + TABLE_COLS].decode()
                           for i in range(3 * TABLE_ROWS)]),
            "row1": (s.lo, s.hi),
            "block": (s.top, s.bottom),
            "open_row": (s.open_row, s.open_next, s.open_dir),
            "last_player": None if s.last_player < 0 else s.last_player,
            "last_action": _hist_action(s, s.laid - 2) if s.last_player >= 0 else 0,
            "last_points": s.last_points,
            "last_lines": tuple([(found.dir[i], found.y[i] - 1 + 3 * s.top,
                                  found.x[i] - 1 + s.lo, found.len[i]) for i in range(found.n)]),
            "rng": _setup_rng(self.seed),
        }

    cdef int _fill(self, const void *config, dict values) except -1:
        # ``values``: the checked fields of boardcore.three_or_more.positions.
        if _fill(&self.s, <const tom_cfg_t *>config, values):
            raise InvalidStateError("a 3 Or More position does not fit: sizes or values "
                                    "out of range")
        return 0

    # -- 3 Or More ------------------------------------------------------------------

    def last_breakdown(self):
        """Return how the last card laid scored (a ``MoveScore``), or ``None`` before any move."""
        return self.view(0).last_move

    def grid(self):
        """Return the table as 21 strings of 23 squares: a colour letter or ``.``."""
        return self.snapshot().grid

    def places(self):
        """Return the names of the places the next card may go (``("left", "right")``, …)."""
        return self.view(0).places


# ------------------------------------------------------------------------ bench hook

@cython.final
@cython.binding(False)
@cython.embedsignature.format("clinic")
cdef class _ScoreBench:
    """Prepared positions for timing the scoring kernel alone (``bench/``).

    Each position: one card just laid, in game ``derive_seed(seed, STREAM_GAME, i)`` of
    ``game`` played at random to a random length.  ``run(reps)`` scores every card
    ``reps`` times in a compiled loop and returns the total points (a checksum).
    """

    cdef tom_t *states
    cdef int n

    def __cinit__(self, game, int positions, uint64_t seed):
        cdef rng_t player
        cdef tom_t s
        cdef int i, laid_at
        if not 1 <= positions <= 1 << 20:
            raise ConfigurationError(f"positions must be at least 1 and at most {1 << 20}, "
                                     f"not {positions!r}")
        self.states = <tom_t *>malloc(positions * sizeof(tom_t))
        if not self.states:
            raise MemoryError()
        rng_seed(&player, seed)
        for i in range(positions):
            start = game.new_state(seed=derive_seed(seed, STREAM_GAME, <uint64_t>i))
            if not isinstance(start, ThreeOrMoreState):
                raise TypeError(f"game must be a 3 Or More game, not {quote(game)}")
            (<ThreeOrMoreState>start)._check()
            s = (<ThreeOrMoreState>start).s
            laid_at = 2 + rng_bounded(&player, DECK - 1)      # 2..48 cards on the table
            while s.laid < laid_at:
                _apply(&s, _random_action(&s, &player))
            self.states[i] = s
        self.n = positions

    def __dealloc__(self):
        free(self.states)

    def run(self, int reps):
        """Score every prepared card ``reps`` times; return the sum of the points."""
        cdef int _rep, i
        cdef int64_t total = 0
        cdef const tom_t *s
        with nogil:
            for _rep in range(reps):
                for i in range(self.n):
                    s = &self.states[i]
                    total += _score(s, _plane_y(s, s.last_row), _plane_x(s, s.last_col),
                                    s.last_shown, NULL) & 0xFFFF
        return total

    @property
    def positions(self):
        """How many cards one ``run(1)`` scores."""
        return self.n


# What one seat knows: the determinize and observe slots of KERNEL, in their own file.
include "three_or_more_seat.pxi"
