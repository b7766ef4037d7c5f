# Fool (Friedemann Friese): the compiled engine behind ``boardcore.fool``.
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
# The whole position is the struct ``fool_t``; ``copy()`` is a struct copy plus the
# history buffer.
cimport cython
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from _common cimport action_index, rollout_seed, seat_index, state_reduce
from _fields cimport field
from _history cimport hist_copy, hist_free, hist_list, hist_load, hist_push, hist_t
from _rng cimport derive_seed, rng_bounded, rng_seed, rng_shuffle_u8, rng_t

import numpy as np

from boardcore.errors import IllegalActionError, InvalidStateError, NotationError
from boardcore.protocol import Outcome, header

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline int fool_popcount(unsigned int x) {
        x = x - ((x >> 1) & 0x55555555u);
        x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
        return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
    }
    static __inline int fool_ctz(unsigned int x) {
        unsigned long i; _BitScanForward(&i, x); return (int)i;
    }
    #else
    static inline int fool_popcount(unsigned int x) { return __builtin_popcount(x); }
    static inline int fool_ctz(unsigned int x) { return __builtin_ctz(x); }
    #endif
    """
    int fool_popcount(uint32_t x) noexcept nogil
    int fool_ctz(uint32_t x) noexcept nogil

cdef enum:
    MAX_PLAYERS = 8
    WILD = 4            # index of the wild-1 word of a hand
    WORDS = 5
    NUM_ACTIONS = 83
    W1 = 82             # the action (card kind) of a wild 1
    DECK_MAX = 88
    NO_SEAT = 255

# Highest value of each colour in the full 88-card box (F1).
cdef uint8_t COLOUR_TOP[4]
COLOUR_TOP[:] = [27, 23, 21, 15]
cdef uint8_t COLOUR_OFFSET[5]
COLOUR_OFFSET[:] = [0, 26, 48, 68, 82]
# Per action: its colour word (4 for a wild 1), bit in that word, face value (1 for W1).
cdef uint8_t CARD_COLOUR[NUM_ACTIONS]
cdef uint8_t CARD_BIT[NUM_ACTIONS]
cdef uint8_t CARD_VALUE[NUM_ACTIONS]


cdef void _init_tables() noexcept:
    cdef int c, v
    for c in range(4):
        for v in range(2, COLOUR_TOP[c] + 1):
            CARD_COLOUR[COLOUR_OFFSET[c] + v - 2] = c
            CARD_BIT[COLOUR_OFFSET[c] + v - 2] = v - 2
            CARD_VALUE[COLOUR_OFFSET[c] + v - 2] = v
    CARD_COLOUR[W1] = WILD
    CARD_BIT[W1] = 0
    CARD_VALUE[W1] = 1


_init_tables()

COLOUR_LETTERS = "GRYB"
COLOUR_NAMES = ("green", "red", "yellow", "blue")
_NAMES = [f"{COLOUR_LETTERS[CARD_COLOUR[a]]}{CARD_VALUE[a]}" for a in range(W1)] + ["W1"]
_PARSE = {name: a for a, name in enumerate(_NAMES)}
_NO_ACTIONS = np.zeros(NUM_ACTIONS, dtype=np.bool_)

# End codes (stats["end"], Fool.end_reasons order).
cdef enum:
    END_MINUS_80 = 0
    END_SIX_PLUS_10 = 1
    END_BOTH = 2


ctypedef struct fool_t:
    uint32_t hand[MAX_PLAYERS][WORDS]
    int32_t score[MAX_PLAYERS]
    uint8_t plus10[MAX_PLAYERS]         # rounds in which each seat scored +10
    uint8_t trick_seat[MAX_PLAYERS]     # the current trick, in play order
    uint8_t trick_card[MAX_PLAYERS]
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
    rng_t rng


# ---------------------------------------------------------------------------------------
# Compiled rules: every function below trusts its input (validated at the boundary).

cdef inline bint _hand_empty(const uint32_t *h) noexcept nogil:
    return (h[0] | h[1] | h[2] | h[3] | h[4]) == 0


cdef inline int _hand_size(const uint32_t *h) noexcept nogil:
    return (fool_popcount(h[0]) + fool_popcount(h[1]) + fool_popcount(h[2])
            + fool_popcount(h[3]) + fool_popcount(h[4]))


cdef int _hand_points(const uint32_t *h) noexcept nogil:
    # F11: a card scores its value, a wild 1 scores 5.
    cdef int c, total = 5 * fool_popcount(h[WILD])
    cdef uint32_t m
    for c in range(4):
        m = h[c]
        while m:
            total += fool_ctz(m) + 2
            m &= m - 1
    return total


cdef void _deal(fool_t *s) noexcept nogil:
    # F3: shuffle the whole prepared deck, deal it one card at a time clockwise from the
    # dealer's left; that player leads, nobody is a Fool.
    cdef uint8_t cards[DECK_MAX]
    cdef int k, seat
    cdef uint8_t card
    memcpy(cards, s.deck, s.deck_len)
    rng_shuffle_u8(&s.rng, cards, s.deck_len)
    memset(s.hand, 0, sizeof(s.hand))
    seat = s.dealer + 1
    if seat == s.n:
        seat = 0
    s.leader = seat
    s.to_move = seat
    for k in range(s.deck_len):
        card = cards[k]
        if card == W1:
            s.hand[seat][WILD] = (s.hand[seat][WILD] << 1) | 1
        else:
            s.hand[seat][CARD_COLOUR[card]] |= (<uint32_t>1) << CARD_BIT[card]
        seat += 1
        if seat == s.n:
            seat = 0
    s.fools = 0
    s.trick_len = 0
    s.trick_size = s.n
    s.lead = -1


cdef inline int _legal_masks(const fool_t *s, uint32_t *m) noexcept nogil:
    # F6: a player holding the lead colour plays it or a wild 1; otherwise any card.
    # m[4] is 1 when W1 is legal.  Returns the number of legal actions.
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
    return (fool_popcount(m[0]) + fool_popcount(m[1]) + fool_popcount(m[2])
            + fool_popcount(m[3]) + m[WILD])


cdef inline int _nth_action(const uint32_t *m, int i) noexcept nogil:
    # The i-th legal action in ascending order (colours in action order, then W1).
    cdef int c, k
    cdef uint32_t w
    for c in range(4):
        w = m[c]
        k = fool_popcount(w)
        if i < k:
            while i:
                w &= w - 1
                i -= 1
            return COLOUR_OFFSET[c] + fool_ctz(w)
        i -= k
    return W1


cdef inline bint _is_legal(const fool_t *s, int a) noexcept nogil:
    cdef uint32_t m[WORDS]
    _legal_masks(s, m)
    return (m[CARD_COLOUR[a]] >> CARD_BIT[a]) & 1


cdef uint8_t _trick_fools(const uint8_t *seats, const uint8_t *cards, int length, int lead,
                          int nfools, uint8_t *winner) noexcept nogil:
    # The trick kernel (F7, F8): one key orders every card from worst to best,
    #   key = in_lead_colour << 12 | value << 4 | (15 - position)
    # where wild 1s count as the lead colour with value 1.  The highest key wins (highest
    # lead-colour card; among 1s only, the first played), the lowest keys are the Fools
    # (off-colour before lead colour, lower before higher, later before earlier).
    # Returns the bitmask of the Fools' seats and writes the winner's seat.
    cdef int i, c, key
    cdef int best = -1, best_i = 0
    cdef int lo1 = 0x7FFF, lo1_i = 0, lo2 = 0x7FFF, lo2_i = 0
    cdef uint8_t card
    for i in range(length):
        card = cards[i]
        c = CARD_COLOUR[card]
        key = (((c == lead) | (c == WILD)) << 12) | (CARD_VALUE[card] << 4) | (15 - i)
        if key > best:
            best = key
            best_i = i
        if key < lo1:
            lo2 = lo1
            lo2_i = lo1_i
            lo1 = key
            lo1_i = i
        elif key < lo2:
            lo2 = key
            lo2_i = i
    winner[0] = seats[best_i]
    if nfools == 2:
        return ((<uint8_t>1) << seats[lo1_i]) | ((<uint8_t>1) << seats[lo2_i])
    return (<uint8_t>1) << seats[lo1_i]


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


cdef void _end_trick(fool_t *s) noexcept nogil:
    # F9, F10: name the Fools; the winner leads the next trick unless a hand ran out.
    cdef uint8_t winner
    cdef uint8_t fools = _trick_fools(s.trick_seat, s.trick_card, s.trick_len, s.lead,
                                      s.nfools, &winner)
    cdef int i
    s.leader = winner
    for i in range(s.trick_len):
        if _hand_empty(s.hand[s.trick_seat[i]]):
            _end_round(s, fools)
            return
    s.fools = fools
    s.to_move = winner
    s.trick_len = 0
    s.trick_size = s.n - fool_popcount(fools)
    s.lead = -1


cdef void _apply(fool_t *s, int a) noexcept nogil:
    cdef uint8_t p = s.to_move
    cdef int c = CARD_COLOUR[a]
    if c == WILD:
        s.hand[p][WILD] >>= 1
    else:
        s.hand[p][c] &= ~((<uint32_t>1) << CARD_BIT[a])
        if s.lead < 0:
            s.lead = c          # F5: the first coloured card sets the lead colour
    s.trick_seat[s.trick_len] = p
    s.trick_card[s.trick_len] = a
    s.trick_len += 1
    if s.trick_len < s.trick_size:
        # F4: clockwise, skipping the Fools.
        p += 1
        if p == s.n:
            p = 0
        while (s.fools >> p) & 1:
            p += 1
            if p == s.n:
                p = 0
        s.to_move = p
    else:
        _end_trick(s)


cdef Py_ssize_t _play_random(fool_t *s, rng_t *player, hist_t *h) noexcept nogil:
    # The random player: action i of the ascending legal list, i = bounded(count) from the
    # player's own generator.  Returns the actions played, or -1 if history ran out of memory.
    cdef uint32_t m[WORDS]
    cdef int count, a
    cdef Py_ssize_t played = 0
    while not s.over:
        count = _legal_masks(s, m)
        a = _nth_action(m, rng_bounded(player, count))
        if h != NULL and hist_push(h, <uint16_t>a) < 0:
            return -1
        _apply(s, a)
        played += 1
    return played


cdef void _winners(const fool_t *s, uint8_t *out) noexcept nogil:
    # F13: the highest total wins; tied leaders share.
    cdef int p
    cdef int32_t top = s.score[0]
    for p in range(1, s.n):
        if s.score[p] > top:
            top = s.score[p]
    for p in range(s.n):
        out[p] = s.score[p] == top


# ---------------------------------------------------------------------------------------
# The Python boundary.

cdef int _prototype(fool_t *s, object game) except -1:
    # Configuration fields of a fresh state (before the seed and the first deal).
    cdef int c, v, k = 0
    deck = game.deck
    memset(s, 0, sizeof(fool_t))
    s.n = game.num_players
    s.nfools = game.fools_per_trick
    for c in range(4):
        for v in range(2, <int>deck[c] + 1):
            s.deck[k] = COLOUR_OFFSET[c] + v - 2
            s.deck_mask[c] |= (<uint32_t>1) << (v - 2)
            k += 1
    memset(&s.deck[k], W1, <int>deck[4])
    s.deck_mask[WILD] = ((<uint32_t>1) << <int>deck[4]) - 1
    s.deck_len = k + <int>deck[4]
    s.round = 1
    s.dealer = (<int>game.options["start_player"] + s.n - 1) % s.n
    return 0


cdef list _mask_actions(const uint32_t *m):
    # The actions of a hand-shaped bitset, ascending; W1 repeated once per wild 1.
    # Filled in place (no appends): legal_actions() is on every Python-driven move.
    cdef int c, k = 0, wilds = fool_popcount(m[WILD])
    cdef uint32_t w
    cdef list out = PyList_New(fool_popcount(m[0]) + fool_popcount(m[1])
                               + fool_popcount(m[2]) + fool_popcount(m[3]) + wilds)
    cdef object a
    for c in range(4):
        w = m[c]
        while w:
            a = COLOUR_OFFSET[c] + fool_ctz(w)
            Py_INCREF(a)
            PyList_SET_ITEM(out, k, a)
            k += 1
            w &= w - 1
    while wilds:
        a = W1
        Py_INCREF(a)
        PyList_SET_ITEM(out, k, a)
        k += 1
        wilds -= 1
    return out


def _trick_kernel(const uint8_t[:, ::1] seats, const uint8_t[:, ::1] cards,
                  const int8_t[::1] leads, const uint8_t[::1] lengths, int nfools,
                  Py_ssize_t repeat=1):
    """Resolve prepared tricks in compiled code: ``(winners, fools)`` arrays.

    Row ``i`` is a trick of ``lengths[i]`` cards (action ids) played by ``seats[i]`` with
    lead colour ``leads[i]`` (-1: only wild 1s).  ``repeat`` resolves the whole batch
    that many times (for the kernel benchmark); the result is the same.
    """
    cdef Py_ssize_t n = seats.shape[0], i, r
    if cards.shape[0] != n or leads.shape[0] != n or lengths.shape[0] != n:
        raise ValueError("seats, cards, leads and lengths must have one row per trick")
    if seats.shape[1] < MAX_PLAYERS or cards.shape[1] < MAX_PLAYERS:
        raise ValueError(f"seats and cards need {MAX_PLAYERS} columns")
    if nfools not in (1, 2):
        raise ValueError(f"nfools must be 1 or 2, not {nfools!r}")
    for i in range(n):
        if not 2 < lengths[i] <= MAX_PLAYERS or not -1 <= leads[i] < 4:
            raise ValueError(f"trick {i} has length {lengths[i]} or lead {leads[i]} out of range")
        for r in range(lengths[i]):
            if cards[i, r] >= NUM_ACTIONS or seats[i, r] >= MAX_PLAYERS:
                raise ValueError(f"trick {i} has a card or seat out of range")
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


# gcc expands a fixed-size memcpy of this large struct into `rep movsq`, whose start-up
# cost dominates copy(); calling the C library's memcpy through a pointer the compiler
# cannot see through is faster.
cdef void *(*_copy_bytes)(void *, const void *, size_t) noexcept nogil
_copy_bytes = memcpy


@cython.final
@cython.freelist(32)
@cython.no_gc      # holds only the (immutable) game and seed: no cycles to collect
cdef class FoolState:
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
    cdef hist_t hist
    cdef readonly object game
    cdef readonly object seed

    def __init__(self, *args, **kwargs):
        raise TypeError("FoolState cannot be made directly; use Fool(...).new_state(seed)")

    def __dealloc__(self):
        hist_free(&self.hist)

    # -- construction used by the framework ----------------------------------------------

    @staticmethod
    def _new(game, seed):
        """Return the starting position of ``game`` for a checked 64-bit ``seed``."""
        cdef FoolState st = FoolState.__new__(FoolState)
        _prototype(&st.s, game)
        rng_seed(&st.s.rng, <uint64_t>seed)
        _deal(&st.s)
        st.game = game
        st.seed = seed
        return st

    @staticmethod
    def _from_dict(game, data):
        """Rebuild a state from ``to_dict()`` output, validating every field."""
        cdef FoolState st = FoolState.__new__(FoolState)
        _load(st, game, data)
        return st

    @staticmethod
    def _simulate_chunk(game, seed, Py_ssize_t start, Py_ssize_t stop,
                        int64_t[:, ::1] scores, uint8_t[:, ::1] winners,
                        int64_t[::1] lengths, int64_t[:, ::1] stats):
        """Play games ``start..stop-1`` of a ``simulate`` batch without the GIL."""
        cdef fool_t proto, st
        cdef rng_t player
        cdef uint64_t batch = seed
        cdef Py_ssize_t g
        cdef int p
        cdef uint8_t win[MAX_PLAYERS]
        _prototype(&proto, game)
        if scores.shape[1] < proto.n or winners.shape[1] < proto.n or stats.shape[1] < 2:
            raise ValueError("result arrays are too narrow for this game")
        if not (0 <= start <= stop <= scores.shape[0] and stop <= winners.shape[0]
                and stop <= lengths.shape[0] and stop <= stats.shape[0]):
            raise ValueError(f"games {start}..{stop} do not fit the result arrays")
        with nogil:
            for g in range(start, stop):
                st = proto
                rng_seed(&st.rng, derive_seed(batch, 0, <uint64_t>g))
                _deal(&st)
                rng_seed(&player, derive_seed(batch, 1, <uint64_t>g))
                lengths[g] = _play_random(&st, &player, NULL)
                _winners(&st, win)
                for p in range(st.n):
                    scores[g, p] = st.score[p]
                    winners[g, p] = win[p]
                stats[g, 0] = st.end
                stats[g, 1] = st.round

    # -- the State protocol -------------------------------------------------------------

    @property
    def current_player(self):
        """The seat to play, or ``None`` once the game is over (Fools never play)."""
        return None if self.s.over else self.s.to_move

    def legal_actions(self):
        """Return the legal actions (card kinds), ascending; empty once the game is over."""
        cdef uint32_t m[WORDS]
        if self.s.over:
            return []
        _legal_masks(&self.s, m)
        return _mask_actions(m)

    def legal_actions_mask(self):
        """Return a numpy ``bool_`` array of length ``num_actions``, True where legal."""
        mask = _NO_ACTIONS.copy()
        if not self.s.over:
            mask[self.legal_actions()] = True
        return mask

    def apply(self, action):
        """Play the card ``action`` for the current player; illegal changes nothing."""
        cdef Py_ssize_t a = action_index(action, NUM_ACTIONS)
        if self.s.over:
            raise IllegalActionError(f"illegal action {action!r}: the game is over")
        if not _is_legal(&self.s, <int>a):
            raise IllegalActionError(
                f"illegal action {action!r} ({_NAMES[a]}): seat {self.s.to_move} may play "
                + ", ".join(f"{b} ({_NAMES[b]})" for b in self.legal_actions())
            )
        if hist_push(&self.hist, <uint16_t>a) < 0:
            raise MemoryError("no memory for the history")
        _apply(&self.s, <int>a)

    def action_to_str(self, action):
        """Return the notation of card kind ``action``: ``G17``, ``R2``, ``W1``."""
        return _NAMES[action_index(action, NUM_ACTIONS)]

    def parse_action(self, text):
        """Return the action of a card in notation (``G17``, ``w1``; case-insensitive)."""
        if not isinstance(text, str):
            raise NotationError(f"notation must be a str, not {text!r}")
        a = _PARSE.get(text.strip().upper())
        if a is None:
            raise NotationError(
                f"{text!r} is not a Fool card: write G2..G27, R2..R23, Y2..Y21, B2..B15 or W1"
            )
        return a

    def is_over(self):
        """Return True once the game has ended (F12)."""
        return bool(self.s.over)

    def scores(self):
        """Return every seat's running total over the finished rounds."""
        return tuple([self.s.score[p] for p in range(self.s.n)])

    def outcome(self):
        """Return ``None`` until the game is over, then the ``Outcome`` (F13)."""
        cdef uint8_t win[MAX_PLAYERS]
        if not self.s.over:
            return None
        _winners(&self.s, win)
        return Outcome(scores=self.scores(),
                       winners=frozenset([p for p in range(self.s.n) if win[p]]))

    def copy(self):
        """Return an independent copy (one struct copy plus the history)."""
        cdef FoolState c = FoolState.__new__(FoolState)
        _copy_bytes(&c.s, &self.s, sizeof(self.s))
        c.game = self.game
        c.seed = self.seed
        if hist_copy(&c.hist, &self.hist) < 0:
            raise MemoryError("no memory for the history")
        return c

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def history(self):
        """Return the actions applied since ``new_state``, in order."""
        return hist_list(&self.hist)

    def rollout(self, seed=None):
        """Play uniformly random moves to the end, in place; return the ``Outcome``."""
        cdef rng_t player
        cdef Py_ssize_t played
        rng_seed(&player, rollout_seed(seed))
        with nogil:
            played = _play_random(&self.s, &player, &self.hist)
        if played < 0:
            raise MemoryError("no memory for the history")
        return self.outcome()

    def view(self, player):
        """Return what seat ``player`` may see, as a ``boardcore.fool.FoolView``."""
        from boardcore.fool import FoolView
        cdef int p = seat_index(player, self.s.n)
        cdef uint32_t played[WORDS]
        cdef int c, q, held = 0
        # Cards played this round: the deck minus every hand (wild 1s by count).
        for c in range(WILD):
            played[c] = self.s.deck_mask[c]
            for q in range(self.s.n):
                played[c] &= ~self.s.hand[q][c]
        for q in range(self.s.n):
            held += fool_popcount(self.s.hand[q][WILD])
        played[WILD] = self.s.deck_mask[WILD] >> held
        return FoolView(
            player=p,
            round=self.s.round,
            dealer=self.s.dealer,
            leader=self.s.leader,
            current_player=self.current_player,
            lead_colour=None if self.s.lead < 0 else COLOUR_NAMES[self.s.lead],
            trick=tuple([(self.s.trick_seat[i], self.s.trick_card[i])
                         for i in range(self.s.trick_len)]),
            played=tuple(_mask_actions(played)),
            fools=frozenset(self._fool_seats()),
            hand=tuple(_mask_actions(self.s.hand[p])),
            hand_sizes=tuple([_hand_size(self.s.hand[q]) for q in range(self.s.n)]),
            scores=self.scores(),
            plus10=tuple([self.s.plus10[q] for q in range(self.s.n)]),
            is_over=bool(self.s.over),
        )

    cdef list _fool_seats(self):
        return [p for p in range(self.s.n) if (self.s.fools >> p) & 1]

    def to_dict(self):
        """Return the whole state as a JSON-safe dict (see ``docs/games/fool.md``)."""
        d = header(self)
        d["round"] = self.s.round
        d["dealer"] = self.s.dealer
        d["leader"] = self.s.leader
        d["fools"] = self._fool_seats()
        d["trick"] = [[self.s.trick_seat[i], _NAMES[self.s.trick_card[i]]]
                      for i in range(self.s.trick_len)]
        d["hands"] = [[_NAMES[a] for a in _mask_actions(self.s.hand[p])]
                      for p in range(self.s.n)]
        d["scores"] = list(self.scores())
        d["plus10"] = [self.s.plus10[p] for p in range(self.s.n)]
        d["history"] = self.history()
        d["rng"] = [self.s.rng.s[i] for i in range(4)]
        return d

    def __reduce__(self):
        return state_reduce(self)

    def __repr__(self):
        seat = "over" if self.s.over else f"seat {self.s.to_move} to act"
        return (f"<FoolState players={self.s.n} round={self.s.round} {seat} "
                f"move={self.hist.len}>")

    def __str__(self):
        cdef int p
        lines = [
            f"Fool, {self.s.n} players, round {self.s.round}, dealer seat {self.s.dealer}"
            + (", game over" if self.s.over else ""),
            "scores: " + "  ".join(f"{p}:{self.s.score[p]:+d} ({self.s.plus10[p]}x+10)"
                                   for p in range(self.s.n)),
            "fools:  " + (" ".join(f"seat {p}" for p in self._fool_seats()) or "none"),
            "trick:  " + (" ".join(f"{self.s.trick_seat[i]}:{_NAMES[self.s.trick_card[i]]}"
                                   for i in range(self.s.trick_len)) or "-")
            + ("" if self.s.lead < 0 else f"  (lead colour {COLOUR_NAMES[self.s.lead]})"),
        ]
        for p in range(self.s.n):
            mark = ">" if not self.s.over and p == self.s.to_move else " "
            cards = " ".join(_NAMES[a] for a in _mask_actions(self.s.hand[p]))
            lines.append(f"{mark} seat {p} [{_hand_size(self.s.hand[p]):2d}] {cards or '-'}")
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------
# to_dict -> state, with every field checked.

