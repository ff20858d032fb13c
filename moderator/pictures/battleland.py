"""
One battleland, and the battle being fought on it, as SVG text.

A battle is public (2.5.6.1), so the input is the battle part of a ``player_view``
through ``reporting.views.battle_model``: the picture shows exactly what the text report
prints.  ``battleland_svg`` draws a bare battleland (no battle) too, for reference.

The hexes lie as ``hexes`` places them.  Each hex shows its label, its terrain and
height (as words, and by its fill: higher ground is darker), and the character on it as
a counter in its owner's colour: its whole name (written smaller when long) and its
hits out of what slays it.  Hexside hazards are lines on the side, each with ticks
pointing away from the hex atop it (downhill).  The entry sides, and the hexes a
character may reach when its player asked ``reach HEX``, are ``battle_marks``.
"""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from moderator.pictures import battle_marks, svg
from moderator.pictures.hexes import HEADER, RADIUS, WIDTH, centre, corners, side
from moderator.pictures.layout import SQRT3
from moderator.reporting.views import battle_model, view_variant
from moderator.rules.variant import LABELS, Battleland, Variant

FOOTER_LETTERS = 105  # a line of 12-pixel text across the picture
COUNTER_WIDTH = 80.0
COUNTER_NAME_SIZE = 14.0
#: A hex's terrain and height in words ("volcano, height 2"): the smallest size
#: ``svg.crisp`` draws hard-edged.  At 10 pixels they were antialiased, a ring of shades
#: round every letter: the Tower battle 16.2 KB -> 15.2, a bare Mountains 14.6 -> 13.0,
#: and the longest (95 pixels) still clear of a hex's sides (110 there).
WORDS_SIZE = svg.CRISP_ANY

TERRAIN_FILL = {
    "plains": "#f3eed7",
    "bramble": "#9bcc78",
    "bog": "#b49ac4",
    "sand": "#efd08e",
    "drift": "#ddeffa",
    "volcano": "#ec7a5e",
    "tree": "#4f8f4a",
    "tower": "#c8c8c8",
    "lake": "#7fb2dc",
}
#: The line between two hexes, in pixels across it: each hex's fill is inset by half of
#: it on an unstroked hex of ``HEX_LINE_COLOUR`` (``_ground``), so the lines are flat shapes,
#: which the rasteriser draws in steps of three rows (``raster.STEP``, ``raster._bottom``):
#: the report's Tower battle 15.1 -> 14.2 KB, a bare Plains 8.5 -> 6.9, a bare Tower
#: 9.9 -> 9.3.  As thick as a step, a flat hexside keeps three rows wherever it lies (two could vanish between
#: the rows a step copies), and a slanted one stays unbroken (a one-pixel stroke in
#: steps broke into dashes); grey rather than dark, not to read as a wall.
HEX_LINE = 3.0
HEX_LINE_COLOUR = "#8c8c8c"
#: Hexside hazards: colour, line width, dash pattern.
HAZARD_STYLE = {
    "slope": ("#7a4a1e", 3.0, None),
    "wall": ("#2a2a2a", 6.0, None),
    "cliff": ("#a01c1c", 5.0, None),
    "dune": ("#d98a1c", 5.0, None),  # its dashes closed up under their round caps
}
Point = svg.Point
#: A part of what a battle puts on its battleland, and the box it lies in.
Piece = tuple[svg.Box, list[str]]


def _shade(colour: str, elevation: int) -> str:
    """``colour`` darkened by 13% per level of height."""
    factor = max(0.0, 1 - 0.13 * elevation)
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{int(c * factor):02x}" for c in (r, g, b))


def _hex(land: Battleland, label: str) -> list[str]:
    ground = land.hexes[label]
    fill = _shade(TERRAIN_FILL.get(ground.terrain, "#eeeeee"), ground.elevation)
    ink = "#ffffff" if ground.terrain == "tree" else svg.INK
    x, y = centre(label)
    out = [svg.polygon(corners(label, RADIUS - HEX_LINE / SQRT3), fill)]
    out.append(svg.text(x, y - 40, label, 15, bold=True, fill=ink))
    words = [] if ground.terrain == "plains" else [ground.terrain]
    if ground.elevation:
        words.append(f"height {ground.elevation}")
    if words:
        out.append(svg.text(x, y - 26, ", ".join(words), WORDS_SIZE, fill=ink))
    return out


