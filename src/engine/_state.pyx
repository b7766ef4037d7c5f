# What every game's position shares, written once over the kernel table (_kernel.pxd).
#
# ``EngineState`` is the base class of every compiled state class (``Just4FunState`` ...):
# the subclass holds its position struct and points ``_s`` and ``_k`` at it and at its
# kernel table in ``__cinit__``; everything here reaches the game through those two.
# ``EngineConfig`` is one checked configuration of one game: the facade's ``Game`` makes
# it through the engine module's ``config(...)`` and hands it down for every state and
# every batch.
#
# Threads: every method reads or changes the position inside a critical section on the
# state (free-threaded builds lock the object; with the GIL it compiles to nothing), and
# the only work done without the GIL (``rollout``, ``simulate_chunk``) runs on memory no
# other thread can reach: a private copy, written back whole at the end.
cimport cython
from cpython.list cimport PyList_New
from cpython.ref cimport Py_INCREF, PyObject
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from _common cimport action_index, legal_mask, rollout_seed, seat_index
from _history cimport hist_copy, hist_free, hist_list, hist_push, hist_t
from _kernel cimport MAX_ACTIONS, MAX_PLAYERS, kernel_t
from _rng cimport STREAM_GAME, STREAM_PLAYER, derive_seed, rng_seed, rng_t

from copy import deepcopy

import numpy as np

from boardcore.errors import BoardcoreError, IllegalActionError
from boardcore.values import Outcome, header, quote

cdef extern from *:
    """
    /* A free list per state class.  A state object is larger than pymalloc's small
       objects (most hold 500+ bytes), so without one every copy() would be a malloc
       and a free; Cython's own freelist cannot serve subclasses, so the state classes
       get this one through their tp_alloc / tp_free.  Off on free-threaded builds,
       where a shared list would need a lock. */
    #define BOARDCORE_FREE_MAX 64
    typedef struct {
        PyTypeObject *type;
        int count;
        PyObject *items[BOARDCORE_FREE_MAX];
    } boardcore_freelist;
    static boardcore_freelist boardcore_lists[8];
    static int boardcore_nlists = 0;

    static boardcore_freelist *boardcore_last = NULL;   /* the list found last */

    static boardcore_freelist *boardcore_list_of(PyTypeObject *t) {
        if (boardcore_last != NULL && boardcore_last->type == t) return boardcore_last;
        for (int i = 0; i < boardcore_nlists; i++)
            if (boardcore_lists[i].type == t) return boardcore_last = &boardcore_lists[i];
        return NULL;
    }
    static PyObject *boardcore_alloc(PyTypeObject *t, Py_ssize_t n) {
    #ifndef Py_GIL_DISABLED
        boardcore_freelist *l = boardcore_list_of(t);
        if (l != NULL && l->count > 0) {
            PyObject *o = l->items[--l->count];
            memset(o, 0, (size_t)t->tp_basicsize);
            (void)PyObject_Init(o, t);
            return o;
        }
    #endif
        return PyType_GenericAlloc(t, n);
    }
    static void boardcore_free(void *p) {
    #ifndef Py_GIL_DISABLED
        boardcore_freelist *l = boardcore_list_of(Py_TYPE((PyObject *)p));
        if (l != NULL && l->count < BOARDCORE_FREE_MAX) {
            l->items[l->count++] = (PyObject *)p;
            return;
        }
    #endif
        PyObject_Free(p);
    }
    /* The methods of every Python-driven move.  CPython (3.11 to 3.14) specialises a
       call to a method descriptor, skipping the generic call and its subclass check,
       only when the instance's class is the descriptor's own class; these are defined
       on the base class EngineState, so each state class gets descriptors of its own
       for the same C functions. */
    static const char *boardcore_hot[] = {"legal_actions", "apply", "is_over", "copy",
                                          "_call_floor", NULL};
    static void boardcore_own_methods(PyTypeObject *t) {
        PyTypeObject *base = t->tp_base;
        for (const char **name = boardcore_hot; *name != NULL; name++) {
            PyObject *d = PyDict_GetItemString(base->tp_dict, *name);
            if (d == NULL || !Py_IS_TYPE(d, &PyMethodDescr_Type)
                    || PyDict_GetItemString(t->tp_dict, *name) != NULL)
                continue;
            /* Out of memory: the inherited descriptor still serves, only slower. */
            PyObject *own = PyDescr_NewMethod(t, ((PyMethodDescrObject *)d)->d_method);
            if (own == NULL || PyDict_SetItemString(t->tp_dict, *name, own) < 0)
                PyErr_Clear();
            Py_XDECREF(own);
        }
        PyType_Modified(t);
    }
    /* Give class t the free list: only a static, final, non-GC class of fixed size.
       Never on free-threaded builds: the lists are off there, and registering would
       race on these statics when two threads make their first configurations (the
       same holds for the class's own method descriptors). */
    static int boardcore_use_freelist(PyObject *cls) {
        PyTypeObject *t = (PyTypeObject *)cls;
    #ifdef Py_GIL_DISABLED
        (void)t;
        return 0;
    #endif
        if (boardcore_list_of(t) != NULL) return 0;
        if (boardcore_nlists == 8 || t->tp_itemsize != 0
                || (t->tp_flags & (Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HEAPTYPE | Py_TPFLAGS_BASETYPE)))
            return -1;
        boardcore_own_methods(t);
        boardcore_lists[boardcore_nlists].type = t;
        boardcore_lists[boardcore_nlists].count = 0;
        boardcore_nlists++;
        t->tp_alloc = boardcore_alloc;
        t->tp_free = boardcore_free;
        return 0;
    }
    /* A copy of every byte of state ``o`` after the object header, in a new object of
       its class: copy() then takes the references and the history the bytes share
       with ``o``.  No tp_new, no __cinit__, no zeroing: a copy costs one memcpy. */
    static PyObject *boardcore_clone(PyObject *o) {
        PyTypeObject *t = Py_TYPE(o);
        PyObject *c = NULL;
    #ifndef Py_GIL_DISABLED
        boardcore_freelist *l = boardcore_list_of(t);
        if (l != NULL && l->count > 0) {
            c = l->items[--l->count];
            (void)PyObject_Init(c, t);
        }
    #endif
        if (c == NULL && (c = t->tp_alloc(t, 0)) == NULL)
            return NULL;
        memcpy((char *)c + sizeof(PyObject), (char *)o + sizeof(PyObject),
               (size_t)t->tp_basicsize - sizeof(PyObject));
        return c;
    }
    """
    int boardcore_use_freelist(object t)
    object boardcore_clone(object o)

