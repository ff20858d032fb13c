"""
One poller per mailbox: a second service reading the same mailbox with the same
database refuses to start and says who holds it; the lock is released at a clean stop,
kept alive by a heartbeat, taken over once its heartbeat is stale, and a service that
finds it taken over stops.  ``serve`` says what it reads when it starts and when it stops.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import sys
from contextlib import ExitStack
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import update

from moderator.clock import SystemClock
from moderator.runtime.bootstrap import bootstrap
from moderator.runtime.config import Config
from moderator.runtime.service import Service
from moderator.store import EventStore, poller_lock
from moderator.store.poller_lock import MailboxBusyError
from moderator.store.tables import POLLER_LOCK
from moderator.testing.hub import MailHub
from moderator.testing.stores import open_store, sqlite_url

from ..gpgparties import make_party
from ..mail.dovecot import DovecotMailSystem, TemporaryDovecot
from .loopback import loopback_config
from .test_serve import write_config

MODERATOR = "moderator@titan.example"
RUNTIME = "moderator.runtime.service"


def config(hub: MailHub, db: str, *, user: str = MODERATOR) -> Config:
    return loopback_config(hub, db, user=user)


@pytest.fixture
def db(tmp_path: Path) -> str:
    return sqlite_url(tmp_path, "games.sqlite")


def mailbox(hub: MailHub, user: str = MODERATOR) -> str:
    return f"imap://{user}@{hub.host}:{hub.imap_port}/INBOX"


def test_the_lock_on_each_database(any_store: EventStore) -> None:
    """The lock's rules, on SQLite and PostgreSQL."""
    box = "imap://titan@example.org@imap.example.org:993/INBOX"
    now = SystemClock().now()
    minute = timedelta(minutes=1)
    assert poller_lock.acquire(any_store, box, "a", host="one", pid=1, now=now) is None
    assert poller_lock.acquire(any_store, box, "a", host="one", pid=1, now=now) is None
    with pytest.raises(MailboxBusyError) as busy:
        poller_lock.acquire(any_store, box, "b", host="two", pid=2, now=now + minute)
    assert str(busy.value).startswith(
        f"another moderator (pid 1 on host one, since {now:%Y-%m-%d %H:%M} UTC, last heard "
        f"from 60 s ago) is already reading {box} with this database; stop it first"
    )
    assert poller_lock.beat(any_store, box, "a", now=now + minute)
    assert not poller_lock.beat(any_store, box, "b", now=now + minute)
    with pytest.raises(MailboxBusyError):
        poller_lock.acquire(any_store, box, "b", now=now + minute + poller_lock.STALE / 2)
    other = box.replace("/INBOX", "/Other")  # another mailbox is another lock
    assert poller_lock.acquire(any_store, other, "b", now=now) is None
    assert poller_lock.release(any_store, other, "b")
    later = now + minute + poller_lock.STALE
    dead = poller_lock.acquire(any_store, box, "b", host="two", pid=2, now=later)
    assert dead is not None and dead.owner == "a" and dead.pid == 1
    assert not poller_lock.beat(any_store, box, "a", now=later)  # a wakes up: it is not his any more
    assert not poller_lock.release(any_store, box, "a")
    holder = poller_lock.holder(any_store, box)
    assert holder is not None and holder.owner == "b" and holder.started_at == later
    assert poller_lock.release(any_store, box, "b")
    assert poller_lock.holder(any_store, box) is None


def test_a_second_service_on_the_same_mailbox_and_database_refuses_to_start(
    db: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=RUNTIME)
    port = [0]

    async def scenario() -> None:
        async with MailHub() as hub:
            port[0] = hub.imap_port
            hub.add_user(MODERATOR, "pw")
            hub.add_user("other@titan.example", "pw")
            first = Service(bootstrap(config(hub, db)))
            await first.start()
            try:
                second = Service(bootstrap(config(hub, db)))
                with pytest.raises(MailboxBusyError) as refused:
                    await second.run(asyncio.Event())
                assert str(refused.value).startswith(
                    f"another moderator (pid {os.getpid()} on host {socket.gethostname()}, "
                    "since "
                )
                assert (
                    f"is already reading {mailbox(hub)} with this database; stop it first"
                    in str(refused.value)
                )
                # Another mailbox with the same database is another poller's business.
                elsewhere = Service(bootstrap(config(hub, db, user="other@titan.example")))
                await elsewhere.start()
                await elsewhere.stop()
            finally:
                await first.stop()
            # Stopped cleanly, the first gave the mailbox up: a new service may start.
            again = Service(bootstrap(config(hub, db)))
            await again.start()
            holder = poller_lock.holder(again.store, again.mailbox)
            assert holder is not None and holder.owner == again.owner
            await again.stop()
            with open_store(db) as store:
                assert poller_lock.holder(store, mailbox(hub)) is None

    asyncio.run(scenario())
    said = [r.getMessage() for r in caplog.records if r.name == RUNTIME]
    starts = [line for line in said if line.startswith("serving ")]
    stops = [line for line in said if line.startswith("stopped serving ")]
    assert len(starts) == 3 and len(stops) == 3  # the refused one neither started nor stopped
    assert starts[0].startswith(f"serving {MODERATOR}: reading imap://{MODERATOR}@127.0.0.1:")
    assert f"with database {db}" in starts[0]
    assert "jobs: poll every 3600 s, send every 3600 s, deadlines every 3600 s" in starts[0]
    assert f"(pid {os.getpid()})" in starts[0]
    assert stops[-1].startswith(f"stopped serving {MODERATOR} after 0:00:")
    assert stops[-1].endswith(f"{MODERATOR}@127.0.0.1:{port[0]}/INBOX released")


