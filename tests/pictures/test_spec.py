"""A report's pictures: decided with the report, drawn from what it kept (Wolff 4.5)."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image, ImageChops

from moderator.pictures.masterboard import masterboard_svg
from moderator.pictures.raster import layers_to_png, svg_to_png
from moderator.pictures.spec import (
    BATTLE,
    MASTERBOARD,
    Picture,
    draw,
    layers,
    reach_picture,
    report_pictures,
)

from .positions import board_view


def test_4_5_a_picture_keeps_no_contents_even_from_a_viewers_own_view() -> None:
    """What the outbox keeps for a picture names markers, lands and heights, never
    what a legion holds: the masterboard goes in the signed part."""
    (board, battle) = report_pictures(board_view("Ann"), "Ann", "g1", [41])
    for legion in board.view["legions"]:
        assert set(legion) == {"marker", "owner", "land", "height"}
    assert "proposals" not in json.dumps(board.to_json())
    assert (board.kind, battle.kind) == (MASTERBOARD, BATTLE)


def test_9_3_a_battle_picture_goes_with_the_private_part() -> None:
    """A battle shows both legions' characters: revealed by the rules (Wolff 9.3), but
    still legion contents, which the moderator never signs."""
    board, battle = report_pictures(board_view(None), "Bob", "g1")
    assert not board.private and battle.private
    assert battle.filename == "battle-g1-turn6-land200.png"
    assert board.filename == "board-g1-turn6.png"


def test_no_battle_no_battle_picture() -> None:
    view = board_view(None)
    view["battle"] = None
    assert [p.kind for p in report_pictures(view, "Cy", "g1")] == [MASTERBOARD]


def test_a_picture_kept_as_json_draws_the_same_svg_as_the_full_view() -> None:
    view = board_view(None)
    (board, battle) = report_pictures(view, "Ann", "g1", [200, 41])
    again = Picture.from_json(json.loads(json.dumps(board.to_json())))
    assert again == board
    assert draw(again) == masterboard_svg(view, None, game="g1", changed=[41, 200])  # names no viewer
    assert "Bu03" in draw(Picture.from_json(battle.to_json()))


@pytest.mark.parametrize("bad", [{}, {"kind": "poster", "view": {}}, {"kind": BATTLE}])
def test_anything_else_is_not_a_picture(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="not a picture"):
        Picture.from_json(bad)


def _rgb(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def test_the_board_drawn_in_layers_looks_like_the_board_drawn_whole() -> None:
    """The sender keeps the lands' pixels and draws only the markers on them; the result
    may differ from drawing the whole SVG only in the odd edge pixel."""
    for picture in report_pictures(board_view(None), "Ann", "g1", [41]):
        layered = _rgb(layers_to_png(layers(picture)))
        whole = _rgb(svg_to_png(draw(picture)))
        assert layered.size == whole.size == (800, whole.height)
        differ = ImageChops.difference(layered, whole).convert("L").point(lambda v: v > 48)
        assert differ.histogram()[255] < 0.01 * whole.width * whole.height, picture.kind


def test_a_reach_picture_keeps_its_rings_through_the_outbox() -> None:
    """The answer to 'reach HEX' is drawn when the mail is sent: the hexes to ring are
    kept with the picture, and the battle drawn from the JSON rings them."""
    view = board_view(None)
    picture = reach_picture(view, "Ann", "g1", "D2", ["C1", "D1"])
    assert picture.kind == BATTLE and picture.private and picture.reach == ("D2", ("C1", "D1"))
    again = Picture.from_json(json.loads(json.dumps(picture.to_json())))
    assert again == picture
    drawn = draw(again)
    assert drawn.count('class="reach"') == 2 and 'class="reach-from" data-hex="D2"' in drawn
    assert "reach" not in json.dumps(report_pictures(view, "Ann", "g1")[1].to_json())
    assert "may reach" in picture.description
