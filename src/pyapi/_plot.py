"""``--plot FILE``: a simulation's win rates, scores and lengths, or a ladder, as a picture.

matplotlib is an optional extra (``pip install 'boardcore[plot]'``) and is imported only
here, only when a plot is asked for; the figure is drawn without pyplot, so no window
or GUI backend is ever touched.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from boardcore.errors import ConfigurationError
from boardcore.simulate import SimulationResult, SimulationSummary
from boardcore.stats import Histogram, Summary, summarize
from boardcore.values import quote

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from boardcore.ladder import LadderResult

__all__ = ["MISSING", "check_target", "figure", "ladder_figure", "save"]

MISSING = "--plot needs matplotlib: pip install 'boardcore[plot]'"


def _figure_class() -> type[Figure]:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError(MISSING) from None
    return Figure


def check_target(path: str) -> None:
    """Refuse, before any game is played, a plot that could not be written.

    Raises:
        ImportError: matplotlib is not installed (the message names the extra).
        ConfigurationError: the file's suffix is not an image format matplotlib writes.
    """
    figure_class = _figure_class()
    suffix = Path(path).suffix.lstrip(".").lower()
    formats = figure_class().canvas.get_supported_filetypes()
    if suffix not in formats:
        raise ConfigurationError(
            f"--plot {quote(path)}: name the file with an image suffix: "
            f"{', '.join('.' + f for f in sorted(formats))}"
        )


def _bins(lo: int, hi: int) -> tuple[int, npt.NDArray[np.float64]]:
    """Bins of whole width centred on integers: no aliasing stripes in integer data.

    Returns the width and the edges of about 60 bins from ``lo`` to ``hi``.
    """
    width = max(1, -(-(hi - lo + 1) // 60))
    return width, np.arange(lo, hi + width + 1, width, dtype=np.float64) - 0.5


def _counts(h: Histogram, lo: int, width: int, bins: int) -> npt.NDArray[np.float64]:
    """``h``'s counts gathered into ``bins`` bins of ``width`` values from ``lo``."""
    where = (np.arange(h.low, h.max + 1) - lo) // width
    return np.bincount(where, weights=h.counts, minlength=bins)[:bins].astype(np.float64)


def figure(result: SimulationResult | SimulationSummary,
           summary: Summary | None = None) -> Figure:
    """Return the figure: win rate by seat (95 % intervals), scores per seat, lengths.

    Drawn from the exact histograms, so rows and a streaming summary draw the same.
    """
    from matplotlib.ticker import MaxNLocator

    s = summary or summarize(result)
    fig = _figure_class()(figsize=(15, 4.6), layout="constrained")
    win, score, length = fig.subplots(1, 3)
    seats = np.arange(s.players)
    rates = np.array([seat.win_rate for seat in s.seats])
    below = rates - np.array([seat.ci_low for seat in s.seats])
    above = np.array([seat.ci_high for seat in s.seats]) - rates
    win.bar(seats, 100 * rates, yerr=100 * np.vstack([below, above]), capsize=4,
            color="#4c72b0")
    win.axhline(100 / s.players, color="grey", linestyle="--", linewidth=1,
                label=f"even chance ({100 / s.players:.1f}%)")
    win.set(title="win rate by seat, 95% interval", xlabel="seat", ylabel="win rate (%)",
            xticks=seats)
    win.set_ylim(0, 100 * max(seat.ci_high for seat in s.seats) * 1.25)
    win.legend(loc="upper right")
    scores = [s.histograms[f"score_{p}"] for p in range(s.players)]
    lo, hi = min(h.min for h in scores), max(h.max for h in scores)
    width, edges = _bins(lo, hi)
    for p, h in enumerate(scores):
        score.stairs(_counts(h, lo, width, len(edges) - 1), edges, linewidth=1.4,
                     label=f"seat {p}")
    score.set(title="final scores per seat", xlabel="score", ylabel="games")
    score.legend()
    lengths = s.histograms["length"]
    width, edges = _bins(lengths.min, lengths.max)
    length.stairs(_counts(lengths, lengths.min, width, len(edges) - 1), edges, fill=True,
                  color="#55a868")
    length.set(title="game length", xlabel="actions per game", ylabel="games")
    for axes, (least, most) in ((score, (lo, hi)), (length, (lengths.min, lengths.max))):
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
        if most - least < 6:  # (nearly) constant, as 3 Or More's 47 actions: room around it
            axes.set_xlim(least - 3, most + 3)
    fig.suptitle(f"{s.game}: {s.games:,} games, {s.players} players, seed {s.seed}")
    return fig


def save(result: SimulationResult | SimulationSummary, path: str,
         summary: Summary | None = None) -> None:
    """Draw the figure of ``result`` into the image file ``path`` (format from its suffix)."""
    figure(result, summary).savefig(path, dpi=100)


def ladder_figure(ladder: LadderResult) -> Figure:
    """Return a ladder's figure: the ratings with their intervals, and what each costs."""
    rated = ladder.ratings
    order = rated.order()[::-1]                      # the best at the top
    names = [rated.agents[i] for i in order]
    elo = rated.elo[order]
    fig = _figure_class()(figsize=(13, 1.2 + 0.45 * len(names)), layout="constrained")
    bars, cost = fig.subplots(1, 2, sharey=True)
    rows = np.arange(len(names))
    bars.errorbar(elo, rows, xerr=np.vstack([elo - rated.low[order], rated.high[order] - elo]),
                  fmt="o", capsize=4, color="#4c72b0")
    bars.axvline(0, color="grey", linestyle="--", linewidth=1)
    bars.set(title=f"rating (Elo, {rated.anchor} = 0), 95% interval", xlabel="Elo",
             yticks=rows, yticklabels=names)
    seconds = np.maximum(ladder.seconds_per_decision[order], 1e-7)
    cost.scatter(seconds, rows, color="#55a868")
    cost.set_xscale("log")
    cost.set(title="mean CPU time per decision, one core", xlabel="seconds (log scale)")
    for axes in (bars, cost):
        axes.grid(axis="x", alpha=0.3)
    fig.suptitle(f"{ladder.game.name}, {ladder.game.num_players} players: "
                 f"{ladder.played()} of {ladder.games:,} games, seed {ladder.seed}")
    return fig
