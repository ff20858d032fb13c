"""
Mail connections that are not the moderator's configured ones: a player's mail
program (a robot reading its mailbox, a test mailing an order) or a test's own sender
on a mail hub.  The moderator's connections come from ``runtime.bootstrap``.
"""

from __future__ import annotations

from typing import Any

from moderator.mail.imap import ImapSource
from moderator.mail.smtp import SmtpSink


def imap_source_at(host: str, port: int, user: str, password: str, **options: Any) -> ImapSource:
    """An IMAP connection to ``user``'s mailbox at ``host:port`` (``options`` as ``ImapSource``)."""
    return ImapSource(host, port, user, password, **options)


def smtp_sink_at(host: str, port: int, **options: Any) -> SmtpSink:
    """An SMTP connection to ``host:port`` to send through (``options`` as ``SmtpSink``)."""
    return SmtpSink(host, port, **options)


__all__ = ["imap_source_at", "smtp_sink_at"]
