from collections.abc import Sequence
from typing import Literal, SupportsIndex, final

from boardcore._engine._state import EngineConfig, EngineState
from boardcore.three_or_more import (
    MoveScore,
    ThreeOrMore,
    ThreeOrMoreDocument,
    ThreeOrMoreMove,
    ThreeOrMoreSnapshot,
    ThreeOrMoreView,
)

TABLE_ROWS: int
TABLE_COLS: int
ROW1: int
START_COL: int
STATE_BYTES: int

def config(
    players: int, start_player: int, allow_rotation: bool, deck: Sequence[int]
) -> EngineConfig: ...
@final
class ThreeOrMoreState(EngineState):
    """A 3 Or More position."""

    @property
    def game(self) -> ThreeOrMore: ...
    def snapshot(self) -> ThreeOrMoreSnapshot: ...
    def view(self, player: SupportsIndex | Literal["spectator"]) -> ThreeOrMoreView: ...
    def to_dict(self) -> ThreeOrMoreDocument: ...
    def explain(self, action: SupportsIndex) -> ThreeOrMoreMove: ...
    @property
    def last_move(self) -> ThreeOrMoreMove | None: ...
    def last_breakdown(self) -> MoveScore | None: ...
    def grid(self) -> tuple[str, ...]: ...
    def places(self) -> tuple[str, ...]: ...

@final
class _ScoreBench:
    """Prepared positions for timing the scoring kernel alone."""

    def __new__(cls, game: ThreeOrMore, positions: int, seed: int) -> _ScoreBench: ...
    def run(self, reps: int) -> int: ...
    @property
    def positions(self) -> int: ...
