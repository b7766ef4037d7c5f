"""Rummikub Junior: one or more tests per rule K1-K12 of the rules page, then notation,
views, pictures, options, records, golden playthroughs and hostile input."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
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
from boardcore.rummikub_junior import RummikubJunior, RummikubJuniorView
from boardcore.simulate import derive_seed
from tests.reference import rummikub_junior as ref
from tests.reference._rng import Rng

DATA = Path(__file__).parent / "data"
ALL = ref.TILES[:40] + ["J"] * 4


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
    """A state from racks written ``"R3 R4 J"``; the pool defaults to every tile left,
    in tile order."""
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
    return boardcore.make("rummikub_junior", players=players).state_from_dict(d)


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
        with pytest.raises(ConfigurationError, match="2..4 players"):
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
    with pytest.raises(NotationError, match="3..10 tiles"):
        state.parse_action("new R1 R2")


def test_K3_runs_stay_within_one_to_ten() -> None:
    state = position(["K9 K10 J", "R1"])
    assert new_runs(state) == ["new J(K8) K9 K10"]
    state = position(["R1 R2 R3", "K1"], ("B1 B2 B3 B4 B5 B6 B7 B8 B9 B10",))
    assert not any(t.startswith("extend 0") for t in legal_texts(state))
    with pytest.raises(IllegalActionError, match="cannot be written here"):
        state.action_to_str(2 + 0 + 1)  # extend run 0 left with a joker


# -- K4: the deal -----------------------------------------------------------------------

def test_K4_shuffled_pool_each_player_draws_six() -> None:
    state = boardcore.make("rummikub_junior", players=3).new_state(seed=2024)
    tiles = ref.TILES[:40] + ["J"] * 4
    Rng(2024).shuffle(tiles)
    d = state.to_dict()
    for p in range(3):
        assert d["racks"][p] == sorted(tiles[6 * p:6 * p + 6], key=ref.ORDER.__getitem__)
        assert state.view(p).rack_sizes == (6, 6, 6)
    assert d["pool"] == tiles[18:]
    assert state.view(0).pool_size == 26


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


def test_K5a_new_run_of_at_least_three_from_the_rack() -> None:
    state = position(["Y2 Y3 Y4 Y5 K7", "R1"])
    assert new_runs(state) == [
        "new Y2 Y3 Y4", "new Y2 Y3 Y4 Y5", "new Y3 Y4 Y5",
    ]
    play(state, "new Y2 Y3 Y4 Y5")
    assert state.view(0).rack == ("K7",)


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
    assert state.view(0).rack == ("B1", "B2", "K9", "J")
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
    assert state.view(0).rack.count("J") == 2
    assert "new B1 J(B2) J(B3)" in legal_texts(state)
    play(state, "new B1 B2 J(B3)")  # one of two jokers; either counts as the taken one
    assert state.view(0).rack == ("J",)
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
    assert state.view(0).rack == ("R1", "R2", "R3", "B7")
    assert state.view(0).pool_size == 44 - 4 - 1
    assert state.current_player == 1


def test_K8_no_stars_no_payment() -> None:
    state = position(["R1", "K1"], stars=[0, 6])
    play(state, "pass")
    assert state.scores() == (0, 6)
    assert state.view(0).rack_sizes == (2, 1)


def test_K8_empty_pool_neither_pays_nor_draws() -> None:
    rest = [t for t in ALL if t not in ("R1", "K1")]
    state = position(["R1", "K1 " + " ".join(rest)], pool=[])
    play(state, "pass")
    assert state.scores() == (6, 6)
    assert state.view(0).rack_sizes == (1, 43)


# -- K9: the bank never runs out ------------------------------------------------------------------

def test_K9_bank_pays_past_its_fifty_six() -> None:
    state = position(["R1 R2 R3 K9", "K1"], stars=[40, 16])
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

def test_K12_most_stars_wins() -> None:
    state = position(["R1 R2 R3", "K1 K2"], stars=[2, 20])
    play(state, "new R1 R2 R3")
    assert state.outcome() == boardcore.Outcome(scores=(7, 18), winners=frozenset({1}))


def test_K12_tie_goes_to_the_player_who_went_out() -> None:
    state = position(["R1 R2 R3", "K1 K2"], stars=[6, 13])
    play(state, "new R1 R2 R3")
    assert state.scores() == (11, 11)
    assert state.outcome().winners == {0}  # type: ignore[union-attr]


def test_K12_other_ties_share_the_win() -> None:
    rest = [t for t in ALL if t not in ("R1", "B1", "Y1")]
    state = position(["R1", "B1", "Y1 " + " ".join(rest)], pool=[], stars=[6, 6, 2])
    play(state, "pass", "pass", "pass")
    assert state.outcome() == boardcore.Outcome(scores=(5, 5, 0), winners=frozenset({0, 1}))
    state = position(["R1 R2 R3", "K1 K2", "Y1"], stars=[2, 11, 10])
    play(state, "new R1 R2 R3")
    assert state.outcome() == boardcore.Outcome(scores=(7, 9, 9), winners=frozenset({1, 2}))
