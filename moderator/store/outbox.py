"""
The outbox: mails are written in the transaction that caused them and sent after it
committed, so nothing goes out that the database does not hold (a transactional
outbox).

``deliver`` claims due mails one at a time, sends each outside any transaction and
records the result.  A claim (``claim_due``) writes a token new with every claim into
``claimed_by`` and a short lease into ``claimed_until`` (``LEASE``, in real time: the
store's clock may run fast); the sender renews the lease (``renew``) while it still
works on the mail, every ``RENEW_EVERY``, so a slow signature or SMTP transaction keeps
it.  A sender that dies stops renewing, and within ``LEASE`` the mail is free for
another: a mail is sent at least once, and its Message-ID, fixed when it was written,
lets the receiving end recognise a repeat.  Renewing and recording the result
(``mark_sent``, ``mark_failed``) change the row only while it still carries the
claimant's token, so a sender that lost its claim cannot take it back from the one that
holds it now, nor record over it.  A renewal reads the time once its transaction has
begun (a renewal that waited for the database still gets its whole lease), and a sender
leaves out of its claims the mails its own workers hold (``skip``): however late their
renewals, it never takes a mail over from itself.  A mail that fails ``max_attempts`` times is marked
failed.  A sent mail that bounced is marked ``undelivered`` (``mark_undelivered``, through
the unit of work) with the bounce's reason in ``last_error``.
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from collections.abc import Callable, Collection, Iterable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, bindparam, func, insert, or_, select, update

from moderator.ports.mail import FAILED, PENDING, SENT, UNDELIVERED, OutgoingMail, StoredMail
from moderator.store.eventstore import EventStore, Tx
from moderator.store.tables import OUTBOX

#: The domain of the Message-IDs the moderator makes.
MESSAGE_ID_DOMAIN = "titan-moderator.invalid"
#: How long a claim keeps other senders off a mail (real time).  Its sender renews it
#: every ``RENEW_EVERY`` while it works, so only a sender that died (or hangs without
#: renewing) lets it run out: its mail goes out from another within about this long.
LEASE = timedelta(seconds=20)
#: How often a sender renews the leases of the mails it is working on.
RENEW_EVERY = timedelta(seconds=5)
#: Tries before a mail is marked failed.
MAX_ATTEMPTS = 8

log = logging.getLogger(__name__)

# What every mail reads and writes here, built once: a statement built for each call
# costs several times its execution on SQLite (its clauses made again, its cache key).
_SINCE = (
    select(func.count())
    .select_from(OUTBOX)
    .where(OUTBOX.c.recipient == bindparam("recipient"))
    .where(OUTBOX.c.created_at >= bindparam("since"))
)
_SINCE_OF_KINDS = _SINCE.where(
    or_(OUTBOX.c.kind.in_(bindparam("kinds", expanding=True)), OUTBOX.c.kind.is_(None))
)
_FREE = or_(OUTBOX.c.claimed_until.is_(None), OUTBOX.c.claimed_until <= bindparam("wall"))
_DUE = (
    select(OUTBOX)
    .where(OUTBOX.c.status == PENDING, OUTBOX.c.next_attempt_at <= bindparam("now"), _FREE)
    .order_by(OUTBOX.c.next_attempt_at, OUTBOX.c.id)
    .limit(1)
)
_ADD = insert(OUTBOX)
_DUE_SKIPPING = _DUE.where(OUTBOX.c.id.not_in(bindparam("skip", expanding=True)))
_TAKE = (
    update(OUTBOX)
    .where(
        OUTBOX.c.id == bindparam("mail_id"),
        OUTBOX.c.status == PENDING,
        OUTBOX.c.attempts == bindparam("seen"),
        _FREE,
    )
    .values(
        attempts=OUTBOX.c.attempts + 1,
        claimed_by=bindparam("claim_token"),
        claimed_until=bindparam("until"),
    )
)


def new_claim() -> str:
    """A claim token: unique, and saying which process holds the mail (host/pid/random)."""
    return f"{socket.gethostname()}/{os.getpid()}/{uuid.uuid4().hex[:16]}"


def backoff(attempts: int) -> timedelta:
    """Wait before the next try: 1, 2, 4 ... minutes, at most 6 hours."""
    return timedelta(minutes=min(2 ** max(attempts - 1, 0), 360))


def add_mails(
    tx: Tx,
    mails: Iterable[OutgoingMail],
    *,
    inbound_id: int | None = None,
    game_id: str | None = None,
) -> list[str]:
    """Put mails in the outbox (in ``tx``); returns their Message-IDs."""
    now = tx.now()
    rows: list[dict[str, Any]] = [
        {
            "message_id": f"<{uuid.uuid4().hex}@{MESSAGE_ID_DOMAIN}>",
            "inbound_id": inbound_id,
            "position": position,
            "game_id": game_id,
            "recipient": mail.recipient,
            "subject": mail.subject,
            "body": mail.body,
            "headers": dict(mail.headers),
            "private_body": mail.private_body,
            "token": mail.token,
            "recipient_key": mail.recipient_key,
            "kind": mail.kind,
            "pictures": [dict(p) for p in mail.pictures] or None,
            "attachments": [dict(a) for a in mail.attachments] or None,
            "status": PENDING,
            "attempts": 0,
            "next_attempt_at": now,
            "created_at": now,
        }
        for position, mail in enumerate(mails)
    ]
    if rows:
        tx.connection.execute(_ADD, rows)
    return [str(row["message_id"]) for row in rows]


def mails(tx: Tx, *, status: str | None = None, inbound_id: int | None = None) -> list[StoredMail]:
    """The outbox's mails, oldest first (all, or with ``status`` / from one message)."""
    query = select(OUTBOX).order_by(OUTBOX.c.id)
    if status is not None:
        query = query.where(OUTBOX.c.status == status)
    if inbound_id is not None:
        query = query.where(OUTBOX.c.inbound_id == inbound_id)
    return [_mail(row) for row in tx.connection.execute(query)]


