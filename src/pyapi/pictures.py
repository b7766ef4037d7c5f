"""Pictures of positions as self-contained SVG, written with the standard library.

``state.svg(size=480, perspective=None)`` draws any game's position: with
``perspective=seat`` the other seats' hidden cards are face down (with
``perspective="spectator"`` every hidden card is); the last move is
highlighted. Notebooks show a state through ``_repr_svg_``.  Each game draws on the
``Canvas`` here (``Game.draw``, in the game's ``picture`` module).

>>> import boardcore
>>> state = boardcore.make("just4fun", players=2).new_state(seed=1)
>>> picture = state.svg(size=300, perspective=0)
>>> picture.startswith("<svg") and picture.endswith("</svg>")
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

if TYPE_CHECKING:
    from boardcore.values import Perspective

__all__ = ["HIGHLIGHT", "INK", "SEAT_COLOURS", "Canvas", "light", "watcher"]

#: One colour per seat (Okabe and Ito's palette, readable by colour-blind eyes).
SEAT_COLOURS = ("#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#0072B2", "#D55E00",
                "#F0E442", "#999999")
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#222222"
PAPER = "#fbfaf6"
HIGHLIGHT = "#d62728"


class Canvas:
    """An SVG document drawn in a fixed coordinate space and scaled to ``width`` pixels."""

    def __init__(self, width: float, height: float, title: str) -> None:
        self.width = width
        self.height = height
        self.parts: list[str] = [f"<title>{escape(title)}</title>",
                                 self._shape("rect", x=0, y=0, width=width, height=height,
                                             fill=PAPER)]

    @staticmethod
    def _shape(tag: str, **attrs: object) -> str:
        text = " ".join(f"{k.rstrip('_').replace('_', '-')}={quoteattr(str(v))}"
                        for k, v in attrs.items() if v is not None)
        return f"<{tag} {text}/>"

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none",
             stroke: str | None = INK, width: float = 1.0, rx: float = 0.0,
             dash: str | None = None) -> None:
        """Draw a rectangle."""
        self.parts.append(self._shape("rect", x=f"{x:.1f}", y=f"{y:.1f}", width=f"{w:.1f}",
                                      height=f"{h:.1f}", rx=rx or None, fill=fill,
                                      stroke=stroke, stroke_width=width,
                                      stroke_dasharray=dash))

    def circle(self, cx: float, cy: float, r: float, fill: str, stroke: str | None = INK,
               width: float = 1.0) -> None:
        """Draw a circle."""
        self.parts.append(self._shape("circle", cx=f"{cx:.1f}", cy=f"{cy:.1f}", r=f"{r:.1f}",
                                      fill=fill, stroke=stroke, stroke_width=width))

    def text(self, x: float, y: float, content: object, size: float = 12.0,
             anchor: str = "middle", fill: str = INK, bold: bool = False) -> None:
        """Write ``content`` with its baseline at ``y``."""
        attrs = {"x": f"{x:.1f}", "y": f"{y:.1f}", "font-family": FONT,
                 "font-size": f"{size:.1f}", "text-anchor": anchor, "fill": fill}
        if bold:
            attrs["font-weight"] = "bold"
        head = " ".join(f"{k}={quoteattr(v)}" for k, v in attrs.items())
        self.parts.append(f"<text {head}>{escape(str(content))}</text>")

    def card(self, x: float, y: float, w: float, h: float, label: str | None,
             fill: str = "white", text_fill: str = INK) -> None:
        """Draw a card: face up with ``label``, or face down when ``label`` is ``None``."""
        if label is None:
            self.rect(x, y, w, h, fill="#5b6b8c", rx=w * 0.12)
            self.rect(x + w * 0.15, y + h * 0.12, w * 0.7, h * 0.76, fill="none",
                      stroke="#c9d2e3", rx=w * 0.08)
            return
        self.rect(x, y, w, h, fill=fill, rx=w * 0.12)
        self.text(x + w / 2, y + h * 0.64, label, size=min(w * 0.42, h * 0.4), fill=text_fill,
                  bold=True)

    def render(self, size: float) -> str:
        """Return the SVG document, ``size`` pixels wide."""
        height = size * self.height / self.width
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{size:.0f}" '
                f'height="{height:.0f}" viewBox="0 0 {self.width:.0f} {self.height:.0f}">'
                + "".join(self.parts) + "</svg>")


def light(colour: str, parts: int) -> str:
    """Return ``colour`` mixed with ``parts - 1`` parts of white (a seat's pale background).

    >>> light("#E69F00", 3)
    '#f6dfaa'
    """
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(*((v + (parts - 1) * 255) // parts for v in (r, g, b)))


def watcher(perspective: Perspective) -> str:
    """Return who looks, in words: ``"seat 2"``, ``"a spectator"`` (``None``: everyone).

    >>> watcher(2), watcher("spectator")
    ('seat 2', 'a spectator')
    """
    if perspective is None:
        return "everyone"
    return "a spectator" if perspective == "spectator" else f"seat {perspective}"
