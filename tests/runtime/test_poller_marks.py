"""
The poller flags processed mail on the server after its transaction, for several polls
with one command (``Poller.mark_every``) and the rest at a stop (``mark_now``): the flag
is late, never early, and a mail that was not processed is never flagged.  Against the
embedded hub (pymap), whose folders take no keywords: the flag is ``\\Seen``.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path

from moderator.ports import GameContext, InboundMessage, Lookup, Outcome
from moderator.runtime.poller import Poller
from moderator.store import inbox
from moderator.testing.connections import imap_source_at
from moderator.testing.hub import MailHub
from moderator.testing.stores import open_store, sqlite_url

from ..mail.test_transports import HubServer, flags

MODERATOR = "moderator@titan.example"


class Reader:
    """A handler that reads every mail and decides nothing (it names no game)."""

    def game_of(self, message: InboundMessage) -> str | None:
        return None

    def handle(
        self, message: InboundMessage, game: GameContext | None, lookup: Lookup, now: datetime
    ) -> Outcome:
        return Outcome(note="read")


def mail(subject: str) -> bytes:
    return f"From: ann@example.org\r\nTo: {MODERATOR}\r\nSubject: {subject}\r\n\r\nhi\r\n".encode()


def test_processed_mail_is_flagged_late_for_several_polls_and_at_a_stop(tmp_path: Path) -> None:
    store = open_store(sqlite_url(tmp_path, "marks.sqlite"))

    async def scenario() -> None:
        async with MailHub() as hub:
            hub.add_user(MODERATOR, "pw")
            server = HubServer(hub)
            source = imap_source_at(hub.host, hub.imap_port, MODERATOR, "pw", tls=False)
            poller = Poller(store, source, Reader())
            poller.mark_every = 3600.0  # no second flagging by time in this test

            async def seen() -> tuple[set[int], set[int]]:
                """The UIDs flagged, and all the folder's."""
                marks = await flags(server, MODERATOR, "pw")
                return {uid for uid, f in marks.items() if "\\Seen" in f}, set(marks)

            try:
                await hub.deliver(MODERATOR, mail("one"))
                first = await poller.poll()
                assert first.processed == 1
                flagged, there = await seen()
                assert flagged == there and len(there) == 1  # the first flagging is at once
                await hub.deliver(MODERATOR, mail("two"))
                await hub.deliver(MODERATOR, mail("three"))
                second = await poller.poll()
                assert second.processed == 2
                now_flagged, there = await seen()
                assert len(there) == 3
                assert now_flagged == flagged  # processed, committed, not flagged yet
                with store.reading() as tx:
                    assert {m.status for m in inbox.messages(tx)} == {inbox.PROCESSED}
                await poller.mark_now()  # the service's stop
                now_flagged, there = await seen()
                assert now_flagged == there
                again = await poller.poll()
                assert (again.fetched, again.processed) == (0, 0)  # known mail is not fetched
            finally:
                await source.close()

    try:
        asyncio.run(scenario())
    finally:
        store.close()