def mail_by_id(tx: Tx, mail_id: int) -> StoredMail | None:
    """The outbox's mail ``mail_id`` (a bounce's VERP address names it), if there is one."""
    row = tx.connection.execute(select(OUTBOX).where(OUTBOX.c.id == mail_id)).first()
    return None if row is None else _mail(row)


def mail_by_message_id(tx: Tx, message_id: str) -> StoredMail | None:
    """The outbox's mail with ``message_id`` (as a bounce quotes it), if there is one."""
    row = tx.connection.execute(select(OUTBOX).where(OUTBOX.c.message_id == message_id)).first()
    return None if row is None else _mail(row)


def mark_undelivered(tx: Tx, mail_id: int, reason: str) -> bool:
    """
    A bounce came back for mail ``mail_id``: it is ``undelivered``, with ``reason`` in
    ``last_error``, and never sent again.  False if it was marked so already.
    """
    done = tx.connection.execute(
        update(OUTBOX)
        .where(OUTBOX.c.id == mail_id, OUTBOX.c.status != UNDELIVERED)
        .values(
            status=UNDELIVERED,
            last_error=reason.replace("\x00", "\ufffd"),
            claimed_by=None,
            claimed_until=None,
        )
    )
    return done.rowcount == 1


def _mail(r: Any) -> StoredMail:
    return StoredMail(
        r.id,
        r.message_id,
        r.recipient,
        r.subject,
        r.body,
        dict(r.headers),
        r.status,
        r.attempts,
        r.inbound_id,
        r.game_id,
        r.private_body,
        r.token,
        r.recipient_key,
        r.kind,
        r.created_at,
        r.claimed_by,
        r.claimed_until,
        tuple(r.pictures or ()),
        tuple(r.attachments or ()),
    )


def count_since(
    tx: Tx, recipient: str, since: datetime, *, kinds: Iterable[str] | None = None
) -> int:
    """
    How many mails to ``recipient`` were written since ``since``: all, or of ``kinds``
    (a mail written before kinds existed counts as every kind).  Addresses are compared
    as written: handlers write them in lower case.
    """
    values: dict[str, Any] = {"recipient": recipient.strip().lower(), "since": since}
    if kinds is None:
        return int(tx.connection.execute(_SINCE, values).scalar_one())
    values["kinds"] = list(kinds)
    return int(tx.connection.execute(_SINCE_OF_KINDS, values).scalar_one())


