"""
Seals: digests of what authenticated a mail that was acted on, so that it counts once.

A seal is written in the mail's own transaction (``moderator.store.inbox``), with the
events and outbox rows the mail caused: either all of it is stored or none.  The
digest is the primary key, so two workers racing with two copies of one signed text
cannot both win: the loser's insert fails, its transaction is decided again, and the
second decision sees the seal.  ``Seal`` and ``UsedSeal`` are the ports'
(``moderator.ports.writes``).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import bindparam, delete, insert, select
from sqlalchemy.exc import IntegrityError

from moderator.ports.writes import Seal, UsedSeal
from moderator.store.errors import ConflictError
from moderator.store.eventstore import EventStore, Tx
from moderator.store.tables import USED_SEAL

#: Built once (every mail asks): see ``store.players``.
_USED = select(USED_SEAL.c.used_at, USED_SEAL.c.inbound_id).where(
    USED_SEAL.c.digest == bindparam("digest")
)

__all__ = ["prune", "prune_store", "record", "used"]


def used(tx: Tx, digest: str) -> UsedSeal | None:
    """The earlier use of ``digest``, if any."""
    row = tx.connection.execute(_USED, {"digest": digest}).first()
    return None if row is None else UsedSeal(row.used_at, row.inbound_id)


def record(tx: Tx, seal: Seal, inbound_id: int | None) -> None:
    """
    Keep ``seal`` as used now by ``inbound_id``.

    Raises:
        ConflictError: another transaction kept the same digest first; the whole
            transaction is rolled back and the mail decided again.
    """
    try:
        tx.connection.execute(
            insert(USED_SEAL).values(
                digest=seal.digest,
                kind=seal.kind,
                used_at=tx.now(),
                expires_at=seal.expires_at,
                inbound_id=inbound_id,
            )
        )
    except IntegrityError as exc:
        msg = f"the seal {seal.digest[:12]}... was used by another mail meanwhile"
        raise ConflictError(msg) from exc


def prune(tx: Tx, now: datetime) -> int:
    """Drop the seals whose ``expires_at`` has passed; returns how many."""
    result = tx.connection.execute(
        delete(USED_SEAL).where(USED_SEAL.c.expires_at.is_not(None), USED_SEAL.c.expires_at < now)
    )
    return int(result.rowcount or 0)


def prune_store(store: EventStore, now: datetime) -> int:
    """``prune`` in a transaction of its own (the service runs it with the deadline checks)."""
    with store.transaction() as tx:
        return prune(tx, now)
