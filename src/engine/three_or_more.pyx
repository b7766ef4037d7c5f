"""3 Or More: the compiled position (rules: ``boardcore rules three_or_more``).

The whole position is one C struct (``tom_t``, 252 bytes); ``copy()`` is a
struct copy.

Table geometry.  Positions are given on a fixed table of 7 card rows x 23 card
columns, so no square ever moves: the starting card sits at card row 3, card column
11; row 1 can grow 11 cards to either side (columns 0..22) and rows 2-4 can stack up
to 3 card rows above or below it (card rows 0..6).  Card row ``R`` covers square rows
``3R .. 3R+2`` (top, middle, bottom square of its cards), so the public square
coordinates are ``(row, col)`` with ``row`` in 0..20 and ``col`` in 0..22.

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
>>> card_code("RRG"), state.action_to_str(64 + card_code("RRG"))
(1, 'RRG@left')
>>> twin = state.copy()
>>> twin.rollout(seed=1).scores, state.is_over()
((91, 69), False)
"""

cimport cython
from libc.stdint cimport int8_t, int16_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from _common cimport (_illegal, action_index, legal_list, legal_mask, rollout_seed,
                      seat_index, state_reduce)
from _rng cimport derive_seed, rng_bounded, rng_seed, rng_shuffle_u8, rng_t

import numpy as np

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

cdef enum:
    DECK = 48
    HAND = 3
    ROW_CARDS = 12
    MAX_PLAYERS = 4
    ROW1 = 3            # card row of row 1
    START_COL = 11      # card column of the starting card
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

COLOURS = "RGBY"
PLACES = ("", "left", "right", "top-left", "top-right", "bottom-left", "bottom-right")
DIRECTIONS = ("horizontal", "vertical", "falling", "rising")
_DIRECTION_STEP = ((0, 1), (1, 0), (1, 1), (1, -1))
# Every action as a ready-made int: legal_actions() hands these out instead of
# allocating a new int per action (CPython only caches ints up to 256).
cdef tuple ACTION_INTS = tuple(range(NUM_PLACES * 64 * 2))

ctypedef struct lines_t:
    # The lines one card scored, each from its top (left) end, in plane coordinates.
    int n
    uint8_t dir[MAX_LINES]
    uint8_t y[MAX_LINES]
    uint8_t x[MAX_LINES]
    uint8_t len[MAX_LINES]


# Kept under 256 bytes: up to that size the compiler copies the struct inline, above
# it copy() calls memcpy and costs half as much again.  So the history is one byte per
# move, and the state's generator is not kept: it only shuffles at setup (T4), so its
# state afterwards is a function of the seed (``_setup_rng``).
ctypedef struct tom_t:
    uint16_t plane[4][NY]
    uint8_t deck[DECK]          # the shuffled deck; the stock is deck[next_draw:]
    uint8_t hand[MAX_PLAYERS][HAND]   # sorted ascending by card code
    uint8_t hand_n[MAX_PLAYERS]
    int16_t score[MAX_PLAYERS]  # at most 47 cards x 192 points (all one colour): fits
    uint8_t hist[DECK - 1]      # move m: card | turned << 6 | (1 if placed right) << 7
    uint8_t corners             # bits 2i..2i+1: the corner (place - 3) that began row i + 2
    uint8_t players
    uint8_t turns               # 1, or 2 with allow_rotation
    int8_t current              # seat to act, -1 once over
    uint8_t next_draw
    uint8_t laid                # cards on the table, the starting card included
    uint8_t lo, hi              # card columns of row 1's two ends
    uint8_t top, bottom         # card rows at the top and bottom of the block
    uint8_t open_row, open_next  # the open row (rows 2-4) and the column of its next card
    int8_t open_dir             # +1: the open row runs right, -1: left
    int8_t last_player          # -1 before the first move
    uint8_t last_row, last_col  # table card slot of the last card laid
    uint8_t last_shown          # the last card as it lies (turned if it was)
    uint8_t last_lines          # how many lines it scored
    int16_t last_points


#: Size of the whole position in bytes (kept <= 256, see tom_t).
STATE_BYTES = sizeof(tom_t)


