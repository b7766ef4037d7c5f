# Rummikub Junior, compiled: the rules of ../shared/rules/rummikub_junior.md (K1-K12).
#
# Data layout
# -----------
# A numbered tile is ``10 * colour + (number - 1)`` with colours R B Y K = 0..3, so
# 0..39; a joker is 40.  A rack is a 40-bit mask of numbered tiles (bit = tile) plus a
# joker count, so ``(rack >> 10 * c) & 0x3FF`` is colour c's numbers, bit k = number
# k + 1.  A table run is its colour, its first number ``lo``, its length and a joker
# mask (bit i: position i is a joker, standing for number ``lo + i``).  The pool is
# ``pool[pool_pos:44]`` in draw order.
#
# Actions (9,858 in all), ascending in this order:
#   0                      pass: lay nothing, pay 1 star and draw 1 tile (K8)
#   1                      end the turn (K5)
#   2 + 4*r + 2*s + j      extend run r (0..13) on side s (0 left, 1 right) with its
#                          tile (j = 0) or a joker (j = 1) (K5b)
#   58 + 10*r + i          swap the joker at position i (0..9) of run r (K5c)
#   198 + k                lay new run k (K5a): k orders every (colour, lo, length,
#                          joker mask) by colour, lo, length, then the mask as an
#                          integer; masks hold at most 4 jokers and leave at least one
#                          numbered tile (K6): 4 * 2,415 = 9,660 runs
#
# Chance, all from the state's own generator: one Fisher-Yates shuffle of the 44 tiles
# listed R1..R10 B1..B10 Y1..Y10 K1..K10 J J J J; the pool is drawn from its front;
# seats 0..n-1 in turn each take the next 6 tiles (K4).  Nothing else is random.
cimport cython
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from _common cimport (action_index, legal_list, legal_mask, rollout_seed, seat_index,
                      state_reduce)
from _fields cimport field, int_field
from _history cimport hist_copy, hist_free, hist_list, hist_load, hist_push, hist_t
from _rng cimport derive_seed, rng_bounded, rng_seed, rng_shuffle_u8, rng_t

import re

import numpy as np

from boardcore.errors import IllegalActionError, InvalidStateError, NotationError
from boardcore.protocol import Outcome, header

cdef enum:
    N_COLOURS = 4
    N_NUMBERS = 10
    N_NUMBERED = 40
    N_TILES = 44
    JOKER = 40
    N_JOKERS = 4
    RACK_START = 6        # K4
    STARS_START = 6       # K2
    STARS_TOTAL = 56      # K2
    MAX_PLAYERS = 4
    MAX_RUNS = 14         # every run holds at least 3 of the 44 tiles
    NO_SEAT = 255
    A_PASS = 0
    A_END = 1
    A_EXTEND = 2
    A_SWAP = 58
    A_NEW = 198
    N_NEW = 9660
    N_ACTIONS = 9858

# End codes; stats["end"] is the code, labels in RummikubJunior.end_reasons.
cdef enum:
    END_WENT_OUT = 0
    END_BLOCKED = 1

ctypedef struct run_t:
    uint8_t colour
    uint8_t lo                       # first number, 1..10
    uint8_t length                   # 3..10
    uint16_t jokers                  # bit i: position i is a joker

ctypedef struct rkj_t:
    rng_t rng
    uint64_t rack[MAX_PLAYERS]       # numbered tiles held, bit = tile
    int32_t stars[MAX_PLAYERS]
    uint8_t rack_jokers[MAX_PLAYERS]
    run_t runs[MAX_RUNS]             # in the order they were laid
    uint8_t pool[N_TILES]            # draw order; pool[pool_pos:] is still face down
    uint8_t pool_pos
    uint8_t n_runs
    uint8_t n_players
    uint8_t current                  # seat to act, NO_SEAT once over
    uint8_t laid                     # K5: a tile was laid this turn
    uint8_t pending                  # K5c: a taken joker the next action must lay
    uint8_t passes                   # K11: passes in a row with the pool already empty
    uint8_t went_out                 # K10: the seat that laid its last tile

# The action tables, filled once at import.
cdef uint8_t POP[1024]               # popcount of a 10-bit mask
cdef uint8_t LOW[1024]               # index of the lowest set bit of a 10-bit mask
cdef int16_t RANK[11][1024]          # rank of a joker mask among a length's valid masks
cdef int16_t BASE[N_COLOURS][11][11]  # first new-run index of (colour, lo, length)
cdef uint8_t NEW_COLOUR[N_NEW]
cdef uint8_t NEW_LO[N_NEW]
cdef uint8_t NEW_LEN[N_NEW]
cdef uint16_t NEW_MASK[N_NEW]


cdef int _build_tables() except -1:
    cdef int m, length, c, lo, r, k = 0
    for m in range(1024):
        POP[m] = POP[m >> 1] + (m & 1) if m else 0
        LOW[m] = 0 if m & 1 or m == 0 else LOW[m >> 1] + 1
    for length in range(11):
        for m in range(1024):
            RANK[length][m] = -1
    for length in range(3, 11):
        r = 0
        for m in range(1 << length):
            # K6: at most the 4 jokers, and at least one numbered tile.
            if POP[m] <= N_JOKERS and m != (1 << length) - 1:
                RANK[length][m] = r
                r += 1
    for c in range(N_COLOURS):
        for lo in range(1, 9):
            for length in range(3, 12 - lo):
                BASE[c][lo][length] = k
                for m in range(1 << length):
                    if RANK[length][m] >= 0:
                        NEW_COLOUR[k] = c
                        NEW_LO[k] = lo
                        NEW_LEN[k] = length
                        NEW_MASK[k] = m
                        k += 1
    if k != N_NEW:
        raise AssertionError(f"new-run table holds {k} runs, expected {N_NEW}")
    return 0


