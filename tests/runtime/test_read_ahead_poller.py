"""
The poller reads a poll's mails (parse, signature check) in a thread of its own while
the mail before is processed (issue 28): each mail is read once and processed once, in
the order they came, no mail is processed before it was read, and the reading never
runs more than ``READ_AHEAD`` mails past the one being processed.  Against the
embedded hub.
"""

from __future__ import annotations

import asyncio
import threading
from datetime import datetime
from pathlib import Path

from moderator.ports import GameContext, InboundMessage, Lookup, Outcome
from moderator.runtime import poller as poller_module
from moderator.runtime.poller import Poller
from moderator.store import inbox
from moderator.testing.connections import imap_source_at
from moderator.testing.hub import MailHub
from moderator.testing.stores import open_store, sqlite_url

from .test_poller_marks import MODERATOR, mail

MAILS = 20


class ReadingHandler:
    """
    A handler that notes each mail's reading ahead and each decision, in order; like
    the mail handler it keeps what it read, so asking again reads nothing.
    """

    def __init__(self) -> None:
        self.log: list[tuple[str, bytes]] = []
        self.ahead_most = 0
        self._lock = threading.Lock()

    def read_ahead(self, raw: bytes) -> None:
        with self._lock:
            if ("read", raw) in self.log:
                return  # kept, as the mail handler keeps its readings: not read again
            self.log.append(("read", raw))
            reads = sum(1 for kind, _ in self.log if kind == "read")
            handled = sum(1 for kind, _ in self.log if kind == "handle")
            self.ahead_most = max(self.ahead_most, reads - handled)

    def game_of(self, message: InboundMessage) -> str | None:
        return None

    def handle(
        self, message: InboundMessage, game: GameContext | None, lookup: Lookup, now: datetime
    ) -> Outcome:
        with self._lock:
            self.log.append(("handle", message.raw))
        return Outcome(note="read")


def test_a_polls_mails_are_each_read_once_before_they_are_processed_in_order(
    tmp_path: Path,
) -> None:
    store = open_store(sqlite_url(tmp_path, "reads.sqlite"))
    handler = ReadingHandler()
    sent = [mail(f"order {n}") for n in range(MAILS)]

    async def scenario() -> None:
        async with MailHub() as hub:
            hub.add_user(MODERATOR, "pw")
            source = imap_source_at(hub.host, hub.imap_port, MODERATOR, "pw", tls=False)
            poller = Poller(store, source, handler)
            try:
                for raw in sent:
                    await hub.deliver(MODERATOR, raw)
                done = await poller.poll()
                assert (done.fetched, done.processed) == (MAILS, MAILS)
            finally:
                poller.close()
                await source.close()

    try:
        asyncio.run(scenario())
        with store.reading() as tx:
            assert {m.status for m in inbox.messages(tx)} == {inbox.PROCESSED}
    finally:
        store.close()
    reads = [raw for kind, raw in handler.log if kind == "read"]
    handled = [raw for kind, raw in handler.log if kind == "handle"]
    assert reads == sent and handled == sent  # once each, in the order they came
    for raw in sent:  # read before its decision
        assert handler.log.index(("read", raw)) < handler.log.index(("handle", raw))
    assert handler.ahead_most <= poller_module.READ_AHEAD + 1
