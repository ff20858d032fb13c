"""
Palette PNGs, written here rather than by Pillow (whose only compressor is zlib).

``png_bytes`` compresses a picture's rows with libdeflate at ``LEVEL``: the same bytes as
zlib's level 8 made a little smaller in half the processor time.

``KeptLand`` does better for a report's picture, most of whose rows are its land's (the
masterboard's lands, numbers, names, signs and keys; a battleland's hexes): those rows
are the same in every report of the game, so they are compressed once, hard (libdeflate's
level 11, which searches for a cheap way to spell them, ~15% smaller), and kept.  The
PNG's one deflate stream is then spliced: each run of rows that is the land's own
(``KeptLand.runs``: between the markers, marks, title and scores a report draws) is
its kept compressed bytes; each run between is compressed per report (``_drawn``).  A
piece refers to nothing before it, so it stays right whatever was drawn above it.

The runs were bands of 32 rows at fixed places: a band a marker touched anywhere was
compressed with the report, and about half of a board's bands were.  Cut where each
report's own drawing begins and ends (to whole pairs of rows), the six-player board
23.8 -> 23.1 KB, two players 22.2 -> 21.6, three 22.8 -> 22.0, the Tower battle 14.2 ->
14.1.  A new run is compressed when first seen (a few dozen in a game: a changed land or a
marker lies in the same rows as another's), which the first reports of a game pay:
over 40 reports outlining 1-6 lands at random, 51 -> 61 ms of processor time a report
on average (the machine loaded), 47 -> 44 once the runs are known.  Level 12 made the
board 0.6% smaller (a bare battleland 17%) for twice the time: 81 ms a report.

Deflate lets independent pieces follow one another when each but the last ends its
blocks as "not the last" on a whole byte.  zlib does that on request (a sync flush);
libdeflate always ends a stream, so a kept piece is libdeflate's one block with that
block's "last" bit cleared, followed by an empty stored block, which brings the bits
to a whole byte (a run libdeflate makes more blocks of is kept as its two halves).
Each kept piece is checked by decompressing it when first made, and
each spliced picture as a whole before it is returned, so a stream that does not read
back to the picture's own rows is never sent: it is then written by ``png_bytes``.
"""

from __future__ import annotations

import struct
import zlib
from collections import OrderedDict
from collections.abc import Sequence

import deflate

#: libdeflate's level for a report's rows (``png_bytes``); its levels 10-12 search harder
#: at a price a report cannot pay each time (the board 26.2 KB for +80 ms, 23.8 for +500).
LEVEL = 9
#: libdeflate's level for the kept rows of a land: paid once for each run of them.
KEPT_LEVEL = 11
#: libdeflate's level for the rows a report draws over its land (``_drawn``): each run
#: of them afresh, as small as zlib's level 8 made them referring back to the rows
#: above, in half the time (the six-player board 28-29 -> 19-20 ms of processor time,
#: 23.2 -> 23.3 KB); level 10 was 0.3 KB smaller for twice the time.
DRAWN_LEVEL = 9
#: zlib's level for those rows where libdeflate made more than one block of them.
SPLICED_LEVEL = 8
#: A kept run of rows starts and ends on a multiple of this many rows: a report's runs
#: then repeat from one report to the next, and each is compressed once.
GRID = 2
#: A kept run starts afresh (it may not refer to the rows above it), which costs about
#: its first row: a shorter one is left to the rows compressed with the picture.
SHORTEST = 20
#: Kept pieces of a land (a few dozen in a game: a run ends where markers, a mark
#: or the title begin, and these lie in the same rows from one report to the next).
KEPT_PIECES = 512
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