def _hazard(land: Battleland, owner: str, other: str, kind: str) -> list[str]:
    direction = next(d for d, n in land.neighbours(owner).items() if n == other)
    (x1, y1), (x2, y2) = side(owner, direction)
    cx, cy = centre(owner)
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    length = ((mx - cx) ** 2 + (my - cy) ** 2) ** 0.5
    nx, ny = (mx - cx) / length, (my - cy) / length  # toward the hex below the hazard
    colour, width, dash = HAZARD_STYLE.get(kind, ("#000000", 3.0, None))
    out = [_band((x1, y1), (x2, y2), colour, width) if dash is None else svg.polyline([(x1, y1), (x2, y2)], colour, width, dash)]
    for t in (0.3, 0.5, 0.7):
        px, py = x1 + t * (x2 - x1), y1 + t * (y2 - y1)
        out.append(svg.polyline([(px, py), (px + 9 * nx, py + 9 * ny)], colour, 2.5))
    return out


def _band(start: Point, end: Point, colour: str, width: float) -> str:
    """
    A hexside's hazard line as a flat shape: the rectangle ``width`` across from
    ``start`` to ``end``, reaching half its width past each (as a square cap would), so
    lines on neighbouring sides meet.  The rasteriser draws flat shapes of the land in
    steps of rows (``raster._bottom``): the Tower battle's walls cost 0.6 KB less so
    (14.4 -> 13.8 KB), and a line at least a step thick stays whole.  A dashed line
    keeps its stroke (a dune's dashes, five pixels wide with round caps, closed up into
    a solid line: it is one now).
    """
    (x1, y1), (x2, y2) = start, end
    length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
    ux, uy = (x2 - x1) / length * width / 2, (y2 - y1) / length * width / 2
    return svg.polygon(
        [(x1 - ux - uy, y1 - uy + ux), (x2 + ux - uy, y2 + uy + ux), (x2 + ux + uy, y2 + uy - ux), (x1 - ux + uy, y1 - uy - ux)],
        colour,
    )


def _counter(character: Mapping[str, Any], colours: Mapping[str, tuple[str, str]]) -> Piece:
    x, y = centre(str(character["hex"]))
    fill, ink = colours.get(str(character["owner"]), svg.UNKNOWN_PLAYER)
    slain = bool(character["slain"])
    if slain:
        fill, ink = "#9a9a9a", "#000000"
    name = str(character["type"]).capitalize()
    size = svg.fitting(name, COUNTER_NAME_SIZE, COUNTER_WIDTH - 6)
    hits = (
        f"slain ({character['hits']}/{character['power']})"
        if slain
        else (f"hits {character['hits']}/{character['power']}")
    )
    return (x - COUNTER_WIDTH / 2 - 1, y - 15, x + COUNTER_WIDTH / 2 + 1, y + 27), [
        svg.rect(
            x - COUNTER_WIDTH / 2,
            y - 14,
            COUNTER_WIDTH,
            40,
            fill,
            stroke="#000000",
            width=1.2,
            radius=4,
        ),
        svg.text(x, y + 3, name, size, fill=ink, bold=True, strike=slain),
        svg.text(x, y + 19, hits, 11, fill=ink),
    ]


def _who(player: str, legion: str, colours: Mapping[str, str]) -> str:
    colour = colours.get(player)
    return f"{player} ({colour}, {legion})" if colour else f"{player} ({legion})"


def _header(model: Mapping[str, Any], game: str, colour_names: Mapping[str, str]) -> list[Piece]:
    first = " · ".join(
        p
        for p in (
            f"Game {game}" if game else "",
            f"Battle in land {model['land']} ({model['terrain']})",
            f"battle turn {model['turn']} of {model['last_turn']}",
        )
        if p
    )
    attacker = _who(model["attacker_player"], model["attacker"], colour_names)
    defender = _who(model["defender_player"], model["defender"], colour_names)
    second = f"{attacker} attacks from the {model['entry']}; {defender} defends."
    third = f"{model['phasing_player']}'s turn: {model['step_text']}; {model['decision']}."
    room = WIDTH - 24
    return [
        _line(22, first, svg.fitting(first, 16, room), bold=True),
        _line(42, second, svg.fitting(second, 13, room, bold=False)),
        _line(60, third, svg.fitting(third, 13, room, bold=False)),
    ]


def _line(baseline: float, content: str, size: float, *, bold: bool = False) -> Piece:
    """A line of text from the left margin, a piece of its own."""
    box = svg.text_box(12, baseline, content, size)
    return box, [svg.text(12, baseline, content, size, bold=bold, anchor="start")]


