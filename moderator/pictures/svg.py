"""
The few SVG pieces both pictures are made of, and the colours they share.

Written by hand rather than through an SVG library: the pictures need polygons, lines,
rectangles and text, nothing else, and text built here is byte-for-byte stable (numbers
rounded to one decimal place, attributes in a fixed order), so the golden files under
``tests/pictures/golden/`` change only when a picture does.

Every text names the font family shipped in ``fonts/`` (``FONT``): a generic
``sans-serif`` may resolve to no font at all on a server, and the rasteriser then drops
the text without a word.  ``raster`` hands the same files to resvg.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from xml.sax.saxutils import escape, quoteattr

FONT = "DejaVu Sans"

Point = tuple[float, float]

#: Masterboard terrains: tints of the printed board's colours, light enough that black
#: numbers and names stay readable on every one of them, and apart enough that two
#: neighbouring lands part without an outline (lands are drawn without one: a line
#: around every land was a tenth of the board's PNG).  Measured in CIELAB, every pair of
#: terrains that touch on a board is at least 20 apart (``tests/pictures``); Marsh is a
#: mauve, for the printed board's brown Marsh and Hills merged once the lines were gone.
TERRAIN_FILL = {
    "Brush": "#9cc96b",
    "Desert": "#f2b150",
    "Hills": "#c79a6b",
    "Jungle": "#4c9f5a",
    "Marsh": "#b08cb8",
    "Mountains": "#e8736a",
    "Plains": "#f3e27c",
    "Swamp": "#7d9be0",
    "Tower": "#c4c4c4",
    "Tundra": "#b4e0f5",
    "Woods": "#a9a14c",
}

#: Player colours (rule 4.2): the box fill and the colour its text is written in.
PLAYER_FILL = {
    "Black": ("#262626", "#ffffff"),
    "Blue": ("#2f62d6", "#ffffff"),
    "Brown": ("#8b5a2b", "#ffffff"),
    "Gold": ("#f0c419", "#000000"),
    "Green": ("#2f8f3a", "#ffffff"),
    "Red": ("#d42a2a", "#ffffff"),
}
UNKNOWN_PLAYER = ("#888888", "#000000")

INK = "#111111"
BACKGROUND = "#2b2b2b"
PAPER = "#fafaf5"
HIGHLIGHT = "#d100c4"  # magenta: none of the six player colours
#: Text drawn hard-edged (``crisp``): bold from this size in pixels, any from ``CRISP_ANY``.
CRISP_BOLD = 8.0
CRISP_ANY = 11.0


def num(value: float) -> str:
    """A coordinate with at most one decimal, without a trailing ``.0``."""
    text = f"{value:.1f}"
    text = text.removesuffix(".0")
    return "0" if text == "-0" else text


def points(pts: Iterable[Point]) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in pts)


def _attrs(pairs: Sequence[tuple[str, str | float | None]]) -> str:
    out = []
    for name, value in pairs:
        if value is None:
            continue
        shown = num(value) if isinstance(value, int | float) else value
        out.append(f" {name}={quoteattr(shown)}")
    return "".join(out)


def polygon(
    pts: Iterable[Point],
    fill: str,
    stroke: str | None = None,
    width: float | None = None,
    dash: str | None = None,
) -> str:
    pairs: list[tuple[str, str | float | None]] = [
        ("points", points(pts)),
        ("fill", fill),
        ("stroke", stroke),
        ("stroke-width", width),
        ("stroke-linejoin", "round" if stroke else None),
        ("stroke-dasharray", dash),
    ]
    return f"<polygon{_attrs(pairs)}/>"


def polyline(pts: Iterable[Point], stroke: str, width: float, dash: str | None = None) -> str:
    pairs: list[tuple[str, str | float | None]] = [
        ("points", points(pts)),
        ("fill", "none"),
        ("stroke", stroke),
        ("stroke-width", width),
        ("stroke-linecap", "round"),
        ("stroke-linejoin", "round"),
        ("stroke-dasharray", dash),
    ]
    return f"<polyline{_attrs(pairs)}/>"


def rect(
    x: float,
    y: float,
    w: float,
    h: float,
    fill: str,
    stroke: str | None = None,
    width: float | None = None,
    radius: float | None = None,
) -> str:
    pairs: list[tuple[str, str | float | None]] = [
        ("x", x),
        ("y", y),
        ("width", w),
        ("height", h),
        ("rx", radius),
        ("fill", fill),
        ("stroke", stroke),
        ("stroke-width", width),
    ]
    return f"<rect{_attrs(pairs)}/>"


def crisp(size: float, bold: bool) -> bool:
    """
    Whether text of ``size`` pixels is drawn without antialiasing: bold text of
    ``CRISP_BOLD`` pixels or more, any text of ``CRISP_ANY`` or more.  An antialiased
    glyph's edge is a ring of shades deflate has to spell out pixel by pixel (the land
    numbers and markers were a third of the board's PNG); at these sizes the glyphs read
    as well without.  Smaller text (the legends) keeps its antialiasing, without which
    thin strokes break up.
    """
    return size >= CRISP_ANY or (bold and size >= CRISP_BOLD)


def text(
    x: float,
    y: float,
    content: str,
    size: float,
    *,
    fill: str = INK,
    bold: bool = False,
    anchor: str = "middle",
    strike: bool = False,
) -> str:
    """
    One line of text; ``y`` is its baseline.  Hard-edged if ``crisp``, on a whole pixel:
    a hard-edged glyph drawn a fraction of a pixel lower can lose a thin stroke (a bold
    9-pixel "De" read "Dc").
    """
    hard = crisp(size, bold)
    pairs: list[tuple[str, str | float | None]] = [
        ("x", x),
        ("y", round(y) if hard else y),
        ("font-family", FONT),
        ("font-size", size),
        ("font-weight", "bold" if bold else None),
        ("text-anchor", anchor),
        ("text-decoration", "line-through" if strike else None),
        ("text-rendering", "optimizeSpeed" if hard else None),
        ("fill", fill),
    ]
    return f"<text{_attrs(pairs)}>{escape(content)}</text>"


#: The widest advance of a glyph in the shipped fonts, in ems, with margin (bold
#: U+1676 is 2.02; 'Œ' 1.17, 'W' under 1.1): a text's box (``text_box``) must hold any
#: name a player signs on with, however its letters fall.  The box is cut to the picture.
WIDEST_GLYPH = 2.1


def text_box(x: float, baseline: float, content: str, size: float, anchor: str = "start") -> Box:
    """A box that surely holds ``text(x, baseline, content, size, anchor=...)``: every
    letter taken as wide as the widest, ascent and descent of the font size."""
    width = len(content) * size * WIDEST_GLYPH
    left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    return left, baseline - size, left + width, baseline + 0.3 * size


def fitting(content: str, size: float, width: float, bold: bool = True) -> float:
    """``size``, or smaller (down to 60% of it) if ``content`` would not fit ``width``."""
    per_char = 0.68 if bold else 0.6  # DejaVu Sans' mean advance, in ems, with margin
    needed = len(content) * per_char * size
    return size if needed <= width else max(round(size * width / needed, 1), 0.6 * size)


def shorten(name: str, letters: int) -> str:
    """``name`` cut to ``letters`` characters with an ellipsis, if longer."""
    return name if len(name) <= letters else name[: letters - 1] + "…"


def group(classes: str, body: Iterable[str], **data: str | int) -> str:
    """
    ``body`` as one ``<g>`` with ``class`` ``classes`` and ``data-*`` attributes (``data``,
    underscores as dashes): what a reader of the SVG, or a test, finds a drawn thing by.
    """
    pairs: list[tuple[str, str | float | None]] = [("class", classes)]
    pairs += [(f"data-{key.replace('_', '-')}", str(value)) for key, value in data.items()]
    return f"<g{_attrs(pairs)}>" + "".join(body) + "</g>"


def document(
    width: float, height: float, title: str, body: Iterable[str],
    *, picture_height: float | None = None,
) -> str:
    """
    A whole SVG file: the canvas, a <title> for screen readers, then ``body``.  A
    picture's land drawn shorter than the picture (a battleland, whose lines below vary
    from report to report) names the ``picture_height``: the rows under it are paper,
    and the land stays one document however many lines a report has (``land_of``).
    """
    taller = f' data-height="{num(picture_height)}"' if picture_height is not None else ""
    head = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(width)}" height="{num(height)}" '
        f'viewBox="0 0 {num(width)} {num(height)}"{taller}>\n'
        f"<title>{escape(title)}</title>\n"
    )
    return head + "\n".join(body) + "\n</svg>\n"


_PICTURE_HEIGHT = re.compile(r' data-height="([0-9.]+)"')


def land_of(bottom: str) -> tuple[str, int | None]:
    """
    A picture's bottom layer without the picture's height it was drawn for
    (``document``), and that height in whole pixels as resvg rounds a document's (half
    up); None if the layer is as tall as its picture.
    """
    found = _PICTURE_HEIGHT.search(bottom, 0, 400)
    if found is None:
        return bottom, None
    return bottom[: found.start()] + bottom[found.end() :], math.floor(float(found.group(1)) + 0.5)


#: (left, top, right, bottom) of a part of a picture, in the picture's pixels.
Box = tuple[float, float, float, float]
#: Pixels added around a tile's box: antialiasing and half a stroke reach past a shape.
TILE_PAD = 3
_POINTS = re.compile(r'points="([^"]*)"')


def tile(width: float, height: float, box: Box, body: Iterable[str]) -> str:
    """
    ``body``, a part of a ``width`` x ``height`` picture lying within ``box``, as a
    document of its own: the box widened by ``TILE_PAD`` to whole pixels (and cut to the
    picture), with a ``viewBox`` at that origin and scale 1.  The rasteriser renders it
    alone and lays it at its origin: the same pixels as where the whole picture has
    them, for a fraction of the canvas (``raster.layers_to_png``).
    """
    left = max(0, math.floor(box[0]) - TILE_PAD)
    top = max(0, math.floor(box[1]) - TILE_PAD)
    right = min(math.ceil(width), math.ceil(box[2]) + TILE_PAD)
    bottom = min(math.ceil(height), math.ceil(box[3]) + TILE_PAD)
    w, h = max(1, right - left), max(1, bottom - top)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'viewBox="{left} {top} {w} {h}">\n' + "\n".join(body) + "\n</svg>\n"
    )


def points_box(elements: Iterable[str], stroke: float = 0.0) -> Box:
    """The box around every ``points`` of ``elements`` (polygons, polylines), widened
    by half a ``stroke``."""
    xs: list[float] = []
    ys: list[float] = []
    for element in elements:
        for found in _POINTS.findall(element):
            for pair in found.split():
                x, y = pair.split(",")
                xs.append(float(x))
                ys.append(float(y))
    half = stroke / 2
    return min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half


def merge(bottom: str, top: str) -> str:
    """Two ``document``s of one size as one: ``top``'s title, ``bottom`` drawn first."""
    head, _, rest = bottom.partition("<title>")
    _, _, lower = rest.partition("</title>\n")
    _, _, upper_rest = top.partition("<title>")
    title, _, upper = upper_rest.partition("</title>\n")
    lower = lower.removesuffix("</svg>\n")
    return f"{head}<title>{title}</title>\n{lower}{upper}"


def player_colours(view_players: Iterable[dict[str, object]]) -> dict[str, tuple[str, str]]:
    """Player name -> (fill, text colour), from a view's ``players`` list."""
    return {
        str(p["name"]): PLAYER_FILL.get(str(p.get("color")), UNKNOWN_PLAYER) for p in view_players
    }
