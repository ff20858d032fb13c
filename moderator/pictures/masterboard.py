"""
The masterboard as one player may see it, as SVG text.

The input is a ``reporting.views.player_view`` dict, so the picture can show nothing the
text report would not: legions appear as their markers and heights (their contents are
never drawn, known or not), and the players' colours and scores come from the same view.
``changed`` names the lands that changed since the board the viewer was last shown
(``changes.board_changes`` in a report, ``changes.changed_lands`` for the command line); their
numbers are written on magenta (``_changed``).

Each land is drawn as the hexagon of ``layout`` filled with its terrain's colour, with
no line round it (``svg.TERRAIN_FILL`` keeps neighbouring terrains apart by colour
alone; the lines were a tenth of the PNG), its number written at its flat side, its
name short under the number (``land_names``: the key under the board spells it out),
and its legions' markers below that, in their owner's colour.  The picture is 800
pixels wide, the width the PNG is sent at.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any

from moderator.pictures import land_names, signs, svg
from moderator.pictures.layout import Cell, Grid, board_layout
from moderator.reporting.views import view_variant
from moderator.rules.variant import Land, Variant

WIDTH = 800
MARGIN = 8
COLUMNS, ROWS = 15, 8
TITLE_BAND = 40
#: Bands in a land, in pixels in from its flat side: (near, far).
NUMBER_BAND = (4.0, 17.0)
NUMBER_SIZE = 12.0
#: A digit's advance in DejaVu Sans Bold, in ems (the width of a changed land's tile).
DIGIT = 0.696
TERRAIN_BAND = (18.0, 27.0)
#: A land's short name: bold, so that it is drawn hard-edged (``svg.crisp``).
NAME_SIZE = 9.0
MARKER_BANDS = ((28.0, 42.0), (43.5, 57.5))
MARKER_SIZE = 8.0
TERRAIN_ROOM = 38.0  # pixels between the signs on a land's two slanted sides
MARKER_HEIGHT = 14.0
PLAYERS_PER_ROW = 3
PLAYER_ROW = 20.0  # pixels from one row of players to the next
SIGN_KEY_LINE = 18.0  # the signs' legend, below the markers' one
KEY_LINE = 15.0  # each line of the short names' key, below the signs' legend
#: The legends under the board: the smallest size ``svg.crisp`` draws hard-edged.
LEGEND_SIZE = svg.CRISP_ANY
#: A part of what a view puts on the board, and the box it lies in.
Piece = tuple[svg.Box, list[str]]


def _grid() -> Grid:
    side = (WIDTH - 2 * MARGIN) / ((COLUMNS + 1) / 2)
    return Grid(side=side, left=MARGIN, top=MARGIN + TITLE_BAND)


def _band(grid: Grid, cell: Cell, band: tuple[float, float]) -> tuple[float, float]:
    """The band's top and bottom y on the canvas."""
    a, b = grid.inward(cell, band[0]), grid.inward(cell, band[1])
    return min(a, b), max(a, b)


def _baseline(top: float, bottom: float, size: float) -> float:
    """The baseline that centres a line of ``size`` pixels between ``top`` and ``bottom``."""
    return (top + bottom) / 2 + 0.36 * size


def _marker_box(
    x: float, top: float, marker: str, height: int, colours: tuple[str, str]
) -> Piece:
    label = f"{marker} {height}"
    width = 0.62 * MARKER_SIZE * len(label) + 4
    fill, ink = colours
    return (x - width / 2, top, x + width / 2, top + MARKER_HEIGHT), [
        svg.rect(
            x - width / 2, top, width, MARKER_HEIGHT, fill, stroke="#000000", width=0.8, radius=2
        ),
        svg.text(
            x,
            _baseline(top, top + MARKER_HEIGHT, MARKER_SIZE),
            label,
            MARKER_SIZE,
            fill=ink,
            bold=True,
        ),
    ]


def _name(variant: Variant, land: Land) -> str:
    """What a land is called under its number: its terrain, or the battleland always
    fought on it where the variant places one of its own (Badlands' Fort)."""
    placed = land.battleland
    if not placed or (placed in variant.alternates.values() and variant.options.battleland_choice != "fixed"):
        return land.terrain
    return placed


def _land(grid: Grid, cell: Cell, terrain: str, name: str) -> list[str]:
    """The land itself: its hexagon in its terrain's colour, its number and its short
    ``name``."""
    fill = svg.TERRAIN_FILL.get(terrain, "#dddddd")
    out = [svg.polygon(grid.outline(cell), fill)]
    x = grid.centre_x(cell)
    top, bottom = _band(grid, cell, NUMBER_BAND)
    out.append(svg.text(x, _baseline(top, bottom, NUMBER_SIZE), str(cell.number), NUMBER_SIZE, bold=True))
    top, bottom = _band(grid, cell, TERRAIN_BAND)
    size = svg.fitting(name, NAME_SIZE, TERRAIN_ROOM)  # clear of the signs
    out.append(svg.text(x, _baseline(top, bottom, size), name, size, bold=True))
    return out


