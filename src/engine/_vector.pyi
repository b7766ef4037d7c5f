from typing import final

import numpy as np
import numpy.typing as npt

from boardcore._engine._search import Searcher, Work
from boardcore._engine._state import EngineConfig

MAX_ENVS: int

@final
class Batch:
    """``n`` games of one configuration, stepped together."""

    def __new__(
        cls,
        config: EngineConfig,
        n: int,
        seed: int,
        learner: int,
        opponents: Searcher | None,
    ) -> Batch: ...
    @property
    def n(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def observation_size(self) -> int: ...
    @property
    def learner(self) -> int: ...
    @property
    def started(self) -> bool: ...
    def bind(
        self,
        obs: npt.NDArray[np.float32],
        mask: npt.NDArray[np.int8],
        rewards: npt.NDArray[np.float32],
        terminated: npt.NDArray[np.uint8],
        current: npt.NDArray[np.int32],
    ) -> None: ...
    def reset(self, start: int, stop: int, worker: Work) -> None: ...
    def check(self, actions: npt.NDArray[np.int64]) -> int: ...
    def step(self, actions: npt.NDArray[np.int64], worker: Work) -> int: ...
    def step_slice(
        self, start: int, stop: int, worker: Work, actions: npt.NDArray[np.int64]
    ) -> None: ...
    def legal_actions(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]: ...
    def random_actions(self, out: npt.NDArray[np.int64], seed: int) -> None: ...
    def state_bytes(self, i: int) -> bytes: ...
