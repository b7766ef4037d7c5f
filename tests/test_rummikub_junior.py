"""Rummikub Junior: one or more tests per rule K1-K12 of the rules page.

Then notation, views, pictures, options, records, simulate, hostile input and typing.

The golden playthroughs (tests/data/rummikub_junior_playthrough_*.json) are checked by
tests/test_golden.py, the doctests by tests/test_docs.py.
"""

from __future__ import annotations

import itertools
import json
import pickle
import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any

import numpy as np
import pytest

import boardcore
from boardcore import (
    ConfigurationError,
    IllegalActionError,
    InvalidStateError,
    NotationError,
)
from boardcore._engine import _search
from boardcore.pictures import HIGHLIGHT
from boardcore.rummikub_junior import RummikubJunior, RummikubJuniorMove, RummikubJuniorView
from tests.conftest import HEADER, set_up
from tests.reference import rummikub_junior as ref
from tests.reference._rng import Rng

ALL = ref.TILES[:40] + ["J"] * 4
SVG = "{http://www.w3.org/2000/svg}"


def position(
    racks: list[str],
    table: tuple[str, ...] = (),
    *,
    pool: list[str] | None = None,
    stars: list[int] | None = None,
    current: int | None = 0,
    laid: bool = False,
    pending: bool = False,
    passes: int = 0,
    went_out: int | None = None,
) -> Any:
    """A set-up state from racks written ``"R3 R4 J"``.

    The pool defaults to every tile left, in tile order.
    """
    rack_lists = [r.split() for r in racks]
    players = len(racks)
    if pool is None:
        used = [t for r in rack_lists for t in r] + [
            "J" if w.startswith("J(") else w for run in table for w in run.split()
        ]
        pool = list(ALL)
        for t in used:
            pool.remove(t)
    stars = stars if stars is not None else [6] * players
    d = {
        "game": "rummikub_junior", "rules_version": 1, "players": players,
        "options": {"start_player": 0}, "seed": 1,
        "current_player": current,
        "racks": [sorted(r, key=ref.ORDER.__getitem__) for r in rack_lists],
        "stars": stars, "bank": 56 - sum(stars), "table": list(table), "pool": pool,
        "laid_this_turn": laid, "joker_pending": pending, "passes": passes,
        "went_out": went_out, "rng": [1, 2, 3, 4], "history": [],
    }
    return set_up(boardcore.make("rummikub_junior", players=players), d)


def play(state: Any, *texts: str) -> None:
    for text in texts:
        state.apply(state.parse_action(text))


def legal_texts(state: Any) -> list[str]:
    return [state.action_to_str(a) for a in state.legal_actions()]


def new_runs(state: Any) -> list[str]:
    return [t for t in legal_texts(state) if t.startswith("new ")]


# -- K1: players and the first seat ---------------------------------------------------

def test_K1_two_to_four_players_seat_0_starts() -> None:
    for n in (2, 3, 4):
        state = boardcore.make("rummikub_junior", players=n).new_state(seed=n)
        assert state.current_player == 0
        assert len(state.scores()) == n
    for bad in (1, 5):
        with pytest.raises(ConfigurationError, match=r"2\.\.4 players"):
            boardcore.make("rummikub_junior", players=bad)


def test_K1_start_player_option() -> None:
    game = boardcore.make("rummikub_junior", players=3, start_player=2)
    assert game.options["start_player"] == 2
    state = game.new_state(seed=4)
    assert state.current_player == 2
    state.apply(0)  # pass
    assert state.current_player == 0
    for bad in (3, -1, True, "1", 1.0, None):
        with pytest.raises(ConfigurationError, match="start_player"):
            boardcore.make("rummikub_junior", players=3, start_player=bad)


# -- K2: tiles and stars --------------------------------------------------------------

def test_K2_forty_numbered_tiles_and_four_jokers_six_stars_each() -> None:
    for n in (2, 3, 4):
        d = boardcore.make("rummikub_junior", players=n).new_state(seed=10 + n).to_dict()
        tiles = d["pool"] + [t for r in d["racks"] for t in r]
        assert sorted(tiles, key=ref.ORDER.__getitem__) == ALL
        assert d["stars"] == [6] * n
        assert d["bank"] == 56 - 6 * n


# -- K3: only runs ----------------------------------------------------------------------

def test_K3_no_groups_of_equal_numbers() -> None:
    state = position(["R5 B5 Y5 K5 R6 B7", "K1 K2 K3"])
    assert legal_texts(state) == ["pass"]


def test_K3_a_run_is_three_consecutive_tiles_of_one_colour() -> None:
    state = position(["R1 R2 B3 R4 R5 R6", "K1"])
    assert new_runs(state) == ["new R4 R5 R6"]
    state = position(["R1 R2 R3 R4", "K1"])
    assert new_runs(state) == ["new R1 R2 R3", "new R1 R2 R3 R4", "new R2 R3 R4"]
    with pytest.raises(NotationError, match="one colour"):
        state.parse_action("new R1 B2 R3")
    with pytest.raises(NotationError, match="go up by one"):
        state.parse_action("new R1 R3 R4")
    with pytest.raises(NotationError, match=r"3\.\.10 tiles"):
        state.parse_action("new R1 R2")


def test_K3_runs_stay_within_one_to_ten() -> None:
    state = position(["K9 K10 J", "R1"])
    assert new_runs(state) == ["new J(K8) K9 K10"]
    state = position(["R1 R2 R3", "K1"], ("B1 B2 B3 B4 B5 B6 B7 B8 B9 B10",))
    assert not any(t.startswith("extend 0") for t in legal_texts(state))
    # Extending run 0 left with a joker: no tile could go there, written with "*".
    assert state.action_to_str(2 + 0 + 1) == "extend 0 left J(*)"


# -- K4: the deal -----------------------------------------------------------------------

def test_K4_shuffled_pool_each_player_draws_six() -> None:
    state = boardcore.make("rummikub_junior", players=3).new_state(seed=2024)
    tiles = ref.TILES[:40] + ["J"] * 4
    Rng(2024).shuffle(tiles)
    d = state.to_dict()
    for p in range(3):
        assert d["racks"][p] == sorted(tiles[6 * p:6 * p + 6], key=ref.ORDER.__getitem__)
        assert state.view(p).hand_sizes == (6, 6, 6)
    assert d["pool"] == tiles[18:]
    assert state.view(0).draw_pile_size == 26


# -- K5: a turn ---------------------------------------------------------------------------

def test_K5_lay_in_any_order_as_often_as_the_rack_allows_then_end() -> None:
    state = position(["R1 R2 R3 B5 B6 B7 R4 Y9", "K1 K2"])
    assert "end" not in legal_texts(state)
    play(state, "new B5 B6 B7")
    assert "pass" not in legal_texts(state) and "end" in legal_texts(state)
    play(state, "new R1 R2 R3", "extend 1 right R4")
    assert state.current_player == 0
    assert state.to_dict()["table"] == ["B5 B6 B7", "R1 R2 R3 R4"]
    play(state, "end")
    assert state.current_player == 1
    assert not state.view(1).laid_this_turn


