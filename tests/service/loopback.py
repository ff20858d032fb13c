"""
A service configuration on a loopback mail system (the embedded hub or Dovecot), with
every job by its own clock an hour away: a test runs the rounds it wants itself.
"""

from __future__ import annotations

from typing import Any, Protocol

from moderator.runtime.config import (
    Config,
    DatabaseSettings,
    GnupgSettings,
    ImapSettings,
    ModeratorSettings,
    ServiceSettings,
    SmtpSettings,
)


class MailSystem(Protocol):
    host: str

    @property
    def imap_port(self) -> int: ...

    @property
    def smtp_port(self) -> int: ...


def loopback_config(
    mail: MailSystem,
    db: str,
    *,
    user: str,
    gnupg: GnupgSettings | None = None,
    **service: Any,
) -> Config:
    """``user``'s mailbox on ``mail`` (password ``pw``), database ``db``; ``service``
    overrides the quiet job intervals."""
    quiet: dict[str, Any] = {"deadline_seconds": 3600, "tournament_seconds": 3600, **service}
    return Config(
        moderator=ModeratorSettings(address=user, name="Titan moderator"),
        database=DatabaseSettings(url=db),
        imap=ImapSettings(host=mail.host, port=mail.imap_port, tls="none", user=user,
                          password="pw", poll_seconds=3600, idle=False),
        smtp=SmtpSettings(host=mail.host, port=mail.smtp_port, tls="none", send_seconds=3600),
        gnupg=gnupg or GnupgSettings(),
        service=ServiceSettings(**quiet),
        source="test",
    )
