"""
Each distinct picture drawn once: a bounded cache of finished PNGs keyed by the SHA-256
of what the picture shows (its JSON spec or its SVG text).

A picture is a function of its content, so the board that several players' reports
show alike, and a mail sent again (a retry, a resend), need not pay resvg and the
quantiser twice.  The cache is bounded both by a count and by bytes and forgets the
least recently used first, so a service that runs for weeks keeps a flat memory
whatever it draws.  It lives in the picture worker (``runtime.picture_worker``), the
one process that draws.  Pure: a dictionary, no I/O.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable

#: Pictures kept: a round of reports of a six-player game has 6 boards and a battle.
COUNT = 64
#: Bytes of PNG kept: a board is ~55 KB, so the count binds first in ordinary play.
BYTES = 8 * 1024 * 1024


def digest(content: str) -> str:
    """The key of a picture: the SHA-256 of its content, as hex."""
    return hashlib.sha256(content.encode("utf-8")).hexdigest()


class PngCache:
    """Finished PNGs by the digest of their content, least recently used forgotten first."""

    def __init__(self, count: int = COUNT, max_bytes: int = BYTES) -> None:
        if count < 1 or max_bytes < 1:
            raise ValueError("a picture cache must hold at least one picture")
        self.count = count
        self.max_bytes = max_bytes
        self._kept: OrderedDict[str, bytes] = OrderedDict()
        self._bytes = 0
        self.hits = 0
        self.misses = 0

    def get_or_draw(self, content: str, draw: Callable[[str], bytes]) -> bytes:
        """The PNG of ``content``, drawn by ``draw`` only if it is not kept."""
        key = digest(content)
        png = self._kept.get(key)
        if png is not None:
            self._kept.move_to_end(key)
            self.hits += 1
            return png
        self.misses += 1
        png = draw(content)
        self._keep(key, png)
        return png

    @property
    def size(self) -> int:
        """The bytes of PNG kept now."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._kept)

    def _keep(self, key: str, png: bytes) -> None:
        if len(png) > self.max_bytes:
            return  # larger than the whole cache: drawn, sent, not kept
        self._kept[key] = png
        self._bytes += len(png)
        while len(self._kept) > self.count or self._bytes > self.max_bytes:
            _, old = self._kept.popitem(last=False)
            self._bytes -= len(old)
