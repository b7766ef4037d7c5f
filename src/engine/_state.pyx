# What every game's position shares, written once over the kernel table (_kernel.pxd).
#
# ``EngineState`` is the base class of every compiled state class (``Just4FunState`` ...):
# the subclass holds its position struct and points ``_s`` and ``_k`` at it and at its
# kernel table in ``__cinit__``; everything here reaches the game through those two.
# ``EngineConfig`` is one checked configuration of one game: the facade's ``Game`` makes
# it through the engine module's ``config(...)`` and hands it down for every state and
# every batch.
#
# One way up.  A game's state class writes its rules' values of a position (``_values``)
# and nothing else Python-shaped; ``snapshot()`` reads the position once and makes the
# game's typed snapshot of them, and every method that answers in Python objects -- the
# view, the text, the ``to_dict`` fields, the notation, an explained move, the picture --
# hands one snapshot to the ``Game`` the state holds (``state.game``).  A method that
# reads more than one position (``explain``, ``last_move``, ``to_dict``, ``svg``) first
# takes a private copy, so that another thread's apply or undo cannot tear it.
#
# Threads: every method reads or changes the position inside a critical section on the
# state (free-threaded builds lock the object; with the GIL it compiles to nothing), and
# the only work done without the GIL (``rollout``, ``simulate_chunk``) runs on memory no
# other thread can reach: a private copy, written back whole at the end.
cimport cython
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.ref cimport Py_CLEAR, Py_INCREF, PyObject
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from _common cimport action_index, boardcore_small_int, legal_mask, rollout_seed, seat_index
from _history cimport hist_copy, hist_free, hist_list, hist_push, hist_t
from _kernel cimport LINE_PAD, MAX_ACTIONS, MAX_PLAYERS, kernel_t, line_aligned
from _rng cimport STREAM_GAME, STREAM_PLAYER, derive_seed, rng_seed, rng_t

from copy import deepcopy

import numpy as np