def _markers(
    grid: Grid,
    cell: Cell,
    legions: list[Mapping[str, Any]],
    colours: Mapping[str, tuple[str, str]],
) -> list[Piece]:
    """The markers of the legions in a land, below its number, each a piece of its own."""
    out: list[Piece] = []
    x = grid.centre_x(cell)
    bands = list(MARKER_BANDS)
    for i, legion in enumerate(legions):
        if i < len(bands):
            top, _ = _band(grid, cell, bands[i])
            dx = 0.0
        else:  # a third legion and more (not seen in play): beside the first two
            top, _ = _band(grid, cell, bands[i % len(bands)])
            dx = (-1 if i % 2 else 1) * 0.3 * grid.side
        owner_colours = colours.get(str(legion["owner"]), svg.UNKNOWN_PLAYER)
        out.append(
            _marker_box(x + dx, top, str(legion["marker"]), int(legion["height"]), owner_colours)
        )
    return out


def _changed(grid: Grid, cell: Cell) -> Piece:
    """
    The mark of a land that changed since the board the viewer was last shown: its
    number written again, white on a magenta tile the width of the number.  An outline
    round the land made every row of it the report's own, which the PNG then compressed
    with the report instead of taking the land's kept rows (``pngwrite.KeptLand``): 0.44
    KB a land, so a report of a whole round's moves (12 lands) 25.7 KB against 24.3
    with the tiles.  The tile stays between the signs beside the number.
    """
    x = grid.centre_x(cell)
    top, bottom = _band(grid, cell, NUMBER_BAND)
    label = str(cell.number)
    half = DIGIT * NUMBER_SIZE * len(label) / 2 + 2
    mark = svg.group(
        "changed",
        [
            svg.rect(x - half, top - 1, 2 * half, bottom - top + 2, svg.HIGHLIGHT),
            svg.text(x, _baseline(top, bottom, NUMBER_SIZE), label, NUMBER_SIZE, fill="#ffffff", bold=True),
        ],
        land=cell.number,
    )
    return (x - half, top - 1, x + half, bottom + 1), [mark]


def title_line(view: Mapping[str, Any], game: str, viewer: str | None) -> str:
    """The first line: the game, the turn, whose turn it is and who is to act."""
    parts = [f"Game {game}"] if game else []
    if view.get("winner"):
        parts.append(f"over: {view['winner']} won")
    elif view.get("step") == "over":
        parts.append("over")
    else:
        turn = f"turn {view['turn']}"
        if view.get("active"):
            turn += f", {view['active']}'s {view['phase']} phase"
        parts.append(turn)
        engagement = view.get("engagement")
        if engagement:
            fight = "battle" if view.get("battle") else "engagement"
            parts.append(f"{fight} in {engagement['land']}")
        actor = view.get("to_act")
        if actor is not None:
            parts.append("you to act" if actor == viewer else f"{actor} to act")
    return " · ".join(parts)


def _players(view: Mapping[str, Any], viewer: str | None, top: float) -> list[Piece]:
    """Each player's colour, name and score, a piece each (a score that did not change
    is a tile the rasteriser kept)."""
    out: list[Piece] = []
    colours = svg.player_colours(view["players"])
    column_width = (WIDTH - 2 * MARGIN) / PLAYERS_PER_ROW
    for i, player in enumerate(view["players"]):
        row, column = divmod(i, PLAYERS_PER_ROW)
        x, y = MARGIN + column * column_width, top + row * PLAYER_ROW
        fill, _ = colours[player["name"]]
        who = svg.shorten(player["name"], 22) + (" (you)" if player["name"] == viewer else "")
        state = "out" if player["eliminated"] else f"{player['score']} points"
        line = f"{who}: {state}"
        box = svg.text_box(x + 20, y + 15, line, 12)
        out.append(
            (
                (x, min(y + 3, box[1]), box[2], max(y + 17, box[3])),
                [
                    svg.rect(x, y + 3, 14, 14, fill, stroke="#000000", width=0.8, radius=2),
                    svg.text(
                        x + 20,
                        y + 15,
                        line,
                        12,
                        bold=player["name"] == view.get("to_act"),
                        anchor="start",
                        strike=bool(player["eliminated"]),
                    ),
                ],
            )
        )
    return out