_build_tables()

COLOURS = "RBYK"
TILES = tuple(f"{COLOURS[t // 10]}{t % 10 + 1}" for t in range(N_NUMBERED)) + ("J",)
TILE_INDEX = {name: t for t, name in enumerate(TILES)}
# Every action as a ready Python int: legal_actions() hands out references instead of
# allocating ints on every Python-driven move.
cdef tuple ACTION_INTS = tuple(range(N_ACTIONS))


# ---------------------------------------------------------------------------------
# The rules, on the C struct.  Inner functions trust their input.
# ---------------------------------------------------------------------------------

cdef inline int _rack_size(const rkj_t *s, int p) noexcept nogil:
    cdef uint64_t r = s.rack[p]
    return (POP[r & 0x3FF] + POP[(r >> 10) & 0x3FF] + POP[(r >> 20) & 0x3FF]
            + POP[(r >> 30) & 0x3FF] + s.rack_jokers[p])


cdef inline uint64_t _bit(int colour, int number) noexcept nogil:
    return (<uint64_t>1) << (colour * N_NUMBERS + number - 1)


cdef void _init(rkj_t *s, int n_players, int start_player, uint64_t seed) noexcept nogil:
    cdef int i, p, _
    memset(s, 0, sizeof(rkj_t))
    rng_seed(&s.rng, seed)
    for i in range(N_TILES):
        s.pool[i] = i if i < N_NUMBERED else JOKER
    rng_shuffle_u8(&s.rng, s.pool, N_TILES)          # K4
    s.n_players = n_players
    for p in range(n_players):
        s.stars[p] = STARS_START                      # K2
        for _ in range(RACK_START):
            _draw(s, p)
    s.current = start_player                          # K1
    s.went_out = NO_SEAT


cdef inline void _draw(rkj_t *s, int p) noexcept nogil:
    cdef uint8_t t = s.pool[s.pool_pos]
    s.pool_pos += 1
    if t == JOKER:
        s.rack_jokers[p] += 1
    else:
        s.rack[p] |= (<uint64_t>1) << t


cdef int _new_runs(int c, uint32_t held, int jokers, bint pending, uint16_t *out,
                   int n) noexcept nogil:
    # K5a/K6: every run of colour c the rack can lay: each placement (lo, length) whose
    # numbers the rack holds but for at most `jokers`, with a joker on every missing
    # number and optionally on held ones; never all jokers; with a taken joker pending,
    # at least one joker (K5c).  Appends ascending to `out` (when not NULL) from index
    # n and returns the new count.  Masks are relative to the run: bit i = position i.
    cdef int lo, length, k, need
    cdef uint32_t span, missing, spare, sub, m, full, starts
    if held == 0 or POP[held] + jokers < 3:
        return n                           # K3/K6: 3 tiles, one of them numbered
    if jokers == 0:
        if pending:
            return n
        # Runs without jokers start where 3 numbers in a row are held; each grows while
        # the next number is held.  Same order as below: lo, then length.
        starts = held & (held >> 1) & (held >> 2)
        while starts:
            lo = LOW[starts] + 1
            starts &= starts - 1
            length = 3
            while True:
                if out != NULL:
                    out[n] = A_NEW + BASE[c][lo][length]     # RANK[length][0] == 0
                n += 1
                if lo + length > N_NUMBERS or not (held >> (lo + length - 1)) & 1:
                    break
                length += 1
        return n
    for lo in range(1, 9):
        for length in range(3, 12 - lo):
            span = (((<uint32_t>1) << length) - 1) << (lo - 1)
            missing = (span & ~held) >> (lo - 1)
            need = POP[missing]
            if need > jokers:
                break                      # longer runs from this lo miss even more
            full = ((<uint32_t>1) << length) - 1
            if need == jokers or jokers == 0:
                spare = 0                  # no joker left to put on a held number
            else:
                spare = (span & held) >> (lo - 1)
            sub = 0
            while True:
                m = missing | sub
                k = POP[m]
                if k <= jokers and m != full and (k > 0 or not pending):
                    if out != NULL:
                        out[n] = A_NEW + BASE[c][lo][length] + RANK[length][m]
                    n += 1
                if sub == spare:
                    break
                sub = (sub - spare) & spare    # next subset of `spare`, ascending
    return n


cdef bint _joker_place(const rkj_t *s, uint64_t rack, int jokers) noexcept nogil:
    # K5c: after a swap, can the next action lay a joker?  Any run with room at an end
    # takes it; otherwise a new run with a joker from the rack after the swap.
    cdef int r, c
    for r in range(s.n_runs):
        if s.runs[r].length < N_NUMBERS:
            return True
    for c in range(N_COLOURS):
        if _new_runs(c, <uint32_t>((rack >> (c * N_NUMBERS)) & 0x3FF), jokers, True,
                     NULL, 0):
            return True
    return False


