"""What the fuzz harnesses found in the engines and facades, kept as regression tests.

Each case is the smallest input that shows one finding of ``make fuzz``
(``tests/fuzz/``), written out so that it reads without the harness. The contract
(docs/api.md, "Errors"): text that names no action raises ``NotationError``, and an
error message quotes at most about 200 characters of the bad value.
"""

from __future__ import annotations

import pytest

import boardcore
from boardcore import NotationError

#: A message may hold the value's 200 quoted characters, their count and its prose.
LIMIT = 400


def _state(name: str) -> boardcore.State:
    from boardcore._registry import GAME_CLASSES

    return boardcore.make(name, players=GAME_CLASSES[name].min_players).new_state(seed=0)


@pytest.mark.parametrize("text", [
    "x" * 5000,                         # the final "write 'new R3 ...'" message
    "new R3 J(R4) " + "Q" * 5000,       # the bad tile, quoted twice
    "extend 0 left " + "x" * 5000,      # no run 0 on the table
    "swap " + "9" * 5000 + " 0",        # int() of 5,000 digits: Python's ValueError
    "extend " + "9" * 5000 + " left R1",
])
def test_rummikub_junior_parse_action_quotes_at_most_200_characters(text: str) -> None:
    # src/engine/rummikub_junior.pyx, parse_action: f"bad notation {text!r}: ..." quotes
    # the whole text (5,113 characters of message for "x" * 5000).
    with pytest.raises(NotationError) as info:
        _state("rummikub_junior").parse_action(text)
    assert len(str(info.value)) <= LIMIT, str(info.value)[:300]


def test_a_record_action_of_unpaired_surrogates_is_quoted_short() -> None:
    # make fuzz (fuzz_replay): text read with surrogateescape; replay cut the text to 60
    # characters before repr() wrote each unpaired surrogate in six (807 characters).
    import json

    state = _state("rummikub_junior")
    rec = json.loads(json.dumps(boardcore.record(state)))
    rec["actions"] = ["extend 1 right J(" + "\udcb2" * 46 + "K4)"]
    with pytest.raises(boardcore.InvalidStateError) as info:
        boardcore.replay(rec)
    assert len(str(info.value)) <= LIMIT, str(info.value)[:300]


@pytest.mark.parametrize("text", ["9" * 5000, "5+" + "0" * 4400 + "5"])
def test_just4fun_parse_action_of_a_huge_number_is_a_notation_error(text: str) -> None:
    # src/engine/just4fun.pyx, _parse: int(p) of more than 4,300 digits raises Python's
    # plain ValueError ("Exceeds the limit (4300 digits) for integer string conversion").
    with pytest.raises(NotationError):
        _state("just4fun").parse_action(text)


@pytest.mark.parametrize("text", ["1" + "0" * 4000, "20" + " " * 5000 + "+1"])
def test_just4fun_parse_action_quotes_at_most_200_characters(text: str) -> None:
    # src/engine/just4fun.pyx, _parse: "card values are 1..19" quotes {text!r} uncut.
    with pytest.raises(NotationError) as info:
        _state("just4fun").parse_action(text)
    assert len(str(info.value)) <= LIMIT, str(info.value)[:300]


#: Option values the facades' checks must quote cut (a 5,000-character string, a list of
#: 5,000 items) or at all (an int of more than 4,300 digits, which repr() refuses).
HUGE = {"string": "x" * 5000, "list": [0] * 5000, "int": 2**20000}


@pytest.mark.parametrize(("name", "option"), [
    ("just4fun", "layout"),             # src/pyapi/just4fun.py, _check_layout
    ("just4fun", "returned_on_lock"),   # src/pyapi/just4fun.py, _normalize_options
    ("just4fun", "start_player"),
    ("three_or_more", "deck"),          # src/pyapi/three_or_more.py, _normalize_options
    ("three_or_more", "allow_rotation"),
    ("three_or_more", "start_player"),
    ("rummikub_junior", "start_player"),  # src/pyapi/rummikub_junior.py
])
@pytest.mark.parametrize("kind", HUGE)
def test_a_bad_option_is_quoted_at_most_200_characters(name: str, option: str,
                                                        kind: str) -> None:
    # The facades write f"... not {value!r}": the whole value (15,050 characters of
    # message for a list of 5,000 zeros), and for a huge int Python's plain ValueError
    # ("Exceeds the limit (4300 digits) for integer string conversion").
    from boardcore._registry import GAME_CLASSES

    players = GAME_CLASSES[name].min_players
    with pytest.raises(boardcore.ConfigurationError) as info:
        boardcore.make(name, players=players, **{option: HUGE[kind]})
    assert len(str(info.value)) <= LIMIT, str(info.value)[:300]


@pytest.mark.parametrize("players", [2**20000, -(2**20000)], ids=["2**20000", "-2**20000"])
def test_a_huge_player_count_is_a_configuration_error(players: int) -> None:
    # Fixed in boardcore.values.quote: repr() of an int past 4,300 digits raised
    # ValueError out of the message being written.
    for name in boardcore.GAMES:
        with pytest.raises(boardcore.ConfigurationError, match="too long to write out"):
            boardcore.make(name, players=players)


def test_a_record_action_that_does_not_replay_is_quoted_once() -> None:
    # make fuzz (fuzz_replay): the record's text was quoted in full by replay and again
    # by the engine's notation error (809 characters of message).
    import json

    state = _state("rummikub_junior")
    rec = json.loads(json.dumps(boardcore.record(state)))
    rec["actions"] = ["extend 3 right J(R10)" + "\u00ec" * 500]
    with pytest.raises(boardcore.InvalidStateError) as info:
        boardcore.replay(rec)
    assert len(str(info.value)) <= LIMIT, str(info.value)[:300]


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_a_record_action_that_is_not_text_is_quoted_short(name: str) -> None:
    # make fuzz (fuzz_replay): a record whose action is a whole document; Fool's
    # parse_action quoted the non-str value uncut (821 characters of message).
    import json

    state = _state(name)
    rec = json.loads(json.dumps(boardcore.record(state)))
    rec["actions"] = [{"nested": list(range(2000))}]
    with pytest.raises(boardcore.InvalidStateError) as info:
        boardcore.replay(rec)
    assert len(str(info.value)) <= LIMIT, str(info.value)[:300]


@pytest.mark.parametrize("call", [
    lambda big: _state("fool").parse_action(big),
    lambda big: boardcore.simulate(big, 10, seed=1),
    lambda big: boardcore.simulate(boardcore.make("fool", players=4), 10 - 10**5000, seed=1),
    lambda big: boardcore.agents.ISMCTSAgent(iterations=big),
    lambda big: boardcore.agents.ISMCTSAgent(time_limit=big),
    lambda big: boardcore.agents.ISMCTSAgent(iterations=100, exploration=big),
], ids=["parse_action", "simulate-game", "simulate-games", "iterations", "time_limit",
        "exploration"])
def test_messages_quote_a_huge_argument_short(call: object) -> None:
    # The same finding, searched for by hand: every message that wrote an argument
    # with !r now quotes it (values.quote); a 10**5000 int cannot even be repr()ed.
    big = list(range(100_000))
    with pytest.raises((TypeError, boardcore.BoardcoreError)) as info:
        call(big)  # type: ignore[operator]
    assert len(str(info.value)) <= LIMIT, str(info.value)[:300]