def test_K5_set_up_laid_this_turn_needs_a_table() -> None:
    # Issue 22, item 15: laid_this_turn with an empty table loaded; what is laid stays.
    with pytest.raises(InvalidStateError, match=r"table is empty.*\(K5\)"):
        position(["R1 R2 R3", "K1"], laid=True)
    assert position(["R1 R2 R3", "K1"], ("B1 B2 B3",), laid=True).legal_actions()


def test_K7_set_up_stars_are_earned_on_the_table() -> None:
    """Issue 22, item 15: 30 stars with nothing laid loaded.

    Every seat began with 6 (K2); a star came for each tile laid and each run (K7) --
    one more while a taken joker waits in the rack -- and the bonus of going out (K10).
    """
    with pytest.raises(InvalidStateError, match=r"adds up to 30, .* began with 12 and the 0 "
                                                r"tiles and 0 runs .* at most 0 more"):
        position(["R1 R2 R3", "K1"], stars=[30, 0])
    with pytest.raises(InvalidStateError, match=r"adds up to 17, .* at most 4 more"):
        position(["R1 R2 R3", "K1"], ("B1 B2 B3",), stars=[11, 6])
    assert position(["R1 R2 R3", "K1"], ("B1 B2 B3",), stars=[10, 6]).scores() == (10, 6)
    assert position(["R1 R2 R3 J", "K1"], ("B1 B2 B3",), stars=[11, 6], laid=True,
                    pending=True).scores() == (11, 6)


def test_K5a_new_run_of_at_least_three_from_the_rack() -> None:
    state = position(["Y2 Y3 Y4 Y5 K7", "R1"])
    assert new_runs(state) == [
        "new Y2 Y3 Y4", "new Y2 Y3 Y4 Y5", "new Y3 Y4 Y5",
    ]
    play(state, "new Y2 Y3 Y4 Y5")
    assert state.view(0).hand == ("K7",)


def test_K5b_extend_a_run_at_either_end_with_a_tile_or_joker() -> None:
    state = position(["B2 B6 J", "R1"], ("B3 B4 B5",))
    assert [t for t in legal_texts(state) if t.startswith("extend")] == [
        "extend 0 left B2", "extend 0 left J(B2)", "extend 0 right B6", "extend 0 right J(B6)",
    ]
    play(state, "extend 0 left B2", "extend 0 right J(B6)")
    assert state.to_dict()["table"] == ["B2 B3 B4 B5 J(B6)"]


def test_K5c_swap_puts_the_tile_in_and_the_joker_must_be_laid_next() -> None:
    state = position(["R4 B1 B2 K9", "K1"], ("R3 J(R4) R5",))
    assert "swap 0 1" in legal_texts(state)
    play(state, "swap 0 1")
    assert state.to_dict()["table"] == ["R3 R4 R5"]
    assert state.view(0).hand == ("B1", "B2", "K9", "J")
    assert state.view(0).joker_pending
    # Only actions laying a joker: no end, no pass, no tile-only lay.
    assert legal_texts(state) == [
        "extend 0 left J(R2)", "extend 0 right J(R6)", "new B1 B2 J(B3)",
    ]
    play(state, "new B1 B2 J(B3)")
    assert not state.view(0).joker_pending
    assert "end" in legal_texts(state)


def test_K5c_swap_is_illegal_without_a_place_for_the_joker() -> None:
    full = "R1 R2 R3 J(R4) R5 R6 R7 R8 R9 R10"
    state = position(["R4 B7", "K1"], (full,))
    assert legal_texts(state) == ["pass"]
    with pytest.raises(IllegalActionError):
        state.apply(state.parse_action("swap 0 3"))
    state = position(["R4 B7 B8", "K1"], (full,))
    assert "swap 0 3" in legal_texts(state)
    play(state, "swap 0 3")
    assert legal_texts(state) == ["new J(B6) B7 B8", "new B7 B8 J(B9)"]


def test_K5c_swap_needs_the_exact_tile() -> None:
    state = position(["R5 B4", "K1"], ("B3 J(B4) B5",))
    assert "swap 0 1" in legal_texts(state)
    state = position(["R4 B6", "K1"], ("B3 J(B4) B5",))
    assert not any(t.startswith("swap") for t in legal_texts(state))
    with pytest.raises(IllegalActionError):
        state.apply(state.parse_action("swap 0 1"))


# -- K6: jokers -----------------------------------------------------------------------------

def test_K6_run_may_hold_several_jokers_but_one_numbered_tile() -> None:
    state = position(["J J J", "K1"])
    assert legal_texts(state) == ["pass"]
    state = position(["R5 J J", "K1"])
    runs = new_runs(state)
    assert "new J(R3) J(R4) R5" in runs and "new R5 J(R6) J(R7)" in runs
    assert "new J(R4) R5 J(R6)" in runs
    play(state, "new J(R4) R5 J(R6)")
    assert state.is_over()
    with pytest.raises(NotationError, match="at least one numbered tile"):
        state.parse_action("new J(R1) J(R2) J(R3)")


def test_K6_player_chooses_the_value_of_an_end_joker() -> None:
    state = position(["R3 R4 J", "K1"])
    assert new_runs(state) == ["new J(R2) R3 R4", "new R3 R4 J(R5)"]


def test_K6_joker_may_stand_for_a_held_tile_or_one_on_the_table() -> None:
    state = position(["R3 R4 R5 J", "K1"], ("B7 B8 B9",))
    runs = new_runs(state)
    assert "new R3 J(R4) R5" in runs  # R4 is in the rack
    assert "extend 0 right J(B10)" in legal_texts(state)
    state = position(["B3 J J", "K1"], ("B4 B5 B6",))
    assert "new B3 J(B4) J(B5)" in new_runs(state)  # B4 and B5 lie on the table


def test_K6_a_joker_standing_for_a_table_tile_can_never_be_swapped() -> None:
    state = position(["R1 R2 B7", "K1"], ("B4 B5 B6", "B3 J(B4) J(B5)"))
    assert not any(t.startswith("swap") for t in legal_texts(state))
    # Every seat and the pool lack B4 and B5: they lie in run 0.
    d = state.to_dict()
    assert all("B4" not in r and "B5" not in r for r in d["racks"] + [d["pool"]])


def test_K6_jokers_are_interchangeable_after_a_swap() -> None:
    state = position(["R4 J B1 B2", "K1"], ("R3 J(R4) R5",))
    play(state, "swap 0 1")
    assert state.view(0).hand.count("J") == 2
    assert "new B1 J(B2) J(B3)" in legal_texts(state)
    play(state, "new B1 B2 J(B3)")  # one of two jokers; either counts as the taken one
    assert state.view(0).hand == ("J",)
    assert not state.view(0).joker_pending


