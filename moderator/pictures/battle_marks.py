"""
What the battle picture draws over the battleland: the sides the legions enter by, and
the hexes a character may reach when its player asks ``reach HEX``.

Entry sides are rows of arrows in the player's colour outside the board's edge,
pointing in, each group ``class="entry attacker"`` (or ``defender``) with
``data-side``: a style of their own, so that no entry side reads as one of the hexside
hazards, which are plain lines with ticks (a red attacker's thick line read as a cliff).
The legend names them with the players' colours.  The hexes a character may reach are
ringed in the highlight colour (``class="reach"``, ``data-hex``), the hex it stands on
ringed in dashes (``class="reach-from"``), and the legend says whose they are.
"""

from __future__ import annotations

from collections.abc import Sequence

from moderator.pictures import svg
from moderator.pictures.hexes import RADIUS, centre, corners, side
from moderator.rules.variant import Battleland

#: Entrance key -> the hexside directions of its hexes that face off the board.
ENTRANCE_SIDES = {
    "left": (5, 0),
    "right": (1, 2),
    "bottom": (3, 4),
    "defender-left": (2, 3),
    "defender-right": (4, 5),
    "defender-bottom": (0, 1),
}
ARROW_HALF = 8.0  # half the width of an entry arrow's back, along the edge
ARROW_LENGTH = 17.0
ARROW_NOTCH = 6.0
ARROW_OFF = 3.0  # pixels between the board's edge and an entry arrow's tip
REACH_RING = 0.93  # a reach ring's size, as a share of a hex's
REACH_WIDTH = 5.0


def _arrow(
    tip: svg.Point, outward: svg.Point, along: svg.Point, scale: float = 1.0
) -> list[svg.Point]:
    """A notched arrowhead with its tip at ``tip``, pointing against ``outward``."""
    (tx, ty), (ox, oy), (ux, uy) = tip, outward, along
    back, half, notch = ARROW_LENGTH * scale, ARROW_HALF * scale, ARROW_NOTCH * scale
    return [
        (tx, ty),
        (tx + back * ox + half * ux, ty + back * oy + half * uy),
        (tx + (back - notch) * ox, ty + (back - notch) * oy),
        (tx + back * ox - half * ux, ty + back * oy - half * uy),
    ]


def entrance(land: Battleland, key: str, fill: str) -> str:
    """
    The side ``key`` (``bottom``, ``defender-left``...) as arrows in ``fill`` outside
    each of its hexsides on the board's edge, one group.
    """
    role, _, where = key.rpartition("-")
    out = []
    for label in land.entrances.get(key, ()):
        cx, cy = centre(label)
        for direction in ENTRANCE_SIDES[key]:
            if land.neighbour(label, direction) is not None:
                continue
            (x1, y1), (x2, y2) = side(label, direction)
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            length = ((mx - cx) ** 2 + (my - cy) ** 2) ** 0.5
            ox, oy = (mx - cx) / length, (my - cy) / length
            edge = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
            ux, uy = (x2 - x1) / edge, (y2 - y1) / edge
            tip = (mx + ARROW_OFF * ox, my + ARROW_OFF * oy)
            out.append(svg.polygon(_arrow(tip, (ox, oy), (ux, uy)), fill, "#000000", 1.2))
    return svg.group(f"entry {role or 'attacker'}", out, side=where)


def entry_key(x: float, baseline: float, entries: Sequence[tuple[str, str]]) -> list[str]:
    """
    The legend of the entry sides on one line: for each (fill, words) an arrow in that
    fill, then the words (``Ann (Gold) enters from the bottom``).
    """
    out: list[str] = []
    for fill, words in entries:
        tip = (x + 8, baseline - 13)
        points = _arrow(tip, (0.0, 1.0), (1.0, 0.0), scale=0.8)
        out.append(svg.group("entry-key", [svg.polygon(points, fill, "#000000", 1.2)]))
        out.append(svg.text(x + 20, baseline, words, 12, anchor="start"))
        x += 30 + 7.0 * len(words)
    return out


def reach_marks(start: str, hexes: Sequence[str]) -> list[str]:
    """The rings of ``reach HEX``: ``start``'s in dashes, each of ``hexes`` in the highlight."""
    out = [
        svg.group(
            "reach-from",
            [svg.polygon(corners(start, RADIUS * REACH_RING), "none", svg.INK, 3.0, dash="8 5")],
            hex=start,
        )
    ]
    for label in hexes:
        ring = svg.polygon(corners(label, RADIUS * REACH_RING), "none", svg.HIGHLIGHT, REACH_WIDTH)
        out.append(svg.group("reach", [ring], hex=label))
    return out
