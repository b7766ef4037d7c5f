from collections.abc import Sequence
from typing import Literal, SupportsIndex, final

import numpy as np
import numpy.typing as npt

from boardcore._engine._state import EngineConfig, EngineState
from boardcore.just4fun import (
    Just4Fun,
    Just4FunDocument,
    Just4FunMove,
    Just4FunSnapshot,
    Just4FunView,
)

N_FIELDS: int
SUPPLY: int
IDLE_LIMIT: int
EXCHANGE: int
N_ACTIONS: int
PLAYS: tuple[tuple[int, ...], ...]
DECK: tuple[int, ...]

def config(
    players: int, start_player: int, returned_on_lock: bool, layout: Sequence[int] | None
) -> EngineConfig: ...
@final
class Just4FunState(EngineState):
    """A Just4Fun position."""

    @property
    def game(self) -> Just4Fun: ...
    def snapshot(self) -> Just4FunSnapshot: ...
    def view(self, player: SupportsIndex | Literal["spectator"]) -> Just4FunView: ...
    def to_dict(self) -> Just4FunDocument: ...
    def explain(self, action: SupportsIndex) -> Just4FunMove: ...
    @property
    def last_move(self) -> Just4FunMove | None: ...

def _bench_line_check(masks: npt.NDArray[np.uint64], repeats: int) -> int: ...
