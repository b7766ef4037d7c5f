"""The four games inside OpenSpiel (boardcore.openspiel): OpenSpiel's own checks and bots.

Skipped where OpenSpiel is not installed (``pip install "boardcore[openspiel]"``;
``make test-openspiel`` runs this file with it).
"""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

import boardcore
from boardcore.errors import ConfigurationError, IllegalActionError

pyspiel = pytest.importorskip("pyspiel")

import boardcore.openspiel as bo  # noqa: E402  (after the skip: it needs pyspiel)
from boardcore._engine._search import determinize  # noqa: E402

PLAYER_COUNTS = [(name, players) for name in boardcore.GAMES
                 for players in range(bo.game_type(name).min_num_players,
                                      bo.game_type(name).max_num_players + 1)]
# A configuration of every option that is not a default, as OpenSpiel parameters.
OPTIONS = [
    ("just4fun", {"players": 3, "layout": "random", "returned_on_lock": True,
                  "start_player": 2}),
    ("just4fun", {"layout": " ".join(map(str, range(36, 0, -1)))}),
    ("three_or_more", {"players": 3, "allow_rotation": True, "start_player": 1,
                       "deck": " ".join(["RRG", "GGB", "BBY", "YYR"] * 12)}),
    ("fool", {"players": 4, "deck": "17 13 11 9 2", "start_player": 3}),
    ("rummikub_junior", {"players": 4, "start_player": 1}),
]


def dealt(name: str, seed: int, moves: int = 0, **params: object) -> object:
    """A ``boardcore_<name>`` state dealt from ``seed``, then ``moves`` random moves."""
    game = pyspiel.load_game(bo.GAME_NAMES[name], params)
    state = game.new_initial_state()
    for byte in bo.deal_actions(seed):
        state.apply_action(byte)
    rnd = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rnd.choice(state.legal_actions()))
    return state


def test_importing_boardcore_imports_no_pyspiel() -> None:
    code = "import sys, boardcore, boardcore.agents; print('pyspiel' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_every_game_is_registered() -> None:
    names = set(pyspiel.registered_names())
    assert {f"boardcore_{g}" for g in boardcore.GAMES} <= names
    assert dict(bo.GAME_NAMES) == {g: f"boardcore_{g}" for g in boardcore.GAMES}
    bo.register()       # a second registration changes nothing
    assert pyspiel.load_game("boardcore_fool", {"players": 5}).num_players() == 5


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_every_option_is_a_game_parameter(name: str) -> None:
    game = pyspiel.load_game(bo.GAME_NAMES[name])
    config = boardcore.make(name, players=game.num_players())  # type: ignore[call-overload]
    params = game.get_parameters()
    assert set(params) == {"players", *config.options}
    assert game.boardcore_game == config
    assert str(pyspiel.load_game(str(game))) == str(game)


@pytest.mark.parametrize(("name", "params"), OPTIONS)
def test_options_reach_the_boardcore_game(name: str, params: dict[str, object]) -> None:
    game = pyspiel.load_game(bo.GAME_NAMES[name], params)
    config = game.boardcore_game
    assert config.num_players == params.get("players", config.min_players)
    for key, value in params.items():
        if key == "players":
            continue
        expected = value
        if isinstance(value, str) and " " in value:
            items = value.split()
            expected = tuple(int(i) if i.isdigit() else i for i in items)
        got = config.options[key]
        assert (tuple(got) if isinstance(got, (list, tuple)) else got) == expected, key
    assert game.num_distinct_actions() == config.num_actions
    # The game string (what a serialized state names) loads the same configuration.
    assert pyspiel.load_game(str(game)).boardcore_game == config


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ConfigurationError, match=r"4\.\.8 players"):
        pyspiel.load_game("boardcore_fool", {"players": 9})
    with pytest.raises(ConfigurationError, match="deck"):
        pyspiel.load_game("boardcore_fool", {"deck": "1 2"})
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colours'"):
        pyspiel.load_game("boardcore_fool", {"colours": 4})
    with pytest.raises(pyspiel.SpielError, match="Wrong type"):
        pyspiel.load_game("boardcore_just4fun", {"players": "3"})
    with pytest.raises(ConfigurationError, match="unknown parameter"):
        bo.GAME_CLASSES["fool"]({"colours": 4})


