"""The four games as OpenSpiel games: the game type, its parameters, the game and its state.

A ``BoardcoreGame`` wraps one boardcore configuration (``boardcore.make``); its states
wrap one boardcore position each.

**Chance.**  A boardcore position draws every shuffle, draw and reshuffle inside
``apply`` from its own generator, and that generator is set by the game's 64-bit seed.
So a game is exactly: chance draws the seed, then every move is a function of the seed
and the moves before it.  The OpenSpiel game draws the seed in eight chance nodes at the
start, one byte each (256 outcomes of probability 1/256, most significant byte first),
and deals when the eighth is applied: every chance event is explicit, the seed is hidden
from every seat, and the game is boardcore's own, deal for deal
(``deal_actions(seed)`` are the eight outcomes that deal ``seed``).

**Layout.**  OpenSpiel's ``clone()`` makes a fresh state with ``new_initial_state()`` and
deep-copies every entry of the Python ``__dict__`` into it, and ``serialize()`` pickles
that ``__dict__``.  So a state holds only ``_state`` (the boardcore position: its deep copy
is a struct copy, its pickle goes through ``to_dict``), ``_seed_bytes`` (the bytes of the
seed drawn so far, ``()`` once dealt) and ``_prefix`` (the moves before a resample, almost
always ``None``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, cast

import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

import boardcore
from boardcore._engine._random import STREAM_RESAMPLE, derive_seed
from boardcore.errors import ConfigurationError, IllegalActionError
from boardcore.openspiel._observer import Observer, observer_for
from boardcore.values import quote

if TYPE_CHECKING:
    from boardcore import AnyGame, AnyState

__all__ = ["GAME_CLASSES", "GAME_NAMES", "BoardcoreGame", "BoardcoreState", "deal_actions",
           "game_type"]

#: The OpenSpiel name of every game: ``boardcore_`` and boardcore's name.
GAME_NAMES: Mapping[str, str] = MappingProxyType({g: f"boardcore_{g}" for g in boardcore.GAMES})

# OpenSpiel's player ids (pyspiel.PlayerId) for the chance player and a terminal state.
CHANCE = -1
TERMINAL = -4
#: The seed is drawn in this many chance nodes, one byte each.
SEED_BYTES = 8
_OUTCOMES = tuple((byte, 1 / 256) for byte in range(256))


def deal_actions(seed: int) -> list[int]:
    """Return the eight chance outcomes that deal boardcore's game of ``seed`` (its bytes).

    >>> deal_actions(2026)
    [0, 0, 0, 0, 0, 0, 7, 234]
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ConfigurationError(f"a seed is an int in 0..2**64-1, not {quote(seed)}")
    return list(seed.to_bytes(SEED_BYTES, "big"))


def _game_class(name: str) -> type[AnyGame]:
    # Every game takes 4 players (Fool 4..8, the others 2..4).
    cls: type[AnyGame] = type(boardcore.make(name, players=4))  # type: ignore[call-overload]
    return cls


def _parameters(name: str) -> dict[str, object]:
    """Return every game parameter with its default: ``players``, then the options.

    An option whose default is ``None`` (the game's own deck) has the default ``""``.
    """
    cls = _game_class(name)
    options = {k: "" if v is None else v for k, v in cls.option_defaults.items()}
    return {"players": cls.min_players, **options}


def _option(text: str) -> object:
    """Return a string parameter as a boardcore option.

    ``""`` is the game's default (``None``); a list is written with spaces
    (``"17 13 11 8 3"``: a comma would end the parameter in an OpenSpiel game string) and
    its numbers become ints.
    """
    if not text.strip():
        return None
    items = text.split()
    if len(items) == 1:
        return text.strip()
    return [int(item) if item.isdigit() else item for item in items]


def game_type(name: str) -> Any:
    """Return the ``pyspiel.GameType`` of boardcore game ``name``."""
    cls = _game_class(name)
    return pyspiel.GameType(
        short_name=GAME_NAMES[name],
        long_name=f"boardcore {cls.__name__}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(name),
        default_loadable=True,
    )