def test_K6_runs_of_one_colour_lie_apart_and_never_merge() -> None:
    state = position(["R4 R8 R9 R10", "K1"], ("R1 R2 R3", "R5 R6 R7"))
    play(state, "extend 0 right R4")
    assert state.to_dict()["table"] == ["R1 R2 R3 R4", "R5 R6 R7"]
    play(state, "new R8 R9 R10")
    assert state.to_dict()["table"] == ["R1 R2 R3 R4", "R5 R6 R7", "R8 R9 R10"]


# -- K7: stars for laying ---------------------------------------------------------------------

def test_K7_new_run_of_three_earns_four_stars_seed_example() -> None:
    state = position(["R1 R2 R3 K9", "K1"])
    play(state, "new R1 R2 R3")
    assert state.scores() == (6 + 4, 6)
    assert state.view(0).bank == 56 - 16


def test_K7_three_tiles_onto_existing_runs_earn_three_stars_seed_example() -> None:
    state = position(["R4 B2 Y9 K9", "K1"], ("R1 R2 R3", "B3 B4 B5", "Y6 Y7 Y8"))
    play(state, "extend 0 right R4", "extend 1 left B2", "extend 2 right Y9")
    assert state.scores() == (6 + 3, 6)


def test_K7_jokers_and_swapped_tiles_earn_a_star_each() -> None:
    state = position(["R5 J J B1", "K1"], ("Y1 J(Y2) Y3",))
    play(state, "new J(R3) J(R4) R5")
    assert state.scores() == (6 + 4, 6)
    state = position(["Y2 B1 B2", "K1"], ("Y1 J(Y2) Y3",))
    play(state, "swap 0 1")
    assert state.scores() == (7, 6)


def test_K7_retaken_joker_earns_nothing_more() -> None:
    state = position(["Y2 B1 B2 K9", "K1"], ("Y1 J(Y2) Y3",))
    play(state, "swap 0 1", "extend 0 right J(Y4)")
    assert state.scores() == (6 + 1, 6)
    state = position(["Y2 B1 B2 K9", "K1"], ("Y1 J(Y2) Y3",))
    play(state, "swap 0 1", "new B1 B2 J(B3)")
    assert state.scores() == (6 + 1 + 2 + 1, 6)
    state = position(["Y2 B1 J K9", "K1"], ("Y1 J(Y2) Y3",))
    play(state, "swap 0 1", "new B1 J(B2) J(B3)")  # one joker from the rack earns
    assert state.scores() == (6 + 1 + 2 + 1, 6)


# -- K8: not laying ----------------------------------------------------------------------------

def test_K8_pass_pays_one_star_and_draws_one_tile() -> None:
    state = position(["R1 R2 R3", "K1"], pool=["B7", "B8"] + [
        t for t in ALL if t not in ("R1", "R2", "R3", "K1", "B7", "B8")])
    assert legal_texts(state)[0] == "pass"  # legal although R1 R2 R3 could be laid
    play(state, "pass")
    assert state.scores() == (5, 6)
    assert state.view(0).hand == ("R1", "R2", "R3", "B7")
    assert state.view(0).draw_pile_size == 44 - 4 - 1
    assert state.current_player == 1


def test_K8_no_stars_no_payment() -> None:
    state = position(["R1", "K1"], stars=[0, 6])
    play(state, "pass")
    assert state.scores() == (0, 6)
    assert state.view(0).hand_sizes == (2, 1)


def test_K8_empty_pool_neither_pays_nor_draws() -> None:
    rest = [t for t in ALL if t not in ("R1", "K1")]
    state = position(["R1", "K1 " + " ".join(rest)], pool=[])
    play(state, "pass")
    assert state.scores() == (6, 6)
    assert state.view(0).hand_sizes == (1, 43)


# -- K9: the bank never runs out ------------------------------------------------------------------

def test_K9_bank_pays_past_its_fifty_six() -> None:
    # Ten runs of 34 tiles on the table earned the 44 stars the seats hold beyond their 12.
    table = ("B1 B2 B3", "B4 B5 B6", "B7 B8 B9 B10", "Y1 Y2 Y3", "Y4 Y5 Y6", "Y7 Y8 Y9 Y10",
             "K2 K3 K4", "K5 K6 K7 K8", "R4 R5 R6", "R7 R8 R9 R10")
    state = position(["R1 R2 R3 K9", "K1"], table, stars=[40, 16])
    assert state.view(0).bank == 0
    play(state, "new R1 R2 R3")
    assert state.scores() == (44, 16)
    assert state.view(1).bank == -4
    assert state.to_dict()["bank"] == -4


# -- K10: going out -------------------------------------------------------------------------------

def test_K10_laying_the_last_tile_ends_at_once_with_a_bonus() -> None:
    state = position(["R1 R2 R3", "K1 K2 K3 J", "B1 B2"], stars=[6, 2, 6])
    play(state, "new R1 R2 R3")
    assert state.is_over() and state.current_player is None
    assert state.legal_actions() == []
    # seat 0: 6 + 4 + 1 bonus; seat 1 pays 4 tiles but has 2 stars; seat 2 pays 2.
    assert state.scores() == (11, 0, 4)
    assert state.view(0).went_out == 0
    with pytest.raises(IllegalActionError, match="over"):
        state.apply(0)


def test_K10_going_out_with_a_retaken_joker() -> None:
    state = position(["Y2", "K1"], ("Y1 J(Y2) Y3",))
    play(state, "swap 0 1")
    assert not state.is_over()
    play(state, "extend 0 right J(Y4)")
    assert state.is_over()
    assert state.scores() == (6 + 1 + 0 + 1, 5)


# -- K11: blocking -------------------------------------------------------------------------------

def test_K11_full_round_of_passes_with_empty_pool_ends_without_bonus() -> None:
    rest = [t for t in ALL if t not in ("R1", "B1", "Y1")]
    state = position(["R1", "B1 " + " ".join(rest[:30]), "Y1 " + " ".join(rest[30:])],
                     pool=[], stars=[6, 6, 3])
    play(state, "pass", "pass")
    assert not state.is_over() and state.view(0).passes == 2
    play(state, "pass")
    assert state.is_over()
    assert state.view(0).went_out is None
    assert state.scores() == (5, 0, 0)


def test_K11_the_pass_that_draws_the_last_tile_does_not_count() -> None:
    rest = [t for t in ALL if t not in ("R1", "B1", "Y5")]
    state = position(["R1", "B1 " + " ".join(rest)], pool=["Y5"])
    play(state, "pass")  # draws the last tile
    assert state.view(0).passes == 0
    play(state, "pass")
    assert not state.is_over() and state.view(0).passes == 1
    play(state, "pass")
    assert state.is_over()


