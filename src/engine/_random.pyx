# The shared generator of _rng.pxd, exposed to Python: ``derive_seed`` and the table of
# its streams for the Python callers, the raw streams for the golden-stream tests (the
# same seeds must give these streams on every platform).
from libc.stdint cimport uint8_t, uint32_t, uint64_t

cimport _rng
from _rng cimport rng_bounded, rng_next, rng_seed, rng_shuffle_u8, rng_t

from boardcore.errors import ConfigurationError

#: The streams of ``derive_seed`` by name (``_rng.pxd`` says what each seeds).
STREAM_GAME = _rng.STREAM_GAME
STREAM_PLAYER = _rng.STREAM_PLAYER
STREAM_DECISION = _rng.STREAM_DECISION
STREAM_EPISODE = _rng.STREAM_EPISODE
STREAM_OPPONENTS = _rng.STREAM_OPPONENTS
STREAM_ARENA_SEAT = _rng.STREAM_ARENA_SEAT
STREAM_PLAY_SEAT = _rng.STREAM_PLAY_SEAT
STREAM_RESAMPLE = _rng.STREAM_RESAMPLE
STREAM_LADDER_TABLE = _rng.STREAM_LADDER_TABLE


def derive_seed(uint64_t seed, uint64_t stream, uint64_t index):
    """Return item ``index`` of stream ``stream`` of ``seed``: an independent 64-bit seed.

    The streams are named ``STREAM_*`` (game ``g`` of a batch is dealt from
    ``derive_seed(seed, STREAM_GAME, g)``).

    >>> derive_seed(1, STREAM_GAME, 0) != derive_seed(1, STREAM_PLAYER, 0)
    True
    """
    return _rng.derive_seed(seed, stream, index)


cdef int MAX_COUNT = 1_000_000


cdef int _count(int count) except -1:
    if not 0 <= count <= MAX_COUNT:
        raise ConfigurationError(f"count must be in 0..{MAX_COUNT}, not {count}")
    return count


def stream(uint64_t seed, int count):
    """Return the first ``count`` 64-bit outputs of the generator seeded with ``seed``."""
    cdef rng_t r
    rng_seed(&r, seed)
    return [rng_next(&r) for _ in range(_count(count))]


def bounded(uint64_t seed, uint32_t n, int count):
    """Return ``count`` draws of ``bounded(n)`` (uniform in ``[0, n)``)."""
    if n == 0:
        raise ConfigurationError("n must be at least 1")
    cdef rng_t r
    rng_seed(&r, seed)
    return [rng_bounded(&r, n) for _ in range(_count(count))]


def shuffled(uint64_t seed, int n):
    """Return ``list(range(n))`` shuffled (Fisher-Yates from the end), ``n <= 256``."""
    if not 0 <= n <= 256:
        raise ConfigurationError("n must be in 0..256")
    cdef uint8_t a[256]
    cdef int i
    cdef rng_t r
    for i in range(n):
        a[i] = i
    rng_seed(&r, seed)
    rng_shuffle_u8(&r, a, n)
    return [a[i] for i in range(n)]
