"""
SVG to a small palette PNG: the one impure step of the pictures (a native library call).

resvg (through ``resvg_py``) renders the SVG: it is a complete, self-contained renderer
shipped as a binary wheel, so nothing needs a system library such as Cairo.  It is told
to skip the system's fonts and use only the DejaVu Sans files shipped in ``fonts/``:
the pictures name that family, and a machine without it would otherwise render every
label as nothing, silently.

What makes a board's PNG big is not its colours but its edges: every antialiased pixel
between two flat fills is a shade deflate has to spell out.  So the shapes are drawn
with crisp edges (resvg's ``crisp_edges``: a hexagon's side is a clean step of the
fill's own colour), and so is text from the sizes ``svg.crisp`` names (the SVG asks for
it, ``text-rendering="optimizeSpeed"``); the legends' small text keeps its
antialiasing to stay legible.  The palette is then the picture's own: every colour the SVG
names that appears in it, kept exact (an adaptive quantiser merged Hills and Marsh
into one brown at 24 colours), and the commonest other shades (text edges) up to
``colours``; every other pixel goes to its nearest entry, without dithering, and
``pngwrite`` writes the PNG.  Measured on the six-player masterboard at 800 px (benchmarks/bench_pictures.py): 55.1 KB before (antialiased shapes, 32 adaptive
colours, zlib's default level), 43 KB after; the Tower battle 32.1 KB, 25 KB.  With
hard-edged text, short land names and one-pixel outlines (issue 28): 29.5 KB and 17 KB;
without the lands' outlines (their colours part them): 27.1 KB.
Neither 16 colours (Pillow then packs 4 bits a pixel, which deflate matches worse: 35 KB
against 32 at 24 colours, measured with hard-edged text) nor a PNG row filter other
than none (Sub, Up, or the per-row heuristics: 5-20% bigger) made the board smaller,
nor zlib's other strategies (filtered, RLE).  What is left is mostly edges (the lands'
slanted sides, the signs, the numbers), and only a better deflate shrinks it further, at
a price a report cannot pay: oxipng's libdeflate re-compression of the 27.1 KB board,
in processor time on the loaded machine, gives 25.9 KB for 130 ms, 23.6 for 285 ms,
23.2 for 516 ms, against ~55 ms for drawing the whole report's picture.

libdeflate, not zlib (``pngwrite``): zlib's level 8 was most of a report picture's
processor time, and libdeflate's level 9 makes the same PNGs a little smaller in about
half of it; the rows of a report's picture that are its land's own are compressed
once, at libdeflate's hardest, and kept (``_land``, ``pngwrite.KeptLand``).  Side by
side on the loaded machine (processor-time medians of a report, tiles kept): the
six-player board 27.1 KB in 61-72 ms (zlib) -> 25.7 KB in 33-43 ms; two players 25.9 ->
24.2 KB, three 26.3 -> 24.8, the Tower battle 16.2 -> 15.1 KB (11-pixel hard-edged words
too).  A land's first report pays once for its kept rows: the board's ~0.3 s -> ~0.5 s,
a battle's ~0.22 -> ~0.29 (a fresh process, fonts loaded).  Only the boxes the tiles lie
in are counted and quantised (``_on_land``): the rest is the land's, in its palette.

Where the six-player board's bytes are (each kind of element added in turn, zlib):
the lands' fills 9.6 KB (their slanted sides: every row where one moves breaks the
copy of the row above), the signs 5.2 (triple arrows 2.9 of it), the numbers 4.6, the
short names 2.6, the legends and players 3.3, markers 1.1, the title 0.7.  Tried for
issue 28 and not kept: the lands drawn at a half or a third of the rows and doubled
(stepped sides, -0.6 / -2.1 KB), lands as whole triangles (+0.3), signs on whole
pixels (0), numbers at 11 pixels (-0.3), a triple arrow as one sawtooth (-0.1), fixed bands
of 16, 24 or 48 rows for the kept land (no better than 32: see ``pngwrite`` for the runs
that replaced them), zlib's level 7 for the rows
drawn over it (+0.8 KB, 10 ms less).

The kept land's flat shapes (a board's lands; a battleland's hexes and the lines
between them, ``battleland.HEX_LINE``) are drawn in steps of three rows (``_bottom``):
two rows in three are then copies of the row above, which deflate spells in a few
bits.  The six-player report board 25.7 -> 23.8 KB, two players 24.2 -> 22.2, three
24.8 -> 22.8 (the land alone at libdeflate's hardest 20.5 -> 18.6; two-row steps saved
a third of that, four-row steps showed); the Tower battle 15.1 -> 14.2.

A report's picture is drawn in tiles (``layers_to_png``): the land, the same for every
report of a game, is rendered once and kept; each thing on it (a marker, the title, a
player's score) is a small document of its own (``svg.tile``), rendered alone and laid
where it belongs, and the small ones are kept (``TILES``).  resvg's cost is mostly per
pixel of canvas and per text element, so a report pays for its new title and what
moved, not for an 800-pixel canvas: the six-player board in ~55 ms of processor time,
against ~170 ms when its markers were one full-size layer.
"""