def test_K11_a_laying_turn_breaks_the_round() -> None:
    rest = [t for t in ALL if t not in ("R1", "R2", "R3", "R4", "B1", "B2", "B3")]
    state = position(["R1 R2 R3 R4", "B1 B2 B3 " + " ".join(rest)], pool=[])
    play(state, "pass")
    assert state.view(0).passes == 1
    play(state, "new B1 B2 B3", "end")
    assert state.view(0).passes == 0
    play(state, "pass", "pass")
    assert state.is_over()


# -- K12: the winner ------------------------------------------------------------------------------

BLUE_RUN = ("B1 B2 B3 B4 B5 B6 B7 B8 B9 B10",)   # 11 stars earned: K7, for the tests' stars


def test_K12_most_stars_wins() -> None:
    state = position(["R1 R2 R3", "K1 K2"], BLUE_RUN, stars=[2, 20])
    play(state, "new R1 R2 R3")
    assert state.outcome() == boardcore.Outcome(scores=(7, 18), winners=frozenset({1}))


def test_K12_tie_goes_to_the_player_who_went_out() -> None:
    state = position(["R1 R2 R3", "K1 K2"], BLUE_RUN, stars=[6, 13])
    play(state, "new R1 R2 R3")
    assert state.scores() == (11, 11)
    assert state.outcome().winners == {0}  # type: ignore[union-attr]


def test_K12_other_ties_share_the_win() -> None:
    rest = [t for t in ALL if t not in ("R1", "B1", "Y1")]
    state = position(["R1", "B1", "Y1 " + " ".join(rest)], pool=[], stars=[6, 6, 2])
    play(state, "pass", "pass", "pass")
    assert state.outcome() == boardcore.Outcome(scores=(5, 5, 0), winners=frozenset({0, 1}))
    state = position(["R1 R2 R3", "K1 K2", "Y1"], BLUE_RUN, stars=[2, 11, 10])
    play(state, "new R1 R2 R3")
    assert state.outcome() == boardcore.Outcome(scores=(7, 9, 9), winners=frozenset({1, 2}))


# -- notation ---------------------------------------------------------------------------------

def test_notation_of_every_kind_of_action() -> None:
    state = position(["R2 R6 B1 B2 B3 J", "K1"], ("R3 J(R4) R5",))
    texts = legal_texts(state)
    assert texts[:5] == [
        "pass", "extend 0 left R2", "extend 0 left J(R2)", "extend 0 right R6",
        "extend 0 right J(R6)",
    ]
    assert texts[5:] == ["new B1 B2 B3", "new J(B1) B2 B3", "new B1 J(B2) B3",
                         "new B1 B2 J(B3)", "new B1 B2 B3 J(B4)", "new B2 B3 J(B4)"]
    assert state.parse_action("pass") == 0
    assert state.action_to_str(1) == "end"
    assert state.parse_action("end") == 1
    assert state.parse_action("extend 0 left R2") == 2
    assert state.parse_action("extend 0 left J(R2)") == 3
    assert state.parse_action("extend 0 right R6") == 4
    assert state.parse_action("extend 0 right J(R6)") == 5
    assert state.parse_action("swap 0 1") == 58 + 1
    assert state.action_to_str(58 + 10 * 13 + 9) == "swap 13 9"
    assert state.action_to_str(198) == "new R1 R2 R3"
    assert state.action_to_str(9857) == "new K8 J(K9) J(K10)"  # last colour, lo, mask
    assert state.parse_action("  new  B1 B2   B3 ") == state.parse_action("new B1 B2 B3")
    for a in range(198, 9858, 37):
        assert state.parse_action(state.action_to_str(a)) == a


@pytest.mark.parametrize("text, match", [
    ("", "bad notation"),
    ("draw", "bad notation"),
    ("PASS", "bad notation"),
    ("new", "bad notation"),
    ("new R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11", "3..10 tiles"),
    ("new R0 R1 R2", "not a tile"),
    ("new R9 R10 R11", "not a tile"),
    ("new J R2 R3", "not a tile"),
    ("new J(R1 R2 R3", "not a tile"),
    ("new R1) R2 R3", "not a tile"),
    ("new r1 r2 r3", "not a tile"),
    ("new R1 B2 R3", "one colour"),
    ("new R3 R2 R1", "go up by one"),
    ("new J(R1) J(R2) J(R3)", "numbered tile"),
    ("new R1 J(R2) J(R3) J(R4) J(R5) J(R6)", "at most 4 jokers"),
    ("swap 14 0", "bad notation"),
    ("swap 0 10", "bad notation"),
    ("swap -1 0", "bad notation"),
    ("swap 01 0", "bad notation"),
    ("extend 1 left R2", "no run 1"),
    ("extend 0 up R2", "bad notation"),
    ("extend 0 left R1", "takes 'R2'"),
    ("extend 0 left J", "takes 'R2'"),
    ("extend 0 right J(R5)", "takes 'R6'"),
])
def test_bad_notation_raises(text: str, match: str) -> None:
    state = position(["R2 R6 B1 B2 B3 J", "K1"], ("R3 J(R4) R5",))
    with pytest.raises(NotationError, match=match):
        state.parse_action(text)


def test_notation_of_an_extension_without_room_on_the_table() -> None:
    # Every action in range has a notation: an extension no table position decides
    # writes its tile "*" (it can never be legal here), and reads back anywhere.
    state = position(["R1 R2 R3 K9", "K1"], ("B1 B2 B3",))
    with pytest.raises(NotationError, match="no room"):
        state.parse_action("extend 0 left B0")
    assert state.action_to_str(2) == "extend 0 left *"   # B1 is run 0's first number
    assert state.action_to_str(2 + 4 * 5 + 3) == "extend 5 right J(*)"   # no run 5
    assert state.action_to_str(2 + 3) == "extend 0 right J(B4)"
    for a in range(2, 58):
        assert state.parse_action(state.action_to_str(a)) == a
        text = state.action_to_str(a).rsplit(" ", 1)[0]
        assert state.parse_action(text + (" J(*)" if a % 2 else " *")) == a
    for bad in (None, "2", 2.0, True):
        with pytest.raises(TypeError):
            state.action_to_str(bad)
    for bad in (-1, 9858, 2**70):
        with pytest.raises(IllegalActionError):
            state.action_to_str(bad)
    for bad in (None, 3, b"pass", ["pass"]):
        with pytest.raises(NotationError, match="must be a str"):
            state.parse_action(bad)


# -- views, pictures, records ---------------------------------------------------------------

