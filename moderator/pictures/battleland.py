"""
One battleland, and the battle being fought on it, as SVG text.

A battle is public (2.5.6.1), so the input is the battle part of a ``player_view``
through ``reporting.views.battle_model``: the picture shows exactly what the text report
prints.  ``battleland_svg`` draws a bare battleland (no battle) too, for reference.

The hexes are flat-topped, in columns A-F from left to right with row 1 at the bottom
(Wolff's errata 2.2); columns B, D and F sit half a hex lower.  Each hex shows its label,
its terrain and height (as words, and by its fill: higher ground is darker), and the
character on it as a counter in its owner's colour: the name, abbreviated, and its hits
out of what slays it.  Hexside hazards are lines on the side, each with ticks pointing
away from the hex atop it (downhill).  The attacker's entry side is a bar in his colour
outside the board's edge, the defender's another.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from typing import Any

from moderator.pictures import svg
from moderator.pictures.layout import SQRT3
from moderator.reporting.views import battle_model
from moderator.rules.variant import LABELS, Battleland, load_variant

WIDTH = 800
RADIUS = 70.0
HEADER = 76.0
FOOTER_LETTERS = 105  # a line of 12-pixel text across the picture
#: Board columns, and Colossus-style rows counted from the top, for placing the hexes.
_COLUMNS = "ABCDEF"

TERRAIN_FILL = {
    "plains": "#f3eed7",
    "bramble": "#9bcc78",
    "bog": "#b49ac4",
    "sand": "#efd08e",
    "drift": "#ddeffa",
    "volcano": "#ec7a5e",
    "tree": "#4f8f4a",
    "tower": "#c8c8c8",
}
#: Hexside hazards: colour, line width, dash pattern.
HAZARD_STYLE = {
    "slope": ("#7a4a1e", 3.0, None),
    "wall": ("#2a2a2a", 6.0, None),
    "cliff": ("#a01c1c", 5.0, None),
    "dune": ("#d98a1c", 5.0, "7 4"),
}
#: Entrance key -> the hexside directions of its hexes that face off the board.
_ENTRANCE_SIDES = {
    "left": (5, 0),
    "right": (1, 2),
    "bottom": (3, 4),
    "defender-left": (2, 3),
    "defender-right": (4, 5),
    "defender-bottom": (0, 1),
}
#: Names longer than a counter holds (seven letters), shortened; the others are whole.
_ABBREVIATIONS = {
    "Archangel": "Archang",
    "Behemoth": "Behemth",
    "Colossus": "Coloss",
    "Gargoyle": "Gargoyl",
    "Guardian": "Guardn",
    "Minotaur": "Minotr",
}
COUNTER_LETTERS = 7

Point = svg.Point


def abbreviate(creature: str) -> str:
    """A character's name short enough for a counter: "Minotaur" -> "Minotr"."""
    return _ABBREVIATIONS.get(creature, creature[:COUNTER_LETTERS])


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
    out = [svg.polygon(corners(label), fill, "#555555", 1.2)]
    out.append(svg.text(x, y - 40, label, 15, bold=True, fill=ink))
    words = [] if ground.terrain == "plains" else [ground.terrain]
    if ground.elevation:
        words.append(f"height {ground.elevation}")
    if words:
        out.append(svg.text(x, y - 26, ", ".join(words), 10, fill=ink))
    return out


def _hazard(land: Battleland, owner: str, other: str, kind: str) -> list[str]:
    direction = next(d for d, n in land.neighbours(owner).items() if n == other)
    (x1, y1), (x2, y2) = side(owner, direction)
    cx, cy = centre(owner)
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    length = ((mx - cx) ** 2 + (my - cy) ** 2) ** 0.5
    nx, ny = (mx - cx) / length, (my - cy) / length  # toward the hex below the hazard
    colour, width, dash = HAZARD_STYLE.get(kind, ("#000000", 3.0, None))
    out = [svg.polyline([(x1, y1), (x2, y2)], colour, width, dash)]
    for t in (0.3, 0.5, 0.7):
        px, py = x1 + t * (x2 - x1), y1 + t * (y2 - y1)
        out.append(svg.polyline([(px, py), (px + 9 * nx, py + 9 * ny)], colour, 2.5))
    return out


def _entrance(land: Battleland, key: str, fill: str) -> list[str]:
    out = []
    for label in land.entrances.get(key, ()):
        cx, cy = centre(label)
        for direction in _ENTRANCE_SIDES[key]:
            if land.neighbour(label, direction) is not None:
                continue
            (x1, y1), (x2, y2) = side(label, direction)
            mx, my = (x1 + x2) / 2 - cx, (y1 + y2) / 2 - cy
            k = 7 / (mx * mx + my * my) ** 0.5
            out.append(
                svg.polyline([(x1 + k * mx, y1 + k * my), (x2 + k * mx, y2 + k * my)], fill, 7)
            )
    return out


def _counter(character: Mapping[str, Any], colours: Mapping[str, tuple[str, str]]) -> list[str]:
    x, y = centre(str(character["hex"]))
    fill, ink = colours.get(str(character["owner"]), svg.UNKNOWN_PLAYER)
    slain = bool(character["slain"])
    if slain:
        fill, ink = "#9a9a9a", "#000000"
    name = abbreviate(str(character["type"]).capitalize())
    hits = (
        f"slain ({character['hits']}/{character['power']})"
        if slain
        else (f"hits {character['hits']}/{character['power']}")
    )
    return [
        svg.rect(x - 40, y - 14, 80, 40, fill, stroke="#000000", width=1.2, radius=4),
        svg.text(x, y + 3, name, 14, fill=ink, bold=True, strike=slain),
        svg.text(x, y + 19, hits, 11, fill=ink),
    ]