from __future__ import annotations

import functools
import io
import re
from collections import Counter, OrderedDict
from collections.abc import Sequence
from importlib.resources import as_file, files
from typing import Final, cast

import resvg_py
from PIL import Image, ImageColor

from moderator.pictures.pngwrite import KeptLand, png_bytes
from moderator.pictures.svg import FONT, PAPER, land_of

FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
DEFAULT_COLOURS = 24
#: How resvg draws shapes (text keeps its antialiasing: see the module's docstring).
SHAPES: Final = "crisp_edges"
_NAMED = re.compile(r"#[0-9a-fA-F]{6}\b")


@functools.cache
def font_paths() -> tuple[str, ...]:
    """
    The shipped font files as paths resvg can open.  Installed from a wheel or run from a
    checkout, the package is a folder and ``as_file`` hands back the file itself; from a
    zip it would hand a temporary copy that is gone on leaving, hence the check.
    """
    paths = []
    for name in FONT_FILES:
        with as_file(files("moderator.pictures") / "fonts" / name) as path:
            pass
        if not path.is_file():  # checked after leaving: a temporary copy is gone by now
            raise FileNotFoundError(f"the picture font {name} is missing from {path.parent}")
        paths.append(str(path))
    return tuple(paths)


def render_rgba(
    svg_text: str, width: int | None = None, *, clear: bool = False
) -> Image.Image:
    """
    The SVG rendered at ``width`` pixels (its own width if None), as an RGBA image, on
    the paper colour or, ``clear``, on a transparent canvas.
    """
    png = resvg_py.svg_to_bytes(
        svg_string=svg_text,
        width=width,
        background=None if clear else PAPER,
        skip_system_fonts=True,
        font_files=list(font_paths()),
        font_family=FONT,
        sans_serif_family=FONT,
        shape_rendering=SHAPES,
    )
    image = Image.open(io.BytesIO(bytes(png)))
    image.load()
    return image


def svg_to_png(svg_text: str, width: int | None = None, colours: int = DEFAULT_COLOURS) -> bytes:
    """The SVG as a palette PNG of at most ``colours`` colours; at its own width, its
    flat shapes in steps of rows as a report's land is (``_stepped``)."""
    image = _stepped(svg_text) if width is None else render_rgba(svg_text, width)
    return _palette_png(image, named_colours([svg_text]), colours)


def layers_to_png(layers: Sequence[str], colours: int = DEFAULT_COLOURS) -> bytes:
    """
    SVG documents drawn one over the other, as a palette PNG.  The first is the whole
    canvas, rendered once and kept (``_bottom``): the masterboard's lands are most of its
    pixels and the same in every report.  Each other one is laid at the origin of its
    ``viewBox`` (``svg.tile``: a marker, a title line), so a report pays for the few
    pixels it changes; a small one seen lately (a marker that did not move) is not
    rendered again (``TILES``), and the new ones are rendered together (``render_tiles``).
    """
    land, height = land_of(layers[0])
    canvas = _on_paper(_bottom(land), height)
    tiles = layers[1:]
    kept = [TILES.get(t) if _small(t) else None for t in tiles]
    missing = [i for i, image in enumerate(kept) if image is None]
    drawn = dict(zip(missing, render_tiles([tiles[i] for i in missing]), strict=True))
    for i, new in drawn.items():
        if _small(tiles[i]):
            TILES.keep(tiles[i], new)
    boxes: list[tuple[int, int, int, int]] = []
    for i, layer in enumerate(tiles):
        image = drawn[i] if i in drawn else kept[i]
        assert image is not None
        x, y, _, _ = _view_box(layer)
        canvas.alpha_composite(image, dest=(x, y))
        box = (x, y, min(canvas.width, x + image.width), min(canvas.height, y + image.height))
        if box[0] < box[2] and box[1] < box[3]:
            boxes.append(box)
    return _on_land(canvas, boxes, _land(land, colours), named_colours(layers), colours)