cdef int _legal(const rkj_t *s, uint16_t *out) noexcept nogil:
    """Write the legal actions of the seat to act, ascending; return their number."""
    cdef int p, r, i, c, n = 0
    cdef int jokers, num
    cdef bint pending
    cdef uint64_t rack, tile
    cdef uint16_t jm
    cdef const run_t *run
    if s.current == NO_SEAT:
        return 0
    p = s.current
    rack = s.rack[p]
    jokers = s.rack_jokers[p]
    pending = s.pending
    if not pending:
        out[n] = A_END if s.laid else A_PASS          # K5 end, K8 pass
        n += 1
    for r in range(s.n_runs):                          # K5b
        run = &s.runs[r]
        if run.lo > 1:
            if not pending and rack & _bit(run.colour, run.lo - 1):
                out[n] = A_EXTEND + 4 * r
                n += 1
            if jokers:
                out[n] = A_EXTEND + 4 * r + 1
                n += 1
        num = run.lo + run.length
        if num <= N_NUMBERS:
            if not pending and rack & _bit(run.colour, num):
                out[n] = A_EXTEND + 4 * r + 2
                n += 1
            if jokers:
                out[n] = A_EXTEND + 4 * r + 3
                n += 1
    if not pending:                                    # K5c
        for r in range(s.n_runs):
            run = &s.runs[r]
            # The joker positions whose tile the rack holds, as positions (bit i).
            jm = run.jokers & <uint16_t>(
                (rack >> (run.colour * N_NUMBERS + run.lo - 1)) & 0x3FF)
            while jm:
                i = LOW[jm]
                jm &= jm - 1
                tile = _bit(run.colour, run.lo + i)
                if _joker_place(s, rack & ~tile, jokers + 1):
                    out[n] = A_SWAP + 10 * r + i
                    n += 1
    for c in range(N_COLOURS):                         # K5a
        n = _new_runs(c, <uint32_t>((rack >> (c * N_NUMBERS)) & 0x3FF), jokers, pending,
                      out, n)
    return n


@cython.cdivision(True)
cdef bint _is_legal(const rkj_t *s, int a) noexcept nogil:
    """Whether action a (in range) is legal: the same rules as _legal, one action."""
    cdef int p, x, r, i, k, num
    cdef uint64_t rack, tile, need
    cdef const run_t *run
    if s.current == NO_SEAT:
        return False
    p = s.current
    rack = s.rack[p]
    if a == A_PASS:
        return not s.laid
    if a == A_END:
        return s.laid and not s.pending
    if a < A_SWAP:
        x = a - A_EXTEND
        r = x >> 2
        if r >= s.n_runs:
            return False
        run = &s.runs[r]
        if (x >> 1) & 1:
            num = run.lo + run.length
            if num > N_NUMBERS:
                return False
        else:
            num = run.lo - 1
            if num < 1:
                return False
        if x & 1:
            return s.rack_jokers[p] > 0
        return not s.pending and (rack & _bit(run.colour, num)) != 0
    if a < A_NEW:
        x = a - A_SWAP
        r = x / 10
        i = x % 10
        if s.pending or r >= s.n_runs:
            return False
        run = &s.runs[r]
        if i >= run.length or not (run.jokers >> i) & 1:
            return False
        tile = _bit(run.colour, run.lo + i)
        return (rack & tile) != 0 and _joker_place(s, rack & ~tile, s.rack_jokers[p] + 1)
    x = a - A_NEW
    need = (<uint64_t>(((1 << NEW_LEN[x]) - 1) & ~NEW_MASK[x])) << (
        NEW_COLOUR[x] * N_NUMBERS + NEW_LO[x] - 1)
    k = POP[NEW_MASK[x]]
    return (rack & need) == need and k <= s.rack_jokers[p] and (k > 0 or not s.pending)


cdef void _finish(rkj_t *s, int went_out) noexcept nogil:
    # K10/K11: everyone else pays 1 star per tile left, as far as their stars go; the
    # seat that went out gets its bonus star once.
    cdef int q, pay
    for q in range(s.n_players):
        if q != went_out:
            pay = _rack_size(s, q)
            s.stars[q] -= pay if pay < s.stars[q] else s.stars[q]
    if went_out != NO_SEAT:
        s.stars[went_out] += 1
    s.went_out = went_out
    s.current = NO_SEAT
    s.laid = 0
    s.pending = 0


cdef inline void _next_turn(rkj_t *s) noexcept nogil:
    s.current += 1
    if s.current == s.n_players:
        s.current = 0
    s.laid = 0
    s.pending = 0


