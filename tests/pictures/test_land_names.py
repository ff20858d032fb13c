"""
The masterboard writes each land's name short, and the key under it spells each out: a
player must be able to tell every land's terrain from the picture alone.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from PIL import ImageFont

from moderator.pictures import land_names
from moderator.pictures.land_names import SHORT, key_lines, short_names
from moderator.pictures.masterboard import LEGEND_SIZE, MARGIN, WIDTH, _name, masterboard_svg
from moderator.pictures.raster import font_paths
from moderator.rules.variant import load_variant, shipped_variants

from .positions import board_view


def _drawn_names(variant: str) -> set[str]:
    loaded = load_variant(variant)
    return {_name(loaded, land) for land in loaded.lands.values()}


@pytest.mark.parametrize("variant", shipped_variants())
def test_every_name_a_board_draws_has_a_short_name_of_its_own(variant: str) -> None:
    names = _drawn_names(variant)
    short = short_names(names)
    assert set(short) == names
    assert len(set(short.values())) == len(names)  # no two lands' names alike
    assert all(len(s) <= 3 for s in short.values()), short
    key = " ".join(key_lines(short))
    assert all(f"{s} {name}" in key for name, s in short.items())


@pytest.mark.parametrize("variant", shipped_variants())
def test_the_key_fits_under_the_board(variant: str) -> None:
    """Measured with the shipped font the key is drawn in."""
    font = ImageFont.truetype(font_paths()[0], LEGEND_SIZE)
    lines = key_lines(short_names(_drawn_names(variant)))
    assert lines and all(font.getlength(line) <= WIDTH - 2 * MARGIN for line in lines), lines


def test_the_standard_terrains_keep_their_letters_whatever_else_is_drawn() -> None:
    """Tower stays To beside Badlands' Town, whichever order the names come in."""
    names = [*SHORT, "Town", "Fort", "BrushAlt"]
    assert short_names(names) == short_names(reversed(names))
    short = short_names(names)
    assert {name: short[name] for name in SHORT} == SHORT
    assert (short["Town"], short["Fort"], short["BrushAlt"]) == ("Tw", "Fo", "BrA")


def test_a_name_no_two_letters_tell_apart_is_written_in_full() -> None:
    short = short_names(["Ab", "Ab2", "Abb"])
    assert len(set(short.values())) == 3
    assert "Ab" in short.values()
    assert key_lines({"Ab": "Ab"}) == []  # nothing to spell out


def test_the_board_names_each_land_short_and_keys_every_name() -> None:
    picture = masterboard_svg(board_view("Ann"), "Ann", game="g1")
    texts = [t.text or "" for t in ET.fromstring(picture).iter("{http://www.w3.org/2000/svg}text")]
    assert texts.count("Mo") == 3 and texts.count("Tu") == 3  # 1000 to 6000
    assert "Mountains" not in texts
    key = next(t for t in texts if t.startswith("Lands: "))
    assert "Mo Mountains" in key and "Tu Tundra" in key
    assert len(key) <= land_names.KEY_LETTERS
