"""
No address to answer: neither From nor Sender holds an address (a *weak* sign).

Such mail cannot be answered or tied to a player, but deciding who sent a mail is the
caller's job (``game_and_player_hints``), so on its own it only flags the mail.
"""

from __future__ import annotations

from email.message import Message

from moderator.mail.checks.base import MISS, Context, Verdict, addresses, raw_values

NAME = "no-sender"
DESCRIPTION = "no From or Sender address"


def check(msg: Message, ctx: Context) -> Verdict:
    """Hit when neither From nor Sender holds an ``local@domain`` address."""
    if addresses(msg, "From") or addresses(msg, "Sender"):
        return MISS
    shown = next(iter(raw_values(msg, "From", 1)), "")
    return Verdict(True, f"no sender address (From: {shown!r})")
