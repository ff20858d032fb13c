"""
A From address that is a role, not a person (``noreply@``, ``postmaster@``): a *weak* sign.

``postmaster`` is read and written by people (RFC 5321 4.5.1), so mail from it is not
dropped on that alone; ``noreply`` senders cannot be answered anyway.
"""

from __future__ import annotations

from email.message import Message

from moderator.mail.checks.base import MISS, Context, Verdict, addresses, local_part

NAME = "role-sender"
DESCRIPTION = "From a role address (noreply, postmaster, bounces)"

_ROLES = frozenset(
    {
        "postmaster",
        "noreply",
        "no-reply",
        "no_reply",
        "donotreply",
        "do-not-reply",
        "do_not_reply",
        "bounce",
        "bounces",
        "autoreply",
        "auto-reply",
        "autoresponder",
    }
)


def check(msg: Message, ctx: Context) -> Verdict:
    """Hit when the From address's local part is a role name."""
    for address in addresses(msg, "From"):
        if local_part(address) in _ROLES or local_part(address).endswith("-bounces"):
            return Verdict(True, f"From a role address: {address!r}")
    return MISS
