"""
A send round with nothing to send writes nothing (issue 28): each worker asks in a read
whether a mail is due before it claims one, so rounds brought forward under load do not
queue write transactions behind the poller's for SQLite's one write lock.  A round with
mail still claims, sends and records each mail once, and a mail committed while the
round's workers are busy is taken by a worker woken for it.
"""

from __future__ import annotations

import asyncio

from sqlalchemy import event

from moderator.ports import OutgoingMail
from moderator.ports.mail import SENT
from moderator.runtime.sender import Sender
from moderator.store import EventStore, outbox
from moderator.testing.clocks import TestClock
from moderator.testing.connections import smtp_sink_at
from moderator.testing.hub import MailHub

from .conftest import MODERATOR
from .test_sender_leases import BOB, HeldDrawing, on_hub, queue, sender_on, until

ANN = "ann@example.org"


def _writes(store: EventStore) -> list[str]:
    """The write transactions begun on ``store`` from now on (BEGIN IMMEDIATE on SQLite)."""
    begun: list[str] = []

    @event.listens_for(store.engine, "begin")
    def _begin(connection: object) -> None:
        options = getattr(connection, "get_execution_options", dict)()
        if options.get("titan_write"):
            begun.append("write")

    return begun


def test_a_send_round_with_nothing_due_begins_no_write_transaction(store: EventStore) -> None:
    async def scenario() -> tuple[int, int, list[str], list[str]]:
        async with MailHub() as hub:
            hub.add_user(ANN, "pw")
            sink = smtp_sink_at(hub.host, hub.smtp_port, local_hostname="mx.test", timeout=10)
            sender = Sender(store, sink, None, None, MODERATOR, concurrency=4)
            try:
                idle = _writes(store)
                empty = (await sender.send_due()).sent
                idle_writes = list(idle)
                mail = OutgoingMail(ANN, "[titan g1] report", "Turn 2.\n", {"From": MODERATOR},
                                    kind="report")
                with store.transaction() as tx:
                    outbox.add_mails(tx, [mail], game_id="g1")
                busy = _writes(store)
                sent = (await sender.send_due()).sent
                return empty, sent, idle_writes, list(busy)
            finally:
                await sender.close()

    empty, sent, idle_writes, busy_writes = asyncio.run(scenario())
    assert (empty, sent) == (0, 1)
    assert idle_writes == []  # four workers found nothing, and wrote nothing
    assert busy_writes  # the mail was claimed and recorded
    with store.reading() as tx:
        assert [m.status for m in outbox.mails(tx)] == [SENT]


def test_a_mail_committed_while_a_worker_is_busy_is_sent_by_a_worker_woken_for_it(
    store: EventStore,
) -> None:
    """
    A round's worker is held making Ann's report; Bob's mail commits meanwhile: the
    worker woken for it (``Sender.wake``, what the service does after each mail) sends
    it at once, not after Ann's is done nor in the next round.
    """
    queue(store, ANN)
    drawing = HeldDrawing("Ann")

    async def scenario(hub: MailHub) -> None:
        sender = sender_on(hub, store, TestClock(), drawing, concurrency=2)
        assert not sender.wake()  # no round runs: the service brings one forward instead
        sending = asyncio.create_task(sender.send_due())
        try:
            await until(drawing.started.is_set, "Ann's report is being made")
            await asyncio.sleep(0.2)  # the round's other worker found nothing and ended
            queue(store, BOB, picture=False)
            assert sender.wake()
            await until(lambda: hub.deliveries.get(BOB, 0) == 1, "Bob's mail went out")
            assert hub.deliveries.get(ANN, 0) == 0  # while Ann's was still being made
        finally:
            drawing.release.set()
            tally = await sending
            await sender.close()
        assert tally.sent == 2

    on_hub(scenario)
