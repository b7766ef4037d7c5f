# Fool: what one seat knows, as the kernel table's ``determinize`` and
# ``observe`` slots see it (included at the end of ``fool.pyx``, whose types,
# tables and rules it uses).

cdef extern from *:
    """
    /* The determinization's memo, one per thread, kept between calls: a search redraws
       the same position many times and the memo depends only on what the seat knows. */
    #if defined(_MSC_VER)
    #define FOOL_TLS __declspec(thread)
    #else
    #define FOOL_TLS __thread
    #endif
    #define FOOL_MEMO_CACHE 8192
    #define FOOL_MEMO_KEY 24
    static FOOL_TLS int fool_memo_key[FOOL_MEMO_KEY];
    static FOOL_TLS double fool_memo_cache[FOOL_MEMO_CACHE];
    static int *fool_tls_key(void) { return fool_memo_key; }
    static double *fool_tls_memo(void) { return fool_memo_cache; }
    """
    enum:
        FOOL_MEMO_CACHE
        FOOL_MEMO_KEY
    int *fool_tls_key() noexcept nogil
    double *fool_tls_memo() noexcept nogil

# ---------------------------------------------------------------------------------------
# Determinization: the hidden hands redrawn from one seat's information (F6 included).
#
# What a seat knows: its own hand, every card played this round (so the unseen cards,
# the union of the other hands), every hand size, and the colours each seat showed it
# lacks (``voids``).  A uniform consistent deal is drawn exactly.  Seats with the same
# voids form a *group*: groups 0..m-1 have voids, group m holds the seats without.  The
# colours some group is void in are the *constrained* columns; the wild 1s and every
# other colour form one *free* column.  A deal gives each group x[g][column] cards, and
# each such count table stands for prod cap_g!/prod x! deals (the cards of a column
# split among the groups, then each group's cards among its seats), so:
# 1. groups 0..m-2 draw their rows in turn, each row x with weight
#    cap!/prod x! * W_{g+1}(r - x), where W_g(r) sums those weights over every way the
#    groups g.. can take the counts r still unseen (memoised over r, a mixed-radix
#    index).  W_{m-1} has a closed form (Vandermonde): group m-1 takes any cap of the
#    cards it may hold, group m the rest, so W_{m-1}(r) = cap_{m-1}! cap_m! / prod r! *
#    C(cards group m-1 may hold, cap_{m-1}).  The memo lives in a per-thread cache
#    kept while the public facts stay the same (a search's every iteration), or, when
#    larger than the cache, in memory of its own for the one call;
# 2. each column's cards are shuffled and handed out by those rows; group m-1 takes a
#    uniform choice of the cards left that it may hold; group m the rest;
# 3. each group's cards are shuffled and dealt to its seats by their hand sizes.
# The unseen cards are listed in canonical order (ascending, wild 1s last) and all
# randomness comes from the searcher's generator, so nothing of the hidden arrangement
# leaks into the result.

cdef enum:
    FREE = 4            # the free column (index k in the column lists)

ctypedef struct deal_t:
    int k                       # constrained columns
    int n[4]                    # unseen cards of each
    int stride[4]               # their strides in a memo index
    int size                    # memo entries per group: prod (n_j + 1)
    int m                       # groups with voids; group m holds the seats without
    uint8_t gvoid[MAX_SEATS]    # per group: its void columns, bit j for column j
    int cap[MAX_SEATS + 1]      # cards each group holds
    int rest[MAX_SEATS + 1]     # cards the groups g.. hold together
    double *memo                # W_g for g = 1..m-2 at (g - 1) * size; -1 until known