def max_game_length(game: AnyGame) -> int:
    """Return an upper bound on the moves of one game of ``game`` (chance not counted).

    Each bound follows from the rules (``boardcore rules <game>``); random games stay far
    below it (the longest of 100,000: Just4Fun 81 moves, Fool 774).
    """
    n = game.num_players
    if game.name == "just4fun":
        # J4, J8: each stone placed leaves a supply of 20; a lock returns to the supplies
        # (returned_on_lock) at most 18 stones of each other seat, and 36 fields lock.
        placements = 20 * n + (36 * 18 * (n - 1) if game.options["returned_on_lock"] else 0)
        # J14: at most 19 exchanges before each placement, and 20 to end the game.
        return 20 * placements + 20
    if game.name == "three_or_more":
        return 47                       # T4, T8, T9: one card a move, one laid at the deal
    if game.name == "fool":
        # F10-F12: a round plays each card once.  A round with a +10 adds to some seat's
        # count of six; one without leaves some seat with cards, at least 2 points off a
        # total that ends the game at -80 (and each seat has at most five +10s before).
        cards = sum(game.new_state(0).view(0).hand_sizes)
        rounds = 5 * n + (79 + 50) * n // 2 + 1
        return rounds * cards
    # rummikub_junior, K5-K11: 44 tiles laid at most, 40 swaps (each leaves a numbered
    # tile on the table), an `end` per turn that laid, a draw per tile in the pool, and
    # fewer than `n` passes in a row with the pool empty between two turns that laid.
    return 44 + 40 + 44 + (44 - 6 * n) + 45 * n


class BoardcoreGame(pyspiel.Game):  # type: ignore[misc]
    """One boardcore configuration as an OpenSpiel game (``pyspiel.load_game``).

    Each game has its subclass (``GAME_CLASSES``), the creator registered with pyspiel:
    a class, not a function, because pyspiel keeps its creators until after the
    interpreter has shut down, and a class (a cycle, through its ``__mro__``) is never
    freed by pyspiel's last reference to it, where a function would be.

    Args:
        params: the OpenSpiel parameters: ``players`` and the game's options (a list
            option as one string of space-separated items, ``""`` for the game's own
            default).
    """

    #: The boardcore game (a name of ``boardcore.GAMES``).
    name: ClassVar[str]

    def __init__(self, params: Mapping[str, object] | None = None) -> None:
        name = self.name
        spec = _parameters(name)
        given = dict(params or {})
        unknown = sorted(set(given) - set(spec))
        if unknown:
            raise ConfigurationError(f"unknown parameter {quote(unknown[0])} for "
                                     f"{GAME_NAMES[name]}; allowed: {', '.join(spec)}")
        values = {**spec, **given}
        options = {k: _option(v) if isinstance(v, str) else v for k, v in values.items()
                   if k != "players"}
        config: AnyGame = boardcore.make(name, players=values["players"], **options)  # type: ignore[call-overload]
        info = pyspiel.GameInfo(
            num_distinct_actions=config.num_actions,
            max_chance_outcomes=256,
            num_players=config.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=max_game_length(config),
        )
        super().__init__(game_type(name), info, values)
        self._config = config
        self._resamples = 0

    @property
    def boardcore_game(self) -> AnyGame:
        """The boardcore configuration this game plays (``boardcore.make``'s)."""
        return self._config

    def new_initial_state(self) -> BoardcoreState:
        """Return a new game: the first of the eight chance nodes that draw its seed."""
        return BoardcoreState(self)

    def make_py_observer(self, iig_obs_type: object = None,
                         params: Mapping[str, object] | None = None) -> Observer:
        """Return the observer of ``iig_obs_type`` (``make_observation`` calls this)."""
        return observer_for(self._config, iig_obs_type, params)

    def _resample_seed(self, draw: float) -> int:
        # The sampler's draw and a count of this game's resamples: a sampler made afresh
        # for every call (as OpenSpiel's Python ISMCTSBot does) still gets new worlds, and
        # the same calls get the same worlds.
        index = self._resamples
        self._resamples += 1
        return derive_seed(int(draw * 2**53), STREAM_RESAMPLE, index)


