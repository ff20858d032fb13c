"""
After a crash, the mailbox's lock (``moderator.store.poller_lock``) is taken over at once
on the host where the dead service ran, because its process is gone; a holder whose
process still runs, or that ran on another host, keeps it until its heartbeat is stale.
On SQLite and PostgreSQL.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from moderator.clock import SystemClock
from moderator.store import EventStore, poller_lock
from moderator.store.poller_lock import MailboxBusyError
from moderator.testing.stores import open_store

BOX = "imap://titan@example.org@imap.example.org:993/INBOX"
HERE = socket.gethostname()


@pytest.fixture
def store(db_url: str) -> Iterator[EventStore]:
    with open_store(db_url) as opened:
        yield opened


def dead_pid() -> int:
    """The id of a process that has ended (and been reaped)."""
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


@pytest.fixture
def sleeper() -> Iterator[subprocess.Popen[bytes]]:
    """A process that lives through the test (and whose command names no moderator)."""
    process = subprocess.Popen(["sleep", "60"])
    try:
        yield process
    finally:
        process.kill()
        process.wait()


def test_a_lock_whose_process_on_this_host_is_gone_is_taken_over_at_once(
    store: EventStore,
) -> None:
    gone = dead_pid()
    now = SystemClock().now()
    poller_lock.acquire(store, BOX, "crashed", host=HERE, pid=gone, now=now)
    # Its heartbeat is a second old: no waiting for STALE.
    dead = poller_lock.acquire(store, BOX, "restarted", now=now + timedelta(seconds=1))
    assert dead is not None and dead.owner == "crashed" and dead.pid == gone
    holder = poller_lock.holder(store, BOX)
    assert holder is not None and holder.owner == "restarted" and holder.pid == os.getpid()
    assert poller_lock.release(store, BOX, "restarted")


def test_a_lock_whose_process_still_runs_on_this_host_waits_for_its_heartbeat(
    store: EventStore, sleeper: subprocess.Popen[bytes]
) -> None:
    time.sleep(0.05)  # the holder took the lock after its process started
    now = SystemClock().now()
    poller_lock.acquire(store, BOX, "running", host=HERE, pid=sleeper.pid, now=now)
    with pytest.raises(MailboxBusyError, match=f"pid {sleeper.pid} on host "):
        poller_lock.acquire(store, BOX, "second", now=now + timedelta(seconds=1))
    # A heartbeat older than STALE is taken for death, process or not (a hung service).
    dead = poller_lock.acquire(store, BOX, "second", now=now + poller_lock.STALE)
    assert dead is not None and dead.owner == "running"


def test_a_lock_from_another_host_waits_until_its_heartbeat_is_stale(store: EventStore) -> None:
    gone = dead_pid()  # no such process here; it says nothing of the other host's
    now = SystemClock().now()
    poller_lock.acquire(store, BOX, "there", host="elsewhere.example", pid=gone, now=now)
    almost = now + poller_lock.STALE - timedelta(seconds=1)
    with pytest.raises(MailboxBusyError, match=r"on host elsewhere\.example"):
        poller_lock.acquire(store, BOX, "here", now=almost)
    dead = poller_lock.acquire(store, BOX, "here", now=now + poller_lock.STALE)
    assert dead is not None and dead.owner == "there"


def test_our_own_pid_under_another_owner_is_an_earlier_process_and_is_taken_over(
    store: EventStore,
) -> None:
    """A container started again gives its service the process id it had before."""
    now = SystemClock().now()
    poller_lock.acquire(store, BOX, "before-restart", host=HERE, pid=os.getpid(), now=now)
    dead = poller_lock.acquire(store, BOX, "after-restart", now=now + timedelta(seconds=1))
    assert dead is not None and dead.owner == "before-restart"


def test_a_lock_taken_by_this_process_and_still_held_is_not_taken_over(
    store: EventStore,
) -> None:
    """Two services in one process (the demo, tests): the first still runs."""
    poller_lock.acquire(store, BOX, "first", now=SystemClock().now())
    with pytest.raises(MailboxBusyError, match=f"pid {os.getpid()} on host "):
        poller_lock.acquire(store, BOX, "second", now=SystemClock().now())
    assert poller_lock.release(store, BOX, "first")
    assert poller_lock.acquire(store, BOX, "second", now=SystemClock().now()) is None
    assert poller_lock.release(store, BOX, "second")


def test_a_reused_process_id_is_not_the_holder(
    store: EventStore, sleeper: subprocess.Popen[bytes]
) -> None:
    """The holder's id went to a process started after the lock was taken: gone."""
    if not Path(f"/proc/{sleeper.pid}/stat").exists():
        pytest.skip("process start times are read from Linux's /proc")
    long_ago = SystemClock().now() - timedelta(minutes=1)
    poller_lock.acquire(store, BOX, "crashed", host=HERE, pid=sleeper.pid, now=long_ago)
    holder = poller_lock.holder(store, BOX)
    assert holder is not None
    assert poller_lock.holder_gone(holder)
    # The same, with a heartbeat that is still fresh: taken over at once.
    poller_lock.beat(store, BOX, "crashed", now=SystemClock().now())
    dead = poller_lock.acquire(store, BOX, "restarted", now=SystemClock().now())
    assert dead is not None and dead.owner == "crashed"


def test_a_moderator_started_after_the_lock_is_still_taken_for_its_holder(
    store: EventStore, tmp_path: Path
) -> None:
    """A wall clock set forward makes the true holder look late; it names the moderator."""
    if not Path("/proc/self/stat").exists():
        pytest.skip("process start times are read from Linux's /proc")
    script = tmp_path / "moderator_like.py"
    script.write_text("import time\ntime.sleep(60)\n")
    process = subprocess.Popen([sys.executable, str(script)])
    try:
        long_ago = SystemClock().now() - timedelta(minutes=1)
        poller_lock.acquire(store, BOX, "alive", host=HERE, pid=process.pid, now=long_ago)
        poller_lock.beat(store, BOX, "alive", now=SystemClock().now())
        with pytest.raises(MailboxBusyError):
            poller_lock.acquire(store, BOX, "second", now=SystemClock().now())
    finally:
        process.kill()
        process.wait()

