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
- **Dropped connections.**  A connection found dropped between calls is
  reopened silently; one that drops during a call raises
  ``MailTransportError`` and the next call reconnects.

The folder names are passed to the server as they are (ASCII names only).
"""

from __future__ import annotations

import asyncio
import re
import ssl
from collections.abc import Awaitable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Self, TypeVar

import aioimaplib

from moderator.mail.errors import MailError, MailTransportError

#: The keyword ``mark_done`` sets where the server allows keywords.
DONE_KEYWORD = "$TitanProcessed"
#: Longest single IDLE: servers may drop an IDLE connection after 30 minutes (RFC 2177).
MAX_IDLE_SECONDS = 25 * 60

_T = TypeVar("_T")
_UIDVALIDITY = re.compile(rb"\[UIDVALIDITY (\d+)\]", re.IGNORECASE)
_PERMANENTFLAGS = re.compile(rb"\[PERMANENTFLAGS \(([^)]*)\)\]", re.IGNORECASE)
_FETCH_START = re.compile(rb"^\d+ FETCH \(", re.IGNORECASE)
_FETCH_UID = re.compile(rb"\bUID (\d+)", re.IGNORECASE)
_BODY_LITERAL = re.compile(rb"BODY\[\] \{\d+\}$", re.IGNORECASE)
_PUSH_NEWS = re.compile(rb"^\d+ (EXISTS|RECENT)\b", re.IGNORECASE)
_ATOM = re.compile(r"^[A-Za-z0-9._/&+-]+$")


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


@dataclass(frozen=True, slots=True)
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


def uid_set(uids: Iterable[int]) -> str:
    """
    The IMAP sequence set naming ``uids``, with runs folded into ranges.

    >>> uid_set([5, 1, 2, 3, 9])
    '1:3,5,9'
    """
    ordered = sorted(set(uids))
    parts: list[str] = []
    start = prev = ordered[0]
    for uid in [*ordered[1:], None]:
        if uid is not None and uid == prev + 1:
            prev = uid
            continue
        parts.append(str(start) if start == prev else f"{start}:{prev}")
        if uid is not None:
            start = prev = uid
    return ",".join(parts)


def search_uids(lines: Sequence[Any]) -> list[int]:
    """
    The UIDs in a ``UID SEARCH`` response.

    aioimaplib strips the ``* SEARCH`` of each untagged line (an empty answer
    leaves an empty line) and ends the list with the tagged status text.
    """
    found: list[int] = []
    for line in lines[:-1]:
        if not isinstance(line, bytes):
            continue
        words = line.split()
        if words and words[0].upper() == b"SEARCH":
            words = words[1:]
        found += [int(word) for word in words if word.isdigit()]
    return found


def fetched_bodies(lines: Sequence[Any]) -> dict[int, bytes]:
    """
    The ``BODY[]`` literal of every message in a ``UID FETCH`` response, by UID.

    aioimaplib hands the response over as text lines (``bytes``) with each
    literal as a ``bytearray`` after the line that announced it; the UID may
    stand before or after the literal.
    """
    bodies: dict[int, bytes] = {}
    uid: int | None = None
    body: bytes | None = None
    announced = False

    def finish() -> None:
        if uid is not None and body is not None:
            bodies[uid] = body

    for line in lines:
        if isinstance(line, bytearray):
            if announced:
                body = bytes(line)
            announced = False
            continue
        if not isinstance(line, bytes):
            continue
        if _FETCH_START.match(line):
            finish()
            uid, body = None, None
        found = _FETCH_UID.search(line)
        if found:
            uid = int(found.group(1))
        announced = bool(_BODY_LITERAL.search(line))
    finish()
    return bodies


def _mailbox_arg(name: str) -> str:
    return name if _ATOM.match(name) else aioimaplib.quoted(name)


class ImapSource:
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
        self.host = host
        self.port = port
        self.user = user
        self.folder = folder
        self.processed_folder = processed_folder
        self._password = password
        self._tls = tls
        self._ssl_context = ssl_context
        self._timeout = timeout
        self._batch_size = batch_size
        self._lock = asyncio.Lock()
        self._client: aioimaplib.IMAP4 | None = None
        self._lost: asyncio.Future[None] | None = None
        self._selected_uidvalidity: int | None = None
        self._keywords_allowed = False
        #: UIDVALIDITY and highest UID handed to the caller (for ``idle_wait``).
        self._known: tuple[int, int] | None = None

    def __repr__(self) -> str:
        return f"ImapSource({self.host!r}, {self.port!r}, {self.user!r}, folder={self.folder!r})"

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @property
    def capabilities(self) -> frozenset[str]:
        """What the server said it can do after login (empty before a connection)."""
        if self._client is None:
            return frozenset()
        return frozenset(cap.upper() for cap in self._client.protocol.capabilities)

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
            criteria = "ALL" if floor == 0 else f"UID {floor + 1}:*"
            found = await self._command("UID SEARCH", self._imap.uid_search(criteria, charset=None))
            new = sorted(uid for uid in set(search_uids(found.lines)) if uid > floor)
            more = limit is not None and len(new) > limit
            if limit is not None:
                new = new[:limit]
            messages: list[tuple[int, bytes]] = []
            for start in range(0, len(new), self._batch_size):
                batch = new[start : start + self._batch_size]
                messages += await self._fetch_batch(batch)
            last = messages[-1][0] if messages else floor
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

    async def idle_wait(self, timeout: float) -> bool:
        """
        Wait until the folder may hold new mail, for at most ``timeout`` seconds.

        Returns True when the server announced a new message (or one above the
        last UID fetched is already there), False when the time ran out.  A
        server without IDLE returns False at once: the caller polls.

        Raises:
            MailTransportError: the connection dropped while waiting.
        """
        async with self._lock:
            await self._select()
            if "IDLE" not in self.capabilities:
                return False
            if await self._news_since_last_fetch():
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

    async def close(self) -> None:
        """
        Log out and close the connection (a later call opens a new one).

        A call under way in another task (an ``idle_wait``, say) has its
        connection closed under it and raises ``MailTransportError``.
        """
        if self._lock.locked():
            self._drop()
        async with self._lock:
            client = self._client
            if client is not None and self._alive():
                try:
                    async with asyncio.timeout(min(self._timeout, 5.0)):
                        await client.logout()
                except (TimeoutError, aioimaplib.AioImapException, OSError):
                    pass
            self._drop()

    # -- connection ------------------------------------------------------------

    @property
    def _imap(self) -> aioimaplib.IMAP4:
        assert self._client is not None  # set by _connect
        return self._client

    def _alive(self) -> bool:
        return self._client is not None and self._lost is not None and not self._lost.done()

    def _last_uidvalidity(self) -> int | None:
        return self._known[0] if self._known is not None else None

    async def _connect(self) -> None:
        if self._alive():
            return
        self._drop()
        loop = asyncio.get_running_loop()
        lost: asyncio.Future[None] = loop.create_future()

        def on_lost(exc: Exception | None) -> None:
            if not lost.done():
                lost.set_result(None)

        context = None
        if self._tls:
            context = self._ssl_context or ssl.create_default_context()
        where = f"{self.host}:{self.port}"
        try:
            client = aioimaplib.IMAP4(
                self.host,
                self.port,
                timeout=self._timeout * 2,
                conn_lost_cb=on_lost,
                ssl_context=context,
            )
        except (OSError, RuntimeError) as exc:
            msg = f"imap connection to {where} failed: {exc}"
            raise MailTransportError(msg) from exc
        self._client, self._lost = client, lost
        await self._command("greeting", client.wait_hello_from_server())
        login = await self._command(
            "LOGIN", client.login(aioimaplib.quoted(self.user), self._password)
        )
        if login.result != "OK":
            self._drop()
            msg = f"imap login as {self.user!r} on {where} refused: {_text(login.lines)}"
            raise MailTransportError(msg, permanent=True)
        # The capabilities after login are the ones that count (MOVE, IDLE, UIDPLUS ...).
        await self._command("CAPABILITY", client.protocol.capability())

    def _drop(self) -> None:
        client, self._client = self._client, None
        self._selected_uidvalidity = None
        if client is None:
            return
        for task in list(client.tasks) + list(client.protocol.tasks):
            task.cancel()
        if client._idle_waiter is not None:
            client._idle_waiter.cancel()
        transport = client.protocol.transport
        if transport is not None:
            transport.close()
        elif not client._client_task.done():
            client._client_task.cancel()

    async def _command(
        self, what: str, operation: Awaitable[_T], *, timeout: float | None = None
    ) -> _T:
        """Run one exchange, turning a dropped connection or a timeout into ``MailTransportError``."""
        lost = self._lost
        assert lost is not None
        task = asyncio.ensure_future(operation)
        waiters: set[asyncio.Future[Any]] = {task, lost}
        try:
            done, _ = await asyncio.wait(
                waiters,
                timeout=self._timeout if timeout is None else timeout,
                return_when=asyncio.FIRST_COMPLETED,
            )
        except asyncio.CancelledError:
            task.cancel()
            self._drop()
            raise
        where = f"{self.host}:{self.port}"
        if task in done:
            try:
                return task.result()
            except (TimeoutError, aioimaplib.AioImapException, OSError) as exc:
                self._drop()
                msg = f"imap {what} on {where} failed: {exc!r}"
                raise MailTransportError(msg) from exc
        task.cancel()
        self._drop()
        cause = "connection lost" if lost in done else "timed out"
        msg = f"imap {what} on {where} failed: {cause}"
        raise MailTransportError(msg)

    async def _expect_ok(self, what: str, operation: Awaitable[Any]) -> Any:
        response = await self._command(what, operation)
        if response.result != "OK":
            msg = f"imap {what} in {self.folder!r} refused: {_text(response.lines)}"
            raise MailTransportError(msg, permanent=response.result == "BAD")
        return response

    # -- folder work -------------------------------------------------------------

    async def _select(self) -> int:
        """Select the folder (connecting if need be); returns its UIDVALIDITY."""
        await self._connect()
        response = await self._command("SELECT", self._imap.select(_mailbox_arg(self.folder)))
        text = b"\n".join(line for line in response.lines if isinstance(line, bytes))
        found = _UIDVALIDITY.search(text)
        if response.result != "OK" or found is None:
            msg = f"imap folder {self.folder!r} cannot be selected: {_text(response.lines)}"
            raise MailTransportError(msg, permanent=True)
        flags = _PERMANENTFLAGS.search(text)
        permanent = flags.group(1).split() if flags else []
        self._keywords_allowed = b"\\*" in permanent or DONE_KEYWORD.encode() in permanent
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
        mailbox = _mailbox_arg(target)
        client = self._imap
        if "MOVE" in self.capabilities:
            response = await self._command("UID MOVE", client.uid("move", chunk, mailbox))
            if response.result != "OK" and _trycreate(response.lines):
                await self._create(target)
                response = await self._command("UID MOVE", client.uid("move", chunk, mailbox))
            if response.result != "OK":
                msg = f"imap UID MOVE to {target!r} refused: {_text(response.lines)}"
                raise MailTransportError(msg, permanent=response.result == "BAD")
            return
        response = await self._command("UID COPY", client.uid("copy", chunk, mailbox))
        if response.result != "OK" and _trycreate(response.lines):
            await self._create(target)
            response = await self._command("UID COPY", client.uid("copy", chunk, mailbox))
        if response.result != "OK":
            msg = f"imap UID COPY to {target!r} refused: {_text(response.lines)}"
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
        response = await self._command("CREATE", self._imap.create(_mailbox_arg(name)))
        if response.result != "OK" and not _already_exists(response.lines):
            msg = f"imap CREATE {name!r} refused: {_text(response.lines)}"
            raise MailTransportError(msg, permanent=True)

    async def _news_since_last_fetch(self) -> bool:
        """Whether mail came in after the last ``fetch_new`` (before IDLE could see it)."""
        if self._known is None:
            return False
        known_validity, last = self._known
        if known_validity != self._selected_uidvalidity:
            return True
        criteria = "ALL" if last == 0 else f"UID {last + 1}:*"
        found = await self._command("UID SEARCH", self._imap.uid_search(criteria, charset=None))
        return any(uid > last for uid in search_uids(found.lines))

    async def _idle_once(self, seconds: float) -> bool:
        """One IDLE of at most ``seconds``: True when the server announced news."""
        client, lost = self._imap, self._lost
        assert lost is not None
        # aioimaplib's own IDLE timer is set past ours: this method ends the IDLE.
        idle = await self._command("IDLE", client.idle_start(timeout=seconds + 60))
        try:
            woke = await self._await_news(client.protocol.idle_queue, lost, seconds)
        except BaseException:
            # Cancelled (or worse) in the middle of an IDLE: the connection is unusable.
            self._drop()
            raise
        client.idle_done()
        await self._command("IDLE DONE", idle)
        return woke

    async def _await_news(
        self, queue: asyncio.Queue[Any], lost: asyncio.Future[None], seconds: float
    ) -> bool:
        """Read IDLE pushes until one announces mail or ``seconds`` pass."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while (remaining := deadline - loop.time()) > 0:
            waiting = asyncio.ensure_future(queue.get())
            waiters: set[asyncio.Future[Any]] = {waiting, lost}
            try:
                done, _ = await asyncio.wait(
                    waiters, timeout=remaining, return_when=asyncio.FIRST_COMPLETED
                )
            finally:
                waiting.cancel()
            if lost in done:
                self._drop()
                msg = f"imap IDLE on {self.host}:{self.port} failed: connection lost"
                raise MailTransportError(msg)
            if waiting not in done:
                return False
            # Keep-alives ("OK Still here") and flag changes are not news.
            if any(isinstance(line, bytes) and _PUSH_NEWS.match(line) for line in waiting.result()):
                return True
        return False


def _text(lines: Sequence[Any]) -> str:
    parts = [line.decode("utf-8", "replace") for line in lines if isinstance(line, bytes)]
    return " / ".join(part for part in parts if part) or "no answer"


def _trycreate(lines: Sequence[Any]) -> bool:
    return any(isinstance(line, bytes) and b"[TRYCREATE]" in line.upper() for line in lines)


def _already_exists(lines: Sequence[Any]) -> bool:
    return any(
        isinstance(line, bytes)
        and (b"[ALREADYEXISTS]" in line.upper() or b"EXISTS" in line.upper())
        for line in lines
    )
