"""
A cap on automatic replies per address per day (Mailman: 10).

Whatever slips past the other checks (a robot that writes like a person) cannot make
the moderator answer more than this.  The caller counts the replies it sent to the
address today; the check is pure.  A mail over the budget is held for the GM rather
than dropped, so no order is lost.
"""

from __future__ import annotations

from email.message import Message

from moderator.mail.checks.base import MISS, Context, Verdict
from moderator.records import record

NAME = "reply-budget"
DESCRIPTION = "too many automatic replies to this address today"


@record
class ReplyBudget:
    """At most ``per_day`` automatic replies to one address in one day."""

    per_day: int = 10

    def remaining(self, sent_today: int) -> int:
        """How many more replies may go to the address today."""
        return max(0, self.per_day - max(0, sent_today))

    def check(self, sent_today: int) -> Verdict:
        """Hit when ``sent_today`` replies already used up the budget."""
        if self.remaining(sent_today) == 0:
            return Verdict(True, f"{sent_today} replies today, the budget is {self.per_day}")
        return MISS


def check(msg: Message, ctx: Context) -> Verdict:
    """Hit when the caller's count of today's replies reaches ``ctx.replies_per_day``."""
    if ctx.replies_today is None:
        return MISS
    return ReplyBudget(ctx.replies_per_day).check(ctx.replies_today)