def bottom_canvas(bottom: str) -> Image.Image:
    """A picture's bottom layer as a canvas of the picture's size to draw on: its land
    (rendered once, ``_bottom``) and paper under it (``svg.land_of``)."""
    land, height = land_of(bottom)
    return _on_paper(_bottom(land), height)


def _on_paper(image: Image.Image, height: int | None) -> Image.Image:
    """A copy of the rendered land ``image``, on paper down to ``height`` if it is taller."""
    if height is None or height <= image.height:
        return image.copy()
    canvas = Image.new("RGBA", (image.width, height), ImageColor.getrgb(PAPER))
    canvas.paste(image, (0, 0))
    return canvas


#: A tile of at most this many pixels (a marker, a counter, a line of text, an entry
#: side) is kept once drawn; a bigger one is rendered each time.
SMALL_TILE = 100_000
_VIEW_BOX = re.compile(r'viewBox="(-?\d+) (-?\d+) (\d+) (\d+)"')
_TILE_HEAD = re.compile(r'<svg xmlns="http://www.w3.org/2000/svg" width="(\d+)" height="(\d+)" '
                        r'viewBox="(-?\d+) (-?\d+) \1 \2">\n')


def _small(tile: str) -> bool:
    _, _, w, h = _view_box(tile)
    return w * h <= SMALL_TILE


def render_tiles(tiles: Sequence[str]) -> list[Image.Image]:
    """
    Tiles (``svg.tile`` documents) as RGBA images, each the pixels it has rendered
    alone, rendered together in one call.  resvg loads the font files afresh for every
    document with text in it, ~2.5 ms each: a board's report with a dozen new tiles
    paid more for its fonts than for its pixels.  So the tiles are laid side by side
    in rows on one transparent canvas, each in a nested viewport at whole pixels (which
    clips it as its own canvas would), and cut out again (``_sheet``).  A document that
    is not a tile is rendered alone.
    """
    heads = [_TILE_HEAD.match(tile) for tile in tiles]
    together = [(i, head) for i, head in enumerate(heads) if head is not None]
    images: dict[int, Image.Image] = {}
    if len(together) > 1:
        images = dict(zip([i for i, _ in together], _sheet(tiles, together), strict=True))
    return [
        images[i] if i in images else render_rgba(tile, clear=True).convert("RGBA")
        for i, tile in enumerate(tiles)
    ]


def _sheet(tiles: Sequence[str], heads: Sequence[tuple[int, re.Match[str]]]) -> list[Image.Image]:
    """The tiles of ``heads`` (index, its head) rendered on one canvas, cut out in turn."""
    sizes = [(int(head.group(1)), int(head.group(2))) for _, head in heads]
    width = max(w for w, _ in sizes)
    places: dict[int, tuple[int, int]] = {}
    x = y = row = 0
    for k in sorted(range(len(heads)), key=lambda k: -sizes[k][1]):  # rows of like heights
        w, h = sizes[k]
        if x + w > width:
            x, y, row = 0, y + row, 0
        places[k] = (x, y)
        x, row = x + w, max(row, h)
    height = y + row
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">')
    parts = [head]
    for k, (i, found) in enumerate(heads):
        (left, top), (w, h) = places[k], sizes[k]
        body = tiles[i][found.end() :].removesuffix("</svg>\n")
        parts.append(
            f'<svg x="{left}" y="{top}" width="{w}" height="{h}" '
            f'viewBox="{found.group(3)} {found.group(4)} {w} {h}">\n{body}</svg>'
        )
    sheet = render_rgba("\n".join(parts) + "\n</svg>\n", clear=True).convert("RGBA")
    return [
        sheet.crop((places[k][0], places[k][1], places[k][0] + w, places[k][1] + h))
        for k, (w, h) in enumerate(sizes)
    ]