def kept_band(data: bytes, level: int = KEPT_LEVEL) -> bytes | None:
    """
    ``data`` compressed by libdeflate at ``level`` as a piece other pieces may follow
    (see the module's docstring), or None if libdeflate made more than one block of it
    (only the first block's "last" bit can be found without decoding).
    """
    whole = bytearray(deflate.deflate_compress(data, level))
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
    every picture drawn on it lists first) and the pieces of its rows compressed so far."""

    def __init__(self, pixels: bytes, width: int, entries: Sequence[Colour]) -> None:
        self.pixels = pixels
        self.width = width
        self.entries = tuple(entries)
        self._pieces: OrderedDict[tuple[int, int], list[bytes] | None] = OrderedDict()

    def piece(self, top: int, bottom: int) -> list[bytes] | None:
        """
        The kept pieces of the land's rows ``top`` to ``bottom``, made the first time
        they are asked for: one, or (libdeflate having made more than one block of
        them) the two halves' pieces; None if a band of a row cannot be kept.
        """
        key = (top, bottom)
        if key in self._pieces:
            self._pieces.move_to_end(key)
            return self._pieces[key]
        width = self.width
        data = rows_of(self.pixels[top * width : bottom * width], width)
        whole = kept_band(data)
        pieces: list[bytes] | None = [whole] if whole is not None else None
        if pieces is None and bottom - top > 1:
            middle = (top + bottom) // 2
            upper, lower = self.piece(top, middle), self.piece(middle, bottom)
            pieces = upper + lower if upper is not None and lower is not None else None
        self._pieces[key] = pieces
        while len(self._pieces) > KEPT_PIECES:
            self._pieces.popitem(last=False)
        return pieces

    def png(self, pixels: bytes, entries: Sequence[Colour]) -> bytes:
        """
        The PNG of ``pixels``, a picture drawn over this land whose palette starts with
        the land's ``entries``: each run of rows left as the land's own (``runs``) from
        its kept pieces, the rest compressed now.  Checked whole; ``png_bytes`` if it
        does not read back.
        """
        width = self.width
        data = rows_of(pixels, width)
        line = width + 1
        pieces: list[bytes] = []
        pending = 0  # where the rows not yet written start, in bytes of ``data``
        for top, bottom in self.runs(pixels):
            kept = self.piece(top, bottom)
            if kept is None:
                continue
            if pending < top * line:
                pieces += _drawn(data, pending, top * line)
            pieces += kept
            pending = bottom * line
        if pending < len(data):
            pieces += _drawn(data, pending, len(data))
        stream = b"\x78\xda" + b"".join(pieces) + _LAST + struct.pack(">I", zlib.adler32(data))
        if zlib.decompress(stream) != data:  # never sent: written the plain way instead
            return png_bytes(pixels, width, entries)
        return _png(width, len(pixels) // width, entries, stream)

    def runs(self, pixels: bytes) -> list[tuple[int, int]]:
        """
        The runs of rows (first, after the last) of ``pixels`` that are the land's own
        (none below the land, in a picture taller than it: a battle's lines below),
        each cut inward to whole ``GRID`` rows (so that the runs of one game's reports
        are few, and each is compressed once) and at least ``SHORTEST`` rows long.
        """
        width = self.width
        height = len(pixels) // width
        if len(pixels) < len(self.pixels):
            return []
        land = len(self.pixels) // width  # rows below it (a taller picture's) are drawn
        own = [y < land and pixels[y * width : (y + 1) * width] == self.pixels[y * width : (y + 1) * width] for y in range(height)]
        out: list[tuple[int, int]] = []
        y = 0
        while y < height:
            if not own[y]:
                y += 1
                continue
            end = y
            while end < height and own[end]:
                end += 1
            top = -(-y // GRID) * GRID
            bottom = end if end == height else end // GRID * GRID
            if bottom - top >= SHORTEST:
                out.append((top, bottom))
            y = end
        return out


def _drawn(data: bytes, start: int, end: int) -> list[bytes]:
    """``data[start:end]``, rows a report drew over its land, compressed now: by
    libdeflate afresh, or by zlib (``_spliced``) if libdeflate made several blocks."""
    piece = kept_band(data[start:end], DRAWN_LEVEL)
    if piece is not None:
        return [piece]
    return [_spliced(data, start, end)]


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