def test_a_stale_lock_is_taken_over_and_a_fresh_one_is_not(
    db: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=RUNTIME)

    async def scenario() -> None:
        async with MailHub() as hub:
            hub.add_user(MODERATOR, "pw")
            now = SystemClock().now()
            with open_store(db) as store:
                # A service on another machine that was heard from a minute ago ...
                poller_lock.acquire(store, mailbox(hub), "alive", host="elsewhere.example",
                                    pid=4242, now=now - timedelta(minutes=1))
            with pytest.raises(MailboxBusyError, match=r"pid 4242 on host elsewhere\.example"):
                await Service(bootstrap(config(hub, db))).run(asyncio.Event())
            with open_store(db) as store:
                # ... and one that has not beaten for longer than STALE: it died.
                store_row = update(POLLER_LOCK).values(
                    heartbeat_at=now - poller_lock.STALE - timedelta(seconds=1)
                )
                with store.transaction() as tx:
                    tx.connection.execute(store_row)
            service = Service(bootstrap(config(hub, db)))
            await service.start()
            try:
                holder = poller_lock.holder(service.store, service.mailbox)
                assert holder is not None
                assert holder.owner == service.owner and holder.pid == os.getpid()
            finally:
                await service.stop()

    asyncio.run(scenario())
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("pid 4242 on host elsewhere.example" in w and "taken over" in w
               for w in warnings), warnings


def test_the_heartbeat_keeps_the_lock_and_a_service_that_lost_it_stops(
    db: str, caplog: pytest.LogCaptureFixture
) -> None:
    async def scenario() -> None:
        async with MailHub() as hub:
            hub.add_user(MODERATOR, "pw")
            service = Service(bootstrap(config(hub, db)))
            service.beat_every = timedelta(seconds=0.2)
            running = asyncio.create_task(service.run(asyncio.Event()))
            try:
                await asyncio.sleep(0.3)
                first = poller_lock.holder(service.store, service.mailbox)
                assert first is not None
                await asyncio.sleep(0.6)
                later = poller_lock.holder(service.store, service.mailbox)
                assert later is not None and later.heartbeat_at > first.heartbeat_at
                assert later.started_at == first.started_at
                # Taken for dead (say, the machine stalled) and taken over meanwhile:
                with service.store.transaction() as tx:
                    tx.connection.execute(update(POLLER_LOCK).values(owner="usurper"))
                async with asyncio.timeout(5):
                    await running  # it stops by itself
            finally:
                running.cancel()
            assert service.lost.is_set()
            with open_store(db) as store:  # and leaves the usurper's lock alone
                holder = poller_lock.holder(store, mailbox(hub))
            assert holder is not None and holder.owner == "usurper"

    asyncio.run(scenario())
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert any("is no longer ours" in e for e in errors), errors


@pytest.mark.long
def test_a_second_serve_process_refuses_to_start(
    tmp_path: Path, dovecot: TemporaryDovecot
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TITAN_")}
    path = tmp_path / "config.toml"

    async def serve() -> asyncio.subprocess.Process:
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "moderator", "serve", "--config", str(path),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, env=env,
        )

    async def scenario() -> tuple[int, str, int, str, int]:
        async with DovecotMailSystem(dovecot) as mail:
            mail.add_user("titan@moderator.test", "moderator-secret")
            write_config(path, mail, moderator, tmp_path / "games.sqlite")
            first = await serve()
            try:
                assert first.stdout is not None
                said: list[str] = []
                async with asyncio.timeout(60):
                    while not any(" serving " in line for line in said):
                        line = (await first.stdout.readline()).decode()
                        assert line, "".join(said)
                        said.append(line)
                second = await serve()
                async with asyncio.timeout(60):
                    out, _ = await second.communicate()
            finally:
                first.send_signal(signal.SIGTERM)
                async with asyncio.timeout(30):
                    rest, _ = await first.communicate()
            return (
                second.returncode or 0,
                out.decode(),
                first.returncode or 0,
                "".join(said) + rest.decode(),
                first.pid,
            )

    with ExitStack() as stack:
        moderator = make_party(stack, "Moderator", "titan@moderator.test")
        code, out, first_code, first_out, first_pid = asyncio.run(scenario())
    assert code == 2, out
    assert f"another moderator (pid {first_pid} on host " in out, out
    assert "is already reading imap://titan@moderator.test@" in out, out
    assert "/INBOX with this database; stop it first" in out, out
    assert "serving titan@moderator.test: reading imap://titan@moderator.test@" in first_out
    assert "stopped serving titan@moderator.test after " in first_out, first_out
    assert first_code == 0, first_out
