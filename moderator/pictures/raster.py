"""
SVG to a small palette PNG: the one impure step of the pictures (a native library call).

resvg (through ``resvg_py``) renders the SVG: it is a complete, self-contained renderer
shipped as a binary wheel, so nothing needs a system library such as Cairo.  It is told
to skip the system's fonts and use only the DejaVu Sans files shipped in ``fonts/``:
the pictures name that family, and a machine without it would otherwise render every
label as nothing, silently.  Pillow then quantises the RGBA result to a palette of at
most ``colours`` entries; the pictures use a few flat colours, so nothing visible is
lost.  32 colours, measured on the six-player masterboard at 800 px (load 15, so the
times are relative): 96 colours 72.8 KB, 48 58.6 KB, 32 55.1 KB and the quickest, 24
54.4 KB, 16 58.6 KB (the edges' shades then cost more than they save).  ``optimize``
or zlib level 9 take 4-5 times as long for 7% less, and a board names its viewer, so
each report's board is still drawn for him: the fast octree quantiser and zlib's default
level are kept.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Sequence
from importlib.resources import as_file, files

import resvg_py
from PIL import Image

from moderator.pictures.svg import FONT, PAPER

FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
DEFAULT_COLOURS = 32


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
    )
    image = Image.open(io.BytesIO(bytes(png)))
    image.load()
    return image


def svg_to_png(svg_text: str, width: int | None = None, colours: int = DEFAULT_COLOURS) -> bytes:
    """The SVG as a palette PNG of at most ``colours`` colours."""
    return _palette_png(render_rgba(svg_text, width), colours)


def layers_to_png(layers: Sequence[str], colours: int = DEFAULT_COLOURS) -> bytes:
    """
    SVG documents of one size drawn one over the other, as a palette PNG.  The first is
    rendered once and kept (``_bottom``): the masterboard's lands are most of its
    pixels and the same in every report, so a report pays only for its markers.
    """
    canvas = _bottom(layers[0]).copy()
    for layer in layers[1:]:
        canvas.alpha_composite(render_rgba(layer, canvas.width, clear=True))
    return _palette_png(canvas, colours)


@functools.lru_cache(maxsize=8)
def _bottom(svg_text: str) -> Image.Image:
    return render_rgba(svg_text).convert("RGBA")


def _palette_png(image: Image.Image, colours: int = DEFAULT_COLOURS) -> bytes:
    rgb = image.convert("RGB")
    paletted = rgb.quantize(
        colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    out = io.BytesIO()
    paletted.save(out, format="PNG")
    return out.getvalue()
