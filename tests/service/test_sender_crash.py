"""
A sender that dies holding a mail does not stall it: the mail's lease is short and
renewed only while its sender works, so another sender (here a running ``Service``)
sends it within 30 seconds, under the same Message-ID; and a sender that lost its
claim can neither renew it nor record over the one that holds the mail now.

The dead sender holds its mail for a lease of ``DEAD_LEASE`` rather than the service's
``LEASE`` (20 s), so that the test does not sit out 20 seconds: the second sender learns
when the mail is free from the row's ``claimed_until``, whatever lease wrote it, and must
send it with the same room to spare, ``WITHIN - LEASE``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import timedelta
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from sqlalchemy import select as select_rows

from moderator.clock import SystemClock
from moderator.ports import OutgoingMail, StoredMail
from moderator.ports.mail import PENDING, SENT
from moderator.runtime.bootstrap import Overrides, bootstrap
from moderator.runtime.config import Config
from moderator.runtime.sender import Sender
from moderator.runtime.service import Service
from moderator.store import EventStore, outbox
from moderator.store.outbox import LEASE
from moderator.store.tables import OUTBOX
from moderator.testing.connections import imap_source_at, smtp_sink_at
from moderator.testing.hub import MailHub
from moderator.testing.stores import open_store

from .loopback import loopback_config

MODERATOR = "moderator@titan.example"
ANN = "ann@example.org"
#: What the issue asks: a dead sender's mail goes out from another within this.
WITHIN = 30.0
#: The dead sender's lease (the service's is ``LEASE``; see the module's text).
DEAD_LEASE = timedelta(seconds=5)
STUCK_SENDER = Path(__file__).with_name("stuck_sender.py")
REPO = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def black_hole() -> Iterator[socket.socket]:
    """A port that takes connections (in its backlog) and never says a word."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    try:
        yield sock
    finally:
        sock.close()


def one_mail(store: EventStore) -> str:
    """A report to Ann in the outbox; returns its Message-ID."""
    mail = OutgoingMail(ANN, "[titan] your report", "The report.\n", {"From": MODERATOR},
                        kind="report")
    with store.transaction() as tx:
        (message_id,) = outbox.add_mails(tx, [mail])
    return message_id


def row(store: EventStore) -> StoredMail:
    with store.reading() as tx:
        (found,) = outbox.mails(tx)
    return found


def service_config(hub: MailHub, url: str) -> Config:
    """Every job but by its own clock an hour away: only a lease's end brings ``send`` on."""
    return loopback_config(hub, url, user=MODERATOR)


@pytest.mark.long
def test_a_dead_senders_mail_goes_out_from_another_within_30_seconds(
    any_store: EventStore,
) -> None:
    message_id = one_mail(any_store)
    env = {k: v for k, v in os.environ.items() if not k.startswith("TITAN_")}
    env["PYTHONPATH"] = str(REPO)  # this tree's moderator, not an installed one
    with black_hole() as hole:
        host, port = hole.getsockname()
        dead = subprocess.Popen(
            [sys.executable, str(STUCK_SENDER), any_store.url, host, str(port),
             str(DEAD_LEASE.total_seconds())],
            env=env,
        )
        try:
            deadline = time.monotonic() + 60
            while (claimed := row(any_store)).claim is None:
                assert time.monotonic() < deadline, "the first sender never claimed the mail"
                assert dead.poll() is None, "the first sender ended"
                time.sleep(0.05)
            # The claim wrote ``claimed_until`` = the moment of the claim + its lease.
            assert claimed.claimed_until is not None
            claimed_at = claimed.claimed_until - DEAD_LEASE
            # It is in the SMTP transaction (connected, waiting for a greeting) ...
            readable, _, _ = select.select([hole], [], [], 20)
            assert readable, "the first sender never reached its SMTP server"
            time.sleep(0.5)
        finally:
            dead.send_signal(signal.SIGKILL)  # ... when it dies
            dead.wait(10)
    assert row(any_store).status == PENDING

    async def second_sender() -> tuple[float, list[bytes]]:
        async with MailHub() as hub:
            hub.add_user(MODERATOR, "pw")
            hub.add_user(ANN, "pw")
            with open_store(any_store.url) as store:  # the real clock
                service = Service(bootstrap(service_config(hub, any_store.url), Overrides(store=store)))
                await service.start()
                try:
                    async with asyncio.timeout(WITHIN + 20):
                        while row(store).status != SENT:
                            await asyncio.sleep(0.1)
                    took = (SystemClock().now() - claimed_at).total_seconds()
                finally:
                    await service.stop()
            source = imap_source_at(hub.host, hub.imap_port, ANN, "pw", tls=False)
            try:
                found = await source.fetch_new(None, None)
            finally:
                await source.close()
            return took, [raw for _uid, raw in found.messages]

    took, delivered = asyncio.run(second_sender())
    print(f"\nclaim of a dead sender (lease {DEAD_LEASE.seconds} s) to delivery by another: "
          f"{took:.1f} s")
    # The service's lease leaves the room; this one must be sent within as much.
    assert LEASE.total_seconds() < WITHIN
    assert DEAD_LEASE.total_seconds() < took < WITHIN - (LEASE - DEAD_LEASE).total_seconds()
    assert len(delivered) == 1
    mail = message_from_bytes(delivered[0], policy=policy.default)
    assert str(mail["Message-ID"]) == message_id
    sent = row(any_store)
    assert sent.status == SENT and sent.attempts == 2 and sent.claim is None
    assert sent.message_id == message_id


