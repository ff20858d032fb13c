"""
Mail as the use cases see it: the inbound message a runner hands them, the mail they
return to send (``OutgoingMail``), the outbox's mail they read back (``StoredMail``: a
bounce names one), the states of both, and the body hash by which the same mail come
again is known.  The store keeps the rows
(``moderator.store.inbox``, ``moderator.store.outbox``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import field
from datetime import datetime
from email.parser import BytesHeaderParser
from email.policy import compat32
from typing import Any

from moderator.records import record

__all__ = [
    "DROPPED",
    "FAILED",
    "HELD",
    "INBOUND_STATES",
    "PENDING",
    "PROCESSED",
    "RECEIVED",
    "REJECTED",
    "SENT",
    "SHUNTED",
    "UNDELIVERED",
    "InboundMessage",
    "OutgoingMail",
    "StoredMail",
    "body_hash",
    "header_message_id",
]

#: Inbound message states.  ``received``: archived, not yet processed; ``processed``: its
#: orders were carried out (some may have been refused, with a reply); ``rejected``: not
#: for any game or player we know (answered, nothing changed); ``shunted``: processing
#: failed with an error and the message waits for a person.
RECEIVED, PROCESSED, REJECTED, SHUNTED = "received", "processed", "rejected", "shunted"
INBOUND_STATES = (RECEIVED, PROCESSED, REJECTED, SHUNTED)
#: Outbox states: ``pending`` (to send, at ``next_attempt_at``), ``sent``, ``failed`` (gave up),
#: ``undelivered`` (sent, and a bounce came back for it: ``moderator.usecases.mail.bounces``),
#: ``dropped`` (the operator said not to send it: ``titan-moderator mail drop``).
PENDING, SENT, FAILED, UNDELIVERED = "pending", "sent", "failed", "undelivered"
DROPPED = "dropped"
#: How the note of an inbound mail held for the operator begins (over the reply budget).
HELD = "held for the moderator"


@record
class InboundMessage:
    """A mail as archived, before and after it was dealt with."""

    id: int
    raw: bytes
    message_id: str | None
    mailbox: str
    uidvalidity: int | None
    uid: int | None
    status: str
    game_id: str | None
    error: str | None
    received_at: datetime


@record
class OutgoingMail:
    """
    A mail to send, as a handler returns it.

    ``body`` is the text anybody may see (the sender signs it).  A report or reply also
    has a ``private_body`` only its recipient may read, which is never signed and is
    encrypted to ``recipient_key`` (his pinned fingerprint) when he has one, and a
    one-time ``token`` that ties the two parts together (Wolff 4.5; see
    ``moderator.mail.compose.report_mail``).  ``kind`` says what the mail is
    (``report``, ``reply``, ``refusal``, ...).
    """

    recipient: str
    subject: str
    body: str
    headers: Mapping[str, str] = field(default_factory=dict)
    private_body: str | None = None
    token: str | None = None
    recipient_key: str | None = None
    kind: str | None = None
    #: The pictures to draw and attach when it is sent (``moderator.pictures.spec``).
    pictures: Sequence[Mapping[str, Any]] = ()
    #: Files to attach to the signed part as they are: ``filename``, ``content_type``
    #: and ``text`` (the audit bundle at a game's end).
    attachments: Sequence[Mapping[str, str]] = ()


@record
class StoredMail:
    """A mail in the outbox."""

    id: int
    message_id: str
    recipient: str
    subject: str
    body: str
    headers: dict[str, str]
    status: str
    attempts: int
    inbound_id: int | None
    game_id: str | None
    private_body: str | None = None
    token: str | None = None
    recipient_key: str | None = None
    kind: str | None = None
    created_at: datetime | None = None
    #: The token of the claim the mail is held under, and until when (None: not held).
    claim: str | None = None
    claimed_until: datetime | None = None
    pictures: tuple[Mapping[str, Any], ...] = ()
    attachments: tuple[Mapping[str, str], ...] = ()


def body_hash(raw: bytes) -> str:
    """SHA-256 of the body (what follows the first blank line): the same text resent
    through another route has the same hash."""
    parts = re.split(rb"\r?\n\r?\n", raw, maxsplit=1)
    return hashlib.sha256(parts[1] if len(parts) == 2 else raw).hexdigest()


def header_message_id(raw: bytes) -> str | None:
    """The Message-ID header, if the headers can be read at all (NUL characters, which
    PostgreSQL refuses, replaced)."""
    try:
        value = BytesHeaderParser(policy=compat32).parsebytes(raw).get("Message-ID")
    except (ValueError, TypeError, LookupError):
        return None
    return str(value).replace("\x00", "\ufffd").strip() or None if value is not None else None