class TileCache:
    """Small rendered tiles by their SVG text, least recently used forgotten first,
    bounded in bytes: a board's markers are ~3 KB each, a line of text ~60 KB, and the
    picture worker's memory stays flat."""

    def __init__(self, max_bytes: int = 6 * 1024 * 1024) -> None:
        self.max_bytes = max_bytes
        self._kept: OrderedDict[str, Image.Image] = OrderedDict()
        self._bytes = 0
        self.hits = 0
        self.misses = 0

    def get(self, svg_text: str) -> Image.Image | None:
        image = self._kept.get(svg_text)
        if image is None:
            self.misses += 1
            return None
        self._kept.move_to_end(svg_text)
        self.hits += 1
        return image

    def keep(self, svg_text: str, image: Image.Image) -> None:
        self._kept[svg_text] = image
        self._bytes += _size(image)
        while self._bytes > self.max_bytes:
            _, old = self._kept.popitem(last=False)
            self._bytes -= _size(old)

    @property
    def size(self) -> int:
        """The bytes of pixels kept now."""
        return self._bytes


def _size(image: Image.Image) -> int:
    return image.width * image.height * 4


#: The tiles this process rendered lately (in the picture worker, every picture's).
TILES = TileCache()


def _view_box(document: str) -> tuple[int, int, int, int]:
    """The whole-pixel ``viewBox`` of a layer (a tile's place); (0, 0, 0, 0) if it has none."""
    found = _VIEW_BOX.search(document[:400])
    if found is None:
        return 0, 0, 0, 0
    x, y, w, h = (int(v) for v in found.groups())
    return x, y, w, h


#: Rows the bottom layer's flat shapes are drawn in steps of (``_bottom``).
STEP = 3
_FLAT_SHAPE = re.compile(r"<(?:polygon|rect) (?![^>]*\bstroke=)[^>]*/>")


@functools.lru_cache(maxsize=8)
def _bottom(svg_text: str) -> Image.Image:
    """The bottom layer (a board's lands, a battleland), rendered once (``_stepped``)."""
    return _stepped(svg_text)


def _stepped(svg_text: str) -> Image.Image:
    """
    A land (a board's lands, a battleland) as RGBA: its flat shapes
    (``_ground``) in steps of ``STEP`` rows, everything else over them as it is drawn.
    A land's slanted side moves a little on every row, and every row where one moves
    breaks deflate's copy of the row above; drawn in steps of three rows, two rows in
    three are copies (the six-player board's lands 20.5 -> 18.6 KB at libdeflate's
    hardest, issue 28).  A side then climbs in steps of three rows and under two
    pixels, which at 800 pixels reads as the straight side it is (four rows showed).
    The numbers, names and signs over the lands keep every row: they are what a player
    reads.
    """
    ground, marks = _ground(svg_text)
    if ground is None:
        return render_rgba(svg_text).convert("RGBA")
    canvas = stepped(render_rgba(ground).convert("RGBA"), STEP)
    canvas.alpha_composite(render_rgba(marks, clear=True).convert("RGBA"))
    return canvas


def _ground(svg_text: str) -> tuple[str | None, str]:
    """
    ``svg_text`` as two documents of its size: its flat shapes (the top-level polygons
    and rectangles drawn without a stroke: a board's paper and lands), and the rest;
    (None, ``svg_text``) if it has none but the paper.  The flat shapes of a bottom layer lie side by
    side, none over what is drawn before it (a land's number is inside its own land),
    so drawing them first changes no pixel (``tests/pictures/test_raster.py``).
    """
    head, newline, body = svg_text.partition(">\n<title>")
    lines = body.split("\n")
    flat = {i for i, line in enumerate(lines) if _FLAT_SHAPE.fullmatch(line)}
    if not newline or len(flat) < 2:  # the paper alone (a battleland's hexes are outlined)
        return None, svg_text
    ground = "\n".join([lines[0], *(lines[i] for i in sorted(flat)), "</svg>", ""])
    marks = "\n".join(line for i, line in enumerate(lines) if i not in flat)
    return head + newline + ground, head + newline + marks


