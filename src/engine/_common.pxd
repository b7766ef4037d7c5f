# Boundary helpers every engine's public methods share: they turn the Python objects a
# caller passes into checked C integers, or raise the documented exception, and turn a
# C buffer of actions back into the Python results.  Only the error paths import
# Python modules, so the common case costs a type check.
cimport cython
from cpython.buffer cimport PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.long cimport PyLong_AsLongAndOverflow, PyLong_CheckExact
from libc.stdint cimport uint8_t, uint16_t, uint64_t

cdef extern from *:
    """
    /* The value of ``o`` if it is an exact int, non-negative and of one digit (below
       2**30: every action), read in place with no call; else -1 (also where the layout
       of an int is not known: before 3.11, PyPy), and the caller converts it. */
    static inline Py_ssize_t boardcore_small_int(PyObject *o) {
        if (!PyLong_CheckExact(o)) return -1;
    #if defined(PYPY_VERSION) || defined(Py_LIMITED_API)
        (void)o;
        return -1;
    #elif PY_VERSION_HEX >= 0x030C0000
        PyLongObject *v = (PyLongObject *)o;
        return PyUnstable_Long_IsCompact(v) && PyUnstable_Long_CompactValue(v) >= 0
            ? PyUnstable_Long_CompactValue(v) : -1;
    #elif PY_VERSION_HEX >= 0x030B0000
        Py_ssize_t size = Py_SIZE(o);
        return size == 0 ? 0 : size == 1 ? (Py_ssize_t)((PyLongObject *)o)->ob_digit[0] : -1;
    #else
        (void)o;
        return -1;
    #endif
    }
    """
    Py_ssize_t boardcore_small_int(object o) noexcept


cdef inline Py_ssize_t action_index(object action, Py_ssize_t num_actions) except -1:
    """Return ``action`` as an index in ``range(num_actions)``.

    bool/float/str/None -> TypeError; any other integer outside the range ->
    IllegalActionError (it can never be legal).
    """
    cdef Py_ssize_t a
    cdef int overflow = 0
    if PyLong_CheckExact(action):
        # No Python arithmetic here: this runs on every apply().
        a = PyLong_AsLongAndOverflow(action, &overflow)
        if overflow:
            a = -1
    else:
        a = _slow_action_index(action)
    if a < 0 or a >= num_actions:
        _illegal(action, f"actions are ints in range({num_actions})")
    return a


cdef inline str _quoted(object value):
    # What a caller handed in, cut short (values.quote): never the whole of a huge or
    # deeply nested value, and never repr()'s own errors.
    from boardcore.values import quote
    return quote(value)


cdef inline Py_ssize_t _slow_action_index(object action) except? -2:
    import operator
    if isinstance(action, (bool, float, str, bytes)) or action is None:
        raise TypeError(f"an action must be an int, not {_quoted(action)}")
    try:
        value = operator.index(action)
    except TypeError:
        raise TypeError(f"an action must be an int, not {_quoted(action)}") from None
    if value < 0 or value > (1 << 40):
        return -1
    return value


cdef inline int _illegal(object action, str allowed) except -1:
    from boardcore.errors import IllegalActionError
    raise IllegalActionError(f"illegal action {_quoted(action)}: {allowed}")


cdef inline int seat_index(object player, int num_players) except -1:
    """Return ``player`` as a seat number; TypeError or ConfigurationError otherwise."""
    import operator
    if isinstance(player, (bool, float, str, bytes)) or player is None:
        raise TypeError(f"a seat must be an int, not {_quoted(player)}")
    try:
        value = operator.index(player)
    except TypeError:
        raise TypeError(f"a seat must be an int, not {_quoted(player)}") from None
    if not 0 <= value < num_players:
        from boardcore.errors import ConfigurationError
        raise ConfigurationError(f"seat {_quoted(player)} is not in range({num_players})")
    return value


cdef inline uint64_t rollout_seed(object seed) except? 0:
    """Return a 64-bit seed for a rollout; ``None`` draws one from the OS."""
    if PyLong_CheckExact(seed) and 0 <= <object>seed <= 0xFFFFFFFFFFFFFFFF:
        return <uint64_t>seed
    from boardcore.values import check_seed
    return check_seed(seed)


cdef inline object legal_mask(object mask, const uint16_t *actions, int n):
    """Set ``mask[a]`` for each of ``actions[:n]`` and return ``mask``.

    ``mask`` is a fresh zeroed C-contiguous array of one-byte items, e.g.
    ``np.zeros(num_actions, dtype=np.bool_)``, made by the caller (headers cannot
    import numpy); it is filled through the buffer protocol, without Python indexing.
    """
    cdef Py_buffer view
    cdef uint8_t *m
    cdef int i
    PyObject_GetBuffer(mask, &view, PyBUF_WRITABLE)
    m = <uint8_t *>view.buf
    for i in range(n):
        m[actions[i]] = 1
    PyBuffer_Release(&view)
    return mask
