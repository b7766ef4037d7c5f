"""What an app needs around a game: a player's undo, and agents asked without blocking.

The rest of the kit lives with the values it serves: every view, explained move and
outcome has a JSON form (``view.to_json()``, ``FoolView.from_json(data)``), a spectator
sees ``state.view("spectator")``, ``boardcore.seat_record(state, seat)`` is what one
seat may be given of a game, and ``state.can_undo()`` says whether the last action may
be taken back without letting its player retract what it showed them.  ``docs/web.md``
shows them together.

>>> import boardcore
>>> from boardcore.agents import ISMCTSAgent
>>> state = boardcore.make("fool", players=4).new_state(seed=7)
>>> with Advisor(max_workers=2) as advisor:
...     future = advisor.act(ISMCTSAgent(iterations=200, seed=1), state)
...     state.action_to_str(future.result()) in [state.action_to_str(a)
...                                              for a in state.legal_actions()]
True
>>> state.apply(state.parse_action("G5"))
>>> take_back(state, seat=0), state.history()
(1, [])
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from types import TracebackType
from typing import TYPE_CHECKING, TypeVar, cast

from boardcore.errors import ConfigurationError, IllegalActionError
from boardcore.values import check_int, quote

if TYPE_CHECKING:
    from boardcore._registry import AnyState
    from boardcore.agents import Agent

__all__ = ["Advisor", "take_back"]

S = TypeVar("S", bound="AnyState")
T = TypeVar("T")


def take_back(state: AnyState, seat: object, *, allow_revealing: bool = False) -> int:
    """Take back ``seat``'s last action and every action since; return how many.

    This is the undo to offer a player: the position goes back to the seat's last turn
    (the replies of the others are taken back with it).  It refuses to go back past an
    action that showed hidden information -- a draw, a deal, a reshuffle
    (``state.can_undo()`` is false after one) -- unless ``allow_revealing``: otherwise a
    player could look at a card and take the look back.  ``state.undo()`` takes back any
    one action; this is the rule an app puts on top of it.  A refused call changes
    nothing.  Not atomic: a state other threads move at the same time needs a lock.

    Raises:
        TypeError: ``seat`` is not an integer.
        ConfigurationError: ``seat`` is not a seat of the game.
        IllegalActionError: the seat has no action to take back, or one to take back
            showed hidden information.

    >>> import boardcore
    >>> state = boardcore.make("rummikub_junior", players=2).new_state(seed=3)
    >>> state.apply(state.parse_action("pass"))          # seat 0 draws the joker
    >>> take_back(state, 0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    boardcore.errors.IllegalActionError: cannot take back seat 0's 'pass': it showed hidden ...
    >>> take_back(state, 0, allow_revealing=True)
    1
    """
    player = check_int(seat, "a seat")
    state.view(player)                  # a seat of the game, or ConfigurationError
    probe = state.copy()
    steps = 0
    while True:
        if not probe.history():
            raise IllegalActionError(f"seat {player} has no action to take back")
        if not allow_revealing and not probe.can_undo():
            last = probe.last_move
            assert last is not None
            raise IllegalActionError(
                f"cannot take back seat {last.player}'s {quote(last.move)}: it showed "
                "hidden information (a draw, a deal or a reshuffle)")
        probe.undo()
        steps += 1
        if probe.current_player == player:      # the seat made the action taken back
            break
    for _ in range(steps):
        state.undo()
    return steps


class Advisor:
    """Asks agents for decisions without blocking: each question runs in a thread pool.

    Every question is put to a private copy of the state, taken when it is asked, so
    the caller may go on changing its own state (an undo, another seat's move) while
    an agent thinks.  The compiled searches run without the GIL, so ``max_workers``
    questions are answered at once on as many cores.  Agents may be shared between
    questions: an agent asked from two threads at once decides in fresh memory (its
    decisions are still numbered in the order they were asked).  A question cannot be
    stopped once it runs; it ends within its agent's budget.

    Args:
        max_workers: threads (default: the number of CPUs).

    >>> import asyncio, boardcore
    >>> from boardcore.agents import GreedyAgent
    >>> state = boardcore.make("just4fun", players=2).new_state(seed=1)
    >>> async def main() -> int:
    ...     with Advisor(max_workers=1) as advisor:
    ...         return await advisor.act_async(GreedyAgent(seed=1), state)
    >>> asyncio.run(main()) in state.legal_actions()
    True
    """

    def __init__(self, max_workers: int | None = None) -> None:
        if max_workers is None:
            workers = os.cpu_count() or 1
        else:
            workers = check_int(max_workers, "max_workers")
        if workers < 1:
            raise ConfigurationError(f"max_workers must be at least 1, not {quote(max_workers)}")
        self._pool = ThreadPoolExecutor(max_workers=workers,
                                        thread_name_prefix="boardcore-advisor")

    def ask(self, question: Callable[[S], T], state: S) -> Future[T]:
        """Return a future of ``question(copy)``, ``copy`` a private copy of ``state``."""
        return self._pool.submit(question, cast("S", state.copy()))

    def act(self, agent: Agent, state: AnyState) -> Future[int]:
        """Return a future of ``agent.act(state)``: the action it plays."""
        return self.ask(agent.act, state)

    def policy(self, agent: Agent, state: AnyState) -> Future[dict[int, float]]:
        """Return a future of ``agent.policy(state)``: its weight for every legal action."""
        return self.ask(agent.policy, state)

    async def act_async(self, agent: Agent, state: AnyState) -> int:
        """Return ``agent.act(state)``, awaited in asyncio while a worker thread thinks."""
        return await asyncio.wrap_future(self.act(agent, state))

    def shutdown(self, wait: bool = True) -> None:
        """Stop taking questions; with ``wait``, return once every asked one is answered."""
        self._pool.shutdown(wait=wait, cancel_futures=not wait)

    def __enter__(self) -> Advisor:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.shutdown()
