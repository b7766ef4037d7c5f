"""The exceptions boardcore raises.

Every message is lowercase, quotes the bad input with ``!r`` and says what would have
been allowed.

>>> import boardcore
>>> issubclass(boardcore.IllegalActionError, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "BoardcoreError",
    "ConfigurationError",
    "IllegalActionError",
    "InvalidStateError",
    "NotationError",
    "UsageError",
]


class BoardcoreError(Exception):
    """Base class of every error boardcore raises on purpose."""


class IllegalActionError(BoardcoreError, ValueError):
    """An action that is not legal in this state, including any action once it is over."""


class NotationError(BoardcoreError, ValueError):
    """Text that is not an action in the game's notation, or not legal here."""


class InvalidStateError(BoardcoreError, ValueError):
    """A ``to_dict`` document or game record that does not describe a valid state."""


class ConfigurationError(BoardcoreError, ValueError):
    """A bad game, option or argument.

    An unknown game, a player count out of range, an unknown or invalid option, or an
    argument outside its range (a search budget, a count of games, a picture size).
    """


class UsageError(BoardcoreError, RuntimeError):
    """A call the object cannot take now: nothing was changed, the same call may succeed later.

    Another thread is using the object (a ``VectorEnv`` being stepped), or a call that
    must come first has not been made (``reset()`` before ``step()``), or one that is made
    once was made already.  It is a ``RuntimeError`` (not a ``ValueError``): the
    arguments are fine, the moment is not.

    >>> import boardcore
    >>> env = boardcore.VectorEnv(boardcore.make("just4fun", players=2), 2, seed=1)
    >>> env.step(env.random_actions())
    Traceback (most recent call last):
    ...
    boardcore.errors.UsageError: call reset() first: the games have not begun
    """
