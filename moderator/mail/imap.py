"""
The moderator's inbox: an IMAP mailbox read over aioimaplib.

``ImapSource`` fetches the messages that arrived after the last UID the caller
recorded, exactly as the server holds them, and marks them done only when the
caller says so.  The rules it keeps, each against a known way to lose or
repeat mail:

- **UIDVALIDITY.**  A UID names a message only together with the folder's
  UIDVALIDITY.  ``fetch_new`` reads it on every call; when it differs from the
  caller's record the old UIDs mean nothing, so every message is fetched again
  and ``FetchResult.uidvalidity_changed`` says so (the caller's store
  recognises the repeats by Message-ID and content).
- **Nothing is marked by reading.**  Bodies are fetched with ``BODY.PEEK[]``,
  so no ``\\Seen`` flag is set; ``mark_done`` is the only write, and the caller
  calls it after its own commit.  A crash in between fetches the mail again.
- **The ``n:*`` quirk.**  ``UID SEARCH UID n:*`` always matches the last
  message, even when its UID is below ``n``; the answer is filtered.
- **No capped search.**  The search is never capped: ``limit`` returns the
  *lowest* new UIDs first and ``FetchResult.more`` says that more wait, so each
  call makes progress.
- **No needless round trip.**  The SELECT answer's ``UIDNEXT`` bounds the UIDs
  there: none above the caller's means nothing to fetch (no search), and a range
  short enough for one batch is fetched by UID range at once (no search first;
  UIDs missing from it were expunged).  A server that names no ``UIDNEXT`` is
  searched as before (issue 28: a poll's commands are on the moderator's path).
- **Dropped connections.**  A connection found dropped between calls is
  reopened silently; one that drops during a call raises
  ``MailTransportError`` and the next call reconnects.

The folder names are passed to the server as they are (ASCII names only).  The
connection itself (login, timeouts, reconnecting, IDLE) is ``imap_connection``'s; the
reading of responses is ``imap_responses``'s.
"""

from __future__ import annotations

import asyncio
import re
import ssl
from collections.abc import Awaitable, Iterable
from dataclasses import field
from typing import Any

from moderator.mail.errors import MailError, MailTransportError
from moderator.mail.imap_connection import ImapConnection
from moderator.mail.imap_responses import (
    fetched_bodies,
    mailbox_arg,
    response_text,
    says_already_exists,
    says_trycreate,
    search_uids,
    uid_set,
)
from moderator.records import record

#: The keyword ``mark_done`` sets where the server allows keywords.
DONE_KEYWORD = "$TitanProcessed"
#: Longest single IDLE: servers may drop an IDLE connection after 30 minutes (RFC 2177).
MAX_IDLE_SECONDS = 25 * 60

_UIDVALIDITY = re.compile(rb"\[UIDVALIDITY (\d+)\]", re.IGNORECASE)
_PERMANENTFLAGS = re.compile(rb"\[PERMANENTFLAGS \(([^)]*)\)\]", re.IGNORECASE)
_UIDNEXT = re.compile(rb"\[UIDNEXT (\d+)\]", re.IGNORECASE)


class UidValidityChangedError(MailError):
    """
    Raised by ``mark_done`` when the folder's UIDVALIDITY is no longer the one
    the UIDs were read under: they may name other messages now, so nothing was
    marked.
    """

    def __init__(self, message: str, *, expected: int, found: int) -> None:
        super().__init__(message)
        self.expected = expected
        self.found = found


@record
class FetchResult:
    """
    What ``fetch_new`` found: the folder's UIDVALIDITY and the new messages as
    ``(uid, raw_bytes)`` in ascending UID order.

    ``uidvalidity_changed`` is true when the caller's UIDVALIDITY was not the
    folder's: the UIDs it recorded are void and every message was fetched.
    ``more`` is true when ``limit`` held messages back.
    """

    uidvalidity: int
    messages: list[tuple[int, bytes]] = field(default_factory=list)
    uidvalidity_changed: bool = False
    more: bool = False

    @property
    def last_uid(self) -> int | None:
        """The highest UID fetched, or None when nothing was."""
        return self.messages[-1][0] if self.messages else None