@cython.cdivision(True)
cdef void _apply(rkj_t *s, int a) noexcept nogil:
    """Apply a legal action of the seat to act."""
    cdef int p = s.current
    cdef int x, r, i, side, joker, gained
    cdef uint16_t m
    cdef run_t *run
    if a == A_PASS:
        if s.pool_pos < N_TILES:
            if s.stars[p] > 0:                 # K8: pay as far as stars go
                s.stars[p] -= 1
            _draw(s, p)
            s.passes = 0                       # K11: a drawing pass does not count
        else:
            s.passes += 1                      # K11: a pass with the pool empty
            if s.passes >= s.n_players:
                _finish(s, NO_SEAT)
                return
        _next_turn(s)
        return
    if a == A_END:
        s.passes = 0                           # a laying turn breaks K11's round
        _next_turn(s)
        return
    if a < A_SWAP:                             # K5b
        x = a - A_EXTEND
        r = x >> 2
        side = (x >> 1) & 1
        joker = x & 1
        run = &s.runs[r]
        if joker:
            s.rack_jokers[p] -= 1
        else:
            s.rack[p] &= ~_bit(run.colour, run.lo - 1 if side == 0 else run.lo + run.length)
        if side == 0:
            run.lo -= 1
            run.jokers = (run.jokers << 1) | joker
        else:
            run.jokers |= joker << run.length
        run.length += 1
        gained = 1
    elif a < A_NEW:                            # K5c
        x = a - A_SWAP
        r = x / 10
        i = x % 10
        run = &s.runs[r]
        run.jokers &= ~(1 << i)
        s.rack[p] &= ~_bit(run.colour, run.lo + i)
        s.rack_jokers[p] += 1
        s.stars[p] += 1                        # K7: the tile put into the run
        s.laid = 1
        s.pending = 1
        return
    else:                                      # K5a
        x = a - A_NEW
        m = NEW_MASK[x]
        run = &s.runs[s.n_runs]
        s.n_runs += 1
        run.colour = NEW_COLOUR[x]
        run.lo = NEW_LO[x]
        run.length = NEW_LEN[x]
        run.jokers = m
        for i in range(run.length):
            if not (m >> i) & 1:
                s.rack[p] &= ~_bit(run.colour, run.lo + i)
        s.rack_jokers[p] -= POP[m]
        gained = run.length + 1                # K7: a star per tile and one per run
    if s.pending:
        gained -= 1                            # K7: the retaken joker earns nothing more
        s.pending = 0
    s.stars[p] += gained
    s.laid = 1
    if s.rack[p] == 0 and s.rack_jokers[p] == 0:
        _finish(s, p)                          # K10


cdef void _winners(const rkj_t *s, uint8_t *out) noexcept nogil:
    # K12: most stars; on a tie the seat that went out, if tied, else a shared win.
    cdef int p
    cdef int only = NO_SEAT
    cdef int32_t top = s.stars[0]
    for p in range(1, s.n_players):
        if s.stars[p] > top:
            top = s.stars[p]
    if s.went_out != NO_SEAT and s.stars[s.went_out] == top:
        only = s.went_out
    for p in range(MAX_PLAYERS):
        if p >= s.n_players:
            out[p] = 0
        elif only != NO_SEAT:
            out[p] = p == only
        else:
            out[p] = s.stars[p] == top


cdef int _play_out(rkj_t *s, rng_t *player, hist_t *hist, int64_t *turns) noexcept nogil:
    """Play uniformly random legal actions to the end; return how many were played.

    When ``hist`` is not NULL the actions are appended to it (a failed allocation
    stops and returns -1).  ``turns`` counts passes and ends.
    """
    cdef uint16_t legal[N_ACTIONS]
    cdef int n, played = 0
    cdef uint16_t a
    while s.current != NO_SEAT:
        n = _legal(s, legal)
        a = legal[rng_bounded(player, <uint32_t>n)]
        if hist != NULL and hist_push(hist, a) < 0:
            return -1
        if a <= A_END:
            turns[0] += 1
        _apply(s, a)
        played += 1
    return played


# ---------------------------------------------------------------------------------
# The public state class.
# ---------------------------------------------------------------------------------

