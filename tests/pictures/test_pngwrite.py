"""
The PNG writer: a report's picture whose land's rows are compressed once and spliced in
(``pngwrite.KeptLand``) reads back pixel for pixel, whatever was drawn where.
"""

from __future__ import annotations

import io
import random
import zlib

import pytest
from PIL import Image

from moderator.pictures import pngwrite, raster
from moderator.pictures.pngwrite import KeptLand, kept_band, png_bytes
from moderator.pictures.raster import layers_to_png
from moderator.pictures.spec import layers, report_pictures

from .positions import board_view

ENTRIES = [(250, 250, 245), (243, 226, 124), (76, 159, 90), (17, 17, 17), (212, 42, 42)]
WIDTH, HEIGHT = 120, 150


def _land() -> bytearray:
    """Slanted bands of two fills, as a board's lands lie, with a dark dot here and there."""
    pixels = bytearray()
    for y in range(HEIGHT):
        for x in range(WIDTH):
            pixels.append(3 if (x * 7 + y * 3) % 97 == 0 else 1 + ((x + y // 2) // 17) % 2)
    return pixels


def _read(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@pytest.mark.parametrize("size", [1, 2, 3, 121, 5_000, 40_000])
def test_a_kept_band_reads_back_and_lets_the_stream_go_on(size: int) -> None:
    """A kept band is libdeflate's block made 'not the last' and brought to a whole byte:
    what follows it (here the empty last block) is read as the stream's next block."""
    data = bytes((i * i // 7) % 5 for i in range(size))
    piece = kept_band(data)
    assert piece is not None
    reader = zlib.decompressobj(-15)
    assert reader.decompress(piece + b"\x03\x00") == data
    assert reader.eof and not reader.unused_data


def test_a_picture_over_its_land_reads_back_pixel_for_pixel_from_kept_bands() -> None:
    """Rows drawn over (a marker, a title) are compressed with the picture; the land's own
    bands come from what was kept, and the PNG reads back as the picture itself."""
    land = KeptLand(bytes(_land()), WIDTH, ENTRIES)
    for drawn_rows in ([], [0, 1, 2], [40, 41, 70], list(range(100, 150)), [31, 32, 63, 64]):
        picture = _land()
        for y in drawn_rows:
            picture[y * WIDTH + 5 : y * WIDTH + 30] = bytes([4]) * 25
        image = _read(land.png(bytes(picture), ENTRIES))
        assert image.mode == "P" and image.size == (WIDTH, HEIGHT)
        assert image.tobytes() == bytes(picture), drawn_rows
        assert image.getpalette()[: 3 * len(ENTRIES)] == [v for c in ENTRIES for v in c]
    # the whole land was one kept run when the first picture, drawing nothing, was written
    assert land.runs(bytes(_land())) == [(0, HEIGHT)] and land.piece(0, HEIGHT) is not None


def test_the_kept_runs_are_the_rows_a_report_left_cut_to_whole_steps() -> None:
    """A report's PNG takes from the land each run of rows it left as they were, from
    where its drawing ends to where the next begins, cut inward to ``GRID`` rows (the
    runs of a game's reports repeat, each compressed once); a run shorter than
    ``SHORTEST`` rows is compressed with the picture (it would cost its first row)."""
    land = KeptLand(bytes(_land()), WIDTH, ENTRIES)
    picture = _land()
    for y in (11, 60, 61, 70):
        picture[y * WIDTH + 3] = 4
    grid, shortest = pngwrite.GRID, pngwrite.SHORTEST
    assert grid == 2 and shortest == 20  # the figures below
    assert land.runs(bytes(picture)) == [(12, 60), (72, HEIGHT)]  # 62-70: too short
    # a picture taller than its land (a battle's lines below it): its land's rows
    assert land.runs(bytes(picture) + bytes(WIDTH)) == [(12, 60), (72, HEIGHT)]
    assert land.runs(bytes(picture)[:-WIDTH]) == []  # shorter: not a picture of this land


def test_a_run_libdeflate_spells_in_several_blocks_is_kept_in_halves() -> None:
    """Only a piece of one block can be made 'not the last' without decoding it: a long
    run of varied rows is kept as the pieces of its halves, and reads back whole."""
    width, height = 200, 400
    noise = random.Random(1)  # bands of noise and of stripes: deflate's statistics change
    varied = bytes(
        noise.randrange(3) if y % 50 < 25 else (x // 7) % 2 for y in range(height) for x in range(width)
    )
    land = KeptLand(varied, width, ENTRIES[:3])
    pieces = land.piece(0, height)
    assert pieces is not None and len(pieces) > 1
    reader = zlib.decompressobj(-15)
    assert reader.decompress(b"".join(pieces) + b"\x03\x00") == pngwrite.rows_of(varied, width)
    picture = bytearray(varied)
    picture[5] = 2 if picture[5] != 2 else 1
    assert _read(land.png(bytes(picture), ENTRIES[:3])).tobytes() == bytes(picture)


def test_a_picture_taller_than_its_land_is_written_all_the_same() -> None:
    land = KeptLand(bytes(_land()), WIDTH, ENTRIES)
    picture = bytes(_land()) + bytes([2]) * WIDTH * 9  # a line more of players under it
    assert _read(land.png(picture, ENTRIES)).tobytes() == picture
    # its land's rows are still the land's kept runs (a battle's land under its lines)
    assert land.runs(picture) == [(0, HEIGHT)]
    assert land.runs(bytes(_land())[: WIDTH * 10]) == []  # a shorter picture has none


def test_the_land_kept_makes_a_report_board_smaller_and_the_same_picture() -> None:
    """Issue 28: the lands of a six-player board, compressed once at libdeflate's
    hardest, make its report's PNG smaller than compressing it whole each time."""
    board = report_pictures(board_view(None), "Ann", "g1", [41])[0]
    spliced = layers_to_png(layers(board))
    image = _read(spliced)
    values = image.getpalette() or []
    entries = [(values[i], values[i + 1], values[i + 2]) for i in range(0, len(values), 3)]
    plain = png_bytes(image.tobytes(), image.width, entries)
    assert _read(plain).tobytes() == image.tobytes()
    assert len(spliced) < len(plain) - 512, (len(spliced), len(plain))
    assert len(spliced) < 23 * 1024, len(spliced)  # 22.7 KB; 25.5 before issue 28's steps and runs
    battle = report_pictures(board_view(None), "Ann", "g1", [41])[1]
    assert len(layers_to_png(layers(battle))) < 14.5 * 1024  # 14.2 KB; 15.1 with outlined hexes


def test_a_report_picture_shows_exactly_its_land_with_its_tiles_laid_on() -> None:
    """Only the tiles' boxes are counted and quantised (the rest is the land's, kept in
    its palette): the PNG must still show every pixel of the land with the tiles laid
    on it, where each colour is one of the palette's."""
    for picture in report_pictures(board_view(None), "Ann", "g1", [41]):
        drawn = layers(picture)
        canvas = raster.bottom_canvas(drawn[0])
        for layer in drawn[1:]:
            x, y, _, _ = raster._view_box(layer)
            canvas.alpha_composite(raster.render_rgba(layer, clear=True).convert("RGBA"), dest=(x, y))
        assert _read(layers_to_png(drawn)).convert("RGB").tobytes() == canvas.convert("RGB").tobytes()


def test_rows_drawn_over_the_land_are_written_whatever_libdeflate_makes_of_them() -> None:
    """The rows a report drew are compressed afresh by libdeflate, or by zlib where
    libdeflate spells them in several blocks: either way the PNG reads back."""
    width, height = 200, 400
    noise = random.Random(2)
    land = KeptLand(bytes(width * height), width, ENTRIES[:3])
    small = bytearray(width * height)
    small[width * 50 : width * 60] = bytes(noise.randrange(3) for _ in range(width * 10))
    assert pngwrite.kept_band(pngwrite.rows_of(bytes(small[width * 50 : width * 60]), width), pngwrite.DRAWN_LEVEL)
    drawn_all = bytes(
        noise.randrange(3) if y % 50 < 25 else (x // 7) % 2 for y in range(height) for x in range(width)
    )
    assert pngwrite.kept_band(pngwrite.rows_of(drawn_all, width), pngwrite.DRAWN_LEVEL) is None
    for picture in (bytes(small), drawn_all):
        assert _read(land.png(picture, ENTRIES[:3])).tobytes() == picture
