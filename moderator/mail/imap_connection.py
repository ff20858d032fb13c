"""
One IMAP connection over aioimaplib: connecting, logging in, running a command
under a timeout, waiting in IDLE, and dropping it cleanly.

aioimaplib reports a dropped connection only through a callback and leaves tasks
behind when a command is abandoned; this module turns both into
``MailTransportError`` and a clean slate, so ``ImapSource`` (``imap``), built on it,
deals only with folders and messages.  A connection found dropped between calls is
reopened silently; one that drops during a call raises and the next call reconnects.
"""

from __future__ import annotations

import asyncio
import re
import ssl
from collections.abc import Awaitable
from typing import Any, Self, TypeVar

import aioimaplib

from moderator.mail.errors import MailTransportError
from moderator.mail.imap_responses import response_text

_T = TypeVar("_T")
_PUSH_NEWS = re.compile(rb"^\d+ (EXISTS|RECENT)\b", re.IGNORECASE)


class ImapConnection:
    """
    A login on one IMAP server, opened on first use and reopened after a drop.

    ``ssl_context`` replaces the default (verifying) one when ``tls`` is set;
    ``timeout`` bounds every command in seconds.  Subclasses serialise their calls
    with ``_lock``; ``close`` may be called from another task at any time.
    """

    def __init__(
        self,
        host: str,
        port: int,
        user: str,
        password: str,
        *,
        tls: bool,
        ssl_context: ssl.SSLContext | None = None,
        timeout: float = 30.0,
    ) -> None:
        self.host = host
        self.port = port
        self.user = user
        self._password = password
        self._tls = tls
        self._ssl_context = ssl_context
        self._timeout = timeout
        self._lock = asyncio.Lock()
        self._client: aioimaplib.IMAP4 | None = None
        self._lost: asyncio.Future[None] | None = None
        #: The UIDVALIDITY of the folder selected on this connection (None: none yet).
        self._selected_uidvalidity: int | None = None

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
            refusal = response_text(login.lines)
            msg = f"imap login as {self.user!r} on {where} refused: {refusal}"
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

    # -- IDLE ------------------------------------------------------------------

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
