"""
``Precedence: bulk`` or ``junk``: mail for many, or mail nobody should answer.

Autoresponders (1&1, qmail's, Mimecast) mark their notices this way; Mailman never
answers such mail either.  ``Precedence: list`` is the ``list-headers`` check's.
"""

from __future__ import annotations

from email.message import Message

from moderator.mail.checks.base import MISS, Context, Verdict, raw_values

NAME = "precedence"
DESCRIPTION = "Precedence: bulk or junk"

_BULK = ("bulk", "junk", "auto_reply", "auto-reply")


def check(msg: Message, ctx: Context) -> Verdict:
    """Hit on ``Precedence: bulk`` or ``junk`` (and the rare ``auto_reply``)."""
    for value in raw_values(msg, "Precedence"):
        if value.split(";", 1)[0].strip().lower() in _BULK:
            return Verdict(True, f"Precedence: {value!r}")
    return MISS
