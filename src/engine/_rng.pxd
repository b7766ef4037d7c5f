# The one pseudo-random generator of every boardcore engine.
#
# xoshiro256** (Blackman & Vigna) with its 256-bit state seeded by splitmix64 from a
# 64-bit seed.  Everything is unsigned 64-bit arithmetic, so the stream is the same on
# every OS, CPU and compiler.  tests/reference/_rng.py is the same generator in plain
# Python and tests/data/rng_stream.json pins its output.
#
# Draw conventions shared by every game (the references follow them too):
#   bounded(n)  -> uniform in [0, n) by Lemire's multiply-shift on the high 32 bits of
#                  one 64-bit output, with rejection of the biased low products.
#   shuffle(a)  -> Fisher-Yates from the end: for i = n-1 .. 1: j = bounded(i + 1),
#                  swap a[i], a[j].
cimport cython
from libc.stdint cimport uint8_t, uint32_t, uint64_t

ctypedef struct rng_t:
    uint64_t s[4]


cdef inline uint64_t splitmix64(uint64_t *x) noexcept nogil:
    x[0] += <uint64_t>0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline void rng_seed(rng_t *r, uint64_t seed) noexcept nogil:
    cdef uint64_t x = seed
    r.s[0] = splitmix64(&x)
    r.s[1] = splitmix64(&x)
    r.s[2] = splitmix64(&x)
    r.s[3] = splitmix64(&x)


cdef inline uint64_t rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t rng_next(rng_t *r) noexcept nogil:
    cdef uint64_t result = rotl(r.s[1] * 5, 7) * 9
    cdef uint64_t t = r.s[1] << 17
    r.s[2] ^= r.s[0]
    r.s[3] ^= r.s[1]
    r.s[1] ^= r.s[2]
    r.s[0] ^= r.s[3]
    r.s[2] ^= t
    r.s[3] = rotl(r.s[3], 45)
    return result


@cython.cdivision(True)
cdef inline uint32_t rng_bounded(rng_t *r, uint32_t n) noexcept nogil:
    # Lemire (2019), "Fast random integer generation in an interval"; n >= 1.
    cdef uint64_t m = (rng_next(r) >> 32) * <uint64_t>n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < n:
        threshold = <uint32_t>(-n) % n
        while low < threshold:
            m = (rng_next(r) >> 32) * <uint64_t>n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef inline void rng_shuffle_u8(rng_t *r, uint8_t *a, int n) noexcept nogil:
    # The generator is copied into a local and written back once: ``a`` is bytes, which
    # may alias anything, so with ``r`` itself every swap would force its four words
    # through memory (a store and a reload per word and draw).
    cdef int i, j
    cdef uint8_t tmp
    cdef rng_t local = r[0]
    for i in range(n - 1, 0, -1):
        j = rng_bounded(&local, <uint32_t>(i + 1))
        tmp = a[i]
        a[i] = a[j]
        a[j] = tmp
    r[0] = local


# The seed streams: ``derive_seed(seed, stream, index)`` gives item ``index`` of stream
# ``stream`` of a seed.  Every caller names its stream here, and the numbers are a
# reproducibility contract (recorded batches, arenas and episodes replay from them):
# never renumber a stream or reuse one for another purpose; a new use takes a new number.
# (docs/development.md has the table with each stream's index.)
cdef enum:
    # The deal of game g of a batch (simulate, arena), of a PettingZoo episode e.
    STREAM_GAME = 0
    # The random player of game g of simulate; a Gymnasium episode's opponents.
    STREAM_PLAYER = 1
    # An agent's decision i (each act, policy, values or visits).
    STREAM_DECISION = 2
    # 3: free (never given out).
    # VectorEnv: episode e of game i, index i << 32 | e.
    STREAM_EPISODE = 4
    # VectorEnv: game i's opponents' generator.
    STREAM_OPPONENTS = 5
    # arena: the agent of seat p of game g, index g * 64 + p.
    STREAM_ARENA_SEAT = 6
    # boardcore play: the bot of seat p.
    STREAM_PLAY_SEAT = 7
    # boardcore.openspiel: a game's resample i (the seed: the sampler's draw).
    STREAM_RESAMPLE = 8
    # ladder: the arena of pairing or table t.
    STREAM_LADDER_TABLE = 9


cdef inline uint64_t derive_seed(uint64_t seed, uint64_t stream, uint64_t index) noexcept nogil:
    # Independent 64-bit seeds, one per (stream, index) of ``seed`` (the streams above).
    cdef uint64_t x = seed ^ (stream * <uint64_t>0xD1B54A32D192ED03ULL)
    splitmix64(&x)
    x ^= index * <uint64_t>0x9E3779B97F4A7C15ULL
    return splitmix64(&x)
