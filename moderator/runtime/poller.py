"""
The poller: new mail from the moderator's IMAP folder into the store, processed, then
marked on the server.

The order is what makes a mail count once whatever fails:

1. fetch the mails above the highest UID the store holds for the folder (under the
   folder's UIDVALIDITY; when that changed, every mail is fetched again);
2. archive each raw mail (``inbox.receive_all``: one row per folder, UIDVALIDITY and
   UID; a fetch's mails in one transaction) before anything reads it;
3. process every archived mail still waiting, each in its own transaction
   (``runners.mail.process_message``; a mail seen before under another UID is recognised by
   its Message-ID and body and not played twice);
4. only then flag (or move) them on the server: the mails of the polls of the last
   ``MARK_EVERY`` seconds with one command, and the rest at a stop (``mark_now``).

After each mail's transaction has committed, ``after_each`` (the service's) is started,
not waited for: the answers and reports it wrote go out while the poll goes on with the
next mails.

A crash between 2 and 3 leaves the mail archived and waiting: the next poll processes
it.  A crash between 3 and 4 leaves it unflagged on the server but known to the store,
which never fetches a UID twice.  The flag is for people and other mail programs (and
the move keeps the folder small): the store, not the flag, says what was processed, so
flagging a few seconds late changes nothing but spares a command per poll.

The serial path is kept short (issue 28): where the next fetch starts is read from the
store once and then kept (only this poller archives the folder's mail: the mailbox's
lock), and a mail whose processing this poller saw commit is flagged without asking the
store its state again.  A kept start that lags only fetches again what the store knows
(archived once by UID, its id handed back).

A poll takes in the mail that comes while it runs: while its mails are processed (in a
thread) it fetches again on the loop (once at its start, then whenever the IDLE watch
brings news, ``nudge``), archives what came and adds it behind the mails it holds, until
all are processed with no news waiting.  So a mail that comes during a poll waits for
the mails before it, not for the poll to end and the next to start (issue 28).  A
poll holds ``POLL_MOST`` mails at most (it then says ``more``: the next comes at once),
so that the mails it processed are flagged now and then under a steady stream.

A mail's reading (its parse and signature check, GnuPG's share of the work) is kept
out of the serial path too: a fetch's first mails are read while they are archived, and
while one mail is processed the next are read, each in a thread of its own.  A reading
decides nothing: the handler uses it in the mail's transaction only while its keyring
is as it was (``moderator.usecases.mail.readings``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial

from moderator.mail.errors import MailError
from moderator.mail.imap import FetchResult, ImapSource, UidValidityChangedError
from moderator.ports.mail import RECEIVED
from moderator.runners.mail import (
    BUSY,
    SKIPPED,
    Handler,
    process_message,
    read_ahead,
    read_raw_ahead,
)
from moderator.runtime.poll_queue import PollQueue
from moderator.runtime.threads import OwnThreads
from moderator.store import inbox
from moderator.store.eventstore import EventStore

log = logging.getLogger(__name__)

#: Mails fetched in one poll; the rest wait for the next (which comes at once).
FETCH_LIMIT = 200
#: Processed mail is flagged at most this often (seconds), or once this many wait.
MARK_EVERY, MARK_AT_MOST = 5.0, 500
#: A poll takes in the mail that comes while it runs until it holds this many; the
#: rest wait for the next (which comes at once).
POLL_MOST = 200
#: A fetch's first mails, read (parsed, signatures checked) while they are archived;
#: the rest are read in turn, ahead of the one processed.
READ_EARLY = 4
#: How many mails past the one being processed are read at most.
READ_AHEAD = 8
#: The poller's threads: one processing, one reading ahead, one reading a fetch's
#: first mails, one for the store's small reads and the archive.
POOL = 4


@dataclass
class PollResult:
    """What one poll did: mails fetched, and how many ended in each state."""

    fetched: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    more: bool = False

    @property
    def processed(self) -> int:
        return sum(n for status, n in self.statuses.items() if status not in (BUSY, SKIPPED))


class Poller:
    """Moves mail from one IMAP folder through the store (see the module's text)."""

    def __init__(
        self,
        store: EventStore,
        source: ImapSource,
        handler: Handler,
        *,
        gm_address: str | None = None,
    ) -> None:
        self.store = store
        self.source = source
        self.handler = handler
        self.gm_address = gm_address
        #: (uidvalidity, uid, inbound id) archived but not yet flagged on the server.
        self._unmarked: list[tuple[int, int, int]] = []
        self._lock = asyncio.Lock()
        #: Awaited after each mail whose processing committed (None: nothing).
        self.after_each: Callable[[], Awaitable[None]] | None = None
        #: Where the next fetch starts (UIDVALIDITY, top UID archived), once read from
        #: the store; None: read it again (at the start, after a failure).
        self._seen: tuple[int | None, int | None] | None = None
        #: Inbound ids this poller saw committed in a final state (flagged without asking).
        self._final: set[int] = set()
        #: Seconds between flaggings (``MARK_EVERY``), and the loop time of the last one.
        self.mark_every = MARK_EVERY
        self._marked_at: float | None = None
        #: While a poll runs: its event stirred by news, mail processed, a thread ended
        #: (the loop then looks what to do); news of mail the IDLE watch brought
        #: (``nudge``), and whether the poll still takes mail in.
        self._stir: asyncio.Event | None = None
        self._news = False
        self._taking_in = False
        #: Called after each fetch (the IDLE watch may look for news again).
        self.on_fetch: Callable[[], None] | None = None
        #: ``after_each`` runs started and not yet done (kept from the collector).
        self._after_tasks: set[asyncio.Future[None]] = set()
        self._after_due = False
        #: The poller's own threads (``runtime.threads``).
        self.threads = OwnThreads(POOL, "poller")

    async def poll(self) -> PollResult:
        """Fetch, archive, process and mark; one poll at a time."""
        async with self._lock:
            try:
                return await self._poll()
            except BaseException:
                self._seen = None  # whatever failed, the next poll starts from the store
                raise

    def nudge(self) -> bool:
        """
        Mail has come (the IDLE watch's news): a poll running takes it in, fetching again
        at once (True); False when none runs or it takes nothing more in (start one).
        """
        if self._stir is None or not self._taking_in:
            return False
        self._news = True
        self._stir.set()
        return True

    async def mark_now(self) -> None:
        """Flag on the server every mail processed and not flagged yet (at a stop)."""
        async with self._lock:
            await self._mark()

    def close(self) -> None:
        """End the poller's threads (after ``mark_now``, at a stop); a later poll makes new ones."""
        self.threads.close()

    async def _poll(self) -> PollResult:
        if self._seen is None:
            self._seen = await self.threads.run(inbox.last_seen, self.store, self.source.folder)
        result = PollResult()
        found = await self._fetch(result)
        raws: dict[int, bytes] = {}
        queue = PollQueue(await self._take_in(found, raws), ahead=READ_AHEAD)
        await self._process(queue, raws, result, fetch_ahead=queue.size > 0)
        now = asyncio.get_running_loop().time()
        last = self._marked_at
        if last is None or now - last >= self.mark_every or len(self._unmarked) >= MARK_AT_MOST:
            await self._mark()
        return result

    async def _fetch(self, result: PollResult) -> FetchResult:
        """The mails above the last one taken in (``FETCH_LIMIT`` at most)."""
        uidvalidity, since = self._seen or (None, None)
        try:
            found = await self.source.fetch_new(since, uidvalidity, limit=FETCH_LIMIT)
        finally:
            if self.on_fetch is not None:
                self.on_fetch()
        result.fetched += len(found.messages)
        return found

    async def _take_in(self, found: FetchResult, raws: dict[int, bytes]) -> list[int]:
        """
        A fetch's mails archived, their first ones read meanwhile (``READ_EARLY``);
        returns every mail waiting (``FETCH_LIMIT`` at most), in the order they came.
        """
        early = None
        if found.messages:
            chunk = [raw for _, raw in found.messages[:READ_EARLY]]
            early = asyncio.ensure_future(self.threads.run(self._read_raws, chunk))
        try:
            archived, waiting = await self.threads.run(
                self._archive, found.messages, found.uidvalidity)
        finally:
            if early is not None:  # never read the same mail twice at once
                await early
        if found.last_uid is not None:
            self._seen = (found.uidvalidity, found.last_uid)
        for (uid, raw), message_id in zip(found.messages, archived, strict=True):
            self._unmarked.append((found.uidvalidity, uid, message_id))
            raws[message_id] = raw
        return waiting

    def _read_raws(self, raws: list[bytes]) -> None:
        for raw in raws:
            read_raw_ahead(self.handler, raw)

    def _read(self, message_id: int, raws: dict[int, bytes]) -> None:
        """A waiting mail read ahead: from the bytes fetched, or else from the store."""
        raw = raws.get(message_id)
        if raw is None or not read_raw_ahead(self.handler, raw):
            read_ahead(self.store, message_id, self.handler)

    async def _process(self, queue: PollQueue, raws: dict[int, bytes], result: PollResult,
                       *, fetch_ahead: bool) -> None:
        """
        The poll's mails processed in turn in one thread while the ones after are read
        in another; meanwhile the loop fetches again (once at the start, then whenever
        the IDLE watch has news) and adds what came, until every mail is processed with
        no news waiting, or the poll has ``POLL_MOST`` mails (it then says ``more``).
        Threads run whole stretches of mails: a hop through the event loop for each
        mail cost more than the mail's decision under load (issue 28).
        """
        loop = asyncio.get_running_loop()
        stir = self._stir = asyncio.Event()
        self._news, self._taking_in = fetch_ahead, True
        threads: set[asyncio.Future[list[str]]] = set()
        fetching = True
        try:
            while True:
                stir.clear()
                self._start_threads(queue, raws, threads, loop)
                for done in [thread for thread in threads if thread.done()]:
                    threads.discard(done)
                    for status in done.result():  # a thread's failure fails the poll
                        result.statuses[status] = result.statuses.get(status, 0) + 1
                self._taking_in = fetching and queue.size < POLL_MOST
                if self._news and self._taking_in:
                    self._news = False
                    try:
                        found = await self._fetch(result)
                    except MailError as exc:  # the next poll fetches again (and fails, if it lasts)
                        log.info("a fetch during the poll failed (%s): the next poll fetches again",
                                 exc)
                        self._news, fetching = True, False
                        continue
                    queue.add(await self._take_in(found, raws))
                    self._news = self._news or found.more
                elif queue.drained() and not threads:
                    break
                else:
                    await stir.wait()
        finally:
            result.more = self._news or queue.size >= POLL_MOST
            self._stir, self._taking_in = None, False
            queue.stop()  # cut off: the mail in hand ends in its thread, committed whole
            if threads:
                await asyncio.gather(*threads, return_exceptions=True)

    def _start_threads(self, queue: PollQueue, raws: dict[int, bytes],
                       threads: set[asyncio.Future[list[str]]],
                       loop: asyncio.AbstractEventLoop) -> None:
        """The reading and processing threads started again for the mails added."""
        reader, processor = queue.threads_wanted()
        for wanted, work in ((reader, partial(self._read_all, queue, raws)),
                             (processor, partial(self._process_all, queue, loop))):
            if wanted:
                thread = asyncio.ensure_future(self.threads.run(work))
                thread.add_done_callback(lambda _done: self._stir_soon())
                threads.add(thread)

    def _stir_soon(self) -> None:
        if self._stir is not None:
            self._stir.set()

    def _read_all(self, queue: PollQueue, raws: dict[int, bytes]) -> list[str]:
        """Mails read in turn, ``READ_AHEAD`` at most past the one processed."""
        while (next_mail := queue.next_to_read()) is not None:
            index, message_id = next_mail
            try:
                self._read(message_id, raws)
            finally:
                queue.done_reading(index)
        return []

    def _process_all(self, queue: PollQueue, loop: asyncio.AbstractEventLoop) -> list[str]:
        """
        Mails processed in turn, each once read, each in a transaction of its own;
        after each one that committed ``after_each`` is started on the loop (not waited
        for: its answers go out while the next is processed).
        """
        statuses: list[str] = []
        while (next_mail := queue.next_to_process()) is not None:
            index, message_id = next_mail
            status = self._process_one(message_id)
            statuses.append(status)
            queue.processed(index)
            committed = status not in (BUSY, SKIPPED)
            if committed:
                self._final.add(message_id)  # committed: processed, rejected or shunted
            loop.call_soon_threadsafe(self._processed_one, committed)
        return statuses

    def _processed_one(self, committed: bool) -> None:
        if committed and self.after_each is not None:
            self._after_each_soon()
        self._stir_soon()

    def _after_each_soon(self) -> None:
        """
        ``after_each`` started on the loop, once for the mails that committed since the
        last one began (a burst of them is one start: it brings the same jobs forward).
        """
        if self._after_due:
            return
        self._after_due = True
        task = asyncio.ensure_future(self._after_each_once())
        self._after_tasks.add(task)
        task.add_done_callback(self._after_done)

    async def _after_each_once(self) -> None:
        self._after_due = False
        if self.after_each is not None:
            await self.after_each()

    def _after_done(self, task: asyncio.Future[None]) -> None:
        self._after_tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("after a mail: %s", task.exception())

    def _archive(
        self, messages: list[tuple[int, bytes]], uidvalidity: int
    ) -> tuple[list[int], list[int]]:
        """The fetched mails archived (their ids), then every mail waiting: one thread call."""
        archived = inbox.receive_all(
            self.store, messages, mailbox=self.source.folder, uidvalidity=uidvalidity
        )
        return archived, inbox.pending_ids(self.store, FETCH_LIMIT)

    def _process_one(self, message_id: int) -> str:
        status = process_message(self.store, message_id, self.handler,
                                 gm_address=self.gm_address, read=False)
        if status != SKIPPED:
            log.info("mail %d: %s", message_id, status)
        return status

    async def _mark(self) -> None:
        """Flag on the server the mails whose processing has committed."""
        if not self._unmarked:
            return
        self._marked_at = asyncio.get_running_loop().time()
        unknown = [message_id for _, _, message_id in self._unmarked if message_id not in self._final]
        statuses = await self.threads.run(inbox.statuses, self.store, unknown) if unknown else {}
        done = [
            entry
            for entry in self._unmarked
            if entry[2] in self._final or statuses.get(entry[2], RECEIVED) != RECEIVED
        ]
        by_validity: dict[int, list[int]] = {}
        for validity, uid, _ in done:
            by_validity.setdefault(validity, []).append(uid)
        for validity, uids in by_validity.items():
            try:
                await self.source.mark_done(uids, uidvalidity=validity)
            except UidValidityChangedError:
                log.warning("folder renumbered: %d processed mails left unflagged", len(uids))
        self._unmarked = [entry for entry in self._unmarked if entry not in done]
        self._final.clear()  # those flagged are done with; the others were asked of the store