@cython.final
@cython.freelist(32)
@cython.no_gc      # holds only the (immutable) game and seed: no cycles to collect
cdef class RummikubJuniorState:
    """A Rummikub Junior position.  Make one with ``RummikubJunior(players=n).new_state(seed)``.

    >>> import boardcore
    >>> state = boardcore.make("rummikub_junior", players=2).new_state(seed=3)
    >>> state.current_player, len(state.view(0).rack), state.scores()
    (0, 6, (6, 6))
    """

    cdef rkj_t s
    cdef hist_t hist
    cdef readonly object game
    cdef readonly object seed

    def __dealloc__(self):
        hist_free(&self.hist)

    def __init__(self, *args, **kwargs):
        raise TypeError("make states with game.new_state(seed) or game.state_from_dict(d)")

    @staticmethod
    def _new(game, seed):
        cdef RummikubJuniorState st = RummikubJuniorState.__new__(RummikubJuniorState)
        st.game = game
        st.seed = seed
        _init(&st.s, game.num_players, game.options["start_player"], <uint64_t>seed)
        return st

    # -- the move loop ------------------------------------------------------------

    @property
    def current_player(self):
        """The seat to act, or ``None`` once the game is over."""
        return None if self.s.current == NO_SEAT else self.s.current

    def legal_actions(self):
        """Return the legal actions, ascending (empty once the game is over)."""
        cdef uint16_t legal[N_ACTIONS]
        return legal_list(ACTION_INTS, legal, _legal(&self.s, legal))

    def legal_actions_mask(self):
        """Return a ``bool`` array of length ``num_actions``, True where legal."""
        cdef uint16_t legal[N_ACTIONS]
        return legal_mask(np.zeros(N_ACTIONS, dtype=np.bool_), legal, _legal(&self.s, legal))

    def apply(self, action):
        """Apply a legal action (an int); anything else raises and changes nothing.

        Raises:
            TypeError: ``action`` is not an integer (bool, float and str included).
            IllegalActionError: the action is not legal here, or the game is over.
        """
        cdef Py_ssize_t a = action_index(action, N_ACTIONS)
        if not _is_legal(&self.s, <int>a):
            self._refuse(action)
        if hist_push(&self.hist, <uint16_t>a) < 0:
            raise MemoryError()
        _apply(&self.s, <int>a)

    cdef int _refuse(self, object action) except -1:
        if self.s.current == NO_SEAT:
            raise IllegalActionError(f"illegal action {action!r}: the game is over")
        legal = self.legal_actions()
        shown = ", ".join(f"{a} ({self._notation(a)})" for a in legal[:12])
        more = f" and {len(legal) - 12} more" if len(legal) > 12 else ""
        raise IllegalActionError(
            f"illegal action {action!r} ({self._describe(int(action))}) for seat "
            f"{self.s.current}; legal: {shown}{more}"
        )

    def is_over(self):
        """Return True once the game has ended (K10/K11)."""
        return self.s.current == NO_SEAT

    def scores(self):
        """Return each seat's stars, the running score (K7-K10)."""
        return tuple([self.s.stars[p] for p in range(self.s.n_players)])

    def outcome(self):
        """Return ``None`` until the game is over, then its ``Outcome`` (K12)."""
        cdef uint8_t w[MAX_PLAYERS]
        if self.s.current != NO_SEAT:
            return None
        _winners(&self.s, w)
        return Outcome(
            scores=self.scores(),
            winners=frozenset([p for p in range(self.s.n_players) if w[p]]),
        )

    def rollout(self, seed=None):
        """Play uniformly random legal actions to the end, in place; return the outcome.

        Args:
            seed: the random player's seed (``None`` draws one from the OS).
        """
        cdef rng_t player
        cdef int done
        cdef int64_t turns = 0
        rng_seed(&player, rollout_seed(seed))
        with nogil:
            done = _play_out(&self.s, &player, &self.hist, &turns)
        if done < 0:
            raise MemoryError()
        return self.outcome()

    # -- copies, history, records ---------------------------------------------------

    def copy(self):
        """Return an independent copy (a struct copy plus the history buffer)."""
        cdef RummikubJuniorState c = RummikubJuniorState.__new__(RummikubJuniorState)
        memcpy(&c.s, &self.s, sizeof(self.s))  # one copy, no temporary
        c.game = self.game
        c.seed = self.seed
        if hist_copy(&c.hist, &self.hist) < 0:
            raise MemoryError()
        return c

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def history(self):
        """Return the actions applied since ``new_state``, in order."""
        return hist_list(&self.hist)

    def __reduce__(self):
        return state_reduce(self)

    # -- notation -------------------------------------------------------------------

    def action_to_str(self, action):
        """Return the notation of an action, e.g. ``new R3 J(R4) R5`` or ``swap 0 1``.

        The forms are ``new …``, ``extend R left|right TILE``, ``swap R I``, ``end``
        and ``pass`` (docs/games/rummikub_junior.md).  An extension is written with
        the tile it adds, so it can only be written while its run lies on the table
        with room at that end.

        Raises:
            TypeError: ``action`` is not an integer.
            IllegalActionError: ``action`` is out of range, or an extension of a run
                that is not on the table or has no room at that end.
        """
        cdef Py_ssize_t a = action_index(action, N_ACTIONS)
        text = self._notation(<int>a)
        if text is None:
            raise IllegalActionError(
                f"action {action!r} ({self._describe(<int>a)}) cannot be written here: "
                f"the table has {self.s.n_runs} runs and an extension needs its run "
                f"to have room at that end"
            )
        return text

    cdef object _notation(self, int a):
        # The notation of action a, or None for an extension that cannot be written.
        cdef int x, r, num
        cdef const run_t *run
        if a == A_PASS:
            return "pass"
        if a == A_END:
            return "end"
        if a < A_SWAP:
            x = a - A_EXTEND
            r = x >> 2
            if r >= self.s.n_runs:
                return None
            run = &self.s.runs[r]
            num = run.lo + run.length if (x >> 1) & 1 else run.lo - 1
            if not 1 <= num <= N_NUMBERS:
                return None
            tile = f"{COLOURS[run.colour]}{num}"
            side = "right" if (x >> 1) & 1 else "left"
            return f"extend {r} {side} {f'J({tile})' if x & 1 else tile}"
        if a < A_NEW:
            x = a - A_SWAP
            return f"swap {x // 10} {x % 10}"
        x = a - A_NEW
        return "new " + _run_str(NEW_COLOUR[x], NEW_LO[x], NEW_LEN[x], NEW_MASK[x])

    cdef str _describe(self, int a):
        # A state-free description of action a, for error messages.
        cdef int x
        if a < 0 or a >= N_ACTIONS:
            return "out of range"
        if a < A_SWAP and a >= A_EXTEND:
            x = a - A_EXTEND
            return (f"extend run {x >> 2} {'right' if (x >> 1) & 1 else 'left'} with "
                    f"{'a joker' if x & 1 else 'a tile'}")
        return self._notation(a)

    def parse_action(self, text):
        """Return the action written ``text`` in the notation of ``action_to_str``.

        ``new`` and ``swap`` are read without looking at the table; ``extend`` needs
        its run on the table and the tile that fits that end.  Whether the action is
        legal here is ``apply``'s to say.

        Raises:
            NotationError: ``text`` is not an action in the notation.
        """
        cdef int r, num
        cdef const run_t *run
        if not isinstance(text, str):
            raise NotationError(f"notation must be a str, not {text!r}")
        words = text.split()
        if words == ["pass"]:
            return A_PASS
        if words == ["end"]:
            return A_END
        if len(words) == 3 and words[0] == "swap" and _is_index(words[1], MAX_RUNS) \
                and _is_index(words[2], N_NUMBERS):
            return A_SWAP + 10 * int(words[1]) + int(words[2])
        if len(words) >= 2 and words[0] == "new":
            colour, lo, jokers = _parse_run(text, words[1:])
            return A_NEW + BASE[colour][lo][len(words) - 1] + RANK[len(words) - 1][jokers]
        if len(words) == 4 and words[0] == "extend" and _is_index(words[1], MAX_RUNS) \
                and words[2] in ("left", "right"):
            r = int(words[1])
            if r >= self.s.n_runs:
                raise NotationError(
                    f"bad notation {text!r}: there is no run {r} on the table "
                    f"(runs 0..{self.s.n_runs - 1})"
                )
            run = &self.s.runs[r]
            right = words[2] == "right"
            num = run.lo + run.length if right else run.lo - 1
            if not 1 <= num <= N_NUMBERS:
                raise NotationError(
                    f"bad notation {text!r}: run {r} has no room at its {words[2]} end")
            tile = f"{COLOURS[run.colour]}{num}"
            if words[3] == tile:
                return A_EXTEND + 4 * r + 2 * right
            if words[3] == f"J({tile})":
                return A_EXTEND + 4 * r + 2 * right + 1
            raise NotationError(
                f"bad notation {text!r}: the {words[2]} end of run {r} takes {tile!r} "
                f"or 'J({tile})', not {words[3]!r}"
            )
        raise NotationError(
            f"bad notation {text!r}: write 'new R3 J(R4) R5', 'extend 2 left R2', "
            f"'extend 2 right J(R9)', 'swap 2 1', 'end' or 'pass'"
        )

    # -- what a seat may see, and the whole state -----------------------------------

    def view(self, player):
        """Return what seat ``player`` may see (a ``RummikubJuniorView``).

        That is the table, every star count, its own rack and the sizes of the pool
        and of the other racks; never another rack or the pool's order.

        Raises:
            TypeError: ``player`` is not an integer.
            ValueError: ``player`` is not a seat of this game.
        """
        from boardcore.rummikub_junior import RummikubJuniorView
        cdef int p = seat_index(player, self.s.n_players)
        cdef int n = self.s.n_players
        return RummikubJuniorView(
            player=p,
            current_player=self.current_player,
            table=tuple(self._table()),
            stars=self.scores(),
            bank=self._bank(),
            rack=tuple(self._rack(p)),
            rack_sizes=tuple([_rack_size(&self.s, q) for q in range(n)]),
            pool_size=N_TILES - self.s.pool_pos,
            laid_this_turn=bool(self.s.laid),
            joker_pending=bool(self.s.pending),
            passes=self.s.passes,
            went_out=None if self.s.went_out == NO_SEAT else self.s.went_out,
            is_over=self.s.current == NO_SEAT,
        )

    cdef list _table(self):
        cdef int r
        return [_run_str(self.s.runs[r].colour, self.s.runs[r].lo, self.s.runs[r].length,
                         self.s.runs[r].jokers) for r in range(self.s.n_runs)]

    cdef list _rack(self, int p):
        cdef int t
        return ([TILES[t] for t in range(N_NUMBERED) if (self.s.rack[p] >> t) & 1]
                + ["J"] * self.s.rack_jokers[p])

    cdef int _bank(self):
        cdef int p, bank = STARS_TOTAL
        for p in range(self.s.n_players):
            bank -= self.s.stars[p]
        return bank

    def to_dict(self):
        """Return the whole state as a JSON-safe dict (schema: docs/games/rummikub_junior.md)."""
        cdef int p, i
        d = header(self)
        d.update(
            current_player=self.current_player,
            racks=[self._rack(p) for p in range(self.s.n_players)],
            stars=list(self.scores()),
            bank=self._bank(),
            table=self._table(),
            pool=[TILES[self.s.pool[i]] for i in range(self.s.pool_pos, N_TILES)],
            laid_this_turn=bool(self.s.laid),
            joker_pending=bool(self.s.pending),
            passes=self.s.passes,
            went_out=None if self.s.went_out == NO_SEAT else self.s.went_out,
            rng=[self.s.rng.s[i] for i in range(4)],
            history=self.history(),
        )
        return d

    @staticmethod
    def _from_dict(game, data):
        cdef RummikubJuniorState st = RummikubJuniorState.__new__(RummikubJuniorState)
        cdef uint16_t legal[N_ACTIONS]
        st.game = game
        st.seed = data["seed"]
        _load(&st.s, game, data)
        hist = field(data, "history")
        if not isinstance(hist, list) or any(
                type(a) is not int or not 0 <= a < N_ACTIONS for a in hist):
            raise InvalidStateError(
                f"field 'history' must be a list of actions in range({N_ACTIONS})")
        if hist_load(&st.hist, hist) < 0:
            raise MemoryError()
        if st.s.current != NO_SEAT and _legal(&st.s, legal) == 0:
            raise InvalidStateError(
                "field 'joker_pending': the taken joker has no place on the table or in "
                "a new run (K5c)")
        return st

    # -- pictures -------------------------------------------------------------------

    def __repr__(self):
        seat = "over" if self.s.current == NO_SEAT else f"seat {self.s.current} to act"
        return f"<RummikubJuniorState players={self.s.n_players} {seat} move={self.hist.len}>"

    def __str__(self):
        cdef int p, r
        lines = [repr(self), "table:"]
        table = self._table()
        lines += [f"  {r:>2}: {run}" for r, run in enumerate(table)] or ["  (empty)"]
        lines.append(f"pool {N_TILES - self.s.pool_pos} tiles, bank {self._bank()} stars, "
                     f"passes with the pool empty {self.s.passes}")
        for p in range(self.s.n_players):
            mark = ">" if p == self.s.current else " "
            rack = " ".join(self._rack(p)) or "-"
            lines.append(f"{mark} seat {p}: {self.s.stars[p]:>2} stars, "
                         f"{_rack_size(&self.s, p):>2} tiles: {rack}")
        if self.s.pending:
            lines.append("turn: holds a taken joker; the next action must lay a joker")
        elif self.s.laid:
            lines.append("turn: has laid; may lay more or end")
        if self.s.current == NO_SEAT:
            lines.append(f"over: {self.outcome()}")
        return "\n".join(lines)

    # -- the batch kernel -----------------------------------------------------------

    @staticmethod
    def _simulate_chunk(game, seed, Py_ssize_t start, Py_ssize_t stop,
                        int64_t[:, ::1] scores, uint8_t[:, ::1] winners,
                        int64_t[::1] lengths, int64_t[:, ::1] stats):
        cdef int n_players = game.num_players
        cdef int start_player = game.options["start_player"]
        cdef uint64_t batch_seed = seed
        cdef rkj_t s
        cdef rng_t player
        cdef Py_ssize_t g
        cdef int p
        cdef int64_t turns
        cdef uint8_t w[MAX_PLAYERS]
        with nogil:
            for g in range(start, stop):
                _init(&s, n_players, start_player, derive_seed(batch_seed, 0, <uint64_t>g))
                rng_seed(&player, derive_seed(batch_seed, 1, <uint64_t>g))
                turns = 0
                lengths[g] = _play_out(&s, &player, NULL, &turns)
                _winners(&s, w)
                for p in range(n_players):
                    scores[g, p] = s.stars[p]
                    winners[g, p] = w[p]
                stats[g, 0] = END_BLOCKED if s.went_out == NO_SEAT else END_WENT_OUT
                stats[g, 1] = turns


