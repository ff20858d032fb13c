"""
The intake of incoming mail: raw bytes in; a disposition, the text and the order lines out.

Pure: the standard library's ``email`` package only, no network, no database, no clock.
The service archives the raw bytes first, then::

    msg = parse(raw)
    disposition = screen(msg, own_addresses={"titan@example.org"}, replies_today=n)
    if disposition.action is Action.ACCEPT:
        extracted = extract_text(msg, raw=raw)
        lines, ignored = order_lines(extracted.text)
        hints = game_and_player_hints(msg, extracted.text)

None of these functions raises, whatever the bytes: a mail the intake cannot make
sense of comes out with empty text and a note saying why, for the GM to look at.

A mail the screen drops as a bounce or a delivery report is not always the end of it:
``bounce_of`` reads it as a bounce (``moderator.mail.dsn``), and the service asks
whether it returns a mail of ours (``moderator.usecases.mail.bounces``).

This module holds ``parse``, ``screen`` and ``order_lines`` and is the one place to
import the intake from; the text comes from ``body_text`` (with ``part_decoding``,
``plain_text``, ``html_text`` and ``signed_text``), the quote trimming from
``quoted_replies`` and the hints from ``hints``.
"""

from __future__ import annotations

from collections.abc import Iterable
from email import policy as email_policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.policy import Policy

from moderator.mail.body_text import Extracted, extract_text
from moderator.mail.checks import CHAIN, LIST_LINK, Action, Context, ReplyBudget, bounce, report
from moderator.mail.checks.base import MAIL_ERRORS, SEVERITY, normalize_address
from moderator.mail.dsn import Bounce, read_bounce
from moderator.mail.hints import Hints, game_and_player_hints, is_hint
from moderator.mail.plain_text import lines
from moderator.mail.quoted_replies import own_lines
from moderator.mail.signed_text import SignedContent
from moderator.orders.finder import split_lines
from moderator.records import record

__all__ = [
    "BOUNCE_CHECKS",
    "DEFAULT_BUDGET",
    "LOOP_HEADER",
    "Action",
    "Bounce",
    "Disposition",
    "Extracted",
    "Hints",
    "ReplyBudget",
    "SignedContent",
    "bounce_of",
    "extract_text",
    "game_and_player_hints",
    "order_lines",
    "parse",
    "screen",
]

#: The header every moderator mail carries (``moderator.mail.compose`` writes it).
LOOP_HEADER = "X-Titan-Moderator"
#: Mailman's default: at most 10 automatic replies per address per day.
DEFAULT_BUDGET = ReplyBudget(10)

# -- parse -------------------------------------------------------------------


def parse(raw: bytes) -> EmailMessage:
    """
    Parse raw mail bytes, whatever they hold; never raises.

    The ``compat32`` policy: its headers stay the text that came, which is all the checks
    and readers here use (``checks.base.raw_values``), and it reads a mail ten times
    faster than ``email.policy.default``, whose header parser takes milliseconds per
    kilobyte of addresses or parameters (seconds on a crafted header).  It also cuts the
    mail into the parts that ``moderator.mail.limits.over_limit`` counts.  A leading mbox
    ``From `` line becomes the unix-from; blank lines before the headers are skipped.
    """
    data = bytes(raw).lstrip(b"\r\n")
    msg = _parse_with(data, email_policy.compat32)
    if msg is None:  # pragma: no cover - compat32 has not been seen failing
        msg = EmailMessage(policy=email_policy.compat32)
        msg.set_payload(data.decode("ascii", "surrogateescape"))
    return msg


def _parse_with(data: bytes, policy: Policy) -> EmailMessage | None:
    """The parsed mail; None if the parser fails on it."""
    try:
        msg = BytesParser(_class=EmailMessage, policy=policy).parsebytes(data)
    except Exception:  # noqa: BLE001 - any parser bug means: read the mail as text
        return None
    return msg if isinstance(msg, EmailMessage) else None


# -- screen ------------------------------------------------------------------


@record(kw_only=True)
class Disposition:
    """
    What to do with a mail: ``action``, the decisive hits as (check name, reason) in
    ``reasons``, and the weak signs that did not decide anything in ``signals``.
    """

    action: Action
    reasons: tuple[tuple[str, str], ...] = ()
    signals: tuple[tuple[str, str], ...] = ()

    @property
    def answer(self) -> bool:
        """Whether the sender gets a reply (``accept`` and ``reply-only``)."""
        return self.action in (Action.ACCEPT, Action.REPLY_ONLY)


