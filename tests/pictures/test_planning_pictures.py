"""
Pictures a player can plan with (issue 24, item 3): the masterboard's movement signs,
the battleland's entry sides in a style of their own, characters named in full, and the
hexes ``reach HEX`` rings.
"""

from __future__ import annotations

import copy
import io
import itertools
import xml.etree.ElementTree as ET

from PIL import Image, ImageFont

from moderator.pictures import svg
from moderator.pictures.battleland import HAZARD_STYLE, battle_svg
from moderator.pictures.land_names import short_names
from moderator.pictures.layout import Grid, board_layout
from moderator.pictures.masterboard import NAME_SIZE, _grid, masterboard_svg
from moderator.pictures.raster import font_paths, svg_to_png
from moderator.reporting.views import player_view
from moderator.rules.evolve import replay
from moderator.rules.positions import position_event
from moderator.rules.state import GameState
from moderator.rules.variant import STANDARD, load_variant
from moderator.usecases.games.battle_queries import reach_hexes

from .positions import MOUNTAIN_BATTLE, board_view

NS = "{http://www.w3.org/2000/svg}"
VARIANT = load_variant(STANDARD)
TERRAINS = {land.terrain for land in VARIANT.lands.values()}
Box = tuple[float, float, float, float]
Points = list[tuple[float, float]]


def _mountain() -> GameState:
    return replay([position_event(copy.deepcopy(MOUNTAIN_BATTLE))])


def _root(picture: str) -> ET.Element:
    return ET.fromstring(picture.encode("utf-8"))


def _groups(picture: str, first_class: str) -> list[ET.Element]:
    return [
        g for g in _root(picture).iter(f"{NS}g") if g.get("class", "").split()[:1] == [first_class]
    ]


def _points(element: ET.Element) -> list[tuple[float, float]]:
    pts = []
    for shape in element:
        for pair in shape.get("points", "").split():
            x, y = pair.split(",")
            pts.append((float(x), float(y)))
    return pts


def _box(pts: list[tuple[float, float]], margin: float = 0.0) -> Box:
    xs, ys = [x for x, _ in pts], [y for _, y in pts]
    return min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin


def _hull(pts: Points) -> Points:
    """The convex hull of ``pts`` (Andrew's monotone chain)."""
    ordered = sorted(set(pts))

    def half(points: Points) -> Points:
        out: Points = []
        for p in points:
            while (
                len(out) >= 2
                and (
                    (out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                    - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])
                )
                <= 0
            ):
                out.pop()
            out.append(p)
        return out[:-1]

    return half(ordered) + half(ordered[::-1])


def _apart(a: Points, b: Points, gap: float) -> bool:
    """Whether convex shapes ``a`` and ``b`` are at least ``gap`` apart along some
    edge's normal (separating axes)."""
    for shape in (a, b):
        for (x1, y1), (x2, y2) in zip(shape, shape[1:] + shape[:1]):
            nx, ny = y2 - y1, x1 - x2
            length = (nx * nx + ny * ny) ** 0.5
            if length == 0:
                continue
            pa = [(x * nx + y * ny) / length for x, y in a]
            pb = [(x * nx + y * ny) / length for x, y in b]
            if min(pa) - max(pb) >= gap or min(pb) - max(pa) >= gap:
                return True
    return False


def _rectangle(box: Box) -> Points:
    x0, y0, x1, y1 = box
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def _distance_to_segment(
    p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]
) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return float(((px - ax - t * dx) ** 2 + (py - ay - t * dy) ** 2) ** 0.5)


def _inside(polygon: Points, p: tuple[float, float]) -> bool:
    """Whether ``p`` lies in the convex ``polygon``."""
    px, py = p
    crossings = [
        (x2 - x1) * (py - y1) - (y2 - y1) * (px - x1)
        for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1])
    ]
    return all(c >= 0 for c in crossings) or all(c <= 0 for c in crossings)


# -- the masterboard's signs ------------------------------------------------------------


