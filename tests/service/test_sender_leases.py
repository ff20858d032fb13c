"""
A slow send round keeps its leases, and no mail goes out twice from senders that are
alive: the renewals do not wait behind the threads that signatures, polls and robots
fill under load; a sender never takes a mail over from its own workers; and a worker
that lost its claim while it made the mail leaves it to the new holder.

The wall clock (the leases' time) is a ``TestClock`` moved by the test, so a lease runs
out when the test says, however slow the machine; the pictures' drawing is held by the
test to make a round as slow as it wants.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

from moderator.ports import OutgoingMail, StoredMail
from moderator.ports.mail import PENDING, SENT
from moderator.runtime.outgoing import picture_specs
from moderator.runtime.picture_worker import draw_here
from moderator.runtime.sender import Sender
from moderator.store import EventStore, outbox
from moderator.testing.clocks import TestClock
from moderator.testing.connections import smtp_sink_at
from moderator.testing.hub import MailHub

from .conftest import MODERATOR
from .test_pictures_ahead import board

ANN, BOB, CY = "ann@example.org", "bob@example.org", "cy@example.org"
LEASE = outbox.LEASE
#: Long enough for anything the test waits for to happen, on a loaded machine.
PATIENCE = 30.0


def queue(store: EventStore, address: str, *, picture: bool = True) -> None:
    """A report to ``address`` in the outbox (with his board unless ``picture`` is False)."""
    name = address.split("@")[0].title()
    mail = OutgoingMail(
        address, "[titan] report", "Turn 2.\n", {"From": MODERATOR}, kind="report",
        pictures=[board(name)] if picture else [],
    )
    with store.transaction() as tx:
        outbox.add_mails(tx, [mail])


def row(store: EventStore, address: str) -> StoredMail:
    with store.reading() as tx:
        (found,) = [mail for mail in outbox.mails(tx) if mail.recipient == address]
    return found


class HeldDrawing:
    """Draws pictures for real, but holds the drawing of ``held``'s board until released."""

    def __init__(self, held: str) -> None:
        self.held = picture_specs([board(held)])[0]
        self.started = threading.Event()
        self.release = threading.Event()
        self.calls = 0

    def __call__(self, picture: str) -> bytes:
        if picture == self.held:
            self.calls += 1
            if self.calls == 1:
                self.started.set()
                self.release.wait(PATIENCE)
        return draw_here(picture)


async def until(check: Callable[[], bool], what: str) -> None:
    """Wait (polling on the loop, no thread taken) until ``check()``; fail after PATIENCE."""
    async with asyncio.timeout(PATIENCE):
        while not check():
            await asyncio.sleep(0.02)
    assert check(), what


def on_hub(scenario: Callable[[MailHub], Coroutine[Any, Any, None]]) -> None:
    async def run() -> None:
        async with MailHub() as hub:
            for address in (ANN, BOB, CY):
                hub.add_user(address, "pw")
            await scenario(hub)

    asyncio.run(run())


def sender_on(hub: MailHub, store: EventStore, wall: TestClock, draw: HeldDrawing,
              **options: Any) -> Sender:
    sink = smtp_sink_at(hub.host, hub.smtp_port, local_hostname="mx.test", timeout=10)
    return Sender(store, sink, None, None, MODERATOR, draw=draw, wall=wall, **options)


def test_a_slow_send_round_keeps_its_lease_while_the_loops_threads_are_busy(
    store: EventStore,
) -> None:
    """
    Under load every thread of the loop's default pool is taken (a signature, the poll's
    transaction, a robot's decision): the lease is renewed all the same, from when it is
    written, and another sender finds nothing to take over.
    """
    queue(store, ANN)
    wall, drawing = TestClock(), HeldDrawing("Ann")

    async def scenario(hub: MailHub) -> None:
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(2))
        sender = sender_on(hub, store, wall, drawing, renew_every=timedelta(seconds=0.05))
        busy = threading.Event()
        sending = asyncio.create_task(sender.send_due())
        try:
            await until(drawing.started.is_set, "the report's picture is being drawn")
            other_thread = loop.run_in_executor(None, busy.wait, PATIENCE)  # the pool is full
            claimed = row(store, ANN).claimed_until
            assert claimed is not None
            wall.advance(LEASE + timedelta(seconds=10))  # the claim's lease alone has run out
            await until(lambda: (row(store, ANN).claimed_until or claimed) > wall.now(),
                        "the lease was renewed while the loop's threads were all busy")
            assert outbox.claim_next(store, store.clock(), wall=wall.now()) is None
        finally:
            busy.set()
            drawing.release.set()
            tally = await sending
            await other_thread
        assert tally.sent == 1
        assert hub.deliveries == {ANN: 1}
        assert row(store, ANN).status == SENT

    on_hub(scenario)


