# The growable action history of a state: the actions applied since ``new_state``, in
# order, one uint16_t each (every game's actions fit), in a heap buffer that doubles
# when full.  A state holds one ``hist_t`` field; new objects arrive zeroed (fresh and
# freelist objects alike), which is the empty history, and ``__dealloc__`` calls
# ``hist_free``.  The nogil functions report a failed allocation by returning -1 with
# the history unchanged; the caller raises MemoryError.
from libc.stdint cimport uint16_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy

ctypedef struct hist_t:
    uint16_t *buf
    Py_ssize_t len
    Py_ssize_t cap


cdef inline int hist_reserve(hist_t *h, Py_ssize_t cap) noexcept nogil:
    """Make room for ``cap`` actions in all; return -1 if out of memory."""
    cdef uint16_t *buf
    if cap <= h.cap:
        return 0
    buf = <uint16_t *>realloc(h.buf, cap * sizeof(uint16_t))
    if buf == NULL:
        return -1
    h.buf = buf
    h.cap = cap
    return 0


cdef inline int hist_push(hist_t *h, uint16_t action) noexcept nogil:
    """Append ``action``; return -1 if out of memory."""
    if h.len == h.cap and hist_reserve(h, 2 * h.cap if h.cap else 64) < 0:
        return -1
    h.buf[h.len] = action
    h.len += 1
    return 0


cdef inline int hist_copy(hist_t *dst, const hist_t *src) noexcept nogil:
    """Copy ``src`` into the empty history ``dst``; return -1 if out of memory.

    The copy gets the same capacity, so the usual next step (copy, then apply) does not
    reallocate at once.
    """
    if src.len == 0:
        return 0
    dst.buf = <uint16_t *>malloc(src.cap * sizeof(uint16_t))
    if dst.buf == NULL:
        return -1
    memcpy(dst.buf, src.buf, src.len * sizeof(uint16_t))
    dst.len = src.len
    dst.cap = src.cap
    return 0


cdef inline void hist_free(hist_t *h) noexcept nogil:
    free(h.buf)
    h.buf = NULL
    h.len = h.cap = 0


cdef inline list hist_list(const hist_t *h):
    """Return the history as a list of ints (``State.history()``)."""
    cdef Py_ssize_t i
    return [h.buf[i] for i in range(h.len)]