def test_every_sign_of_the_board_is_drawn_with_its_kind() -> None:
    picture = masterboard_svg(board_view("Ann"), "Ann")
    drawn = [
        (int(g.get("data-from", 0)), int(g.get("data-to", 0)), g.get("class"))
        for g in _groups(picture, "sign")
    ]
    printed = [
        (land.number, exit_.to, f"sign {exit_.sign.value}")
        for land in VARIANT.lands.values()
        for exit_ in land.exits
    ]
    assert sorted(drawn) == sorted(printed)
    assert len(drawn) == 180
    kinds = {c.split()[1] for _, _, c in drawn if c}
    assert kinds == {"block", "arch", "arrow", "arrows"}


def test_each_sign_sits_in_its_own_land_with_its_top_on_the_border_it_crosses() -> None:
    """Rule 7.3: the top of each sign touches the land toward which it points."""
    grid: Grid = _grid()
    layout = board_layout()
    picture = masterboard_svg(board_view("Ann"), "Ann")
    for group in _groups(picture, "sign"):
        here, there = layout[int(group.get("data-from", 0))], layout[int(group.get("data-to", 0))]
        flat_left, flat_right, apex = grid.triangle(here)
        sides = {
            (here.column - 1, here.row): (flat_left, apex),
            (here.column + 1, here.row): (flat_right, apex),
        }
        vertical = (here.column, here.row + (1 if here.up else -1))
        sides[vertical] = (flat_left, flat_right)
        border = sides[(there.column, there.row)]
        others = [s for cell, s in sides.items() if cell != (there.column, there.row)]
        pts = _points(group)
        nearest = min(_distance_to_segment(p, *border) for p in pts)
        assert nearest < 3.5, (group.attrib, nearest)  # its top touches the border
        middle = (sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts))
        here_more = _distance_to_segment(middle, *border)  # nearer that border than others
        assert all(here_more < _distance_to_segment(middle, *o) for o in others)
        assert all(_distance_to_segment(p, *border) < 14.0 for p in pts)
        outline = grid.outline(here)  # the land's hexagon, its corners cut off
        assert all(_inside(outline, p) for p in pts), group.attrib  # in its own land


def test_signs_are_legible_at_800_pixels_none_on_another_nor_on_a_lands_words() -> None:
    """At the width the PNG is sent at, each sign has pixels of its own: no two signs
    overlap, none covers a land's number or terrain, and each shows as dark ink."""
    picture = masterboard_svg(board_view("Ann"), "Ann")
    signs = [(g.get("data-from"), _hull(_points(g))) for g in _groups(picture, "sign")]
    for (a, hull_a), (b, hull_b) in itertools.combinations(signs, 2):
        assert _apart(hull_a, hull_b, 2.0), (a, b)  # the arch's stroke reaches 1.2 out
    numbers: list[Points] = []  # each land's number (bold 12) and short name (bold 9)
    short = set(short_names(TERRAINS).values())
    for text in _root(picture).iter(f"{NS}text"):
        words, size = text.text or "", float(text.get("font-size", 0))
        if (words.isdigit() and size == 12) or (words in short and size == NAME_SIZE):
            face = font_paths()[1 if text.get("font-weight") == "bold" else 0]
            width = ImageFont.truetype(face, size).getlength(words)  # the shipped font's
            x, y = float(text.get("x", 0)), float(text.get("y", 0))
            numbers.append(_rectangle((x - width / 2, y - 0.75 * size, x + width / 2, y)))
    assert len(numbers) == 2 * 96
    for land, hull in signs:
        assert all(_apart(hull, number, 1.5) for number in numbers), land
    boxes = [(land, _box(hull, 0.5)) for land, hull in signs]
    image = Image.open(io.BytesIO(svg_to_png(picture))).convert("L")
    assert image.width == 800
    for land, (x0, y0, x1, y1) in boxes:
        crop = image.crop((int(x0), int(y0), int(x1) + 1, int(y1) + 1))
        dark = sum(crop.histogram()[:60])
        assert dark >= 8, (land, dark)


def test_the_legend_names_every_kind_of_sign() -> None:
    picture = masterboard_svg(board_view("Ann"), "Ann")
    texts = [t.text for t in _root(picture).iter(f"{NS}text")]
    assert "Signs, inside the land they lead out of:" in texts
    for name in ("block", "arch", "arrow", "triple arrow"):
        assert name in texts
    assert sorted(g.get("class") for g in _groups(picture, "key")) == [
        "key arch",
        "key arrow",
        "key arrows",
        "key block",
    ]