class BoardcoreState(pyspiel.State):  # type: ignore[misc]
    """One game in progress; ``boardcore_state`` is the boardcore position it plays.

    Moves are boardcore's actions and their strings its notation; the returns are 1 for
    a sole winner, ``1/k`` for each of ``k`` seats sharing the win, 0 otherwise.
    """

    def __init__(self, game: BoardcoreGame) -> None:
        super().__init__(game)
        self._state: AnyState | None = None
        self._seed_bytes: tuple[int, ...] = ()
        self._prefix: tuple[int, ...] | None = None

    @property
    def boardcore_state(self) -> AnyState | None:
        """The boardcore position (``None`` before the deal); the whole of it, hidden parts too."""
        return self._state

    def moves(self) -> list[int]:
        """The moves played so far: boardcore actions, the deal left out (all are public)."""
        if self._state is None:
            return []
        played = self._state.history()
        return played if self._prefix is None else [*self._prefix, *played]

    def current_player(self) -> int:
        """The seat to act, ``-1`` (chance) while the seed is drawn, ``-4`` (terminal) once over."""
        if self._state is None:
            return CHANCE
        seat = self._state.current_player
        return TERMINAL if seat is None else seat

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of ``player`` (default: the seat to act), ascending."""
        if self._state is None:
            return list(range(256)) if player is None or player == CHANCE else []
        if player is not None and player != self._state.current_player:
            return []
        return self._state.legal_actions()

    def _legal_actions(self, player: int) -> list[int]:
        assert self._state is not None
        return self._state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next byte of the seed: 0..255, each 1/256; none once dealt."""
        return list(_OUTCOMES) if self._state is None else []

    def _apply_action(self, action: int) -> None:
        if self._state is not None:
            self._state.apply(action)
            return
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < 256:
            raise IllegalActionError(f"illegal action {quote(action)}: a seed byte is 0..255")
        drawn = (*self._seed_bytes, action)
        if len(drawn) < SEED_BYTES:
            self._seed_bytes = drawn
        else:
            config = self._game().boardcore_game
            self._state = config.new_state(int.from_bytes(bytes(drawn), "big"))
            self._seed_bytes = ()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"seed byte {len(self._seed_bytes)}: {action}"
        state = self._state if self._state is not None else self._game().boardcore_game.new_state(0)
        return state.action_to_str(action)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._state is not None and self._state.is_over()

    def returns(self) -> list[float]:
        """1 for a sole winner, ``1/k`` for each of ``k`` seats sharing a win, else 0."""
        outcome = None if self._state is None else self._state.outcome()
        n = self.num_players()
        if outcome is None:
            return [0.0] * n
        share = 1.0 / len(outcome.winners)
        return [share if p in outcome.winners else 0.0 for p in range(n)]

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Callable[[], float]) -> BoardcoreState:
        """Return a state ``player_id`` cannot tell from this one: what it cannot see redrawn.

        The other hands, the draw order and the generator are drawn afresh, consistently
        with everything that seat has seen (boardcore's determinization, as its own
        IS-MCTS uses).  The new state's ``history()`` starts at the resample; its
        ``moves()``, and so its information state, are this state's.
        """
        from boardcore._engine._search import determinize

        game = self._game()
        if not 0 <= player_id < game.num_players():
            raise ConfigurationError(f"player {quote(player_id)} is not a seat of this game")
        other = game.new_initial_state()
        seed = game._resample_seed(float(probability_sampler()))
        if self._state is None:     # the seed so far: chance's alone, nobody has seen it
            other._seed_bytes = tuple(deal_actions(seed)[:len(self._seed_bytes)])
        else:
            other._state = cast("AnyState", determinize(self._state, player_id, seed))
            other._prefix = tuple(self.moves())
        return other

    def __str__(self) -> str:
        if self._state is None:
            return (f"{self._game().boardcore_game!r}: dealing, seed bytes "
                    f"{' '.join(map(str, self._seed_bytes)) or '-'}")
        return str(self._state)

    def _game(self) -> BoardcoreGame:
        game: BoardcoreGame = self.get_game()
        return game


#: The ``BoardcoreGame`` subclass of every game, by boardcore name.
GAME_CLASSES: Mapping[str, type[BoardcoreGame]] = MappingProxyType({
    name: type(f"{GAME_NAMES[name].title().replace('_', '')}Game", (BoardcoreGame,),
               {"name": name, "__module__": __name__})
    for name in boardcore.GAMES
})
