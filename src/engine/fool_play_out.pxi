# Fool: the random player, as the kernel table's ``random_action`` and ``play_out``
# slots play it (included in ``fool.pyx``, whose types, tables and rules it uses).
# A hand's coloured cards are kept as a sorted row of card kinds with their counts by
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
