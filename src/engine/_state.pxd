# The two compiled classes every game shares (``_state.pyx``), declared for the engine
# modules that subclass ``EngineState``.  setup.py copies this file to
# build/pxd/boardcore/_engine/ so that ``from boardcore._engine._state cimport ...`` finds it.
cimport cython
from cpython.ref cimport PyObject

from _history cimport hist_t
from _kernel cimport kernel_t


cdef class EngineConfig:
    cdef const kernel_t *k
    cdef bytes blob                   # the configuration struct, k.config_size bytes
    cdef type state_class
    cdef readonly int num_players
    cdef readonly int num_actions
    cdef readonly int observation_size
    cdef EngineState _make(self, object game, object seed)


@cython.no_gc
cdef class EngineState:
    cdef void *_s                     # the subclass's position struct
    cdef const kernel_t *_k           # its game's kernel table
    cdef hist_t _hist                 # unused when the kernel keeps its own history
    cdef int _players                 # seats, 0 until the state is set up
    cdef int _actions                 # num_actions
    cdef int _observation             # floats in an observation
    # The Python objects a state holds.  copy() takes a reference to each of these (and
    # tests/test_layout.py fails if a state class declares one that copy() does not).
    cdef readonly object game
    cdef readonly object seed
    cdef object _setup                # None, or the set-up position play started from
    cdef bytes _root                  # the position struct play started from (undo)
    # The list legal_actions() handed out last, refilled once only the state holds it
    # (NULL, or a reference of the state's own: raw, so copy() does not share it).
    cdef PyObject *_kept

    cdef int _check(self) except -1
    cdef Py_ssize_t _moves(self) noexcept
    cdef int _refuse(self, object action, Py_ssize_t a) except -1
    cdef int _started(self, object setup) except -1
    cdef object _snapshot(self)
    cdef object _last_move(self, EngineState after)
    # What each game's state class writes (the rest is written once in _state.pyx):
    # the game's own values of a position -- a private copy, read without a lock -- for
    # its snapshot, as plain Python ints, bools and tuples of them, by field name.
    cdef dict _values(self, const void *position)
    # A set-up position from the game's checked values; InvalidStateError if they do
    # not fit the position struct.
    cdef int _fill(self, const void *config, dict values) except -1