cdef extern from *:
    """
    #define boardcore_tuple_items(t) (&PyTuple_GET_ITEM((t), 0))
    """
    # The item array of a tuple, and two macros on raw pointers: legal_actions() fills
    # its list from the ready ints below without a reference count change per read.
    PyObject **boardcore_tuple_items(tuple t)
    void incref_raw "Py_INCREF"(PyObject *o)
    void list_set_raw "PyList_SET_ITEM"(object l, Py_ssize_t i, PyObject *o)

# Every action as a ready Python int: legal_actions() hands out references to these
# instead of allocating an int per action (it runs on every Python-driven move).
cdef tuple ACTION_INTS = tuple(range(MAX_ACTIONS))
cdef PyObject **ACTION_ITEMS = boardcore_tuple_items(ACTION_INTS)
# A refusal shows at most this many legal actions.
cdef int SHOWN = 12


def _explain(before, after, action):
    from boardcore.moves import explain
    return explain(before, after, action)


@cython.final
cdef class EngineConfig:
    """One checked configuration of one game, as the engine plays it.

    Made by an engine module's ``config(...)``; ``Game`` keeps one and hands it down.
    """

    def __init__(self, type state_class not None, bytes blob not None):
        cdef EngineState probe
        cdef void *scratch
        if not issubclass(state_class, EngineState) or state_class is EngineState:
            raise TypeError(f"state_class must be a game's state class, not {state_class!r}")
        probe = <EngineState>state_class.__new__(state_class)
        if probe._k == NULL:
            raise TypeError(f"{state_class.__name__} does not set its kernel table")
        self.k = probe._k
        if len(blob) != self.k.config_size or self.k.check_config(<const char *>blob) != 0:
            raise ValueError(f"not a configuration of {self.k.name.decode()}")
        self.blob = blob
        self.state_class = state_class
        boardcore_use_freelist(state_class)
        scratch = malloc(self.k.state_size)
        if scratch == NULL:
            raise MemoryError()
        self.k.init(scratch, <const char *>blob, 0)
        self.num_players = self.k.num_players(scratch)
        self.num_actions = self.k.num_actions(scratch)
        free(scratch)
        if not 1 <= self.num_players <= MAX_PLAYERS or not 1 <= self.num_actions <= MAX_ACTIONS:
            raise ValueError(f"{self.k.name.decode()} configured out of the kernel's bounds")
        self.observation_size = (self.k.observation_size(<const char *>blob)
                                 if self.k.observation_size != NULL else 0)

    cdef EngineState _make(self, object game, object seed):
        cdef EngineState st = <EngineState>self.state_class.__new__(self.state_class)
        st._players = self.num_players
        st._actions = self.num_actions
        st._observation = self.observation_size
        st.game = game
        st.seed = seed
        return st

    def new_state(self, game, uint64_t seed):
        """Return the starting position of game ``seed``, belonging to ``game``."""
        cdef EngineState st = self._make(game, seed)
        self.k.init(st._s, <const char *>self.blob, seed)
        st._started(None)
        return st

    def simulate_chunk(self, uint64_t seed, Py_ssize_t start, Py_ssize_t stop,
                       int64_t[:, ::1] scores not None, uint8_t[:, ::1] winners not None,
                       int64_t[::1] lengths not None, int64_t[:, ::1] stats not None,
                       Py_ssize_t offset=0):
        """Play games ``start..stop-1`` of ``simulate``'s batch ``seed`` into the arrays.

        Game ``g`` is ``new_state(derive_seed(seed, STREAM_GAME, g))`` played out by the
        random player seeded ``derive_seed(seed, STREAM_PLAYER, g)``; row ``g - offset``
        of each array gets its scores, winners, length and the game's statistics
        (``offset`` lets a part of a batch, played elsewhere, fill arrays of its own size).
        """
        cdef const kernel_t *k = self.k
        cdef const void *cfg = <const char *>self.blob
        cdef int n = self.num_players
        cdef void *s
        cdef rng_t player
        cdef Py_ssize_t g
        cdef int p
        cdef int64_t sc[MAX_PLAYERS]
        cdef int64_t st[MAX_PLAYERS]
        cdef uint8_t w[MAX_PLAYERS]
        if not (0 <= offset <= start <= stop and stop - offset <= scores.shape[0]
                and stop - offset <= winners.shape[0] and stop - offset <= lengths.shape[0]
                and stop - offset <= stats.shape[0]):
            raise ValueError(f"games {start}..{stop} do not fit the result arrays")
        if scores.shape[1] < n or winners.shape[1] < n or stats.shape[1] < k.n_stats:
            raise ValueError("the result arrays are too narrow for this game")
        s = malloc(k.state_size)
        if s == NULL:
            raise MemoryError()
        with nogil:
            for g in range(start, stop):
                k.init(s, cfg, derive_seed(seed, STREAM_GAME, <uint64_t>g))
                rng_seed(&player, derive_seed(seed, STREAM_PLAYER, <uint64_t>g))
                lengths[g - offset] = k.play_out(s, &player, NULL)
                k.scores(s, sc)
                k.winners(s, w)
                k.stats(s, st)
                for p in range(n):
                    scores[g - offset, p] = sc[p]
                    winners[g - offset, p] = w[p]
                for p in range(k.n_stats):
                    stats[g - offset, p] = st[p]
        free(s)


