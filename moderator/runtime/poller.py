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

After each mail's transaction has committed, ``after_each`` (the service's) is awaited:
the answers and reports it wrote go out while the poll goes on with the next mails.

A crash between 2 and 3 leaves the mail archived and waiting: the next poll processes
it.  A crash between 3 and 4 leaves it unflagged on the server but known to the store,
which never fetches a UID twice.  The flag is for people and other mail programs (and
the move keeps the folder small): the store, not the flag, says what was processed, so
flagging a few seconds late changes nothing but spares a command per poll.

The serial path is kept short (issue 28): where the next fetch starts is read from the
store once and then kept (only this poller archives the folder's mail: the mailbox's
lock), and a mail whose processing this poller saw commit is flagged without asking the
store its state again.  A kept start that lags only fetches again what the store knows
(archived once by UID, its id handed back).  While a poll's mails are processed (in a
thread) the next fetch runs on the loop, from where this poll's fetch ended; the next
poll archives and processes what it found, after this poll's mails (a poll that leaves
such mail says ``more``: the next comes at once), and fetches afresh when it found
nothing or failed.  Mail fetched ahead and never archived is fetched again.

A mail's reading (its parse and signature check, GnuPG's share of the work) is kept
out of the serial path too: the first mails a fetch ahead finds are read as soon as it
finds them, and while one mail is processed the next is read, each in a thread of its
own.  A reading decides nothing: the handler uses it in the mail's transaction only
while its keyring is as it was (``moderator.usecases.mail.readings``).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

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
from moderator.runtime.threads import OwnThreads
from moderator.store import inbox
from moderator.store.eventstore import EventStore

log = logging.getLogger(__name__)

#: Mails fetched in one poll; the rest wait for the next (which comes at once).
FETCH_LIMIT = 200
#: Processed mail is flagged at most this often (seconds), or once this many wait.
MARK_EVERY, MARK_AT_MOST = 5.0, 500
#: Mails of a fetch run ahead read (parsed, signatures checked) as soon as they come,
#: while the poll before is still processing; the rest are read one ahead in turn.
READ_EARLY = 4
#: How many mails past the one being processed are read at most.
READ_AHEAD = 8
#: The poller's threads: one processing, one reading ahead, one reading a fetch's
#: first mails, one for the store's small reads and the archive.
POOL = 4


