"""
The operator's side of the mail tables: the mails waiting for a person listed
(``titan-moderator mail list``), and his word on one applied (``mail retry``, ``mail
drop``: a ``MailStatus`` the unit of work hands here).

A bounced mail (``undelivered``) is listed from what its bounce left, nothing more: the
row's ``last_error`` (the server's words, ``usecases.mail.bounces``), the bounce's own
inbound row (when it came; its note says how it was recognised and what it did to the
player's deadline) and the notices written in the bounce's transaction (to whom, and
whether they went).  The bounce's row is the one whose note starts ``mail <id> to``, as
``bounces.handle`` writes it.

A row changes only if it still has the status the decision was made on; otherwise the
sender or the worker got to it first, and the decision is made again on what it is now
(``ConflictError``).  An outbox row changes only while no sender's claim holds it (its
lease over at the store's time, real time for the command line): a mail a sender may be
handing to SMTP is never called dropped, nor freed for a second sender.  A dropped mail keeps its row: its status says ``dropped`` and its
error says the operator dropped it, after what.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from email.parser import BytesHeaderParser
from email.policy import compat32
from email.utils import parseaddr
from typing import Any

from sqlalchemy import or_, select, update

from moderator.ports.errors import ConflictError
from moderator.ports.mail import (
    DROPPED,
    FAILED,
    HELD,
    PENDING,
    PROCESSED,
    RECEIVED,
    REJECTED,
    UNDELIVERED,
)
from moderator.ports.writes import MAIL_IN, MAIL_OUT, MailStatus
from moderator.records import record
from moderator.store.eventstore import Tx
from moderator.store.tables import INBOUND, OUTBOX

OUT, IN = MAIL_OUT, MAIL_IN
BOUNCED = "bounced"
#: What waits for a person, ``listed``'s default.
WAITING = (PENDING, FAILED, "held")
#: What the plain ``mail list`` shows: that, and the mail that bounced.
SHOWN = (*WAITING, BOUNCED)


@record
class Listed:
    """One mail as the operator's list shows it."""

    ref: str  # what ``mail retry`` and ``mail drop`` take: ``42`` (outbox) or ``in-7``
    state: str  # pending, failed, held or bounced
    who: str  # to whom it goes, or (held) from whom it came
    kind: str  # report, reply, notice...; ``mail`` for a held inbound one
    game: str | None
    since: datetime  # written (outbox) or received (inbound)
    attempts: int
    due: datetime | None  # a pending mail's next try
    error: str | None  # the last error, why it is held, or (bounced) the server's words
    sent: datetime | None = None  # (bounced) when the server took it
    bounced: datetime | None = None  # (bounced) when its bounce came, if its row is kept
    done: tuple[str, ...] = ()  # (bounced) what the service did about it


def listed(tx: Tx, states: tuple[str, ...] = WAITING) -> list[Listed]:
    """The mails in ``states`` (pending, failed, held, bounced), oldest first in each."""
    found: list[Listed] = []
    wanted = [s for s in states if s in (PENDING, FAILED)]
    if wanted:
        rows = tx.connection.execute(
            select(OUTBOX).where(OUTBOX.c.status.in_(wanted)).order_by(OUTBOX.c.id)
        )
        found.extend(_outgoing(row) for row in rows)
    if "held" in states:
        rows = tx.connection.execute(
            select(INBOUND)
            .where(INBOUND.c.status == REJECTED, INBOUND.c.error.like(f"{HELD}%"))
            .order_by(INBOUND.c.id)
        )
        found.extend(_held(row) for row in rows)
    if BOUNCED in states:
        undelivered = tx.connection.execute(
            select(OUTBOX).where(OUTBOX.c.status == UNDELIVERED).order_by(OUTBOX.c.id)
        ).all()
        found.extend(_bounced(tx, row) for row in undelivered)
    return found


