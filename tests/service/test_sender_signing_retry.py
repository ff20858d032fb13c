"""
A mail the moderator cannot sign is tried again, not given up: GnuPG failing with the
moderator's own secret key (its agent stopped or too slow on a loaded machine, a
passphrase being fixed) is the keyring's trouble, not the mail's, and a report given
up is a player who never learns of his turn.  A player's public key missing is given
up at once, as before: trying again changes nothing until the operator imports it and
says ``mail retry``.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

from moderator.mail.gpg import Keyring
from moderator.ports import OutgoingMail
from moderator.ports.mail import FAILED, PENDING, SENT
from moderator.runtime.sender import Sender
from moderator.store import EventStore, outbox
from moderator.testing.clocks import TestClock
from moderator.testing.connections import smtp_sink_at
from moderator.testing.hub import MailHub

from .conftest import MODERATOR, World, address

ANN = address("Ann")


def _queue(store: EventStore, recipient_key: str | None = None) -> None:
    mail = OutgoingMail(
        ANN, "[titan g1] Your move", "Turn 2.\n", {"From": MODERATOR}, kind="report",
        private_body="Your legions.\n" if recipient_key else None, recipient_key=recipient_key,
    )
    with store.transaction() as tx:
        outbox.add_mails(tx, [mail], game_id="g1")


def _statuses(store: EventStore) -> list[str]:
    with store.reading() as tx:
        return [m.status for m in outbox.mails(tx)]


def test_a_report_the_moderator_could_not_sign_is_sent_once_his_key_signs_again(
    store: EventStore, clock: TestClock, world: World, fresh_keyring: Keyring
) -> None:
    _queue(store)

    async def scenario() -> tuple[int, int, int, int]:
        async with MailHub() as hub:
            hub.add_user(ANN, "pw")
            sink = smtp_sink_at(hub.host, hub.smtp_port, local_hostname="mx.test", timeout=10)
            # the moderator's secret key cannot be used (an empty home stands for an
            # agent that does not answer): the round fails, the mail waits
            broken = Sender(store, sink, fresh_keyring, world.moderator.fingerprint, MODERATOR)
            first = await broken.send_due()
            assert _statuses(store) == [PENDING]
            clock.advance(timedelta(hours=1))
            working = Sender(store, sink, world.moderator.keyring,
                             world.moderator.fingerprint, MODERATOR)
            second = await working.send_due()
            return first.failed, first.given_up, second.sent, hub.deliveries[ANN]

    failed, given_up, sent, delivered = asyncio.run(scenario())
    assert (failed, given_up) == (1, 0)
    assert (sent, delivered) == (1, 1)
    assert _statuses(store) == [SENT]


def test_a_report_to_a_player_whose_key_is_missing_is_given_up_at_once(
    store: EventStore, world: World
) -> None:
    _queue(store, recipient_key="0123456789ABCDEF0123456789ABCDEF01234567")

    async def scenario() -> tuple[int, int]:
        async with MailHub() as hub:
            hub.add_user(ANN, "pw")
            sink = smtp_sink_at(hub.host, hub.smtp_port, local_hostname="mx.test", timeout=10)
            sender = Sender(store, sink, world.moderator.keyring,
                            world.moderator.fingerprint, MODERATOR)
            tally = await sender.send_due()
            return tally.failed, tally.given_up

    assert asyncio.run(scenario()) == (1, 1)
    assert _statuses(store) == [FAILED]