def screen(
    msg: Message,
    *,
    own_addresses: Iterable[str],
    loop_header: str = LOOP_HEADER,
    replies_today: int | None = None,
    budget: ReplyBudget = DEFAULT_BUDGET,
    strict_lists: bool = False,
) -> Disposition:
    """
    Run the checks of ``moderator.mail.checks.CHAIN`` on ``msg``; never raises.

    Drops, without a reply, anything automatic or ours (RFC 3834 ``Auto-Submitted``,
    ``Precedence: bulk/junk``, delivery reports and read receipts, bounces, autoresponder
    headers, our own addresses and loop header), and any mail with two weak signs
    (mailing-list headers, a vacation subject, a role sender, no sender address).
    Encrypted mail is ``reply-only``; mail beyond the reply ``budget`` (the caller
    counts ``replies_today`` to the sender) and mail a check crashed on are held.
    ``strict_lists`` makes mailing-list headers drop the mail on their own.
    """
    ctx = Context(
        own_addresses=frozenset(normalize_address(a) for a in own_addresses if a.strip()),
        loop_header=loop_header,
        strict_lists=strict_lists,
        replies_today=replies_today,
        replies_per_day=budget.per_day,
    )
    decisive: list[tuple[Action, str, str]] = []
    weak: list[tuple[str, str]] = []
    for link in CHAIN:
        try:
            verdict = link.check(msg, ctx)
        except Exception as error:  # noqa: BLE001 - a broken check holds the mail (a shunt)
            decisive.append((Action.HOLD, link.name, f"check failed: {error!r}"))
            continue
        if not verdict.hit:
            continue
        if link.weak and not (strict_lists and link.name == LIST_LINK):
            weak.append((link.name, verdict.reason))
        else:
            decisive.append((link.action, link.name, verdict.reason))
    if len(weak) >= 2:
        decisive.extend((Action.DROP, name, f"{why} (with other weak signs)") for name, why in weak)
        weak = []
    if not decisive:
        return Disposition(action=Action.ACCEPT, signals=tuple(weak))
    worst = max((action for action, _, _ in decisive), key=SEVERITY.__getitem__)
    reasons = tuple((name, reason) for _, name, reason in decisive)
    return Disposition(action=worst, reasons=reasons, signals=tuple(weak))


#: The checks whose hit makes a dropped mail worth reading as a bounce.
BOUNCE_CHECKS = frozenset({bounce.NAME, report.NAME})


def bounce_of(msg: Message, disposition: Disposition) -> Bounce | None:
    """
    A mail ``screen`` dropped as a bounce or a delivery report, read as a bounce; None
    for any other mail, and for one that reports no recipient failed for good (a delay
    warning, a read receipt).  Never raises.
    """
    if disposition.action is not Action.DROP:
        return None
    if not any(name in BOUNCE_CHECKS for name, _ in disposition.reasons):
        return None
    return read_bounce(msg)


# -- order_lines ---------------------------------------------------------------


def order_lines(text: str, *, max_lines: int = 100) -> tuple[list[str], list[str]]:
    """
    The order lines of a mail's text, and the ignored lines after where reading stopped.

    Quoted replies are left out: ``>`` lines, attribution lines ("On … wrote:", in one to
    three lines and several languages).  Reading stops at a forwarded or original
    message (``-----Original Message-----``, an Outlook ``From:/Sent:/To:`` block), a
    signature (``-- ``), a mobile footer ("Sent from my iPhone"), a long rule line, or
    ``signoff``; the non-blank, unquoted lines after that are the ignored ones.  Then
    ``moderator.orders.finder.split_lines`` drops blanks and comments and caps the count
    at ``max_lines``.  The ``game …`` and ``secret …`` lines are for
    ``game_and_player_hints``: they are in neither list, so a secret is never echoed.
    """
    try:
        kept, rest = own_lines(text)
    except MAIL_ERRORS:  # never raise; the text is then read as it is
        kept, rest = lines(text), []
    kept = [line for line in kept if not is_hint(line)]
    orders, ignored = split_lines("\n".join(kept), max_lines)
    tail = [line.strip() for line in rest if line.strip() and not is_hint(line)]
    return orders, ignored + [line for line in tail if not line.startswith(">")]