@pytest.mark.parametrize(("name", "players"), PLAYER_COUNTS)
def test_game_type_and_info_tell_the_truth(name: str, players: int) -> None:
    game = pyspiel.load_game(bo.GAME_NAMES[name], {"players": players})
    kind = game.get_type()
    cls = type(game.boardcore_game)
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (kind.min_num_players, kind.max_num_players) == (cls.min_players, cls.max_players)
    assert kind.provides_information_state_string and kind.provides_information_state_tensor
    assert kind.provides_observation_string and kind.provides_observation_tensor
    assert game.num_players() == players
    assert game.num_distinct_actions() == game.boardcore_game.num_actions
    assert game.max_chance_outcomes() == 256
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    assert game.observation_tensor_shape() == list(game.boardcore_game.observation_shape)
    assert game.information_state_tensor_shape() == game.observation_tensor_shape()


@pytest.mark.parametrize(("name", "players"), PLAYER_COUNTS)
def test_max_game_length_bounds_every_game(name: str, players: int) -> None:
    game = pyspiel.load_game(bo.GAME_NAMES[name], {"players": players})
    result = boardcore.simulate(game.boardcore_game, 3000, seed=players)
    assert result.lengths.max() <= game.max_game_length()


@pytest.mark.parametrize(("name", "players"), PLAYER_COUNTS)
def test_random_sim_test_with_serialization(name: str, players: int) -> None:
    game = pyspiel.load_game(bo.GAME_NAMES[name], {"players": players})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "params"), OPTIONS)
def test_random_sim_test_with_options(name: str, params: dict[str, object]) -> None:
    game = pyspiel.load_game(bo.GAME_NAMES[name], params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_the_seed_is_drawn_by_eight_chance_nodes(name: str) -> None:
    game = pyspiel.load_game(bo.GAME_NAMES[name])
    state = game.new_initial_state()
    for k, byte in enumerate(bo.deal_actions(2**64 - 2026)):
        assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == list(range(256)) == state.legal_actions()
        assert all(p == 1 / 256 for _, p in outcomes)
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, byte) == f"seed byte {k}: {byte}"
        assert state.boardcore_state is None and state.moves() == []
        state.apply_action(byte)
    config = game.boardcore_game
    assert state.boardcore_state.to_dict() == config.new_state(2**64 - 2026).to_dict()
    assert not state.is_chance_node() and state.chance_outcomes() == []
    assert state.history() == bo.deal_actions(2**64 - 2026)
    with pytest.raises(ValueError, match="seed"):
        bo.deal_actions(2**64)


def test_a_bad_chance_outcome_is_refused() -> None:
    state = pyspiel.load_game("boardcore_fool").new_initial_state()
    with pytest.raises(IllegalActionError, match="seed byte"):
        state.apply_action(256)
    assert state.history() == [] and str(state).endswith("seed bytes -")


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_moves_strings_and_returns_are_boardcore_s(name: str) -> None:
    state = dealt(name, 5)
    position = state.boardcore_state
    rnd = random.Random(5)
    while not state.is_terminal():
        seat = state.current_player()
        assert seat == position.current_player
        assert state.legal_actions() == position.legal_actions()
        assert state.legal_actions(seat) == position.legal_actions()
        assert state.legal_actions((seat + 1) % state.num_players()) == []
        for action in state.legal_actions()[:5]:
            assert state.action_to_string(seat, action) == position.action_to_str(action)
        assert state.returns() == [0.0] * state.num_players()
        state.apply_action(rnd.choice(state.legal_actions()))
    assert state.moves() == position.history() == state.history()[8:]
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    outcome = position.outcome()
    assert outcome is not None
    assert state.returns() == [1 / len(outcome.winners) if p in outcome.winners else 0.0
                               for p in range(state.num_players())]
    assert sum(state.returns()) == pytest.approx(1.0)
    with pytest.raises(IllegalActionError):
        state.apply_action(0)


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_states_clone_serialize_and_deserialize(name: str) -> None:
    game = pyspiel.load_game(bo.GAME_NAMES[name])
    for state in (game.new_initial_state(), dealt(name, 9), dealt(name, 9, moves=20)):
        clone = state.clone()
        assert str(clone) == str(state) and clone.history() == state.history()
        text = state.serialize()
        loaded = game.deserialize_state(text)
        assert str(loaded) == str(state) and loaded.history() == state.history()
        both = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
        assert str(both[0]) == str(game) and str(both[1]) == str(state)
        if state.boardcore_state is None:
            continue
        assert loaded.boardcore_state.to_dict() == state.boardcore_state.to_dict()
        # Independent copies that go on exactly like the original.
        action = state.legal_actions()[-1]
        for other in (clone, loaded):
            other.apply_action(action)
        assert str(clone) == str(loaded) != str(state)
        state.apply_action(action)
        assert str(clone) == str(state)


