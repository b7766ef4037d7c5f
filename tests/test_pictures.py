"""Pictures: self-contained SVG for every game, hidden cards face down, last move marked."""

from __future__ import annotations

import random
import struct
import xml.etree.ElementTree as ET
from typing import Any

import pytest

import boardcore
from boardcore._engine import _search
from boardcore.pictures import HIGHLIGHT
from tests.conftest import player_counts, random_walk

SVG = "{http://www.w3.org/2000/svg}"


def positions(name: str) -> list[Any]:
    out = []
    for players in player_counts(name):
        game = boardcore.make(name, players=players)
        for i, steps in enumerate((0, 5, 30, 10_000)):
            state = game.new_state(seed=players * 10 + i)
            for _, _a in zip(range(steps), random_walk(state, random.Random(i))):
                pass
            out.append(state)
    return out


def _png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_svg_parses_renders_and_is_self_contained(name: str) -> None:
    cairosvg = pytest.importorskip("cairosvg")
    for state in positions(name):
        for size, perspective in ((240, None), (480, 0)):
            text = state.svg(size=size, perspective=perspective)
            root = ET.fromstring(text)
            assert root.tag == f"{SVG}svg" and root.get("width") == str(size)
            assert "href" not in text and "url(" not in text and "@import" not in text
            png = cairosvg.svg2png(bytestring=text.encode())
            width, height = _png_size(png)
            assert width == size and height == int(root.get("height", "0"))
        assert state._repr_svg_() == state.svg()


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_perspective_hides_what_the_seat_cannot_see(name: str) -> None:
    """Two positions that differ only in what a seat cannot see look the same to it."""
    for state in positions(name):
        if state.is_over():
            continue
        for seat in range(state.game.num_players):
            a = _search.determinize(state, seat, seed=5)
            b = _search.determinize(state, seat, seed=6)
            assert a.view(seat) == b.view(seat)
            assert a.svg(perspective=seat) == b.svg(perspective=seat)
            hands_differ = any(a.view(q).hand != b.view(q).hand
                               for q in range(state.game.num_players))
            assert (a.svg() != b.svg()) == hands_differ


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_last_move_is_highlighted(name: str) -> None:
    state = boardcore.make(name, players=player_counts(name)[0]).new_state(seed=3)
    assert HIGHLIGHT not in state.svg()
    state.apply(state.legal_actions()[0])
    assert HIGHLIGHT in state.svg()


def test_bad_arguments() -> None:
    state = boardcore.make("just4fun", players=2).new_state(seed=1)
    for bad in (0, 10**6, -5):
        with pytest.raises(ValueError):
            state.svg(size=bad)
    for bad in ("big", 3.5, None):
        with pytest.raises(TypeError):
            state.svg(size=bad)  # type: ignore[arg-type]
    for bad in (2, -1):
        with pytest.raises(ValueError):
            state.svg(perspective=bad)
    with pytest.raises(TypeError):
        state.svg(perspective="0")  # type: ignore[arg-type]
