"""Fool: one test per numbered rule (F1-F13), notation, view, str, options, hostile input."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import json
import math
import pickle
import random
import re
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardcore
from boardcore.errors import (
    ConfigurationError,
    IllegalActionError,
    InvalidStateError,
    NotationError,
)
from boardcore.fool import DECKS, NUM_ACTIONS, Fool, FoolMove, FoolState, FoolView
from tests.conftest import set_up


def card(text: str) -> int:
    return Fool(players=4).new_state(seed=0).parse_action(text)


def position(
    players: int = 4,
    hands: list[list[str]] | None = None,
    trick: tuple[tuple[int, str], ...] = (),
    fools: tuple[int, ...] = (),
    leader: int = 0,
    **fields: Any,
) -> FoolState:
    """A set-up position drawn in the test: the given hands, trick so far, Fools, leader."""
    game = Fool(players=players, **fields.pop("options", {}))
    data: dict[str, Any] = dict(game.new_state(seed=1).to_dict())
    if hands is not None:
        data["hands"] = [list(h) for h in hands]
    data.update(trick=[[s, c] for s, c in trick], fools=sorted(fools), leader=leader)
    data.update(fields)
    return set_up(game, data)


def first_trick(players: int, fixed: dict[int, list[str]], trick=()) -> FoolState:
    """A first trick of round 1 (no Fools): ``fixed`` cards, the rest of the deck dealt."""
    game = Fool(players=players)
    state = game.new_state(seed=1)
    size = game.hand_size
    taken = [c for cards in fixed.values() for c in cards] + [c for _s, c in trick]
    rest = [state.action_to_str(a) for a in _deck_actions(game)]
    for c in taken:
        rest.remove(c)
    hands = []
    for seat in range(players):
        hand = list(fixed.get(seat, []))
        need = size - len(hand) - sum(1 for s, _c in trick if s == seat)
        hand += rest[:need]
        del rest[:need]
        hands.append(hand)
    return position(players, hands, trick=trick, leader=0)


def _deck_actions(game: Fool) -> list[int]:
    g, r, y, b, w = game.deck
    tops = (g, r, y, b)
    offsets = (0, 26, 48, 68)
    return [o + v - 2 for o, top in zip(offsets, tops) for v in range(2, top + 1)] + [82] * w


def play(state: FoolState, *cards: str) -> None:
    for c in cards:
        state.apply(state.parse_action(c))


# -- F1 ---------------------------------------------------------------------------------

def test_F1_four_to_eight_players() -> None:
    for n in range(4, 9):
        assert Fool(players=n).new_state(seed=0).current_player == 0
    for n in (3, 9):
        with pytest.raises(ConfigurationError, match=r"4\.\.8 players"):
            Fool(players=n)


def test_F1_the_box_holds_88_cards_in_four_colours_and_six_wild_1s() -> None:
    state = Fool(players=8).new_state(seed=3)
    names = [c for hand in state.to_dict()["hands"] for c in hand]
    assert len(names) == len(set(names)) + 5 == 88
    assert names.count("W1") == 6
    for letter, top in zip("GRYB", (27, 23, 21, 15)):
        assert sorted(int(c[1:]) for c in names if c[0] == letter) == list(range(2, top + 1))


# -- F2 ---------------------------------------------------------------------------------

@pytest.mark.parametrize("players", range(4, 9))
def test_F2_deck_hand_and_fools_per_player_count(players: int) -> None:
    game = Fool(players=players)
    sizes = {4: 48, 5: 60, 6: 72, 7: 84, 8: 88}
    assert game.hand_size == (11 if players == 8 else 12)
    assert game.fools_per_trick == (2 if players >= 7 else 1)
    state = game.new_state(seed=players)
    hands = state.to_dict()["hands"]
    assert [len(h) for h in hands] == [game.hand_size] * players
    dealt = sorted(state.parse_action(c) for h in hands for c in h)
    assert dealt == sorted(_deck_actions(game)) and len(dealt) == sizes[players]
    top_green = DECKS[players][0]
    assert max(a for a in dealt if a < 26) == top_green - 2


def test_F2_deck_option_replaces_the_table_row() -> None:
    game = Fool(players=4, deck=(10, 10, 10, 10, 4))
    assert game.deck == (10, 10, 10, 10, 4) and game.hand_size == 10
    hands = game.new_state(seed=2).to_dict()["hands"]
    names = [c for h in hands for c in h]
    assert names.count("W1") == 4 and "G11" not in names and "B10" in names
    assert Fool(players=4, deck=[17, 13, 11, 8, 3]) == Fool(players=4)


# -- F3 ---------------------------------------------------------------------------------

def test_F3_round_one_dealer_is_last_seat_and_moves_clockwise() -> None:
    state = Fool(players=5).new_state(seed=4)
    d = state.to_dict()
    assert (d["round"], d["dealer"], d["leader"], d["fools"]) == (1, 4, 0, [])
    assert state.current_player == 0
    while state.to_dict()["round"] == 1:
        state.apply(state.legal_actions()[0])
    d = state.to_dict()
    assert (d["round"], d["dealer"], d["leader"], d["fools"], d["trick"]) == (2, 0, 1, [], [])
    assert state.current_player == 1
    assert all(len(h) == 12 for h in d["hands"])


def test_F3_start_player_leads_the_first_round() -> None:
    state = Fool(players=6, start_player=3).new_state(seed=4)
    assert state.current_player == 3 and state.to_dict()["dealer"] == 2


def test_F3_deal_is_drawn_from_the_seed() -> None:
    game = Fool(players=4)
    assert game.new_state(seed=9).to_dict() == game.new_state(seed=9).to_dict()
    assert game.new_state(seed=9).to_dict()["hands"] != game.new_state(seed=10).to_dict()["hands"]


# -- F4 ---------------------------------------------------------------------------------

def test_F4_everyone_but_the_fool_plays_clockwise_from_the_leader() -> None:
    state = position(hands=[["G2", "G3"], ["G4", "G5"], ["G6", "G7"], ["G8", "G9"]],
                     fools=(3,), leader=1)
    order = []
    for c in ("G4", "G6", "G2"):
        order.append(state.current_player)
        play(state, c)
    assert order == [1, 2, 0]
    assert state.to_dict()["trick"] == []  # three cards complete the trick


# -- F5 ---------------------------------------------------------------------------------

def test_F5_first_coloured_card_sets_the_lead_colour() -> None:
    state = position(hands=[["R5", "G2"], ["G4", "B5"], ["G6", "G7"], ["G8", "G9"]],
                     fools=(3,))
    play(state, "R5")
    assert state.view(1).lead_colour == "red"


def test_F5_a_led_1_leaves_the_colour_to_the_next_coloured_card() -> None:
    state = position(hands=[["W1", "G2"], ["B4", "R5"], ["G6", "B7"], ["G8", "G9"]],
                     fools=(3,))
    play(state, "W1")
    assert state.view(1).lead_colour is None
    assert state.legal_actions() == [card("R5"), card("B4")]
    play(state, "B4")
    assert state.view(2).lead_colour == "blue"
    assert state.legal_actions() == [card("B7")]


# -- F6 ---------------------------------------------------------------------------------

def test_F6_holding_the_lead_colour_allows_it_or_a_wild_1() -> None:
    state = position(hands=[["R5", "G2"], ["R3", "R9", "G4", "W1"], ["G6"], ["G8"]],
                     fools=(3,))
    play(state, "R5")
    assert state.legal_actions() == [card("R3"), card("R9"), card("W1")]
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match=r"legal: 27 \(R3\), 33 \(R9\), 82 \(W1\)$"):
        play(state, "G4")
    assert state.to_dict() == before


def test_F6_without_the_lead_colour_any_card() -> None:
    state = position(hands=[["R5", "G2"], ["B3", "G4", "W1"], ["G6"], ["G8", "Y10"]], fools=(3,))
    play(state, "R5")
    assert state.legal_actions() == [card("G4"), card("B3"), card("W1")]


def test_F6_a_wild_1_alone_does_not_count_as_the_lead_colour() -> None:
    state = position(hands=[["R5", "G2"], ["W1", "G4"], ["G6"], ["G8", "Y10", "Y11"]],
                     fools=(3,))
    play(state, "R5")
    assert state.legal_actions() == [card("G4"), card("W1")]


def test_F6_the_leader_may_play_any_card() -> None:
    state = position(hands=[["R5", "G2", "W1"], ["G3"], ["G6"], ["G8", "Y10", "Y11"]],
                     fools=(3,))
    assert state.legal_actions() == [card("G2"), card("R5"), card("W1")]


# -- F7 ---------------------------------------------------------------------------------

def test_F7_highest_lead_colour_card_wins_and_leads_next() -> None:
    state = position(hands=[["R5", "G2"], ["R9", "G3"], ["G17", "G6"], ["G8", "Y10"]], fools=(3,))
    play(state, "R5", "R9", "G17")
    assert state.current_player == 1 and state.to_dict()["leader"] == 1


def test_F7_a_wild_1_is_the_lowest_card_of_the_lead_colour() -> None:
    state = position(hands=[["W1", "G2"], ["Y2", "G3"], ["W1", "G6"], ["G8", "Y10"]], fools=(3,))
    play(state, "W1", "Y2", "W1")
    assert state.current_player == 1
    assert state.to_dict()["fools"] == [2]  # the later of the two 1s


def test_F7_only_1s_played_the_first_wins() -> None:
    state = position(hands=[["W1", "G2"], ["W1", "G3"], ["W1", "G6"], ["G8", "Y10"]], fools=(3,))
    play(state, "W1", "W1", "W1")
    assert state.current_player == 0
    assert state.to_dict()["fools"] == [2]


# -- F8 ---------------------------------------------------------------------------------

def test_F8_all_lead_colour_the_lowest_is_worst() -> None:
    state = position(hands=[["R5", "G2"], ["R9", "G3"], ["R3", "G6"], ["G8", "Y10"]], fools=(3,))
    play(state, "R5", "R9", "R3")
    assert state.to_dict()["fools"] == [2]


def test_F8_lowest_offcolour_card_is_worst_even_above_lead_cards() -> None:
    state = position(hands=[["R5", "G2"], ["G16", "G3"], ["W1", "G6"], ["G8", "Y10"]], fools=(3,))
    play(state, "R5", "G16", "W1")
    assert state.to_dict()["fools"] == [1]


def test_F8_last_of_equal_offcolour_cards_is_worst() -> None:
    state = position(hands=[["R5", "G2"], ["G7", "G3"], ["B7", "G6"], ["G8", "Y10"]], fools=(3,))
    play(state, "R5", "G7", "B7")
    assert state.to_dict()["fools"] == [2]
    state = position(hands=[["R5", "G2"], ["B7", "G3"], ["G7", "G6"], ["G8", "Y10"]], fools=(3,))
    play(state, "R5", "B7", "G7")
    assert state.to_dict()["fools"] == [2]


def test_F8_two_fools_offcolour_first_then_lowest_lead_colour() -> None:
    # 7 players, Fools 5 and 6 sit out: seats 0-4 play.
    hands = [["R10", "G2"], ["R4", "G3"], ["G9", "G4"], ["W1", "G5"], ["R12", "G6"],
             ["G7"], ["G8"]]
    state = position(7, hands, fools=(5, 6))
    play(state, "R10", "R4", "G9", "W1", "R12")
    assert state.to_dict()["fools"] == [2, 3]  # off-colour G9, then the 1
    assert state.current_player == 4


def test_F8_two_fools_two_offcolour_cards_of_equal_value() -> None:
    hands = [["R10", "G2"], ["B9", "G3"], ["G9", "G4"], ["R11", "G5"], ["Y20", "G6"],
             ["G7"], ["G8"]]
    state = position(7, hands, fools=(5, 6))
    play(state, "R10", "B9", "G9", "R11", "Y20")
    assert state.to_dict()["fools"] == [1, 2]
    assert state.current_player == 3


def test_F8_trick_kernel_agrees_with_the_reference_on_random_tricks() -> None:
    from boardcore._engine.fool import _trick_kernel
    from tests.reference import fool as ref

    rng = np.random.default_rng(8)
    rows = 3000
    seats = np.zeros((rows, 8), dtype=np.uint8)
    cards = np.zeros((rows, 8), dtype=np.uint8)
    leads = np.zeros(rows, dtype=np.int8)
    lengths = np.zeros(rows, dtype=np.uint8)
    tricks = []
    for i in range(rows):
        length = int(rng.integers(3, 9))
        kinds = list(rng.permutation(82)[:length])
        for j in range(length):
            if rng.random() < 0.25:
                kinds[j] = ref.W1
        trick = [(int(s), int(k)) for s, k in zip(rng.permutation(8)[:length], kinds)]
        lead = ref.lead_colour(trick)
        seats[i, :length] = [s for s, _k in trick]
        cards[i, :length] = [k for _s, k in trick]
        leads[i] = -1 if lead is None else "GRYB".index(lead)
        lengths[i] = length
        tricks.append(trick)
    for nfools in (1, 2):
        winners, fools = _trick_kernel(seats, cards, leads, lengths, nfools)
        for i, trick in enumerate(tricks):
            assert winners[i] == ref.trick_winner(trick)
            assert fools[i] == sum(1 << s for s in ref.trick_fools(trick, nfools))


# -- F9 ---------------------------------------------------------------------------------

def test_F9_fool_sits_out_the_next_trick_then_rejoins() -> None:
    hands = [["R5", "G2", "G10"], ["R9", "G3", "G11"], ["R3", "G6", "G12"],
             ["G8", "G9", "G13", "Y10", "Y11"]]   # the Fool has sat out two tricks
    state = position(hands=hands, fools=(3,))
    play(state, "R5", "R9", "R3")  # seat 2 is the new Fool, seat 3 rejoins
    assert state.to_dict()["fools"] == [2]
    assert state.view(0).fools == frozenset({2})
    order = []
    while len(order) < 3:
        order.append(state.current_player)
        state.apply(state.legal_actions()[0])
    assert order == [1, 3, 0]
    assert 2 not in order


@pytest.mark.parametrize("players", [4, 7])
def test_F9_a_fool_is_never_the_player_to_act(players: int) -> None:
    state = Fool(players=players).new_state(seed=players)
    choice = np.random.default_rng(players)
    steps = 0
    while not state.is_over():
        d = state.to_dict()
        assert state.current_player not in d["fools"]
        assert len(d["fools"]) in (0, Fool(players=players).fools_per_trick)
        legal = state.legal_actions()
        state.apply(legal[int(choice.integers(len(legal)))])
        steps += 1
    assert steps > 50


# -- F10 --------------------------------------------------------------------------------

def test_F10_round_ends_with_the_trick_in_which_a_hand_empties() -> None:
    state = position(hands=[["R5"], ["R9", "G3"], ["R3", "G6"], ["G8", "G9", "Y10"]],
                     fools=(3,), scores=[0, 0, 0, 0])
    play(state, "R5")
    assert state.current_player == 1  # the trick is completed
    assert state.to_dict()["round"] == 1
    play(state, "R9", "R3")
    d = state.to_dict()
    assert d["round"] == 2 and d["fools"] == [] and d["trick"] == []
    assert d["scores"] == [10, -3, -6, -27]


def test_F10_several_players_may_empty_their_hands_in_the_last_trick() -> None:
    state = position(hands=[["R5"], ["R9"], ["R3", "G6"], ["G8", "G9", "Y10", "Y11"]],
                     fools=(3,))
    play(state, "R5", "R9", "R3")
    assert state.scores() == (10, 10, -6, -38)
    assert state.to_dict()["plus10"] == [1, 1, 0, 0]


# -- F11 --------------------------------------------------------------------------------

def test_F11_emptying_the_hand_while_taking_the_disc_scores_zero() -> None:
    state = position(hands=[["R5", "G2"], ["R9", "G3"], ["R3"], ["W1", "B8", "Y10"]],
                     fools=(3,))
    play(state, "R5", "R9", "R3")
    assert state.scores() == (-2, -3, 0, -23)  # W1 costs 5
    assert state.to_dict()["plus10"] == [0, 0, 0, 0]


def test_F11_wild_1_left_in_hand_costs_five() -> None:
    state = position(hands=[["R5"], ["R9", "W1", "W1"], ["R3", "G6"], ["G8", "Y10"]],
                     fools=(3,))
    play(state, "R5", "R9", "R3")
    assert state.scores() == (10, -10, -6, -18)


# -- F12 --------------------------------------------------------------------------------

def test_F12_game_ends_when_a_total_reaches_minus_80() -> None:
    state = position(hands=[["R5"], ["R9", "G17", "G13"], ["R3", "G6"], ["G8", "Y10"]],
                     fools=(3,), scores=[0, -50, -20, 0], round=3, dealer=1)
    play(state, "R5", "R9", "R3")
    assert state.scores() == (10, -80, -26, -18)
    assert state.is_over()
    with pytest.raises(IllegalActionError, match="over"):
        state.apply(0)


def test_F12_game_ends_after_a_sixth_plus_10() -> None:
    state = position(hands=[["R5"], ["R9", "G3"], ["R3", "G6"], ["G8", "Y10", "Y11"]],
                     fools=(3,), scores=[50, -10, -10, 0], plus10=[5, 0, 0, 0], round=6,
                     dealer=0)
    play(state, "R5", "R9", "R3")
    assert state.is_over() and state.scores()[0] == 60


def test_F12_otherwise_a_new_round_is_dealt() -> None:
    state = position(hands=[["R5"], ["R9", "G3"], ["R3", "G6"], ["G8", "Y10", "Y11"]],
                     fools=(3,), scores=[40, -60, 0, 0], plus10=[4, 0, 0, 0], round=5,
                     dealer=3)
    play(state, "R5", "R9", "R3")
    d = state.to_dict()
    assert not state.is_over() and d["round"] == 6 and d["dealer"] == 0
    assert [len(h) for h in d["hands"]] == [12] * 4


def test_F12_simulate_reports_how_games_ended_and_rounds() -> None:
    result = boardcore.simulate(Fool(players=4), 300, seed=3)
    assert set(result.stats) == {"end", "rounds"}
    assert set(np.unique(result.stats["end"])) <= {0, 1, 2}
    assert (result.stats["rounds"] >= 1).all()
    for i in range(result.games):
        if result.stats["end"][i] in (0, 2):
            assert result.scores[i].min() <= -80


# -- F13 --------------------------------------------------------------------------------

def test_F13_highest_total_wins() -> None:
    state = position(hands=[["R5"], ["R9", "G17"], ["R3", "G6"], ["G8", "Y10", "Y11"]],
                     fools=(3,), scores=[0, -70, -20, 0], round=3, dealer=1)
    play(state, "R5", "R9", "R3")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == frozenset({0})
    assert outcome.scores == state.scores()


def test_F13_tied_leaders_share_the_win() -> None:
    state = position(hands=[["R5"], ["R9", "G17"], ["R3", "G6"], ["G8", "Y2", "Y3"]],
                     fools=(3,), scores=[0, -70, -20, 23], plus10=[0, 0, 0, 3], round=4,
                     dealer=2)
    play(state, "R5", "R9", "R3")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == frozenset({0, 3})


# -- notation, view, str, copies ---------------------------------------------------------

def test_notation_round_trips_every_action() -> None:
    state = Fool(players=8).new_state(seed=0)
    names = [state.action_to_str(a) for a in range(NUM_ACTIONS)]
    assert names[0] == "G2" and names[25] == "G27" and names[26] == "R2"
    assert names[48] == "Y2" and names[68] == "B2" and names[81] == "B15" and names[82] == "W1"
    assert len(set(names)) == NUM_ACTIONS
    assert [state.parse_action(t) for t in names] == list(range(NUM_ACTIONS))
    assert state.parse_action(" g17 ") == state.parse_action("G17")


@pytest.mark.parametrize("text", ["", "G1", "G28", "R24", "Y22", "B16", "W2", "G017",
                                  "X5", "G", "17", "GG5", "W 1", "G-3"])
def test_notation_rejects_bad_text(text: str) -> None:
    state = Fool(players=8).new_state(seed=0)
    with pytest.raises(NotationError, match=re.escape(repr(text))):
        state.parse_action(text)


def test_view_shows_own_hand_only_and_the_table() -> None:
    state = position(hands=[["R5", "G2"], ["R9", "G3"], ["R3", "G6"], ["W1", "W1"]],
                     fools=(3,), leader=0)
    play(state, "R5")
    view = state.view(1)
    assert isinstance(view, FoolView)
    assert view.player == 1 and not view.is_over and view.scores == (0, 0, 0, 0)
    assert view.hand == ("G3", "R9")
    assert view.hand_sizes == (1, 2, 2, 2)
    assert view.trick == ((0, "R5"),)
    assert view.fools == frozenset({3}) and view.current_player == 1
    assert view.lead_colour == "red"
    assert len(view.played) == 48 - 7 and "R5" in view.played
    assert view.played.count("W1") == 1  # 3 in the deck, 2 in seat 3's hand
    assert list(view.played) == sorted(view.played, key=state.parse_action)
    assert state.view(3).hand == ("W1", "W1")
    with pytest.raises(AttributeError):
        view.hand = ()  # type: ignore[misc]


def test_str_and_repr_are_readable() -> None:
    state = Fool(players=4).new_state(seed=7)
    text = str(state)
    assert text.startswith("Fool, 4 players, round 1, dealer seat 3")
    assert "> seat 0 [12]" in text and "fools:  none" in text
    assert repr(state) == "<FoolState players=4 seat 0 to act move=0>"
    state.rollout(seed=2)
    assert "game over" in str(state) and "over" in repr(state)


def test_copy_is_independent_and_pickles_round_trip() -> None:
    state = Fool(players=6).new_state(seed=5)
    for _ in range(20):
        state.apply(state.legal_actions()[-1])
    for twin in (state.copy(), copy.copy(state), copy.deepcopy(state),
                 pickle.loads(pickle.dumps(state))):
        assert twin.to_dict() == state.to_dict() and twin.history() == state.history()
        assert twin.rollout(seed=4) == state.copy().rollout(seed=4)
    assert len(state.history()) == 20


def test_from_dict_continues_exactly() -> None:
    game = Fool(players=7)
    state = game.new_state(seed=11)
    for _ in range(57):
        state.apply(state.legal_actions()[0])
    twin = game.state_from_dict(json.loads(json.dumps(state.to_dict())))
    assert twin.rollout(seed=3) == state.rollout(seed=3)
    assert twin.to_dict() == state.to_dict()


def test_legal_actions_mask_matches_the_list() -> None:
    state = Fool(players=5).new_state(seed=5)
    mask = state.legal_actions_mask()
    assert mask.dtype == np.bool_ and mask.shape == (NUM_ACTIONS,)
    assert list(np.flatnonzero(mask)) == state.legal_actions()
    state.rollout(seed=1)
    assert not state.legal_actions_mask().any()


def test_rollout_matches_simulate() -> None:
    from boardcore.simulate import derive_seed

    game = Fool(players=7, start_player=2)
    result = boardcore.simulate(game, 20, seed=99, workers=2)
    for i in range(20):
        state = game.new_state(derive_seed(99, 0, i))
        outcome = state.rollout(derive_seed(99, 1, i))
        assert outcome.scores == tuple(result.scores[i])
        assert outcome.winners == frozenset(np.flatnonzero(result.winners[i]))
        assert len(state.history()) == result.lengths[i]
        assert state.to_dict()["round"] == result.stats["rounds"][i]


def test_F12_cli_reports_rounds_and_how_games_ended(capsys: pytest.CaptureFixture[str]) -> None:
    from boardcore import cli

    status = cli.main(["simulate", "fool", "--players", "4", "--games", "200", "--seed", "5",
                       "--no-progress", "-o", "deck=[9, 9, 9, 9, 4]"])
    out = capsys.readouterr().out
    assert status == 0
    assert "how games ended:" in out and "minus_80" in out and "six_plus_10" in out
    assert "rounds: mean" in out


# -- options ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"start_player": 4}, "start_player"),
        ({"start_player": -1}, "start_player"),
        ({"start_player": True}, "start_player"),
        ({"start_player": "1"}, "start_player"),
        ({"deck": (17, 13, 11, 8)}, "deck"),
        ({"deck": "17,13,11,8,3"}, "deck"),
        ({"deck": (28, 13, 11, 8, 3)}, "green 28"),
        ({"deck": (17, 13, 11, 1, 3)}, "blue 1"),
        ({"deck": (17, 13, 11, 8, 7)}, "wild 1s 7"),
        ({"deck": (17, 13, 11, 8, 2.0)}, "wild 1s 2.0"),
        ({"deck": (17, 13, 11, 8, 2)}, "47 cards"),
        ({"colours": 4}, "unknown option"),
    ],
)
def test_bad_options_are_a_clear_value_error(options: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        boardcore.make("fool", players=4, **options)


def test_options_defaults_and_records() -> None:
    game = boardcore.make("fool", players=5, deck=[12, 12, 12, 13, 5], start_player=2)
    assert dict(game.options) == {"deck": (12, 12, 12, 13, 5), "start_player": 2}
    assert dict(Fool(players=5).options) == {"deck": None, "start_player": 0}
    state = game.new_state(seed=8)
    for _ in range(30):
        state.apply(state.legal_actions()[0])
    rec = json.loads(json.dumps(boardcore.record(state)))
    assert rec["actions"][0] == state.action_to_str(state.history()[0])
    assert boardcore.replay(rec).to_dict() == state.to_dict()


def test_game_is_registered_and_rules_ship() -> None:
    assert "fool" in boardcore.GAMES
    assert boardcore.make("fool", players=4).num_actions == NUM_ACTIONS
    from boardcore import rules

    assert "F13." in rules.text("fool")


# -- hostile input ----------------------------------------------------------------------

@pytest.mark.parametrize(
    ("action", "error"),
    [(None, TypeError), ("3", TypeError), (3.0, TypeError), (True, TypeError),
     (b"3", TypeError), (-1, IllegalActionError), (2**70, IllegalActionError),
     (NUM_ACTIONS, IllegalActionError), (-(2**70), IllegalActionError),
     ([3], TypeError)],
)
def test_hostile_actions_raise_and_change_nothing(action: object, error: type) -> None:
    state = Fool(players=4).new_state(seed=3)
    before = state.to_dict()
    with pytest.raises(error):
        state.apply(action)
    with pytest.raises(error):
        state.action_to_str(action)
    assert state.to_dict() == before


def test_numpy_integers_are_actions() -> None:
    state = Fool(players=4).new_state(seed=3)
    a = state.legal_actions()[0]
    state.apply(np.int64(a))
    assert state.history() == [a]
    assert state.action_to_str(np.uint8(82)) == "W1"


def test_illegal_action_names_the_legal_ones() -> None:
    state = position(hands=[["R5", "G2"], ["R9", "G3"], ["R3"], ["G8", "Y10", "Y11"]],
                     fools=(3,))
    play(state, "R5")
    with pytest.raises(IllegalActionError,
                       match=r"^illegal action 1 \(G3\) for seat 1; legal: 33 \(R9\)$"):
        state.apply(1)


@pytest.mark.parametrize("text", [None, 5, 3.0, True, b"G5"])
def test_parse_action_rejects_non_text(text: object) -> None:
    with pytest.raises(NotationError, match="must be a str"):
        Fool(players=4).new_state(seed=0).parse_action(text)


@pytest.mark.parametrize("player", [None, "1", 1.0, True])
def test_view_rejects_non_seats(player: object) -> None:
    with pytest.raises(TypeError):
        Fool(players=4).new_state(seed=0).view(player)


@pytest.mark.parametrize("player", [-1, 4, 2**70])
def test_view_rejects_seats_out_of_range(player: object) -> None:
    with pytest.raises(ValueError, match="seat"):
        Fool(players=4).new_state(seed=0).view(player)


@pytest.mark.parametrize("seed", ["1", 1.5, -1, 2**64, True])
def test_bad_seeds(seed: object) -> None:
    game = Fool(players=4)
    with pytest.raises((TypeError, ValueError)):
        game.new_state(seed)
    with pytest.raises((TypeError, ValueError)):
        game.new_state(seed=1).rollout(seed)


def test_state_cannot_be_made_directly() -> None:
    with pytest.raises(TypeError, match="new_state"):
        FoolState()


def _midgame() -> dict[str, Any]:
    state = Fool(players=4).new_state(seed=21)
    for _ in range(41):
        state.apply(state.legal_actions()[-1])
    d = state.to_dict()
    assert d["trick"] and d["fools"]
    return d


def test_every_missing_field_is_named() -> None:
    d = _midgame()
    game = Fool(players=4)
    for field in d:
        broken = dict(d)
        del broken[field]
        with pytest.raises(InvalidStateError, match=field):
            game.state_from_dict(broken)


TAMPERED: list[tuple[str, Any, str]] = [
    ("round", 0, "round"),
    ("round", "2", "round"),
    ("round", 2**70, "round"),
    ("dealer", 0, "dealer"),
    ("dealer", True, "dealer"),
    ("leader", 9, "leader"),
    ("fools", [0, 0], "fools"),
    ("fools", [], "fools"),
    ("fools", [0, 1], "fools"),
    ("fools", None, "fools"),
    ("trick", [[0, "G99"]], "trick"),
    ("trick", [["0", "G2"]], "trick"),
    ("trick", [[0]], "trick"),
    ("trick", "G2", "trick"),
    ("hands", [], "hands"),
    ("hands", [["G2"]] * 4, "hands"),
    ("hands", [["X1"], [], [], []], "hands"),
    ("hands", [["G27"], ["G3"], ["G4"], ["G5"]], "G27"),
    ("hands", [["W1", "W1"], ["W1", "W1"], ["G4"], ["G5"]], "wild 1s"),
    ("hands", [["G2"], [], ["G4"], ["G5"]], "empty hand"),
    ("scores", [0, 0, 0], "scores"),
    ("scores", [0, 0, 0, 5], "scores"),
    ("scores", [0, 0, 0, 1.0], "scores"),
    ("plus10", [0, 0, 0, 9], "plus10"),
    ("plus10", [0, 0, 0, -1], "plus10"),
    ("history", [0, 83], "history"),
    ("history", "abc", "history"),
    ("rng", [0, 0, 0, 0], "rng"),
    ("rng", [1, 2, 3], "rng"),
    ("rng", [1, 2, 3, 2**64], "rng"),
    ("rng", [1, 2, 3, -1], "rng"),
    ("seed", -1, "seed"),
    ("players", 5, "players"),
    ("options", {"deck": None, "start_player": 3}, "options"),
    ("options", {"deck": [1, 2]}, "options"),
    ("game", "just4fun", "game"),
    ("rules_version", 2, "rules_version"),
]


@pytest.mark.parametrize(("field", "value", "match"), TAMPERED)
def test_tampered_state_data_is_refused(field: str, value: Any, match: str) -> None:
    d = _midgame()
    d[field] = value
    # A document: replaying its history from the seed gives another position.
    with pytest.raises(InvalidStateError, match=field):
        Fool(players=4).state_from_dict(d)
    # A set-up position: the same fields break the rules between them.
    if field != "history":
        with pytest.raises(InvalidStateError, match=match):
            set_up(Fool(players=4), d)


def test_set_up_position_round_trips_with_its_history() -> None:
    state = position(hands=[["R5", "G2"], ["R9", "G3"], ["R3", "G6"], ["G8", "G9"]],
                     fools=(3,), leader=1, scores=[-20, 0, 10, 0], plus10=[0, 0, 1, 0],
                     round=2, dealer=0)
    assert state.current_player == 1 and state.history() == []
    play(state, "R9", "R3", "R5")
    d = state.to_dict()
    assert d["setup"]["hands"][0] == ["G2", "R5"] and d["history"] == [33, 27, 29]
    twin = state.game.state_from_dict(json.loads(json.dumps(d)))
    assert twin.to_dict() == d and twin.view(1) == state.view(1)
    d["history"] = [33, 27]
    with pytest.raises(InvalidStateError, match=r"the history \(2 actions\)"):
        state.game.state_from_dict(d)


def test_F11_set_up_scores_are_what_the_rounds_scored() -> None:
    """Issue 22, item 15: a -50 in round 1 and round 2 with every score 0 loaded.

    No score before a round is scored; after, each round ended while its Fools held
    cards (F9, F10), so it cost at least 2 points a Fool (F11).
    """
    hands = [["R5", "G2"], ["R9", "G3"], ["R3", "G6"], ["G8", "Y10"]]
    with pytest.raises(InvalidStateError, match=r"no round has been scored yet \(F11\)"):
        position(hands=hands, fools=(3,), scores=[-50, 0, 0, 0])
    with pytest.raises(InvalidStateError, match=r"adds up to 0, but 1 round\(s\) with 0 \+10s "
                                                r"give at most -2"):
        position(hands=hands, fools=(3,), scores=[0, 0, 0, 0], round=2, dealer=0)
    with pytest.raises(InvalidStateError, match="adds up to 9, but 1 round"):
        position(hands=hands, fools=(3,), scores=[10, 0, 0, -1], plus10=[1, 0, 0, 0],
                 round=2, dealer=0)
    state = position(hands=hands, fools=(3,), scores=[10, 0, -3, -9], plus10=[1, 0, 0, 0],
                     round=2, dealer=0)
    assert state.scores() == (10, 0, -3, -9)


def test_F9_set_up_hand_sizes_come_from_a_sequence_of_tricks() -> None:
    """F4, F9: every seat plays the first trick, the Fools sit out each later one.

    Issue 22, item 15: hand sizes no sequence of tricks gives loaded.  Ten tricks take
    4 + 9 * 3 = 31 of the 48 cards; a seat sat out at most every other one of them.
    """
    with pytest.raises(InvalidStateError, match=r"41 cards were played .* \(F4, F9\)"):
        position(hands=[["R5", "G2"], ["B3", "G4", "W1"], ["G6"], ["G8"]], fools=(3,))
    cards = [f"G{v}" for v in range(2, 18)] + ["R2"]
    with pytest.raises(InvalidStateError, match=r"seat 0 holds 8 cards, so it sat out 6 of "
                                                r"the 10 tricks .* at most 5"):
        position(hands=[cards[:8], cards[8:11], cards[11:13], cards[13:17]], fools=(3,))
    # The Fool played the last trick: it sat out at most 4 of the 9 before.
    with pytest.raises(InvalidStateError, match=r"seat 3 holds 7 cards, so it sat out 5 of "
                                                r"the 10 tricks .* at most 4"):
        position(hands=[cards[:5], cards[5:8], cards[8:10], cards[10:17]], fools=(3,))
    state = position(hands=[cards[:7], cards[7:10], cards[10:13], cards[13:17]], fools=(3,))
    assert [len(h) for h in state.to_dict()["hands"]] == [7, 3, 3, 4]


def test_engine_set_up_refuses_a_game_going_on_without_a_legal_action() -> None:
    # Issue 22, item 17: the engine's own entry made a live position whose seat to act
    # held no card.
    game = Fool(players=4)
    values = {"round": 1, "dealer": 3, "leader": 0, "fools": [], "trick": [],
              "hands": [[], [1], [2], [3]], "scores": [0] * 4, "plus10": [0] * 4,
              "rng": [1, 2, 3, 4]}
    with pytest.raises(InvalidStateError, match="seat to act has no legal action"):
        game._engine.set_up(game, 5, values)


def test_engine_set_up_refuses_values_that_do_not_fit() -> None:
    game = Fool(players=4)
    good = {"round": 1, "dealer": 3, "leader": 0, "fools": [], "trick": [],
            "hands": [[0], [1], [2], [3]], "scores": [0] * 4, "plus10": [0] * 4,
            "rng": [1, 2, 3, 4]}
    assert game._engine.set_up(game, 5, good).current_player == 0
    for key, bad in [("round", 0), ("leader", 4), ("fools", [0, 1]), ("trick", [[0, 83]]),
                     ("trick", [[9, 0]]), ("trick", [[0, 0]] * 4), ("hands", [[0]] * 3),
                     ("hands", [[82] * 7, [], [], []]), ("scores", [2**40] * 4),
                     ("plus10", [300] * 4), ("rng", [0, 0, 0, 0]), ("rng", [2**64] * 4),
                     ("hands", None), ("fools", "0")]:
        with pytest.raises(InvalidStateError, match="does not fit"):
            game._engine.set_up(game, 5, {**good, key: bad})
    with pytest.raises(TypeError):
        game._engine.set_up(game, 5, None)


@pytest.mark.parametrize(
    ("players", "start", "deck", "fools"),
    [(3, 0, (17, 13, 11, 8, 3), 1), (9, 0, (27, 23, 21, 15, 6), 2),
     (4, 4, (17, 13, 11, 8, 3), 1), (4, 0, (17, 13, 11, 8, 3), 2),
     (4, 0, (17, 13, 11, 8, 3), 0), (4, 0, (28, 13, 11, 8, 3), 1),
     (4, 0, (17, 13, 11, 1, 3), 1), (4, 0, (17, 13, 11, 8, 7), 1),
     (4, 0, (17, 13, 11, 8, 2), 1)],
)
def test_engine_config_refuses_what_it_cannot_play(players: int, start: int,
                                                    deck: tuple[int, ...], fools: int) -> None:
    from boardcore._engine import fool as engine

    with pytest.raises(ValueError, match="not a configuration of fool"):
        engine.config(players, start, deck, fools)
    for bad in [(4, 0, (17, 13, 11, 8), 1), (4, -1, (17, 13, 11, 8, 3), 1),
                (4, 0, (17, 13, 11, 8, 300), 1), ("4", 0, (17, 13, 11, 8, 3), 1)]:
        with pytest.raises((ValueError, TypeError, OverflowError)):
            engine.config(*bad)


def test_tampered_trick_order_and_following_are_refused() -> None:
    base: dict[str, Any] = {"hands": [["R5", "G2"], ["R9", "G3"], ["R3", "G6"], ["G8", "G9"]],
                            "fools": (3,)}
    with pytest.raises(InvalidStateError, match="seat 0 plays card 0"):
        position(**base, trick=((1, "R10"),))
    with pytest.raises(InvalidStateError, match="lead colour"):
        position(**base, trick=((0, "R10"), (1, "G11")))
    with pytest.raises(InvalidStateError, match="also in a hand"):
        position(**base, trick=((0, "R9"),))
    with pytest.raises(InvalidStateError, match="fewer than 3"):
        position(**base, trick=((0, "R10"), (1, "R11"), (2, "R12")))
    with pytest.raises(InvalidStateError, match="sits out"):
        position(**base, leader=3)


def test_state_from_dict_accepts_dict_subclasses() -> None:
    from collections import OrderedDict

    d = _midgame()
    assert Fool(players=4).state_from_dict(OrderedDict(d)).to_dict() == d


def test_state_from_dict_refuses_non_dicts() -> None:
    game = Fool(players=4)
    for bad in (None, [], "state", 3):
        with pytest.raises(InvalidStateError):
            game.state_from_dict(bad)


def test_first_trick_without_fools_needs_full_hands() -> None:
    state = first_trick(4, {0: ["W1"], 1: ["R5"]})
    play(state, "W1")
    assert state.current_player == 1
    with pytest.raises(InvalidStateError, match="first trick"):
        position(hands=[["R5", "G2"], ["R9"], ["R3"], ["G8"]], fools=())


def test_F4_no_fools_on_the_first_trick_so_everyone_plays() -> None:
    state = first_trick(4, {0: ["Y3"], 1: ["Y4"], 2: ["Y5"], 3: ["Y2"]})
    order = []
    for c in ("Y3", "Y4", "Y5", "Y2"):
        order.append(state.current_player)
        play(state, c)
    assert order == [0, 1, 2, 3]
    assert state.to_dict()["fools"] == [3] and state.current_player == 2


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False)
    | st.sampled_from(["G2", "W1", "R23", "B15", "G17", "X", ""]),
    lambda inner: st.lists(inner, max_size=5),
    max_leaves=12,
)
_FIELDS = ["round", "dealer", "leader", "fools", "trick", "hands", "scores", "plus10",
           "history", "rng"]


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(field=st.sampled_from(_FIELDS), value=_JSON, cut=st.integers(0, 12))
def test_fuzzed_state_data_loads_safely_or_is_refused(field: str, value: Any, cut: int) -> None:
    d = _midgame()
    if field in ("hands", "trick") and isinstance(value, list) and cut < len(d[field]):
        value = d[field][:cut] + value  # near-valid: a prefix of the real field, then noise
    d[field] = value
    for load in (Fool(players=4).state_from_dict, lambda d: set_up(Fool(players=4), d)):
        try:
            state = load(d)
        except InvalidStateError:
            continue
        state.rollout(seed=cut)  # whatever loads must play to the end without harm
        assert state.is_over()


# -- F6: what play revealed (voids) -----------------------------------------------------

def test_F6_playing_off_the_lead_colour_shows_a_void_for_the_round() -> None:
    state = position(hands=[["R5", "G2"], ["B3", "G4", "W1"], ["R6", "G6"], ["G8"]],
                     fools=(3,))
    assert "voids" not in state.to_dict()
    play(state, "R5", "W1")                       # a wild 1 shows nothing
    assert "voids" not in state.to_dict()
    play(state, "R6")
    assert "voids" not in state.to_dict()         # following shows nothing either
    state = position(hands=[["R5", "G2"], ["B3", "G4", "W1"], ["R6", "G6"], ["G8"]],
                     fools=(3,))
    play(state, "R5", "B3")
    assert state.to_dict()["voids"] == [[], ["red"], [], []]
    assert state.explain(card("R6")).void is None
    play(state, "R6")                             # the trick ends; the void stays
    assert state.to_dict()["voids"] == [[], ["red"], [], []]


def test_F6_voids_start_afresh_each_round_and_are_gone_once_over() -> None:
    state = position(hands=[["R5"], ["B3", "G4"], ["R6", "G6"], ["G8", "G9", "Y10"]],
                     fools=(3,))
    play(state, "R5", "B3")
    assert state.to_dict()["voids"] == [[], ["red"], [], []]
    play(state, "R6")                             # seat 0 is out: a new round is dealt
    assert state.to_dict()["round"] == 2 and "voids" not in state.to_dict()
    state = Fool(players=4).new_state(seed=3)
    state.rollout(seed=3)
    assert "voids" not in state.to_dict()


def test_F6_voids_in_set_up_positions() -> None:
    hands = [["R5", "G2"], ["B3", "G4"], ["R6", "G6"], ["G8", "Y9"]]
    state = position(hands=hands, fools=(1,), voids=[[], ["red"], [], ["blue", "red"]])
    assert state.to_dict()["voids"] == [[], ["red"], [], ["red", "blue"]]
    # The trick's own voids are added to those given.
    state = position(hands=[["G2"], ["G4"], ["R6", "G6"], ["G8", "Y10"]], fools=(3,),
                     trick=((0, "R5"), (1, "B3")), voids=[["yellow"], [], [], []])
    assert state.to_dict()["voids"] == [["yellow"], ["red"], [], []]
    for voids, match in [([[], ["green"], [], []], "holds G4"),
                         ([[], ["pink"], [], []], "distinct colours"),
                         ([[], ["red", "red"], [], []], "distinct colours"),
                         ([[], [], []], "voids"), ("red", "voids")]:
        with pytest.raises(InvalidStateError, match=match):
            position(hands=hands, fools=(1,), voids=voids)
    with pytest.raises(InvalidStateError, match="once the game is over"):
        position(hands=hands, fools=(1,), voids=[[], ["red"], [], []],
                 scores=[-80, 0, 0, 0])
    # A document's voids must be the ones its history gives.
    doc = Fool(players=4).new_state(seed=21).to_dict()
    doc["voids"] = [["red"], [], [], []]
    with pytest.raises(InvalidStateError, match="unknown field 'voids'"):
        Fool(players=4).state_from_dict(doc)


# -- Determinization ----------------------------------------------------------------------

def _chi_square_critical(df: int) -> float:
    """The chi-square value exceeded with probability 0.001 (Wilson-Hilferty)."""
    z = 3.0902
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def _consistent_deals(state: FoolState, seat: int) -> Counter[tuple[tuple[str, ...], ...]]:
    # Every deal of the unseen cards (wild 1s as distinct cards) keeping every void.
    doc = state.to_dict()
    voids = doc.get("voids", [[] for _ in doc["hands"]])
    others = [p for p in range(len(doc["hands"])) if p != seat]
    unseen = [c for p in others for c in doc["hands"][p]]
    names = {"G": "green", "R": "red", "Y": "yellow", "B": "blue"}
    deals: Counter[tuple[tuple[str, ...], ...]] = Counter()
    for perm in itertools.permutations(unseen):
        hands, k = [], 0
        for p in others:
            hand = tuple(sorted(perm[k:k + len(doc["hands"][p])], key=card))
            k += len(hand)
            if any(c != "W1" and names[c[0]] in voids[p] for c in hand):
                break
            hands.append(hand)
        else:
            deals[tuple(hands)] += 1
    return deals


@pytest.mark.parametrize("players", [4, 6])
def test_F6_determinizations_are_uniform_over_the_deals_that_keep_the_voids(
        players: int) -> None:
    """Small positions with voids: every consistent deal as often as it should."""
    from boardcore._engine import _search
    from boardcore._engine import fool as engine

    if players == 4:   # one void from the trick, one given; two wild 1s unseen
        state = position(hands=[["G11", "B2"], ["R4", "W1"], ["G2", "Y6", "W1"], ["G3", "R6"]],
                         fools=(3,), trick=((0, "G10"), (1, "R9")),
                         voids=[[], [], [], ["yellow"]])
    else:              # three groups of seats with voids and one without
        state = position(6, hands=[["G20", "B9", "B10"], ["R2", "W1"], ["G2"], ["Y2", "B2"],
                                   ["G3"], ["R3", "W1"]], fools=(2,),
                         voids=[[], ["green"], ["red"], ["green"], ["yellow"], []])
    expected = _consistent_deals(state, 0)
    assert len(expected) > 20
    samples = 12000
    seen: Counter[tuple[tuple[str, ...], ...]] = Counter()
    for i in range(samples):
        hands = engine._determinize_kernel(state, 0, i)
        assert hands[0] == state.to_dict()["hands"][0]
        seen[tuple(tuple(h) for p, h in enumerate(hands) if p != 0)] += 1
    assert set(seen) <= set(expected)
    total = sum(expected.values())
    chi2 = sum((seen[k] - samples * v / total) ** 2 / (samples * v / total)
               for k, v in expected.items())
    assert chi2 < _chi_square_critical(len(expected) - 1), (chi2, len(expected))
    # The kernel's draw is the determinization a search samples.
    assert _search.determinize(state, 0, seed=5).to_dict()["hands"] == \
        engine._determinize_kernel(state, 0, 5)


def test_F6_determinizations_keep_what_the_seat_knows_in_played_games() -> None:
    from boardcore._engine import _search

    for players in (5, 8):
        game = Fool(players=players)
        for seed in range(4):
            state = game.new_state(seed=seed)
            rng = random.Random(seed)
            for step in range(60):
                seat = state.current_player
                if seat is None:
                    break
                if step % 6 == 5:
                    # The loader checks every void against the hands it is given.
                    other = _search.determinize(state, seat, seed=step)
                    assert other.view(seat) == state.view(seat)
                    assert other.to_dict().get("voids") == state.to_dict().get("voids")
                    assert np.array_equal(other.observation(seat), state.observation(seat))
                state.apply(rng.choice(state.legal_actions()))


def test_determinize_kernel_checks_its_arguments() -> None:
    from boardcore._engine import fool as engine

    state = Fool(players=4).new_state(seed=1)
    for seat, repeat in ((4, 1), (-1, 1), (0, 0)):
        with pytest.raises(ValueError):
            engine._determinize_kernel(state, seat, 1, repeat)
    with pytest.raises(TypeError):
        engine._determinize_kernel("state", 0, 1)  # type: ignore[arg-type]


# -- Observations -------------------------------------------------------------------------

def test_observation_planes_of_a_known_position() -> None:
    state = position(hands=[["G2", "W1"], ["G4"], ["R6", "G6", "W1"], ["G8", "Y9", "Y10"]],
                     fools=(3,), trick=((0, "R5"), (1, "B3")), scores=[-20, 10, 0, 0],
                     plus10=[0, 1, 0, 0], round=2, dealer=0)
    game = state.game
    assert game.observation_shape == (2 * 83 + 4 + 17 * 4,)
    planes = dict(zip([n for n, _ in game.observation_planes],
                      np.split(state.observation(2),
                               np.cumsum([k for _, k in game.observation_planes])[:-1]),
                      strict=True))
    assert np.flatnonzero(planes["hand"]).tolist() == [card("G6"), card("R6"), 82]
    assert planes["hand"][82] == pytest.approx(1 / 6)
    played = planes["played"]
    assert played[card("R5")] == played[card("B3")] == 1 and played[card("G2")] == 0
    assert played[82] == pytest.approx(1 / 6)     # three wild 1s, two in hands
    trick = planes["trick"].reshape(4, 6)         # seats from the observer: 2, 3, 0, 1
    assert trick[2].tolist() == pytest.approx([0, 1, 0, 0, 0, 5 / 27])
    assert trick[3].tolist() == pytest.approx([0, 0, 0, 1, 0, 3 / 27])
    assert not trick[:2].any()
    assert planes["leader"].tolist() == [0, 0, 1, 0]
    assert planes["lead_colour"].tolist() == [0, 1, 0, 0]
    assert planes["fools"].tolist() == [0, 1, 0, 0]
    assert planes["voids"].reshape(4, 4).tolist() == [[0] * 4, [0] * 4, [0] * 4, [0, 1, 0, 0]]
    assert planes["hand_sizes"].tolist() == pytest.approx([k / 12 for k in (3, 3, 2, 1)])
    assert planes["to_act"].tolist() == [1, 0, 0, 0]
    assert planes["scores"].tolist() == pytest.approx([0, 0, -0.2, 0.1])
    assert planes["plus10"].tolist() == pytest.approx([0, 0, 0, 1 / 6])
    assert planes["dealer"].tolist() == [0, 0, 1, 0]


# -- Explained moves ------------------------------------------------------------------------

def test_explain_names_the_trick_winner_the_fool_and_the_round_score() -> None:
    state = position(hands=[["R5"], ["R9", "G3"], ["R3", "G6"], ["G8", "G9", "Y10"]],
                     fools=(3,))
    first = state.explain(card("R5"))
    assert first == FoolMove(player=0, move="R5", lead_colour="red", void=None,
                             trick=((0, "R5"),), winner=None, fools=frozenset(),
                             round_over=False, gains=(0, 0, 0, 0), game_over=False)
    play(state, "R5", "R9")
    # Before the card is down, seat 2 knows its own score (-6 for G6) and seat 0's (+10,
    # its hand is empty), not the cards seats 1 and 3 are left holding.
    told = state.explain(card("R3"))
    last = FoolMove(player=2, move="R3", lead_colour="red", void=None,
                    trick=((0, "R5"), (1, "R9"), (2, "R3")), winner=1,
                    fools=frozenset({2}), round_over=True, gains=(10, -3, -6, -27),
                    game_over=False)
    assert told == dataclasses.replace(last, gains=(10, None, -6, None), game_over=None)
    play(state, "R3")
    assert state.last_move == last
    # What the move tells never shows the new deal.
    assert "G" not in "".join(c for _s, c in last.trick if c != "R")


def test_explain_of_a_round_ending_card_shows_no_hidden_hand() -> None:
    # issue 22.10: two positions seat 2 sees alike explain alike, though seats 1 and 3
    # hold their cards the other way round (so the round's end scores them otherwise).
    told = []
    for hands in ([["R5"], ["R9", "G3"], ["R3", "G6"], ["G8", "G9", "Y10"]],
                  [["R5"], ["R9", "G8"], ["R3", "G6"], ["G3", "G9", "Y10"]]):
        state = position(hands=hands, fools=(3,))
        play(state, "R5", "R9")
        told.append((state.view(2), state.explain(card("R3"))))
    assert told[0] == told[1]
    # The end of the game, too: seat 3's -70 ends it only with 10 or more in its hand.
    for hands in ([["R5"], ["R9", "G3"], ["R3", "G6"], ["G8", "G9", "Y10"]],
                  [["R5"], ["R9", "G9"], ["R3", "G6"], ["G3", "G8", "Y10"]]):
        state = position(hands=hands, fools=(3,), scores=[0, 0, 0, -70], round=3, dealer=1,
                         plus10=[0, 0, 0, 0])
        play(state, "R5", "R9")
        assert state.explain(card("R3")).game_over is None
        play(state, "R3")
        assert state.last_move is not None and state.last_move.game_over


def test_explain_a_void_a_wild_lead_and_the_end_of_the_game() -> None:
    state = position(hands=[["W1", "G2"], ["B4", "R5"], ["G6", "B7"], ["G8", "G9"]],
                     fools=(3,))
    move = state.explain(card("W1"))
    assert move.lead_colour is None and move.void is None
    play(state, "W1", "B4")
    move = state.explain(card("B7"))
    assert move.lead_colour == "blue" and move.void is None
    state = position(hands=[["R5"], ["B4", "G3"], ["R3", "G6"], ["G8", "G9", "Y10"]],
                     fools=(3,), scores=[0, 0, 0, -70], round=3, dealer=1, plus10=[0, 0, 0, 0])
    play(state, "R5")
    move = state.explain(card("G3"))
    assert move.void == "red" and move.winner is None
    play(state, "G3", "R3")
    assert state.last_move is not None and state.last_move.game_over
    assert state.last_move.gains == (10, -4, -6, -27) and state.last_move.fools == {1}
    assert state.last_move.winner == 0 and state.last_move.round_over


# -- Pictures ---------------------------------------------------------------------------------

def test_picture_of_a_known_position() -> None:
    import xml.etree.ElementTree as ET

    from boardcore.pictures import HIGHLIGHT

    state = position(hands=[["R5"], ["R9", "G3"], ["R3", "G6", "W1"], ["G8", "G9"]],
                     fools=(3,), voids=[[], [], [], ["yellow"]])
    play(state, "R5", "R9")
    svg = state.svg(size=600, perspective=2)
    root = ET.fromstring(svg)
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "Fool · round 1 · dealer: seat 3 · seen by seat 2" in texts
    assert "seat 1 played R9; seat 2 to play" in texts
    assert "red" in texts and "seat 2 to play" in texts and "Fool" in texts
    assert texts.count("9") >= 1 and "5" in texts          # the trick's cards
    backs = [r for r in root.iter("{http://www.w3.org/2000/svg}rect")
             if r.get("fill") == "#5b6b8c"]
    assert len(backs) == 1 + 2                             # seats 1 and 3; seat 0 has none
    assert "no cards" in texts and "3" in texts and "6" in texts and "1" in texts
    assert HIGHLIGHT in svg and "no" in texts              # the last card; seat 3's void
    full = state.svg(size=600)
    assert "#5b6b8c" not in full and full.count(HIGHLIGHT) == 1
    play(state, "R3")                                      # the round ends: last trick shown
    texts = [t.text for t in ET.fromstring(state.svg()).iter("{http://www.w3.org/2000/svg}text")]
    assert "last trick" in texts and "wins" in texts
    assert "seat 2 played R3; seat 1 takes the trick, Fool: seat 2; round scored; " \
        "seat 1 to play" in texts


def test_reference_replays_the_golden_playthroughs() -> None:
    import json

    from tests import golden
    from tests.conftest import HEADER
    from tests.reference import fool as ref

    paths = sorted(golden.DATA.glob("fool_playthrough_*.json"))
    assert len(paths) >= 3
    parse = {ref.name(kind): kind for kind in range(len(ref.CARDS))}
    for path in paths:
        doc = json.loads(path.read_text(encoding="utf-8"))
        oracle = ref.FoolRef(doc["players"], doc["seed"], **doc["options"])
        oracle.rollout(doc["player_seed"])
        assert [ref.name(a) for a in oracle.history] == doc["actions"]
        assert oracle.scores == doc["outcome"]["scores"]
        assert sorted(oracle.winners()) == doc["outcome"]["winners"]
        final = {k: v for k, v in doc["final"].items() if k not in HEADER}
        assert oracle.to_dict() == final
        replayed = ref.FoolRef(doc["players"], doc["seed"], **doc["options"])
        for text in doc["actions"]:
            replayed.apply(parse[text])
        assert replayed.to_dict() == final
