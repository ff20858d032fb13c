"""
An embedded mail hub for the tests and the demo: SMTP in, IMAP out, one process.

``MailHub`` runs, inside the running asyncio loop, an aiosmtpd SMTP server and
a pymap IMAP server (its in-memory ``dict`` backend), both on 127.0.0.1 on
ports the system picks.  Every message the SMTP server accepts is delivered,
byte for byte as it came in ``DATA`` (no ``Received:`` line is added), into
the INBOX of each recipient; a recipient the hub does not know is refused
with 550.  ``user+detail@domain`` is delivered to ``user@domain``, as a mail server
with a recipient delimiter does (the moderator's VERP return paths,
``moderator.mail.verp``).  Users log in to IMAP with their address as the user name.

The IMAP server writes each answer in one send (``hub_wire``): the hub is the load
of every benchmark by mail, and pymap's line-by-line writes were a fifth of its CPU.

Nothing is written to disk and nothing is secured: passwords are kept in
clear, SMTP takes no AUTH, and TLS is there only when a certificate is
given (``ssl_context``).  It is a test
double of a mail provider, not a mail server.

    async with MailHub() as hub:
        hub.add_user("moderator@titan.example", "secret")
        ...  # SMTP to hub.smtp_port, IMAP on hub.imap_port
"""

from __future__ import annotations

import asyncio
import ssl
import uuid
from argparse import Namespace
from collections import Counter
from datetime import UTC, datetime
from typing import Any, Self, cast

from aiosmtpd.smtp import SMTP, Envelope, Session
from proxyprotocol.result import ProxyResultLocal
from proxyprotocol.sock import SocketInfo
from pymap.backend.dict import Config, Login
from pymap.backend.dict.filter import FilterSet
from pymap.backend.dict.mailbox import MailboxData, MailboxSet
from pymap.concurrent import Subsystem
from pymap.config import BackendCapability
from pymap.imap import IMAPServer
from pymap.parsing.message import AppendMessage
from pymap.parsing.specials.flag import Flag
from pymap.user import UserMetadata
from pysasl.hashing import Cleartext

from moderator.testing.hub_wire import BatchedWriter, quicken_pymap

LOOPBACK = "127.0.0.1"


