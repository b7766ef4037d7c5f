"""3 Or More: one or more tests per numbered rule T1-T13.

Plus notation, views, options, hostile input and golden playthroughs.
"""

from __future__ import annotations

import copy
import json
import pickle
from collections import Counter
from typing import Any

import numpy as np
import pytest

import boardcore
from boardcore import ConfigurationError, IllegalActionError, InvalidStateError, NotationError
from boardcore.simulate import derive_seed
from boardcore.three_or_more import (
    DEFAULT_DECK,
    MoveScore,
    ScoredLine,
    ThreeOrMore,
    ThreeOrMoreMove,
    ThreeOrMoreState,
    ThreeOrMoreView,
)
from tests.conftest import set_up
from tests.reference._rng import Rng

FILLER = ("GBY", "BYG", "YGB", "GYB", "BGY", "YBG")


def held(move: str) -> str:
    """The card as held in a move such as ``RRG^@left``."""
    return move.split("@")[0].rstrip("^")


def scripted(players: int, start: str, moves: list[str], seed: int = 1,
             **options: Any) -> ThreeOrMoreState:
    """A new game whose deal lets the scripted ``moves`` be played in turn.

    The deck option is arranged so that, after the seed's shuffle, the starting card is
    ``start`` and every mover holds the card of its next scripted move (T4 deal: seat s
    gets shuffled cards 3s..3s+2, then the starting card, then the stock in order).
    Unscripted places are filled with ``FILLER`` cards.
    """
    sp = options.get("start_player", 0)
    cards = [held(m) for m in moves]
    filler = iter(FILLER * 8)
    wanted: list[str] = []
    for seat in range(players):
        mine = [c for k, c in enumerate(cards[:3 * players]) if (sp + k) % players == seat]
        wanted += mine + [next(filler) for _ in range(3 - len(mine))]
    wanted.append(start)
    wanted += cards[3 * players:]
    wanted += [next(filler) for _ in range(48 - len(wanted))]
    perm = list(range(48))
    Rng(seed).shuffle(perm)
    deck = [""] * 48
    for j, p in enumerate(perm):
        deck[p] = wanted[j]
    return ThreeOrMore(players=players, deck=deck, **options).new_state(seed=seed)


def play(state: ThreeOrMoreState, *moves: str) -> None:
    for move in moves:
        state.apply(state.parse_action(move))


def column(state: ThreeOrMoreState, card_row: int, col: int) -> str:
    """The three squares, top to bottom, of the card at (card row, card column)."""
    grid = state.to_dict()["grid"]
    return "".join(grid[3 * card_row + i][col] for i in range(3))


ROW1 = ["RGY", "BYG", "GBR", "YRB", "RBG", "GYR", "BRY", "YGR", "RYB", "GRB", "BGR"]


# -- T1-T4: components and setup --------------------------------------------------------


def test_T1_two_to_four_players_seat_zero_starts() -> None:
    for players in (2, 3, 4):
        state = boardcore.make("three_or_more", players=players).new_state(seed=3)
        assert state.current_player == 0
        assert len(state.scores()) == players
    for bad in (1, 5, 0):
        with pytest.raises(ConfigurationError, match=r"2\.\.4 players"):
            ThreeOrMore(players=bad)


def test_T1_start_player_option_and_turn_order() -> None:
    state = ThreeOrMore(players=3, start_player=2).new_state(seed=3)
    seats = []
    for _ in range(4):
        seats.append(state.current_player)
        state.apply(state.legal_actions()[0])
    assert seats == [2, 0, 1, 2]
    for bad in (3, -1, True, "1", 1.0, None):
        with pytest.raises(ConfigurationError, match="start_player"):
            ThreeOrMore(players=3, start_player=bad)


def test_T2_default_deck_is_48_cards_36_squares_of_each_colour() -> None:
    assert len(DEFAULT_DECK) == 48
    counts = Counter(DEFAULT_DECK)
    for colour in "RGBY":
        assert counts[colour * 3] == 3
    assert sum(counts[c * 3] for c in "RGBY") == 12
    mixed = [c for c in DEFAULT_DECK if len(set(c)) == 2]
    assert len(mixed) == 36 and len(set(mixed)) == 36
    squares = Counter("".join(DEFAULT_DECK))
    assert squares == {"R": 36, "G": 36, "B": 36, "Y": 36}
    assert all(len(set(c)) <= 2 for c in DEFAULT_DECK)
    for x, z in (("R", "G"), ("B", "Y"), ("G", "Y")):
        pair = {c for c in mixed if set(c) == {x, z}}
        assert pair == {x + x + z, x + z + x, z + x + x, x + z + z, z + x + z, z + z + x}


