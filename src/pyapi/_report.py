"""The outputs of ``boardcore simulate``: the readable summary, its JSON, one CSV row a game.

>>> import boardcore, io
>>> result = boardcore.simulate(boardcore.make("just4fun", players=2), 3, seed=1)
>>> out = io.StringIO()
>>> write_csv(result, out)
>>> print(out.getvalue(), end="")
index,score_0,score_1,winner_0,winner_1,length,end
0,162,217,0,1,40,exhaustion
1,183,184,0,1,40,exhaustion
2,186,215,0,1,40,exhaustion
"""

from __future__ import annotations

import csv
import json
import textwrap
from typing import TextIO

from boardcore._words import SHARED, WIN_RATE
from boardcore.simulate import SimulationResult, SimulationSummary
from boardcore.stats import Spread, Summary, shares, summarize

__all__ = ["FORMAT", "VERSION", "csv_header", "json_document", "text", "write_csv"]

#: The ``format`` field of the JSON summary; ``VERSION`` changes with its layout (2: the
#: histograms, ``partial``, ``requested`` and each spread's ``std`` were added).
FORMAT = "boardcore-simulation"
VERSION = 2
_CSV_BLOCK = 65_536


def _spread(s: Spread, digits: int = 2) -> str:
    return (
        f"mean {s.mean:.{digits}f}, min {s.min}, p10 {s.p10:g}, median {s.median:g}, "
        f"p90 {s.p90:g}, max {s.max}"
    )


def _counted(title: str, rows: list[tuple[str, int]], total: int) -> list[str]:
    """A table of counts whose percentages add up to exactly 100 %."""
    percents = shares([count for _, count in rows])
    lines = [f"{title + ':':<20}{'games':>14}{'share':>10}"]
    for (label, count), pct in zip(rows, percents, strict=True):
        lines.append(f"  {label:<18}{count:>14,}{pct:>9.2f}%")
    lines.append(f"  {'total':<18}{total:>14,}{sum(percents):>9.2f}%")
    return lines


def text(result: SimulationResult | SimulationSummary, summary: Summary | None = None) -> str:
    """Return the readable summary that ``boardcore simulate`` prints.

    Args:
        result: what ``boardcore.simulate`` returned, rows or summary.
        summary: its ``summarize(result)``, if already made.
    """
    s = summary or summarize(result)
    n = s.games
    head = f"{s.game}: {n:,} games, {s.players} players, seed {s.seed}"
    if s.partial:
        head = (f"{s.game}: PARTIAL, interrupted after {n:,} of {s.requested:,} games, "
                f"{s.players} players, seed {s.seed}")
    game = result.game
    changed = {k: v for k, v in game.options.items() if game.option_defaults.get(k) != v}
    if changed:
        head += f", options {changed}"
    lines = [head, ""]
    won = [(f"seat {seat.seat} alone", seat.alone) for seat in s.seats]
    won.append(("shared win", s.shared_games))
    if s.no_winner:
        won.append(("no winner", s.no_winner))
    lines += _counted("who won", won, n)
    lines += ["", "seat  win rate  95% CI              shared  mean score"]
    for seat in s.seats:
        lines.append(
            f"{seat.seat:>4}  {seat.win_rate:8.2%}  [{seat.ci_low:6.2%}, {seat.ci_high:6.2%}]  "
            f"{seat.shared / n:7.2%}  {seat.score.mean:10.2f}"
        )
    if s.ends:
        lines.append("")
        lines += _counted("how games ended", [(e.label, e.games) for e in s.ends], n)
    lines.append("")
    for name, spread in s.stats.items():
        lines.append(f"{name}: {_spread(spread)}")
    lines.append(f"length (actions): {_spread(s.lengths, 1)}")
    actions = s.histograms["length"].sum
    secs = max(s.seconds, 1e-9)
    lines.append(
        f"throughput: {n / secs:,.0f} games/s, {actions / secs:,.0f} actions/s "
        f"({s.seconds:.2f} s)"
    )
    total = 100 * (n + s.extra_winners) / n
    notes = [
        f"shared win: {SHARED}.",
        f"win rate: {WIN_RATE}; here they add up to {total:.2f}%.",
        "shared: the part of a seat's win rate that came from shared wins; "
        "a seat's win rate is its 'alone' share plus its 'shared' share.",
        *(f"{e.label}: {e.meaning}." for e in s.ends),
        *(f"{name}: {meaning}." for name, meaning in s.stat_meanings.items()),
    ]
    lines += ["", "what the words mean:"]
    for note in notes:
        lines += textwrap.wrap(note, width=88, initial_indent="  ", subsequent_indent="    ",
                               break_on_hyphens=False)
    return "\n".join(lines)


def json_document(result: SimulationResult | SimulationSummary,
                  summary: Summary | None = None) -> str:
    """Return the summary as a JSON document (what ``--json`` writes), ending in a newline.

    >>> import boardcore, json
    >>> result = boardcore.simulate(boardcore.make("just4fun", players=2), 10, seed=1)
    >>> doc = json.loads(json_document(result))
    >>> doc["format"], doc["version"], doc["games"], len(doc["seats"]), doc["partial"]
    ('boardcore-simulation', 2, 10, 2, False)
    >>> doc["histograms"]["length"]
    {'values': [24, 30, 40], 'counts': [1, 1, 8]}
    """
    from boardcore import __version__

    s = summary or summarize(result)
    doc: dict[str, object] = {"format": FORMAT, "version": VERSION, "boardcore": __version__}
    doc.update(s.to_dict())
    doc["notes"] = {"shared": SHARED, "win_rate": WIN_RATE}
    return json.dumps(doc, indent=2) + "\n"


def csv_header(result: SimulationResult) -> list[str]:
    """Return the CSV's column names: index, scores, winners, length, the game's stats."""
    seats = range(result.game.num_players)
    return ["index", *(f"score_{p}" for p in seats), *(f"winner_{p}" for p in seats),
            "length", *result.stats]


def write_csv(result: SimulationResult, stream: TextIO) -> None:
    """Write one CSV row per game to ``stream`` (``end`` as its label).

    Game ``index`` is ``game.new_state(seed=derive_seed(seed, 0, index))`` played out by
    ``rollout(derive_seed(seed, 1, index))``.
    """
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(csv_header(result))
    labels = result.game.end_reasons
    seats = range(result.game.num_players)
    for start in range(0, result.games, _CSV_BLOCK):  # a block at a time: bounded memory
        rows = slice(start, start + _CSV_BLOCK)
        columns: list[list[object]] = [list(range(start, min(start + _CSV_BLOCK, result.games)))]
        columns += [result.scores[rows, p].tolist() for p in seats]
        columns += [result.winners[rows, p].astype(int).tolist() for p in seats]
        columns.append(result.lengths[rows].tolist())
        for name, values in result.stats.items():
            codes = values[rows].tolist()
            columns.append([labels[c] for c in codes] if name == "end" else codes)
        writer.writerows(zip(*columns, strict=True))
