"""The pictures draw the game's variant: its board (layout and land names) and every one
of its battlelands, Badlands' lakes included (docs/variants.md)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from moderator.pictures.battleland import battleland_svg
from moderator.pictures.layout import board_layout
from moderator.pictures.masterboard import masterboard_svg
from moderator.reporting.views import player_view
from moderator.rules.evolve import replay
from moderator.rules.positions import position_event
from moderator.rules.variant import LABELS, STANDARD, load_variant, shipped_variants

EVERY = [(name, b) for name in shipped_variants() for b in sorted(load_variant(name).battlelands)]


def _texts(picture: str) -> list[str]:
    return ["".join(t.itertext()) for t in ET.fromstring(picture).iter("{http://www.w3.org/2000/svg}text")]


def _view(variant: str) -> dict[str, object]:
    position = {
        "players": [
            {"name": "Ann", "color": "Red", "tower": 600},
            {"name": "Bob", "color": "Blue", "tower": 300},
        ],
        "turn": 2,
        "active": "Ann",
        "phase": "split",
        "legions": [
            {"marker": "Rd01", "land": 600, "contents": ["Titan", "Angel"]},
            {"marker": "Bu01", "land": 300, "contents": ["Titan", "Angel"]},
        ],
        "variant": variant,
    }
    return player_view(replay([position_event(position)]), "Ann")


@pytest.mark.parametrize(("variant", "battleland"), EVERY)
def test_every_battleland_of_every_variant_draws(variant: str, battleland: str) -> None:
    picture = battleland_svg(load_variant(variant), battleland)
    texts = _texts(picture)
    assert set(LABELS) <= set(texts)
    hexes = load_variant(variant).battlelands[battleland].hexes.values()
    special = {h.terrain for h in hexes if h.terrain != "plains"}
    assert all(any(kind in t for t in texts) for kind in special), (special, texts)


@pytest.mark.parametrize("variant", shipped_variants())
def test_the_masterboard_of_every_variant_draws_its_lands(variant: str) -> None:
    assert board_layout(variant) == board_layout(STANDARD)  # all on the standard board
    texts = _texts(masterboard_svg(_view(variant), "Ann", game="g1"))
    assert {str(n) for n in load_variant(variant).lands} <= set(texts)


def _key(texts: list[str]) -> str:
    """The short names' key under the board, its lines joined."""
    start = next(i for i, t in enumerate(texts) if t.startswith("Lands: "))
    return " ".join(texts[start:])


def test_badlands_boards_name_the_lands_fought_on_a_battleland_of_their_own() -> None:
    """Fort, Town and Waterhole always; the alternates only where they are fixed.  Each
    land shows its short name, and the key under the board spells it out."""
    rolled = _texts(masterboard_svg(_view("badlands"), "Ann", game="g1"))
    fixed = _texts(masterboard_svg(_view("badlands-fixed"), "Ann", game="g1"))
    for texts in (rolled, fixed):
        assert {"Fo", "Tw", "Wa", "To"} <= set(texts)
        assert all(pair in _key(texts) for pair in ("Fo Fort,", "Tw Town,", "Wa Waterhole", "To Tower,"))
    assert "BrA" in fixed and "BrA BrushAlt" in _key(fixed)
    assert "BrA" not in rolled and "BrushAlt" not in _key(rolled)
    assert "Fort" not in _key(_texts(masterboard_svg(_view(STANDARD), "Ann", game="g1")))