def _legend(top: float) -> tuple[list[str], float]:
    """The key to the hazard lines, below the board; and where the next line goes."""
    out: list[str] = []
    x, y = 12.0, top
    for kind, (colour, width, dash) in HAZARD_STYLE.items():
        out.append(svg.polyline([(x, y + 12), (x + 34, y + 12)], colour, width, dash))
        out.append(svg.polyline([(x + 17, y + 12), (x + 17, y + 20)], colour, 2.5))
        out.append(svg.text(x + 40, y + 16, kind, 12, anchor="start"))
        x += 100
    out.append(
        svg.text(x, y + 16, "ticks point downhill; counters: hits / what slays", 11, anchor="start")
    )
    return out, y + 28


def _lists(model: Mapping[str, Any] | None, top: float) -> tuple[list[Piece], float]:
    """The characters off the board (not entered yet, slain), as lines of text."""
    out: list[Piece] = []
    y = top
    if model is not None:
        for title, chars in (
            ("Not on the battleland", model["waiting"]),
            ("Slain", model["slain"]),
        ):
            if chars:
                names = ", ".join(f"{c['type']} ({c['legion']})" for c in chars)
                for line in textwrap.wrap(f"{title}: {names}", FOOTER_LETTERS):
                    out.append(_line(y + 14, line, 12))
                    y += 18
    return out, y + 6


def _entry_lines(
    land: Battleland, model: Mapping[str, Any], colours: Mapping[str, tuple[str, str]]
) -> list[tuple[str, str, str]]:
    """(entrance key, fill, words) of each side a legion enters by (none for a defender
    in a tower: he stands in it from the start)."""
    attacker, defender = model["attacker_player"], model["defender_player"]
    sides = [(model["entry"], attacker, f"{attacker}'s entry side (attacker)")]
    if not land.tower:
        sides.append((f"defender-{model['entry']}", defender, f"{defender}'s (defender)"))
    return [
        (key, colours.get(player, svg.UNKNOWN_PLAYER)[0], words) for key, player, words in sides
    ]


def _reach_line(model: Mapping[str, Any], viewer: str | None, start: str) -> str:
    """The legend of the reach rings: whose character they are for."""
    character = next(
        (h["character"] for h in model["hexes"] if h["label"] == start and h["character"]),
        None,
    )
    if character is None:
        return f"Ringed: where the character on {start} may move ('reach {start}')."
    whose = "your" if character["owner"] == viewer else f"{character['owner']}'s"
    kind = str(character["type"]).capitalize()
    return f"Ringed: where {whose} {kind} on {start} may move this maneuver ('reach {start}')."


@functools.lru_cache(maxsize=32)
def _ground(variant: Variant, terrain: str) -> tuple[tuple[str, ...], float]:
    """The battleland of ``terrain``: its hexes, hazards and their key, the same for
    every battle there, and where the lines below it start."""
    land = variant.battlelands[terrain]
    ground = [svg.polygon(corners(label, RADIUS + HEX_LINE / SQRT3), HEX_LINE_COLOUR) for label in LABELS]
    for label in LABELS:
        ground += _hex(land, label)
    for (owner, other), kind in sorted(land.hexsides.items()):
        ground += _hazard(land, owner, other, kind)
    legend, next_line = _legend(HEADER + 6 * SQRT3 * RADIUS + 10)
    return (*ground, *legend), next_line


def _pieces(
    variant: Variant,
    terrain: str,
    model: Mapping[str, Any] | None,
    colours: Mapping[str, tuple[str, str]],
    colour_names: Mapping[str, str],
    game: str,
    reach: tuple[str, Sequence[str]] | None,
    viewer: str | None,
) -> tuple[list[str], list[Piece], float, str]:
    """
    The land (``_ground``), what the battle puts on it as pieces in drawing order (each
    header line, entry side, counter and ring, the lines below the board), the
    picture's height and its title.
    """
    land = variant.battlelands[terrain]
    ground, next_line = _ground(variant, terrain)
    pieces: list[Piece] = []
    if model is not None:
        pieces += _header(model, game, colour_names)
        entries = _entry_lines(land, model, colours)
        for key, fill, _ in entries:
            arrows = battle_marks.entrance(land, key, fill)
            pieces.append((svg.points_box([arrows], 1.2), [arrows]))
        for hexinfo in model["hexes"]:
            if hexinfo["character"] is not None:
                pieces.append(_counter(hexinfo["character"], colours))
        key_line = battle_marks.entry_key(12, next_line + 14, [(f, w) for _, f, w in entries])
        pieces.append(((0, next_line, WIDTH, next_line + 22), key_line))
        next_line += 22
        if reach is not None:
            for ring in battle_marks.reach_marks(reach[0], reach[1]):
                pieces.append((svg.points_box([ring], battle_marks.REACH_WIDTH), [ring]))
            pieces.append(_line(next_line + 14, _reach_line(model, viewer, reach[0]), 12))
            next_line += 22
    else:
        pieces.append(_line(22, f"The {terrain} battleland", 16, bold=True))
    lists, height = _lists(model, next_line)
    pieces += lists
    title = f"Battle in land {model['land']}" if model is not None else f"{terrain} battleland"
    return [svg.rect(0, 0, WIDTH, height, svg.PAPER), *ground], pieces, height, title


