"""
What a robot reads in the moderator's answer to its mail: which lines were refused,
and with which code.  A player reads the same lines (``templates/player.reply-private``:
each line of his mail after ``>``, then ``done.`` or ``refused (CODE): why``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_REFUSED = re.compile(
    r"^[ \t]*> (?P<line>[^\n]*)\n[ \t]*refused \((?P<code>[^)\n]*)\)", re.MULTILINE
)


def refusals(texts: Iterable[str | None]) -> list[tuple[str, str]]:
    """The (line, code) of every refused line the ``texts`` of an answer list, in order."""
    found: list[tuple[str, str]] = []
    for text in texts:
        if text:
            found.extend((m["line"].strip(), m["code"]) for m in _REFUSED.finditer(text))
    return found