def _legal_actions_kernel(list states, Py_ssize_t repeats):
    """Generate the legal actions of every state ``repeats`` times without the GIL.

    Returns the total number of actions generated (the move-generation benchmark).
    """
    cdef Py_ssize_t _, i, n = len(states)
    cdef int64_t total = 0
    cdef rkj_t *buf = <rkj_t *>malloc(max(n, 1) * sizeof(rkj_t))
    cdef uint16_t legal[N_ACTIONS]
    cdef RummikubJuniorState st
    if buf == NULL:
        raise MemoryError()
    try:
        for i in range(n):
            st = states[i]
            buf[i] = st.s
        with nogil:
            for _ in range(repeats):
                for i in range(n):
                    total += _legal(&buf[i], legal)
    finally:
        free(buf)
    return total


# ---------------------------------------------------------------------------------
# Notation of tiles and runs.
# ---------------------------------------------------------------------------------

def _run_str(int colour, int lo, int length, int jokers):
    """``R3 J(R4) R5``: each position's tile, a joker showing its value in brackets."""
    cdef int i
    return " ".join(
        f"J({COLOURS[colour]}{lo + i})" if (jokers >> i) & 1 else f"{COLOURS[colour]}{lo + i}"
        for i in range(length)
    )


_TOKEN = re.compile(r"(J\()?([RBYK])(10|[1-9])(\))?")