def battleland_layers(
    variant: Variant,
    terrain: str,
    model: Mapping[str, Any] | None = None,
    *,
    colours: Mapping[str, tuple[str, str]] | None = None,
    colour_names: Mapping[str, str] | None = None,
    game: str = "",
    reach: tuple[str, Sequence[str]] | None = None,
    viewer: str | None = None,
) -> tuple[str, ...]:
    """
    The battleland of ``terrain`` in ``variant``, with the battle of ``model`` (a ``battle_model``) on
    it if given, as SVG documents to draw one over the other: the land (paper, hexes,
    hazards and their key; the same for every battle there, drawn to where the lines
    below begin, the picture's height named for the paper under it), then each
    thing the battle puts on it (the header, entry sides, counters, rings, the lines
    below) as a small ``svg.tile``.  ``colours``: player -> (fill, ink) of his counters;
    ``colour_names``: player -> his colour's name, for the header.  ``reach``: (a hex,
    the hexes its character may move to), ringed, with ``viewer`` named as "you" in
    their key.
    """
    _, pieces, height, _ = _pieces(
        variant, terrain, model, colours or {}, colour_names or {}, game, reach, viewer
    )
    ground, land_height = _ground(variant, terrain)  # the land ends where the lines begin
    land = [svg.rect(0, 0, WIDTH, land_height, svg.PAPER), *ground]
    return (
        svg.document(WIDTH, land_height, f"{terrain} battleland", land, picture_height=height),
        *(svg.tile(WIDTH, height, box, body) for box, body in pieces),
    )


def _whole(terrain: str, parts: tuple[list[str], list[Piece], float, str]) -> str:
    """The land and its pieces as one SVG document."""
    ground, pieces, height, title = parts
    return svg.merge(
        svg.document(WIDTH, height, f"{terrain} battleland", ground),
        svg.document(WIDTH, height, title, [e for _, body in pieces for e in body]),
    )


def battleland_svg(
    variant: Variant,
    terrain: str,
    model: Mapping[str, Any] | None = None,
    *,
    colours: Mapping[str, tuple[str, str]] | None = None,
    colour_names: Mapping[str, str] | None = None,
    game: str = "",
) -> str:
    """``battleland_layers`` as one SVG document."""
    parts = _pieces(variant, terrain, model, colours or {}, colour_names or {}, game, None, None)
    return _whole(terrain, parts)


def _battle(
    view: Mapping[str, Any], viewer: str | None
) -> tuple[Mapping[str, Any], dict[str, tuple[str, str]], dict[str, str]]:
    """The battle model of ``view``, the players' counter colours and their colours'
    names; ValueError if no battle is on."""
    model = battle_model(dict(view), viewer)
    if model is None:
        raise ValueError("no battle is being fought")
    names = {str(p["name"]): str(p["color"]) for p in view["players"] if p.get("color")}
    return model, svg.player_colours(view["players"]), names


def battle_layers(
    view: Mapping[str, Any],
    viewer: str | None = None,
    *,
    game: str = "",
    reach: tuple[str, Sequence[str]] | None = None,
) -> tuple[str, ...]:
    """The battle of ``view`` (a ``player_view`` dict) as ``battleland_layers``, with
    ``reach`` ringed if given; ValueError if no battle is on."""
    model, colours, names = _battle(view, viewer)
    return battleland_layers(
        view_variant(view),
        model["terrain"],
        model,
        colours=colours,
        colour_names=names,
        game=game,
        reach=reach,
        viewer=viewer,
    )


def battle_svg(
    view: Mapping[str, Any],
    viewer: str | None = None,
    *,
    game: str = "",
    reach: tuple[str, Sequence[str]] | None = None,
) -> str:
    """The battle of ``view`` (a ``player_view`` dict) as SVG; ValueError if none is on."""
    model, colours, names = _battle(view, viewer)
    parts = _pieces(view_variant(view), model["terrain"], model, colours, names, game, reach, viewer)
    return _whole(model["terrain"], parts)


__all__ = [
    "battle_layers",
    "battle_svg",
    "battleland_layers",
    "battleland_svg",
    "centre",
    "corners",
    "side",
]
