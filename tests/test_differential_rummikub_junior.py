"""The compiled Rummikub Junior engine against the pure-Python reference.

State by state, and its move generator against a brute-force enumeration on random racks and tables.
"""

from __future__ import annotations

from typing import Any

import pytest

import boardcore
from boardcore import IllegalActionError, InvalidStateError
from boardcore.simulate import derive_seed
from tests.conftest import set_up
from tests.reference import rummikub_junior as ref
from tests.reference._rng import Rng

GAMES_DEFAULT = 2004
GAMES_SLOW = 30000
POSITIONS_DEFAULT = 3000
POSITIONS_SLOW = 30000

CONFIGS = [
    (2, {}),
    (3, {}),
    (4, {}),
    (2, {"start_player": 1}),
    (3, {"start_player": 2}),
    (4, {"start_player": 3}),
]


def _compare(state: Any, model: ref.RummikubJuniorRef) -> None:
    assert state.to_dict() == model.to_dict()
    assert state.scores() == model.scores()
    assert state.current_player == model.current
    outcome = state.outcome()
    expected = model.outcome()
    if expected is None:
        assert outcome is None
    else:
        assert (outcome.scores, outcome.winners) == expected


def play_side_by_side(players: int, options: dict[str, Any], index: int) -> int:
    """Play game ``index`` of a batch in both, comparing everything after every action."""
    game = boardcore.make("rummikub_junior", players=players, **options)
    seed = derive_seed(4242, 0, index)
    state = game.new_state(seed=seed)
    model = ref.RummikubJuniorRef(players, seed, **options)
    chooser = Rng(derive_seed(4242, 1, index))
    _compare(state, model)
    steps = 0
    while not state.is_over():
        legal = state.legal_actions()
        assert legal == model.legal_actions()
        action = legal[chooser.bounded(len(legal))]
        state.apply(action)
        model.apply(action)
        _compare(state, model)
        steps += 1
    assert state.legal_actions() == model.legal_actions() == []
    return steps


@pytest.mark.parametrize("players, options", CONFIGS)
def test_engine_matches_reference(players: int, options: dict[str, Any]) -> None:
    for i in range(GAMES_DEFAULT // len(CONFIGS)):
        play_side_by_side(players, options, i)


@pytest.mark.slow
@pytest.mark.parametrize("players, options", CONFIGS)
def test_engine_matches_reference_many(players: int, options: dict[str, Any]) -> None:
    for i in range(GAMES_SLOW // len(CONFIGS)):
        play_side_by_side(players, options, 100_000 + i)


@pytest.mark.parametrize("players, options", CONFIGS[:3])
def test_simulate_matches_reference(players: int, options: dict[str, Any]) -> None:
    """simulate()'s compiled random player makes the reference's choices."""
    game = boardcore.make("rummikub_junior", players=players, **options)
    result = boardcore.simulate(game, 60, seed=777)
    for i in range(60):
        model = ref.RummikubJuniorRef(players, derive_seed(777, 0, i), **options)
        chooser = Rng(derive_seed(777, 1, i))
        steps = turns = 0
        while not model.is_over():
            legal = model.legal_actions()
            action = legal[chooser.bounded(len(legal))]
            turns += action in (ref.PASS, ref.END)
            model.apply(action)
            steps += 1
        scores, winners = model.outcome()  # type: ignore[misc]
        assert result.lengths[i] == steps
        assert tuple(int(x) for x in result.scores[i]) == scores
        assert {int(p) for p in result.winners[i].nonzero()[0]} == winners
        end = game.end_reasons[int(result.stats["end"][i])]
        assert end == ("blocked" if model.went_out is None else "went_out")
        assert result.stats["turns"][i] == turns


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
    laid = rng.bounded(2) == 1
    pending = laid and "J" in racks[current] and rng.bounded(3) == 0
    stars = [rng.bounded(30) for _ in range(players)]
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
    """``state.to_dict()`` without the set-up position it started from."""
    return {k: v for k, v in state.to_dict().items() if k != "setup"}


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
    for state, model in positions(POSITIONS_DEFAULT, 17):
        check_position(state, model, rng)


@pytest.mark.slow
def test_move_generation_matches_reference_on_many_random_positions() -> None:
    rng = Rng(6)
    for state, model in positions(POSITIONS_SLOW, 18):
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
