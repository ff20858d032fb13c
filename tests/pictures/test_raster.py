"""
The rasteriser draws text with the shipped font, and makes small palette PNGs.

resvg drops text it has no font for without a word; a picture of a board with no
numbers would still be a valid PNG.  So these tests look at the pixels: where a label
is written there must be dark ones, and none where it is not.
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from moderator.pictures import raster, svg
from moderator.pictures.pngwrite import png_bytes
from moderator.pictures.raster import FONT_FILES, font_paths, render_rgba, svg_to_png


def _label_svg(label: str | None, family: str = svg.FONT) -> str:
    body = [svg.rect(0, 0, 200, 60, "#ffffff")]
    if label is not None:
        body.append(
            f'<text x="10" y="40" font-family="{family}" font-size="24" fill="#000000">{label}</text>'
        )
    return svg.document(200, 60, "label", body)


def _dark_pixels(svg_text: str, box: tuple[int, int, int, int] = (5, 10, 195, 50)) -> int:
    image = Image.open(io.BytesIO(svg_to_png(svg_text))).convert("L").crop(box)
    return sum(image.histogram()[:100])


def test_a_label_is_drawn() -> None:
    assert _dark_pixels(_label_svg("Ann 1000")) > 150
    assert _dark_pixels(_label_svg(None)) == 0
    assert _dark_pixels(_label_svg("")) == 0


def test_the_bold_face_and_a_generic_family_are_drawn_too() -> None:
    bold = _label_svg("Ann 1000").replace('font-size="24"', 'font-size="24" font-weight="bold"')
    assert _dark_pixels(bold) > _dark_pixels(_label_svg("Ann 1000"))
    assert _dark_pixels(_label_svg("Ann 1000", family="sans-serif")) > 150


def test_the_fonts_are_shipped_with_their_licence() -> None:
    paths = [Path(p) for p in font_paths()]
    assert [p.name for p in paths] == list(FONT_FILES)
    assert all(p.stat().st_size > 100_000 for p in paths)
    assert (paths[0].parent / "LICENSE-DejaVu.txt").is_file()


def test_png_is_a_palette_image_at_the_asked_width() -> None:
    picture = _label_svg("Titan")
    image = Image.open(io.BytesIO(svg_to_png(picture, width=400, colours=16)))
    assert image.mode == "P" and image.size == (400, 120)
    assert len(image.getcolors(256) or ()) <= 16
    assert render_rgba(picture).size == (200, 60)


def _shades(size: float, bold: bool) -> int:
    """How many colours a line of ink on white is drawn in."""
    body = [svg.rect(0, 0, 200, 60, "#ffffff"), svg.text(10, 40, "Ann 1000 Mo", size, bold=bold, anchor="start")]
    return len(render_rgba(svg.document(200, 60, "label", body)).convert("RGB").getcolors(4096) or ())


def test_large_and_bold_text_is_drawn_hard_edged_small_text_keeps_its_shades() -> None:
    """An antialiased edge is a ring of shades a PNG pays for pixel by pixel; the land
    numbers, short names and markers are drawn in ink and paper alone.  The legends'
    small regular text keeps its antialiasing, without which thin strokes break up."""
    assert _shades(12, bold=True) == 2
    assert _shades(svg.CRISP_BOLD, bold=True) == 2
    assert _shades(svg.CRISP_ANY, bold=False) == 2
    assert _shades(10, bold=False) > 10
    assert _dark_pixels(_label_svg("Ann 1000").replace('font-size="24"', 'font-size="24" text-rendering="optimizeSpeed"')) > 150


def test_a_picture_of_few_colours_keeps_8_bits_a_pixel() -> None:
    """Pillow packs a palette of 16 colours or fewer at 4 bits a pixel, which deflate
    compresses worse (a two-player board, or one before colours are chosen, was 15-20%
    bigger); ``raster.png_bytes`` writes every PNG at 8 bits, however few its colours."""
    png = svg_to_png(_label_svg("Titan"), colours=16)
    assert png[24] == 8  # IHDR's bit depth
    image = Image.open(io.BytesIO(png))
    assert len(image.getcolors(256) or ()) <= 16


def test_the_png_written_with_libdeflate_reads_back_pixel_for_pixel() -> None:
    """The PNG is written here (``png_bytes``), not by Pillow: a reader must get back
    every index, the palette and the size, whatever the row's content."""
    entries = [(250, 250, 245), (17, 17, 17), (209, 0, 196)]
    width, height = 37, 23
    pixels = bytes((x * y + x // 5) % 3 if y % 4 else 1 for y in range(height) for x in range(width))
    image = Image.open(io.BytesIO(png_bytes(pixels, width, entries)))
    image.load()
    assert image.mode == "P" and image.size == (width, height)
    assert image.tobytes() == pixels
    assert image.getpalette()[: 3 * len(entries)] == [v for colour in entries for v in colour]


def _slanted_land_with_a_number() -> str:
    """A paper, a land with slanted sides, its number, and a stroked shape (a sign)."""
    body = [
        svg.rect(0, 0, 120, 90, svg.PAPER),
        svg.polygon([(10, 5), (110, 5), (60, 85)], "#9cc96b"),
        svg.text(60, 30, "125", 12, bold=True),
        svg.polygon([(50, 50), (70, 50), (60, 60)], svg.INK, "#000000", 1.0),
    ]
    return svg.document(120, 90, "land", body)


def test_a_lands_flat_shapes_are_kept_in_steps_of_rows_and_its_marks_as_drawn() -> None:
    """Issue 28: a slanted side moving on every row breaks deflate's copy of the row
    above, so the kept land's unstroked shapes are drawn in steps of ``STEP`` rows; the
    number over it and any stroked shape keep every row, pixel for pixel."""
    document = _slanted_land_with_a_number()
    whole = render_rgba(document).convert("RGBA")
    kept = raster._bottom(document)
    ground, marks = raster._ground(document)
    assert ground is not None and "125" in marks and "125" not in ground
    number = kept.crop((40, 16, 80, 34)).convert("L")
    assert sum(number.histogram()[:100]) > 30  # the number is written on the land
    flat = raster.stepped(render_rgba(ground).convert("RGBA"), raster.STEP)
    rows = [flat.crop((0, y, 120, y + 1)).tobytes() for y in range(90)]
    assert all(rows[y] == rows[y - y % raster.STEP] for y in range(90))
    assert len(set(rows)) > 10  # the side does climb
    whole_png = Image.open(io.BytesIO(svg_to_png(document))).convert("RGB")  # the command line's
    assert whole_png.tobytes() == kept.convert("RGB").tobytes()
    drawn = Image.new("RGBA", whole.size)
    drawn.alpha_composite(render_rgba(marks, clear=True).convert("RGBA"))
    for y in range(90):
        for x in range(120):
            if drawn.getpixel((x, y))[3] == 255:  # wholly covered by a mark
                assert kept.getpixel((x, y)) == whole.getpixel((x, y))


def test_drawing_a_lands_flat_shapes_first_changes_no_pixel() -> None:
    """The flat shapes are taken out of the board's or a battleland's document and drawn
    before its numbers, names, words and signs: at one row a step, the land rendered
    whole (nothing flat lies over something drawn before it)."""
    from moderator.pictures.battleland import battleland_layers
    from moderator.pictures.masterboard import masterboard_layers
    from moderator.rules.variant import STANDARD, load_variant

    from .positions import board_view

    variant = load_variant(STANDARD)
    bottoms = [masterboard_layers(board_view(None))[0]]
    bottoms += [battleland_layers(variant, terrain)[0] for terrain in sorted(variant.battlelands)]
    step, raster.STEP = raster.STEP, 1
    try:
        for bottom in bottoms:
            raster._bottom.cache_clear()
            assert raster._ground(bottom)[0] is not None
            assert raster._bottom(bottom).tobytes() == render_rgba(bottom).convert("RGBA").tobytes(), bottom[:300]
    finally:
        raster.STEP = step
        raster._bottom.cache_clear()


def test_a_battlelands_hexsides_stay_whole_lines_drawn_in_steps() -> None:
    """A battleland's lines between hexes are flat shapes drawn in steps of rows: each
    flat hexside is a line exactly a step thick wherever it lies (a thinner one could
    vanish between the rows a step copies), and a slanted one has no gap from one row
    to the next, so every hex stays closed."""
    from moderator.pictures import battleland
    from moderator.pictures.hexes import centre, corners
    from moderator.rules.variant import LABELS, STANDARD, load_variant

    assert battleland.HEX_LINE == raster.STEP
    bottom = battleland.battleland_layers(load_variant(STANDARD), "Plains")[0]
    assert raster._ground(bottom)[0] is not None
    kept = raster._bottom(bottom).convert("RGB")
    line = tuple(int(battleland.HEX_LINE_COLOUR[i : i + 2], 16) for i in (1, 3, 5))
    for label in LABELS:
        x, y = centre(label)
        column = [kept.getpixel((round(x), row)) == line for row in range(kept.height)]
        top = round(y - 3**0.5 / 2 * battleland.RADIUS)
        near = column[top - 6 : top + 6]
        assert sum(near) == raster.STEP and "1" * raster.STEP in "".join(map(str, map(int, near))), label
        (x1, y1), (x2, y2) = corners(label)[0], corners(label)[1]  # the lower right side
        previous: list[int] | None = None
        for row in range(round(y1) + 2, round(y2) - 2):
            xs = [c for c in range(round(min(x1, x2)) - 4, round(max(x1, x2)) + 5) if kept.getpixel((c, row)) == line]
            assert xs, (label, row)
            if previous is not None:
                assert min(xs) <= max(previous) + 1 and min(previous) <= max(xs) + 1, (label, row)
            previous = xs