def _is_index(word, limit):
    # A plain decimal below limit, without sign or leading zeros.
    return (word.isascii() and word.isdigit() and word == str(int(word))
            and int(word) < limit)


def _parse_run(text, words):
    """Return ``(colour, lo, joker mask)`` of a run written as tiles (K3, K6).

    Raises:
        NotationError: the words are not a run, saying what is wrong.
    """
    if not 3 <= len(words) <= N_NUMBERS:
        raise NotationError(f"bad notation {text!r}: a run holds 3..10 tiles (K3)")
    colours = set()
    numbers = []
    jokers = 0
    for i, word in enumerate(words):
        m = _TOKEN.fullmatch(word)
        if m is None or (m.group(1) is None) != (m.group(4) is None):
            raise NotationError(
                f"bad notation {text!r}: {word!r} is not a tile like 'R7' or a joker "
                f"like 'J(R7)'")
        colours.add(m.group(2))
        numbers.append(int(m.group(3)))
        if m.group(1):
            jokers |= 1 << i
    if len(colours) != 1:
        raise NotationError(f"bad notation {text!r}: a run is of one colour (K3)")
    if numbers != list(range(numbers[0], numbers[0] + len(numbers))):
        raise NotationError(
            f"bad notation {text!r}: a run's numbers go up by one, left to right (K3)")
    if bin(jokers).count("1") > N_JOKERS or jokers == (1 << len(words)) - 1:
        raise NotationError(
            f"bad notation {text!r}: a run holds at most 4 jokers and at least one "
            f"numbered tile (K6)")
    return COLOURS.index(colours.pop()), numbers[0], jokers


# ---------------------------------------------------------------------------------
# Loading a to_dict document: every field checked, nothing trusted.
# ---------------------------------------------------------------------------------

def _bool_field(data, name):
    value = field(data, name)
    if type(value) is not bool:
        raise InvalidStateError(f"field {name!r} is {value!r}; allowed true or false")
    return value


