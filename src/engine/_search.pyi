from typing import final

from boardcore._engine._state import EngineState

NODE_BYTES: int
MAX_NODES: int

@final
class Tree:
    """The node pool of one searcher, kept between moves."""

    @property
    def capacity(self) -> int: ...

def ismcts(
    state: EngineState,
    tree: Tree,
    iterations: int,
    time_limit: float,
    exploration: float,
    seed: int,
) -> tuple[int, dict[int, int]]: ...
def flat_monte_carlo(state: EngineState, rollouts: int, seed: int) -> dict[int, float]: ...
def greedy_gains(state: EngineState, seed: int) -> dict[int, int]: ...
def determinize(state: EngineState, seat: int, seed: int) -> EngineState: ...
