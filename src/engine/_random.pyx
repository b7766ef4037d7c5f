# The shared generator of _rng.pxd, exposed for the golden-stream tests: the same
# seeds must give these streams on every platform.
from libc.stdint cimport uint8_t, uint32_t, uint64_t

from _rng cimport rng_bounded, rng_next, rng_seed, rng_shuffle_u8, rng_t

from boardcore.errors import ConfigurationError

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
