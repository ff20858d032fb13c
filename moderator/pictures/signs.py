"""
The movement signs of the masterboard (rule 7.3), drawn on each land's borders.

A player plans a move by following the signs (7.2-7.5), so the picture draws each one
as the printed board does: a block (a square), an arch, an arrow or a triple arrow,
inside the land it leads out of, its top touching the border of the land it points to.
Each is an SVG group ``class="sign KIND"`` with ``data-from`` and ``data-to``, the kind
being the board data's word (``block``, ``arch``, ``arrow``, ``arrows``).

Where on a border: a land's number and terrain are written at its flat side and its
markers down its middle, so a sign on a slanted border sits toward the flat side's end
of it, clear of both; the land across that border has its flat side at the other end,
so when both lands have a sign there the two never meet.  A sign on the flat side sits
beside the number, on the side away from a slanted border's sign (they would meet at
the corner); with none or two of those, left of it in a land pointing down and right
of it in one pointing up, so two lands sharing a flat side mostly put theirs apart.
The sizes are pixels of the 800-pixel picture, the width the PNG is sent at.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from moderator.pictures import svg
from moderator.pictures.layout import Cell, Grid
from moderator.rules.variant import Land, Sign

Point = svg.Point

#: How the legend names each kind.
NAMES = {
    Sign.BLOCK: "block",
    Sign.ARCH: "arch",
    Sign.ARROW: "arrow",
    Sign.ARROWS: "triple arrow",
}
#: Where a sign on a slanted border sits: this share of the side from the flat end.
SLANT_AT = 0.31
#: Where a sign on the flat side sits, from the flat side's left end: (left, right).
FLAT_AT = (0.255, 0.745)
GAP = 2.2  # pixels between the border and a sign's top
DEPTH = 10.0  # how far a sign reaches into its land
ARCH_STROKE = 2.4


class _Frame:
    """Local coordinates at a point of a border: ``a`` along it, ``b`` into the land."""

    def __init__(self, origin: Point, along: Point, inward: Point) -> None:
        self.origin, self.along, self.inward = origin, along, inward

    def at(self, a: float, b: float) -> Point:
        (x, y), (ux, uy), (nx, ny) = self.origin, self.along, self.inward
        return x + a * ux + b * nx, y + a * uy + b * ny


def _dart(frame: _Frame, middle: float, half: float, notch: float) -> str:
    """
    An arrowhead whose tip touches the border at ``middle``, notched at its back: a
    plain triangle pointing across a slanted border would look like one pointing down.
    """
    return svg.polygon(
        [
            frame.at(middle, GAP),
            frame.at(middle + half, GAP + DEPTH),
            frame.at(middle, GAP + DEPTH - notch),
            frame.at(middle - half, GAP + DEPTH),
        ],
        svg.INK,
    )


def shape(kind: Sign, frame: _Frame) -> list[str]:
    """The elements of one sign of ``kind`` in ``frame``."""
    if kind is Sign.BLOCK:
        half = 4.5
        return [
            svg.polygon(
                [
                    frame.at(-half, GAP),
                    frame.at(half, GAP),
                    frame.at(half, GAP + DEPTH),
                    frame.at(-half, GAP + DEPTH),
                ],
                svg.INK,
            )
        ]
    if kind is Sign.ARROW:
        return [_dart(frame, 0.0, 5.0, 3.4)]
    if kind is Sign.ARROWS:
        return [_dart(frame, middle, 2.9, 2.4) for middle in (-5.9, 0.0, 5.9)]
    # the arch: a doorway whose round top touches the border
    radius = 5.0 - ARCH_STROKE / 2
    top = GAP + ARCH_STROKE / 2
    centre = top + radius
    pts = [frame.at(-radius, GAP + DEPTH)]
    for step in range(13):
        angle = math.pi * step / 12
        pts.append(frame.at(-radius * math.cos(angle), centre - radius * math.sin(angle)))
    pts.append(frame.at(radius, GAP + DEPTH))
    return [svg.polyline(pts, svg.INK, ARCH_STROKE)]


def _unit(dx: float, dy: float) -> Point:
    length = math.hypot(dx, dy)
    return dx / length, dy / length


def _flat_share(cell: Cell, slants: set[int]) -> float:
    """
    Where the flat side's sign goes: away from the one slanted border that has a sign
    (the two would meet at that corner), else left of the number in a land pointing
    down and right of it in one pointing up.
    """
    if slants == {0}:
        return FLAT_AT[1]
    if slants == {1}:
        return FLAT_AT[0]
    return FLAT_AT[1] if cell.up else FLAT_AT[0]


def _frame(grid: Grid, cell: Cell, side: int, flat_share: float) -> _Frame:
    """The frame of the sign on ``side`` of ``cell``: 0 left slant, 1 right slant, 2 flat
    (at ``flat_share`` of it from its left end)."""
    flat_left, flat_right, apex = grid.triangle(cell)
    if side == 2:
        start, end = flat_left, flat_right
        share = flat_share
    else:
        start, end = (flat_left if side == 0 else flat_right), apex
        share = SLANT_AT
    ux, uy = _unit(end[0] - start[0], end[1] - start[1])
    origin = (start[0] + share * grid.side * ux, start[1] + share * grid.side * uy)
    centroid = ((flat_left[0] + flat_right[0] + apex[0]) / 3, (2 * flat_left[1] + apex[1]) / 3)
    nx, ny = -uy, ux
    if nx * (centroid[0] - origin[0]) + ny * (centroid[1] - origin[1]) < 0:
        nx, ny = -nx, -ny
    return _Frame(origin, (ux, uy), (nx, ny))


def land_signs(grid: Grid, land: Land, layout: Mapping[int, Cell]) -> list[str]:
    """Every sign printed on ``land``, each on its border with the land it points to."""
    cell = layout[land.number]
    sides = {neighbour: i for i, neighbour in enumerate(cell.grid_neighbours())}
    on = [(exit_, sides[(layout[exit_.to].column, layout[exit_.to].row)]) for exit_ in land.exits]
    flat_share = _flat_share(cell, {side for _, side in on if side != 2})
    return [
        svg.group(
            f"sign {exit_.sign.value}",
            shape(exit_.sign, _frame(grid, cell, side, flat_share)),
            **{"from": land.number, "to": exit_.to},
        )
        for exit_, side in on
    ]


def key(x: float, baseline: float, size: float = 10) -> list[str]:
    """
    The legend of the signs on one line from (``x``, ``baseline``), in text of ``size``
    pixels: each kind drawn under a stroke standing for the border it touches, then its
    name.
    """
    words = size / 10  # the widths below were measured on 10-pixel text
    out = [svg.text(x, baseline, "Signs, inside the land they lead out of:", size, anchor="start")]
    x += 212 * words
    for kind, name in NAMES.items():
        border_y = baseline - 10
        out.append(svg.polyline([(x - 11, border_y), (x + 11, border_y)], svg.INK, 1.2))
        frame = _Frame((x, border_y), (1.0, 0.0), (0.0, 1.0))
        out.append(svg.group(f"key {kind.value}", shape(kind, frame)))
        out.append(svg.text(x + 15, baseline, name, size, anchor="start"))
        x += 32 + 6.2 * words * len(name)
    out.append(svg.text(x, baseline, "(the top touches the land it points to)", size, anchor="start"))
    return out
