"""
Inbound messages: archived as raw bytes before anything reads them (``receive``),
claimed one at a time (``claim``), their game held while they are decided
(``context``), set aside when they cannot be processed (``shunt``) and put back
once fixed (``requeue``).  What processing a message means is the service's:
``moderator.runners.mail.process_message`` claims, lets the handler decide and
writes the outcome through the unit of work, all in one transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from moderator.letters import notices
from moderator.ports.errors import GameNotFoundError, MessageNotFoundError
from moderator.ports.games import GameContext
from moderator.ports.mail import (
    PROCESSED,
    RECEIVED,
    REJECTED,
    SHUNTED,
    InboundMessage,
    OutgoingMail,
    body_hash,
    header_message_id,
)
from moderator.ports.writes import Work
from moderator.store import players
from moderator.store.eventstore import EventStore, Tx
from moderator.store.tables import INBOUND
from moderator.store.unit_of_work import write

__all__ = [
    "PROCESSED",
    "RECEIVED",
    "REJECTED",
    "SHUNTED",
    "SKIPPED",
    "GameBusyError",
    "body_hash",
    "claim",
    "context",
    "last_seen",
    "message",
    "messages",
    "pending_ids",
    "receive",
    "receive_all",
    "requeue",
    "shunt",
    "statuses",
    "waiting",
]


#: ``skipped``: another worker has the message or had it.
SKIPPED = "skipped"

# What every mail's claim and the poll read, built once (see ``store.eventstore``).
_MESSAGE = select(INBOUND).where(INBOUND.c.id == bindparam("inbound_id"))
_CLAIM = (
    update(INBOUND)
    .where(INBOUND.c.id == bindparam("inbound_id"), INBOUND.c.status == RECEIVED)
    .values(status=PROCESSED, processed_at=bindparam("now"))
)
_PENDING = (
    select(INBOUND.c.id)
    .where(INBOUND.c.status == RECEIVED)
    .order_by(INBOUND.c.id)
    .limit(bindparam("limit"))
)
_BY_UID = select(INBOUND.c.id).where(
    INBOUND.c.mailbox == bindparam("box"),
    INBOUND.c.uidvalidity == bindparam("validity"),
    INBOUND.c.uid == bindparam("number"),
)
_ARCHIVE = insert(INBOUND).returning(INBOUND.c.id)
_STATUSES = select(INBOUND.c.id, INBOUND.c.status).where(
    INBOUND.c.id.in_(bindparam("ids", expanding=True))
)


def _clean(text: str) -> str:
    """Text a database column takes (PostgreSQL refuses NUL characters)."""
    return text.replace("\x00", "\ufffd")


def receive(
    store: EventStore,
    raw: bytes,
    *,
    mailbox: str = "INBOX",
    uidvalidity: int | None = None,
    uid: int | None = None,
) -> int:
    """
    Archive a message as it came; returns its id.  The same mailbox UID (under the
    same UIDVALIDITY) is archived once: fetching it again returns the first id.
    """
    if uid is not None:
        existing = _by_uid(store, mailbox, uidvalidity, uid)
        if existing is not None:
            return existing
    try:
        with store.transaction() as tx:
            return _insert(tx, raw, mailbox, uidvalidity, uid)
    except IntegrityError:
        existing = _by_uid(store, mailbox, uidvalidity, uid)
        if existing is None:
            raise
        return existing


def receive_all(
    store: EventStore,
    messages: Sequence[tuple[int, bytes]],
    *,
    mailbox: str = "INBOX",
    uidvalidity: int | None = None,
) -> list[int]:
    """
    ``receive`` for the messages of one fetch (their UIDs and bytes), in one
    transaction; returns their ids in the same order.  A poll's mail is archived with
    one commit (one fsync on SQLite) rather than one each, and still before anything
    reads it.  Should another process archive one of the UIDs meanwhile, they are
    archived one at a time instead.
    """
    if not messages:
        return []
    try:
        with store.transaction() as tx:
            return [_archive(tx, raw, mailbox, uidvalidity, uid) for uid, raw in messages]
    except IntegrityError:
        return [
            receive(store, raw, mailbox=mailbox, uidvalidity=uidvalidity, uid=uid)
            for uid, raw in messages
        ]


def _archive(tx: Tx, raw: bytes, mailbox: str, uidvalidity: int | None, uid: int) -> int:
    """One message archived in ``tx`` (the id it has already, for a UID archived before)."""
    found = _id_of_uid(tx, mailbox, uidvalidity, uid)
    return found if found is not None else _insert(tx, raw, mailbox, uidvalidity, uid)


def _insert(tx: Tx, raw: bytes, mailbox: str, uidvalidity: int | None, uid: int | None) -> int:
    """The message added to the archive in ``tx``, received now; its new id."""
    result = tx.connection.execute(
        _ARCHIVE,
        {
            "mailbox": mailbox,
            "uidvalidity": uidvalidity,
            "uid": uid,
            "message_id": header_message_id(raw),
            "body_hash": body_hash(raw),
            "raw": raw,
            "status": RECEIVED,
            "received_at": tx.now(),
        },
    )
    return int(result.scalar_one())


def _id_of_uid(tx: Tx, mailbox: str, uidvalidity: int | None, uid: int | None) -> int | None:
    if uidvalidity is None or uid is None:  # compared with IS NULL: not the built statement
        query = select(INBOUND.c.id).where(
            INBOUND.c.mailbox == mailbox,
            INBOUND.c.uidvalidity == uidvalidity,
            INBOUND.c.uid == uid,
        )
        found = tx.connection.execute(query).first()
    else:
        found = tx.connection.execute(
            _BY_UID, {"box": mailbox, "validity": uidvalidity, "number": uid}
        ).first()
    return None if found is None else int(found[0])


def _by_uid(
    store: EventStore, mailbox: str, uidvalidity: int | None, uid: int | None
) -> int | None:
    with store.reading() as tx:
        return _id_of_uid(tx, mailbox, uidvalidity, uid)


def _message(row: Any) -> InboundMessage:
    return InboundMessage(
        row.id,
        bytes(row.raw),
        row.message_id,
        row.mailbox,
        row.uidvalidity,
        row.uid,
        row.status,
        row.game_id,
        row.error,
        row.received_at,
    )


def message(tx: Tx, message_id: int) -> InboundMessage:
    row = tx.connection.execute(_MESSAGE, {"inbound_id": message_id}).first()
    if row is None:
        msg = f"there is no inbound message {message_id!r}"
        raise MessageNotFoundError(msg)
    return _message(row)


def waiting(store: EventStore, message_id: int) -> InboundMessage | None:
    """
    The message if it still waits to be processed, read in a transaction of its own (the
    mail runner reads it ahead of its write transaction); None once it is taken.

    Raises:
        MessageNotFoundError: there is no such message.
    """
    with store.reading() as tx:
        found = message(tx, message_id)
    return found if found.status == RECEIVED else None


def messages(tx: Tx, status: str | None = None) -> list[InboundMessage]:
    query = select(INBOUND).order_by(INBOUND.c.id)
    if status is not None:
        query = query.where(INBOUND.c.status == status)
    return [_message(row) for row in tx.connection.execute(query)]


def claim(tx: Tx, message_id: int) -> InboundMessage | None:
    """
    Take a ``received`` message for processing in ``tx``; None if it is not there to
    take.  The claim is the status change itself (``received`` -> ``processed``, made
    final before commit); on PostgreSQL the row is first locked with ``SKIP LOCKED`` so
    that a second worker passes over it instead of waiting.
    """
    if tx.dialect == "postgresql":
        locked = tx.connection.execute(
            select(INBOUND.c.id).where(INBOUND.c.id == message_id).with_for_update(skip_locked=True)
        ).first()
        if locked is None:
            message(tx, message_id)  # raises if there is no such message at all
            return None
    claimed = tx.connection.execute(_CLAIM, {"inbound_id": message_id, "now": tx.now()})
    found = message(tx, message_id)
    return found if claimed.rowcount == 1 else None


class GameBusyError(Exception):
    """The message's game is held by another worker (try the message again later)."""