def claim_due(
    tx: Tx,
    now: datetime,
    *,
    wall: datetime,
    claim: str | None = None,
    lease: timedelta = LEASE,
    skip: Collection[int] = (),
) -> StoredMail | None:
    """
    Take the oldest mail due at ``now`` (the store's clock) that nobody holds (no claim,
    or its lease over at ``wall``, real time) and that is not in ``skip`` (the mails the
    claiming sender works on already): its attempt counted, held under a new claim token
    (or ``claim``) until ``wall + lease``.  On PostgreSQL, rows another sender is
    claiming are skipped (``SKIP LOCKED``).
    """
    token = claim or new_claim()
    query = _DUE_SKIPPING if skip else _DUE
    if tx.dialect == "postgresql":
        query = query.with_for_update(skip_locked=True)
    values: dict[str, Any] = {"now": now, "wall": wall, "skip": list(skip)}
    while True:
        row = tx.connection.execute(query, values).first()
        if row is None:
            return None
        until = wall + lease
        claimed = tx.connection.execute(
            _TAKE,
            {"mail_id": row.id, "seen": row.attempts, "wall": wall, "claim_token": token,
             "until": until},
        )
        if claimed.rowcount == 1:
            return replace(_mail(row), attempts=row.attempts + 1, claim=token, claimed_until=until)


def any_due(
    store: EventStore, now: datetime, *, wall: datetime, skip: Collection[int] = ()
) -> bool:
    """
    Whether ``claim_due`` would find a mail, asked in a read: a sender with nothing to
    record looks first, so that finding nothing costs no write transaction (under load
    those queued for SQLite's one write lock behind the poller's, issue 28).  A mail
    that commits just after the answer brings the sender forward itself.
    """
    query = _DUE_SKIPPING if skip else _DUE
    with store.reading() as tx:
        row = tx.connection.execute(query, {"now": now, "wall": wall, "skip": list(skip)}).first()
    return row is not None


def claim_next(
    store: EventStore,
    now: datetime,
    *,
    wall: datetime,
    lease: timedelta = LEASE,
    skip: Collection[int] = (),
    sent: StoredMail | None = None,
) -> StoredMail | None:
    """
    ``claim_due`` in a transaction of its own: the sender's claim of its next mail.
    ``sent``: the mail the same worker has just sent, recorded as ``mark_sent`` does in
    that transaction (one commit a mail under load, not one to record it and one to
    claim the next; the record still holds only while its claim does).
    """
    with store.transaction() as tx:
        if sent is not None:
            _record_sent(tx, sent)
        return claim_due(tx, now, wall=wall, lease=lease, skip=skip)


def due_pictures(store: EventStore, now: datetime, *, wall: datetime) -> dict[int, list[Any]]:
    """
    The pictures of the mails due at ``now`` that nobody holds at ``wall``, by mail id:
    what the sender has drawn ahead before it claims them (``Sender.prepare_due``).
    """
    free = or_(OUTBOX.c.claimed_until.is_(None), OUTBOX.c.claimed_until <= wall)
    with store.reading() as tx:
        rows = tx.connection.execute(
            select(OUTBOX.c.id, OUTBOX.c.pictures).where(
                OUTBOX.c.status == PENDING,
                OUTBOX.c.next_attempt_at <= now,
                OUTBOX.c.pictures.is_not(None),
                free,
            )
        ).all()
    return {row.id: list(row.pictures) for row in rows if row.pictures}


def _held(mail: StoredMail) -> tuple[ColumnElement[bool], ...]:
    """The row, if ``mail``'s claim still holds it: the same token, not sent nor given up."""
    token = OUTBOX.c.claimed_by
    return (
        OUTBOX.c.id == mail.id,
        OUTBOX.c.status == PENDING,
        token.is_(None) if mail.claim is None else token == mail.claim,
    )


