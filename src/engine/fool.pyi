from collections.abc import Sequence
from typing import Literal, SupportsIndex, final

import numpy as np
import numpy.typing as npt

from boardcore._engine._state import EngineConfig, EngineState
from boardcore.fool import Fool, FoolDocument, FoolMove, FoolSnapshot, FoolView

NUM_ACTIONS: int
W1: int
ROUND_MAX: int
SCORE_MAX: int
CARDS: tuple[str, ...]
BOX: tuple[int, int, int, int, int]

def config(
    players: int, start_player: int, deck: Sequence[int], fools: int
) -> EngineConfig: ...
@final
class FoolState(EngineState):
    """A position of Fool: every hand, the trick so far, the Fools, the running scores."""

    @property
    def game(self) -> Fool: ...
    def snapshot(self) -> FoolSnapshot: ...
    def view(self, player: SupportsIndex | Literal["spectator"]) -> FoolView: ...
    def to_dict(self) -> FoolDocument: ...
    def explain(self, action: SupportsIndex) -> FoolMove: ...
    @property
    def last_move(self) -> FoolMove | None: ...

def _trick_kernel(
    seats: npt.NDArray[np.uint8],
    cards: npt.NDArray[np.uint8],
    leads: npt.NDArray[np.int8],
    lengths: npt.NDArray[np.uint8],
    nfools: int,
    repeat: int = 1,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]: ...
def _determinize_kernel(
    state: FoolState, seat: int, seed: int, repeat: int = 1
) -> list[list[str]]: ...
