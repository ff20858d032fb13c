"""
Bounces as mail servers write them, made for the tests (our own text, after the shapes
of the real ones in ``../shared/mail-corpus/bounce``): an RFC 3464 delivery status
notification as Postfix sends it, a qmail-style failure notice in plain text, and a
delay warning, which is not a bounce.  ``dsn`` also writes what a player forging one
would: his own From and envelope sender, another status, a block for somebody else.
"""

from __future__ import annotations

DATE = "Tue, 02 Jul 2024 08:00:00 +0000"


def dsn(
    *,
    to: str,
    failed: str,
    message_id: str,
    action: str = "failed",
    status: str = "5.1.1",
    diagnostic: str = "smtp; 550 5.1.1 <{failed}>: Recipient address rejected: User unknown",
    subject: str = "[titan g1] Turn 2, Bob to act",
    bounce_id: str = "<dsn-1@mx.example.org>",
    sender: str = "MAILER-DAEMON@mx.example.org (Mail Delivery System)",
    envelope: str = "",
    extra: str = "",
) -> bytes:
    """
    A delivery status notification delivered to ``to`` for the mail ``message_id``:
    from ``sender``, with the envelope sender ``envelope`` (the null one by default),
    its block for ``failed`` saying ``action`` and ``status`` (no Status line if
    ``status`` is empty); ``extra``: more header lines, each ending in CRLF.
    """
    said = diagnostic.format(failed=failed)
    status_line = f"Status: {status}\r\n" if status else ""
    text = (
        f"Return-Path: <{envelope}>\r\n"
        f"Delivered-To: {to}\r\n"
        f"X-Original-To: {to}\r\n"
        f"From: {sender}\r\n"
        f"{extra}"
        f"To: {to}\r\n"
        f"Subject: Undelivered Mail Returned to Sender\r\n"
        f"Date: {DATE}\r\n"
        f"Message-ID: {bounce_id}\r\n"
        f"Auto-Submitted: auto-replied\r\n"
        f"MIME-Version: 1.0\r\n"
        f'Content-Type: multipart/report; report-type=delivery-status; boundary="RB"\r\n'
        f"\r\n"
        f"--RB\r\n"
        f"Content-Type: text/plain; charset=us-ascii\r\n"
        f"\r\n"
        f"This is the mail system at host mx.example.org.\r\n"
        f"\r\n"
        f"Your message could not be delivered to one or more recipients.\r\n"
        f"\r\n"
        f"<{failed}>: host mx.example.org said: {said}\r\n"
        f"\r\n"
        f"--RB\r\n"
        f"Content-Type: message/delivery-status\r\n"
        f"\r\n"
        f"Reporting-MTA: dns; mx.example.org\r\n"
        f"Arrival-Date: {DATE}\r\n"
        f"\r\n"
        f"Final-Recipient: rfc822; {failed}\r\n"
        f"Original-Recipient: rfc822; {failed}\r\n"
        f"Action: {action}\r\n"
        f"{status_line}"
        f"Diagnostic-Code: {said}\r\n"
        f"\r\n"
        f"--RB\r\n"
        f"Content-Type: text/rfc822-headers\r\n"
        f"\r\n"
        f"From: Titan moderator <moderator@titan.example>\r\n"
        f"To: {failed}\r\n"
        f"Subject: {subject}\r\n"
        f"Message-ID: {message_id}\r\n"
        f"\r\n"
        f"--RB--\r\n"
    )
    return text.encode("ascii")


def failure_notice(*, to: str, failed: str, message_id: str) -> bytes:
    """A qmail-style bounce: plain text, the returned mail copied below a line."""
    text = (
        f"Return-Path: <>\r\n"
        f"Delivered-To: {to}\r\n"
        f"From: MAILER-DAEMON@relay.example.net\r\n"
        f"To: {to}\r\n"
        f"Subject: failure notice\r\n"
        f"Date: {DATE}\r\n"
        f"Message-ID: <notice-7@relay.example.net>\r\n"
        f"\r\n"
        f"Hi. This is the qmail-send program at relay.example.net.\r\n"
        f"I'm afraid I wasn't able to deliver your message to the following addresses.\r\n"
        f"This is a permanent error; I've given up. Sorry it didn't work out.\r\n"
        f"\r\n"
        f"<{failed}>:\r\n"
        f"Sorry, no mailbox here by that name. (#5.1.1)\r\n"
        f"\r\n"
        f"--- Below this line is a copy of the message.\r\n"
        f"\r\n"
        f"From: Titan moderator <moderator@titan.example>\r\n"
        f"To: {failed}\r\n"
        f"Subject: [titan g1] your report\r\n"
        f"Message-ID: {message_id}\r\n"
        f"\r\n"
        f"Turn 2.\r\n"
    )
    return text.encode("ascii")


def delayed(*, to: str, failed: str, message_id: str) -> bytes:
    """A warning that delivery is delayed: the mail may still arrive."""
    return dsn(
        to=to,
        failed=failed,
        message_id=message_id,
        action="delayed",
        status="4.4.1",
        diagnostic="X-Postfix; connect to mx.example.org: Connection timed out",
    )
