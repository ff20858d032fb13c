"""
While a poll's mails are processed the next fetch runs (issue 28): mail that came
meanwhile is archived and processed by the next poll, after the mails before it, each
once; the poll that fetched it ahead says more mail waits, and the next poll does not
fetch it again.  Against the embedded hub.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from moderator.mail.imap import FetchResult, ImapSource
from moderator.runtime.poller import Poller
from moderator.store import inbox
from moderator.testing.hub import MailHub
from moderator.testing.stores import open_store, sqlite_url

from .test_poller_marks import MODERATOR, Reader, mail


class Arrivals(ImapSource):
    """The moderator's folder, into which a mail arrives right after the first fetch
    (so that only a fetch made after it, the one run ahead, can find it)."""

    def __init__(self, hub: MailHub) -> None:
        super().__init__(hub.host, hub.imap_port, MODERATOR, "pw", tls=False)
        self.hub = hub
        self.fetches: list[int] = []

    async def fetch_new(
        self, since_uid: int | None, uidvalidity: int | None, *, limit: int | None = None
    ) -> FetchResult:
        found = await super().fetch_new(since_uid, uidvalidity, limit=limit)
        self.fetches.append(len(found.messages))
        if len(self.fetches) == 1:
            await self.hub.deliver(MODERATOR, mail("two"))
        return found


def test_mail_fetched_ahead_is_processed_by_the_next_poll_once_and_in_order(
    tmp_path: Path,
) -> None:
    store = open_store(sqlite_url(tmp_path, "ahead.sqlite"))

    async def scenario() -> None:
        async with MailHub() as hub:
            hub.add_user(MODERATOR, "pw")
            source = Arrivals(hub)
            poller = Poller(store, source, Reader())
            try:
                await hub.deliver(MODERATOR, mail("one"))
                first = await poller.poll()
                assert (first.fetched, first.processed) == (1, 1)
                assert first.more  # mail two was fetched ahead: poll again at once
                assert source.fetches == [1, 1]  # this poll's fetch, and the one ahead
                second = await poller.poll()
                assert (second.fetched, second.processed) == (1, 1)
                assert not second.more
                assert source.fetches == [1, 1, 0]  # mail two was not fetched again
                with store.reading() as tx:
                    done = inbox.messages(tx)
                assert [m.uid for m in done] == sorted(m.uid for m in done)
                assert [m.raw for m in done] == [mail("one"), mail("two")]
                assert {m.status for m in done} == {inbox.PROCESSED}
            finally:
                await source.close()

    try:
        asyncio.run(scenario())
    finally:
        store.close()