def _hidden_twin(state: object, seat: int, seed: int) -> object:
    """``state`` with what ``seat`` cannot see redrawn, built without resample_from_infostate."""
    twin = state.get_game().new_initial_state()
    twin._state = determinize(state.boardcore_state, seat, seed)
    twin._prefix = tuple(state.moves())
    return twin


@pytest.mark.parametrize(("name", "players"), PLAYER_COUNTS)
def test_observations_never_show_another_seat_s_hidden_cards(name: str, players: int) -> None:
    differs = 0
    for i in range(6):
        state = dealt(name, 40 + i, moves=7 * i, players=players)
        if state.is_terminal():
            continue
        for seat in range(players):
            twin = _hidden_twin(state, seat, seed=i)
            assert twin.boardcore_state.to_dict() != state.boardcore_state.to_dict()
            for method in ("information_state_string", "observation_string",
                           "information_state_tensor", "observation_tensor"):
                assert getattr(twin, method)(seat) == getattr(state, method)(seat), method
            other = (seat + 1) % players
            differs += twin.observation_string(other) != state.observation_string(other)
            hand = state.boardcore_state.view(seat).hand
            assert f"\nhand: {' '.join(map(str, hand)) or '-'}\n" in state.observation_string(seat)
    assert differs > 0      # the twins do differ where another seat looks


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_strings_and_tensors_are_the_seat_s_view_and_observation(name: str) -> None:
    state = dealt(name, 3, moves=6)
    position = state.boardcore_state
    for seat in range(state.num_players()):
        np.testing.assert_array_equal(np.array(state.observation_tensor(seat), np.float32),
                                      position.observation(seat))
        observation = state.observation_string(seat)
        info = state.information_state_string(seat)
        assert observation.startswith(f"seat: {seat}\n")
        assert info == observation + "\nmoves: " + " ".join(map(str, position.history()))
    before = pyspiel.load_game(bo.GAME_NAMES[name]).new_initial_state()
    assert before.observation_string(0) == "seat: 0\nbefore the deal"
    assert not any(before.observation_tensor(0))


def _iig(public: bool, private: object, recall: bool) -> object:
    return pyspiel.IIGObservationType(public_info=public, perfect_recall=recall,
                                      private_info=private)


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_make_observation_for_every_observer_type(name: str) -> None:
    from open_spiel.python.observation import make_observation

    state = dealt(name, 12, moves=5)
    game = state.get_game()
    position = state.boardcore_state
    planes = [n for n, _ in game.boardcore_game.observation_planes]
    private = pyspiel.PrivateInfoType
    for recall in (False, True):
        for public in (False, True):
            for kind in (private.NONE, private.SINGLE_PLAYER, private.ALL_PLAYERS):
                observation = make_observation(game, _iig(public, kind, recall))
                observation.set_from(state, 1)
                text = observation.string_from(state, 1)
                own = "hand: " + " ".join(map(str, position.view(1).hand))
                assert (own in text) == (kind == private.SINGLE_PLAYER), (public, kind)
                assert ("hand 0: " in text) == (kind == private.ALL_PLAYERS)
                assert ("scores: " in text) == public
                assert ("moves: " in text) == (public and recall)
                if kind == private.SINGLE_PLAYER and public:
                    assert list(observation.dict) == planes
                    np.testing.assert_array_equal(observation.tensor, position.observation(1))
                else:
                    assert observation.tensor is None and observation.dict == {}
    default = make_observation(game)
    default.set_from(state, 0)
    assert default.string_from(state, 0) == state.observation_string(0)
    with pytest.raises(ValueError, match="no parameters"):
        make_observation(game, params={"x": 1})
    with pytest.raises(ValueError, match="not a seat"):
        default.string_from(state, 9)


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_resample_from_infostate(name: str) -> None:
    """OpenSpiel's ResampleInfostateTest: the same information state, another world."""
    state = pyspiel.load_game(bo.GAME_NAMES[name]).new_initial_state()
    rnd = random.Random(4)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = 0
    while not state.is_terminal():
        if not state.is_chance_node():
            for seat in range(state.num_players()):
                other = state.resample_from_infostate(seat, sampler)
                assert other.information_state_string(seat) == \
                    state.information_state_string(seat)
                assert other.information_state_tensor(seat) == \
                    state.information_state_tensor(seat)
                assert other.current_player() == state.current_player()
                worlds += other.boardcore_state.to_dict() != state.boardcore_state.to_dict()
        state.apply_action(rnd.choice(state.legal_actions()))
        if len(state.moves()) > 40:
            break
    assert worlds > 0
    with pytest.raises(ValueError, match="not a seat"):
        state.resample_from_infostate(7, sampler)


