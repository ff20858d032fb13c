"""
``mail drop REF`` (and ``mail retry REF``) while a sender holds that mail: what the
operator is told is what happens.  A mail a sender holds under a live claim may be at
the SMTP server this moment, so the word is refused as "being sent now" and the mail goes
out; once the claim's lease has run out (its sender stalled or died) the drop applies,
and the stalled sender, finding its claim gone, never sends it.

The real sender sends to the real hub; the test holds the drawing of the mail's picture
to stop the sender inside its claim, and moves the leases' clock (the store's clock, the
command line's time) itself, so no step depends on how fast the machine is.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from moderator.ports.mail import DROPPED, PENDING, SENT
from moderator.runners.commands import mail_word
from moderator.store import EventStore
from moderator.testing.clocks import TestClock
from moderator.testing.hub import MailHub
from moderator.usecases.mail.operator_mail import MailWordError

from .test_sender_leases import ANN, LEASE, HeldDrawing, on_hub, queue, row, sender_on, until


def test_a_mail_being_sent_is_not_called_dropped_and_goes_out(
    any_store: EventStore, clock: TestClock
) -> None:
    store = any_store
    queue(store, ANN)
    drawing = HeldDrawing("Ann")

    async def scenario(hub: MailHub) -> None:
        sender = sender_on(hub, store, clock, drawing, renew_every=timedelta(hours=1))
        sending = asyncio.create_task(sender.send_due())
        try:
            await until(drawing.started.is_set, "the report is being made, its mail claimed")
            ref = str(row(store, ANN).id)
            for word in ("drop", "retry"):
                with pytest.raises(MailWordError, match="being sent now") as refused:
                    await asyncio.to_thread(mail_word, store, word, ref)
                assert f"{word} it then" in str(refused.value)
            held = row(store, ANN)
            assert held.status == PENDING and held.claim is not None, "the claim is untouched"
        finally:
            drawing.release.set()
            tally = await sending
        assert tally.sent == 1
        assert hub.deliveries == {ANN: 1}
        assert row(store, ANN).status == SENT
        with pytest.raises(MailWordError, match="is sent"):
            mail_word(store, "drop", ref)

    on_hub(scenario)


def test_a_mail_dropped_after_its_senders_lease_ran_out_is_never_sent_by_that_sender(
    any_store: EventStore, clock: TestClock
) -> None:
    store = any_store
    queue(store, ANN)
    drawing = HeldDrawing("Ann")

    async def scenario(hub: MailHub) -> None:
        sender = sender_on(hub, store, clock, drawing, renew_every=timedelta(hours=1))
        sending = asyncio.create_task(sender.send_due())
        try:
            await until(drawing.started.is_set, "the report is being made, its mail claimed")
            clock.advance(LEASE + timedelta(seconds=1))  # the sender stalled past its lease
            done = await asyncio.to_thread(mail_word, store, "drop", str(row(store, ANN).id))
            assert any("dropped by the operator, never sent" in line for line in done)
        finally:
            drawing.release.set()
            tally = await sending
        assert tally.sent == 0
        assert hub.deliveries.get(ANN, 0) == 0
        dropped = row(store, ANN)
        assert dropped.status == DROPPED and dropped.claim is None

    on_hub(scenario)