from boardcore.errors import ConfigurationError, IllegalActionError, InvalidStateError
from boardcore.values import SPECTATOR, Outcome, check_int, describe, header, quote

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
    /* legal_actions()' list of the ready ints items[ids[0..n-1]], filled through a
       local pointer.

       The state keeps the list it handed out last (``*kept``, a reference of its own);
       once nobody else holds it -- the loop ``s.apply(choice(s.legal_actions()))``
       drops it at once -- the next call refills it instead of making a new list and
       freeing the old one (an allocation, a zeroed item array, a GC link and their
       frees per move).  A refilled list has room for BOARDCORE_ROW items, and its old
       items are copied aside as one block of that size, not as many as it held: a
       copy or a loop whose length changes every move costs a mispredicted branch.
       They are released only after the list holds the new ones: releasing an object
       a caller put in may run its __del__, which then sees a whole list.  (A caller
       who puts the state itself into that list makes a cycle the collector cannot see,
       states not being tracked: the two live on until the process ends.)  Not on
       free-threaded builds, where another thread's reference may not show in the
       count yet: there every call makes a new list. */
    #define BOARDCORE_ROW 16
    #if !defined(Py_GIL_DISABLED) && !defined(Py_LIMITED_API) && !defined(PYPY_VERSION)
    #define BOARDCORE_KEEP_LIST 1
    #endif
    static PyObject *boardcore_legal_list(PyObject **kept, PyObject *const *items,
                                          const uint16_t *ids, Py_ssize_t n) {
        PyObject *l = *kept, **dst;
        Py_ssize_t i;
    #ifdef BOARDCORE_KEEP_LIST
        PyObject *old[BOARDCORE_ROW];
        Py_ssize_t m;
        if (l != NULL && Py_REFCNT(l) == 1 && n <= BOARDCORE_ROW
                && (m = Py_SIZE(l)) <= BOARDCORE_ROW) {
            PyListObject *list = (PyListObject *)l;
            if (list->allocated < BOARDCORE_ROW) {
                dst = (PyObject **)PyMem_Realloc(list->ob_item,
                                                 BOARDCORE_ROW * sizeof(PyObject *));
                if (dst == NULL) goto fresh;
                list->ob_item = dst;
                list->allocated = BOARDCORE_ROW;
            }
            dst = list->ob_item;
            memcpy(old, dst, sizeof(old));
            for (i = 0; i < n; i++) {
                PyObject *o = items[ids[i]];
                Py_INCREF(o);
                dst[i] = o;
            }
            Py_SET_SIZE(l, n);
            Py_INCREF(l);
            for (i = 0; i < m; i++)
                Py_DECREF(old[i]);
            return l;
        }
    fresh:
    #endif
        l = PyList_New(n);
        if (l == NULL) return NULL;
        dst = ((PyListObject *)l)->ob_item;
        for (i = 0; i < n; i++) {
            PyObject *o = items[ids[i]];
            Py_INCREF(o);
            dst[i] = o;
        }
    #ifdef BOARDCORE_KEEP_LIST
        Py_INCREF(l);
        Py_XSETREF(*kept, l);
    #endif
        return l;
    }
    """
    # The item array of a tuple; legal_actions()' list of the ready ints below.
    PyObject **boardcore_tuple_items(tuple t)
    list boardcore_legal_list(PyObject **kept, PyObject **items, const uint16_t *ids,
                              Py_ssize_t n)

# Every action as a ready Python int: legal_actions() hands out references to these
# instead of allocating an int per action (it runs on every Python-driven move).
cdef tuple ACTION_INTS = tuple(range(MAX_ACTIONS))
cdef PyObject **ACTION_ITEMS = boardcore_tuple_items(ACTION_INTS)
# A refusal shows at most this many legal actions.
cdef int SHOWN = 12


cdef object perspective_of(object perspective, int players, bint everything):
    # Who looks: a seat, "spectator" (public information only) or, where ``everything``
    # is allowed (the pictures), None for every card face up.
    if isinstance(perspective, str) and perspective == SPECTATOR:
        return SPECTATOR
    if perspective is None and everything:
        return None
    try:
        return seat_index(perspective, players)
    except TypeError:
        raise TypeError(f"a perspective must be a seat (an int), 'spectator'"
                        f"{' or None' if everything else ''}, not {quote(perspective)}") from None


# Methods of the compiled classes are method descriptors (binding off), which check
# the class of ``self``: ``EngineState.explain(None, 0)`` is a TypeError, never a read of
# a NULL position.  Their clinic signatures keep inspect.signature working.
@cython.final
@cython.binding(False)
@cython.embedsignature.format("clinic")
cdef class EngineConfig:
    """One checked configuration of one game, as the engine plays it.

    Made by an engine module's ``config(...)``; ``Game`` keeps one and hands it down.
    Everything is set when it is made (``__cinit__``): calling ``__init__`` again
    changes nothing, so the kernel of a configuration in use never changes.
    """

    def __cinit__(self, type state_class not None, bytes blob not None):
        cdef EngineState probe
        cdef const kernel_t *k
        cdef void *scratch
        cdef int players, actions
        if not issubclass(state_class, EngineState) or state_class is EngineState:
            raise TypeError(f"state_class must be a game's state class, not {state_class!r}")
        probe = <EngineState>state_class.__new__(state_class)
        k = probe._k
        if k == NULL:
            raise TypeError(f"{state_class.__name__} does not set its kernel table")
        if len(blob) != k.config_size or k.check_config(<const char *>blob) != 0:
            raise ConfigurationError(f"not a configuration of {k.name.decode()}")
        scratch = malloc(k.state_size)
        if scratch == NULL:
            raise MemoryError()
        k.init(scratch, <const char *>blob, 0)
        players = k.num_players(scratch)
        actions = k.num_actions(scratch)
        free(scratch)
        if not 1 <= players <= MAX_PLAYERS or not 1 <= actions <= MAX_ACTIONS:
            raise ConfigurationError(f"{k.name.decode()} configured out of the kernel's bounds")
        boardcore_use_freelist(state_class)
        self.k = k
        self.blob = blob
        self.state_class = state_class
        self.num_players = players
        self.num_actions = actions
        self.observation_size = (k.observation_size(<const char *>blob)
                                 if k.observation_size != NULL else 0)

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

    def set_up(self, game, uint64_t seed, dict values not None):
        """Return the set-up position ``values`` draws, belonging to ``game``.

        ``values`` are the game's checked values of a set-up position (its
        ``positions`` module reads them from a document); what would not fit the
        position raises ``InvalidStateError``, and so does a game going on with no legal
        action for the seat to act.  Play starts there: its ``to_dict`` fields are the
        document's ``setup``.
        """
        cdef EngineState st = self._make(game, seed)
        st._fill(<const char *>self.blob, values)
        if self.k.current(st._s) >= 0 and not st.legal_actions():
            raise InvalidStateError(f"a {self.k.name.decode()} position whose seat to act "
                                    "has no legal action: the game would go on without a move")
        st._started(game.fields(st._snapshot()))
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
        cdef void *block
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
            raise ConfigurationError(f"games {start}..{stop} do not fit the result arrays")
        if scores.shape[1] < n or winners.shape[1] < n or stats.shape[1] < k.n_stats:
            raise ConfigurationError("the result arrays are too narrow for this game")
        block = malloc(k.state_size + LINE_PAD)   # the position on lines of its own
        if block == NULL:
            raise MemoryError()
        s = line_aligned(block)
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
        free(block)


@cython.no_gc      # holds only the game, seed, configuration and set-up: no cycles
@cython.binding(False)
@cython.embedsignature.format("clinic")
cdef class EngineState:
    """A position of some game: the methods every game's state class shares."""

    def __init__(self, *args, **kwargs):
        raise TypeError(
            f"{type(self).__name__} cannot be made directly; use game.new_state(seed) "
            f"or game.state_from_dict(data)")

    def __dealloc__(self):
        if self._hist.buf != NULL:
            hist_free(&self._hist)
        Py_CLEAR(self._kept)

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

    # legal_actions(), apply(), is_over() and copy(), like every method here, are plain
    # method descriptors (binding off), and each state class has its own of these four
    # (boardcore_own_methods): CPython then specialises the call, skipping the generic
    # call path (callgrind, CPython 3.11: a Python-driven move 4,928 -> 4,509
    # instructions in Just4Fun, 4,382 -> 4,014 in Fool).  Each hot method checks the
    # set-up inline; _check() only raises.  legal_actions() and is_over() take no
    # keywords, so they are METH_NOARGS, with no argument parsing at all (Cython's
    # default for a method with keywords allowed is a FASTCALL parser: a move 4,269 ->
    # 4,181 instructions in Just4Fun, 3,983 -> 3,927 in Fool, with legal_actions()'
    # list filled through a local pointer).  The price: CPython 3.11-3.13 specialise
    # no call of a *bound* METH_NOARGS method (``f = s.is_over; f()``), which costs
    # about 7 ns more than before; ``s.is_over()`` is the form loops use.
    @cython.always_allow_keywords(False)
    def legal_actions(self):
        """Return the legal actions, ascending (empty once the game is over)."""
        cdef uint16_t legal[MAX_ACTIONS]
        cdef int n
        if self._players == 0:
            self._check()
        with cython.critical_section(self):
            n = self._k.legal(self._s, legal)
        return boardcore_legal_list(&self._kept, ACTION_ITEMS, legal, n)

    def legal_actions_mask(self):
        """Return a numpy ``bool_`` array of length ``game.num_actions``, True where legal."""
        cdef uint16_t legal[MAX_ACTIONS]
        cdef int n
        self._check()
        with cython.critical_section(self):
            n = self._k.legal(self._s, legal)
        return legal_mask(np.zeros(self._actions, dtype=np.bool_), legal, n)

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
        a = boardcore_small_int(action)     # an action as it mostly comes: read in place
        if not 0 <= a < self._actions:
            a = action_index(action, self._actions)     # converted, or refused
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
        # One message for every game: the action, its notation, and what was allowed,
        # all read from one private copy.
        cdef EngineState c = self.copy()
        legal = c.legal_actions()
        if not legal:
            raise IllegalActionError(f"illegal action {quote(action)}: the game is over")
        snapshot = c._snapshot()
        notation = c.game.action_to_str
        shown = ", ".join([f"{b} ({notation(snapshot, b)})" for b in legal[:SHOWN]])
        more = f" and {len(legal) - SHOWN} more" if len(legal) > SHOWN else ""
        raise IllegalActionError(
            f"illegal action {quote(action)} ({notation(snapshot, a)}) for seat "
            f"{snapshot.current_player}; legal: {shown}{more}")

    @cython.always_allow_keywords(False)
    def is_over(self):
        """Return True once the game has ended."""
        cdef int p
        if self._players == 0:
            self._check()
        with cython.critical_section(self):
            p = self._k.current(self._s)
        return p < 0

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
            c._kept = NULL          # the list legal_actions() keeps is this state's
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
            ConfigurationError: ``player`` is not a seat.
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

    # -- what the game's Python half answers, from one snapshot -------------------------

    cdef object _snapshot(self):
        # The position read once, in one critical section, then made into the game's
        # typed snapshot from that private copy: the fields every game shares from the
        # kernel, the game's own from ``_values``.
        cdef void *position
        cdef Py_ssize_t moves
        cdef int64_t sc[MAX_PLAYERS]
        cdef uint8_t w[MAX_PLAYERS]
        cdef int p, n = self._players, current
        self._check()
        position = PyMem_Malloc(self._k.state_size)
        if position == NULL:
            raise MemoryError()
        try:
            with cython.critical_section(self):
                memcpy(position, self._s, self._k.state_size)
                moves = self._moves()
            current = self._k.current(position)
            self._k.scores(position, sc)
            scores = tuple([sc[p] for p in range(n)])
            outcome = None
            if current < 0:
                self._k.winners(position, w)
                outcome = Outcome(scores=scores, winners=frozenset([p for p in range(n) if w[p]]))
            values = self._values(position)
        finally:
            PyMem_Free(position)
        return self.game.snapshot_class(
            players=n, current_player=None if current < 0 else current, scores=scores,
            outcome=outcome, moves=moves, **values)

    cdef dict _values(self, const void *position):
        raise NotImplementedError(f"{type(self).__name__} has no snapshot")

    cdef int _fill(self, const void *config, dict values) except -1:
        raise InvalidStateError(f"{self._k.name.decode()} has no set-up positions")

    def snapshot(self):
        """Return the position as the game's snapshot: plain values, read in one step.

        Every method that answers in Python objects is the state's ``game`` applied to
        one snapshot (``state.view(p)`` is ``state.game.view(state.snapshot(), p)``).
        """
        return self._snapshot()

    def view(self, player):
        """Return what seat ``player`` may see: never another seat's hidden cards or tiles.

        ``view("spectator")`` is what a spectator may see: public information only
        (``player`` ``None``, ``hand`` empty).

        Raises:
            TypeError: ``player`` is neither an integer nor ``"spectator"``.
            ConfigurationError: ``player`` is not a seat of this game.
        """
        self._check()
        return self.game.view(self._snapshot(), perspective_of(player, self._players, False))

    def action_to_str(self, action):
        """Return the notation of ``action`` (``docs/games/<game>.md``).

        Every action in ``range(game.num_actions)`` has one, legal here or not.

        Raises:
            TypeError: ``action`` is not an integer.
            IllegalActionError: ``action`` is not in ``range(game.num_actions)``.
        """
        self._check()
        a = action_index(action, self._actions)
        return self.game.action_to_str(self._snapshot(), a)

    def parse_action(self, text):
        """Return the action written ``text``; ``parse_action(action_to_str(a)) == a``.

        Whether it is legal here is ``apply``'s to say.

        Raises:
            NotationError: ``text`` names no action (``docs/games/<game>.md``).
        """
        self._check()
        return self.game.parse_action(self._snapshot(), text)

    def explain(self, action):
        """Return what legal ``action`` would do here, as the game's typed move value.

        It tells only what the seat to act can know before it moves: two positions that
        seat sees alike explain alike.

        Raises:
            TypeError: ``action`` is not an integer.
            IllegalActionError: ``action`` is not legal here.
        """
        cdef Py_ssize_t a
        self._check()
        a = action_index(action, self._actions)
        before = self.copy()        # one read of this state: the rest is private
        after = before.copy()
        after.apply(a)
        return self.game.explain(before.snapshot(), after.snapshot(), a, played=False)

    @property
    def last_move(self):
        """What the last action did (the game's typed move value), ``None`` at the start."""
        self._check()
        return self._last_move(self.copy())

    cdef object _last_move(self, EngineState after):
        # The last move of ``after``, a private copy (undo replays it from the start).
        cdef EngineState before = after.copy()
        try:
            before.undo()
        except IllegalActionError:
            return None
        moves = after.history()
        return self.game.explain(before.snapshot(), after.snapshot(), moves[len(moves) - 1],
                                 played=True)

    def svg(self, size=480, perspective=None):
        """Return a self-contained SVG picture of the position, ``size`` pixels wide.

        Args:
            size: the width in pixels (16..8192).
            perspective: ``None`` shows every card; a seat shows the others' hidden
                cards face down; ``"spectator"`` shows every hidden card face down.

        Raises:
            TypeError: ``size`` is not an integer, or ``perspective`` is neither an
                integer, ``"spectator"`` nor ``None``.
            ConfigurationError: ``size`` is outside 16..8192 or ``perspective`` is not a
                seat.
        """
        cdef EngineState c
        self._check()
        c = self.copy()             # the position and its last move from one read
        width = check_int(size, "size")
        if not 16 <= width <= 8192:
            raise ConfigurationError(f"size must be in 16..8192 pixels, not {quote(size)}")
        seat = perspective_of(perspective, self._players, True)
        return self.game.draw(c._snapshot(), self._last_move(c), seat).render(width)

    def _repr_svg_(self):
        return self.svg()

    def text(self, perspective=None):
        """Return the text picture of the position (``str(state)`` shows every card).

        Args:
            perspective: ``None`` shows every card; a seat shows the others' hidden
                cards as ``?``; ``"spectator"`` shows every hidden card as ``?``.

        Raises:
            TypeError: ``perspective`` is neither an integer, ``"spectator"`` nor ``None``.
            ConfigurationError: ``perspective`` is not a seat.
        """
        self._check()
        return self.game.text(self._snapshot(), perspective_of(perspective, self._players, True))

    def __str__(self):
        return self.text()

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

    def can_undo(self):
        """Return whether a player may take the last action back without having peeked.

        False at the start, and after an action that showed hidden information to
        anyone -- a draw, a deal, a reshuffle (each game's ``reveals``): taking such an
        action back would let its player retract what they have seen.  ``undo()``
        itself takes back anything; apps offer their players an undo that stops here
        (``boardcore.app.take_back``).
        """
        cdef EngineState after, before
        self._check()
        after = self.copy()         # one read of this state: the rest is private
        before = after.copy()
        try:
            before.undo()
        except IllegalActionError:
            return False
        return not self.game.reveals(before.snapshot(), after.snapshot())

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
        cdef EngineState c
        self._check()
        c = self.copy()             # the position and its history from one read
        d = header(c)
        if c._setup is not None:
            d["setup"] = deepcopy(c._setup)
        d.update(c._fields())
        d["history"] = c.history()
        return d

    def _fields(self):
        """Return the game's own fields of ``to_dict`` (a set-up document's ``setup``)."""
        return self.game.fields(self._snapshot())

    def __repr__(self):
        cdef int p
        cdef Py_ssize_t moves
        if self._players == 0:
            return f"<{type(self).__name__} (not set up)>"
        with cython.critical_section(self):
            p = self._k.current(self._s)
            moves = self._moves()
        return describe(type(self).__name__, self._players, None if p < 0 else p, moves)