def test_a_resampled_state_plays_on_and_serializes() -> None:
    state = dealt("rummikub_junior", 2, moves=10)
    other = state.resample_from_infostate(state.current_player(), lambda: 0.5)
    again = other.get_game().deserialize_state(other.serialize())
    assert again.moves() == other.moves() == state.moves()
    while not other.is_terminal():
        other.apply_action(other.legal_actions()[0])
    assert sum(other.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_openspiel_mcts_bot_plays_whole_games(name: str) -> None:
    game = pyspiel.load_game(bo.GAME_NAMES[name])
    evaluator = pyspiel.RandomRolloutEvaluator(1, 3)
    # pyspiel.MCTSBot.step lets go of the GIL, which a Python game cannot take: its
    # step_with_policy, and evaluate_bots, keep it.
    bots = [pyspiel.MCTSBot(game, evaluator, 2.0, 4, 100, False, 2 + p, False)
            for p in range(game.num_players())]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 7)
    assert sum(returns) == pytest.approx(1.0)
    state = dealt(name, 1)
    policy, action = bots[0].step_with_policy(state)
    assert action in state.legal_actions() and sum(p for _, p in policy) == pytest.approx(1.0)


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_openspiel_ismcts_bot_plays_whole_games(name: str) -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(bo.GAME_NAMES[name])
    rnd = np.random.RandomState(5)
    evaluator = mcts.RandomRolloutEvaluator(1, rnd)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 3, random_state=rnd)
    others = [bo.bot(game, "random", p, seed=p) for p in range(1, game.num_players())]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), [bot, *others], 11)
    assert sum(returns) == pytest.approx(1.0)


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_boardcore_bots_in_evaluate_bots(name: str) -> None:
    game = pyspiel.load_game(bo.GAME_NAMES[name])
    kinds = ["ismcts:30", "flat:2", "greedy", "random"]
    bots = [bo.bot(game, kinds[p % 4], p, seed=p) for p in range(game.num_players())]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 3)
    assert sum(returns) == pytest.approx(1.0)
    assert repr(bots[0]).startswith("AgentBot(ISMCTSAgent(iterations=30")


def test_a_bot_is_its_agent() -> None:
    from boardcore.agents import ISMCTSAgent

    state = dealt("just4fun", 5)
    game = state.get_game()
    ours = bo.bot(game, "ismcts:300", 0, seed=1)
    agent = ISMCTSAgent(300, seed=1)
    position = state.boardcore_state
    assert ours.step(state) == agent.act(position)
    assert ours.provides_policy()
    policy = ours.get_policy(state)
    assert [a for a, _ in policy] == sorted(agent.policy(position))
    assert sum(p for _, p in policy) == pytest.approx(1.0)
    _, action = bo.bot(game, ISMCTSAgent(300, seed=1), 0).step_with_policy(state)
    assert action in state.legal_actions()


def test_bot_refuses_what_it_cannot_play() -> None:
    game = pyspiel.load_game("boardcore_fool")
    with pytest.raises(TypeError, match="boardcore_"):
        bo.bot(pyspiel.load_game("tic_tac_toe"), "random", 0)
    with pytest.raises(ConfigurationError, match="not a seat"):
        bo.bot(game, "random", 4)
    with pytest.raises(ConfigurationError, match="unknown agent"):
        bo.bot(game, "mcts", 0)
    with pytest.raises(TypeError, match="agent"):
        bo.bot(game, 3, 0)  # type: ignore[arg-type]
    state = dealt("fool", 1)
    with pytest.raises(ValueError, match="seat 2"):
        bo.bot(game, "random", 2).step(state)
    with pytest.raises(TypeError, match="boardcore_"):
        bo.bot(game, "random", 0).step(pyspiel.load_game("tic_tac_toe").new_initial_state())