def stepped(image: Image.Image, step: int) -> Image.Image:
    """``image`` with each run of ``step`` rows (from the top) a copy of its middle one."""
    if step <= 1:
        return image
    data = image.tobytes()
    size = len(data) // image.height
    rows = (
        data[size * middle : size * (middle + 1)]
        for y in range(image.height)
        for middle in [min(image.height - 1, y - y % step + step // 2)]
    )
    return Image.frombytes(image.mode, image.size, b"".join(rows))


def named_colours(documents: Sequence[str]) -> frozenset[tuple[int, int, int]]:
    """The colours the SVG ``documents`` name (``#rrggbb``), and the paper's."""
    found = {PAPER.lower(), *(c.lower() for text in documents for c in _NAMED.findall(text))}
    return frozenset((int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)) for c in found)


def palette(
    image: Image.Image, named: frozenset[tuple[int, int, int]], colours: int
) -> list[tuple[int, int, int]]:
    """
    At most ``colours`` entries for ``image`` (RGB): the ``named`` colours it shows,
    commonest first, then its commonest other shades.  None of a picture's own flat
    colours is ever merged with another while there is room for them all.
    """
    counts = cast(list[tuple[int, tuple[int, int, int]]], image.getcolors(image.width * image.height) or [])
    ranked = [colour for _, colour in sorted(counts, key=lambda nc: (-nc[0], nc[1]))]
    own = [c for c in ranked if c in named]
    return (own + [c for c in ranked if c not in named])[:colours]


def _quantised(rgb: Image.Image, entries: Sequence[tuple[int, int, int]]) -> bytes:
    """``rgb``'s pixels as indices into ``entries``, each to its nearest, undithered."""
    target = Image.new("P", (1, 1))
    target.putpalette([value for colour in entries for value in colour])
    return rgb.quantize(palette=target, dither=Image.Dither.NONE).tobytes()


def _palette_png(
    image: Image.Image, named: frozenset[tuple[int, int, int]], colours: int = DEFAULT_COLOURS
) -> bytes:
    rgb = image.convert("RGB")
    entries = palette(rgb, named, colours)
    return png_bytes(_quantised(rgb, entries), rgb.width, entries)


@functools.lru_cache(maxsize=8)
def _land(svg_text: str, colours: int) -> KeptLand:
    """The bottom layer's pixels in its own palette, and its compressed bands as they
    are first asked for (``pngwrite.KeptLand``)."""
    rgb = _bottom(svg_text).convert("RGB")
    entries = palette(rgb, named_colours([svg_text]), colours)
    return KeptLand(_quantised(rgb, entries), rgb.width, entries)


def _on_land(
    canvas: Image.Image,
    boxes: Sequence[tuple[int, int, int, int]],
    land: KeptLand,
    named: frozenset[tuple[int, int, int]],
    colours: int,
) -> bytes:
    """
    The land with tiles laid on it in ``boxes`` (left, top, right, bottom), as a PNG.
    Outside the boxes the pixels are the land's own, already in its palette
    (``land.pixels``), so only the boxes are looked at: their colours the land lacks (a
    marker's) follow its entries in the palette, named ones first, then by how many
    pixels show them, up to ``colours`` more; their pixels go to their nearest entry.
    The rows a report left as they were are then the land's bytes, and their kept
    compression serves (``KeptLand.png``).  A whole canvas counted and quantised was
    ~25 ms of a six-player board's report.
    """
    regions = [canvas.crop(box).convert("RGB") for box in boxes]
    counts: Counter[tuple[int, int, int]] = Counter()
    for region in regions:
        shown = region.getcolors(region.width * region.height) or []
        for number, colour in cast(list[tuple[int, tuple[int, int, int]]], shown):
            counts[colour] += number
    ranked = sorted((c for c in counts if c not in land.entries), key=lambda c: (-counts[c], c))
    extra = ([c for c in ranked if c in named] + [c for c in ranked if c not in named])[:colours]
    entries = [*land.entries, *extra]
    pixels = bytearray(land.pixels)
    if len(pixels) < canvas.width * canvas.height:  # paper under the land
        paper = land.entries.index(ImageColor.getrgb(PAPER)[:3])
        pixels += bytes([paper]) * (canvas.width * canvas.height - len(pixels))
    width = canvas.width
    for (left, top, right, _), region in zip(boxes, regions, strict=True):
        indices = _quantised(region, entries)
        span = right - left
        for row in range(region.height):
            start = (top + row) * width + left
            pixels[start : start + span] = indices[row * span : (row + 1) * span]
    return land.png(bytes(pixels), entries)