def context(tx: Tx, game_id: str) -> GameContext | None:
    """
    The game ``game_id`` as a handler sees it, its row held for the transaction; None
    if there is no such game.

    Raises:
        GameBusyError: another worker holds the game (PostgreSQL, ``SKIP LOCKED``).
    """
    try:
        row = tx.game(game_id, lock=True, skip_locked=True)
    except GameNotFoundError:
        return None
    if row is None:
        raise GameBusyError(game_id)
    loaded = tx.loaded(row)
    return GameContext(game_id, loaded.state, loaded.seq, loaded.record, players.seats(tx, game_id))


def shunt(store: EventStore, message_id: int, error: BaseException, gm: str | None) -> str:
    """
    Set the message aside with ``error`` for a person to look at, in a transaction of
    its own; a notice to ``gm`` if given.  ``skipped`` if another worker got to it.
    """
    text = _clean(f"{type(error).__name__}: {error}")
    with store.transaction() as tx:
        moved = tx.connection.execute(
            update(INBOUND)
            .where(INBOUND.c.id == message_id, INBOUND.c.status == RECEIVED)
            .values(status=SHUNTED, error=text, processed_at=tx.now())
        )
        if moved.rowcount != 1:
            return SKIPPED  # another worker got to it first
        if gm is not None:
            told = notices.shunted(message_id, text)
            notice = OutgoingMail(gm, told.subject, told.public)
            write(tx, Work(mails=(notice,)))  # not the message's reply: that may come later
    return SHUNTED


def requeue(store: EventStore, message_id: int) -> bool:
    """Put a shunted message back to ``received``; False if it was not shunted."""
    with store.transaction() as tx:
        message(tx, message_id)
        moved = tx.connection.execute(
            update(INBOUND)
            .where(INBOUND.c.id == message_id, INBOUND.c.status == SHUNTED)
            .values(status=RECEIVED, error=None, processed_at=None)
        )
        return moved.rowcount == 1


def last_seen(store: EventStore, mailbox: str) -> tuple[int | None, int | None]:
    """
    The newest UIDVALIDITY the store has mail under for ``mailbox``, and its top UID:
    where the poller's next fetch starts (None, None: nothing archived yet).
    """
    with store.reading() as tx:
        row = tx.connection.execute(
            select(INBOUND.c.uidvalidity, func.max(INBOUND.c.uid))
            .where(INBOUND.c.mailbox == mailbox, INBOUND.c.uid.is_not(None))
            .group_by(INBOUND.c.uidvalidity)
            .order_by(func.max(INBOUND.c.id).desc())
            .limit(1)
        ).first()
    if row is None:
        return None, None
    return row[0], row[1]


def statuses(store: EventStore, ids: Sequence[int]) -> dict[int, str]:
    """The state of each of the messages ``ids`` (the poller flags only those done)."""
    if not ids:
        return {}
    with store.reading() as tx:
        rows = tx.connection.execute(_STATUSES, {"ids": list(ids)})
        return {int(r.id): str(r.status) for r in rows}


def pending_ids(store: EventStore, limit: int = 100) -> list[int]:
    with store.reading() as tx:
        rows = tx.connection.execute(_PENDING, {"limit": limit})
        return [int(r[0]) for r in rows]
