# The kernel table: how compiled code drives any boardcore game.
#
# In the manner of numpy.random's ``bitgen_t``: each engine module fills one ``kernel_t``
# with pointers to its own rules on its own state struct and exposes it as the capsule
# ``KERNEL`` (capsule name "boardcore.kernel_t").  Everything generic is written once over
# the table: the checked Python methods every state shares and the batch behind
# ``simulate()`` (``_state.pyx``), the random play-out (``play_out`` below), and the later
# search agents and vectorised environments.
#
# What every engine keeps to:
# - a position is one plain C struct of ``state_size`` bytes holding no pointer, so a
#   copy is a memcpy and a position can live in any buffer;
# - a configuration (players and options) is one plain C struct of ``config_size``
#   bytes, checked by ``check_config`` before any other function sees it;
# - actions are ints in ``range(num_actions(state))``, at most ``MAX_ACTIONS``; ``legal``
#   writes the legal ones ascending, at most ``max_legal`` of them;
# - chance comes only from the generator inside the state; the random player draws
#   from its own generator: ``legal[bounded(count)]``, the same draw in every game;
# - every function below trusts its input: a checked configuration, a position made by
#   ``init`` and ``apply``, and (for ``apply``) a legal action.  Checking belongs to the
#   Python boundary (``_state.pyx``).
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t

from _history cimport hist_push, hist_t
from _rng cimport rng_bounded, rng_t

cdef enum:
    MAX_ACTIONS = 10240         # every game's num_actions is at most this
    MAX_PLAYERS = 8             # every game's seats are at most this

ctypedef int (*random_action_fn)(const void *state, rng_t *player) noexcept nogil
ctypedef void (*apply_fn)(void *state, int action) noexcept nogil

ctypedef struct kernel_t:
    const char *name            # the game's name in boardcore.GAMES
    size_t state_size           # bytes of a position
    size_t config_size          # bytes of a configuration
    int max_legal               # legal actions in any position, at most
    int n_stats                 # per-game statistics ``stats`` writes (simulate)

    # A configuration: 0 if ``config`` is one the engine can play, else -1.
    int (*check_config)(const void *config) noexcept nogil
    # The starting position of game ``seed`` (all chance drawn from it).
    void (*init)(void *state, const void *config, uint64_t seed) noexcept nogil

    int (*num_players)(const void *state) noexcept nogil
    int (*num_actions)(const void *state) noexcept nogil
    # The seat to act, -1 once the game is over.
    int (*current)(const void *state) noexcept nogil
    # The legal actions, ascending, into ``out``; how many (0 once over).
    int (*legal)(const void *state, uint16_t *out) noexcept nogil
    # Whether ``action`` (in range) is legal.
    bint (*is_legal)(const void *state, int action) noexcept nogil
    # Apply a legal action of the seat to act.
    void (*apply)(void *state, int action) noexcept nogil
    # The random player's action, legal[bounded(count)]; -1 once over.
    int (*random_action)(const void *state, rng_t *player) noexcept nogil
    # Random actions to the end (appended to ``history`` unless NULL); how many were
    # played, or -1 if the history could not grow (the position is then mid-way).
    Py_ssize_t (*play_out)(void *state, rng_t *player, hist_t *history) noexcept nogil

    # Each seat's running score; each seat's share of the win (1 = a winner) once over.
    void (*scores)(const void *state, int64_t *out) noexcept nogil
    void (*winners)(const void *state, uint8_t *out) noexcept nogil
    # The game's own statistics of a finished game, ``n_stats`` values.
    void (*stats)(const void *state, int64_t *out) noexcept nogil
    # A game whose whole history fits in its position keeps it there (a copy is then one
    # struct copy): this writes it out and returns its length.  NULL: the caller keeps
    # the history in a ``hist_t``.
    Py_ssize_t (*own_history)(const void *state, uint16_t *out) noexcept nogil

    # Slots for later work, NULL until an engine fills them.
    # Sample, from seat ``seat``'s information only, a complete position consistent
    # with everything that seat has seen; the hidden parts drawn from ``rng``.
    void (*determinize)(void *state, int seat, rng_t *rng) noexcept nogil
    # Write seat ``seat``'s observation planes (``observation_size(config)`` floats).
    int (*observation_size)(const void *config) noexcept nogil
    void (*observe)(const void *state, int seat, float *out) noexcept nogil
    # The search's play-out player: a legal action of the seat to act chosen by a cheap
    # rule of the game a good player keeps (such as: take a win that is there), else at
    # random from ``player``; -1 once over.  The expert agent plays out with it.
    int (*heuristic)(const void *state, rng_t *player) noexcept nogil


# A position a thread plays in (simulate's batches) sits on cache lines of its own: two
# threads' positions allocated side by side would otherwise share a line, and every
# move of each would invalidate the other's copy of it (false sharing).  Allocate
# ``state_size + LINE_PAD`` bytes and play in ``line_aligned(block)``.
cdef enum:
    LINE_PAD = 128              # two 64-byte lines: the alignment and the tail


cdef inline void *line_aligned(void *block) noexcept nogil:
    """The first 64-byte boundary in ``block`` (NULL stays NULL)."""
    return <void *>((<size_t>block + 63) & ~(<size_t>63))


cdef inline int pick(const uint16_t *legal, int count, rng_t *player) noexcept nogil:
    """The random player's choice among ``count`` legal actions; -1 if there are none."""
    if count == 0:
        return -1
    return legal[rng_bounded(player, <uint32_t>count)]


cdef inline Py_ssize_t play_out(void *state, rng_t *player, hist_t *history,
                                random_action_fn choose, apply_fn apply) noexcept nogil:
    """The random play-out, written once: each engine's ``play_out`` slot calls it with
    its own functions, so the compiler turns both pointers into direct calls."""
    cdef Py_ssize_t played = 0
    cdef int a
    cdef rng_t local = player[0]     # in a local, the generator stays in registers
    while True:
        a = choose(state, &local)
        if a < 0:
            break
        if history != NULL and hist_push(history, <uint16_t>a) < 0:
            played = -1
            break
        apply(state, a)
        played += 1
    player[0] = local
    return played
