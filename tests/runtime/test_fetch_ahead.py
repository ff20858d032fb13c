"""
A poll takes in the mail that comes while it runs (issue 28): it fetches again once
while its first mails are processed, and again whenever the IDLE watch brings news
(``Poller.nudge``); what came is archived and processed by the same poll, after the
mails before it, each once.  A mail that comes with no news is left to the next poll,
which does not fetch twice what this one took in; a poll full at ``POLL_MOST`` says
``more``.  Against the embedded hub.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path

import pytest

from moderator.mail.imap import FetchResult, ImapSource
from moderator.ports import GameContext, InboundMessage, Lookup, Outcome
from moderator.runtime import poller as poller_module
from moderator.runtime.poller import Poller
from moderator.store import inbox
from moderator.store.eventstore import EventStore
from moderator.testing.hub import MailHub
from moderator.testing.stores import open_store, sqlite_url

from .test_poller_marks import MODERATOR, Reader, mail


class Arrivals(ImapSource):
    """The moderator's folder, into which ``coming[n]`` is delivered right after fetch n
    (so that only a later fetch can find it); counts the mails each fetch found."""

    def __init__(self, hub: MailHub, coming: dict[int, bytes]) -> None:
        super().__init__(hub.host, hub.imap_port, MODERATOR, "pw", tls=False)
        self.hub = hub
        self.coming = coming
        self.fetches: list[int] = []

    async def fetch_new(
        self, since_uid: int | None, uidvalidity: int | None, *, limit: int | None = None
    ) -> FetchResult:
        found = await super().fetch_new(since_uid, uidvalidity, limit=limit)
        self.fetches.append(len(found.messages))
        raw = self.coming.get(len(self.fetches))
        if raw is not None:
            await self.hub.deliver(MODERATOR, raw)
        return found


def _done_in_order(store: EventStore, sent: list[bytes]) -> None:
    with store.reading() as tx:
        done = inbox.messages(tx)
    assert [m.uid for m in done] == sorted(m.uid for m in done)
    assert [m.raw for m in done] == sent
    assert {m.status for m in done} == {inbox.PROCESSED}


def _run(tmp_path: Path, coming: dict[int, bytes], play) -> None:  # type: ignore[no-untyped-def]
    store = open_store(sqlite_url(tmp_path, "ahead.sqlite"))

    async def scenario() -> None:
        async with MailHub() as hub:
            hub.add_user(MODERATOR, "pw")
            source = Arrivals(hub, coming)
            try:
                await play(hub, source, store)
            finally:
                await source.close()

    try:
        asyncio.run(scenario())
    finally:
        store.close()


def test_mail_that_came_during_a_poll_is_processed_by_it_once_and_in_order(
    tmp_path: Path,
) -> None:
    async def play(hub: MailHub, source: Arrivals, store: EventStore) -> None:
        poller = Poller(store, source, Reader())
        await hub.deliver(MODERATOR, mail("one"))
        first = await poller.poll()
        assert (first.fetched, first.processed) == (2, 2)  # mail two came during the poll
        assert not first.more
        assert source.fetches == [1, 1]  # the poll's fetch, and the one while it processed
        second = await poller.poll()
        assert (second.fetched, second.processed) == (0, 0)  # mail two is not fetched again
        _done_in_order(store, [mail("one"), mail("two")])

    _run(tmp_path, {1: mail("two")}, play)


class Nudging(Reader):
    """A handler that, while it decides mail ``one``, tells the poller mail has come
    (as the IDLE watch does when the server announces it)."""

    def __init__(self) -> None:
        self.poller: Poller | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.nudged: list[bool] = []

    def handle(
        self, message: InboundMessage, game: GameContext | None, lookup: Lookup, now: datetime
    ) -> Outcome:
        if b"Subject: one" in message.raw and self.loop is not None and self.poller is not None:
            poller = self.poller
            asyncio.run_coroutine_threadsafe(self._nudge(poller), self.loop).result()
        return super().handle(message, game, lookup, now)

    async def _nudge(self, poller: Poller) -> None:
        self.nudged.append(poller.nudge())


def test_news_during_a_poll_makes_it_fetch_again_and_take_the_mail_in(tmp_path: Path) -> None:
    handler = Nudging()

    async def play(hub: MailHub, source: Arrivals, store: EventStore) -> None:
        poller = Poller(store, source, handler)
        handler.poller, handler.loop = poller, asyncio.get_running_loop()
        assert not poller.nudge()  # no poll runs: the caller starts one
        await hub.deliver(MODERATOR, mail("one"))
        # mail two comes after the fetch at the start, mail three after the one run
        # alongside the processing; only the news makes the poll look a third time
        result = await poller.poll()
        assert handler.nudged == [True]
        assert (result.fetched, result.processed) == (3, 3)
        assert source.fetches == [1, 1, 1]
        assert not result.more
        _done_in_order(store, [mail("one"), mail("two"), mail("three")])

    _run(tmp_path, {1: mail("two"), 2: mail("three")}, play)


def test_mail_that_came_with_no_news_waits_for_the_next_poll(tmp_path: Path) -> None:
    async def play(hub: MailHub, source: Arrivals, store: EventStore) -> None:
        poller = Poller(store, source, Reader())
        await hub.deliver(MODERATOR, mail("one"))
        first = await poller.poll()
        assert (first.fetched, first.processed) == (2, 2)
        assert source.fetches == [1, 1]  # mail three came after: no news, no third look
        second = await poller.poll()
        assert (second.fetched, second.processed) == (1, 1)
        _done_in_order(store, [mail("one"), mail("two"), mail("three")])

    _run(tmp_path, {1: mail("two"), 2: mail("three")}, play)


def test_a_full_poll_takes_no_more_in_and_says_more(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(poller_module, "POLL_MOST", 2)

    async def play(hub: MailHub, source: Arrivals, store: EventStore) -> None:
        poller = Poller(store, source, Reader())
        for name in ("one", "two"):
            await hub.deliver(MODERATOR, mail(name))
        first = await poller.poll()
        assert (first.fetched, first.processed) == (2, 2)
        assert first.more  # full: mail three is left to the next poll, at once
        assert source.fetches == [2]
        second = await poller.poll()
        assert (second.fetched, second.processed) == (1, 1)
        _done_in_order(store, [mail("one"), mail("two"), mail("three")])

    _run(tmp_path, {1: mail("three")}, play)
