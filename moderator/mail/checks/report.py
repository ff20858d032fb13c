"""
Delivery status notifications and read receipts (RFC 6522 ``multipart/report``).

A DSN (``message/delivery-status``) says a mail could not be delivered, an MDN
(``message/disposition-notification``) that it was read.  Both come from programs.
Parts inside an attached mail do not count: a player may forward a bounce on purpose.
"""

from __future__ import annotations

from email.message import Message

from moderator.mail.checks.base import MISS, Context, Verdict, content_type, own_parts, param

NAME = "report"
DESCRIPTION = "delivery status notification or read receipt"

_REPORT_PARTS = frozenset(
    {
        "message/delivery-status",
        "message/global-delivery-status",
        "message/disposition-notification",
        "message/global-disposition-notification",
        "message/feedback-report",
    }
)


def check(msg: Message, ctx: Context) -> Verdict:
    """Hit on a ``multipart/report`` mail or on a status/receipt part of the mail's own."""
    if content_type(msg) == "multipart/report":
        kind = param(msg, "report-type") or "unknown"
        return Verdict(True, f"multipart/report; report-type={kind}")
    for part in own_parts(msg):
        if content_type(part) in _REPORT_PARTS:
            return Verdict(True, f"{content_type(part)} part")
    return MISS
