"""
Mail that came through a mailing list (``List-Id``, ``List-Unsubscribe``, ``Precedence: list``).

Mailman drops such mail before reading commands in it.  For the moderator it is a
*weak* sign by default: a player's mail relayed by a list or forwarder (a game's
discussion list, the Debian BTS, a university alias) carries these headers and is
still a player's mail, which is answered to its From address, never to the list.
Together with another weak sign (a vacation subject, a ``noreply`` sender) it drops
the mail; ``screen(..., strict_lists=True)`` makes it drop the mail on its own.
"""

from __future__ import annotations

from email.message import Message

from moderator.mail.checks.base import MISS, Context, Verdict, has_header, raw_values

NAME = "list-headers"
DESCRIPTION = "relayed by a mailing list"

_LIST_HEADERS = ("List-Id", "List-Unsubscribe", "List-Post", "Mailing-List", "X-Mailing-List")


def check(msg: Message, ctx: Context) -> Verdict:
    """Hit on a mailing-list header or on ``Precedence: list``."""
    found = [name for name in _LIST_HEADERS if has_header(msg, name)]
    if any(v.split(";", 1)[0].strip().lower() == "list" for v in raw_values(msg, "Precedence")):
        found.append("Precedence: list")
    if found:
        return Verdict(True, "mailing-list headers: " + ", ".join(found))
    return MISS