def renew(
    store: EventStore,
    mail: StoredMail,
    *,
    wall: datetime | Callable[[], datetime],
    lease: timedelta = LEASE,
) -> datetime | None:
    """
    Extend the lease on ``mail`` to ``wall + lease``, if its claim still holds it;
    returns the lease's new end, or None (another sender took it over, or it was
    recorded).  ``wall`` may be a clock: it is read once the transaction has begun, so
    a renewal that waited for the database's lock is measured from when it is written.
    """
    with store.transaction() as tx:
        until = (wall() if callable(wall) else wall) + lease
        done = tx.connection.execute(
            update(OUTBOX).where(*_held(mail)).values(claimed_until=until)
        )
    return until if done.rowcount == 1 else None


def lease_ends(store: EventStore, wall: datetime) -> datetime | None:
    """When the first lease still running at ``wall`` ends (None: no mail is held)."""
    with store.reading() as tx:
        first: datetime | None = tx.connection.execute(
            select(func.min(OUTBOX.c.claimed_until)).where(
                OUTBOX.c.status == PENDING, OUTBOX.c.claimed_until > wall
            )
        ).scalar_one()
    return first


def mark_sent(store: EventStore, mail: StoredMail) -> bool:
    """
    The server took the mail: it is never sent again.  Recorded only while ``mail``'s
    claim still holds the row; returns whether it was (False: another sender had taken
    the mail over, which will send it again, under the same Message-ID).
    """
    with store.transaction() as tx:
        return _record_sent(tx, mail)


def _record_sent(tx: Tx, mail: StoredMail) -> bool:
    done = tx.connection.execute(
        update(OUTBOX)
        .where(*_held(mail))
        .values(
            status=SENT,
            sent_at=tx.now(),
            last_error=None,
            claimed_by=None,
            claimed_until=None,
        )
    )
    if done.rowcount != 1:
        log.info("mail %d: sent, but its claim had been taken over; not recorded", mail.id)
        return False
    return True


def mark_failed(
    store: EventStore,
    mail: StoredMail,
    error: str,
    *,
    give_up: bool = False,
    retry_at: datetime | None = None,
    max_attempts: int = MAX_ATTEMPTS,
) -> bool:
    """
    Sending ``mail`` failed: it is tried again at ``retry_at`` (default: after
    ``backoff``), unless ``give_up`` (a permanent refusal) or its attempts are spent.
    Returns True when it was given up.  Nothing is recorded if ``mail``'s claim no
    longer holds the row (another sender has it now).
    """
    gave_up = give_up or mail.attempts >= max_attempts
    with store.transaction() as tx:
        done = tx.connection.execute(
            update(OUTBOX)
            .where(*_held(mail))
            .values(
                status=FAILED if gave_up else PENDING,
                next_attempt_at=retry_at or tx.now() + backoff(mail.attempts),
                last_error=error,
                claimed_by=None,
                claimed_until=None,
            )
        )
    if done.rowcount != 1:
        log.info("mail %d: failed (%s), but its claim had been taken over", mail.id, error)
        return False
    return gave_up


def deliver(
    store: EventStore,
    send: Callable[[StoredMail], None],
    *,
    wall: Callable[[], datetime],
    limit: int = 100,
    max_attempts: int = MAX_ATTEMPTS,
) -> tuple[int, int]:
    """
    Send due mails with ``send`` (which raises if the mail could not be handed on);
    returns (sent, failed this round); ``wall`` tells the real time of the leases.  Nothing renews the leases here, so ``send``
    must take well under ``LEASE``; the service's sender (``moderator.runtime.sender``)
    renews them while it signs and sends.
    """
    sent = failed = 0
    for _ in range(limit):
        with store.transaction() as tx:
            mail = claim_due(tx, tx.now(), wall=wall())
        if mail is None:
            break
        try:
            send(mail)
        except Exception as exc:  # noqa: BLE001 - any failure to send is recorded and retried
            mark_failed(store, mail, str(exc) or type(exc).__name__, max_attempts=max_attempts)
            failed += 1
            continue
        mark_sent(store, mail)
        sent += 1
    return sent, failed