def _who(player: str, legion: str, colours: Mapping[str, str]) -> str:
    colour = colours.get(player)
    return f"{player} ({colour}, {legion})" if colour else f"{player} ({legion})"


def _header(model: Mapping[str, Any], game: str, colour_names: Mapping[str, str]) -> list[str]:
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
        svg.text(12, 22, first, svg.fitting(first, 16, room), bold=True, anchor="start"),
        svg.text(12, 42, second, svg.fitting(second, 13, room, bold=False), anchor="start"),
        svg.text(12, 60, third, svg.fitting(third, 13, room, bold=False), anchor="start"),
    ]


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


def _lists(model: Mapping[str, Any] | None, top: float) -> tuple[list[str], float]:
    """The characters off the board (not entered yet, slain), as lines of text."""
    out: list[str] = []
    y = top
    if model is not None:
        for title, chars in (
            ("Not on the battleland", model["waiting"]),
            ("Slain", model["slain"]),
        ):
            if chars:
                names = ", ".join(f"{c['type']} ({c['legion']})" for c in chars)
                for line in textwrap.wrap(f"{title}: {names}", FOOTER_LETTERS):
                    out.append(svg.text(12, y + 14, line, 12, anchor="start"))
                    y += 18
    return out, y + 6


def battleland_layers(
    terrain: str,
    model: Mapping[str, Any] | None = None,
    *,
    colours: Mapping[str, tuple[str, str]] | None = None,
    colour_names: Mapping[str, str] | None = None,
    game: str = "",
) -> tuple[str, str]:
    """
    The battleland of ``terrain``, with the battle of ``model`` (a ``battle_model``) on
    it if given, as two SVG documents of one size: the land (paper, hexes, hazards and
    their key; the same for every battle there of as many lines) and, on a clear canvas,
    the battle (header, entrances, counters, the characters off the board).
    ``colours``: player -> (fill, ink) of his counters; ``colour_names``: player -> his
    colour's name, for the header.
    """
    land = load_variant().battlelands[terrain]
    colours = colours or {}
    ground: list[str] = []
    for label in LABELS:
        ground += _hex(land, label)
    for (owner, other), kind in sorted(land.hexsides.items()):
        ground += _hazard(land, owner, other, kind)
    legend, lists_top = _legend(HEADER + 6 * SQRT3 * RADIUS + 10)
    ground += legend
    body: list[str] = []
    if model is not None:
        body += _header(model, game, colour_names or {})
        attacker_fill = colours.get(model["attacker_player"], svg.UNKNOWN_PLAYER)[0]
        defender_fill = colours.get(model["defender_player"], svg.UNKNOWN_PLAYER)[0]
        body += _entrance(land, model["entry"], attacker_fill)
        if not land.tower:
            body += _entrance(land, f"defender-{model['entry']}", defender_fill)
        for hexinfo in model["hexes"]:
            if hexinfo["character"] is not None:
                body += _counter(hexinfo["character"], colours)
    else:
        body.append(svg.text(12, 22, f"The {terrain} battleland", 16, bold=True, anchor="start"))
    lists, height = _lists(model, lists_top)
    body += lists
    title = f"Battle in land {model['land']}" if model is not None else f"{terrain} battleland"
    return (
        svg.document(WIDTH, height, f"{terrain} battleland",
                     [svg.rect(0, 0, WIDTH, height, svg.PAPER), *ground]),
        svg.document(WIDTH, height, title, body),
    )


def battleland_svg(
    terrain: str,
    model: Mapping[str, Any] | None = None,
    *,
    colours: Mapping[str, tuple[str, str]] | None = None,
    colour_names: Mapping[str, str] | None = None,
    game: str = "",
) -> str:
    """``battleland_layers`` as one SVG document."""
    return svg.merge(
        *battleland_layers(terrain, model, colours=colours, colour_names=colour_names, game=game)
    )


def battle_layers(
    view: Mapping[str, Any], viewer: str | None = None, *, game: str = ""
) -> tuple[str, str]:
    """The battle of ``view`` (a ``player_view`` dict) as ``battleland_layers``;
    ValueError if none is on."""
    model = battle_model(dict(view), viewer)
    if model is None:
        raise ValueError("no battle is being fought")
    names = {str(p["name"]): str(p["color"]) for p in view["players"] if p.get("color")}
    return battleland_layers(
        model["terrain"],
        model,
        colours=svg.player_colours(view["players"]),
        colour_names=names,
        game=game,
    )


def battle_svg(view: Mapping[str, Any], viewer: str | None = None, *, game: str = "") -> str:
    """The battle of ``view`` (a ``player_view`` dict) as SVG; ValueError if none is on."""
    return svg.merge(*battle_layers(view, viewer, game=game))


__all__ = [
    "abbreviate",
    "battle_layers",
    "battle_svg",
    "battleland_layers",
    "battleland_svg",
    "centre",
    "corners",
    "side",
]
