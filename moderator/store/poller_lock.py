"""
One poller per mailbox: the ``poller_lock`` row of a mailbox names the running
``serve`` that reads it with this database (an owner id new with every start, its host
and process id, when it started, its last heartbeat).

``acquire`` takes the row at start-up, or refuses with ``MailboxBusyError`` (whose text
says who holds it) while another service's heartbeat is fresh; ``beat`` renews the
heartbeat while the service runs (returning False if the row was taken over meanwhile:
this service was thought dead and must stop reading); ``release`` gives the row up at a
clean stop.  A row whose heartbeat is older than ``STALE`` belongs to a service that
died without releasing it, and ``acquire`` takes it over, so a crash never blocks a
restart for longer than that.

Times are real time (``wall``), not the store's clock, which may run fast.
"""

from __future__ import annotations

import os
import socket
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Row, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from moderator.store.errors import StoreError
from moderator.store.eventstore import EventStore
from moderator.store.tables import POLLER_LOCK

#: How often a running service renews its heartbeat.
BEAT_EVERY = timedelta(seconds=30)
#: A heartbeat older than this is a dead service's: its lock may be taken over.
STALE = timedelta(minutes=2)

__all__ = [
    "BEAT_EVERY",
    "STALE",
    "Holder",
    "MailboxBusyError",
    "acquire",
    "beat",
    "holder",
    "mailbox_key",
    "new_owner",
    "release",
]


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds a mailbox's lock."""

    mailbox: str
    owner: str
    host: str
    pid: int
    started_at: datetime
    heartbeat_at: datetime


class MailboxBusyError(StoreError):
    """Another running service reads the mailbox with this database."""

    def __init__(self, holder: Holder, now: datetime, stale: timedelta = STALE) -> None:
        self.holder = holder
        self.now = now
        self.stale = stale
        super().__init__(str(self))

    def __str__(self) -> str:
        h = self.holder
        seen = max(0, int((self.now - h.heartbeat_at).total_seconds()))
        minutes = int(self.stale.total_seconds() // 60)
        return (
            f"another moderator (pid {h.pid} on host {h.host}, since "
            f"{h.started_at:%Y-%m-%d %H:%M} UTC, last heard from {seen} s ago) is already "
            f"reading {h.mailbox} with this database; stop it first, or run "
            "`titan-moderator worker` to only process mail (if that moderator "
            f"has died, its lock lapses {minutes} minutes after its last heartbeat)"
        )


def mailbox_key(user: str, host: str, port: int, folder: str) -> str:
    """The lock's name for a mailbox: ``imap://user@host:port/folder``."""
    return f"imap://{user.lower()}@{host.lower()}:{port}/{folder}"


def new_owner() -> str:
    """An owner id for one run of a service."""
    return uuid.uuid4().hex


def wall_clock() -> datetime:
    return datetime.now(UTC)


def holder(store: EventStore, mailbox: str) -> Holder | None:
    """Who holds ``mailbox``'s lock (None: nobody)."""
    with store.reading() as tx:
        row = tx.connection.execute(
            select(POLLER_LOCK).where(POLLER_LOCK.c.mailbox == mailbox)
        ).first()
    return None if row is None else _holder(row)


def _holder(row: Row[Any]) -> Holder:
    return Holder(row.mailbox, row.owner, row.host, row.pid, row.started_at, row.heartbeat_at)


def acquire(
    store: EventStore,
    mailbox: str,
    owner: str,
    *,
    now: datetime | None = None,
    stale: timedelta = STALE,
    host: str | None = None,
    pid: int | None = None,
) -> Holder | None:
    """
    Take ``mailbox``'s lock for ``owner``; returns the dead holder it was taken over
    from (None: it was free, or already ``owner``'s).

    Raises:
        MailboxBusyError: another owner's heartbeat is younger than ``stale``.
    """
    now = now or wall_clock()
    values = {
        "owner": owner,
        "host": host or socket.gethostname(),
        "pid": os.getpid() if pid is None else pid,
        "started_at": now,
        "heartbeat_at": now,
    }
    for _ in range(3):
        try:
            with store.transaction() as tx:
                query = select(POLLER_LOCK).where(POLLER_LOCK.c.mailbox == mailbox)
                if tx.dialect == "postgresql":
                    query = query.with_for_update()
                row = tx.connection.execute(query).first()
                if row is None:
                    tx.connection.execute(insert(POLLER_LOCK).values(mailbox=mailbox, **values))
                    return None
                found = _holder(row)
                if found.owner != owner and now - found.heartbeat_at < stale:
                    raise MailboxBusyError(found, now, stale)
                taken = tx.connection.execute(
                    update(POLLER_LOCK)
                    .where(
                        POLLER_LOCK.c.mailbox == mailbox,
                        POLLER_LOCK.c.owner == found.owner,
                        POLLER_LOCK.c.heartbeat_at == found.heartbeat_at,
                    )
                    .values(**values)
                )
                if taken.rowcount == 1:
                    return None if found.owner == owner else found
        except IntegrityError:
            pass  # another service inserted the row first: look again
    last = holder(store, mailbox)
    if last is not None and last.owner != owner:
        raise MailboxBusyError(last, now, stale)
    msg = f"the lock on {mailbox} could not be taken"
    raise StoreError(msg)


def beat(store: EventStore, mailbox: str, owner: str, *, now: datetime | None = None) -> bool:
    """Renew ``owner``'s heartbeat; False if the lock is no longer his (taken over)."""
    with store.transaction() as tx:
        done = tx.connection.execute(
            update(POLLER_LOCK)
            .where(POLLER_LOCK.c.mailbox == mailbox, POLLER_LOCK.c.owner == owner)
            .values(heartbeat_at=now or wall_clock())
        )
    return done.rowcount == 1


def release(store: EventStore, mailbox: str, owner: str) -> bool:
    """Give the lock up, if it is still ``owner``'s; returns whether it was."""
    with store.transaction() as tx:
        done = tx.connection.execute(
            delete(POLLER_LOCK).where(
                POLLER_LOCK.c.mailbox == mailbox, POLLER_LOCK.c.owner == owner
            )
        )
    return done.rowcount == 1
