"""
The service's sender keeps its SMTP connections between send rounds (a round comes
every few seconds under load, and a connection, greeting and EHLO per mail cost the
server and the moderator more than the mail), but not past ``KEEP_IDLE``, and closes
them when the service stops.  A sender that is not told to keep them opens one per
worker and round, and leaves none open.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

from moderator.ports import OutgoingMail
from moderator.ports.mail import SENT
from moderator.runtime.sender import KEEP_IDLE, Sender
from moderator.store import EventStore, outbox
from moderator.testing.clocks import TestClock
from moderator.testing.connections import smtp_sink_at
from moderator.testing.hub import MailHub

from .conftest import MODERATOR

ANN = "ann@example.org"


def _queue(store: EventStore, subject: str) -> None:
    mail = OutgoingMail(ANN, subject, "Turn 2.\n", {"From": MODERATOR}, kind="report")
    with store.transaction() as tx:
        outbox.add_mails(tx, [mail], game_id="g1")


def _rounds(store: EventStore, *, keep: bool) -> tuple[list[int], int]:
    """
    Four rounds of one mail each, the second a second after the first, the third
    ``KEEP_IDLE`` and a second after the second, the fourth after the sender's ``close``:
    the hub's SMTP connections after each round, and the mails it took.
    """
    wall = TestClock()

    async def scenario() -> tuple[list[int], int]:
        async with MailHub() as hub:
            hub.add_user(ANN, "pw")
            sink = smtp_sink_at(hub.host, hub.smtp_port, local_hostname="mx.test", timeout=10)
            sender = Sender(store, sink, None, None, MODERATOR, concurrency=1, wall=wall,
                            keep_sessions=keep)
            seen = []
            for n, pause in enumerate((timedelta(0), timedelta(seconds=1),
                                       KEEP_IDLE + timedelta(seconds=1))):
                wall.advance(pause)
                _queue(store, f"[titan g1] report {n}")
                assert (await sender.send_due()).sent == 1
                seen.append(hub.smtp_connections)
            await sender.close()
            _queue(store, "[titan g1] report 3")
            assert (await sender.send_due()).sent == 1
            seen.append(hub.smtp_connections)
            await sender.close()
            return seen, hub.deliveries[ANN]

    return asyncio.run(scenario())


def test_the_services_sender_sends_the_next_rounds_mail_over_the_connection_it_kept(
    store: EventStore,
) -> None:
    connections, delivered = _rounds(store, keep=True)
    # Round 2 came a second after round 1: the same connection.  Round 3 came after the
    # connection had sat unused past KEEP_IDLE, round 4 after close: a new one each.
    assert connections == [1, 1, 2, 3]
    assert delivered == 4
    with store.reading() as tx:
        assert {m.status for m in outbox.mails(tx)} == {SENT}


def test_a_sender_not_told_to_keep_them_opens_a_connection_per_round(
    store: EventStore,
) -> None:
    connections, delivered = _rounds(store, keep=False)
    assert connections == [1, 2, 3, 4]
    assert delivered == 4
