"""
The pictures: every battleland and the masterboard draw, rasterise at 800 pixels in a
small palette PNG, show only what their viewer may see, and match the golden SVGs.

The golden files under ``golden/`` are rewritten by running these tests with
``TITAN_REGEN_GOLDEN=1``; look at the change (and the PNG) before keeping it.
"""

from __future__ import annotations

import io
import os
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from moderator.pictures import svg
from moderator.pictures.battleland import battle_svg, battleland_svg, centre, side
from moderator.pictures.layout import board_layout
from moderator.pictures.masterboard import masterboard_svg
from moderator.pictures.raster import named_colours, render_rgba, svg_to_png
from moderator.rules.variant import LABELS, STANDARD, load_variant, shipped_variants

from .positions import BOARD, board_view

GOLDEN = Path(__file__).parent / "golden"
REGENERATE = os.environ.get("TITAN_REGEN_GOLDEN") == "1"
NS = "{http://www.w3.org/2000/svg}"
VARIANT = load_variant(STANDARD)


def _texts(svg_text: str) -> list[str]:
    root = ET.fromstring(svg_text.encode("utf-8"))
    return [t.text or "" for t in root.iter(f"{NS}text")]


def _size(svg_text: str) -> tuple[int, int]:
    root = ET.fromstring(svg_text.encode("utf-8"))
    return round(float(root.attrib["width"])), round(float(root.attrib["height"]))


def _png(svg_text: str) -> tuple[Image.Image, int]:
    data = svg_to_png(svg_text)
    image = Image.open(io.BytesIO(data))
    image.load()
    return image, len(data)


def _check_png(svg_text: str) -> Image.Image:
    image, _ = _png(svg_text)
    assert image.format == "PNG" and image.mode == "P"
    assert image.size == _size(svg_text)
    assert image.width == 800
    return image


@pytest.mark.parametrize("terrain", sorted(VARIANT.battlelands))
def test_every_battleland_draws(terrain: str) -> None:
    picture = battleland_svg(VARIANT, terrain)
    texts = _texts(picture)
    assert set(LABELS) <= set(texts)
    land = VARIANT.battlelands[terrain]
    special = {h.terrain for h in land.hexes.values() if h.terrain != "plains"}
    assert all(any(kind in t for t in texts) for kind in special)
    _check_png(picture)


@pytest.mark.parametrize("variant", [STANDARD, "badlands"])
def test_a_battle_picture_is_drawn_in_its_own_colours_without_shades(variant: str) -> None:
    """Issue 28: every pixel of a battleland, bare or with a battle on it, is a colour its
    SVG names.  An antialiased word (the hexes' "tower, height 1" were, at 10 pixels) is a
    ring of in-between shades that the palette PNG pays for pixel by pixel."""
    chosen = load_variant(variant)
    pictures = [battleland_svg(chosen, terrain) for terrain in sorted(chosen.battlelands)]
    if variant == STANDARD:
        pictures.append(battle_svg(board_view("Ann"), "Ann", game="g1"))
    for picture in pictures:
        image = render_rgba(picture).convert("RGB")
        shown = {colour for _, colour in image.getcolors(image.width * image.height) or ()}
        assert shown <= named_colours([picture]), sorted(shown - named_colours([picture]))[:5]


def test_the_battle_shows_every_character_with_its_hits() -> None:
    view = board_view("Cy")  # a battle is public: a player not in it sees it all
    picture = battle_svg(view, "Cy", game="g1")
    texts = _texts(picture)
    for character in view["battle"]["characters"]:
        assert character["type"].capitalize() in texts  # whole names
    assert "hits 3/7" in texts  # Ann's Titan, score 124: power 7
    assert any("Ann (Gold, Gd01) attacks from the bottom" in t for t in texts)
    assert any("Ann's turn: strikes and rangestrikes; Ann to decide" in t for t in texts)
    _check_png(picture)


def test_characters_off_the_battleland_and_slain_are_listed() -> None:
    view = board_view("Ann")
    chars: list[dict[str, Any]] = view["battle"]["characters"]
    chars[4] = {**chars[4], "hex": None}  # the Lion, not entered
    chars[7] = {**chars[7], "hits": 6, "slain": True}  # an Ogre, slain, not yet removed
    texts = _texts(battle_svg(view, "Ann"))
    assert "Not on the battleland: Lion (Gd01)" in texts
    assert "Slain: Ogre (Bu03)" in texts
    assert "slain (6/6)" in texts


def test_no_battle_no_battle_picture() -> None:
    view = board_view("Ann")
    view["battle"] = None
    with pytest.raises(ValueError, match="no battle"):
        battle_svg(view, "Ann")


def test_the_masterboard_draws_every_land_and_legion() -> None:
    view = board_view("Ann")
    picture = masterboard_svg(view, "Ann", game="g1", changed=[200, 41])
    texts = _texts(picture)
    assert {str(n) for n in VARIANT.lands} <= set(texts)
    for legion in view["legions"]:
        assert f"{legion['marker']} {legion['height']}" in texts
    title = "Game g1 · turn 6, Ann's engage phase · battle in 200 · you to act"
    assert any(text.startswith(title) for text in texts)
    assert "Ann (you): 124 points" in texts
    image, size = _png(picture)
    assert image.mode == "P" and image.width == 800 and image.size == _size(picture)
    assert size < 28 * 1024, size  # issue 28: a palette map well under 30 KB at 800 px
    assert len(image.getcolors(256) or ()) <= 96


