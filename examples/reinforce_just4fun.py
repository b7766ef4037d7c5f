"""REINFORCE on ``boardcore.VectorEnv``: a masked softmax policy learns 2-player Just4Fun.

The learner holds seat 0 against ``RandomAgent`` opponents (``opponents="random"``,
played inside the compiled step).  The policy is linear, numpy only:

    logits[a] = obs @ W[a] + b[a]      for the legal actions a (the mask), softmax over them

so a step touches only the ~15 legal actions' rows of ``W``, never all 3,924.  Every
iteration plays ``--steps`` steps of ``--envs`` games (next-step autoreset), gives each
action of a finished episode its final reward (1 a win, 1/2 a shared win, 0 a loss)
minus a running baseline, and takes one Adam step on the REINFORCE gradient.  The
learner's win rate over the episodes each iteration finished is printed as it climbs
(a random learner wins about 51 %); ``--quick`` runs a few seconds (the test's mode).

    python examples/reinforce_just4fun.py              # ~2 minutes on one core
    python examples/reinforce_just4fun.py --quick
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import boardcore


class Policy:
    """``softmax(obs @ W[legal].T + b[legal])`` over the legal actions, trained by Adam."""

    def __init__(self, features: int, actions: int, lr: float, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.params = [rng.normal(0, 0.01, (actions, features)).astype(np.float32),
                       np.zeros(actions, np.float32)]
        self.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in self.params]
        self.lr, self.updates = lr, 0

    def probabilities(self, obs: np.ndarray, ids: np.ndarray, valid: np.ndarray) -> np.ndarray:
        """The policy over every game's legal actions (``ids`` padded, ``valid`` says where).

        A game with no legal action (it just ended; its action is ignored) gets slot 0.
        """
        weights, bias = self.params
        logits = np.einsum("nkf,nf->nk", weights[ids], obs) + bias[ids]
        logits = np.where(valid, logits, -np.inf)
        logits[~valid.any(axis=1), 0] = 0.0
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=1, keepdims=True)  # type: ignore[no-any-return]

    def sample(self, probs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """A slot per game drawn from ``probs`` (its rows sum to 1)."""
        u = rng.random((len(probs), 1))
        return np.minimum((probs.cumsum(axis=1) < u).sum(axis=1), probs.shape[1] - 1)

    def update(self, batch: list[tuple[np.ndarray, ...]]) -> None:
        """One Adam ascent step on sum(advantage * grad log p(action))."""
        weights, bias = self.params
        grads = [np.zeros_like(weights), np.zeros_like(bias)]
        total = sum(int((adv != 0).sum()) for *_, adv in batch) or 1
        for obs, ids, valid, probs, slot, adv in batch:
            # d log p(slot) / d logit k = [k == slot] - p_k, for the legal actions only
            coef = -probs * adv[:, None]
            coef[np.arange(len(slot)), slot] += adv
            keep = valid & (adv != 0)[:, None]
            rows, cols = np.nonzero(keep)
            if not len(rows):
                continue
            actions, weight = ids[rows, cols], (coef[rows, cols] / total).astype(np.float32)
            unique, inverse = np.unique(actions, return_inverse=True)
            spread = np.zeros((len(unique), len(obs)), np.float32)
            spread[inverse, rows] = weight      # an action is legal at most once per game
            grads[0][unique] += spread @ obs
            grads[1] += np.bincount(actions, weight, len(bias)).astype(np.float32)
        self.updates += 1
        for p, g, (m, v) in zip(self.params, grads, self.moments, strict=True):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            m_hat = m / (1 - 0.9 ** self.updates)
            v_hat = v / (1 - 0.999 ** self.updates)
            p += self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)


def train(args: argparse.Namespace) -> list[float]:
    """Train; print and return the win rate of every iteration."""
    game = boardcore.make("just4fun", players=2)
    env = boardcore.VectorEnv(game, args.envs, seed=args.seed, opponents="random",
                              threads=args.threads)
    policy = Policy(game.observation_shape[0], game.num_actions, args.lr, args.seed)
    rng = np.random.default_rng(args.seed)
    obs, _ = env.reset()
    acted = np.ones(args.envs, np.bool_)      # False on the step that starts a new episode
    baseline, rates = 0.5, []
    start, cpu = time.perf_counter(), time.process_time()
    for iteration in range(1, args.iterations + 1):
        steps, ends = [], []
        for _ in range(args.steps):
            ids, _ = env.legal_actions()
            valid = ids >= 0
            ids = np.maximum(ids, 0)
            probs = policy.probabilities(obs, ids, valid)
            slot = policy.sample(probs, rng)
            actions = ids[np.arange(args.envs), slot]
            steps.append((obs.copy(), ids, valid, probs, slot, acted.copy()))
            obs, rewards, terminated, _, _ = env.step(actions)
            ends.append((terminated.copy(), rewards.copy()))
            acted = ~terminated
        # Each acted step gets the final reward of its episode, if it ended in the window.
        batch, ret, known, results = [], np.zeros(args.envs), np.zeros(args.envs, bool), []
        for step, (term, rew) in zip(reversed(steps), reversed(ends), strict=True):
            obs_t, ids, valid, probs, slot, acted_t = step
            ret = np.where(term, rew, ret)
            known |= term
            results.extend(rew[term].tolist())
            weight = known & acted_t
            batch.append((obs_t, ids, valid, probs, slot,
                          np.where(weight, ret - baseline, 0.0)))
        if results:
            rate = float(np.mean(results))
            baseline = 0.9 * baseline + 0.1 * rate
            rates.append(rate)
        policy.update(batch)
        if iteration % args.every == 0 or iteration == args.iterations:
            recent = np.mean(rates[-args.every:])
            print(f"iteration {iteration:4d}  episodes {len(results):5d}  "
                  f"win rate {recent:6.1%}  {time.perf_counter() - start:6.1f} s "
                  f"({time.process_time() - cpu:.1f} s CPU)", flush=True)
    env.close()
    return rates


def main(argv: list[str] | None = None) -> list[float]:
    """Parse the arguments, train, and return every iteration's win rate."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--envs", type=int, default=256, help="games stepped together")
    parser.add_argument("--steps", type=int, default=64, help="steps per iteration")
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--lr", type=float, default=0.01, help="Adam's step size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--every", type=int, default=10, help="print every N iterations")
    parser.add_argument("--quick", action="store_true", help="a few seconds (the test)")
    args = parser.parse_args(argv)
    if args.quick:
        args.envs, args.steps, args.iterations, args.every = 128, 32, 16, 4
    rates = train(args)
    k = max(len(rates) // 4, 1)
    print(f"win rate: first {k} iterations {np.mean(rates[:k]):.1%}, "
          f"last {k} iterations {np.mean(rates[-k:]):.1%}")
    return rates


if __name__ == "__main__":
    main()