cdef double _det_weight(deal_t *d, int g, const int *r, int idx) noexcept nogil:
    # W_g(r): the weight of every way the groups g.. can take the unseen counts r.
    cdef int j, free_left = d.rest[g], may = 0, cap = d.cap[g]
    cdef double w
    if g == d.m - 1:
        w = FACT[cap] * FACT[d.cap[g + 1]]
        for j in range(d.k):
            free_left -= r[j]
            w *= INV_FACT[r[j]]
            if not (d.gvoid[g] >> j) & 1:
                may += r[j]
        if free_left < 0 or may + free_left < cap:
            return 0.0
        may += free_left
        return w * INV_FACT[free_left] * FACT[may] * INV_FACT[cap] * INV_FACT[may - cap]
    w = d.memo[(g - 1) * d.size + idx]
    if w < 0.0:
        w = _det_level(d, g, r, idx, -1.0, NULL)
        d.memo[(g - 1) * d.size + idx] = w
    return w


cdef double _det_level(deal_t *d, int g, const int *r, int idx, double target,
                       int *pick) noexcept nogil:
    # Sum, over the rows x group g may take (nothing of its void columns, the rest of its
    # cards from the free column), of cap!/prod x! * W_{g+1}(r - x).  With ``pick``,
    # stop once the running sum passes ``target`` and write that row to ``pick`` (k
    # counts, then the free count at FREE); should rounding never pass it, the last row
    # of positive weight.
    cdef int x[4]
    cdef int lim[4]
    cdef int after[4]
    cdef int j, tot = 0, sub = 0, cap = d.cap[g]
    cdef int free_left = d.rest[g]
    cdef double w, total = 0.0
    for j in range(d.k):
        x[j] = 0
        free_left -= r[j]
        lim[j] = 0 if (d.gvoid[g] >> j) & 1 else (r[j] if r[j] < cap else cap)
    while True:
        if cap - tot <= free_left:
            for j in range(d.k):
                after[j] = r[j] - x[j]
            w = _det_weight(d, g + 1, after, idx - sub)
            if w > 0.0:
                w *= FACT[cap] * INV_FACT[cap - tot]
                for j in range(d.k):
                    w *= INV_FACT[x[j]]
                total += w
                if pick != NULL:
                    for j in range(d.k):
                        pick[j] = x[j]
                    pick[FREE] = cap - tot
                    if total > target:
                        return total
        j = 0
        while j < d.k:          # the next row: an odometer bounded by lim and cap
            if x[j] < lim[j] and tot < cap:
                x[j] += 1
                tot += 1
                sub += d.stride[j]
                break
            tot -= x[j]
            sub -= x[j] * d.stride[j]
            x[j] = 0
            j += 1
        if j == d.k:
            return total


