from typing import Literal, SupportsIndex, final

from boardcore._engine._state import EngineConfig, EngineState
from boardcore.rummikub_junior import (
    RummikubJunior,
    RummikubJuniorDocument,
    RummikubJuniorMove,
    RummikubJuniorSnapshot,
    RummikubJuniorView,
)

JOKER: int
STARS_TOTAL: int
STARS_MAX: int
MAX_RUNS: int
A_PASS: int
A_END: int
A_EXTEND: int
A_SWAP: int
A_NEW: int

def config(players: int, start_player: int) -> EngineConfig: ...
@final
class RummikubJuniorState(EngineState):
    """A Rummikub Junior position."""

    @property
    def game(self) -> RummikubJunior: ...
    def snapshot(self) -> RummikubJuniorSnapshot: ...
    def view(self, player: SupportsIndex | Literal["spectator"]) -> RummikubJuniorView: ...
    def to_dict(self) -> RummikubJuniorDocument: ...
    def explain(self, action: SupportsIndex) -> RummikubJuniorMove: ...
    @property
    def last_move(self) -> RummikubJuniorMove | None: ...

def _legal_actions_kernel(states: list[RummikubJuniorState], repeats: int) -> int: ...
def _new_run(k: int) -> tuple[int, int, int, int]: ...
def _new_index(colour: int, lo: int, length: int, jokers: int) -> int: ...