def test_view_shows_the_table_stars_own_rack_and_sizes_only() -> None:
    state = position(["R1 R2 R3 K9", "K1 K2 J"], ("B1 B2 B3",), stars=[6, 7])
    v0, v1 = state.view(0), state.view(1)
    assert isinstance(v0, RummikubJuniorView)
    assert v0.table == v1.table == ("B1 B2 B3",)
    assert v0.scores == v1.scores == (6, 7) and v0.bank == 43
    assert v0.hand == ("R1", "R2", "R3", "K9") and v1.hand == ("K1", "K2", "J")
    assert v0.hand_sizes == v1.hand_sizes == (4, 3)
    assert v0.draw_pile_size == 44 - 10
    assert (v0.player, v1.player, v0.current_player) == (0, 1, 0)
    assert not v0.is_over and v0.went_out is None and v0.passes == 0
    fields = {f for f in RummikubJuniorView.__dataclass_fields__}
    assert not fields & {"racks", "pool", "rng", "history"}
    for bad in (2, -1, 2**70):
        with pytest.raises(ValueError):
            state.view(bad)
    for bad in (None, "0", 0.0, True):
        with pytest.raises(TypeError):
            state.view(bad)


def test_str_and_repr() -> None:
    state = position(["R1 R2 R3 K9", "K1 K2 J"], ("B1 J(B2) B3",))
    play(state, "new R1 R2 R3")
    text = str(state)
    assert "0: B1 J(B2) B3" in text and "1: R1 R2 R3" in text
    assert "> seat 0: 10 stars,  1 tiles: K9" in text
    assert "seat 1:  6 stars,  3 tiles: K1 K2 J" in text
    assert "has laid" in text
    assert repr(state) == "<RummikubJuniorState players=2 seat 0 to act move=1>"
    play(state, "end")
    state.rollout(seed=5)
    assert "over: Outcome(" in str(state) and "over" in repr(state)


def test_copy_pickle_and_records_round_trip() -> None:
    game = boardcore.make("rummikub_junior", players=3)
    state = game.new_state(seed=31)
    chooser = Rng(8)
    for _ in range(40):
        legal = state.legal_actions()
        state.apply(legal[chooser.bounded(len(legal))])
    d = state.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert pickle.loads(pickle.dumps(state)).to_dict() == d
    rec = boardcore.record(state)
    assert rec["actions"] == [
        boardcore.replay({**rec, "actions": rec["actions"][:i]}).action_to_str(a)
        for i, a in enumerate(state.history())
    ]
    assert boardcore.replay(rec).to_dict() == d


def test_legal_actions_mask_matches_the_list() -> None:
    state = position(["R1 R2 R3 J", "K1"], ("B1 B2 B3",))
    mask = state.legal_actions_mask()
    assert mask.dtype == np.bool_ and mask.shape == (9858,)
    assert list(np.flatnonzero(mask)) == state.legal_actions()
    assert RummikubJunior(players=2).num_actions == 9858


def test_simulate_and_cli() -> None:
    from boardcore.cli import main, summary

    game = boardcore.make("rummikub_junior", players=4)
    one = boardcore.simulate(game, 300, seed=3)
    two = boardcore.simulate(game, 300, seed=3, workers=2)
    assert np.array_equal(one.scores, two.scores)
    assert np.array_equal(one.lengths, two.lengths)
    assert set(one.stats) == {"end", "turns"}
    assert set(np.unique(one.stats["end"])) <= {0, 1}
    assert (one.winners.sum(axis=1) >= 1).all()
    assert "went_out" in summary(one)
    assert main(["simulate", "rummikub_junior", "--players", "2", "--games", "50",
                 "--seed", "1", "--no-progress"]) == 0
    assert main(["rules", "rummikub_junior"]) == 0


# -- hostile input ------------------------------------------------------------------------------

HOSTILE = [None, -1, 2**70, "3", 3.0, True, [1], b"1"]


def test_apply_refuses_hostile_input_and_changes_nothing() -> None:
    state = position(["R1 R2 R3 J", "K1"], ("B1 B2 B3",))
    before = state.to_dict()
    for bad in HOSTILE:
        with pytest.raises((TypeError, IllegalActionError)):
            state.apply(bad)
        assert state.to_dict() == before
    for bad in (1, 6, 58, 198 + 5, 9857, 9858):  # end before laying, unheld runs, out of range
        with pytest.raises(IllegalActionError, match="illegal action"):
            state.apply(bad)
        assert state.to_dict() == before
    with pytest.raises(IllegalActionError, match=r"legal: 0 \(pass\)"):
        state.apply(1)
    state.apply(np.int16(0))
    assert state.history() == [0]


def test_rollout_refuses_bad_seeds() -> None:
    state = boardcore.make("rummikub_junior", players=2).new_state(seed=1)
    before = state.to_dict()
    for bad in (-1, 2**64, 2**70):
        with pytest.raises(ValueError):
            state.rollout(bad)
    for bad in ("3", 3.0, True):
        with pytest.raises(TypeError):
            state.rollout(bad)
    assert state.to_dict() == before


def _doc() -> dict[str, Any]:
    return position(["R1 R2 R3 J", "K1 K2"], ("B1 J(B2) B3",), laid=True).to_dict()


@pytest.mark.parametrize("field, value, match", [
    ("racks", None, "racks"),
    ("racks", [["R1"]], "racks"),
    ("racks", [["R1", "R2", "R3", "J"], ["K1", "K2", "Z9"]], "racks"),
    ("racks", [["R1", "R2", "R3", "J"], ["K1", "K2", "K2"]], "each numbered tile once"),
    ("racks", [["R1", "R2", "R3", "J", "J"], ["K1", "K2"]], "4 jokers"),
    ("table", "B1 J(B2) B3", "table"),
    ("table", ["B1 B2"], "3..10 tiles"),
    ("table", ["B1 R2 B3"], "one colour"),
    ("table", [7], "runs are strings"),
    ("table", ["J(B1) J(B2) J(B3)"], "numbered tile"),
    ("pool", None, "pool"),
    ("pool", [], "each numbered tile once"),
    ("stars", [6], "stars"),
    ("stars", [6, -1], "stars"),
    ("stars", [6, 6.0], "stars"),
    ("stars", [6, True], "stars"),
    ("bank", 45, "bank"),
    ("bank", "44", "bank"),
    ("laid_this_turn", 1, "laid_this_turn"),
    ("joker_pending", None, "joker_pending"),
    ("passes", -1, "passes"),
    ("passes", 1, "pool is not"),
    ("passes", True, "passes"),
    ("current_player", 2, "current_player"),
    ("current_player", "0", "current_player"),
    ("current_player", None, "went_out"),
    ("went_out", 0, "went_out"),
    ("rng", [0, 0, 0, 0], "rng"),
    ("rng", [1, 2, 3], "rng"),
    ("rng", [1, 2, 3, 2**64], "rng"),
    ("history", [9858], "history"),
    ("history", "0", "history"),
    ("history", [0.0], "history"),
    ("seed", -1, "seed"),
    ("options", {"start_player": 5}, "options"),
    ("players", 3, "players"),
])
def test_state_from_dict_refuses_tampered_fields(field: str, value: object, match: str) -> None:
    d = _doc()
    game = boardcore.make("rummikub_junior", players=2)
    d[field] = value
    with pytest.raises(InvalidStateError, match=match):
        if field in (*HEADER, "history"):
            game.state_from_dict(d)
        else:
            set_up(game, d)  # a set-up position is checked field by field
    # A document that replays its history is checked against the position it gives.
    if field not in (*HEADER, "history"):
        with pytest.raises(InvalidStateError, match=rf"field '{field}' is .*not the position"):
            game.state_from_dict(d)


