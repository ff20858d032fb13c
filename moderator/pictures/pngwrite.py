"""
Palette PNGs, written here rather than by Pillow (whose only compressor is zlib).

``png_bytes`` compresses a picture's rows with libdeflate at ``LEVEL``: the same bytes as
zlib's level 8 made a little smaller in half the processor time.

``KeptLand`` does better for a report's picture, most of whose rows are its land's (the
masterboard's lands, numbers, names, signs and keys; a battleland's hexes): those rows
are the same in every report of the game, so they are compressed once, as hard as
libdeflate can (level 12, which searches for the cheapest way to spell them, ~15%
smaller), and kept.  The PNG's one deflate stream is then spliced: each band of
``BAND`` rows that is the land's own is its kept compressed bytes; the rows between
(the title, markers, outlines, scores) are compressed per report by zlib, which may
refer back to the rows above them (its ``zdict``).  A kept band refers to nothing before
it, so it stays right whatever was drawn above it.

Deflate lets independent pieces follow one another when each but the last ends its
blocks as "not the last" on a whole byte.  zlib does that on request (a sync flush);
libdeflate always ends a stream, so a kept band is libdeflate's one block with that
block's "last" bit cleared, followed by an empty stored block, which brings the bits
to a whole byte.  Each kept band is checked by decompressing it when first made, and
each spliced picture as a whole before it is returned, so a stream that does not read
back to the picture's own rows is never sent: it is then written by ``png_bytes``.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence

import deflate

#: libdeflate's level for a report's rows (``png_bytes``); its levels 10-12 search harder
#: at a price a report cannot pay each time (the board 26.2 KB for +80 ms, 23.8 for +500).
LEVEL = 9
#: libdeflate's level for the kept rows of a land: paid once for the whole game.
KEPT_LEVEL = 12
#: zlib's level for the rows a report draws over its land (where they may refer back).
SPLICED_LEVEL = 8
#: Rows in a kept band: each starts afresh (it may not refer to the rows above it),
#: which costs its first row; shorter bands fit more of the land between the markers.
BAND = 32
Colour = tuple[int, int, int]
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_WINDOW = 32768
#: The empty last block that ends a spliced stream (fixed Huffman codes, end of block).
_LAST = b"\x03\x00"
#: An empty stored block, read after a kept band's end of block: its three header bits
#: come from the padding of that last byte (three or more are left) or from a byte more.
_ALIGN = (b"\x00\x00\xff\xff", b"\x00\x00\x00\xff\xff")


def rows_of(pixels: bytes, width: int) -> bytes:
    """The picture's rows as a PNG's data: each row unfiltered (filter byte 0)."""
    return b"".join(b"\0" + pixels[y : y + width] for y in range(0, len(pixels), width))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _png(width: int, height: int, entries: Sequence[Colour], stream: bytes) -> bytes:
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8 bits, palette, no interlace
    plte = bytes(value for colour in entries for value in colour)
    return b"".join(
        (
            _SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", plte),
            _chunk(b"IDAT", stream),
            _chunk(b"IEND", b""),
        )
    )


def png_bytes(pixels: bytes, width: int, entries: Sequence[Colour]) -> bytes:
    """
    A PNG of ``pixels`` (one byte a pixel, an index into ``entries``, row after row) at 8
    bits a pixel, its rows unfiltered, compressed by libdeflate at ``LEVEL``.
    """
    stream = bytes(deflate.zlib_compress(rows_of(pixels, width), LEVEL))
    return _png(width, len(pixels) // width, entries, stream)


def kept_band(data: bytes) -> bytes | None:
    """
    ``data`` compressed by libdeflate at ``KEPT_LEVEL`` as a piece other pieces may
    follow (see the module's docstring), or None if libdeflate made more than one block
    of it (only the first block's "last" bit can be found without decoding).
    """
    whole = bytearray(deflate.deflate_compress(data, KEPT_LEVEL))
    whole[0] &= 0xFE  # the first block is no longer the last
    for align in _ALIGN:
        piece = bytes(whole) + align
        reader = zlib.decompressobj(-15)
        try:
            out = reader.decompress(piece + _LAST)
        except zlib.error:
            continue
        if out == data and reader.eof and not reader.unused_data:
            return piece
    return None


class KeptLand:
    """The land under a report's picture: its pixels (indices into ``entries``, which
    every picture drawn on it lists first) and its bands compressed once."""

    def __init__(self, pixels: bytes, width: int, entries: Sequence[Colour]) -> None:
        self.pixels = pixels
        self.width = width
        self.entries = tuple(entries)
        self._bands: dict[int, bytes | None] = {}

    def band(self, start: int, data: bytes) -> bytes | None:
        """The kept piece of the band whose first row is ``start``, made the first time."""
        if start not in self._bands:
            self._bands[start] = kept_band(data)
        return self._bands[start]

    def png(self, pixels: bytes, entries: Sequence[Colour]) -> bytes:
        """
        The PNG of ``pixels``, a picture drawn over this land whose palette starts with
        the land's ``entries``: the land's own bands from the kept pieces, the rest
        compressed now.  Checked whole; ``png_bytes`` if it does not read back.
        """
        width = self.width
        height = len(pixels) // width
        data = rows_of(pixels, width)
        line = width + 1
        pieces: list[bytes] = []
        pending = 0  # where the rows not yet written start, in bytes of ``data``
        for top in range(0, height, BAND):
            bottom = min(height, top + BAND)
            area = slice(top * width, bottom * width)
            same = len(pixels) == len(self.pixels) and pixels[area] == self.pixels[area]
            kept = self.band(top, data[top * line : bottom * line]) if same else None
            if kept is None:
                continue
            if pending < top * line:
                pieces.append(_spliced(data, pending, top * line))
            pieces.append(kept)
            pending = bottom * line
        if pending < len(data):
            pieces.append(_spliced(data, pending, len(data)))
        stream = b"\x78\xda" + b"".join(pieces) + _LAST + struct.pack(">I", zlib.adler32(data))
        if zlib.decompress(stream) != data:  # never sent: written the plain way instead
            return png_bytes(pixels, width, entries)
        return _png(width, height, entries, stream)


def _spliced(data: bytes, start: int, end: int) -> bytes:
    """``data[start:end]`` compressed by zlib as a piece that may refer back to the
    rows before it, ending on a whole byte."""
    before = data[max(0, start - _WINDOW) : start]
    compressor = (
        zlib.compressobj(SPLICED_LEVEL, zlib.DEFLATED, -15, zdict=before)
        if before
        else zlib.compressobj(SPLICED_LEVEL, zlib.DEFLATED, -15)
    )
    return compressor.compress(data[start:end]) + compressor.flush(zlib.Z_SYNC_FLUSH)
