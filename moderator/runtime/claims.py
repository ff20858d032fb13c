"""
What becomes of a mail the sender has claimed: the claim a worker holds while it makes
and sends the mail, a round's tally, and which failures give a mail up at once.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import datetime

from moderator.mail.dkim import DkimError
from moderator.mail.errors import GpgError, MailTransportError
from moderator.ports import StoredMail


def refused_for_good(exc: Exception) -> bool:
    """
    Whether a mail that failed with ``exc`` is given up at once rather than tried again
    later.  A failure of the moderator's own keys is the keys', not the mail's: a DKIM
    key, or GnuPG failing to sign with the moderator's secret key (its agent stopped or
    too slow under load, a passphrase being fixed) may pass on the next try, and a
    report given up is a player who never learns of his turn.  A player's public key
    missing (an ``encrypt`` that names no signer problem), a 5xx answer or a mail that
    cannot be built stay given up: trying again changes nothing until the operator acts
    (``mail retry``).
    """
    if isinstance(exc, DkimError):
        return False
    if isinstance(exc, MailTransportError):
        return exc.permanent
    if isinstance(exc, GpgError):
        return not exc.signing
    return True


@dataclass
class SendTally:
    sent: int = 0
    failed: int = 0
    given_up: int = 0


@dataclass
class Claim:
    """A mail a worker holds: until when its lease is known to run, and whether it was lost."""

    mail: StoredMail
    until: datetime
    lost: asyncio.Event = field(default_factory=asyncio.Event)
    #: Its result is being recorded: a renewal that finds it no longer pending is not a loss.
    settling: bool = False


__all__ = ["Claim", "SendTally", "refused_for_good"]