cdef void _determinize(void *state, int seat, rng_t *rng) noexcept nogil:
    cdef fool_t *s = <fool_t *>state
    cdef deal_t d
    cdef int key[FOOL_MEMO_KEY]
    cdef int *cached
    cdef uint32_t unseen[WILD]
    cdef int size[MAX_SEATS]
    cdef uint8_t vm[MAX_SEATS]
    cdef int8_t group_of[MAX_SEATS]
    cdef int8_t column_of[WILD]         # constrained column of a colour, or k (free)
    cdef int x[MAX_SEATS][5]            # rows of groups 0..m-2
    cdef int r[4]
    cdef uint8_t cards[DECK_MAX]        # the unseen cards, column by column
    cdef int first[6]                   # column j's cards: cards[first[j]:first[j + 1]]
    cdef int lo[5]
    cdef uint8_t pool[DECK_MAX]
    cdef uint8_t held[MAX_SEATS + 1][DECK_MAX]
    cdef int held_n[MAX_SEATS + 1]
    cdef int n = s.n, p, c, j, g, i, t, idx, left, wilds = 0
    cdef uint8_t live = 0, voided = 0, tmp
    cdef int _card
    cdef double target
    cdef bint stuck = False
    if n > MAX_SEATS:           # never so; it bounds the arrays for the compiler
        n = MAX_SEATS
    # The public facts: the unseen cards, the other hands' sizes, their voids among the
    # colours still unseen.
    for c in range(WILD):
        unseen[c] = 0
    for p in range(n):
        size[p] = 0
        if p != seat:
            size[p] = _hand_size(s.hand[p])
            for c in range(WILD):
                unseen[c] |= s.hand[p][c]
            wilds += fool_popcount(s.hand[p][WILD])
    for c in range(WILD):
        if unseen[c]:
            live |= 1 << c
    for p in range(n):
        vm[p] = (s.voids >> (4 * p)) & live if size[p] else 0
        voided |= vm[p]
    # Columns: the constrained colours, then the free column (listed last, wild 1s last).
    d.k = 0
    d.size = 1
    t = 0
    for c in range(WILD):
        if (voided >> c) & 1:
            column_of[c] = d.k
            first[d.k] = t
            d.n[d.k] = fool_popcount(unseen[c])
            d.stride[d.k] = d.size
            d.size *= d.n[d.k] + 1
            d.k += 1
            t = _list_cards(unseen[c], c, cards, t)
    first[d.k] = t
    for c in range(WILD):
        if not (voided >> c) & 1:
            column_of[c] = d.k
            t = _list_cards(unseen[c], c, cards, t)
    memset(&cards[t], W1, wilds)
    t += wilds
    first[d.k + 1] = t
    # Groups: the seats with the same voids, in order of their first seat; then the rest.
    d.m = 0
    for p in range(n):
        group_of[p] = -1
        if p == seat or vm[p] == 0:
            continue
        for g in range(d.m):
            if d.gvoid[g] == vm[p]:
                group_of[p] = g
        if group_of[p] < 0:
            group_of[p] = d.m
            d.gvoid[d.m] = vm[p]
            d.cap[d.m] = 0
            d.m += 1
        d.cap[group_of[p]] += size[p]
    d.cap[d.m] = 0
    for p in range(n):
        if p != seat and vm[p] == 0:
            group_of[p] = d.m
            d.cap[d.m] += size[p]
    for g in range(d.m):        # void colours as column bits
        tmp = d.gvoid[g]
        d.gvoid[g] = 0
        for c in range(WILD):
            if (tmp >> c) & 1:
                d.gvoid[g] |= 1 << column_of[c]
    d.rest[d.m] = d.cap[d.m]
    for g in range(d.m - 1, -1, -1):
        d.rest[g] = d.rest[g + 1] + d.cap[g]
    # 1. The rows of groups 0..m-2.
    d.memo = NULL
    if d.m > 2:
        if (d.m - 2) * d.size <= FOOL_MEMO_CACHE:
            d.memo = fool_tls_memo()
            memset(key, 0, sizeof(key))
            key[0] = d.k
            key[1] = d.m
            for j in range(d.k):
                key[2 + j] = d.n[j]
            for g in range(d.m + 1):
                key[6 + g] = d.cap[g]
            for g in range(d.m):
                key[15 + g] = d.gvoid[g]
            cached = fool_tls_key()
            if memcmp(key, cached, sizeof(key)) != 0:
                memcpy(cached, key, sizeof(key))
                for i in range((d.m - 2) * d.size):
                    d.memo[i] = -1.0
        else:
            d.memo = <double *>malloc((d.m - 2) * d.size * sizeof(double))
            if d.memo == NULL:
                _det_by_rejection(s, seat, cards, t, size, vm, rng)
                return
            for i in range((d.m - 2) * d.size):
                d.memo[i] = -1.0
    for j in range(d.k):
        r[j] = d.n[j]
    idx = d.size - 1
    for g in range(d.m - 1):
        target = _det_level(&d, g, r, idx, -1.0, NULL)
        if target <= 0.0:
            stuck = True
            break
        target *= (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0)
        _det_level(&d, g, r, idx, target, x[g])
        for j in range(d.k):
            r[j] -= x[g][j]
            idx -= x[g][j] * d.stride[j]
    if d.memo != NULL and d.memo != fool_tls_memo():
        free(d.memo)
    if not stuck and d.m > 0:
        stuck = _det_weight(&d, d.m - 1, r, idx) <= 0.0
    if stuck:       # no consistent deal: never for a position that play or a set-up gives
        rng_seed(&s.rng, rng_next(rng))
        return
    # 2. Each column shuffled and handed out by those rows; what is left of column j is
    # cards[lo[j]:first[j + 1]].
    for j in range(d.k + 1):
        lo[j] = first[j]
    for g in range(d.m + 1):
        held_n[g] = 0
    if d.m > 1:
        for j in range(d.k + 1):
            rng_shuffle_u8(rng, &cards[lo[j]], first[j + 1] - lo[j])
            for g in range(d.m - 1):
                t = x[g][j if j < d.k else FREE]
                memcpy(&held[g][held_n[g]], &cards[lo[j]], t)
                held_n[g] += t
                lo[j] += t
    # Group m-1 takes a uniform choice of the cards left that it may hold (a partial
    # shuffle of them); group m everything else.
    g = d.m - 1 if d.m > 0 else d.m
    t = 0
    for j in range(d.k + 1):
        left = first[j + 1] - lo[j]
        if g < d.m and (j == d.k or not (d.gvoid[g] >> j) & 1):
            memcpy(&pool[t], &cards[lo[j]], left)
            t += left
        else:
            memcpy(&held[d.m][held_n[d.m]], &cards[lo[j]], left)
            held_n[d.m] += left
    if g < d.m:
        for i in range(d.cap[g]):
            j = i + rng_bounded(rng, <uint32_t>(t - i))
            held[g][i] = pool[j]
            pool[j] = pool[i]
        held_n[g] = d.cap[g]
        memcpy(&held[d.m][held_n[d.m]], &pool[d.cap[g]], t - d.cap[g])
        held_n[d.m] += t - d.cap[g]
    # 3. Each group's cards dealt to its seats.
    for g in range(d.m + 1):
        t = 0
        for p in range(n):
            t += group_of[p] == g
        if t > 1:
            rng_shuffle_u8(rng, held[g], held_n[g])
    for g in range(d.m + 1):
        held_n[g] = 0
    for p in range(n):
        if p != seat:
            memset(s.hand[p], 0, sizeof(s.hand[p]))
            g = group_of[p]
            for _card in range(size[p]):
                _give(s.hand[p], held[g][held_n[g]])
                held_n[g] += 1
    rng_seed(&s.rng, rng_next(rng))