class _HubConfig(Config):
    """pymap's dict configuration with IDLE and MOVE switchable and no DNS look-up."""

    def __init__(self, *, idle: bool, move: bool, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._idle = idle
        self._move = move

    @property
    def backend_capability(self) -> BackendCapability:
        return BackendCapability(idle=self._idle, object_id=True, multi_append=True)

    @property
    def login_capability(self) -> list[bytes]:
        return [cap for cap in super().login_capability if self._move or cap != b"MOVE"]

    @property
    def greeting(self) -> bytes:
        return b"Titan mail hub ready"


class _Delivery:
    """The aiosmtpd handler: known recipients only, each copy into an INBOX."""

    def __init__(self, hub: MailHub) -> None:
        self._hub = hub

    async def handle_RCPT(  # aiosmtpd names its hooks so
        self,
        server: SMTP,
        session: Session,
        envelope: Envelope,
        address: str,
        rcpt_options: list[str],
    ) -> str:
        user = self._hub.user_for(address)
        if user is None:
            self._hub.rejected[address] += 1
            return f"550 5.1.1 <{address}>: no such mailbox here"
        envelope.rcpt_tos.append(user)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        content = envelope.original_content or b""
        for user in envelope.rcpt_tos:
            await self._hub.deliver(user, content)
        return "250 2.0.0 delivered"


class MailHub:
    """
    SMTP and IMAP servers sharing in-memory mailboxes (see the module's docstring).

    ``idle=False`` and ``move=False`` leave IDLE or MOVE out of the IMAP
    capabilities, for clients' fallbacks.  With a (server) ``ssl_context`` the
    IMAP server speaks implicit TLS and the SMTP server offers STARTTLS.  ``deliveries`` counts the messages
    put in each user's mailboxes (by SMTP or ``deliver``); ``rejected`` counts
    refused recipients; ``smtp_connections`` the SMTP connections accepted.
    """

    host = LOOPBACK

    def __init__(
        self, *, idle: bool = True, move: bool = True, ssl_context: ssl.SSLContext | None = None
    ) -> None:
        self._ssl_context = ssl_context
        self.deliveries: Counter[str] = Counter()
        self.rejected: Counter[str] = Counter()
        #: SMTP connections accepted so far (a client that keeps its connection makes one).
        self.smtp_connections = 0
        args = Namespace(debug=False, passlib_cfg=None, proxy_protocol=None)
        self._config = _HubConfig(
            idle=idle,
            move=move,
            args=args,
            host=LOOPBACK,
            port=0,
            demo_data=False,
            demo_user="",
            demo_password="",
            tls_enabled=False,
            reject_dnsbl=False,
            invalid_user_sleep=0.0,
            hash_context=Cleartext(),
            cpu_subsystem=Subsystem.for_asyncio(),
        )
        self._login = Login(self._config)
        self._users: dict[str, str] = {}  # lower-cased address -> address as added
        self._smtp: asyncio.Server | None = None
        self._imap: asyncio.Server | None = None
        self._connections: dict[asyncio.Task[Any], asyncio.StreamWriter] = {}

    # -- life cycle --------------------------------------------------------------

    async def start(self) -> Self:
        """Open both servers on free loopback ports."""
        if self._smtp is not None:
            return self
        quicken_pymap()
        loop = asyncio.get_running_loop()
        handler = _Delivery(self)
        def connection() -> SMTP:
            self.smtp_connections += 1
            return SMTP(
                handler,
                hostname="hub.titan.invalid",
                ident="Titan mail hub",
                tls_context=self._ssl_context,
            )

        self._smtp = await loop.create_server(connection, LOOPBACK, 0)
        self._imap = await asyncio.start_server(
            self._serve_imap, LOOPBACK, 0, ssl=self._ssl_context
        )
        return self

    async def stop(self) -> None:
        """Close both servers and every open IMAP connection."""
        servers = [server for server in (self._smtp, self._imap) if server is not None]
        self._smtp = self._imap = None
        for server in servers:
            server.close()
        await asyncio.sleep(0)  # let connections accepted just now register
        await self.drop_connections()
        for server in servers:
            await server.wait_closed()

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def smtp_port(self) -> int:
        """The SMTP server's port."""
        return _port(self._smtp, "smtp")

    @property
    def imap_port(self) -> int:
        """The IMAP server's port."""
        return _port(self._imap, "imap")

    # -- users and mail ----------------------------------------------------------------

    def add_user(self, address: str, password: str) -> None:
        """Add (or re-password) a user; he logs in to IMAP as ``address``."""
        self._users[address.lower()] = address
        self._login.users_dict[address] = UserMetadata(self._config, address, password=password)
        self._config.set_cache.setdefault(address, (MailboxSet(), FilterSet()))

    def user_for(self, address: str) -> str | None:
        """
        The user an address delivers to (addresses match without regard to case; a
        ``+detail`` is dropped when the address as written is nobody's).
        """
        wanted = address.strip().strip("<>").lower()
        local, at, domain = wanted.rpartition("@")
        found = self._users.get(wanted)
        if found is None and at and "+" in local:
            found = self._users.get(f"{local.split('+', 1)[0]}@{domain}")
        return found

    async def deliver(self, address: str, content: bytes, *, folder: str = "INBOX") -> int:
        """Put a message straight into a user's folder (created if missing); returns its UID."""
        mailbox = await self._mailbox(address, folder, create=True)
        message = await mailbox.append(
            AppendMessage(content, datetime.now(UTC), frozenset[Flag]()), recent=True
        )
        self.deliveries[self._user(address)] += 1
        return message.uid

    async def discard(
        self,
        address: str,
        folder: str = "INBOX",
        *,
        upto: int | None = None,
        flagged: frozenset[str] | None = None,
    ) -> int:
        """
        Delete a user's messages in ``folder`` (those up to UID ``upto``, or carrying one
        of the ``flagged`` flags, or all), as a mail program that has filed them may;
        returns how many went.  The hub keeps every message in memory, so a long run (the
        demo, the soak) drops what was read.
        """
        try:
            mailbox = await self._mailbox(address, folder)
        except KeyError:
            return 0
        wanted = None if flagged is None else {Flag(flag.encode()) for flag in flagged}
        uids = [
            m.uid
            async for m in mailbox.messages()
            if (upto is None or m.uid <= upto)
            and (wanted is None or not wanted.isdisjoint(m.permanent_flags))
        ]
        if uids:
            await mailbox.delete(uids)
        return len(uids)

    async def held(self, address: str, folder: str = "INBOX") -> int:
        """How many messages a user's ``folder`` holds (0 if it does not exist)."""
        try:
            mailbox = await self._mailbox(address, folder)
        except KeyError:
            return 0
        return len([m async for m in mailbox.messages()])

    async def uidvalidity(self, address: str, folder: str = "INBOX") -> int:
        """A folder's UIDVALIDITY."""
        return (await self._mailbox(address, folder)).uid_validity

    async def renumber(self, address: str, folder: str = "INBOX") -> int:
        """
        Give a folder a new UIDVALIDITY and its messages new UIDs, keeping the
        messages and their flags (as a server restored from a backup may);
        returns the new UIDVALIDITY.
        """
        user = self._user(address)
        mailboxes, _ = self._config.set_cache[user]
        aside = f"renumber-{uuid.uuid4().hex}"
        await mailboxes.rename_mailbox(folder, aside)
        if folder.upper() != "INBOX":
            await mailboxes.add_mailbox(folder)
        old = await mailboxes.get_mailbox(aside)
        new = await mailboxes.get_mailbox(folder)
        uids = [message.uid async for message in old.messages()]
        for uid in uids:
            await old.copy(uid, new)
        await mailboxes.delete_mailbox(aside)
        return new.uid_validity

    async def drop_connections(self) -> None:
        """Close every IMAP connection from the server's side (clients see a drop)."""
        connections = list(self._connections.items())
        for task, writer in connections:
            writer.close()
            task.cancel()
        await asyncio.gather(*(task for task, _ in connections), return_exceptions=True)

    # -- internals -----------------------------------------------------------------

    def _user(self, address: str) -> str:
        user = self.user_for(address)
        if user is None:
            msg = f"no user by the address of {address!r} in the mail hub"
            raise KeyError(msg)
        return user

    async def _mailbox(self, address: str, folder: str, *, create: bool = False) -> MailboxData:
        mailboxes, _ = self._config.set_cache[self._user(address)]
        try:
            return await mailboxes.get_mailbox(folder)
        except KeyError:
            if not create:
                raise
            await mailboxes.add_mailbox(folder)
            return await mailboxes.get_mailbox(folder)

    async def _serve_imap(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._connections[task] = writer
        try:
            info = SocketInfo.get(writer, ProxyResultLocal(), unique_id=uuid.uuid4().bytes)
            batched = cast(asyncio.StreamWriter, BatchedWriter(writer))
            await IMAPServer(self._login, self._config)(reader, batched, info)
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            del self._connections[task]
            writer.close()


def _port(server: asyncio.Server | None, what: str) -> int:
    if server is None:
        msg = f"the mail hub's {what} server is not running"
        raise RuntimeError(msg)
    return int(server.sockets[0].getsockname()[1])
