from collections.abc import Sequence
from typing import Any, SupportsIndex, final

import numpy as np
import numpy.typing as npt

from boardcore._engine._state import EngineConfig, EngineState
from boardcore.fool import Fool
from boardcore.values import FoolDocument, FoolMove, FoolView

CARDS: tuple[str, ...]
KERNEL_CAPSULE: object

def config(
    players: int, start_player: int, deck: Sequence[int], fools: int
) -> EngineConfig: ...
@final
class FoolState(EngineState):
    """A position of Fool: every hand, the trick so far, the Fools, the running scores."""

    @property
    def game(self) -> Fool: ...
    def action_to_str(self, action: SupportsIndex) -> str: ...
    def parse_action(self, text: str) -> int: ...
    def _position(
        self,
    ) -> tuple[
        int, int, int, int, int, int, int, list[tuple[int, str]], list[list[str]],
        list[str], list[int], list[int], list[int],
    ]: ...
    def view(self, player: SupportsIndex) -> FoolView: ...
    def to_dict(self) -> FoolDocument: ...
    def explain(self, action: SupportsIndex) -> FoolMove: ...
    @property
    def last_move(self) -> FoolMove | None: ...
    @staticmethod
    def _set_up(
        config: EngineConfig, game: Fool, seed: int, fields: dict[str, Any]
    ) -> FoolState: ...

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