def apply(tx: Tx, change: MailStatus) -> None:
    """
    Write the operator's word on a mail.  A retried outbox mail is due at once with its
    attempts counted afresh; a retried inbound one is ``received`` again, for the next
    poll to process.

    Raises:
        ConflictError: the row is no longer ``change.was`` (or is not there), or a
            sender's claim holds it now (decide again: the decision sees the claim).
    """
    if change.table == OUT:
        values: dict[str, Any] = {"status": change.status, "claimed_by": None}
        values["claimed_until"] = None
        values["last_error"] = change.note
        if change.status == DROPPED and change.note:  # the error it had stays readable
            before = _last_error(tx, change.id)
            values["last_error"] = f"{change.note} (after: {before})" if before else change.note
        if change.status == PENDING:
            values.update(attempts=0, next_attempt_at=tx.now())
        free = or_(OUTBOX.c.claimed_until.is_(None), OUTBOX.c.claimed_until <= tx.now())
        held = (OUTBOX.c.id == change.id, OUTBOX.c.status == change.was, free)
        done = tx.connection.execute(update(OUTBOX).where(*held).values(**values))
    else:
        values = {"status": change.status, "error": change.note}
        if change.status == RECEIVED:
            values["processed_at"] = None
        where = (INBOUND.c.id == change.id, INBOUND.c.status == change.was)
        done = tx.connection.execute(update(INBOUND).where(*where).values(**values))
    if done.rowcount != 1:
        raise ConflictError(f"{change.table} mail {change.id} is no longer {change.was}")


def _last_error(tx: Tx, mail_id: int) -> str | None:
    row = tx.connection.execute(select(OUTBOX.c.last_error).where(OUTBOX.c.id == mail_id)).first()
    return None if row is None else row[0]


def _outgoing(row: Any) -> Listed:
    due = row.next_attempt_at if row.status == PENDING else None
    return Listed(
        str(row.id), row.status, row.recipient, row.kind or "mail", row.game_id,
        row.created_at, row.attempts, due, row.last_error,
    )


def _bounced(tx: Tx, row: Any) -> Listed:
    """A bounced mail with its bounce: when it came, what it did, who was told."""
    mail = Listed(
        str(row.id), BOUNCED, row.recipient, row.kind or "mail", row.game_id, row.created_at,
        row.attempts, None, row.last_error, row.sent_at,
    )
    bounce = tx.connection.execute(
        select(INBOUND.c.id, INBOUND.c.error, INBOUND.c.received_at)
        .where(INBOUND.c.status == PROCESSED, INBOUND.c.error.like(f"mail {row.id} to %"))
        .order_by(INBOUND.c.id)
    ).first()
    if bounce is None:  # its inbound row purged: the mail's row is all there is
        return mail
    note = str(bounce.error)
    done = [_what_it_did(note, row.last_error or "")]
    notices = tx.connection.execute(
        select(OUTBOX.c.recipient, OUTBOX.c.status)
        .where(OUTBOX.c.inbound_id == bounce.id)
        .order_by(OUTBOX.c.id)
    )
    done.extend(f"notice to {to} ({status})" for to, status in notices)
    return replace(mail, bounced=bounce.received_at, done=tuple(done))


def _what_it_did(note: str, reason: str) -> str:
    """From the bounce's note: how it was recognised, and what became of the deadline."""
    start = note.find(" undelivered (")
    how = note[start + len(" undelivered (") : note.find("): ", start)] if start >= 0 else ""
    after = note.split(reason, 1)[1].lstrip("; ") if reason and reason in note else ""
    said = f"marked undelivered ({how})" if how else "marked undelivered"
    return f"{said}; {after}" if after else f"{said}; no seat's deadline concerned"


def _held(row: Any) -> Listed:
    try:
        sender = BytesHeaderParser(policy=compat32).parsebytes(bytes(row.raw)).get("From")
    except (ValueError, TypeError, LookupError):
        sender = None
    who = parseaddr(str(sender))[1] if sender else "(no From)"
    error = str(row.error)[len(HELD) :].lstrip(": ") or None
    return Listed(
        f"in-{row.id}", "held", who or str(sender), "mail", row.game_id, row.received_at,
        0, None, error,
    )


__all__ = ["BOUNCED", "IN", "OUT", "SHOWN", "WAITING", "Listed", "apply", "listed"]
