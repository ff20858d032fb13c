"""
Mail from the moderator itself: never answer our own reports.

A report that comes back (a player's server forwarding it, an alias pointing at us)
would otherwise be read as orders and answered, and the answer would come back too.
``+detail`` parts of addresses are ignored, so ``titan+g7@…`` is ``titan@…``.
"""

from __future__ import annotations

from email.message import Message

from moderator.mail.checks.base import MISS, Context, Verdict, addresses, normalize_address

NAME = "own-address"
DESCRIPTION = "sent from one of the moderator's own addresses"


def check(msg: Message, ctx: Context) -> Verdict:
    """Hit when From, Sender or Return-Path is one of ``ctx.own_addresses``."""
    for name in ("From", "Sender", "Return-Path"):
        for address in addresses(msg, name):
            if normalize_address(address) in ctx.own_addresses:
                return Verdict(True, f"{name} is our own address {address!r}")
    return MISS