class ImapSource(ImapConnection):
    """
    One IMAP folder read by the moderator (see the module's docstring).

    Not safe for concurrent calls from several tasks: calls are serialised by
    a lock.  ``ssl_context`` replaces the default (verifying) one when ``tls``
    is set; ``timeout`` bounds every command in seconds; ``batch_size`` is the
    number of messages per ``UID FETCH``.
    """

    def __init__(
        self,
        host: str,
        port: int,
        user: str,
        password: str,
        *,
        tls: bool,
        folder: str = "INBOX",
        processed_folder: str | None = None,
        ssl_context: ssl.SSLContext | None = None,
        timeout: float = 30.0,
        batch_size: int = 50,
    ) -> None:
        if batch_size < 1:
            msg = f"batch_size must be at least 1, not {batch_size!r}"
            raise ValueError(msg)
        super().__init__(
            host, port, user, password, tls=tls, ssl_context=ssl_context, timeout=timeout
        )
        self.folder = folder
        self.processed_folder = processed_folder
        self._batch_size = batch_size
        self._keywords_allowed = False
        #: UIDVALIDITY and highest UID handed to the caller (for ``idle_wait``).
        self._known: tuple[int, int] | None = None
        #: The UIDNEXT of the last SELECT's answer (None: the server named none).
        self._uidnext: int | None = None

    def __repr__(self) -> str:
        return f"ImapSource({self.host!r}, {self.port!r}, {self.user!r}, folder={self.folder!r})"

    @property
    def done_flag(self) -> str:
        """
        The flag ``mark_done`` sets: ``$TitanProcessed`` where the folder takes
        keywords (its PERMANENTFLAGS hold ``\\*``), else ``\\Seen``; known once the
        folder was selected.
        """
        return DONE_KEYWORD if self._keywords_allowed else "\\Seen"

    # -- the API ---------------------------------------------------------------

    async def fetch_new(
        self, since_uid: int | None, uidvalidity: int | None, *, limit: int | None = None
    ) -> FetchResult:
        """
        Fetch the messages with a UID above ``since_uid``, never marking them.

        Args:
            since_uid: the highest UID the caller has stored, None for none.
            uidvalidity: the UIDVALIDITY ``since_uid`` belongs to, None if unknown
                (then ``since_uid`` is trusted).
            limit: at most this many messages, the lowest UIDs first.

        Raises:
            MailTransportError: the server could not be reached, dropped the
                connection or refused the folder.
        """
        if limit is not None and limit < 1:
            msg = f"limit must be at least 1, not {limit!r}"
            raise ValueError(msg)
        async with self._lock:
            current = await self._select()
            changed = uidvalidity is not None and uidvalidity != current
            floor = 0 if changed or since_uid is None else since_uid
            top, more = self._uidnext, False
            span = min(self._batch_size, limit or self._batch_size)
            messages: list[tuple[int, bytes]] = []
            if top is not None and top - 1 - floor <= span:
                # Every UID there is below UIDNEXT: the range is all there is to read.
                if top - 1 > floor:
                    messages = await self._fetch_batch(list(range(floor + 1, top)))
            else:
                criteria = "ALL" if floor == 0 else f"UID {floor + 1}:*"
                found = await self._command(
                    "UID SEARCH", self._imap.uid_search(criteria, charset=None)
                )
                new = sorted(uid for uid in set(search_uids(found.lines)) if uid > floor)
                more = limit is not None and len(new) > limit
                if limit is not None:
                    new = new[:limit]
                for start in range(0, len(new), self._batch_size):
                    batch = new[start : start + self._batch_size]
                    messages += await self._fetch_batch(batch)
            last = messages[-1][0] if messages else floor
            if top is not None and not more:
                last = max(last, top - 1)  # all below UIDNEXT was read (or is gone)
            self._known = (current, last)
            return FetchResult(current, messages, uidvalidity_changed=changed, more=more)

    async def mark_done(self, uids: Iterable[int], *, uidvalidity: int | None = None) -> None:
        """
        Mark messages as processed: the ``$TitanProcessed`` keyword (``\\Seen``
        where the folder takes no keywords), then a move to ``processed_folder``
        when one is set (created if missing).

        Args:
            uids: UIDs from ``fetch_new``.
            uidvalidity: the UIDVALIDITY they were read under; by default the
                one the last ``fetch_new`` saw.

        Raises:
            UidValidityChangedError: the folder's UIDVALIDITY changed meanwhile.
            MailTransportError: the server could not be reached or refused.
        """
        wanted = sorted(set(uids))
        if not wanted:
            return
        async with self._lock:
            expected = uidvalidity if uidvalidity is not None else self._last_uidvalidity()
            current = await self._ensure_selected()
            if expected is not None and expected != current:
                msg = (
                    f"uidvalidity of {self.folder!r} changed from {expected} to {current}: "
                    f"uids {uid_set(wanted)} left unmarked"
                )
                raise UidValidityChangedError(msg, expected=expected, found=current)
            flag = self.done_flag
            for start in range(0, len(wanted), 500):
                chunk = uid_set(wanted[start : start + 500])
                await self._expect_ok(
                    "UID STORE", self._imap.uid("store", chunk, "+FLAGS.SILENT", f"({flag})")
                )
                if self.processed_folder is not None:
                    await self._move(chunk, self.processed_folder)

    async def idle_wait(self, timeout: float, *, fetched_by: ImapSource | None = None) -> bool:
        """
        Wait until the folder may hold new mail, for at most ``timeout`` seconds.

        Returns True when the server announced a new message (or one above the
        last UID fetched is already there), False when the time ran out.  A
        server without IDLE returns False at once: the caller polls.
        ``fetched_by``: the connection whose fetches say what is known (the service
        waits on a second connection while its poller fetches on the first); by
        default this one.

        Raises:
            MailTransportError: the connection dropped while waiting.
        """
        known = (fetched_by or self)._known
        async with self._lock:
            await self._select()
            if "IDLE" not in self.capabilities:
                return False
            if await self._news_since(known):
                return True
            client = self._imap
            while not client.protocol.idle_queue.empty():
                client.protocol.idle_queue.get_nowait()  # pushes from an earlier IDLE
            loop = asyncio.get_running_loop()
            deadline = loop.time() + timeout
            while True:
                remaining = deadline - loop.time()
                if remaining <= 0:
                    return False
                if await self._idle_once(min(remaining, MAX_IDLE_SECONDS)):
                    return True

    # -- folder work -------------------------------------------------------------

    def _last_uidvalidity(self) -> int | None:
        return self._known[0] if self._known is not None else None

    async def _expect_ok(self, what: str, operation: Awaitable[Any]) -> Any:
        response = await self._command(what, operation)
        if response.result != "OK":
            msg = f"imap {what} in {self.folder!r} refused: {response_text(response.lines)}"
            raise MailTransportError(msg, permanent=response.result == "BAD")
        return response

    async def _select(self) -> int:
        """Select the folder (connecting if need be); returns its UIDVALIDITY."""
        await self._connect()
        response = await self._command("SELECT", self._imap.select(mailbox_arg(self.folder)))
        text = b"\n".join(line for line in response.lines if isinstance(line, bytes))
        found = _UIDVALIDITY.search(text)
        if response.result != "OK" or found is None:
            msg = f"imap folder {self.folder!r} cannot be selected: {response_text(response.lines)}"
            raise MailTransportError(msg, permanent=True)
        flags = _PERMANENTFLAGS.search(text)
        permanent = flags.group(1).split() if flags else []
        self._keywords_allowed = b"\\*" in permanent or DONE_KEYWORD.encode() in permanent
        uidnext = _UIDNEXT.search(text)
        self._uidnext = int(uidnext.group(1)) if uidnext else None
        self._selected_uidvalidity = int(found.group(1))
        return self._selected_uidvalidity

    async def _ensure_selected(self) -> int:
        """The folder's UIDVALIDITY, selecting it only if the connection is new."""
        if self._alive() and self._selected_uidvalidity is not None:
            return self._selected_uidvalidity
        return await self._select()

    async def _fetch_batch(self, uids: list[int]) -> list[tuple[int, bytes]]:
        response = await self._expect_ok(
            "UID FETCH", self._imap.uid("fetch", uid_set(uids), "(UID BODY.PEEK[])")
        )
        bodies = fetched_bodies(response.lines)
        # A UID missing from the answer was expunged meanwhile: nothing to read.
        return [(uid, bodies[uid]) for uid in uids if uid in bodies]

    async def _move(self, chunk: str, target: str) -> None:
        mailbox = mailbox_arg(target)
        client = self._imap
        if "MOVE" in self.capabilities:
            response = await self._command("UID MOVE", client.uid("move", chunk, mailbox))
            if response.result != "OK" and says_trycreate(response.lines):
                await self._create(target)
                response = await self._command("UID MOVE", client.uid("move", chunk, mailbox))
            if response.result != "OK":
                msg = f"imap UID MOVE to {target!r} refused: {response_text(response.lines)}"
                raise MailTransportError(msg, permanent=response.result == "BAD")
            return
        response = await self._command("UID COPY", client.uid("copy", chunk, mailbox))
        if response.result != "OK" and says_trycreate(response.lines):
            await self._create(target)
            response = await self._command("UID COPY", client.uid("copy", chunk, mailbox))
        if response.result != "OK":
            msg = f"imap UID COPY to {target!r} refused: {response_text(response.lines)}"
            raise MailTransportError(msg, permanent=response.result == "BAD")
        await self._expect_ok(
            "UID STORE", client.uid("store", chunk, "+FLAGS.SILENT", r"(\Deleted)")
        )
        if "UIDPLUS" in self.capabilities:
            await self._expect_ok("UID EXPUNGE", client.uid("expunge", chunk))
        else:
            # Without UIDPLUS this also expunges whatever else carries \Deleted.
            await self._expect_ok("EXPUNGE", client.expunge())

    async def _create(self, name: str) -> None:
        response = await self._command("CREATE", self._imap.create(mailbox_arg(name)))
        if response.result != "OK" and not says_already_exists(response.lines):
            msg = f"imap CREATE {name!r} refused: {response_text(response.lines)}"
            raise MailTransportError(msg, permanent=True)

    async def _news_since(self, known: tuple[int, int] | None) -> bool:
        """
        Whether mail came in after the fetch that left ``known`` (before IDLE could see
        it); the SELECT's UIDNEXT answers without a search where the server names it.
        Before any fetch, whatever the folder holds is news: IDLE announces only what
        comes while it waits, so mail already there would never wake the caller.
        """
        if known is None:
            return True
        known_validity, last = known
        if known_validity != self._selected_uidvalidity:
            return True
        if self._uidnext is not None:
            return self._uidnext - 1 > last
        criteria = "ALL" if last == 0 else f"UID {last + 1}:*"
        found = await self._command("UID SEARCH", self._imap.uid_search(criteria, charset=None))
        return any(uid > last for uid in search_uids(found.lines))
