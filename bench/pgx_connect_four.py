"""pgx connect_four alone: random legal actions, auto-reset, B games, JAX on CPU.

Usage: ``python bench/pgx_connect_four.py [B]`` (B = 256 by default); prints steps/s,
the best of five calls of one jitted ``lax.scan`` of 200 steps (compiled first).
"""

from __future__ import annotations

import sys
import time

import jax
import jax.numpy as jnp
import pgx
from pgx.experimental import auto_reset

B = int(sys.argv[1]) if len(sys.argv) > 1 else 256
N = 200
env = pgx.make("connect_four")
init = jax.vmap(env.init)
step = jax.vmap(auto_reset(env.step, env.init))


@jax.jit
def run(state, key):  # type: ignore[no-untyped-def]
    def body(carry, _):  # type: ignore[no-untyped-def]
        state, key = carry
        key, k1, k2 = jax.random.split(key, 3)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(k1, logits, axis=-1)
        return (step(state, action, jax.random.split(k2, B)), key), None

    return jax.lax.scan(body, (state, key), None, length=N)[0]


key = jax.random.PRNGKey(0)
state, key = run(jax.jit(init)(jax.random.split(key, B)), key)
jax.block_until_ready(state)
best = 0.0
for _ in range(5):
    t = time.perf_counter()
    state, key = run(state, key)
    jax.block_until_ready(state)
    best = max(best, B * N / (time.perf_counter() - t))
print(f"pgx {pgx.__version__} connect_four, batch {B}, jax {jax.__version__}: "
      f"{best:,.0f} steps/s")
