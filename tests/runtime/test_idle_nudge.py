"""
The IDLE watch and a running poll (issue 28): mail that comes while a poll processes
is announced by the server, the watch tells the poller (``Poller.nudge``, its
``take_in`` in the service; the poll is brought forward only when none takes it) and
the same poll fetches it and processes it, without waiting for a next poll.  The watch
looks again once the poller has fetched (``on_fetch``), not only when the poll ends.  Against the embedded hub, whose IMAP
server announces new mail in IDLE.
"""

from __future__ import annotations

import asyncio
import threading
from datetime import datetime
from pathlib import Path

from moderator.ports import GameContext, InboundMessage, Lookup, Outcome
from moderator.runtime.idle_watch import IdleWatch
from moderator.runtime.poller import Poller
from moderator.store import inbox
from moderator.testing.connections import imap_source_at
from moderator.testing.hub import MailHub
from moderator.testing.stores import open_store, sqlite_url

from .test_poller_marks import MODERATOR, Reader, mail


class SlowFirst(Reader):
    """A handler that, deciding mail ``one``, has mail ``two`` delivered and waits until
    the watch has told the poller of it (as if the decision took that long)."""

    def __init__(self, hub: MailHub, loop: asyncio.AbstractEventLoop) -> None:
        self.hub, self.loop = hub, loop
        self.told = threading.Event()

    def handle(
        self, message: InboundMessage, game: GameContext | None, lookup: Lookup, now: datetime
    ) -> Outcome:
        if b"Subject: one" in message.raw:
            asyncio.run_coroutine_threadsafe(
                self.hub.deliver(MODERATOR, mail("two")), self.loop).result(10)
            assert self.told.wait(20), "the watch never told the poller of mail two"
        return super().handle(message, game, lookup, now)


def test_mail_announced_in_idle_during_a_poll_is_taken_in_by_that_poll(tmp_path: Path) -> None:
    store = open_store(sqlite_url(tmp_path, "idle.sqlite"))

    async def scenario() -> None:
        async with MailHub() as hub:
            hub.add_user(MODERATOR, "pw")
            source = imap_source_at(hub.host, hub.imap_port, MODERATOR, "pw", tls=False)
            watching = imap_source_at(hub.host, hub.imap_port, MODERATOR, "pw", tls=False)
            handler = SlowFirst(hub, asyncio.get_running_loop())
            poller = Poller(store, source, handler)
            taken: list[bool] = []
            brought: list[bool] = []

            def take_in() -> bool:  # the running poll's nudge, as the service wires it
                taken.append(poller.nudge())
                if taken[-1]:
                    handler.told.set()
                return taken[-1]

            watch = IdleWatch(watching, source, lambda: brought.append(True),
                              poll_seconds=30.0, take_in=take_in)
            poller.on_fetch = watch.caught_up
            watcher = asyncio.create_task(watch.run())
            try:
                await hub.deliver(MODERATOR, mail("one"))
                result = await poller.poll()
                assert (result.fetched, result.processed) == (2, 2)
                assert True in taken  # the running poll took the news
                assert len(brought) == taken.count(False)  # brought forward only when not taken
                again = await poller.poll()
                assert (again.fetched, again.processed) == (0, 0)
            finally:
                watcher.cancel()
                await asyncio.gather(watcher, return_exceptions=True)
                poller.close()
                await source.close()
                await watching.close()

    try:
        asyncio.run(scenario())
        with store.reading() as tx:
            done = inbox.messages(tx)
        assert [m.raw for m in done] == [mail("one"), mail("two")]
        assert {m.status for m in done} == {inbox.PROCESSED}
    finally:
        store.close()
