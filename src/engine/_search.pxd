# The compiled agents of _search.pyx, declared for the modules that play them inside
# their own loops (the vectorised environments' opponents).
from libc.stdint cimport int8_t, int32_t, uint16_t, uint32_t

from _kernel cimport kernel_t
from _rng cimport rng_t

# A child is found from its parent and action through a hash table whose chain heads
# live in the pool itself (``bucket`` of node i heads chain i), so a node stays 32 bytes
# and a search needs no memory besides its ``iterations + 1`` nodes.
ctypedef struct node_t:
    double reward               # the mover's results summed over the visits
    int32_t parent              # -1 at the root
    int32_t next_in_bucket      # the next node in the same hash chain, -1: last
    int32_t bucket              # the first node of hash chain number (this node's index)
    uint32_t visits
    uint32_t avail              # iterations in which this node's action was legal
    uint16_t action             # the action that leads here
    int8_t mover                # the seat that played it (-1 at the root)

cdef enum:
    AGENT_RANDOM = 0
    AGENT_GREEDY = 1
    AGENT_FLAT = 2
    AGENT_ISMCTS = 3

ctypedef struct agent_t:
    int kind                    # AGENT_*
    Py_ssize_t budget           # play-outs per action (flat), iterations (ISMCTS)
    double exploration          # ISMCTS's UCB constant

cdef int choose(const kernel_t *k, const void *state, const agent_t *agent, rng_t *rng,
                node_t *nodes, Py_ssize_t cap, void *scratch,
                uint32_t *visits) noexcept nogil