def test_T2_every_card_of_the_game_comes_from_the_deck() -> None:
    state = ThreeOrMore(players=4).new_state(seed=11)
    d = state.to_dict()
    in_play = [c for h in d["hands"] for c in h] + d["stock"] + [column(state, 3, 11)]
    assert Counter(in_play) == Counter(DEFAULT_DECK)
    custom = ["RRR"] * 24 + ["GBY"] * 24
    state = ThreeOrMore(players=2, deck=custom).new_state(seed=2)
    d = state.to_dict()
    in_play = [c for h in d["hands"] for c in h] + d["stock"] + [column(state, 3, 11)]
    assert Counter(in_play) == Counter(custom)


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        (["RRR"] * 47, "48 cards, not 47"),
        (["RRR"] * 49, "48 cards, not 49"),
        (["RRR"] * 47 + ["RRX"], r"deck card 47 is 'RRX': 'X' is not a colour"),
        (["RRR"] * 10 + ["rgb"] + ["RRR"] * 37, r"deck card 10 is 'rgb': 'r' is not a colour"),
        (["RRR"] * 5 + ["RRGG"] + ["RRR"] * 42, r"deck card 5 is 'RRGG': a card is 3 letters"),
        (["RRR"] * 5 + [7] + ["RRR"] * 42, r"deck card 5 is 7"),
        ("RRR" * 48, "deck must be None or a list"),
        (48, "deck must be None or a list"),
    ],
)
def test_T2_invalid_deck_names_the_wrong_card(deck: Any, message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        ThreeOrMore(players=2, deck=deck)


def test_T2_deck_option_is_kept_as_a_tuple_and_accepts_its_json_form() -> None:
    deck = ["RGB"] * 48
    game = ThreeOrMore(players=2, deck=deck)
    assert game.options["deck"] == tuple(deck)
    assert game == ThreeOrMore(players=2, deck=tuple(deck))
    assert json.loads(json.dumps(game.new_state(seed=1).to_dict()))["options"]["deck"] == deck


def test_T3_cards_are_laid_as_held_without_rotation() -> None:
    state = scripted(2, "GBY", ["RRG@left"])
    texts = [state.action_to_str(a) for a in state.legal_actions()]
    assert all("^" not in t for t in texts)
    play(state, "RRG@left")
    assert column(state, 3, 10) == "RRG"
    with pytest.raises(NotationError, match="allow_rotation=True"):
        state.parse_action("GBY^")


def test_T3_allow_rotation_turns_a_card_upside_down() -> None:
    state = scripted(2, "GBY", ["RRG^@left", "BYB@right"], allow_rotation=True)
    texts = [state.action_to_str(a) for a in state.legal_actions()]
    assert "RRG@left" in texts and "RRG^@left" in texts and "RRG^@right" in texts
    play(state, "RRG^@left")
    assert column(state, 3, 10) == "GRR"
    assert state.last_breakdown() == MoveScore(player=0, move="RRG^@left", points=0, lines=())
    # a card that reads the same both ways has no turned form: the action exists in
    # the notation, but it is never legal
    texts = [state.action_to_str(a) for a in state.legal_actions()]
    assert "BYB@right" in texts and "BYB^@right" not in texts
    with pytest.raises(IllegalActionError, match=r"\(BYB\^@right\)"):
        state.apply(state.parse_action("BYB^@right"))


def test_T4_deal_three_each_then_one_card_face_up_scoring_nothing() -> None:
    seed = 21
    game = ThreeOrMore(players=3)
    state = game.new_state(seed=seed)
    cards = list(DEFAULT_DECK)
    Rng(seed).shuffle(cards)
    code = {c: i for i, c in enumerate("RGBY")}

    def key(card: str) -> tuple[int, ...]:
        return tuple(code[x] for x in card)

    d = state.to_dict()
    assert d["hands"] == [sorted(cards[3 * s:3 * s + 3], key=key) for s in range(3)]
    assert column(state, 3, 11) == cards[9]
    assert d["stock"] == cards[10:]
    assert state.view(0).draw_pile_size == 48 - 3 * 3 - 1
    assert state.scores() == (0, 0, 0) and state.last_breakdown() is None
    lone = ThreeOrMore(players=2, deck=["RRR"] * 48).new_state(seed=1)
    assert column(lone, 3, 11) == "RRR" and lone.scores() == (0, 0)


# -- T5-T9: laying the grid ---------------------------------------------------------------


def test_T5_the_finished_layout_is_a_12_by_12_block() -> None:
    for seed in range(6):
        state = ThreeOrMore(players=2 + seed % 3).new_state(seed=seed)
        state.rollout(seed=seed)
        grid = state.to_dict()["grid"]
        filled = [(y, x) for y, row in enumerate(grid) for x, c in enumerate(row) if c != "."]
        assert len(filled) == 144
        ys = {y for y, _ in filled}
        xs = {x for _, x in filled}
        assert len(ys) == len(xs) == 12
        assert max(ys) - min(ys) == max(xs) - min(xs) == 11
        assert min(ys) % 3 == 0     # whole cards: edge to edge, never offset


def test_T6_row_1_grows_at_either_end_until_12_cards() -> None:
    state = scripted(2, "GBY", ["RRG@left", "BBY@right", "YYR@left"])
    assert state.view(0).places == ("left", "right")
    play(state, "RRG@left", "BBY@right", "YYR@left")
    assert [column(state, 3, c) for c in (9, 10, 11, 12)] == ["YYR", "RRG", "GBY", "BBY"]
    assert state.to_dict()["row1"] == [9, 12]
    texts = {state.action_to_str(a) for a in state.legal_actions()}
    assert all(t.endswith(("@left", "@right")) for t in texts)


def test_T6_row_1_can_run_eleven_cards_to_one_side() -> None:
    state = scripted(2, "GBY", [c + "@right" for c in ROW1])
    play(state, *[c + "@right" for c in ROW1])
    assert state.to_dict()["row1"] == [11, 22]
    assert state.view(0).places == ("top-left", "top-right", "bottom-left", "bottom-right")


@pytest.mark.parametrize(
    ("corner", "card_row", "cols"),
    [
        ("top-left", 2, [6, 7, 8]),
        ("top-right", 2, [17, 16, 15]),
        ("bottom-left", 4, [6, 7, 8]),
        ("bottom-right", 4, [17, 16, 15]),
    ],
)
def test_T7_a_corner_starts_the_next_row_which_runs_away_from_it(
    corner: str, card_row: int, cols: list[int]
) -> None:
    row1 = [c + ("@left" if i % 2 else "@right") for i, c in enumerate(ROW1)]
    moves = row1 + ["RRR@" + corner, "GGG", "BBB"]
    state = scripted(2, "GBY", moves)
    play(state, *row1)
    assert state.to_dict()["row1"] == [6, 17]
    play(state, "RRR@" + corner)
    assert state.view(0).places == ("next",)
    hand = state.to_dict()["hands"][state.current_player]
    assert [state.action_to_str(a) for a in state.legal_actions()] == list(dict.fromkeys(hand))
    play(state, "GGG", "BBB")
    assert [column(state, card_row, c) for c in cols] == ["RRR", "GGG", "BBB"]


def test_T7_only_one_row_at_a_time_and_corners_of_the_whole_block() -> None:
    row1 = [c + "@right" for c in ROW1]
    row2 = ["RRR@top-left"] + ["GBY"] * 11
    moves = row1 + row2 + ["YYY@top-right", "RGB"]
    state = scripted(2, "GBY", moves)
    play(state, *row1, row2[0])
    for card in row2[1:]:
        assert state.view(0).places == ("next",)
        assert all(a < 64 for a in state.legal_actions())     # place 0: no choice
        play(state, card)
    assert state.view(0).places == ("top-left", "top-right", "bottom-left", "bottom-right")
    play(state, "YYY@top-right", "RGB")
    # row 2 went above row 1 (card row 2), so a top corner is now above row 2
    assert column(state, 1, 22) == "YYY" and column(state, 1, 21) == "RGB"
    assert state.to_dict()["block"] == [1, 3]


def test_T8_draw_back_up_to_three_while_the_stock_lasts() -> None:
    state = ThreeOrMore(players=2).new_state(seed=8)
    while not state.is_over():
        seat = state.current_player
        assert seat is not None
        before = state.to_dict()
        state.apply(state.legal_actions()[-1])
        after = state.to_dict()
        if before["stock"]:
            assert len(after["hands"][seat]) == 3
            assert after["stock"] == before["stock"][1:]
            assert before["stock"][0] in after["hands"][seat]
        else:
            assert len(after["hands"][seat]) == len(before["hands"][seat]) - 1
    assert state.view(0).hand_sizes == (0, 0)


def test_T9_the_game_ends_when_all_48_cards_are_laid() -> None:
    state = ThreeOrMore(players=4).new_state(seed=9)
    for _ in range(46):
        state.apply(state.legal_actions()[0])
    assert not state.is_over() and state.view(0).cards_laid == 47
    state.apply(state.legal_actions()[0])
    assert state.is_over() and state.current_player is None
    assert state.legal_actions() == [] and state.view(1).places == ()
    assert state.view(1).is_over and state.view(1).current_player is None
    assert len(state.history()) == 47
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(0)


# -- T10-T13: scoring -------------------------------------------------------------------


def test_T10_two_in_a_row_is_not_a_line() -> None:
    state = scripted(2, "RGB", ["RYG@right"])
    play(state, "RYG@right")
    assert state.last_breakdown() == MoveScore(player=0, move="RYG@right", points=0, lines=())


def test_T10_horizontal_line_of_three() -> None:
    state = scripted(2, "RGB", ["RYG@right", "RBY@right"])
    play(state, "RYG@right", "RBY@right")
    assert state.last_breakdown() == MoveScore(
        player=1, move="RBY@right", points=3,
        lines=(ScoredLine("horizontal", ((9, 11), (9, 12), (9, 13)), 3),),
    )
    assert state.scores() == (0, 3)


def test_T10_falling_diagonal_line_of_three_scores_double() -> None:
    state = scripted(2, "RGB", ["GRY@right", "YGR@right"])
    play(state, "GRY@right", "YGR@right")
    assert state.last_breakdown() == MoveScore(
        player=1, move="YGR@right", points=6,
        lines=(ScoredLine("falling", ((9, 11), (10, 12), (11, 13)), 6),),
    )


def test_T10_a_line_is_maximal_and_T11_extension_scores_full_length() -> None:
    moves = ["RYG@right", "RBY@right", "RGY@right", "RBG@right"]
    state = scripted(2, "RGB", moves)
    points = []
    for move in moves:
        play(state, move)
        last = state.last_breakdown()
        assert last is not None
        points.append([(ln.direction, len(ln.squares), ln.points) for ln in last.lines])
    assert points == [[], [("horizontal", 3, 3)], [("horizontal", 4, 4)], [("horizontal", 5, 5)]]
    assert state.scores() == (4, 3 + 5)


def test_T11_seed_example_a_single_colour_card_alone_scores_3() -> None:
    # Figure 4: a card with 3 same-coloured squares is a vertical line of 3.
    state = scripted(3, "GRB", ["YYY@right"])
    play(state, "YYY@right")
    assert state.last_breakdown() == MoveScore(
        player=0, move="YYY@right", points=3,
        lines=(ScoredLine("vertical", ((9, 12), (10, 12), (11, 12)), 3),),
    )


def test_T11_seed_example_a_horizontal_3_and_a_diagonal_3_score_9() -> None:
    # Figure 5: two moves later, the player after next makes a horizontal line of 3
    # (3 points) and a diagonal line of 3 (2 x 3 points).
    state = scripted(3, "GRB", ["RBB@right", "YGY@left", "BGB@right"])
    play(state, "RBB@right", "YGY@left")
    assert state.scores() == (0, 0, 0)
    play(state, "BGB@right")
    assert state.last_breakdown() == MoveScore(
        player=2, move="BGB@right", points=9,
        lines=(
            ScoredLine("rising", ((9, 13), (10, 12), (11, 11)), 6),
            ScoredLine("horizontal", ((11, 11), (11, 12), (11, 13)), 3),
        ),
    )
    assert state.scores() == (0, 0, 9)


FIGURE_6_ROW1 = ["RGB", "GRY", "BGR", "YBG", "GYB", "BGY", "YGR", "GBY", "BYG", "YGB", "GBY"]
FIGURE_6_ROW2 = ["YGB@bottom-left", "BYG", "GBY", "YRB", "RRR", "GRB"]


def test_T11_seed_example_four_lines_at_once_score_27() -> None:
    # Figure 6: one horizontal line of 4, one vertical of 3, one diagonal of 4 and one
    # diagonal of 6 = 4 + 3 + 2 x 4 + 2 x 6 = 27.  Row 1 is columns 11..22 (the
    # starting card GBY at 11, every card laid to the right); row 2 starts below it at
    # the bottom-left corner, and the seventh card of row 2 is the scoring one.
    row1 = [c + "@right" for c in FIGURE_6_ROW1]
    moves = row1 + FIGURE_6_ROW2 + ["RRR"]
    state = scripted(2, "GBY", moves)
    play(state, *row1, *FIGURE_6_ROW2)
    play(state, "RRR")
    last = state.last_breakdown()
    assert last == MoveScore(
        player=1, move="RRR", points=27,
        lines=(
            ScoredLine("vertical", ((12, 17), (13, 17), (14, 17)), 3),
            ScoredLine("rising", ((11, 18), (12, 17), (13, 16), (14, 15)), 8),
            ScoredLine("horizontal", ((13, 14), (13, 15), (13, 16), (13, 17)), 4),
            ScoredLine("falling", ((9, 12), (10, 13), (11, 14), (12, 15), (13, 16), (14, 17)),
                       12),
        ),
    )
    lines = state.to_dict()["last_move"]["lines"]
    assert [(ln["direction"], len(ln["squares"]), ln["points"]) for ln in lines] == [
        ("vertical", 3, 3), ("rising", 4, 8), ("horizontal", 4, 4), ("falling", 6, 12)]
    assert "vertical 3 = 3, rising 4 = 8, horizontal 4 = 4, falling 6 = 12" in str(state)
    assert state.view(0).last_move == last


def test_T11_each_line_scores_once_even_through_several_new_squares() -> None:
    # RRR laid under a red square: one vertical line of 4, not one line per new square.
    row1 = [c + "@right" for c in ROW1]
    state = scripted(2, "GBR", row1 + ["RRR@bottom-left"])
    play(state, *row1, "RRR@bottom-left")
    assert state.last_breakdown() == MoveScore(
        player=1, move="RRR@bottom-left", points=4,
        lines=(ScoredLine("vertical", ((11, 11), (12, 11), (13, 11), (14, 11)), 4),),
    )


def test_T12_highest_total_wins_and_tied_leaders_share() -> None:
    game = ThreeOrMore(players=2)
    result = boardcore.simulate(game, 3000, seed=12)
    best = result.scores.max(axis=1, keepdims=True)
    assert (result.winners == (result.scores == best)).all()
    tied = np.flatnonzero(result.winners.sum(axis=1) == 2)
    assert tied.size > 0
    i = int(tied[0])
    state = game.new_state(seed=derive_seed(12, 0, i))
    outcome = state.rollout(seed=derive_seed(12, 1, i))
    assert outcome.winners == frozenset({0, 1}) and outcome.scores[0] == outcome.scores[1]


def test_T13_scores_are_the_sum_of_the_engines_breakdowns() -> None:
    state = ThreeOrMore(players=3, allow_rotation=True).new_state(seed=13)
    totals = [0, 0, 0]
    while not state.is_over():
        state.apply(state.legal_actions()[len(state.history()) % len(state.legal_actions())])
        last = state.last_breakdown()
        assert last is not None
        assert last.points == sum(ln.points for ln in last.lines)
        totals[last.player] += last.points
    assert state.scores() == tuple(totals) and sum(totals) > 0


# -- notation, views, pictures ----------------------------------------------------------


def test_notation_both_ways_for_every_action() -> None:
    for rotation in (False, True):
        state = ThreeOrMore(players=2, allow_rotation=rotation).new_state(seed=1)
        texts = {state.action_to_str(a) for a in range(state.game.num_actions)}
        assert len(texts) == state.game.num_actions
        for a in range(state.game.num_actions):
            assert state.parse_action(state.action_to_str(a)) == a
    state = scripted(2, "GBY", ["RRG@left"], allow_rotation=True)
    for a in state.legal_actions():
        assert state.parse_action(state.action_to_str(a)) == a
    assert state.action_to_str(state.parse_action("RRG^@right")) == "RRG^@right"


@pytest.mark.parametrize(
    "bad",
    ["", "RRG@", "RRG@middle", "rrg@left", "RR@left", "RRGG@left", "RXG@left", "RRG@left@right",
     "RRG^^@left", " RRG@left", "@left", "RRG left", None, 3, b"RRG@left", ["RRG@left"]],
)
def test_notation_errors(bad: Any) -> None:
    state = scripted(2, "GBY", ["RRG@left"])
    with pytest.raises(NotationError):
        state.parse_action(bad)


def test_notation_of_a_move_not_legal_here_parses_and_apply_refuses_it() -> None:
    # parse_action reads the notation only; whether the move is legal is apply's to say.
    state = scripted(2, "GBY", ["RRG@left"])
    before = state.to_dict()
    for text in ("RRG", "YYY@left", "RRG@top-left"):
        action = state.parse_action(text)
        assert state.action_to_str(action) == text
        with pytest.raises(IllegalActionError, match=r"legal: .*RRG@left"):
            state.apply(action)
    assert state.to_dict() == before


def test_view_hides_other_hands_and_the_stock() -> None:
    state = ThreeOrMore(players=3).new_state(seed=4)
    state.apply(state.legal_actions()[0])
    d = state.to_dict()
    view = state.view(2)
    assert isinstance(view, ThreeOrMoreView)
    assert view.hand == tuple(d["hands"][2])
    assert view.hand_sizes == (3, 3, 3) and view.draw_pile_size == len(d["stock"])
    assert view.grid == tuple(d["grid"]) and view.scores == state.scores()
    assert view.current_player == 1 and view.cards_laid == 2 and not view.is_over
    fields = set(ThreeOrMoreView.__dataclass_fields__)
    assert "stock" not in fields and "hands" not in fields
    for bad in (-1, 3, None, "1", 1.0, True):
        with pytest.raises((TypeError, ValueError)):
            state.view(bad)


def test_str_draws_the_grid_and_the_open_places() -> None:
    state = scripted(2, "GBY", ["RRG@left"])
    text = str(state)
    assert "*G*\n" in text and "*B*\n" in text and "*Y*\n" in text
    assert "next card goes at * (left, right)" in text
    play(state, "RRG@left")
    text = str(state)
    assert "*RG*" in text and "*RB*" in text and "*GY*" in text
    assert "last: seat 0 laid RRG@left for 0 (no line)" in text
    assert repr(state) == "<ThreeOrMoreState players=2 seat 1 to act move=1>"


def test_round_trips_copy_pickle_and_state_from_dict() -> None:
    state = ThreeOrMore(players=3, allow_rotation=True, start_player=1).new_state(seed=31)
    for _ in range(20):
        state.apply(state.legal_actions()[-1])
    d = state.to_dict()
    for other in (state.copy(), copy.copy(state), copy.deepcopy(state),
                  pickle.loads(pickle.dumps(state)),
                  state.game.state_from_dict(json.loads(json.dumps(d)))):
        assert other.to_dict() == d
        assert other.last_breakdown() == state.last_breakdown()


def test_options_defaults_and_num_actions() -> None:
    game = boardcore.make("three_or_more", players=2)
    assert dict(game.options) == {"deck": None, "allow_rotation": False, "start_player": 0}
    assert game.num_actions == 448
    assert ThreeOrMore(players=2, allow_rotation=True).num_actions == 896
    with pytest.raises(ConfigurationError, match="allow_rotation must be True or False"):
        ThreeOrMore(players=2, allow_rotation=1)
    with pytest.raises(ConfigurationError, match="unknown option 'rotation'"):
        ThreeOrMore(players=2, rotation=True)
    assert repr(ThreeOrMore(players=3, start_player=1)) == "ThreeOrMore(players=3, start_player=1)"


def test_cli_simulate(capsys: pytest.CaptureFixture[str]) -> None:
    from boardcore.cli import main

    assert main(["simulate", "three_or_more", "--players", "3", "--games", "50", "--seed", "1",
                 "--no-progress", "-o", "allow_rotation=true"]) == 0
    out = capsys.readouterr().out
    assert "three_or_more: 50 games, 3 players" in out and "best_move: mean" in out


def test_records_replay_exactly() -> None:
    state = ThreeOrMore(players=2, allow_rotation=True).new_state(seed=77)
    state.rollout(seed=2)
    rec = boardcore.record(state)
    assert any("^" in a for a in rec["actions"]) and rec["actions"][11].count("@") == 1
    assert boardcore.replay(json.loads(json.dumps(rec))).to_dict() == state.to_dict()


# -- hostile input ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "error"),
    [(None, TypeError), ("3", TypeError), (3.0, TypeError), (True, TypeError),
     (b"1", TypeError), ([1], TypeError), (-1, IllegalActionError), (2**70, IllegalActionError),
     (-(2**70), IllegalActionError), (448, IllegalActionError), (0, IllegalActionError)],
)
def test_hostile_actions_raise_and_change_nothing(action: Any, error: type) -> None:
    state = scripted(2, "GBY", ["RRG@left"])
    before = state.to_dict()
    with pytest.raises(error):
        state.apply(action)
    assert state.to_dict() == before
    if error is TypeError or action != 0:
        with pytest.raises(error):
            state.action_to_str(action)


