"""
Where the lands of the masterboard lie, and the shapes drawn for them.

The rules never need positions (movement follows the signs, not geometry), so the
layout lives in a file of its own, ``rules/data/<variant>/masterboard_layout.toml``, next
to the board it places, and only the pictures read it; a variant on the standard board
takes the standard layout through its ``based_on``.  It is read through
:mod:`importlib.resources`, like the rest of the board data, so an installed wheel
draws without a source checkout.

The board is a grid of triangles: a land at (column, row) pointing "down" has its flat
side at the top and shares it with the land above; one pointing "up" has its flat side
at the bottom.  A land is drawn as its triangle with the corners cut off, a hexagon with
three long sides (the borders) and three short ones, as on the printed board.
"""

from __future__ import annotations

import functools
import math
import tomllib

from moderator.pictures.svg import Point
from moderator.records import record
from moderator.rules.variant import STANDARD, variant_file

SQRT3 = math.sqrt(3.0)


@record
class Cell:
    """One land's place on the grid."""

    number: int
    column: int  # 0 (left) .. 14
    row: int  # 0 (top) .. 7
    up: bool  # True: flat side at the bottom; False: flat side at the top

    def grid_neighbours(self) -> tuple[tuple[int, int], ...]:
        """The three cells that share a long side (a border) with this one."""
        vertical = (self.column, self.row + 1) if self.up else (self.column, self.row - 1)
        return ((self.column - 1, self.row), (self.column + 1, self.row), vertical)


@functools.cache
def board_layout(variant: str = STANDARD) -> dict[int, Cell]:
    """Land number -> its cell, read once from the variant's ``masterboard_layout.toml``
    (its own, or its base's: TITANplus and Badlands are drawn on the standard board)."""
    resource = variant_file(variant, "masterboard_layout.toml")
    raw = tomllib.loads(resource.read_text(encoding="utf-8"))
    cells: dict[int, Cell] = {}
    for key, entry in raw["land"].items():
        if entry["points"] not in ("up", "down"):
            raise ValueError(f"land {key}: points must be 'up' or 'down'")
        cells[int(key)] = Cell(
            int(key), int(entry["column"]), int(entry["row"]), entry["points"] == "up"
        )
    taken = {(c.column, c.row) for c in cells.values()}
    if len(taken) != len(cells):
        raise ValueError("masterboard_layout.toml: two lands on one cell")
    return cells


@record
class Grid:
    """Pixel geometry of the triangle grid: ``side`` is a triangle's side in pixels."""

    side: float
    left: float = 0.0
    top: float = 0.0
    cut: float = 0.16  # the share of each side cut off at a corner

    @property
    def height(self) -> float:
        return self.side * SQRT3 / 2

    def triangle(self, cell: Cell) -> tuple[Point, Point, Point]:
        """The cell's corners: the two ends of its flat side, then its apex."""
        half, h = self.side / 2, self.height
        x0 = self.left + cell.column * half
        flat_y = self.top + (cell.row + 1) * h if cell.up else self.top + cell.row * h
        apex_y = self.top + cell.row * h if cell.up else self.top + (cell.row + 1) * h
        return (x0, flat_y), (x0 + self.side, flat_y), (x0 + half, apex_y)

    def outline(self, cell: Cell) -> list[Point]:
        """The land's hexagon: the triangle with its three corners cut off."""
        corners = self.triangle(cell)
        pts: list[Point] = []
        for i, (vx, vy) in enumerate(corners):
            before, after = corners[i - 1], corners[(i + 1) % 3]
            pts.append((vx + self.cut * (before[0] - vx), vy + self.cut * (before[1] - vy)))
            pts.append((vx + self.cut * (after[0] - vx), vy + self.cut * (after[1] - vy)))
        return pts

    def flat_y(self, cell: Cell) -> float:
        """The y of the land's flat side, where its number is written."""
        return self.triangle(cell)[0][1]

    def centre_x(self, cell: Cell) -> float:
        return self.left + (cell.column + 1) * self.side / 2

    def inward(self, cell: Cell, depth: float) -> float:
        """The y ``depth`` pixels in from the flat side, toward the apex."""
        return self.flat_y(cell) + (-depth if cell.up else depth)

    def width_at(self, depth: float) -> float:
        """The triangle's width ``depth`` pixels in from its flat side."""
        return max(0.0, self.side * (1 - depth / self.height))

    def size(self, columns: int, rows: int) -> tuple[float, float]:
        """Width and height of a grid of ``columns`` x ``rows`` cells."""
        return (columns + 1) * self.side / 2, rows * self.height