def test_a_sender_that_lost_its_claim_while_making_the_mail_never_sends_it_too(
    store: EventStore,
) -> None:
    """Its renewals held up past the lease, another sender took the mail: it is his alone."""
    queue(store, ANN)
    wall, drawing = TestClock(), HeldDrawing("Ann")

    async def scenario(hub: MailHub) -> None:
        sender = sender_on(hub, store, wall, drawing, renew_every=timedelta(hours=1))
        sending = asyncio.create_task(sender.send_due())
        try:
            await until(drawing.started.is_set, "the report's picture is being drawn")
            wall.advance(LEASE + timedelta(seconds=1))
            taken = outbox.claim_next(store, store.clock(), wall=wall.now())
            assert taken is not None, "the lapsed lease lets another sender take the mail"
        finally:
            drawing.release.set()
            tally = await sending
        assert tally.sent == 0
        assert hub.deliveries.get(ANN, 0) == 0
        left = row(store, ANN)
        assert left.status == PENDING and left.claim == taken.claim

    on_hub(scenario)


def test_a_sender_never_takes_a_mail_over_from_its_own_worker(store: EventStore) -> None:
    """
    One worker is slow on Ann's report past its lease (its renewals held up); the other
    sends Bob's, then Cy's, and never claims Ann's: she gets her report once, from the
    worker that claimed it first.
    """
    queue(store, ANN)
    queue(store, BOB)
    queue(store, CY, picture=False)
    wall, drawing = TestClock(), HeldDrawing("Ann")
    bobs = picture_specs([board("Bob")])[0]

    def draw(picture: str) -> bytes:
        if picture == bobs:  # Bob's report is made once Ann's lease has run out
            drawing.started.wait(PATIENCE)
            wall.advance(LEASE + timedelta(seconds=1))
        return drawing(picture)

    async def scenario(hub: MailHub) -> None:
        sender = sender_on(hub, store, wall, drawing, concurrency=2,
                           renew_every=timedelta(hours=1))
        sender.draw = draw
        sending = asyncio.create_task(sender.send_due())
        try:
            await until(lambda: row(store, CY).status == SENT, "Bob's and Cy's reports went out")
        finally:
            drawing.release.set()
            tally = await sending
        assert tally.sent == 3
        assert hub.deliveries == {ANN: 1, BOB: 1, CY: 1}
        assert drawing.calls == 1
        assert row(store, ANN).attempts == 1

    on_hub(scenario)


def test_a_mail_being_recorded_is_not_reported_as_taken_over(
    store: EventStore, caplog: Any
) -> None:
    """
    A renewal that runs while the worker records its sent mail finds the row no longer
    pending: that is the worker's own doing, not another sender's, and is not logged as
    one (a loaded demo printed "another sender has taken it over" for such mails).  A
    claim truly taken by another sender still is.
    """
    from moderator.runtime.claims import Claim

    queue(store, ANN, picture=False)
    queue(store, BOB, picture=False)
    wall = TestClock()

    async def scenario(hub: MailHub) -> None:
        sender = sender_on(hub, store, wall, HeldDrawing("Cy"))
        ann = outbox.claim_next(store, store.clock(), wall=wall.now())
        assert ann is not None
        outbox.mark_sent(store, ann)
        recorded = Claim(ann, wall.now(), settling=True)
        with caplog.at_level("WARNING", logger="moderator"):
            assert await sender._renew(recorded) is False
        assert "taken it over" not in caplog.text
        bob = outbox.claim_next(store, store.clock(), wall=wall.now())
        assert bob is not None
        wall.advance(LEASE + timedelta(seconds=1))
        assert outbox.claim_next(store, store.clock(), wall=wall.now()) is not None
        with caplog.at_level("WARNING", logger="moderator"):
            assert await sender._renew(Claim(bob, wall.now())) is False
        assert f"mail {bob.id}: another sender has taken it over" in caplog.text

    on_hub(scenario)


def test_a_sent_mail_is_recorded_in_the_transaction_that_claims_the_next(
    store: EventStore,
) -> None:
    """
    A busy worker records the mail it sent and claims its next one in one write
    transaction: three mails cost four commits (three claims, the last recording the
    third mail and finding nothing more), not seven; each is sent once and recorded.
    """
    from sqlalchemy import event

    for address in (ANN, BOB, CY):
        queue(store, address, picture=False)
    wall, commits = TestClock(), list[Any]()

    def committed(connection: Any) -> None:
        commits.append(connection)

    async def scenario(hub: MailHub) -> None:
        sender = sender_on(hub, store, wall, HeldDrawing("Cy"), concurrency=1,
                           renew_every=timedelta(hours=1))
        event.listen(store.engine, "commit", committed)
        try:
            tally = await sender.send_due()
        finally:
            event.remove(store.engine, "commit", committed)
        assert tally.sent == 3
        assert hub.deliveries == {ANN: 1, BOB: 1, CY: 1}
        assert [row(store, a).status for a in (ANN, BOB, CY)] == [SENT, SENT, SENT]
        assert len(commits) == 4

    on_hub(scenario)
