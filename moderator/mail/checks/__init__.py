"""
The intake checks, one per module (Mailman's ``rules/``), and the chain that runs them.

Each module has a ``NAME``, a ``DESCRIPTION`` and ``check(msg, ctx) -> Verdict``.  The
chain (Mailman's ``chains/builtin.py``) says what a hit means.  ``screen`` runs every
link and takes the worst action of all hits; *weak* links only count when two or more
of them hit (then the mail is dropped), and are reported as signals otherwise.
"""

from __future__ import annotations

from moderator.mail.checks import (
    auto_submitted,
    autoreply_headers,
    bounce,
    encrypted,
    list_headers,
    loop,
    no_sender,
    own_address,
    precedence,
    reply_budget,
    report,
    role_sender,
    vacation_subject,
)
from moderator.mail.checks.base import Action, Context, Link, Verdict
from moderator.mail.checks.reply_budget import ReplyBudget

CHAIN: tuple[Link, ...] = (
    Link(own_address.NAME, own_address.check, Action.DROP),
    Link(loop.NAME, loop.check, Action.DROP),
    Link(auto_submitted.NAME, auto_submitted.check, Action.DROP),
    Link(precedence.NAME, precedence.check, Action.DROP),
    Link(report.NAME, report.check, Action.DROP),
    Link(bounce.NAME, bounce.check, Action.DROP),
    Link(autoreply_headers.NAME, autoreply_headers.check, Action.DROP),
    Link(list_headers.NAME, list_headers.check, Action.DROP, weak=True),
    Link(vacation_subject.NAME, vacation_subject.check, Action.DROP, weak=True),
    Link(role_sender.NAME, role_sender.check, Action.DROP, weak=True),
    Link(no_sender.NAME, no_sender.check, Action.DROP, weak=True),
    Link(encrypted.NAME, encrypted.check, Action.REPLY_ONLY),
    Link(reply_budget.NAME, reply_budget.check, Action.HOLD),
)

#: The weak link that ``strict_lists`` makes decisive on its own.
LIST_LINK = list_headers.NAME

__all__ = ["CHAIN", "LIST_LINK", "Action", "Context", "Link", "ReplyBudget", "Verdict"]