def test_state_from_dict_refuses_truncated_and_inconsistent_documents() -> None:
    game = boardcore.make("rummikub_junior", players=2)
    full = _doc()
    assert game.state_from_dict(full).to_dict() == full
    for field in full:
        d = dict(full)
        del d[field]
        if field == "setup":  # the seed's deal is replayed instead: not this position
            with pytest.raises(InvalidStateError, match="not the position"):
                game.state_from_dict(d)
            continue
        with pytest.raises(InvalidStateError, match=field):
            if field in (*HEADER, "history"):
                game.state_from_dict(d)
            else:
                set_up(game, d)
    for bad in (None, [], "x", 3):
        with pytest.raises(InvalidStateError):
            game.state_from_dict(bad)
    # Every rack holds a tile while the game runs (K10).
    d = dict(full, racks=[["R1", "R2", "R3", "J"], []], pool=full["pool"] + ["K1", "K2"])
    with pytest.raises(InvalidStateError, match="rack is empty"):
        set_up(game, d)
    # A pending joker needs a joker in the rack and the turn to have laid.
    d = dict(full, joker_pending=True, laid_this_turn=False)
    with pytest.raises(InvalidStateError, match="joker_pending"):
        set_up(game, d)
    d = dict(full, racks=[["R1", "R2", "R3"], ["K1", "K2", "J"]], joker_pending=True)
    with pytest.raises(InvalidStateError, match="joker_pending"):
        set_up(game, d)
    # A pending joker with no place to go would leave no legal action.
    stuck = position(["R4 B7", "K1"], ("R1 R2 R3 J(R4) R5 R6 R7 R8 R9 R10",)).to_dict()
    stuck.update(racks=[["B7", "J"], ["K1"]], table=["R1 R2 R3 R4 R5 R6 R7 R8 R9 R10"],
                 laid_this_turn=True, joker_pending=True)
    with pytest.raises(InvalidStateError, match="no place"):
        set_up(game, stuck)
    # Finished games: the one who went out has an empty rack; else a full round of passes.
    over = position(["R1 R2 R3", "K1 K2"]).copy()
    play(over, "new R1 R2 R3")
    d = over.to_dict()
    assert game.state_from_dict(d).to_dict() == d
    with pytest.raises(InvalidStateError, match="went_out"):
        set_up(game, dict(d, went_out=1))
    with pytest.raises(InvalidStateError, match="passes"):
        set_up(game, dict(d, went_out=None))
    # Set up once over, the game stays over.
    assert set_up(game, d).is_over()


# -- determinization (search agents) and observations ---------------------------------------

def _chi2_critical(df: int) -> float:
    # The chi-square value exceeded with probability 0.001 (Wilson-Hilferty).
    return float(df * (1 - 2 / (9 * df) + 3.0902 * (2 / (9 * df)) ** 0.5) ** 3)


def _deal_frequencies(state: Any, seat: int, samples: int) -> Counter[tuple[Any, ...]]:
    seen: Counter[tuple[Any, ...]] = Counter()
    for i in range(samples):
        d = _search.determinize(state, seat, seed=i).to_dict()
        seen[(tuple(d["racks"][1 - seat]), tuple(d["pool"]))] += 1
    return seen


def _chi2(seen: Counter[tuple[Any, ...]], expected: Counter[tuple[Any, ...]]) -> float:
    samples, total = sum(seen.values()), sum(expected.values())
    assert set(seen) <= set(expected)
    return sum((seen[k] - samples * v / total) ** 2 / (samples * v / total)
               for k, v in expected.items())


def test_determinizations_are_uniform_over_the_consistent_deals() -> None:
    """Every deal of the unseen tiles comes as often as a shuffle makes it.

    Seat 0 sees four unseen tiles, two of them jokers: R10 B1 J J for seat 1's two tiles
    and the two-tile pool.  The four jokers are distinct tiles, so seat 1 holding both
    comes half as often as each other deal.
    """
    table = ("R3 R4 R5 R6 R7 R8 R9 J(R10)", "J(B1) B2 B3 B4 B5 B6 B7 B8 B9 B10",
             "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10", "K1 K2 K3 K4 K5 K6 K7 K8 K9 K10")
    state = position(["R1 R2", "R10 B1"], table, pool=["J", "J"])
    expected: Counter[tuple[Any, ...]] = Counter()
    for perm in itertools.permutations(["R10", "B1", "J", "J"]):
        expected[(tuple(sorted(perm[:2], key=ref.ORDER.__getitem__)), perm[2:])] += 1
    assert len(expected) == 7
    seen = _deal_frequencies(state, 0, 4000)
    assert _chi2(seen, expected) < _chi2_critical(len(expected) - 1)
    # What seat 0 sees never moves; the generator is drawn afresh.
    d = _search.determinize(state, 0, seed=1)
    assert d.view(0) == state.view(0) and d.to_dict()["rng"] != state.to_dict()["rng"]


def test_determinization_keeps_a_taken_joker_with_its_seat() -> None:
    """A seat that swapped a joker keeps it, and tiles to lay it with.

    Seat 0 swapped a joker (K5c) and must lay it next; every run on the table is full, so
    it holds tiles that make a new run with the joker.  Seat 1 sees R7-R10 and one more
    joker unseen: seat 0 keeps its joker and takes two of them, never R7 with R10 (no run
    of three with one joker), and the pool the rest.
    """
    table = ("B1 B2 B3 B4 B5 B6 B7 B8 B9 B10", "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10",
             "K1 K2 K3 K4 K5 K6 K7 K8 K9 K10")
    state = position(["R7 R8 J", "R1 R2 R3 R4 R5 R6 J J"], table,
                     pool=["R9", "R10", "J"], laid=True, pending=True)
    expected: Counter[tuple[Any, ...]] = Counter()
    for perm in itertools.permutations(["R7", "R8", "R9", "R10", "J"]):
        if set(perm[:2]) != {"R7", "R10"}:
            rack = tuple(sorted([*perm[:2], "J"], key=ref.ORDER.__getitem__))
            expected[(rack, perm[2:])] += 1
    seen = _deal_frequencies(state, 1, 3000)
    assert all("J" in rack for rack, _ in seen)
    assert _chi2(seen, expected) < _chi2_critical(len(expected) - 1)
    # The seat that swapped knows its own rack: nothing of it is redrawn.
    assert _search.determinize(state, 0, seed=3).to_dict()["racks"][0] == ["R7", "R8", "J"]