def _lab(colour: str) -> tuple[float, float, float]:
    """An sRGB ``#rrggbb`` in CIELAB (D65), where a distance of about 2 is just seen."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(colour[i : i + 2], 16) / 255) for i in (1, 3, 5))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _apart(a: str, b: str) -> float:
    return sum((p - q) ** 2 for p, q in zip(_lab(a), _lab(b), strict=True)) ** 0.5


@pytest.mark.parametrize("variant", shipped_variants())
def test_neighbouring_lands_part_by_colour_without_outlines(variant: str) -> None:
    """
    Lands are drawn without a line round them, so two lands that touch on the board must
    differ in colour enough to be told apart (Hills and Marsh once merged), and every
    land must stand out from the paper between the lands.
    """
    lands = load_variant(variant).lands
    layout = board_layout(variant)
    at = {(cell.column, cell.row): number for number, cell in layout.items()}
    touching = {
        tuple(sorted((lands[number].terrain, lands[at[place]].terrain)))
        for number, cell in layout.items()
        for place in cell.grid_neighbours()
        if place in at
    }
    assert touching
    for a, b in touching:
        assert a != b, f"two {a} lands touch: they would be one patch of colour"
        assert _apart(svg.TERRAIN_FILL[a], svg.TERRAIN_FILL[b]) >= 20, (a, b)
    for terrain in {land.terrain for land in lands.values()}:
        assert _apart(svg.TERRAIN_FILL[terrain], svg.PAPER) >= 15, terrain


def test_the_masterboard_never_shows_what_a_legion_holds() -> None:
    picture = masterboard_svg(board_view("Ann"), "Ann")
    words = " ".join(_texts(picture))
    for legion in BOARD["legions"]:
        for creature in legion["contents"]:
            assert creature not in words


def test_changed_lands_numbers_are_marked_on_magenta_and_only_theirs() -> None:
    """A land changed since the viewer's last board has its number written again, white
    on a magenta tile: a mark on the few rows of the number (an outline round the land
    made all its rows the report's own, issue 28)."""
    view = board_view("Bob")
    assert 'class="changed"' not in masterboard_svg(view, "Bob")
    picture = masterboard_svg(view, "Bob", changed=[10, 200, 9999])  # 9999: no such land
    root = ET.fromstring(picture.encode("utf-8"))
    marks = [g for g in root.iter(f"{NS}g") if g.get("class") == "changed"]
    assert [g.get("data-land") for g in marks] == ["10", "200"]
    for mark in marks:
        tile, number = mark
        assert tile.get("fill") == svg.HIGHLIGHT and number.get("fill") == "#ffffff"
        assert number.text == mark.get("data-land")
    assert any("Numbers on magenta: lands changed since your last board." in t for t in _texts(picture))


def test_a_withdrawn_player_is_struck_through() -> None:
    view = board_view("Ann")
    view["players"][0] = {**view["players"][0], "eliminated": True}
    picture = masterboard_svg(view, "Ann")
    name = view["players"][0]["name"]
    assert f"{name}: out" in _texts(picture)
    assert 'text-decoration="line-through"' in picture


# -- golden files ---------------------------------------------------------------------


def _golden(name: str, picture: str) -> None:
    path = GOLDEN / name
    if REGENERATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(picture, encoding="utf-8")
    assert path.is_file(), f"no golden file {path}: run with TITAN_REGEN_GOLDEN=1"
    assert picture == path.read_text(encoding="utf-8"), (
        f"{name} differs from its golden file: if the change is meant, regenerate with "
        "TITAN_REGEN_GOLDEN=1 and look at the picture"
    )


def test_golden_masterboard() -> None:
    view = board_view("Ann")
    _golden("masterboard.svg", masterboard_svg(view, "Ann", game="g1", changed=[41, 115, 200]))


def test_golden_battle() -> None:
    _golden("battle-tower.svg", battle_svg(board_view("Ann"), "Ann", game="g1"))


@pytest.mark.parametrize("terrain", ["Desert", "Mountains"])
def test_golden_battleland(terrain: str) -> None:
    _golden(f"battleland-{terrain.lower()}.svg", battleland_svg(VARIANT, terrain))


def test_battle_hexes_touch_where_the_rules_say() -> None:
    """Side d of a hex is the side it shares with its neighbour in direction d (0 = N)."""
    land = VARIANT.battlelands["Plains"]
    for label in LABELS:
        for direction, other in land.neighbours(label).items():
            (x1, y1), (x2, y2) = side(label, direction)
            (ax, ay), (bx, by) = centre(label), centre(other)
            assert abs((x1 + x2) / 2 - (ax + bx) / 2) < 1e-6, (label, direction)
            assert abs((y1 + y2) / 2 - (ay + by) / 2) < 1e-6, (label, direction)


def test_long_texts_shrink_or_wrap_to_stay_on_the_picture() -> None:
    assert svg.fitting("Game g1 · turn 6", 16, 784) == 16
    long = "Game a-very-long-game-name · turn 12, Maximilian-Alexander's muster phase · " * 2
    assert 0.6 * 16 <= svg.fitting(long, 16, 784) < 16
    assert svg.shorten("Maximilian-Alexander von Hohenzollern", 22) == "Maximilian-Alexander …"
    view = board_view("Ann")
    view["players"][1] = {**view["players"][1], "name": "Maximilian-Alexander von Hohenzollern"}
    assert "Maximilian-Alexander …: " in " ".join(_texts(masterboard_svg(view, "Ann")))
    chars = view["battle"]["characters"]
    for i, c in enumerate(chars):
        chars[i] = {**c, "hex": None}
    texts = _texts(battle_svg(view, "Ann"))
    waiting = [t for t in texts if "Lion (Gd01)" in t or "Gargoyle (Bu03)" in t]
    assert len(waiting) == 2  # ten characters off the board: two lines