def _tile_list(data, name, value):
    if not isinstance(value, list) or any(not isinstance(t, str) or t not in TILE_INDEX
                                          for t in value):
        raise InvalidStateError(
            f"field {name!r} is {value!r}; expected a list of tiles like 'R7' or 'J'")
    return [TILE_INDEX[t] for t in value]


cdef int _load(rkj_t *s, object game, dict data) except -1:
    cdef int n = game.num_players
    cdef int p, i, r, t
    memset(s, 0, sizeof(rkj_t))
    s.n_players = n
    seen = [0] * N_TILES
    racks = field(data, "racks")
    if not isinstance(racks, list) or len(racks) != n:
        raise InvalidStateError(f"field 'racks' must hold {n} lists of tiles, not {racks!r}")
    for p in range(n):
        for t in _tile_list(data, "racks", racks[p]):
            seen[t] += 1
            if t == JOKER:
                s.rack_jokers[p] += 1
            else:
                s.rack[p] |= (<uint64_t>1) << t
    table = field(data, "table")
    if not isinstance(table, list) or len(table) > MAX_RUNS:
        raise InvalidStateError(
            f"field 'table' must be a list of at most {MAX_RUNS} runs, not {table!r}")
    for r, text in enumerate(table):
        if not isinstance(text, str):
            raise InvalidStateError(f"field 'table' holds {text!r}; runs are strings")
        try:
            colour, lo, jokers = _parse_run(text, text.split())
        except NotationError as exc:
            raise InvalidStateError(f"field 'table': {exc}") from None
        length = len(text.split())
        s.runs[r].colour = colour
        s.runs[r].lo = lo
        s.runs[r].length = length
        s.runs[r].jokers = jokers
        for i in range(length):
            seen[JOKER if (jokers >> i) & 1 else colour * N_NUMBERS + lo - 1 + i] += 1
    s.n_runs = len(table)
    pool = _tile_list(data, "pool", field(data, "pool"))
    for i, t in enumerate(pool):
        s.pool[N_TILES - len(pool) + i] = t
        seen[t] += 1
    s.pool_pos = N_TILES - len(pool)
    if seen[:N_NUMBERED] != [1] * N_NUMBERED or seen[JOKER] != N_JOKERS:
        raise InvalidStateError(
            "fields 'racks', 'table' and 'pool' together must hold each numbered tile "
            "once and 4 jokers (K2)")
    stars = field(data, "stars")
    if not isinstance(stars, list) or len(stars) != n or any(
            type(x) is not int or not 0 <= x <= 1_000_000 for x in stars):
        raise InvalidStateError(
            f"field 'stars' is {stars!r}; expected {n} ints in 0..1000000")
    for p in range(n):
        s.stars[p] = stars[p]
    bank = field(data, "bank")
    if type(bank) is not int or bank != STARS_TOTAL - sum(stars):
        raise InvalidStateError(
            f"field 'bank' is {bank!r}, expected {STARS_TOTAL - sum(stars)} "
            f"(56 stars in all, K2/K9)")
    s.laid = _bool_field(data, "laid_this_turn")
    s.pending = _bool_field(data, "joker_pending")
    s.passes = int_field(data, "passes", 0, n)
    if s.passes and s.pool_pos < N_TILES:
        raise InvalidStateError(
            "field 'passes' counts passes with the pool empty, but the pool is not (K11)")
    rng = field(data, "rng")
    if not isinstance(rng, list) or len(rng) != 4 or any(
            type(x) is not int or not 0 <= x < 2**64 for x in rng) or not any(rng):
        raise InvalidStateError(
            f"field 'rng' is {rng!r}; expected 4 ints in 0..2**64-1, not all zero")
    for i in range(4):
        s.rng.s[i] = rng[i]
    current = field(data, "current_player")
    went_out = field(data, "went_out")
    if current is None:
        s.current = NO_SEAT
        if went_out is None:
            s.went_out = NO_SEAT
            if s.passes != n:
                raise InvalidStateError(
                    f"field 'passes' is {s.passes}; a game over without 'went_out' ended "
                    f"by a full round of {n} passes (K11)")
        elif type(went_out) is int and 0 <= went_out < n and _rack_size(s, went_out) == 0:
            s.went_out = went_out
        else:
            raise InvalidStateError(
                f"field 'went_out' is {went_out!r}; expected null or the seat whose rack "
                f"is empty (K10)")
        if s.laid or s.pending:
            raise InvalidStateError(
                "fields 'laid_this_turn' and 'joker_pending' must be false once over")
        return 0
    if type(current) is not int or not 0 <= current < n:
        raise InvalidStateError(
            f"field 'current_player' is {current!r}; allowed seats 0..{n - 1} or null")
    s.current = current
    s.went_out = NO_SEAT
    if s.passes == n:
        raise InvalidStateError(
            f"field 'passes' is {n}: a full round of passes ends the game (K11)")
    if went_out is not None:
        raise InvalidStateError(
            f"field 'went_out' is {went_out!r}, but the game is not over (expected null)")
    for p in range(n):
        if _rack_size(s, p) == 0:
            raise InvalidStateError(
                f"field 'racks': seat {p}'s rack is empty, so the game is over (K10)")
    if s.pending and (not s.laid or s.rack_jokers[current] == 0):
        raise InvalidStateError(
            "field 'joker_pending': a taken joker needs 'laid_this_turn' and a joker in "
            "the rack of the seat to act (K5c)")
    return 0
