"""
Where the hexes of a battleland lie on its 800-pixel picture.

The hexes are flat-topped, in columns A-F from left to right with row 1 at the bottom
(Wolff's errata 2.2); columns B, D and F sit half a hex lower.  ``battleland`` draws the
land and the battle on this grid, ``battle_marks`` the entry sides and reach rings.
"""

from __future__ import annotations

from moderator.pictures.layout import SQRT3
from moderator.pictures.svg import Point

WIDTH = 800
RADIUS = 70.0
HEADER = 76.0
#: Board columns, and Colossus-style rows counted from the top, for placing the hexes.
_COLUMNS = "ABCDEF"


def _left() -> float:
    return (WIDTH - 9.5 * RADIUS) / 2


def centre(label: str) -> Point:
    """The centre of hex ``label`` on the canvas."""
    column = _COLUMNS.index(label[0])
    row = int(label[1:])
    from_top = (5 - row) if label[0] in "ABF" else (6 - row)
    x = _left() + RADIUS + column * 1.5 * RADIUS
    y = HEADER + (from_top + 0.5 * (column % 2) - 0.5) * SQRT3 * RADIUS + SQRT3 / 2 * RADIUS
    return x, y


def corners(label: str, radius: float = RADIUS) -> list[Point]:
    """The hex's corners, from the right one clockwise (screen y grows downward)."""
    x, y = centre(label)
    h = SQRT3 / 2 * radius
    return [
        (x + radius, y),
        (x + radius / 2, y + h),
        (x - radius / 2, y + h),
        (x - radius, y),
        (x - radius / 2, y - h),
        (x + radius / 2, y - h),
    ]


def side(label: str, direction: int) -> tuple[Point, Point]:
    """The ends of hexside ``direction`` (0 = N clockwise to 5 = NW) of ``label``."""
    pts = corners(label)
    return pts[(4 + direction) % 6], pts[(5 + direction) % 6]
