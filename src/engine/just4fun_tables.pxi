# Just4Fun's tables, built once at import (included in ``just4fun.pyx`` where they
# are declared): the action table, and the hand tables of the random play-out.

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
    _build_hands()
    return plays


def _build_hands():
    # Number the hands, then fill the draw steps and each full hand's plays.
    from itertools import combinations_with_replacement
    full = list(combinations_with_replacement(range(1, 20), 4))
    partial = [h for size in range(4) for h in combinations_with_replacement(range(1, 20), size)]
    assert len(full) == N_HANDS and len(partial) == N_PARTIAL and partial[0] == ()
    ids = {h: i for i, h in enumerate(full + partial)}
    for h, i in ids.items():
        HAND_CARDS[i] = sum([v << (8 * k) for k, v in enumerate(h)])
    for h in partial:
        for v in range(1, 20):
            HAND_ADD[ids[h] - N_HANDS][v] = ids[tuple(sorted(h + (v,)))]
    for h in full:
        HAND_COUNT[ids[h]] = _slots_of(ids[h], h, ids)


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