@functools.lru_cache(maxsize=16)
def _board(variant: Variant, rows: int) -> tuple[tuple[str, ...], float]:
    """
    The board of ``variant`` with ``rows`` rows of players under it: the paper, the
    lands, their signs and the signs' key, and the picture's height.  The same for every
    view of such a game, so drawn once (its SVG text is then the key of its pixels).
    """
    grid = _grid()
    layout = board_layout(variant.name)
    lands = variant.lands
    short = land_names.short_names(_name(variant, lands[n]) for n in layout)
    board: list[str] = []
    for number in sorted(layout):
        name = short[_name(variant, lands[number])]
        board += _land(grid, layout[number], lands[number].terrain, name)
    for number in sorted(layout):
        board += signs.land_signs(grid, lands[number], layout)
    legend_y = _footer_top(grid) + rows * PLAYER_ROW + 14
    board += signs.key(MARGIN, legend_y + SIGN_KEY_LINE, LEGEND_SIZE)
    key_y = legend_y + SIGN_KEY_LINE
    for line in land_names.key_lines(short):
        key_y += KEY_LINE
        board.append(svg.text(MARGIN, key_y, line, LEGEND_SIZE, anchor="start"))
    height = key_y + MARGIN
    return (svg.rect(0, 0, WIDTH, height, svg.PAPER), *board), height


def _footer_top(grid: Grid) -> float:
    _, board_h = grid.size(COLUMNS, ROWS)
    return grid.top + board_h + MARGIN


def _pieces(
    view: Mapping[str, Any],
    viewer: str | None,
    game: str,
    changed: Iterable[int],
) -> tuple[tuple[str, ...], list[Piece], float, str]:
    """
    The board (``_board``: the same for every view with as many players), what the view
    puts on it as pieces in drawing order (the title, each marker, each changed land, each
    player, the legend), the picture's height and its title.
    """
    grid = _grid()
    variant = view_variant(view)
    layout = board_layout(variant.name)
    marked = sorted(set(changed) & set(layout))
    colours = svg.player_colours(view["players"])
    by_land: dict[int, list[Mapping[str, Any]]] = {}
    for legion in sorted(view["legions"], key=lambda lg: str(lg["marker"])):
        if legion.get("land") is not None:
            by_land.setdefault(int(legion["land"]), []).append(legion)
    rows = -(-len(view["players"]) // PLAYERS_PER_ROW)
    board, height = _board(variant, rows)
    title = title_line(view, game, viewer)
    heading = svg.text(
        MARGIN, MARGIN + 18, title, svg.fitting(title, 16, WIDTH - 2 * MARGIN), bold=True, anchor="start"
    )
    pieces: list[Piece] = [((0, 0, WIDTH, MARGIN + TITLE_BAND), [heading])]
    for number in sorted(layout):
        pieces += _markers(grid, layout[number], by_land.get(number, []), colours)
    for number in marked:
        pieces.append(_changed(grid, layout[number]))
    footer_top = _footer_top(grid)
    pieces += _players(view, viewer, footer_top)
    legend_y = footer_top + rows * PLAYER_ROW + 14
    legend = "Boxes: legion marker and height, in its owner's colour."
    if marked:
        legend += " Numbers on magenta: lands changed since your last board."
    pieces.append(
        (
            svg.text_box(MARGIN, legend_y, legend, LEGEND_SIZE),
            [svg.text(MARGIN, legend_y, legend, LEGEND_SIZE, anchor="start")],
        )
    )
    return board, pieces, height, title


def masterboard_layers(
    view: Mapping[str, Any],
    viewer: str | None = None,
    *,
    game: str = "",
    changed: Iterable[int] = (),
) -> tuple[str, ...]:
    """
    The masterboard as SVG documents to draw one over the other: the board (the paper
    and the lands, the same for every view with as many players), then each thing the
    view puts on it (the title, each marker, each changed land, the players) as a small
    ``svg.tile``.  The rasteriser keeps the board's pixels and the tiles it saw lately,
    so a report pays for what changed, not for an 800-pixel canvas.
    """
    board, pieces, height, _ = _pieces(view, viewer, game, changed)
    return (
        svg.document(WIDTH, height, "masterboard", board),
        *(svg.tile(WIDTH, height, box, body) for box, body in pieces),
    )


def masterboard_svg(
    view: Mapping[str, Any],
    viewer: str | None = None,
    *,
    game: str = "",
    changed: Iterable[int] = (),
) -> str:
    """
    The masterboard as ``viewer`` sees it in ``view`` (a ``player_view`` dict), as SVG.
    ``changed``: lands to mark (they changed since his last board).
    """
    board, pieces, height, title = _pieces(view, viewer, game, changed)
    return svg.merge(
        svg.document(WIDTH, height, "masterboard", board),
        svg.document(WIDTH, height, title, [e for _, body in pieces for e in body]),
    )
