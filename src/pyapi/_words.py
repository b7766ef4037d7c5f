"""The words of the simulation summary, explained: end reasons, statistics, shared wins.

Each game's ``end_reasons`` and ``stat_names`` are labels; these are their meanings, with
the rule they come from (the rules pages, ``boardcore rules GAME``).

>>> describe_end("fool", "both")
'both at once: a total of -80 or lower and a sixth +10 after the same round (F12)'
>>> describe_end("fool", "new_reason")
'new reason'
"""

from __future__ import annotations

__all__ = ["SHARED", "WIN_RATE", "describe_end", "describe_stat"]

SHARED = (
    "a game with several winners: a tie for first place that the game's tie-break "
    "leaves standing; each tied seat counts it as a win"
)
WIN_RATE = (
    "the games a seat won, alone or shared, with its 95% Wilson score interval; "
    "the seats' win rates add up to more than 100% when games are shared"
)

_ENDS: dict[tuple[str, str], str] = {
    ("just4fun", "four_in_a_row"): "a seat held four fields in a straight line (J13)",
    ("just4fun", "exhaustion"): "no seat could take a turn, then scored by held fields (J14)",
    ("just4fun", "exchange_limit"): (
        "20 turns in a row without a stone, the safety valve, then scored (J14)"
    ),
    ("fool", "minus_80"): "a seat's total reached -80 or lower after a round (F12)",
    ("fool", "six_plus_10"): "a seat had scored +10 in six rounds (F12)",
    ("fool", "both"): (
        "both at once: a total of -80 or lower and a sixth +10 after the same round (F12)"
    ),
    ("rummikub_junior", "went_out"): "a seat laid its last tile (K10)",
    ("rummikub_junior", "blocked"): (
        "the pool was empty and every seat passed in turn (K11)"
    ),
}

_STATS: dict[tuple[str, str], str] = {
    ("fool", "rounds"): "rounds played in the game",
    ("rummikub_junior", "turns"): "turns taken in the game (each pass or end)",
    ("three_or_more", "lines"): "lines scored in the game",
    ("three_or_more", "best_move"): "the most points one card scored in the game",
}


def describe_end(game: str, label: str) -> str:
    """Return what end reason ``label`` of ``game`` means (its words if unknown)."""
    return _ENDS.get((game, label), label.replace("_", " "))


def describe_stat(game: str, name: str) -> str:
    """Return what statistic ``name`` of ``game`` counts (its words if unknown).

    >>> describe_stat("fool", "rounds")
    'rounds played in the game'
    """
    return _STATS.get((game, name), name.replace("_", " "))