cdef inline int _list_cards(uint32_t word, int c, uint8_t *out, int t) noexcept nogil:
    # Append the cards of colour word ``word`` (colour ``c``) to ``out`` from ``t``,
    # ascending; return the new end.
    while word:
        out[t] = COLOUR_OFFSET[c] + fool_ctz(word)
        t += 1
        word &= word - 1
    return t


cdef void _det_by_rejection(fool_t *s, int seat, uint8_t *cards, int count,
                            const int *size, const uint8_t *vm, rng_t *rng) noexcept nogil:
    # Without memory for the memo: uniform deals of ``cards`` until one keeps every void;
    # exact too (a consistent deal exists -- the real one -- so this ends), only slower.
    cdef int k, c, p, _card
    cdef bint ok = False
    while not ok:
        rng_shuffle_u8(rng, cards, count)
        ok = True
        k = 0
        for p in range(s.n):
            if p != seat:
                for _card in range(size[p]):
                    c = CARD_COLOUR[cards[k]]
                    if c != WILD and (vm[p] >> c) & 1:
                        ok = False
                    k += 1
    k = 0
    for p in range(s.n):
        if p != seat:
            memset(s.hand[p], 0, sizeof(s.hand[p]))
            for _card in range(size[p]):
                _give(s.hand[p], cards[k])
                k += 1
    rng_seed(&s.rng, rng_next(rng))


# Observation planes (docs/games/fool.md, Fool.observation_planes), in this order; seats
# are relative to the observer (0 = the observer, 1 = the next seat clockwise, ...).
cdef int _observation_size(const void *config) noexcept nogil:
    return 2 * NUM_ACTIONS + 4 + 17 * (<const fool_cfg_t *>config).n_players


