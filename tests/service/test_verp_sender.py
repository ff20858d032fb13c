"""
Each mail goes out with a return path of its own (VERP), so that its bounce names it;
without a key the sender keeps the one envelope sender.  The demo's mail hub delivers a
return path to the moderator's mailbox, as a server with a recipient delimiter does.
"""

from __future__ import annotations

import asyncio

from aiosmtpd.smtp import SMTP, Envelope, Session

from moderator.mail import verp
from moderator.ports import OutgoingMail
from moderator.ports.mail import SENT
from moderator.runtime.sender import Sender
from moderator.store import EventStore, outbox
from moderator.testing.connections import smtp_sink_at
from moderator.testing.hub import MailHub

from .conftest import MODERATOR

KEY = b"a key of the moderator's own...."
ANN, BOB = "ann@example.org", "bob@example.org"


class Recording:
    """An aiosmtpd handler that takes every mail and keeps its envelope."""

    def __init__(self) -> None:
        self.envelopes: list[tuple[str, list[str]]] = []

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        self.envelopes.append((str(envelope.mail_from), list(envelope.rcpt_tos)))
        return "250 OK"


def _reports(store: EventStore) -> dict[str, int]:
    """A report to Ann and one to Bob in the outbox: recipient -> outbox id."""
    mails = [
        OutgoingMail(who, "[titan g1] report", "Turn 2.\n", {"From": MODERATOR}, kind="report")
        for who in (ANN, BOB)
    ]
    with store.transaction() as tx:
        outbox.add_mails(tx, mails, game_id="g1")
        return {m.recipient: m.id for m in outbox.mails(tx)}


async def _send_all(store: EventStore, key: bytes | None) -> dict[str, str]:
    """Every due mail sent to a recording server: recipient -> envelope sender."""
    recording = Recording()
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(recording, hostname="mx.test"), "127.0.0.1", 0)
    try:
        port = int(server.sockets[0].getsockname()[1])
        sink = smtp_sink_at("127.0.0.1", port, local_hostname="moderator.test", timeout=10)
        tally = await Sender(store, sink, None, None, MODERATOR, verp_key=key).send_due()
    finally:
        server.close()
        await server.wait_closed()
    assert tally.sent == 2 and tally.failed == 0
    return {rcpt[0]: mail_from for mail_from, rcpt in recording.envelopes}


def test_the_sender_gives_each_mail_its_own_return_path(store: EventStore) -> None:
    ids = _reports(store)
    envelopes = asyncio.run(_send_all(store, KEY))
    assert envelopes[ANN] != envelopes[BOB]
    for who, mail_id in ids.items():
        assert envelopes[who] == verp.return_path(MODERATOR, mail_id, KEY)
        assert verp.mail_of(envelopes[who], MODERATOR, KEY) == mail_id
    with store.reading() as tx:
        assert {m.status for m in outbox.mails(tx)} == {SENT}


def test_without_a_key_every_mail_has_the_moderators_address(store: EventStore) -> None:
    _reports(store)
    assert asyncio.run(_send_all(store, None)) == {ANN: MODERATOR, BOB: MODERATOR}


def test_a_return_path_reaches_the_moderators_mailbox_in_the_demo_hub() -> None:
    async def scenario() -> None:
        async with MailHub() as hub:
            hub.add_user(MODERATOR, "pw")
            sink = smtp_sink_at("127.0.0.1", hub.smtp_port, local_hostname="mx.test", timeout=10)
            bounce = b"From: MAILER-DAEMON@mx.test\r\nSubject: bounce\r\n\r\nNo such user.\r\n"
            await sink.send(bounce, "", [verp.return_path(MODERATOR, 7, KEY)])
            assert hub.deliveries == {MODERATOR: 1}
            assert hub.user_for("nobody+b7-x@titan.example") is None

    asyncio.run(scenario())