def test_a_sender_that_lost_its_claim_can_neither_renew_nor_record(
    any_store: EventStore,
) -> None:
    message_id = one_mail(any_store)
    wall = SystemClock().now()
    second = timedelta(seconds=1)
    with any_store.transaction() as tx:
        slow = outbox.claim_due(tx, tx.now(), wall=wall)
    assert slow is not None and slow.claim is not None
    with any_store.transaction() as tx:  # its lease holds others off ...
        assert outbox.claim_due(tx, tx.now(), wall=wall + LEASE - second) is None
    with any_store.transaction() as tx:  # ... until it runs out unrenewed
        fresh = outbox.claim_due(tx, tx.now(), wall=wall + LEASE)
    assert fresh is not None and fresh.claim is not None
    assert fresh.claim != slow.claim
    assert fresh.message_id == slow.message_id == message_id
    assert fresh.attempts == 2

    # The slow sender wakes up: it cannot take the mail back, nor record over it.
    assert not outbox.renew(any_store, slow, wall=wall + LEASE + second)
    assert not outbox.mark_failed(any_store, slow, "timed out", give_up=True)
    assert not outbox.mark_sent(any_store, slow)
    held = row(any_store)
    assert held.status == PENDING and held.claim == fresh.claim
    assert held.claimed_until == wall + 2 * LEASE and held.attempts == 2
    with any_store.reading() as tx:
        assert tx.connection.execute(select_rows(OUTBOX.c.last_error)).scalar_one() is None

    # The holder renews and records.
    assert outbox.renew(any_store, fresh, wall=wall + LEASE + 5 * second)
    assert row(any_store).claimed_until == wall + 2 * LEASE + 5 * second
    assert outbox.mark_sent(any_store, fresh)
    done = row(any_store)
    assert done.status == SENT and done.claim is None and done.claimed_until is None
    # Late words from either change nothing any more.
    assert not outbox.renew(any_store, fresh, wall=SystemClock().now())
    assert not outbox.mark_failed(any_store, slow, "late", give_up=True)
    assert row(any_store) == done
    with any_store.transaction() as tx:
        assert outbox.claim_due(tx, tx.now(), wall=wall + 10 * LEASE) is None


def test_a_slow_sender_keeps_its_mail_by_renewing_and_an_abandoned_one_comes_back(
    any_store: EventStore,
) -> None:
    one_mail(any_store)
    lease = timedelta(seconds=1)

    async def scenario() -> None:
        with black_hole() as hole:
            host, port = hole.getsockname()
            sender = Sender(
                any_store,
                smtp_sink_at(host, port, timeout=60),
                None,
                None,
                MODERATOR,
                concurrency=1,
                lease=lease,
                renew_every=timedelta(seconds=0.2),
            )
            stuck = asyncio.create_task(sender.send_due())
            await asyncio.sleep(2.5)  # stuck in SMTP for more than twice its lease
            claimed = row(any_store)
            assert claimed.claim is not None and claimed.claimed_until is not None
            assert claimed.claimed_until > SystemClock().now()
            with any_store.transaction() as tx:
                assert outbox.claim_due(tx, tx.now(), wall=SystemClock().now()) is None
            stuck.cancel()  # abandoned: nobody renews the lease any more
            with contextlib.suppress(asyncio.CancelledError):
                await stuck
        await asyncio.sleep(lease.total_seconds() + 0.3)
        with any_store.transaction() as tx:
            again = outbox.claim_due(tx, tx.now(), wall=SystemClock().now())
        assert again is not None and again.attempts == 2 and again.claim != claimed.claim

    asyncio.run(scenario())