# --------------------------------------------------------------------------- kernels

cdef inline int _reverse(int card) noexcept nogil:
    # The card turned upside down: top and bottom swap.
    return ((card & 3) << 4) | (card & 12) | (card >> 4)


cdef inline int _run(lines_t *out, int *count, int d, int y, int x, int n) noexcept nogil:
    # A run of n squares from (y, x) in direction d: a line if n >= 3.  Return its
    # squares' worth (doubled by the caller for diagonals); record it when ``out`` is
    # given.  In play ``out`` is NULL and nothing is stored, so no store can force the
    # compiler to reload the planes.
    cdef int i, is_line = n >= 3
    if out != NULL and is_line:
        i = out.n
        out.dir[i] = <uint8_t>d
        out.y[i] = <uint8_t>y
        out.x[i] = <uint8_t>x
        out.len[i] = <uint8_t>n
        out.n = i + 1
    count[0] += is_line
    return is_line * n


cdef inline int _reach(const uint16_t *p, int y, int x, int dy, int dx) noexcept nogil:
    # How many squares past (y, x) in direction (dy, dx) carry on the run.  A step only
    # goes past a set bit, which is inside the block, so the walk stops at the empty
    # padding at the latest.
    cdef int t = 1
    while (p[y + t * dy] >> (x + t * dx)) & 1:
        t += 1
    return t - 1


cdef int _score(const tom_t *s, int y_top, int x, int shown, lines_t *out,
                int *n_lines) noexcept nogil:
    # T10-T11: every maximal run of >= 3 same-coloured squares through one of the three
    # squares just laid at plane rows y_top..y_top+2, bit x, each once, at its full
    # length; diagonals x2.  The card's squares share one column, so horizontal and
    # diagonal lines through different squares are different lines; a vertical line is
    # counted at the topmost of the card's squares it contains.  Returns the points and
    # sets n_lines; the lines themselves go to ``out`` unless it is NULL.
    cdef int i, k, prev = -1, y, x0, up, down, pts = 0, count = 0
    cdef uint32_t w
    cdef const uint16_t *p
    if out != NULL:
        out.n = 0
    for i in range(3):
        k = (shown >> (4 - 2 * i)) & 3
        p = s.plane[k]
        y = y_top + i
        # horizontal: the run of set bits around bit x, by two bit scans
        w = p[y]
        x0 = tom_msb32(~w & ((<uint32_t>1 << x) - 1)) + 1
        pts += _run(out, &count, 0, y, x0, x - x0 + tom_ctz32(~(w >> x)))
        # vertical
        if k != prev:
            up = _reach(p, y, x, -1, 0)
            down = _reach(p, y, x, 1, 0)
            pts += _run(out, &count, 1, y - up, x, 1 + up + down)
        prev = k
        # falling diagonal (\)
        up = _reach(p, y, x, -1, -1)
        down = _reach(p, y, x, 1, 1)
        pts += 2 * _run(out, &count, 2, y - up, x - up, 1 + up + down)
        # rising diagonal (/), from its top-right end
        up = _reach(p, y, x, -1, 1)
        down = _reach(p, y, x, 1, -1)
        pts += 2 * _run(out, &count, 3, y - up, x + up, 1 + up + down)
    n_lines[0] = count
    return pts


cdef inline void _put(tom_t *s, int y_top, int x, int shown) noexcept nogil:
    cdef int i
    cdef uint16_t bit = <uint16_t>(1 << x)
    for i in range(3):
        s.plane[(shown >> (4 - 2 * i)) & 3][y_top + i] |= bit


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


def _setup_rng(uint64_t seed):
    """Return the state's generator words after the setup shuffle of game ``seed``."""
    cdef rng_t rng
    cdef uint8_t dummy[DECK]
    rng_seed(&rng, seed)
    rng_shuffle_u8(&rng, dummy, DECK)    # the draws do not depend on the contents
    return [rng.s[0], rng.s[1], rng.s[2], rng.s[3]]