# -- the battleland ---------------------------------------------------------------------


def test_the_battleland_draws_entry_sides_apart_from_hazards() -> None:
    """A Red attacker's side is a row of arrows in red pointing in, named in the legend;
    no entry side is drawn as a line in any hazard's style (a cliff is a red line)."""
    state = _mountain()
    picture = battle_svg(player_view(state, "Ann"), "Ann", game="g1")
    red, blue = svg.PLAYER_FILL["Red"][0], svg.PLAYER_FILL["Blue"][0]
    entries = {g.get("class"): g for g in _groups(picture, "entry")}
    assert set(entries) == {"entry attacker", "entry defender"}
    assert entries["entry attacker"].get("data-side") == "left"
    assert entries["entry defender"].get("data-side") == "left"
    land = VARIANT.battlelands["Mountains"]
    for role, fill, key in (("attacker", red, "left"), ("defender", blue, "defender-left")):
        shapes = list(entries[f"entry {role}"])
        assert shapes and all(s.tag == f"{NS}polygon" and s.get("fill") == fill for s in shapes)
        assert len(shapes) >= len(land.entrances[key])  # an arrow on each edge hexside
    hazard_strokes = {(colour, svg.num(width)) for colour, width, _ in HAZARD_STYLE.values()}
    for group in entries.values():
        for shape in group:
            assert (shape.get("stroke"), shape.get("stroke-width")) not in hazard_strokes
            assert shape.tag != f"{NS}polyline"
    texts = [t.text for t in _root(picture).iter(f"{NS}text")]
    assert "Ann's entry side (attacker)" in texts and "Bob's (defender)" in texts
    keys = _groups(picture, "entry-key")
    assert [k[0].get("fill") for k in keys] == [red, blue]
    assert "cliff" in texts  # the hazard keeps its own key


def test_a_tower_battle_has_only_the_attackers_entry_side() -> None:
    picture = battle_svg(board_view("Ann"), "Ann", game="g1")
    entries = _groups(picture, "entry")
    assert [(g.get("class"), g.get("data-side")) for g in entries] == [("entry attacker", "bottom")]


def test_every_character_is_named_in_full_on_its_counter() -> None:
    """No clipped names ("Gargoyl", "Minotr"): the whole name, smaller if it is long,
    within the counter."""
    state = _mountain()
    picture = battle_svg(player_view(state, "Bob"), "Bob")
    texts = {t.text: t for t in _root(picture).iter(f"{NS}text")}
    for name in ("Titan", "Archangel", "Minotaur", "Gargoyle", "Behemoth", "Colossus"):
        assert name in texts, name
        size = float(texts[name].get("font-size", 0))
        assert size >= 0.6 * 14 and 0.68 * size * len(name) <= 76, name
    for creature in VARIANT.creatures:
        assert svg.fitting(creature, 14, 74) * 0.68 * len(creature) <= 76


def test_reach_rings_the_hexes_the_character_may_reach() -> None:
    state = _mountain()
    hexes = reach_hexes(state, "B3")
    assert hexes and "B3" not in hexes
    picture = battle_svg(player_view(state, "Ann"), "Ann", reach=("B3", hexes))
    assert [g.get("data-hex") for g in _groups(picture, "reach")] == list(hexes)
    assert [g.get("data-hex") for g in _groups(picture, "reach-from")] == ["B3"]
    for group in _groups(picture, "reach"):
        assert group[0].get("stroke") == svg.HIGHLIGHT
    texts = [t.text or "" for t in _root(picture).iter(f"{NS}text")]
    assert "Ringed: where your Titan on B3 may move this maneuver ('reach B3')." in texts
    plain = battle_svg(player_view(state, "Ann"), "Ann")
    assert not _groups(plain, "reach") and "Ringed" not in plain
    bob = battle_svg(player_view(state, "Bob"), "Bob", reach=("B3", hexes))
    assert "Ringed: where Ann's Titan on B3 may move this maneuver ('reach B3')." in bob
