"""
A picture drawn in tiles: the board kept, each thing on it rendered on a canvas of its
own size and laid where it belongs, the small ones kept for the next report.  The
pixels must be those of the same things rendered on one whole canvas.
"""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from moderator.pictures import raster, svg
from moderator.pictures.spec import layers, reach_picture, report_pictures

from .positions import board_view


def _whole_canvas(documents: tuple[str, ...]) -> Image.Image:
    """The tiles' contents rendered together on one canvas the size of the board."""
    base = raster.bottom_canvas(documents[0])
    bodies = [doc.split(">\n", 1)[1].removesuffix("\n</svg>\n") for doc in documents[1:]]
    top = svg.document(base.width, base.height, "top", bodies)
    base.alpha_composite(raster.render_rgba(top, base.width, clear=True))
    return base


def _tiled(documents: tuple[str, ...]) -> Image.Image:
    canvas = raster.bottom_canvas(documents[0])
    for tile in documents[1:]:
        x, y, _, _ = raster._view_box(tile)
        canvas.alpha_composite(raster.render_rgba(tile, clear=True), dest=(x, y))
    return canvas


def test_tiles_give_the_pixels_of_one_whole_canvas() -> None:
    """Each marker, counter, ring, title and footer rendered alone and laid at its
    viewBox's origin is, pixel for pixel, what rendering them all at once gives."""
    view = board_view(None)
    pictures = [*report_pictures(view, "Ann", "g1", [41, 200]), reach_picture(view, "Ann", "g1", "D2", ["C1", "D1"])]
    for picture in pictures:
        documents = layers(picture)
        assert len(documents) > 5, picture.kind  # the things on the board are tiles
        assert ImageChops.difference(_tiled(documents), _whole_canvas(documents)).getbbox() is None, picture.kind


def test_tiles_rendered_together_are_the_pixels_of_each_rendered_alone() -> None:
    """Issue 28: a report's new tiles go to resvg in one document (its fonts loaded once,
    not once a tile); each cut out of it is, pixel for pixel, the tile rendered alone."""
    view = board_view(None)
    pictures = [*report_pictures(view, "Ann", "g1", [41, 200]), reach_picture(view, "Ann", "g1", "D2", ["C1", "D1"])]
    for picture in pictures:
        tiles = list(layers(picture)[1:])
        together = raster.render_tiles(tiles)
        assert len(together) == len(tiles)
        for tile, image in zip(tiles, together, strict=True):
            alone = raster.render_rgba(tile, clear=True).convert("RGBA")
            assert image.size == alone.size
            assert ImageChops.difference(image, alone).getbbox() is None, (picture.kind, tile[:120])


def test_a_document_that_is_not_a_tile_is_rendered_alone() -> None:
    whole = svg.document(40, 20, "t", [svg.rect(0, 0, 10, 10, "#000000")])
    tile = svg.tile(800, 600, (10, 10, 30, 20), [svg.rect(10, 10, 20, 10, "#ff0000")])
    images = raster.render_tiles([whole, tile, tile])
    assert [image.size for image in images] == [(40, 20), (26, 16), (26, 16)]
    assert ImageChops.difference(images[0], raster.render_rgba(whole, clear=True)).getbbox() is None


def test_a_tile_is_cut_to_whole_pixels_inside_the_picture() -> None:
    tile = svg.tile(800, 600, (-4.5, 10.2, 30.7, 20.0), [svg.rect(0, 10.2, 30, 9.8, "#000000")])
    assert raster._view_box(tile) == (0, 7, 34, 16)
    assert raster.render_rgba(tile, clear=True).size == (34, 16)
    corner = svg.tile(800, 600, (790.5, 590.5, 820, 640), [])
    assert raster._view_box(corner) == (787, 587, 13, 13)


def test_a_marker_that_did_not_move_is_not_rendered_again() -> None:
    """Two reports of one board that differ only in the outlined lands share every
    marker tile: the second report renders none of them."""
    view = board_view(None)
    first = layers(report_pictures(view, "Ann", "g1", [41])[0])
    second = layers(report_pictures(view, "Bob", "g1", [200])[0])
    raster.layers_to_png(first)
    hits, misses = raster.TILES.hits, raster.TILES.misses
    raster.layers_to_png(second)
    markers = [t for t in second[1:] if 'font-size="8"' in t and "<rect" in t]
    assert markers and set(markers) <= set(first)
    assert raster.TILES.hits - hits >= len(markers)
    assert raster.TILES.misses - misses <= len(second) - 1 - len(markers)


def test_the_tiles_kept_are_bounded_in_bytes() -> None:
    """The worker draws for weeks: what it keeps of tiles stays under its bound."""
    kept = raster.TileCache(max_bytes=40 * 21 * 4 * 3)
    for n in range(10):
        kept.keep(f"tile {n}", Image.new("RGBA", (40, 21)))
    assert kept.size <= kept.max_bytes
    assert kept.get("tile 9") is not None and kept.get("tile 0") is None


def test_a_text_tile_holds_the_widest_letters_of_the_shipped_fonts() -> None:
    """A player's name is his to choose: a line of the widest glyphs the fonts have is
    still inside its tile, so the PNG shows what the whole SVG shows."""
    from PIL import ImageFont

    for path in raster.font_paths():
        font = ImageFont.truetype(path, 100)
        for glyph in ("W", "\u0152", "\u2031", "\u1676"):
            assert font.getlength(glyph) <= 100 * svg.WIDEST_GLYPH, (path, glyph)
    left, _, right, _ = svg.text_box(20, 40, "\u1676" * 5, 12)
    assert right - left >= 5 * 12 * 2.02


def test_a_battles_land_is_one_whatever_lines_a_report_has_below_it() -> None:
    """Issue 28: a battleland's land is drawn to where the lines below it begin, so a
    report with more lines (a reach key, more slain) draws on the land kept from the
    last, with paper under it, instead of rendering and compressing a land of its own."""
    view = board_view(None)
    plain = layers(report_pictures(view, "Ann", "g1", [41])[1])
    ringed = layers(reach_picture(view, "Ann", "g1", "D2", ["C1", "D1"]))
    land, height = svg.land_of(plain[0])
    assert svg.land_of(ringed[0])[0] == land
    assert height is not None and svg.land_of(ringed[0])[1] == height + 22
    raster.layers_to_png(plain)
    before = raster._bottom.cache_info()
    png = raster.layers_to_png(ringed)
    after = raster._bottom.cache_info()
    assert after.misses == before.misses and after.hits > before.hits
    assert Image.open(io.BytesIO(png)).size == (800, height + 22)


def test_a_land_names_the_height_of_its_picture_in_whole_pixels() -> None:
    shorter = svg.document(800, 100.2, "land", [], picture_height=160.5)
    land, height = svg.land_of(shorter)
    assert height == 161 and "data-height" not in land and land.startswith(shorter[:60])
    whole = svg.document(800, 100, "board", [])
    assert svg.land_of(whole) == (whole, None)
