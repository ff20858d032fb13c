"""
One poller per mailbox: the ``poller_lock`` row of a mailbox names the running
``serve`` that reads it with this database (an owner id new with every start, its host
and process id, when it started, its last heartbeat).

``acquire`` takes the row at start-up, or refuses with ``MailboxBusyError`` (whose text
says who holds it) while another service may still run; ``beat`` renews the heartbeat
while the service runs (returning False if the row was taken over meanwhile: this
service was thought dead and must stop reading); ``release`` gives the row up at a
clean stop.

A service that died without releasing the row (``kill -9``, a crash, a power cut) is
recognised two ways:

* on the host it ran on, at once: its process is gone (``holder_gone``), so a restart
  after a crash takes the row over in the time it takes to start;
* from another host, whose process table we cannot see, only by its silence: a
  heartbeat older than ``STALE``.

Times are real time (``wall``), not the store's clock, which may run fast.
"""

from __future__ import annotations

import os
import socket
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import Row, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from moderator.records import record
from moderator.store.errors import StoreError
from moderator.store.eventstore import EventStore
from moderator.store.tables import POLLER_LOCK

#: How often a running service renews its heartbeat.
BEAT_EVERY = timedelta(seconds=30)
#: A heartbeat older than this is a dead service's: its lock may be taken over.
STALE = timedelta(minutes=2)
#: A process that started this long after the lock was taken is not its holder (the
#: holder's id was given to another process); the slack covers the boot time's rounding.
REUSED_AFTER = timedelta(seconds=2)

#: The owners whose locks this process took (``acquire`` without ``pid``) and still
#: holds: another owner recorded under our own process id ran in an earlier process that
#: had the same id (a container started again), and is gone.
_ours: set[str] = set()

__all__ = [
    "BEAT_EVERY",
    "STALE",
    "Holder",
    "MailboxBusyError",
    "acquire",
    "beat",
    "holder",
    "holder_gone",
    "mailbox_key",
    "new_owner",
    "release",
]


@record
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
    now: datetime,
    stale: timedelta = STALE,
    host: str | None = None,
    pid: int | None = None,
) -> Holder | None:
    """
    Take ``mailbox``'s lock for ``owner``; returns the dead holder it was taken over
    from (None: it was free, or already ``owner``'s).  ``host`` and ``pid`` record
    another process than this one (tests).

    Raises:
        MailboxBusyError: another owner's heartbeat is younger than ``stale`` and its
            process is not known to be gone (``holder_gone``).
    """
    here = host or socket.gethostname()
    values = {
        "owner": owner,
        "host": here,
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
                dead = None
                if row is None:
                    tx.connection.execute(insert(POLLER_LOCK).values(mailbox=mailbox, **values))
                    won = True
                else:
                    found = _holder(row)
                    fresh = now - found.heartbeat_at < stale
                    if found.owner != owner and fresh and not holder_gone(found, here):
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
                    won = taken.rowcount == 1
                    dead = None if found.owner == owner else found
        except IntegrityError:
            continue  # another service inserted the row first: look again
        if won:
            if pid is None:
                _ours.add(owner)
            if dead is not None:
                _ours.discard(dead.owner)
            return dead
    last = holder(store, mailbox)
    if last is not None and last.owner != owner:
        raise MailboxBusyError(last, now, stale)
    msg = f"the lock on {mailbox} could not be taken"
    raise StoreError(msg)


def beat(store: EventStore, mailbox: str, owner: str, *, now: datetime) -> bool:
    """Renew ``owner``'s heartbeat; False if the lock is no longer his (taken over)."""
    with store.transaction() as tx:
        done = tx.connection.execute(
            update(POLLER_LOCK)
            .where(POLLER_LOCK.c.mailbox == mailbox, POLLER_LOCK.c.owner == owner)
            .values(heartbeat_at=now)
        )
    if done.rowcount != 1:
        _ours.discard(owner)
    return done.rowcount == 1


def release(store: EventStore, mailbox: str, owner: str) -> bool:
    """Give the lock up, if it is still ``owner``'s; returns whether it was."""
    with store.transaction() as tx:
        done = tx.connection.execute(
            delete(POLLER_LOCK).where(
                POLLER_LOCK.c.mailbox == mailbox, POLLER_LOCK.c.owner == owner
            )
        )
    _ours.discard(owner)
    return done.rowcount == 1


# -- is the holder's process gone? --------------------------------------------------------


def holder_gone(found: Holder, host: str | None = None) -> bool:
    """
    Whether ``found`` certainly runs no more: it ran on this host (``host``, by default
    ours) and its process is gone.  Anything less certain is False, and the heartbeat
    decides: a holder on another host, a process we may not look at.

    On this host the holder's process id is gone when no process has it (or only a
    zombie), when it is our own id but the owner is not one of ours (an earlier process
    with our id: a container started again), or when the process that has it now
    started after the lock was taken (the id was reused) and is no moderator (a clock
    set forward could make the true holder look late; its command line still names
    the moderator).  The last two read Linux's ``/proc``; elsewhere an id in use is
    taken to be the holder's.
    """
    if found.host != (host or socket.gethostname()) or found.pid <= 0:
        return False
    if found.pid == os.getpid():
        return found.owner not in _ours
    try:
        os.kill(found.pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False  # it exists, but is not ours to look at
    seen = _proc_stat(found.pid)
    if seen is None:
        return False
    state, started = seen
    if state in ("Z", "X"):
        return True
    return started > found.started_at + REUSED_AFTER and not _names_moderator(found.pid)


def _proc_stat(pid: int) -> tuple[str, datetime] | None:
    """(state letter, start time) of a process from ``/proc`` (None: not readable)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        boot = next(
            int(line.split()[1])
            for line in Path("/proc/stat").read_text().splitlines()
            if line.startswith("btime ")
        )
        fields = stat[stat.rindex(")") + 2 :].split()
        ticks = int(fields[19])  # field 22 of proc(5): the start, in clock ticks after boot
        per_second = os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return None
    return fields[0], datetime.fromtimestamp(boot + ticks / per_second, UTC)


def _names_moderator(pid: int) -> bool:
    try:
        return b"moderator" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return True  # unknown: take it for the holder