class _Progress:
    """
    Where a poll's mails are, shared by its processing and reading threads: each mail's
    reading done, the mails processed, and whether the poll was cut off.
    """

    def __init__(self, mails: int) -> None:
        self.read = [threading.Event() for _ in range(mails)]
        self._at = 0
        self._stopped = False
        self._changed = threading.Condition()

    def room_for(self, index: int) -> bool:
        """Wait until mail ``index`` may be read (False: the poll was cut off)."""
        with self._changed:
            while index - self._at > READ_AHEAD and not self._stopped:
                self._changed.wait()
            return not self._stopped

    def wait_read(self, index: int) -> bool:
        """Wait until mail ``index`` is read (False: the poll was cut off)."""
        while not self.read[index].wait(0.25):
            if self._stopped:
                return False
        return not self._stopped

    def processed(self, mails: int) -> None:
        with self._changed:
            self._at = mails
            self._changed.notify_all()

    def stop(self) -> None:
        with self._changed:
            self._stopped = True
            self._changed.notify_all()


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
        #: The fetch running ahead while a poll's mails are processed; what it found,
        #: kept for the next poll, and the start it fetched from.
        self._ahead: asyncio.Task[FetchResult] | None = None
        self._fetched: FetchResult | None = None
        self._fetched_from: tuple[int | None, int | None] | None = None
        #: The reading of the first mails the fetch ahead found (``READ_EARLY``).
        self._early: asyncio.Future[None] | None = None
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

    async def mark_now(self) -> None:
        """
        Flag on the server every mail processed and not flagged yet (at a stop); mail
        fetched ahead is left to the next start, which fetches it again.
        """
        async with self._lock:
            await self._settle_ahead()
            self._fetched = None
            if self._early is not None:
                self._early.cancel()  # its readings are only kept, never used for a decision
                self._early = None
            await self._mark()

    def close(self) -> None:
        """End the poller's threads (after ``mark_now``, at a stop); a later poll makes new ones."""
        self.threads.close()

    async def _settle_ahead(self) -> None:
        """The fetch running ahead waited for; what it found kept for the next poll."""
        ahead, self._ahead = self._ahead, None
        if ahead is None:
            return
        try:
            found = await ahead
        except MailError as exc:  # the next poll fetches again (and fails again, if it lasts)
            log.info("the fetch run ahead failed (%s): the next poll fetches again", exc)
            return
        self._fetched = found if found.messages else None

    async def _poll(self) -> PollResult:
        folder = self.source.folder
        if self._seen is None:
            await self._settle_ahead()
            self._fetched = None  # fetched from a start the store no longer vouches for
            self._seen = await self.threads.run(inbox.last_seen, self.store, folder)
        uidvalidity, since = self._seen
        found, self._fetched = self._fetched, None
        if found is None or self._fetched_from != self._seen:
            found = await self.source.fetch_new(since, uidvalidity, limit=FETCH_LIMIT)
            self._read_early(found)  # while the mails are archived
        result = PollResult(fetched=len(found.messages), more=found.more)
        archived, waiting = await self.threads.run(self._archive, found.messages,
                                                    found.uidvalidity)
        if found.last_uid is not None:
            self._seen = (found.uidvalidity, found.last_uid)
        for (uid, _raw), message_id in zip(found.messages, archived, strict=True):
            self._unmarked.append((found.uidvalidity, uid, message_id))
        if waiting:  # the next fetch, while these are processed
            self._fetched_from = validity_and_start = self._seen
            self._ahead = asyncio.create_task(
                self._fetch_ahead(validity_and_start[1], validity_and_start[0]),
                name="fetch-ahead",
            )
        raws = {message_id: raw for (_, raw), message_id in zip(found.messages, archived,
                                                                 strict=True)}
        await self._process(waiting, result, raws)
        await self._settle_ahead()  # mostly done by now
        result.more = result.more or self._fetched is not None
        now = asyncio.get_running_loop().time()
        last = self._marked_at
        if last is None or now - last >= self.mark_every or len(self._unmarked) >= MARK_AT_MOST:
            await self._mark()
        return result

    async def _fetch_ahead(self, since: int | None, uidvalidity: int | None) -> FetchResult:
        """The next fetch, its first mails then read at once (``READ_EARLY``)."""
        found = await self.source.fetch_new(since, uidvalidity, limit=FETCH_LIMIT)
        self._read_early(found)
        return found

    def _read_early(self, found: FetchResult) -> None:
        """The first mails of a fetch read at once, in a thread (``READ_EARLY``)."""
        early = [raw for _, raw in found.messages[:READ_EARLY]]
        if early and self._early is None:
            self._early = asyncio.ensure_future(self.threads.run(self._read_raws, early))

    def _read_raws(self, raws: list[bytes]) -> None:
        for raw in raws:
            read_raw_ahead(self.handler, raw)

    def _read(self, message_id: int, raws: dict[int, bytes]) -> None:
        """A waiting mail read ahead: from the bytes fetched, or else from the store."""
        raw = raws.get(message_id)
        if raw is None or not read_raw_ahead(self.handler, raw):
            read_ahead(self.store, message_id, self.handler)

    async def _process(self, waiting: list[int], result: PollResult,
                       raws: dict[int, bytes]) -> None:
        """
        The waiting mails processed in turn in one thread, while the ones after it are
        read (parsed, their signatures checked) in another, at most ``READ_AHEAD``
        ahead; the first ones were mostly read as soon as the fetch ahead found them.
        Both threads run the whole poll's mails: a hop through the event loop for each
        mail cost more than the mail's decision under load (issue 28).
        """
        early, self._early = self._early, None
        if early is not None:  # never read the same mail twice at once
            await early
        progress = _Progress(len(waiting))
        reading = asyncio.ensure_future(self.threads.run(self._read_all, waiting, raws, progress))
        await asyncio.sleep(0)  # the reading handed to its thread before the processing
        try:
            statuses = await self.threads.run(
                self._process_all, waiting, progress, asyncio.get_running_loop())
        finally:
            progress.stop()  # cut off: the mail in hand ends in its thread, committed whole
            reading.cancel()
        for status in statuses:
            result.statuses[status] = result.statuses.get(status, 0) + 1

    def _read_all(self, waiting: list[int], raws: dict[int, bytes], progress: _Progress) -> None:
        """A poll's mails read in turn, ``READ_AHEAD`` at most past the one processed."""
        for index, message_id in enumerate(waiting):
            if not progress.room_for(index):
                return
            try:
                self._read(message_id, raws)
            finally:
                progress.read[index].set()

    def _process_all(
        self, waiting: list[int], progress: _Progress, loop: asyncio.AbstractEventLoop
    ) -> list[str]:
        """
        A poll's mails processed in turn, each once read, each in a transaction of its
        own; after each one that committed ``after_each`` is started on the loop (not
        waited for: its answers go out while the next is processed).
        """
        statuses: list[str] = []
        for index, message_id in enumerate(waiting):
            if not progress.wait_read(index):
                break
            status = self._process_one(message_id)
            statuses.append(status)
            progress.processed(index + 1)
            if status not in (BUSY, SKIPPED):
                self._final.add(message_id)  # committed: processed, rejected or shunted
                if self.after_each is not None:
                    loop.call_soon_threadsafe(self._after_each_soon)
        return statuses

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
