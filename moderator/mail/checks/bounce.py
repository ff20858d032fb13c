"""
Bounces: mail from the mailer daemon, or sent with the null envelope sender.

RFC 5321 4.5.5 keeps the null reverse-path ``<>`` for notifications, so a
``Return-Path: <>`` is never a person.  ``X-Failed-Recipients`` (Exim, Gmail) and
``X-MS-Exchange-Message-Is-Ndr`` (Exchange) are written on bounces only.  Mail from
``postmaster`` is not a bounce by itself: postmaster is a mailbox people read and write
from, so it is the weak ``role-sender`` sign.
"""

from __future__ import annotations

import re
from email.message import Message

from moderator.mail.checks.base import (
    MISS,
    Context,
    Verdict,
    addresses,
    has_header,
    local_part,
    raw_values,
)

NAME = "bounce"
DESCRIPTION = "bounce: mailer daemon, null sender or a bounce header"

_DAEMONS = frozenset({"mailer-daemon", "mailer_daemon", "mailerdaemon", "mail-daemon"})
_NULL = re.compile(r"\s*<\s*>\s*")


def check(msg: Message, ctx: Context) -> Verdict:
    """Hit on a mailer-daemon From, a null Return-Path or a bounce-only header."""
    for address in addresses(msg, "From"):
        if local_part(address) in _DAEMONS:
            return Verdict(True, f"From the mailer daemon: {address!r}")
    for value in raw_values(msg, "From", 1):
        if value.strip().lower().startswith("mailer-daemon"):
            return Verdict(True, f"From the mailer daemon: {value!r}")
    if any(_NULL.fullmatch(value) for value in raw_values(msg, "Return-Path")):
        return Verdict(True, "null envelope sender (Return-Path: <>)")
    for name in ("X-Failed-Recipients", "X-MS-Exchange-Message-Is-Ndr"):
        if has_header(msg, name):
            return Verdict(True, f"{name} header")
    return MISS