def test_illegal_action_message_names_the_legal_moves() -> None:
    state = scripted(2, "GBY", ["RRG@left"])
    with pytest.raises(IllegalActionError,
                       match=r"illegal action 0 \(RRR\) for seat 0; legal: .*\(RRG@left\)"):
        state.apply(0)


def test_card_code_checks_its_input() -> None:
    from boardcore.three_or_more.moves import card_code

    assert card_code("RRG") == 1 and card_code("YYY") == 63
    for bad in ("RR", "RRGG", "rrg", "RXG", "", None, 3, b"RRG"):
        with pytest.raises(NotationError, match="3 of the letters"):
            card_code(bad)


def test_the_position_is_small_enough_for_an_inline_struct_copy() -> None:
    from boardcore._engine.three_or_more import STATE_BYTES

    assert STATE_BYTES <= 256


def test_states_come_from_a_game_only() -> None:
    with pytest.raises(TypeError, match="new_state"):
        ThreeOrMoreState()


@pytest.mark.parametrize("bad", [None, -1, 2**70, "3", 3.0, True, 1, 5])
def test_hostile_player_counts(bad: Any) -> None:
    with pytest.raises(ConfigurationError, match="players"):
        ThreeOrMore(players=bad)


@pytest.mark.parametrize(("bad", "error"), [(-1, ValueError), (2**70, ValueError),
                                            ("3", TypeError), (3.0, TypeError),
                                            (True, TypeError), ([1], TypeError)])
