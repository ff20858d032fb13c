"""The masterboard layout holds together: every land placed once, every border a shared side."""

from __future__ import annotations

from moderator.pictures.layout import Grid, board_layout
from moderator.rules.variant import STANDARD, load_variant

LAYOUT = board_layout()
LANDS = load_variant(STANDARD).lands


def test_every_land_has_one_cell_on_the_grid() -> None:
    assert set(LAYOUT) == set(LANDS)
    cells = {(c.column, c.row) for c in LAYOUT.values()}
    assert len(cells) == len(LAYOUT) == 96
    assert all(0 <= c.column < 15 and 0 <= c.row < 8 for c in LAYOUT.values())


def test_triangles_alternate() -> None:
    """Up and down alternate along a row and down a column, as triangles on a grid must."""
    parities = {(c.column + c.row) % 2 == 0 for c in LAYOUT.values() if c.up}
    assert len(parities) == 1
    assert {(c.column + c.row) % 2 == 0 for c in LAYOUT.values() if not c.up} == {
        not parities.pop()
    }


def test_every_border_is_a_long_side_both_lands_share() -> None:
    at = {(c.column, c.row): n for n, c in LAYOUT.items()}
    for number, land in LANDS.items():
        touching = {at[cell] for cell in LAYOUT[number].grid_neighbours() if cell in at}
        assert land.neighbours == touching, number


def test_a_land_outline_is_a_hexagon_inside_its_triangle() -> None:
    grid = Grid(side=100.0)
    for cell in LAYOUT.values():
        outline = grid.outline(cell)
        assert len(outline) == 6
        (ax, ay), (bx, by), (px, py) = grid.triangle(cell)
        assert ay == by and abs(bx - ax - 100.0) < 1e-9
        assert (py < ay) == cell.up
        assert all(min(ax, px) <= x <= max(bx, px) for x, _ in outline)
        assert all(min(ay, py) <= y <= max(ay, py) for _, y in outline)