@cython.no_gc      # holds only the game, seed, configuration and set-up: no cycles
cdef class EngineState:
    """A position of some game: the methods every game's state class shares."""

    def __init__(self, *args, **kwargs):
        raise TypeError(
            f"{type(self).__name__} cannot be made directly; use game.new_state(seed) "
            f"or game.state_from_dict(data)")

    def __dealloc__(self):
        if self._hist.buf != NULL:
            hist_free(&self._hist)

    cdef int _check(self) except -1:
        if self._players == 0:
            raise TypeError(f"this {type(self).__name__} was never set up; use game.new_state")
        return 0

    cdef int _started(self, object setup) except -1:
        # Play starts here: keep the position (undo replays from it) and, for a set-up
        # position, its document.
        self._root = (<char *>self._s)[:self._k.state_size]
        self._setup = setup
        return 0

    cdef Py_ssize_t _moves(self) noexcept:
        # How many actions were applied (the length of the history).
        cdef uint16_t own[MAX_ACTIONS]
        if self._k.own_history != NULL:
            return self._k.own_history(self._s, own)
        return self._hist.len

    # -- the move loop ----------------------------------------------------------------

    @property
    def current_player(self):
        """The seat to act, or ``None`` once the game is over."""
        cdef int p
        self._check()
        with cython.critical_section(self):
            p = self._k.current(self._s)
        return None if p < 0 else p

    # legal_actions(), apply(), is_over() and copy() are plain method descriptors
    # (binding off), and each state class has its own (boardcore_own_methods): CPython
    # then specialises the call, skipping the generic call path (callgrind, CPython
    # 3.11: a Python-driven move 4,928 -> 4,509 instructions in Just4Fun, 4,382 ->
    # 4,014 in Fool).  Their docstrings carry clinic signatures, which
    # inspect.signature reads.  Each hot method checks the set-up inline; _check()
    # only raises.
    @cython.binding(False)
    @cython.embedsignature.format("clinic")
    def legal_actions(self):
        """Return the legal actions, ascending (empty once the game is over)."""
        cdef uint16_t legal[MAX_ACTIONS]
        cdef int i, n
        cdef list out
        if self._players == 0:
            self._check()
        with cython.critical_section(self):
            n = self._k.legal(self._s, legal)
        out = PyList_New(n)
        for i in range(n):
            incref_raw(ACTION_ITEMS[legal[i]])
            list_set_raw(out, i, ACTION_ITEMS[legal[i]])
        return out

    def legal_actions_mask(self):
        """Return a numpy ``bool_`` array of length ``game.num_actions``, True where legal."""
        cdef uint16_t legal[MAX_ACTIONS]
        cdef int n
        self._check()
        with cython.critical_section(self):
            n = self._k.legal(self._s, legal)
        return legal_mask(np.zeros(self._actions, dtype=np.bool_), legal, n)

    @cython.binding(False)
    @cython.embedsignature.format("clinic")
    def apply(self, action):
        """Apply a legal action (an int); anything else raises and changes nothing.

        Raises:
            TypeError: ``action`` is not an integer (bool, float and str included).
            IllegalActionError: the action is not legal here, or the game is over.
        """
        cdef Py_ssize_t a
        cdef bint legal
        cdef int grew = 0
        if self._players == 0:
            self._check()
        a = action_index(action, self._actions)
        with cython.critical_section(self):
            legal = self._k.is_legal(self._s, <int>a)
            if legal:
                if self._k.own_history == NULL:
                    grew = hist_push(&self._hist, <uint16_t>a)
                if grew == 0:
                    self._k.apply(self._s, <int>a)
        if not legal:
            self._refuse(action, a)
        if grew < 0:
            raise MemoryError("no memory to grow the history")

    cdef int _refuse(self, object action, Py_ssize_t a) except -1:
        # One message for every game: the action, its notation, and what was allowed.
        legal = self.legal_actions()
        if not legal:
            raise IllegalActionError(f"illegal action {quote(action)}: the game is over")
        shown = ", ".join(f"{b} ({self.action_to_str(b)})" for b in legal[:SHOWN])
        more = f" and {len(legal) - SHOWN} more" if len(legal) > SHOWN else ""
        try:
            written = f" ({self.action_to_str(a)})"
        except BoardcoreError:
            written = ""
        raise IllegalActionError(
            f"illegal action {quote(action)}{written} for seat {self.current_player}; "
            f"legal: {shown}{more}")

    @cython.binding(False)
    @cython.embedsignature.format("clinic")
    def is_over(self):
        """Return True once the game has ended."""
        cdef int p
        if self._players == 0:
            self._check()
        with cython.critical_section(self):
            p = self._k.current(self._s)
        return p < 0

    @cython.binding(False)
    @cython.embedsignature.format("clinic")
    def _call_floor(self):
        """Do nothing: the bench's floor of a Python -> engine method call."""

    def scores(self):
        """Return every seat's running score (the game's own measure), one int per seat."""
        cdef int64_t sc[MAX_PLAYERS]
        cdef int p
        self._check()
        with cython.critical_section(self):
            self._k.scores(self._s, sc)
        return tuple([sc[p] for p in range(self._players)])

    def outcome(self):
        """Return ``None`` until the game is over, then its ``Outcome``."""
        cdef int64_t sc[MAX_PLAYERS]
        cdef uint8_t w[MAX_PLAYERS]
        cdef int p, n = self._players
        cdef bint over
        self._check()
        with cython.critical_section(self):
            over = self._k.current(self._s) < 0
            if over:
                self._k.scores(self._s, sc)
                self._k.winners(self._s, w)
        if not over:
            return None
        return Outcome(scores=tuple([sc[p] for p in range(n)]),
                       winners=frozenset([p for p in range(n) if w[p]]))

    def rollout(self, seed=None):
        """Play uniformly random legal actions to the end, in place; return the outcome.

        The play-out runs in compiled code without the GIL, on a private copy that
        replaces the position (and extends the history) when it is done.

        Args:
            seed: the random player's seed (``None`` draws one from the OS).
        """
        cdef rng_t player
        cdef hist_t hist
        cdef hist_t *h = NULL
        cdef Py_ssize_t played
        cdef void *s
        cdef int copied = 0
        self._check()
        rng_seed(&player, rollout_seed(seed))
        hist.buf = NULL
        hist.len = hist.cap = 0
        s = malloc(self._k.state_size)
        if s == NULL:
            raise MemoryError()
        with cython.critical_section(self):
            memcpy(s, self._s, self._k.state_size)
            if self._k.own_history == NULL:
                h = &hist
                copied = hist_copy(h, &self._hist)
        if copied < 0:
            free(s)
            raise MemoryError("no memory to copy the history")
        with nogil:
            played = self._k.play_out(s, &player, h)
        if played >= 0:
            with cython.critical_section(self):
                memcpy(self._s, s, self._k.state_size)
                if h != NULL:
                    hist_free(&self._hist)
                    self._hist = hist
                    h = NULL
        free(s)
        if h != NULL:
            hist_free(h)
        if played < 0:
            raise MemoryError("no memory to grow the history")
        return self.outcome()

    # -- copies, history, pickling ------------------------------------------------

    @cython.binding(False)
    @cython.embedsignature.format("clinic")
    def copy(self):
        """Return an independent copy: one copy of the object's bytes, plus the history."""
        cdef EngineState c
        cdef int copied = 0
        if self._players == 0:
            self._check()
        with cython.critical_section(self):
            c = <EngineState>boardcore_clone(self)
            # The copied bytes share this state's references and history buffer: the
            # copy takes references of its own, points at its own struct, copies the
            # history.
            Py_INCREF(c.game)
            Py_INCREF(c.seed)
            Py_INCREF(c._setup)
            Py_INCREF(c._root)
            c._s = <char *><void *>c + (<char *>self._s - <char *><void *>self)
            c._hist.buf = NULL
            c._hist.len = c._hist.cap = 0
            if self._k.own_history == NULL:
                copied = hist_copy(&c._hist, &self._hist)
        if copied < 0:
            raise MemoryError("no memory to copy the history")
        return c

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def history(self):
        """Return the actions applied since the start of play, in order."""
        cdef uint16_t own[MAX_ACTIONS]
        cdef Py_ssize_t i, n
        self._check()
        if self._root is None or len(self._root) != self._k.state_size:
            raise TypeError(f"this {type(self).__name__} does not know where play started")
        with cython.critical_section(self):
            if self._k.own_history != NULL:
                n = self._k.own_history(self._s, own)
                return [own[i] for i in range(n)]
            return hist_list(&self._hist)

    def observation(self, player, out=None):
        """Return what seat ``player`` sees, as ``float32`` planes (``game.observation_shape``).

        Only what that seat may see; the planes of each game are documented in
        ``docs/games/<game>.md``.

        Args:
            player: the observing seat.
            out: a C-contiguous ``float32`` array of ``game.observation_shape`` to fill
                instead of allocating one.

        Raises:
            TypeError: ``player`` is not an integer or ``out`` is not such an array.
            ValueError: ``player`` is not a seat.
        """
        cdef int p
        cdef float[::1] view
        self._check()
        if self._observation == 0:
            raise NotImplementedError(f"{self._k.name.decode()} has no observations yet")
        p = seat_index(player, self._players)
        if out is None:
            out = np.empty(self._observation, dtype=np.float32)
        elif not isinstance(out, np.ndarray) or out.dtype != np.float32 \
                or out.shape != (self._observation,) or not out.flags.c_contiguous \
                or not out.flags.writeable:
            raise TypeError(f"out must be a writable C-contiguous float32 array of shape "
                            f"({self._observation},)")
        view = out
        with cython.critical_section(self):
            self._k.observe(self._s, p, &view[0])
        return out

    def explain(self, action):
        """Return what legal ``action`` would do here, as the game's typed move value.

        Raises:
            TypeError: ``action`` is not an integer.
            IllegalActionError: ``action`` is not legal here.
        """
        cdef Py_ssize_t a
        self._check()
        a = action_index(action, self._actions)
        after = self.copy()
        after.apply(a)
        return _explain(self, after, a)

    @property
    def last_move(self):
        """What the last action did (the game's typed move value), ``None`` at the start."""
        self._check()
        before = self.copy()
        try:
            before.undo()
        except IllegalActionError:
            return None
        moves = self.history()
        return _explain(before, self, moves[len(moves) - 1])

    def svg(self, size=480, perspective=None):
        """Return a self-contained SVG picture of the position, ``size`` pixels wide.

        Args:
            size: the width in pixels (16..8192).
            perspective: ``None`` shows every card; a seat shows the others' hidden
                cards face down.
        """
        self._check()
        from boardcore.pictures import svg
        return svg(self, size, perspective)

    def _repr_svg_(self):
        return self.svg()

    def text(self, perspective=None):
        """Return the text picture of the position (``str(state)`` shows every card).

        Args:
            perspective: ``None`` shows every card; a seat shows the others' hidden
                cards as ``?``.
        """
        self._check()
        return self._text(-1 if perspective is None else seat_index(perspective, self._players))

    def __str__(self):
        return self.text()

    def _text(self, int seat):
        # The game's picture; other seats' hidden cards shown as "?" unless seat < 0.
        raise NotImplementedError

    def undo(self):
        """Take back the last action exactly, chance included (a reshuffle, a new deal).

        Raises:
            IllegalActionError: no action has been applied since the start.
        """
        cdef uint16_t own[MAX_ACTIONS]
        cdef const uint16_t *actions
        cdef Py_ssize_t i, n
        self._check()
        if self._root is None or len(self._root) != self._k.state_size:
            raise TypeError(f"this {type(self).__name__} does not know where play started")
        with cython.critical_section(self):
            if self._k.own_history != NULL:
                n = self._k.own_history(self._s, own)
                actions = own
            else:
                n = self._hist.len
                actions = self._hist.buf
            if n > 0:
                # Replay all but the last action from the start: the state's own
                # generator makes the same draws again.
                memcpy(self._s, <const char *>self._root, self._k.state_size)
                for i in range(n - 1):
                    self._k.apply(self._s, actions[i])
                if self._k.own_history == NULL:
                    self._hist.len = n - 1
        if n == 0:
            raise IllegalActionError("nothing to undo: no action was applied since the start")

    def _replay(self, actions):
        """Apply ``actions`` (a list) in order while each is a legal action.

        Returns the index of the first one that is not (the state stops there), or -1.
        """
        cdef Py_ssize_t i
        if not isinstance(actions, list):
            raise TypeError(f"actions must be a list, not {type(actions).__name__}")
        for i in range(len(actions)):
            a = actions[i]
            if type(a) is not int or not 0 <= a < self._actions:
                return i
            try:
                self.apply(a)
            except IllegalActionError:
                return i
        return -1

    def __reduce__(self):
        # Pickling goes through to_dict: a bound method of the game pickles as the game
        # and the method's name.
        return (self.game.state_from_dict, (self.to_dict(),))

    def to_dict(self):
        """Return the whole state as a JSON-safe dict (schemas: docs/games/<game>.md)."""
        self._check()
        d = header(self)
        if self._setup is not None:
            d["setup"] = deepcopy(self._setup)
        d.update(self._fields())
        d["history"] = self.history()
        return d

    def _fields(self):
        # The game's own fields of to_dict, the generator included.
        raise NotImplementedError

    def __repr__(self):
        cdef int p
        if self._players == 0:
            return f"<{type(self).__name__} (not set up)>"
        p = self._k.current(self._s)
        seat = "over" if p < 0 else f"seat {p} to act"
        return (f"<{type(self).__name__} players={self._players} {seat} "
                f"move={self._moves()}>")
