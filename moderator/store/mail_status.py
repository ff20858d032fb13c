"""
The operator's side of the mail tables: the mails waiting for a person listed
(``titan-moderator mail list``), and his word on one applied (``mail retry``, ``mail
drop``: a ``MailStatus`` the unit of work hands here).

A row changes only if it still has the status the decision was made on; otherwise the
sender or the worker got to it first, and the decision is made again on what it is now
(``ConflictError``).  An outbox row changes only while no sender's claim holds it (its
lease over at the store's time, real time for the command line): a mail a sender may be
handing to SMTP is never called dropped, nor freed for a second sender.  A dropped mail keeps its row: its status says ``dropped`` and its
error says the operator dropped it, after what.
"""

from __future__ import annotations

from datetime import datetime
from email.parser import BytesHeaderParser
from email.policy import compat32
from email.utils import parseaddr
from typing import Any

from sqlalchemy import or_, select, update

from moderator.ports.errors import ConflictError
from moderator.ports.mail import DROPPED, FAILED, HELD, PENDING, RECEIVED, REJECTED
from moderator.ports.writes import MAIL_IN, MAIL_OUT, MailStatus
from moderator.records import record
from moderator.store.eventstore import Tx
from moderator.store.tables import INBOUND, OUTBOX

OUT, IN = MAIL_OUT, MAIL_IN
#: What ``listed`` may be asked for.
WAITING = (PENDING, FAILED, "held")


@record
class Listed:
    """One mail as the operator's list shows it."""

    ref: str  # what ``mail retry`` and ``mail drop`` take: ``42`` (outbox) or ``in-7``
    state: str  # pending, failed or held
    who: str  # to whom it goes, or (held) from whom it came
    kind: str  # report, reply, notice...; ``mail`` for a held inbound one
    game: str | None
    since: datetime  # written (outbox) or received (inbound)
    attempts: int
    due: datetime | None  # a pending mail's next try
    error: str | None  # the last error, or why it is held


def listed(tx: Tx, states: tuple[str, ...] = WAITING) -> list[Listed]:
    """The mails in ``states`` (pending, failed, held), oldest first in each."""
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


__all__ = ["IN", "OUT", "WAITING", "Listed", "apply", "listed"]
