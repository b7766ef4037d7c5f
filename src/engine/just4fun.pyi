from collections.abc import Sequence
from typing import Any, SupportsIndex, final

import numpy as np
import numpy.typing as npt

from boardcore._engine._state import EngineConfig, EngineState
from boardcore.just4fun import Just4Fun
from boardcore.values import Just4FunDocument, Just4FunMove, Just4FunView

PLAYS: tuple[tuple[int, ...], ...]
DECK: tuple[int, ...]
KERNEL_CAPSULE: object

def config(
    players: int, start_player: int, returned_on_lock: bool, layout: Sequence[int] | None
) -> EngineConfig: ...
@final
class Just4FunState(EngineState):
    """A Just4Fun position."""

    @property
    def game(self) -> Just4Fun: ...
    def action_to_str(self, action: SupportsIndex) -> str: ...
    def parse_action(self, text: str) -> int: ...
    def view(self, player: SupportsIndex) -> Just4FunView: ...
    def to_dict(self) -> Just4FunDocument: ...
    def explain(self, action: SupportsIndex) -> Just4FunMove: ...
    @property
    def last_move(self) -> Just4FunMove | None: ...
    @staticmethod
    def _set_up(
        config: EngineConfig, game: Just4Fun, seed: int, fields: dict[str, Any]
    ) -> Just4FunState: ...

def _bench_line_check(masks: npt.NDArray[np.uint64], repeats: int) -> int: ...