def test_observation_planes_of_a_known_position() -> None:
    state = position(["R1 R2 R3 B4 K9", "K1 K2 J"], ("B1 J(B2) B3",), stars=[6, 7])
    game = state.game
    assert game.observation_shape == (387,)
    assert boardcore.make("rummikub_junior", players=4).observation_shape == (393,)

    def planes(seat: int) -> dict[str, np.ndarray]:
        obs, out, start = state.observation(seat), {}, 0
        for name, size in game.observation_planes:
            out[name] = obs[start:start + size]
            start += size
        return out

    p = planes(1)
    assert np.flatnonzero(p["rack"]).tolist() == [30, 31]             # K1 K2
    assert p["rack_jokers"].tolist() == [0.25]
    runs = p["run_colours"].reshape(14, 4)
    assert runs[0].tolist() == [0, 1, 0, 0] and not runs[1:].any()    # run 0 is blue
    assert np.flatnonzero(p["run_tiles"]).tolist() == [0, 2]         # B1, B3
    assert np.flatnonzero(p["run_jokers"]).tolist() == [1]           # J(B2)
    assert np.allclose(p["stars"], [7 / 56, 6 / 56])                 # seat 1 first
    assert np.allclose(p["rack_sizes"], [3 / 44, 5 / 44])
    assert p["to_act"].tolist() == [0, 1]
    assert np.allclose(p["pool_size"], [(44 - 11) / 44])
    assert p["laid_this_turn"].tolist() == p["joker_pending"].tolist() == [0]
    assert planes(0)["to_act"].tolist() == [1, 0]
    play(state, "new R1 R2 R3", "extend 0 right B4")
    p = planes(0)
    assert np.flatnonzero(p["rack"]).tolist() == [38]                 # K9
    assert np.flatnonzero(p["run_tiles"]).tolist() == [0, 2, 3, 10, 11, 12]
    assert p["run_colours"].reshape(14, 4)[1].tolist() == [1, 0, 0, 0]
    assert p["laid_this_turn"].tolist() == [1]
    play(state, "end", "pass")
    p = planes(1)
    assert np.allclose(p["stars"], [6 / 56, 11 / 56]) and p["to_act"].tolist() == [0, 1]
    assert np.allclose(p["rack_sizes"], [4 / 44, 1 / 44])
    assert np.allclose(p["pool_size"], [(44 - 12) / 44])


# -- explained moves and pictures -----------------------------------------------------------

def test_explain_tells_the_tiles_the_run_and_the_stars() -> None:
    state = position(["Y2 B1 B2 K9 J", "K1 K2"], ("Y1 J(Y2) Y3",))
    new = state.parse_action("new B1 B2 J(B3)")
    assert state.explain(state.parse_action("swap 0 1")) == RummikubJuniorMove(
        player=0, move="swap 0 1", kind="swap", tiles=("Y2",), run=0, run_after="Y1 Y2 Y3",
        lays_taken_joker=False, drew=False, went_out=False, game_over=False, gains=(1, 0))
    play(state, "swap 0 1")
    told = state.explain(new)
    assert told == RummikubJuniorMove(
        player=0, move="new B1 B2 J(B3)", kind="new", tiles=("B1", "B2", "J(B3)"), run=1,
        run_after="B1 B2 J(B3)", lays_taken_joker=True, drew=False, went_out=False,
        game_over=False, gains=(3, 0))        # K7: the retaken joker earns nothing
    state.apply(new)
    assert state.last_move == told
    play(state, "extend 1 right J(B4)")
    last = state.last_move
    assert last is not None and last.tiles == ("J(B4)",) and last.run_after == "B1 B2 J(B3) J(B4)"
    assert not last.lays_taken_joker and last.gains == (1, 0)
    play(state, "end")
    assert state.last_move == RummikubJuniorMove(
        player=0, move="end", kind="end", tiles=(), run=None, run_after=None,
        lays_taken_joker=False, drew=False, went_out=False, game_over=False, gains=(0, 0))


def test_explain_a_pass_tells_the_draw_but_never_the_tile() -> None:
    state = position(["R1", "K1"])
    told = state.explain(0)
    assert told.kind == "pass" and told.drew and told.tiles == () and told.gains == (-1, 0)
    rest = [t for t in ALL if t not in ("R1", "K1")]
    state = position(["R1", "K1 " + " ".join(rest)], pool=[])
    assert not state.explain(0).drew and state.explain(0).gains == (0, 0)
    play(state, "pass")
    told = state.explain(0)                  # the second pass of a round ends the game
    assert told.game_over and not told.went_out and told.gains == (-1, -6)   # K11


def test_explain_going_out() -> None:
    state = position(["R1 R2 R3", "K1 K2 K3 J", "B1 B2"], stars=[6, 2, 6])
    told = state.explain(state.parse_action("new R1 R2 R3"))
    assert told.went_out and told.game_over and told.run == 0
    assert told.gains == (5, -2, -2)         # K7 + K10: 4 and the bonus; the others pay


def _svg_texts(svg: str) -> list[tuple[str, str]]:
    root = ET.fromstring(svg)
    return [(t.text or "", t.get("fill", "")) for t in root.iter(f"{SVG}text")]


def test_picture_of_a_known_position() -> None:
    state = position(["R1 R2 R3 B4 K9", "K1 K2 J"], ("B1 J(B2) B3",), stars=[6, 7])
    play(state, "new R1 R2 R3", "extend 0 right B4")
    svg = state.svg(size=600)
    texts = _svg_texts(svg)
    ink = {"R": "#c0392b", "B": "#1f5fae", "K": "#1b1b1b"}
    # The runs' numbers in their colours, the joker showing the number it stands for.
    for number, colour in (("1", "B"), ("2", "B"), ("3", "B"), ("4", "B"), ("1", "R"),
                           ("3", "R"), ("9", "K"), ("1", "K"), ("2", "K")):
        assert (number, ink[colour]) in texts, (number, colour)
    words = " ".join(t for t, _ in texts)
    assert "bank 38" in words and "pool 33" in words
    assert "seat 0 to act, may lay more or end" in words
    assert "last: seat 0 laid B4 on run 0, +1 star" in words
    assert "11 stars, 1 tile" in words and "7 stars, 3 tiles" in words
    # The last tile laid is marked; a face-down tile is drawn for each hidden one.
    assert svg.count(HIGHLIGHT) == 2               # the line saying it and the tile's box
    back = 'fill="#5b6b8c"'
    assert svg.count(back) == 3                          # the pool's stack
    assert state.svg(perspective=0).count(back) == 3 + 3     # and seat 1's three tiles
    assert state.svg(perspective=1).count(back) == 3 + 1     # and seat 0's K9
    assert "as seat 1 sees it" in state.svg(perspective=1)
    cairosvg = pytest.importorskip("cairosvg")
    png = cairosvg.svg2png(bytestring=svg.encode())
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(png[16:20], "big") == 600


