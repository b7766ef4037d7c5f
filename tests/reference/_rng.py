"""The engines' PRNG (src/engine/_rng.pxd) in plain Python, for the references.

xoshiro256** seeded by splitmix64; ``bounded`` is Lemire's unbiased multiply-shift on
the high 32 bits of one output; ``shuffle`` is Fisher-Yates from the end.
"""

from __future__ import annotations

from typing import Any

MASK = (1 << 64) - 1


def splitmix64(x: int) -> tuple[int, int]:
    """Return ``(new_x, output)`` of one splitmix64 step."""
    x = (x + 0x9E3779B97F4A7C15) & MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return x, z ^ (z >> 31)


def derive_seed(seed: int, stream: int, index: int) -> int:
    """Seed of game ``index`` in a batch: stream 0 chance, stream 1 the random player."""
    x = (seed ^ (stream * 0xD1B54A32D192ED03)) & MASK
    x, _ = splitmix64(x)
    x ^= (index * 0x9E3779B97F4A7C15) & MASK
    _, out = splitmix64(x)
    return out


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK


class Rng:
    """xoshiro256** with the engines' draw conventions."""

    def __init__(self, seed: int) -> None:
        x = seed & MASK
        self.s = []
        for _ in range(4):
            x, out = splitmix64(x)
            self.s.append(out)

    def next_u64(self) -> int:
        s = self.s
        result = (_rotl((s[1] * 5) & MASK, 7) * 9) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def bounded(self, n: int) -> int:
        """Uniform integer in ``[0, n)``, ``1 <= n < 2**32``."""
        m = (self.next_u64() >> 32) * n
        low = m & 0xFFFFFFFF
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = (self.next_u64() >> 32) * n
                low = m & 0xFFFFFFFF
        return m >> 32

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle ``items`` in place, Fisher-Yates from the end."""
        for i in range(len(items) - 1, 0, -1):
            j = self.bounded(i + 1)
            items[i], items[j] = items[j], items[i]
