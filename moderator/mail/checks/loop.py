"""
Our own loop marks: the moderator's loop header, or an ``X-Loop`` naming us.

Every mail the moderator sends carries its loop header (``X-Titan-Moderator``); a
mail that still carries it has been through us once already.  ``X-Loop`` headers
written by others (the Debian BTS writes ``X-Loop: owner@bugs.debian.org``) do not
count unless they name one of our addresses.
"""

from __future__ import annotations

import re
from email.message import Message

from moderator.mail.checks.base import (
    MISS,
    Context,
    Verdict,
    has_header,
    normalize_address,
    raw_values,
)

NAME = "loop"
DESCRIPTION = "our own loop header, or X-Loop naming one of our addresses"

#: What ends an address; a word of the value is an address when it holds an ``@`` inside.
#: (Not ``findall`` of ``[^…]+@[^…]+``: that retries every start of a long word, quadratic.)
_BETWEEN = re.compile(r"[\s<>,;:\"()\[\]]+")


def check(msg: Message, ctx: Context) -> Verdict:
    """Hit on ``ctx.loop_header`` or on an ``X-Loop`` value holding one of our addresses."""
    if ctx.loop_header and has_header(msg, ctx.loop_header):
        return Verdict(True, f"{ctx.loop_header} header: the mail has been through us")
    for value in raw_values(msg, "X-Loop"):
        named = {normalize_address(word) for word in _BETWEEN.split(value) if "@" in word[1:-1]}
        if named & ctx.own_addresses:
            return Verdict(True, f"X-Loop: {value!r} names us")
    return MISS