def test_picture_marks_a_pass_and_the_end() -> None:
    state = position(["R1 R2 R3", "K1 K2 K3 J"], stars=[6, 2])
    assert HIGHLIGHT not in state.svg()
    play(state, "pass")
    assert "last: seat 0 passed and drew a tile, -1 star" in " ".join(
        t for t, _ in _svg_texts(state.svg()))
    play(state, "new K1 K2 K3")
    words = " ".join(t for t, _ in _svg_texts(state.svg()))
    assert "last: seat 1 laid run 0: K1 K2 K3, +4 stars" in words
    play(state, "extend 0 right J(K4)")
    words = " ".join(t for t, _ in _svg_texts(state.svg()))
    assert "over (seat 1 went out): seat 1 won" in words and "seat 1 won" in words
    assert "and went out, +2 stars" in words


RANDOM_POSITIONS = 3000
RANDOM_POSITIONS_SLOW = 30000


# ---------------------------------------------------------------------------------
# Move generation on random racks and tables, far from where random games go.
# ---------------------------------------------------------------------------------

def random_position(rng: Rng, players: int) -> dict[str, Any] | None:
    """A random legal-looking position.

    Random runs on the table (jokers anywhere), a rack of 1..20 tiles often holding
    jokers, random turn flags and stars; None when the table took so many tiles that
    the racks cannot be filled.
    """
    tiles = ref.TILES[:40] + ["J"] * 4
    rng.shuffle(tiles)
    free = set(ref.TILES[:40])
    jokers_free = 4
    table = []
    for _ in range(rng.bounded(10)):
        colour = ref.COLOURS[rng.bounded(4)]
        length = 3 + rng.bounded(8)
        lo = 1 + rng.bounded(11 - length)
        words = []
        for i in range(length):
            tile = f"{colour}{lo + i}"
            if tile in free and rng.bounded(4):
                words.append(tile)
            else:
                words.append(f"J({tile})")
        jokers = sum(w.startswith("J(") for w in words)
        if jokers > jokers_free or jokers == length:
            continue
        table.append(" ".join(words))
        free -= set(words)
        jokers_free -= jokers
    rest = [t for t in tiles if t in free]
    if len(rest) + jokers_free < players:
        return None
    if rng.bounded(2):
        rest = ["J"] * jokers_free + rest  # the first rack takes every free joker
    else:
        for _ in range(jokers_free):
            rest.insert(rng.bounded(len(rest) + 1), "J")
    size = 1 + rng.bounded(min(20, len(rest) - (players - 1)))
    racks = [rest[:size]]
    rest = rest[size:]
    for q in range(players - 1):
        k = 1 + rng.bounded(min(5, len(rest) - (players - 2 - q)))
        racks.append(rest[:k])
        rest = rest[k:]
    pool = rest if rng.bounded(4) else []
    if not pool:
        racks[-1] += rest
    current = rng.bounded(players)
    racks = racks[players - current:] + racks[:players - current]
    racks = [sorted(r, key=ref.ORDER.__getitem__) for r in racks]
    laid = bool(table) and rng.bounded(2) == 1     # what is laid stays on the table (K5)
    pending = laid and "J" in racks[current] and rng.bounded(3) == 0
    stars = [rng.bounded(30) for _ in range(players)]
    most = 6 * players + sum(len(run.split()) + 1 for run in table)   # K2, K7
    while sum(stars) > most:
        stars[stars.index(max(stars))] -= 1
    return {
        "game": "rummikub_junior", "rules_version": 1, "players": players,
        "options": {"start_player": 0}, "seed": 0,
        "current_player": current, "racks": racks, "stars": stars,
        "bank": 56 - sum(stars), "table": table, "pool": pool,
        "laid_this_turn": laid, "joker_pending": pending,
        "passes": 0 if pool else rng.bounded(players), "went_out": None,
        "rng": [1, 2, 3, 4], "history": [],
    }


def positions(count: int, salt: int) -> Any:
    rng = Rng(salt)
    games = {n: boardcore.make("rummikub_junior", players=n) for n in (2, 3, 4)}
    made = 0
    while made < count:
        players = 2 + rng.bounded(3)
        d = random_position(rng, players)
        if d is None:
            continue
        model = ref.RummikubJuniorRef.from_dict(d)
        try:
            state = set_up(games[players], d)
        except InvalidStateError:
            # Only a pending joker with no place may be refused (K5c).
            assert d["joker_pending"] and model.legal_actions() == []
            continue
        made += 1
        yield state, model


def _position(state: Any) -> dict[str, Any]:
    """``state.to_dict()`` past its header, without the set-up position it started from."""
    header = ("game", "rules_version", "players", "options", "seed", "setup")
    return {k: v for k, v in state.to_dict().items() if k not in header}


def check_position(state: Any, model: ref.RummikubJuniorRef, rng: Rng) -> None:
    legal = state.legal_actions()
    assert legal == model.legal_actions(), str(state)
    for a in legal:
        assert state.parse_action(state.action_to_str(a)) == a
    # The successors of a few legal actions agree too.
    for _ in range(min(3, len(legal))):
        a = legal[rng.bounded(len(legal))]
        twin, other = state.copy(), model.copy()
        twin.apply(a)
        other.apply(a)
        assert _position(twin) == other.to_dict()


def test_move_generation_matches_reference_on_random_positions() -> None:
    rng = Rng(5)
    for state, model in positions(RANDOM_POSITIONS, 17):
        check_position(state, model, rng)


@pytest.mark.slow
def test_move_generation_matches_reference_on_many_random_positions() -> None:
    rng = Rng(6)
    for state, model in positions(RANDOM_POSITIONS_SLOW, 18):
        check_position(state, model, rng)


def test_reference_generator_is_the_brute_force_over_every_action() -> None:
    """The reference's generator = trying every one of the 9,858 actions."""
    for state, model in positions(150, 23):
        brute = [a for a in range(ref.NUM_ACTIONS) if model.is_legal(a)]
        assert model.legal_actions() == brute
        assert state.legal_actions() == brute


def test_apply_accepts_exactly_the_generated_actions() -> None:
    """Apply's own legality check agrees with legal_actions on every action id."""
    for state, _ in positions(12, 29):
        legal = set(state.legal_actions())
        before = state.to_dict()
        for a in range(state.game.num_actions):
            twin = state.copy()
            if a in legal:
                twin.apply(a)
            else:
                with pytest.raises(IllegalActionError):
                    twin.apply(a)
                assert twin.to_dict() == before