cdef void _init(tom_t *s, int players, int start, int turns, const uint8_t *deck,
                uint64_t seed) noexcept nogil:
    # T4: shuffle, deal 3 cards to each seat (seat 0 takes the first three, seat 1 the
    # next three, ...), then the next card starts row 1.
    cdef int seat, j, _card
    cdef rng_t rng
    memset(s, 0, sizeof(tom_t))
    for j in range(DECK):
        s.deck[j] = deck[j]
    rng_seed(&rng, seed)
    rng_shuffle_u8(&rng, s.deck, DECK)
    s.players = <uint8_t>players
    s.turns = <uint8_t>turns
    for seat in range(players):
        for _card in range(HAND):
            _insert_card(s, seat, s.deck[s.next_draw])
            s.next_draw += 1
    s.lo = s.hi = START_COL
    s.top = s.bottom = ROW1
    _put(s, 1, 1, s.deck[s.next_draw])
    s.next_draw += 1
    s.laid = 1
    s.current = <int8_t>start
    s.last_player = -1


@cython.cdivision(True)     # non-negative operands: C and Python modulo agree
cdef inline int _phase(const tom_t *s) noexcept nogil:
    # Which places are open: 1 row 1 (T6), 2 a corner (T7), 0 the open row's next square.
    if s.laid < ROW_CARDS:
        return 1
    if s.laid % ROW_CARDS == 0:
        return 2
    return 0


cdef int _legal(const tom_t *s, uint16_t *out) noexcept nogil:
    # Ascending: place, then turned, then card code.
    cdef int n = 0, first, last, place, turned, j, card, prev
    cdef int seat = s.current
    if seat < 0:
        return 0
    first = _phase(s)
    if first == 1:
        first, last = P_LEFT, P_RIGHT
    elif first == 2:
        first, last = P_TOP_LEFT, P_BOTTOM_RIGHT
    else:
        first, last = P_NEXT, P_NEXT
    for place in range(first, last + 1):
        for turned in range(s.turns):
            prev = -1
            for j in range(s.hand_n[seat]):
                card = s.hand[seat][j]
                if card == prev:
                    continue
                prev = card
                if turned and _reverse(card) == card:
                    continue    # T3: a card that reads the same both ways has no turned form
                out[n] = <uint16_t>((place * s.turns + turned) * 64 + card)
                n += 1
    return n


cdef bint _is_legal(const tom_t *s, int action) noexcept nogil:
    cdef int card = action & 63, rest = action >> 6, turned = 0, place, phase, j
    if s.current < 0:
        return False
    if s.turns == 2:
        turned = rest & 1
        rest >>= 1
    place = rest
    if turned and _reverse(card) == card:
        return False
    phase = _phase(s)
    if phase == 1:
        if place != P_LEFT and place != P_RIGHT:
            return False
    elif phase == 2:
        if place < P_TOP_LEFT or place > P_BOTTOM_RIGHT:
            return False
    elif place != P_NEXT:
        return False
    for j in range(s.hand_n[s.current]):
        if s.hand[s.current][j] == card:
            return True
    return False