cdef object _field(object data, str name, type kind):
    value = field(data, name)
    if type(value) is not kind:
        raise InvalidStateError(f"field {name!r} is {value!r}, expected a {kind.__name__}")
    return value


cdef int _seat_field(object data, str name, int n) except -1:
    value = _field(data, name, int)
    if not 0 <= value < n:
        raise InvalidStateError(f"field {name!r} is {value!r}, expected a seat in range({n})")
    return value


cdef int _card_field(object text, str name) except -1:
    if type(text) is not str or text not in _PARSE:
        raise InvalidStateError(f"field {name!r} holds {text!r}, expected a card such as 'G17'")
    return _PARSE[text]


cdef int _load(FoolState st, object game, object data) except -1:
    cdef fool_t *s = &st.s
    cdef int n, p, i, a, c, q, count, played, wilds = 0
    cdef uint32_t seen[WORDS]
    cdef uint32_t bit
    _prototype(s, game)
    n = s.n
    rnd = _field(data, "round", int)
    if not 1 <= rnd <= 1_000_000:
        raise InvalidStateError(f"field 'round' is {rnd!r}, expected an int in 1..1000000")
    s.round = rnd
    dealer = _seat_field(data, "dealer", n)
    expected = (game.options["start_player"] - 1 + rnd - 1) % n
    if dealer != expected:
        raise InvalidStateError(
            f"field 'dealer' is {dealer!r}, expected {expected!r} in round {rnd} (F3)")
    s.dealer = dealer
    # Scores and +10 counts; the end condition (F12) decides whether the game is over.
    scores = _field(data, "scores", list)
    plus10 = _field(data, "plus10", list)
    if len(scores) != n or len(plus10) != n:
        raise InvalidStateError(f"fields 'scores' and 'plus10' need {n} entries")
    for p in range(n):
        if type(scores[p]) is not int or type(plus10[p]) is not int:
            raise InvalidStateError(
                f"fields 'scores' and 'plus10' hold {scores[p]!r}, {plus10[p]!r}, expected ints")
    minus = any(x <= -80 for x in scores)
    six = any(x >= 6 for x in plus10)
    if minus or six:
        s.over = 1
        s.end = END_BOTH if minus and six else (END_MINUS_80 if minus else END_SIX_PLUS_10)
    # A finished game stays on its last round, so that round counts as completed.
    done = rnd if s.over else rnd - 1
    for p in range(n):
        if not 0 <= plus10[p] <= min(done, 6):
            raise InvalidStateError(
                f"field 'plus10' holds {plus10[p]!r}, expected an int in 0..{min(done, 6)}")
        if not -1_000_000 <= scores[p] <= 10 * plus10[p]:
            raise InvalidStateError(
                f"field 'scores' holds {scores[p]!r}, expected an int in "
                f"-1000000..{10 * plus10[p]} (10 per +10 round)")
        s.score[p] = scores[p]
        s.plus10[p] = plus10[p]
    # Hands: cards of this deck, each held once, wild 1s within the deck's count.
    hands = _field(data, "hands", list)
    if len(hands) != n:
        raise InvalidStateError(f"field 'hands' needs {n} hands, not {len(hands)}")
    memset(seen, 0, sizeof(seen))
    for p in range(n):
        if type(hands[p]) is not list:
            raise InvalidStateError(f"field 'hands' holds {hands[p]!r}, expected a list")
        for text in hands[p]:
            a = _card_field(text, "hands")
            c = CARD_COLOUR[a]
            if c == WILD:
                s.hand[p][WILD] = (s.hand[p][WILD] << 1) | 1
                wilds += 1
                continue
            bit = (<uint32_t>1) << CARD_BIT[a]
            if not s.deck_mask[c] & bit:
                raise InvalidStateError(f"field 'hands' holds {text!r}, not in this deck (F2)")
            if seen[c] & bit:
                raise InvalidStateError(f"field 'hands' holds {text!r} twice")
            seen[c] |= bit
            s.hand[p][c] |= bit
    if wilds > fool_popcount(s.deck_mask[WILD]):
        raise InvalidStateError(
            f"field 'hands' holds {wilds} wild 1s, this deck has "
            f"{fool_popcount(s.deck_mask[WILD])}")
    # The trick so far: seats clockwise from the leader skipping the Fools, cards out of
    # the players' hands, each one legal when it was played (F4-F6).
    fools = _field(data, "fools", list)
    for x in fools:
        if type(x) is not int or not 0 <= x < n or (s.fools >> x) & 1:
            raise InvalidStateError(f"field 'fools' holds {x!r}, expected distinct seats")
        s.fools |= 1 << x
    if fool_popcount(s.fools) not in (0, s.nfools):
        raise InvalidStateError(
            f"field 'fools' is {fools!r}, expected none or {s.nfools} seat(s) (F2, F9)")
    s.leader = _seat_field(data, "leader", n)
    if (s.fools >> s.leader) & 1:
        raise InvalidStateError(f"field 'leader' is {s.leader!r}, a Fool who sits out (F9)")
    trick = _field(data, "trick", list)
    s.trick_size = n - fool_popcount(s.fools)
    if len(trick) >= s.trick_size or (s.over and trick):
        raise InvalidStateError(
            f"field 'trick' has {len(trick)} cards, expected fewer than {s.trick_size}"
            + (" and none once the game is over" if s.over else ""))
    s.lead = -1
    q = s.leader
    for i in range(len(trick)):
        entry = trick[i]
        if type(entry) is not list or len(entry) != 2 or type(entry[0]) is not int:
            raise InvalidStateError(f"field 'trick' holds {entry!r}, expected [seat, card]")
        if entry[0] != q:
            raise InvalidStateError(
                f"field 'trick' holds {entry!r}, but seat {q} plays card {i} (F4)")
        a = _card_field(entry[1], "trick")
        c = CARD_COLOUR[a]
        if c == WILD:
            wilds += 1
        else:
            bit = (<uint32_t>1) << CARD_BIT[a]
            if not s.deck_mask[c] & bit or seen[c] & bit:
                raise InvalidStateError(
                    f"field 'trick' holds {entry[1]!r}, not in this deck or also in a hand")
            seen[c] |= bit
            if s.lead >= 0 and c != s.lead and s.hand[q][s.lead]:
                raise InvalidStateError(
                    f"field 'trick' holds {entry!r}, but seat {q} holds the lead colour (F6)")
            if s.lead < 0:
                s.lead = c
        s.trick_seat[i] = q
        s.trick_card[i] = a
        q = (q + 1) % n
        while (s.fools >> q) & 1:
            q = (q + 1) % n
    s.trick_len = len(trick)
    if wilds > fool_popcount(s.deck_mask[WILD]):
        raise InvalidStateError(
            f"fields 'hands' and 'trick' hold {wilds} wild 1s, this deck has "
            f"{fool_popcount(s.deck_mask[WILD])}")
    # Fools: none on the first trick of a round, otherwise exactly the Fools per trick.
    count = 0
    for p in range(n):
        count += _hand_size(s.hand[p])
    played = s.deck_len - count
    if s.fools == 0:
        if played != s.trick_len or s.leader != (s.dealer + 1) % n:
            raise InvalidStateError(
                "field 'fools' is empty, which only the first trick of a round led by the "
                f"dealer's left ({(s.dealer + 1) % n}) allows (F3)")
    elif played <= s.trick_len:
        raise InvalidStateError(
            f"field 'fools' is {fools!r}, expected {s.nfools} seat(s) after the first trick")
    if s.over:
        s.to_move = NO_SEAT
    else:
        s.to_move = q
        for p in range(n):
            if _hand_empty(s.hand[p]) and not any(e[0] == p for e in trick):
                raise InvalidStateError(
                    f"field 'hands' has an empty hand for seat {p}, who has not just played "
                    "their last card (F10)")
    # History and generator.
    history = _field(data, "history", list)
    for x in history:
        if type(x) is not int or not 0 <= x < NUM_ACTIONS:
            raise InvalidStateError(
                f"field 'history' holds {x!r}, expected actions in range({NUM_ACTIONS})")
    rng = _field(data, "rng", list)
    if len(rng) != 4 or any(type(x) is not int or not 0 <= x < 2**64 for x in rng) \
            or not any(rng):
        raise InvalidStateError(
            f"field 'rng' is {rng!r}, expected four 64-bit words, not all zero")
    for i in range(4):
        s.rng.s[i] = rng[i]
    if hist_load(&st.hist, history) < 0:
        raise MemoryError("no memory for the history")
    st.game = game
    st.seed = data["seed"]
    return 0
