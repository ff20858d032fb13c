"""
RFC 3834: a mail with ``Auto-Submitted`` other than ``no`` was sent by a program.

Vacation notices say ``auto-replied``, robots ``auto-generated``, and many bounces
carry it too.  Nothing automatic is ever answered, so no two robots talk forever.
"""

from __future__ import annotations

import re
from email.message import Message

from moderator.mail.checks.base import MISS, Context, Verdict, raw_values

NAME = "auto-submitted"
DESCRIPTION = "Auto-Submitted other than 'no' (RFC 3834)"


def check(msg: Message, ctx: Context) -> Verdict:
    """Hit when any ``Auto-Submitted`` header says something other than ``no``."""
    for value in raw_values(msg, "Auto-Submitted"):
        keyword = re.sub(r"\([^()]*\)", " ", value).split(";", 1)[0].strip().lower()
        if keyword != "no":
            return Verdict(True, f"Auto-Submitted: {value!r}")
    return MISS