@cython.cdivision(True)     # non-negative operands: C and Python modulo agree
cdef void _apply(tom_t *s, int action) noexcept nogil:
    # T8: lay one card from hand, score it, draw back up to 3 while the stock lasts.
    cdef int card = action & 63, rest = action >> 6, turned = 0, place, shown
    cdef int seat = s.current, j, k, y, row, col, pts, n_lines
    if s.turns == 2:
        turned = rest & 1
        rest >>= 1
    place = rest
    shown = _reverse(card) if turned else card     # T3
    j = 0
    while s.hand[seat][j] != card:
        j += 1
    s.hand_n[seat] -= 1
    while j < s.hand_n[seat]:
        s.hand[seat][j] = s.hand[seat][j + 1]
        j += 1
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
    pts = _score(s, y, _plane_x(s, col), shown, NULL, &n_lines)
    s.score[seat] += pts
    s.last_points = pts
    s.last_lines = <uint8_t>n_lines
    s.last_row = <uint8_t>row
    s.last_col = <uint8_t>col
    s.last_shown = <uint8_t>shown
    s.last_player = <int8_t>seat
    if s.next_draw < DECK:
        _insert_card(s, seat, s.deck[s.next_draw])
        s.next_draw += 1
    s.hist[s.laid - 1] = <uint8_t>(card | (turned << 6) | ((place == P_RIGHT) << 7))
    if place >= P_TOP_LEFT:
        s.corners |= <uint8_t>((place - P_TOP_LEFT) << (2 * (s.laid // ROW_CARDS - 1)))
    s.laid += 1
    if s.laid == DECK:                  # T9
        s.current = -1
    else:
        s.current = <int8_t>((seat + 1) % s.players)


cdef int _play_out(tom_t *s, rng_t *player, int64_t *lines, int64_t *best) noexcept nogil:
    # The random player: legal[bounded(len(legal))] from its own generator.
    cdef uint16_t legal[MAX_LEGAL]
    cdef int n, steps = 0
    while s.current >= 0:
        n = _legal(s, legal)
        _apply(s, legal[rng_bounded(player, <uint32_t>n)])
        lines[0] += s.last_lines
        if s.last_points > best[0]:
            best[0] = s.last_points
        steps += 1
    return steps


cdef inline int _colour_at(const tom_t *s, int row, int col) noexcept nogil:
    # The colour of table square (row, col), -1 if it is empty.
    cdef int k, y = row - 3 * s.top + 1, x = col - s.lo + 1
    if y < 1 or y > NY - 2 or x < 1 or x > ROW_CARDS:
        return -1
    for k in range(4):
        if (s.plane[k][y] >> x) & 1:
            return k
    return -1


cdef const uint8_t *_deck_codes(object game) except NULL:
    cdef bytes codes = game._deck_codes
    return <const uint8_t *>codes


def card_code(str text not None):
    """Return the 6-bit code ``top * 16 + middle * 4 + bottom`` of a card such as ``"RRG"``.

    Raises:
        ValueError: ``text`` is not 3 of the letters R, G, B, Y.
    """
    if len(text) != 3 or any(c not in COLOURS for c in text):
        raise ValueError(f"a card is 3 of the letters R, G, B, Y (top, middle, bottom), "
                         f"not {text!r}")
    return (COLOURS.index(text[0]) << 4) | (COLOURS.index(text[1]) << 2) | COLOURS.index(text[2])


cdef str _card_text(int card):
    return COLOURS[(card >> 4) & 3] + COLOURS[(card >> 2) & 3] + COLOURS[card & 3]


cdef object _IllegalActionError = None
cdef object _NotationError = None
cdef object _InvalidStateError = None


cdef _errors():
    global _IllegalActionError, _NotationError, _InvalidStateError
    if _IllegalActionError is None:
        from boardcore.errors import IllegalActionError, InvalidStateError, NotationError
        _IllegalActionError = IllegalActionError
        _NotationError = NotationError
        _InvalidStateError = InvalidStateError


cdef bint _same(object a, object b):
    # Equality that also insists on equal types (True is not 1, 1.0 is not 1).
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[key], b[key]) for key in a)
    return a == b


# --------------------------------------------------------------------------- the state

@cython.final
@cython.freelist(64)    # copies in search loops reuse freed objects instead of allocating
@cython.no_gc           # holds only the game and the seed, neither can refer back to a state
cdef class ThreeOrMoreState:
    """A 3 Or More position; make one with ``ThreeOrMore(players=...).new_state(seed)``."""

    cdef tom_t s
    cdef readonly object game
    cdef readonly object seed
    cdef int num_actions

    def __init__(self):
        raise TypeError("make a 3 Or More state with ThreeOrMore(players=...).new_state(seed)")

    @staticmethod
    def _new(game, seed):
        cdef ThreeOrMoreState st = ThreeOrMoreState.__new__(ThreeOrMoreState)
        st.game = game
        st.seed = seed
        st.num_actions = game.num_actions
        _init(&st.s, game.num_players, game.options["start_player"],
              2 if game.options["allow_rotation"] else 1, _deck_codes(game), seed)
        return st

    @staticmethod
    def _from_dict(game, data):
        """Rebuild from ``to_dict()``: replay ``seed`` + ``history``, check every field."""
        _errors()
        cdef ThreeOrMoreState st = ThreeOrMoreState._new(game, data["seed"])
        history = data.get("history")
        if type(history) is not list:
            raise _InvalidStateError(f"field 'history' must be a list of actions, not {history!r}")
        if len(history) > DECK - 1:
            raise _InvalidStateError(f"field 'history' holds {len(history)} actions, at most 47")
        for i, action in enumerate(history):
            if type(action) is not int or not 0 <= action < st.num_actions \
                    or not _is_legal(&st.s, action):
                raise _InvalidStateError(
                    f"field 'history' action {i} is {action!r}, not a legal action there "
                    f"(in the game dealt from seed {data['seed']!r})"
                )
            _apply(&st.s, action)
        expected = st.to_dict()
        for key in data:
            if key not in expected:
                raise _InvalidStateError(
                    f"unknown field {key!r}; allowed: {', '.join(expected)}"
                )
        for key, value in expected.items():
            if key not in data:
                raise _InvalidStateError(f"state data has no field {key!r}")
            if key != "options" and not _same(data[key], value):
                raise _InvalidStateError(
                    f"field {key!r} is {data[key]!r}, which does not match the game that "
                    f"the seed and the history ({len(history)} actions) give "
                    f"(expected {value!r})"
                )
        return st

    @staticmethod
    def _simulate_chunk(game, uint64_t seed, Py_ssize_t start, Py_ssize_t stop,
                        int64_t[:, ::1] scores, uint8_t[:, ::1] winners,
                        int64_t[::1] lengths, int64_t[:, ::1] stats):
        cdef tom_t s
        cdef rng_t player
        cdef Py_ssize_t i
        cdef int seat, best_score, n = game.num_players
        cdef int start_player = game.options["start_player"]
        cdef int turns = 2 if game.options["allow_rotation"] else 1
        cdef const uint8_t *deck = _deck_codes(game)
        cdef int64_t lines, best
        with nogil:
            for i in range(start, stop):
                _init(&s, n, start_player, turns, deck, derive_seed(seed, 0, <uint64_t>i))
                rng_seed(&player, derive_seed(seed, 1, <uint64_t>i))
                lines = 0
                best = 0
                lengths[i] = _play_out(&s, &player, &lines, &best)
                best_score = s.score[0]
                for seat in range(1, n):
                    if s.score[seat] > best_score:
                        best_score = s.score[seat]
                for seat in range(n):
                    scores[i, seat] = s.score[seat]
                    winners[i, seat] = s.score[seat] == best_score      # T12
                stats[i, 0] = lines
                stats[i, 1] = best

    # ------------------------------------------------------------------ protocol

    @property
    def current_player(self):
        """The seat to act, or ``None`` once the game is over."""
        return None if self.s.current < 0 else self.s.current

    def legal_actions(self):
        """Return the legal actions, ascending."""
        cdef uint16_t buf[MAX_LEGAL]
        return legal_list(ACTION_INTS, buf, _legal(&self.s, buf))

    def legal_actions_mask(self):
        """Return a ``bool_`` array of length ``game.num_actions``, True where legal."""
        cdef uint16_t buf[MAX_LEGAL]
        return legal_mask(np.zeros(self.num_actions, dtype=np.bool_), buf, _legal(&self.s, buf))

    def apply(self, action):
        """Lay a card: ``action`` must be one of ``legal_actions()``.

        Raises:
            TypeError: ``action`` is not an integer (bool, float and str included).
            IllegalActionError: ``action`` is not legal here; the state is unchanged.
        """
        cdef Py_ssize_t a = action_index(action, self.num_actions)
        if not _is_legal(&self.s, <int>a):
            self._refuse(action)
        _apply(&self.s, <int>a)

    cdef int _refuse(self, object action) except -1:
        if self.s.current < 0:
            _illegal(action, "the game is over")
        _illegal(action, f"legal actions are {self.legal_actions()} "
                         f"({', '.join(self.action_to_str(a) for a in self.legal_actions())})")
        return -1

    def action_to_str(self, action):
        """Return the notation of ``action`` (``"RRG@left"``, ``"RGB@top-left"``, ``"RRG"``).

        Any action in ``range(game.num_actions)`` has a notation, legal here or not.
        """
        cdef Py_ssize_t a = action_index(action, self.num_actions)
        cdef int card = a & 63, rest = a >> 6, turned = 0
        if self.s.turns == 2:
            turned = rest & 1
            rest >>= 1
        text = _card_text(card) + ("^" if turned else "")
        return text + "@" + PLACES[rest] if rest else text

    def parse_action(self, text):
        """Return the legal action written ``text``.

        Raises:
            NotationError: ``text`` is not a move in the notation, or not legal here.
        """
        _errors()
        if not isinstance(text, str):
            raise _NotationError(f"a move must be a str such as 'RRG@left', not {text!r}")
        card_part, sep, place_text = text.partition("@")
        turned = card_part.endswith("^")
        card_text = card_part[:len(card_part) - 1] if turned else card_part
        if len(card_text) != 3 or any(c not in COLOURS for c in card_text) \
                or (sep and place_text not in PLACES[1:]):
            raise _NotationError(
                f"{text!r} is not a move: write a card as held (3 of the letters R, G, B, Y),"
                f" '^' if it is turned, then '@left', '@right', '@top-left', '@top-right',"
                f" '@bottom-left' or '@bottom-right' where there is a choice, e.g. 'RRG@left'"
            )
        card = card_code(card_text)
        if turned and self.s.turns == 1:
            raise _NotationError(f"{text!r} turns a card, which needs allow_rotation=True")
        if turned and _reverse(card) == card:
            raise _NotationError(f"{text!r}: {card_text} reads the same both ways, "
                                 f"it has no turned form")
        place = PLACES.index(place_text) if sep else 0
        action = (place * self.s.turns + (1 if turned else 0)) * 64 + card
        if not _is_legal(&self.s, action):
            legal = [self.action_to_str(a) for a in self.legal_actions()]
            raise _NotationError(
                f"{text!r} is not legal here; legal: {', '.join(legal) or 'none (game over)'}"
            )
        return action

    def is_over(self):
        """Return True once all 48 cards are laid (T9)."""
        return self.s.current < 0

    def scores(self):
        """Return every seat's points so far."""
        cdef int i
        return tuple([self.s.score[i] for i in range(self.s.players)])

    def outcome(self):
        """Return ``None`` until the game is over, then the ``Outcome`` (T12: ties share)."""
        if self.s.current >= 0:
            return None
        from boardcore.protocol import Outcome
        scores = self.scores()
        best = max(scores)
        return Outcome(scores=scores,
                       winners=frozenset(i for i, v in enumerate(scores) if v == best))

    def copy(self):
        """Return an independent copy (one struct copy)."""
        cdef ThreeOrMoreState c = ThreeOrMoreState.__new__(ThreeOrMoreState)
        memcpy(&c.s, &self.s, sizeof(self.s))  # one copy, no temporary
        c.game = self.game
        c.seed = self.seed
        c.num_actions = self.num_actions
        return c

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def history(self):
        """Return the actions applied since ``new_state``, in order."""
        cdef int i
        return [_hist_action(&self.s, i) for i in range(self.s.laid - 1)]

    def rollout(self, seed=None):
        """Play uniformly random moves to the end, in place, and return the ``Outcome``.

        Args:
            seed: the random player's seed (``None`` draws one from the OS).
        """
        cdef rng_t player
        cdef int64_t lines = 0, best = 0
        rng_seed(&player, rollout_seed(seed))
        with nogil:
            _play_out(&self.s, &player, &lines, &best)
        return self.outcome()

    # ------------------------------------------------------------------ 3 Or More

    def last_breakdown(self):
        """Return how the last card laid scored (a ``MoveScore``), or ``None`` before any move."""
        if self.s.last_player < 0:
            return None
        from boardcore.three_or_more import MoveScore, ScoredLine
        cdef int i, t, d, n
        cdef lines_t found
        # The last card is the newest on the table, so scoring it again on the table as
        # it stands gives exactly the lines it scored.
        _score(&self.s, _plane_y(&self.s, self.s.last_row), _plane_x(&self.s, self.s.last_col),
               self.s.last_shown, &found, &n)
        lines = []
        for i in range(found.n):
            d = found.dir[i]
            n = found.len[i]
            dy, dx = _DIRECTION_STEP[d]
            y = found.y[i] - 1 + 3 * self.s.top
            x = found.x[i] - 1 + self.s.lo
            lines.append(ScoredLine(
                direction=DIRECTIONS[d],
                squares=tuple([(y + t * dy, x + t * dx) for t in range(n)]),
                points=n * (2 if d >= 2 else 1),
            ))
        return MoveScore(
            player=self.s.last_player,
            move=self.action_to_str(_hist_action(&self.s, self.s.laid - 2)),
            points=self.s.last_points,
            lines=tuple(lines),
        )

    def grid(self):
        """Return the table as 21 strings of 23 squares: a colour letter or ``.``."""
        cdef int y, x, k
        rows = []
        for y in range(21):
            cells = []
            for x in range(23):
                k = _colour_at(&self.s, y, x)
                cells.append(COLOURS[k] if k >= 0 else ".")
            rows.append("".join(cells))
        return tuple(rows)

    def places(self):
        """Return the names of the places the next card may go (``("left", "right")``, …)."""
        if self.s.current < 0:
            return ()
        phase = _phase(&self.s)
        if phase == 1:
            return PLACES[1:3]
        if phase == 2:
            return PLACES[3:]
        return ("next",)

    cdef list _slots(self):
        # Card slots (card row, card column) where the next card may go.
        if self.s.current < 0:
            return []
        phase = _phase(&self.s)
        if phase == 1:
            return [(ROW1, self.s.lo - 1), (ROW1, self.s.hi + 1)]
        if phase == 2:
            return [(self.s.top - 1, self.s.lo), (self.s.top - 1, self.s.hi),
                    (self.s.bottom + 1, self.s.lo), (self.s.bottom + 1, self.s.hi)]
        return [(self.s.open_row, self.s.open_next)]

    def view(self, player):
        """Return what seat ``player`` may see: the table, scores, its own hand, sizes."""
        cdef int seat = seat_index(player, self.s.players)
        cdef int i
        from boardcore.three_or_more import ThreeOrMoreView
        return ThreeOrMoreView(
            player=seat,
            current_player=self.current_player,
            grid=self.grid(),
            places=self.places(),
            scores=self.scores(),
            hand=tuple([_card_text(self.s.hand[seat][i]) for i in range(self.s.hand_n[seat])]),
            hand_sizes=tuple([self.s.hand_n[i] for i in range(self.s.players)]),
            stock_size=DECK - self.s.next_draw,
            cards_laid=self.s.laid,
            last_move=self.last_breakdown(),
        )

    def to_dict(self):
        """Return the whole state as a JSON-safe dict (``docs/games/three_or_more.md``)."""
        from boardcore.protocol import header
        cdef int i, j
        d = header(self)
        last = self.last_breakdown()
        d.update({
            "current_player": self.current_player,
            "scores": list(self.scores()),
            "hands": [[_card_text(self.s.hand[i][j]) for j in range(self.s.hand_n[i])]
                      for i in range(self.s.players)],
            "stock": [_card_text(self.s.deck[i]) for i in range(self.s.next_draw, DECK)],
            "grid": list(self.grid()),
            "row1": [self.s.lo, self.s.hi],
            "block": [self.s.top, self.s.bottom],
            "open_row": None if self.s.laid <= ROW_CARDS or self.s.laid % ROW_CARDS == 0
            else [self.s.open_row, self.s.open_next, self.s.open_dir],
            "last_move": None if last is None else {
                "player": last.player,
                "move": last.move,
                "points": last.points,
                "lines": [{"direction": ln.direction,
                           "squares": [list(sq) for sq in ln.squares],
                           "points": ln.points} for ln in last.lines],
            },
            "history": self.history(),
            "rng": _setup_rng(self.seed),
        })
        return d

    def __reduce__(self):
        return state_reduce(self)

    def __repr__(self):
        who = "over" if self.s.current < 0 else f"seat {self.s.current} to move"
        return f"<ThreeOrMoreState {self.s.players} players, {who}, move {self.s.laid}>"

    def __str__(self):
        cdef int y, k, i
        slots = self._slots()
        open_cols = {c for _, c in slots}
        open_rows = {r for r, _ in slots}
        rows_used = [r for r in range(7) if r in open_rows or (self.s.top <= r <= self.s.bottom)]
        cols = [c for c in range(23) if c in open_cols or self.s.lo <= c <= self.s.hi]
        c0, c1 = min(cols), max(cols)
        slot_set = set(slots)
        lines = []
        head = "over" if self.s.current < 0 else f"seat {self.s.current} to play"
        lines.append(
            f"3 Or More, {self.s.players} players, {self.s.laid} of 48 cards laid, {head}; "
            f"scores {' '.join(str(v) for v in self.scores())}; stock {DECK - self.s.next_draw}"
        )
        lines.append("      " + "".join([str(c % 10) for c in range(c0, c1 + 1)]))
        for r in range(min(rows_used), max(rows_used) + 1):
            for i in range(3):
                y = 3 * r + i
                cells = []
                for c in range(c0, c1 + 1):
                    k = _colour_at(&self.s, y, c)
                    cells.append(COLOURS[k] if k >= 0 else ("*" if (r, c) in slot_set else "."))
                lines.append(f"  {y:>2}  {''.join(cells)}")
        last = self.last_breakdown()
        if last is not None:
            parts = ", ".join(f"{ln.direction} {len(ln.squares)} = {ln.points}"
                              for ln in last.lines) or "no line"
            lines.append(f"last: seat {last.player} laid {last.move} for {last.points} ({parts})")
        lines.append("hands: " + " | ".join(
            f"{seat}: " + (" ".join([_card_text(self.s.hand[seat][i])
                                     for i in range(self.s.hand_n[seat])]) or "-")
            for seat in range(self.s.players)))
        if self.s.current >= 0:
            lines.append("next card goes at * (" + ", ".join(self.places()) + ")")
        return "\n".join(lines)


# --------------------------------------------------------------------------- bench hook

@cython.final
cdef class _ScoreBench:
    """Prepared positions for timing the scoring kernel alone (``bench/``).

    Each position is a table with one card just laid; ``run(reps)`` scores every card
    ``reps`` times in a compiled loop and returns the total points (a checksum).
    """

    cdef tom_t *states
    cdef int n

    def __cinit__(self, game, int positions, uint64_t seed):
        if positions < 1:
            raise ValueError(f"positions must be at least 1, not {positions!r}")
        self.states = <tom_t *>malloc(positions * sizeof(tom_t))
        if not self.states:
            raise MemoryError()
        cdef rng_t player
        cdef tom_t s
        cdef uint16_t legal[MAX_LEGAL]
        cdef int i, n, action, laid_at
        rng_seed(&player, seed)
        for i in range(positions):
            _init(&s, game.num_players, 0, 2 if game.options["allow_rotation"] else 1,
                  _deck_codes(game), derive_seed(seed, 0, <uint64_t>i))
            laid_at = 2 + rng_bounded(&player, DECK - 1)      # 2..48 cards on the table
            while True:
                n = _legal(&s, legal)
                action = legal[rng_bounded(&player, <uint32_t>n)]
                _apply(&s, action)
                if s.laid == laid_at:
                    break
            self.states[i] = s
        self.n = positions

    def __dealloc__(self):
        free(self.states)

    def run(self, int reps):
        """Score every prepared card ``reps`` times; return the sum of the points."""
        cdef int _rep, i, n_lines
        cdef int64_t total = 0
        cdef const tom_t *s
        with nogil:
            for _rep in range(reps):
                for i in range(self.n):
                    s = &self.states[i]
                    total += _score(s, _plane_y(s, s.last_row), _plane_x(s, s.last_col),
                                    s.last_shown, NULL, &n_lines)
        return total

    @property
    def positions(self):
        """How many cards one ``run(1)`` scores."""
        return self.n