def test_hostile_seeds(bad: Any, error: type) -> None:
    with pytest.raises(error, match="seed"):
        ThreeOrMore(players=2).new_state(seed=bad)


def test_rollout_seed_is_checked() -> None:
    state = ThreeOrMore(players=2).new_state(seed=1)
    before = state.to_dict()
    for bad, error in (("1", TypeError), (1.5, TypeError), (-1, ValueError), (2**64, ValueError)):
        with pytest.raises(error):
            state.rollout(seed=bad)
        assert state.to_dict() == before


def _tampered(d: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    out = []

    def change(name: str, **fields: Any) -> None:
        out.append((name, {**d, **fields}))

    change("history", history=d["history"][:-1])
    change("history", history=d["history"] + [d["history"][0]])
    change("history", history=[True] + d["history"][1:])
    change("history", history=[2**70] + d["history"][1:])
    change("history", history=None)
    change("history", history=list(range(60)))
    change("scores", scores=[s + 1 for s in d["scores"]])
    change("scores", scores=[float(s) for s in d["scores"]])
    change("hands", hands=d["hands"][::-1])
    change("stock", stock=d["stock"][1:])
    change("grid", grid=d["grid"][:-1])
    change("grid", grid=["R" * 23] + d["grid"][1:])
    change("current_player", current_player=None)
    change("row1", row1=[5, 16])
    change("block", block=[3])
    change("open_row", open_row=[0, 0, 1])
    change("last_move", last_move=None)
    change("rng", rng=[0, 0, 0, 0])
    change("seed", seed=d["seed"] + 1)
    change("seed", seed="1")
    change("players", players=4)
    change("options", options={**d["options"], "allow_rotation": True})
    change("unknown field 'extra'", extra=1)
    missing = dict(d)
    del missing["stock"]
    out.append(("no field 'stock'", missing))
    return out


def test_tampered_or_truncated_state_data_is_refused() -> None:
    state = ThreeOrMore(players=3).new_state(seed=5)
    for _ in range(14):
        state.apply(state.legal_actions()[0])
    d = state.to_dict()
    game = state.game
    for name, data in _tampered(d):
        with pytest.raises(InvalidStateError, match=name):
            game.state_from_dict(data)
    for bad in (None, [], "x", 3, {}):
        with pytest.raises(InvalidStateError):
            game.state_from_dict(bad)
    assert game.state_from_dict(d).to_dict() == d


def test_score_kernel_bench_hook_scores_real_positions() -> None:
    from boardcore._engine.three_or_more import _ScoreBench

    bench = _ScoreBench(ThreeOrMore(players=3), 200, 4)
    once = bench.run(1)
    assert bench.positions == 200 and once > 0 and bench.run(3) == 3 * once
    with pytest.raises(ValueError, match="positions must be at least 1"):
        _ScoreBench(ThreeOrMore(players=2), 0, 4)


def test_simulate_stats_count_every_line_and_the_best_card() -> None:
    game = ThreeOrMore(players=3, allow_rotation=True)
    result = boardcore.simulate(game, 6, seed=4)
    for i in range(6):
        state = game.new_state(seed=derive_seed(4, 0, i))
        player = Rng(derive_seed(4, 1, i))
        lines = best = 0
        while not state.is_over():
            legal = state.legal_actions()
            state.apply(legal[player.bounded(len(legal))])
            last = state.last_breakdown()
            assert last is not None
            lines += len(last.lines)
            best = max(best, last.points)
        assert result.stats["lines"][i] == lines and result.stats["best_move"][i] == best
        assert tuple(result.scores[i]) == state.scores()


def test_simulate_arguments_are_checked() -> None:
    game = ThreeOrMore(players=2)
    with pytest.raises(TypeError):
        boardcore.simulate(game, "10", seed=1)
    with pytest.raises(ValueError):
        boardcore.simulate(game, 0, seed=1)
    result = boardcore.simulate(game, 10, seed=1, workers=2)
    assert (result.scores == boardcore.simulate(game, 10, seed=1).scores).all()


# -- set-up positions -------------------------------------------------------------------


def _position(state: ThreeOrMoreState) -> dict[str, Any]:
    return {k: v for k, v in state.to_dict().items() if k not in ("history", "setup")}


def test_set_up_positions_play_on_exactly_like_the_game_they_come_from() -> None:
    """Every step of seeded games, with rotation and another start player.

    The position drawn from its own fields is the same position: views, planes, moves,
    explanations.
    """
    for players, rotation in ((2, True), (3, False), (4, True)):
        game = ThreeOrMore(players=players, allow_rotation=rotation, start_player=1)
        for seed in range(3):
            state = game.new_state(seed=seed)
            rng = np.random.default_rng(seed)
            while True:
                start = set_up(game, state.to_dict())
                assert _position(start) == _position(state)
                assert start.history() == [] and start.last_move is None
                assert start.legal_actions() == state.legal_actions()
                for p in range(players):
                    assert start.view(p) == state.view(p)
                    assert np.array_equal(start.observation(p), state.observation(p))
                if state.is_over():
                    break
                action = int(rng.choice(state.legal_actions()))
                assert start.explain(action) == state.explain(action)
                state.apply(action)


def test_set_up_history_starts_there_and_undo_comes_back_to_it() -> None:
    state = ThreeOrMore(players=2).new_state(seed=3)
    for _ in range(30):
        state.apply(state.legal_actions()[0])
    start = set_up(state.game, state.to_dict())
    first = start.to_dict()
    assert first["setup"]["grid"] == first["grid"] and first["history"] == []
    assert repr(start) == "<ThreeOrMoreState players=2 seat 0 to act move=0>"
    start.apply(start.legal_actions()[-1])
    start.apply(start.legal_actions()[0])
    assert len(start.history()) == 2 and start.last_move is not None
    again = start.game.state_from_dict(json.loads(json.dumps(start.to_dict())))
    assert again.to_dict() == start.to_dict()
    start.undo()
    start.undo()
    assert start.to_dict() == first
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        start.undo()


def test_set_up_a_hand_drawn_position() -> None:
    # Row 1 of four cards; the other hands and the stock rearranged by hand.
    state = scripted(2, "RGB", ["RYG@right", "RBY@right", "YYY@left"])
    play(state, "RYG@right", "RBY@right", "YYY@left")
    doc = state.to_dict()
    doc["hands"] = [doc["hands"][0], sorted(doc["stock"][:3], key=_code)]
    doc["stock"] = doc["hands"][1][:0] + state.to_dict()["hands"][1] + doc["stock"][3:]
    doc["stock"] = doc["stock"][::-1]
    start = set_up(state.game, doc)
    assert start.view(0) == state.view(0) and start.view(1) != state.view(1)
    assert start.view(1).hand == tuple(doc["hands"][1])
    assert start.to_dict()["stock"] == doc["stock"]
    assert start.last_breakdown() == state.last_breakdown()
    start.rollout(seed=1)
    assert start.is_over() and len(start.history()) == 44


def _code(card: str) -> int:
    from boardcore.three_or_more.moves import card_code

    return card_code(card)


def _broken(doc: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Set-up positions that break a rule, with what the refusal must say."""
    out = []

    def change(message: str, **fields: Any) -> None:
        out.append((message, {**doc, **fields}))

    grid = doc["grid"]
    half = list(grid)
    half[9] = half[9][:11] + "." + half[9][12:]
    change("not a whole card|the card at card row 3, column 11", grid=half)
    stray = list(grid)
    stray[0] = "R" + stray[0][1:]
    change("no card lies", grid=stray)
    change("row 1 holds the starting card's column", row1=[12, 14])
    change("another row begins only once", block=[2, 3])
    change("the block holds row 1", block=[4, 5])
    change("'open_row'", open_row=[2, 12, 1])
    hands = [list(h) for h in doc["hands"]]
    hands[0][0] = hands[1][0]
    change(r"deck.*\(T2\)", hands=[sorted(h, key=_code) for h in hands])
    change("ascending", hands=[h[::-1] for h in doc["hands"]])
    change("3 cards while the stock lasts",
           hands=[doc["hands"][0][:2], doc["hands"][1]], stock=doc["stock"] + doc["hands"][0][2:])
    change("the game is over exactly when", current_player=None)
    change("cannot be the next to play", current_player=1 - doc["current_player"])
    last = dict(doc["last_move"])
    more = [v + 1 for v in doc["scores"]]
    change("not what laying", last_move={**last, "points": last["points"] + 1}, scores=more)
    change("more than seat", last_move={**last, "points": last["points"] + 1})
    change("not what laying", last_move={**last, "lines": []})
    change("cannot have laid card", last_move={**last, "move": "YYY@top-left"})
    change("is not a move", last_move={**last, "move": last["move"] + "@left"})
    change("field 'last_move'", last_move={**last, "player": 5})
    change("field 'last_move' is null", last_move=None)
    change("field 'rng'", rng=[1, 2, 3, 4])
    change("field 'scores'", scores=[-1, 0])
    return out


def test_T11_set_up_scores_no_more_than_the_laid_cards_can() -> None:
    """Issue 22, item 15: 500 points with only the starting card laid loaded.

    The starting card scores nothing (T4); each card laid since scored at most the lines
    through its squares as the table lies now (T11: lines only grow), so their sum bounds
    the scores whatever the order of laying.
    """
    game = boardcore.make("three_or_more", players=2)
    doc = game.new_state(seed=1).to_dict()
    with pytest.raises(InvalidStateError, match=r"the 0 cards laid after the starting one "
                                                r"score at most 0 .* \(T4, T11\)"):
        set_up(game, {**doc, "scores": [500, 0]})
    state = scripted(2, "RGB", ["RYG@right", "RBY@right", "YYY@left"])
    play(state, "RYG@right", "RBY@right", "YYY@left")
    doc = state.to_dict()
    assert sum(doc["scores"]) > 0
    with pytest.raises(InvalidStateError, match=r"the 3 cards laid .* score at most"):
        set_up(state.game, {**doc, "scores": [doc["scores"][0] + 40, doc["scores"][1]]})
    assert set_up(state.game, doc).scores() == state.scores()


def test_engine_set_up_refuses_a_game_going_on_without_a_legal_action() -> None:
    # Issue 22, item 17: the engine's own entry made a live position whose seat to act
    # held no card.
    from boardcore.three_or_more.moves import card_code

    game = boardcore.make("three_or_more", players=2)
    snapshot = game.new_state(seed=1).snapshot()
    starter = card_code("".join(row[11] for row in snapshot.grid[9:12]))
    stock = list(snapshot.stock)
    values = {"table": [starter], "last_player": None, "hands": [[], list(snapshot.hands[1])],
              "stock": stock + list(snapshot.hands[0]), "scores": [0, 0], "current_player": 0}
    with pytest.raises(InvalidStateError, match="seat to act has no legal action"):
        game._engine.set_up(game, 1, values)
    values = {**values, "hands": [list(snapshot.hands[0]), list(snapshot.hands[1])],
              "stock": stock}
    assert game._engine.set_up(game, 1, values).current_player == 0


def test_set_up_positions_that_break_the_rules_are_refused() -> None:
    state = scripted(2, "RGB", ["RYG@right", "RBY@right", "YYY@left"])
    play(state, "RYG@right", "RBY@right", "YYY@left")
    doc = state.to_dict()
    assert set_up(state.game, doc).view(1) == state.view(1)
    for message, broken in _broken(doc):
        with pytest.raises(InvalidStateError, match=message):
            set_up(state.game, broken)
    # the card that filled a row of rows 2-4 lies at one of the row's ends: its card and
    # its score say which
    row1 = [c + "@right" for c in ROW1]
    row2 = ["RRR@bottom-left"] + ["GBY"] * 11
    full = scripted(2, "GBY", [*row1, *row2])
    play(full, *row1, *row2)
    assert set_up(full.game, full.to_dict()).view(0) == full.view(0)
    with pytest.raises(InvalidStateError, match="not what laying"):
        set_up(full.game, {**full.to_dict(), "last_move": {
            **full.to_dict()["last_move"], "move": "RRR"}})
    # an open row: it runs away from its corner and is not full
    state = scripted(2, "GBY", [*row1, "GGG@top-right", "RRR"])
    play(state, *row1, "GGG@top-right", "RRR")
    doc = state.to_dict()
    assert doc["open_row"] == [2, 20, -1] and set_up(state.game, doc).view(0) == state.view(0)
    for message, fields in [
        ("no card lies|a card lies there", {"open_row": [2, 13, 1]}),
        ("not yet full", {"open_row": [2, 9, -1]}),
        ("top or bottom row", {"open_row": [4, 20, -1]}),
        ("a card lies there", {"open_row": None}),
    ]:
        with pytest.raises(InvalidStateError, match=message):
            set_up(state.game, {**doc, **fields})
    # the stock gone: the seat to play holds the most cards
    late = ThreeOrMore(players=3).new_state(seed=2)
    for _ in range(42):
        late.apply(late.legal_actions()[0])
    doc = late.to_dict()
    assert doc["stock"] == [] and [len(h) for h in doc["hands"]] == [2, 2, 1]
    assert set_up(late.game, doc).view(0) == late.view(0)
    with pytest.raises(InvalidStateError, match="plays from the largest hand"):
        set_up(late.game, {**doc, "hands": doc["hands"][::-1]})
    with pytest.raises(InvalidStateError, match="the game is over exactly when"):
        set_up(late.game, {**doc, "current_player": None})


# -- determinization --------------------------------------------------------------------


def test_determinize_redraws_only_what_the_seat_cannot_see() -> None:
    from boardcore._engine import _search

    state = ThreeOrMore(players=3).new_state(seed=6)
    for _ in range(10):
        state.apply(state.legal_actions()[-1])
    doc = state.to_dict()
    for seat in range(3):
        seen = set()
        for seed in range(20):
            other = _search.determinize(state, seat, seed=seed)
            d = other.to_dict()
            assert other.view(seat) == state.view(seat)
            assert d["hands"][seat] == doc["hands"][seat]
            unseen = [c for p in range(3) if p != seat for c in doc["hands"][p]] + doc["stock"]
            redrawn = [c for p in range(3) if p != seat for c in d["hands"][p]] + d["stock"]
            assert Counter(redrawn) == Counter(unseen)
            assert [len(h) for h in d["hands"]] == [len(h) for h in doc["hands"]]
            assert {k: d[k] for k in ("grid", "scores", "last_move", "current_player")} == {
                k: doc[k] for k in ("grid", "scores", "last_move", "current_player")}
            seen.add(json.dumps([d["hands"], d["stock"]]))
        assert len(seen) == 20


def test_determinizations_are_uniform() -> None:
    """Two cards left in the stock, three in the other hand.

    Every consistent deal of the five unseen cards comes as often as it should (a
    chi-square test at p = 0.001).
    """
    import itertools
    import math

    from boardcore._engine import _search

    state = ThreeOrMore(players=2).new_state(seed=5)
    for _ in range(39):
        state.apply(state.legal_actions()[0])
    doc = state.to_dict()
    seat = state.current_player
    assert seat is not None and len(doc["stock"]) == 2
    unseen = sorted(doc["hands"][1 - seat] + doc["stock"], key=_code)
    expected: Counter[tuple[tuple[str, ...], tuple[str, ...]]] = Counter()
    for perm in itertools.permutations(unseen):
        expected[(tuple(sorted(perm[:3], key=_code)), perm[3:])] += 1
    samples = 6000
    seen: Counter[tuple[tuple[str, ...], tuple[str, ...]]] = Counter()
    for i in range(samples):
        d = _search.determinize(state, seat, seed=i).to_dict()
        seen[(tuple(d["hands"][1 - seat]), tuple(d["stock"]))] += 1
    assert set(seen) <= set(expected) and len(expected) >= 10
    total = sum(expected.values())
    chi2 = sum((seen[k] - samples * v / total) ** 2 / (samples * v / total)
               for k, v in expected.items())
    df = len(expected) - 1
    critical = df * (1 - 2 / (9 * df) + 3.0902 * math.sqrt(2 / (9 * df))) ** 3
    assert chi2 < critical, (chi2, critical)


def test_search_decisions_ignore_other_hands_and_the_stock_order() -> None:
    from boardcore.agents import FlatMonteCarloAgent, ISMCTSAgent

    state = ThreeOrMore(players=3).new_state(seed=8)
    for _ in range(7):
        state.apply(state.legal_actions()[0])
    doc = state.to_dict()
    seat = state.current_player
    assert seat is not None
    swapped = dict(doc)
    others = [p for p in range(3) if p != seat]
    swapped["hands"] = list(doc["hands"])
    swapped["hands"][others[0]], swapped["hands"][others[1]] = (
        doc["hands"][others[1]], doc["hands"][others[0]])
    swapped["stock"] = doc["stock"][::-1]
    a, b = set_up(state.game, doc), set_up(state.game, swapped)
    assert a.view(seat) == b.view(seat) and a.view(others[0]) != b.view(others[0])
    assert ISMCTSAgent(300, seed=2).visits(a) == ISMCTSAgent(300, seed=2).visits(b)
    assert FlatMonteCarloAgent(5, seed=2).values(a) == FlatMonteCarloAgent(5, seed=2).values(b)


# -- observations -----------------------------------------------------------------------


def _planes(state: ThreeOrMoreState, seat: int) -> dict[str, Any]:
    obs = state.observation(seat)
    out, start = {}, 0
    for name, size in state.game.observation_planes:
        out[name] = obs[start:start + size]
        start += size
    return out


def test_observation_planes_of_a_known_position() -> None:
    # Row 1: RGB (the start), RYG, RBY to its right; seat 1 scored a horizontal 3.
    state = scripted(2, "RGB", ["RYG@right", "RBY@right"])
    play(state, "RYG@right", "RBY@right")
    game = state.game
    assert game.observation_shape == (734,)
    assert [n for n, _ in game.observation_planes] == [
        "table", "next_slot", "phase", "hand", "unseen", "hand_sizes", "scores", "to_act",
        "stock_size"]
    doc = state.to_dict()
    p = _planes(state, 0)
    table = p["table"].reshape(4, 12, 12)      # colour, square row, square column
    expected = np.zeros((4, 12, 12), np.float32)
    for col, card in enumerate(["RGB", "RYG", "RBY"]):
        for i, colour in enumerate(card):
            expected["RGBY".index(colour), i, col] = 1
    assert np.array_equal(table, expected)
    assert not p["next_slot"].any() and p["phase"].tolist() == [1, 0, 0]
    hand = p["hand"].reshape(3, 3, 4)          # card, square, colour
    for k, card in enumerate(doc["hands"][0]):
        assert [int(np.argmax(hand[k, i])) for i in range(3)] == ["RGBY".index(c) for c in card]
    unseen = Counter(doc["hands"][1] + doc["stock"])
    assert np.allclose(p["unseen"], [unseen[_text(code)] / 3 for code in range(64)])
    assert np.allclose(p["hand_sizes"], [1, 1]) and np.allclose(p["scores"], [0, 3 / 128])
    assert p["to_act"].tolist() == [1, 0] and np.isclose(p["stock_size"][0], 39 / 48)
    q = _planes(state, 1)                      # seats are counted from the observer
    assert np.allclose(q["scores"], [3 / 128, 0]) and q["to_act"].tolist() == [0, 1]
    assert np.array_equal(q["table"], p["table"]) and not np.array_equal(q["hand"], p["hand"])


def _text(code: int) -> str:
    return "".join("RGBY"[(code >> s) & 3] for s in (4, 2, 0))


def test_observation_marks_the_open_rows_next_slot_in_the_blocks_frame() -> None:
    row1 = [c + "@right" for c in ROW1]
    state = scripted(2, "GBY", [*row1, "RRR@top-left", "GGG", "BBB"])
    play(state, *row1)
    assert _planes(state, 0)["phase"].tolist() == [0, 1, 0]
    play(state, "RRR@top-left", "GGG")
    p = _planes(state, 1)
    assert p["phase"].tolist() == [0, 0, 1]
    # the block is now card rows 2-3, row 1 from column 11; row 2 runs right from 11
    assert np.flatnonzero(p["next_slot"]).tolist() == [0 * 12 + 2]
    table = p["table"].reshape(4, 12, 12)
    assert table[0, 0:3, 0].tolist() == [1, 1, 1] and table[1, 0:3, 1].tolist() == [1, 1, 1]
    assert table[:, 3:6, :].sum() == 36 and table[:, 6:, :].sum() == 0


# -- explained moves and pictures -------------------------------------------------------


def test_explain_a_scoring_move_and_last_move() -> None:
    row1 = [c + "@right" for c in FIGURE_6_ROW1]
    state = scripted(2, "GBY", [*row1, *FIGURE_6_ROW2, "RRR"])
    play(state, *row1, *FIGURE_6_ROW2)
    move = state.explain(state.parse_action("RRR"))
    assert isinstance(move, ThreeOrMoreMove)
    assert (move.player, move.move, move.card, move.shown, move.place, move.slot) == (
        1, "RRR", "RRR", "RRR", "next", (4, 17))
    assert move.points == 27 and [ln.points for ln in move.lines] == [3, 8, 4, 12]
    assert move.drew and move.lines == state.copy().explain(state.parse_action("RRR")).lines
    play(state, "RRR")
    assert state.last_move == move and state.last_breakdown().lines == move.lines


def test_explain_a_turned_card_and_the_last_cards_without_a_draw() -> None:
    state = scripted(2, "GBY", ["RRG^@left"], allow_rotation=True)
    move = state.explain(state.parse_action("RRG^@left"))
    assert (move.card, move.shown, move.place, move.slot, move.points) == (
        "RRG", "GRR", "left", (3, 10), 0)
    state.rollout(seed=3)
    last = state.last_move
    assert last is not None and not last.drew and last.player == 0
    assert set_up(state.game, state.to_dict()).last_move is None


def test_picture_of_a_known_position() -> None:
    import xml.etree.ElementTree as ET

    from boardcore.pictures import HIGHLIGHT
    from boardcore.three_or_more.picture import COLOURS

    state = scripted(3, "GRB", ["RBB@right", "YGY@left", "BGB@right"])
    assert HIGHLIGHT not in state.svg()
    play(state, "RBB@right", "YGY@left", "BGB@right")
    ns = "{http://www.w3.org/2000/svg}"
    root = ET.fromstring(state.svg(size=600, perspective=0))
    rects = root.findall(f"{ns}rect")
    fills = Counter(r.get("fill") for r in rects)
    # 4 cards on the table (12 squares) and seat 0's 3 cards in hand (9 squares)
    assert sum(fills[c] for c in COLOURS.values()) == 12 + 9
    assert fills["#5b6b8c"] == 6                          # seats 1 and 2 face down
    dashed = [r for r in rects if r.get("stroke-dasharray")]
    assert len(dashed) == 2                               # left and right of row 1
    texts = [t.text for t in root.iter(f"{ns}text")]
    assert "L" in texts and "R" in texts and "9" in texts
    assert "last: seat 2 laid BGB@right, 9 points" in texts
    lines = [e for e in root.iter(f"{ns}line") if e.get("stroke") == HIGHLIGHT]
    assert len(lines) == 2                                # the rising 3 and the horizontal 3
    everyone = ET.fromstring(state.svg(size=600))
    assert Counter(r.get("fill") for r in everyone.findall(f"{ns}rect"))["#5b6b8c"] == 0
    cairosvg = pytest.importorskip("cairosvg")
    png = cairosvg.svg2png(bytestring=state.svg(size=600).encode())
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_differential_single_colour_decks_longest_lines() -> None:
    # Against the reference: every square red (or nearly), so lines of 12 in every
    # direction and the highest scores.
    from boardcore.simulate import derive_seed
    from tests.test_differential import play_side_by_side

    for i in range(30):
        deck = ["RRR"] * 48 if i % 2 else ["RRR"] * 40 + ["RGR", "GRG"] * 4
        play_side_by_side("three_or_more", 2 + i % 3, {"deck": deck, "allow_rotation": i % 3 == 0},
                          derive_seed(2024, 0, i), derive_seed(2024, 1, i))
