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
            self._seen = await asyncio.to_thread(inbox.last_seen, self.store, folder)
        uidvalidity, since = self._seen
        found, self._fetched = self._fetched, None
        if found is None or self._fetched_from != self._seen:
            found = await self.source.fetch_new(since, uidvalidity, limit=FETCH_LIMIT)
        result = PollResult(fetched=len(found.messages), more=found.more)
        archived, waiting = await asyncio.to_thread(self._archive, found.messages,
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
        early = [raw for _, raw in found.messages[:READ_EARLY]]
        if early:
            self._early = asyncio.ensure_future(asyncio.to_thread(self._read_raws, early))
        return found

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
        The waiting mails processed in turn, each in a thread call of its own, the next
        one read (parsed, its signature checked) in another thread meanwhile; the first
        ones were mostly read as soon as the fetch ahead found them.
        """
        early, self._early = self._early, None
        if early is not None:  # never read the same mail twice at once
            await early
        reading: asyncio.Future[None] | None = None
        try:
            for index, message_id in enumerate(waiting):
                if reading is None:  # the first: read here, unless it was read early
                    await asyncio.to_thread(self._read, message_id, raws)
                else:
                    await reading
                reading = (  # the next mail read while this one is decided
                    asyncio.ensure_future(asyncio.to_thread(
                        self._read, waiting[index + 1], raws))
                    if index + 1 < len(waiting) else None
                )
                # One mail per thread call: a round cut off at a stop ends after the mail in
                # hand (committed whole), and the rest wait for the next start.
                status = await asyncio.to_thread(self._process_one, message_id)
                result.statuses[status] = result.statuses.get(status, 0) + 1
                if status not in (BUSY, SKIPPED):
                    self._final.add(message_id)  # committed: processed, rejected or shunted
                if self.after_each is not None and status not in (BUSY, SKIPPED):
                    await self.after_each()
        finally:
            if reading is not None:
                reading.cancel()  # cut off: the reading's thread ends by itself, unused

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
        statuses = await asyncio.to_thread(inbox.statuses, self.store, unknown) if unknown else {}
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
