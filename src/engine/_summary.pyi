from typing import Any, final

import numpy as np
import numpy.typing as npt

from boardcore._engine._state import EngineConfig

MAX_STATS: int
MAX_BINS: int

# (low, counts): counts[i] games had the value low + i (private: stubs only).
_Figure = tuple[int, npt.NDArray[np.int64]]

@final
class Tally:
    """The exact counts of a batch of random games, constant in size."""

    def __init__(self, players: int, n_stats: int) -> None: ...
    @property
    def players(self) -> int: ...
    @property
    def n_stats(self) -> int: ...
    @property
    def games(self) -> int: ...
    def counts(
        self,
    ) -> tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[_Figure, ...]]: ...
    def play(self, config: EngineConfig, seed: int, start: int, stop: int) -> None: ...
    def merge(self, other: Tally) -> None: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

def _restore(
    players: int,
    n_stats: int,
    games: int,
    wins: tuple[int, ...],
    shared: tuple[int, ...],
    by_winners: tuple[int, ...],
    figures: tuple[tuple[int, bytes], ...],
) -> Tally: ...