cdef inline void _card_plane(const uint32_t *h, float *out) noexcept nogil:
    # 1 at the action of each card of a hand-shaped bitset; at W1 the wild 1s / 6.
    cdef int c
    cdef uint32_t w
    for c in range(WILD):
        w = h[c]
        while w:
            out[COLOUR_OFFSET[c] + fool_ctz(w)] = 1.0
            w &= w - 1
    out[W1] = _wilds(h[WILD]) * <float>(1.0 / 6)


cdef inline int _wilds(uint32_t w) noexcept nogil:
    # The wild 1s of a thermometer word ((1 << k) - 1): its trailing ones.
    return fool_ctz(~w)


cdef void _observe(const void *state, int seat, float *out) noexcept nogil:
    cdef const fool_t *s = <const fool_t *>state
    cdef int n = s.n
    cdef int c, q, r, i, held = 0
    cdef int o = 2 * NUM_ACTIONS
    cdef uint32_t played[WORDS]
    cdef uint8_t a
    memset(out, 0, (2 * NUM_ACTIONS + 4 + 17 * n) * sizeof(float))
    _card_plane(s.hand[seat], out)                              # hand
    for c in range(WILD):                                       # played: deck - hands
        played[c] = s.deck_mask[c]
    for q in range(n):
        for c in range(WILD):
            played[c] &= ~s.hand[q][c]
        held += _wilds(s.hand[q][WILD])
    played[WILD] = s.deck_mask[WILD] >> held
    _card_plane(played, out + NUM_ACTIONS)
    for i in range(s.trick_len):                                # trick: colour, value / 27
        r = s.trick_seat[i] - seat
        if r < 0:
            r += n
        a = s.trick_card[i]
        out[o + 6 * r + CARD_COLOUR[a]] = 1.0
        out[o + 6 * r + 5] = CARD_VALUE[a] * <float>(1.0 / 27)
    o += 6 * n
    r = s.leader - seat                                         # leader
    out[o + (r + n if r < 0 else r)] = 1.0
    o += n
    if s.lead >= 0:                                             # lead colour
        out[o + s.lead] = 1.0
    o += 4
    q = seat
    for r in range(n):
        out[o + r] = (s.fools >> q) & 1                         # fools
        for c in range(WILD):                                   # voids (F6)
            out[o + n + 4 * r + c] = (s.voids >> (4 * q + c)) & 1
        out[o + 5 * n + r] = (_colour_cards(s.hand[q]) + _wilds(s.hand[q][WILD])
                              ) * <float>(1.0 / 12)           # hand sizes
        out[o + 6 * n + r] = not s.over and s.to_move == q      # to act
        out[o + 7 * n + r] = s.score[q] * <float>0.01           # scores / 100
        out[o + 8 * n + r] = s.plus10[q] * <float>(1.0 / 6)     # +10 rounds / 6
        out[o + 9 * n + r] = s.dealer == q                      # dealer
        q = q + 1 if q + 1 < n else 0


def _determinize_kernel(FoolState state not None, int seat, uint64_t seed, Py_ssize_t repeat=1):
    """Redraw ``state``'s hidden hands for ``seat`` ``repeat`` times in compiled code.

    For the benchmarks: each round starts again from ``state``; returns the hands of the
    last draw (action lists), which ``boardcore._engine._search.determinize`` would give
    from a generator seeded with ``seed`` when ``repeat`` is 1.
    """
    cdef fool_t start, s
    cdef rng_t rng
    cdef Py_ssize_t _again
    if not 0 <= seat < state.s.n:
        raise ConfigurationError(f"seat {seat} is not in range({state.s.n})")
    if not 1 <= repeat <= 10_000_000:
        raise ConfigurationError(f"repeat must be in 1..10000000, not {repeat}")
    rng_seed(&rng, seed)
    with cython.critical_section(state):
        start = state.s
    with nogil:
        for _again in range(repeat):
            s = start
            _determinize(&s, seat, &rng)
    return [[CARDS[a] for a in _cards(s.hand[p])] for p in range(s.n)]
