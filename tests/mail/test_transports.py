"""
The mail transports against real servers on loopback, no mocks.

IMAP: every behaviour runs against a throw-away Dovecot (``tests/mail/dovecot.py``;
skipped without Dovecot, a failure under ``CI=true``) and against the embedded
hub's pymap server.  SMTP: the hub's aiosmtpd server, and aiosmtpd servers
that refuse on purpose.  Each scenario runs in its own event loop
(``asyncio.run``), bounded by a timeout.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import shutil
import socket
import ssl
import subprocess
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import aioimaplib
import pytest
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session

from moderator.mail.errors import MailTransportError
from moderator.mail.imap import (
    DONE_KEYWORD,
    FetchResult,
    ImapSource,
    UidValidityChangedError,
)
from moderator.mail.imap_responses import fetched_bodies, search_uids, uid_set
from moderator.mail.smtp import SmtpSink, TlsMode, next_attempt
from moderator.testing.connections import imap_source_at, smtp_sink_at
from moderator.testing.hub import MailHub

from .dovecot import TemporaryDovecot

SCENARIO_TIMEOUT = 60.0

# Messages whose bytes must come back exactly: CRLF line ends (the only ones
# IMAP promises to keep), 8-bit text, a lone dot, a "From " line, brackets and
# a literal-like "{5}" at a line end, no final CRLF, and a big one.
EXACT = [
    b"From: ann@example.org\r\nSubject: orders\r\n\r\nsplit Rd01 into Rd02: Ogre Ogre\r\n",
    (
        b"Subject: =?utf-8?q?caf=C3=A9?=\r\nContent-Type: text/plain; charset=latin-1\r\n"
        b"Content-Transfer-Encoding: 8bit\r\n\r\n\xe9t\xe9 \xe0 Tit\xe1n\r\n.\r\nFrom here\r\n"
    ),
    b"Subject: ( brackets {5}\r\n\r\n)( ]) {12}\r\n\r\nno final line end",
    b"Subject: big\r\n\r\n" + b"".join(b"line %06d of a long report\r\n" % n for n in range(8000)),
]


def message(subject: str, body: str = "move Rd01 to 133") -> bytes:
    return f"From: ann@example.org\r\nSubject: {subject}\r\n\r\n{body}\r\n".encode()


# -- the servers ------------------------------------------------------------------------


class HubServer:
    """The embedded hub, in the test's loop."""

    name = "hub"
    host = "127.0.0.1"

    def __init__(self, hub: MailHub) -> None:
        self.hub = hub
        self.port = hub.imap_port
        self._count = 0

    def new_user(self) -> tuple[str, str]:
        self._count += 1
        address = f"player{self._count}@example.org"
        self.hub.add_user(address, "secret")
        return address, "secret"

    async def deliver(self, address: str, content: bytes) -> None:
        await self.hub.deliver(address, content)

    async def drop(self, address: str) -> None:
        await self.hub.drop_connections()

    async def renumber(self, address: str, folder: str = "INBOX") -> int:
        return await self.hub.renumber(address, folder)


class DovecotServer:
    """The session's Dovecot."""

    name = "dovecot"

    def __init__(self, dovecot: TemporaryDovecot) -> None:
        self.dovecot = dovecot
        self.host = dovecot.host
        self.port = dovecot.port

    def new_user(self) -> tuple[str, str]:
        return self.dovecot.add_user()

    async def deliver(self, address: str, content: bytes) -> None:
        await asyncio.to_thread(self.dovecot.deliver, address, content)

    async def drop(self, address: str) -> None:
        await asyncio.to_thread(self.dovecot.kick, address)

    async def renumber(self, address: str, folder: str = "INBOX") -> int:
        status = await asyncio.to_thread(
            self.dovecot.doveadm, "mailbox", "status", "-u", address, "uidvalidity", folder
        )
        new = int(status.strip().partition("=")[2]) + 1000
        await asyncio.to_thread(self.dovecot.set_uidvalidity, address, folder, new)
        return new


Server = HubServer | DovecotServer
Scenario = Callable[[Server], Awaitable[None]]


@pytest.fixture(params=["hub", "dovecot"])
def imap_server(request: pytest.FixtureRequest) -> Callable[[Scenario], None]:
    """Runs a scenario against one IMAP server, in a fresh event loop."""
    dovecot_server = request.getfixturevalue("dovecot") if request.param == "dovecot" else None

    def run(scenario: Scenario) -> None:
        async def main() -> None:
            async with asyncio.timeout(SCENARIO_TIMEOUT):
                if dovecot_server is not None:
                    await scenario(DovecotServer(dovecot_server))
                    return
                async with MailHub() as hub:
                    await scenario(HubServer(hub))

        asyncio.run(main())

    return run


def run_with_hub(scenario: Callable[[MailHub], Awaitable[None]], **options: Any) -> None:
    async def main() -> None:
        async with asyncio.timeout(SCENARIO_TIMEOUT), MailHub(**options) as hub:
            await scenario(hub)

    asyncio.run(main())


# -- a second client, to look at the mailbox from outside -------------------------------------


@asynccontextmanager
async def imap_client(
    server: Server, address: str, password: str
) -> AsyncIterator[aioimaplib.IMAP4]:
    client = aioimaplib.IMAP4(server.host, server.port, timeout=10)
    await client.wait_hello_from_server()
    assert (await client.login(address, password)).result == "OK"
    try:
        yield client
    finally:
        await client.logout()
        # aioimaplib leaves the socket to the server's close: close it ourselves.
        client.protocol.transport.close()


async def append(server: Server, address: str, password: str, *contents: bytes) -> None:
    async with imap_client(server, address, password) as client:
        for content in contents:
            assert (await client.append(content, mailbox="INBOX")).result == "OK"


async def flags(
    server: Server, address: str, password: str, folder: str = "INBOX"
) -> dict[int, set[str]]:
    """UID -> flags of every message in ``folder``."""
    async with imap_client(server, address, password) as client:
        assert (await client.select(aioimaplib.quoted(folder))).result == "OK"
        response = await client.uid("fetch", "1:*", "(UID FLAGS)")
    found: dict[int, set[str]] = {}
    for line in response.lines[:-1]:
        text = line.decode()
        if " FETCH " not in text:
            continue
        uid = int(text.split("UID ")[1].split()[0].rstrip(")"))
        found[uid] = set(text.split("FLAGS (")[1].split(")")[0].split())
    return found


def source(server: Server, address: str, password: str, **options: Any) -> ImapSource:
    return imap_source_at(server.host, server.port, address, password, tls=False, **options)


# -- IMAP: fetching -------------------------------------------------------------------------


def test_fetch_new_returns_new_messages_by_uid_with_their_exact_bytes(imap_server):
    async def scenario(server: Server) -> None:
        address, password = server.new_user()
        await append(server, address, password, *EXACT)
        async with source(server, address, password) as inbox:
            first = await inbox.fetch_new(None, None)
            assert [body for _, body in first.messages] == EXACT
            uids = [uid for uid, _ in first.messages]
            assert uids == sorted(uids) and first.last_uid == uids[-1]
            assert not first.uidvalidity_changed and not first.more

            again = await inbox.fetch_new(first.last_uid, first.uidvalidity)
            assert again == FetchResult(first.uidvalidity, [])

            await append(server, address, password, message("turn 2"))
            later = await inbox.fetch_new(first.last_uid, first.uidvalidity)
            assert [body for _, body in later.messages] == [message("turn 2")]
            assert later.messages[0][0] > first.last_uid

    imap_server(scenario)


def test_a_message_delivered_by_the_mail_system_is_fetched(imap_server):
    async def scenario(server: Server) -> None:
        address, password = server.new_user()
        await server.deliver(address, message("delivered"))
        async with source(server, address, password) as inbox:
            found = await inbox.fetch_new(None, None)
        assert [body for _, body in found.messages] == [message("delivered")]

    imap_server(scenario)


def test_the_n_star_quirk_is_filtered_out(imap_server):
    """``UID SEARCH UID n:*`` names the last message even when its UID is below n."""

    async def scenario(server: Server) -> None:
        address, password = server.new_user()
        await append(server, address, password, message("one"), message("two"))
        async with source(server, address, password) as inbox:
            seen = await inbox.fetch_new(None, None)
            last = seen.last_uid
            assert last is not None
            # The server really has the quirk ...
            async with imap_client(server, address, password) as client:
                await client.select("INBOX")
                raw = await client.uid_search(f"UID {last + 1}:*", charset=None)
            assert search_uids(raw.lines) == [last]
            # ... and fetch_new does not hand the old message out again.
            assert (await inbox.fetch_new(last, seen.uidvalidity)).messages == []
            assert (await inbox.fetch_new(last + 50, seen.uidvalidity)).messages == []

    imap_server(scenario)


def test_limit_hands_out_the_lowest_uids_first_and_says_more_wait(imap_server):
    async def scenario(server: Server) -> None:
        address, password = server.new_user()
        await append(server, address, password, *(message(f"m{n}") for n in range(5)))
        async with source(server, address, password, batch_size=2) as inbox:
            since, validity, subjects, rounds = None, None, [], []
            while True:
                result = await inbox.fetch_new(since, validity, limit=2)
                rounds.append(len(result.messages))
                subjects += [body.split(b"\r\n")[1] for _, body in result.messages]
                since, validity = result.last_uid, result.uidvalidity
                if not result.more:
                    break
        assert rounds == [2, 2, 1]
        assert subjects == [f"Subject: m{n}".encode() for n in range(5)]

    imap_server(scenario)


def test_fetching_marks_nothing_and_a_restart_fetches_the_same_mail_again(imap_server):
    """A crash between fetching and marking loses nothing (the store drops repeats)."""

    async def scenario(server: Server) -> None:
        address, password = server.new_user()
        await append(server, address, password, message("a"), message("b"))
        async with source(server, address, password) as inbox:
            first = await inbox.fetch_new(None, None)
        assert all("\\Seen" not in f for f in (await flags(server, address, password)).values())
        async with source(server, address, password) as restarted:
            again = await restarted.fetch_new(None, first.uidvalidity)
        assert again.messages == first.messages

    imap_server(scenario)


def test_a_changed_uidvalidity_makes_every_message_new(imap_server):
    async def scenario(server: Server) -> None:
        address, password = server.new_user()
        await append(server, address, password, message("a"), message("b"))
        async with source(server, address, password) as inbox:
            first = await inbox.fetch_new(None, None)
            new_validity = await server.renumber(address)
            assert new_validity != first.uidvalidity

            after = await inbox.fetch_new(first.last_uid, first.uidvalidity)
            assert after.uidvalidity == new_validity
            assert after.uidvalidity_changed
            assert [body for _, body in after.messages] == [message("a"), message("b")]

            # UIDs read under the old UIDVALIDITY are never marked under the new one.
            with pytest.raises(UidValidityChangedError) as refused:
                await inbox.mark_done(
                    [uid for uid, _ in first.messages], uidvalidity=first.uidvalidity
                )
            assert (refused.value.expected, refused.value.found) == (
                first.uidvalidity,
                new_validity,
            )
        assert all(
            not f & {"\\Seen", DONE_KEYWORD}
            for f in (await flags(server, address, password)).values()
        )

    imap_server(scenario)


# -- IMAP: marking done ---------------------------------------------------------------------


def test_mark_done_flags_only_the_messages_named(imap_server):
    async def scenario(server: Server) -> None:
        address, password = server.new_user()
        await append(server, address, password, message("a"), message("b"), message("c"))
        async with source(server, address, password) as inbox:
            found = await inbox.fetch_new(None, None)
            done = [found.messages[0][0], found.messages[2][0]]
            await inbox.mark_done(done)
            mark = inbox.done_flag
        marks = await flags(server, address, password)
        assert {uid for uid, f in marks.items() if mark in f} == set(done)
        # Dovecot takes keywords; pymap's dict backend does not, so \Seen stands in.
        assert mark == (DONE_KEYWORD if server.name == "dovecot" else "\\Seen")

    imap_server(scenario)


def test_mark_done_moves_to_the_processed_folder_creating_it(imap_server):
    async def scenario(server: Server) -> None:
        address, password = server.new_user()
        await append(server, address, password, message("a"), message("b"))
        async with source(server, address, password, processed_folder="Titan Processed") as inbox:
            found = await inbox.fetch_new(None, None)
            await inbox.mark_done([found.messages[0][0]])
            left = await inbox.fetch_new(None, found.uidvalidity)
            assert [body for _, body in left.messages] == [message("b")]
        moved = await flags(server, address, password, "Titan Processed")
        assert len(moved) == 1
        assert next(iter(moved.values())) & {DONE_KEYWORD, "\\Seen"}

    imap_server(scenario)


def test_without_move_the_hub_copies_flags_deleted_and_expunges():
    async def scenario(hub: MailHub) -> None:
        server = HubServer(hub)
        address, password = server.new_user()
        await append(server, address, password, message("a"), message("b"))
        async with source(server, address, password, processed_folder="Done") as inbox:
            found = await inbox.fetch_new(None, None)
            assert "MOVE" not in inbox.capabilities
            await inbox.mark_done([found.messages[1][0]])
            left = await inbox.fetch_new(None, found.uidvalidity)
        assert [body for _, body in left.messages] == [message("a")]
        assert len(await flags(server, address, password, "Done")) == 1
        assert len(await flags(server, address, password)) == 1

    run_with_hub(scenario, move=False)


# -- IMAP: IDLE ------------------------------------------------------------------------


def test_idle_wakes_on_a_new_message(imap_server):
    async def scenario(server: Server) -> None:
        address, password = server.new_user()
        async with source(server, address, password) as inbox:
            first = await inbox.fetch_new(None, None)
            assert "IDLE" in inbox.capabilities

            async def deliver_soon() -> None:
                await asyncio.sleep(0.3)
                await server.deliver(address, message("wake up"))

            loop = asyncio.get_running_loop()
            started = loop.time()
            delivery = asyncio.create_task(deliver_soon())
            assert await inbox.idle_wait(20.0) is True
            assert loop.time() - started < 10.0
            await delivery
            news = await inbox.fetch_new(first.last_uid, first.uidvalidity)
            assert [body for _, body in news.messages] == [message("wake up")]

    imap_server(scenario)


def test_idle_times_out_without_mail_and_sees_mail_that_came_before_it(imap_server):
    async def scenario(server: Server) -> None:
        address, password = server.new_user()
        async with source(server, address, password) as inbox:
            first = await inbox.fetch_new(None, None)
            loop = asyncio.get_running_loop()
            started = loop.time()
            assert await inbox.idle_wait(0.5) is False
            assert 0.4 < loop.time() - started < 5.0
            # Mail between the last fetch and IDLE: IDLE would not announce it.
            await append(server, address, password, message("early"))
            assert await inbox.idle_wait(20.0) is True
            assert len((await inbox.fetch_new(first.last_uid, first.uidvalidity)).messages) == 1

    imap_server(scenario)


def test_idle_before_any_fetch_wakes_for_mail_already_there(imap_server):
    """A robot's welcome came before its first IDLE: the wait must not sleep through it
    (the soak's robots waited for ever)."""

    async def scenario(server: Server) -> None:
        address, password = server.new_user()
        await append(server, address, password, message("welcome"))
        async with source(server, address, password) as inbox:
            loop = asyncio.get_running_loop()
            started = loop.time()
            assert await inbox.idle_wait(20.0) is True
            assert loop.time() - started < 10.0
            found = await inbox.fetch_new(None, None)
            assert [body for _, body in found.messages] == [message("welcome")]

    imap_server(scenario)


def test_an_idle_wait_counts_what_the_pollers_connection_fetched(imap_server):
    """The service waits in IDLE on a second connection while its poller fetches on the
    first: mail the poller has fetched is no news (it was, at once and in a loop)."""

    async def scenario(server: Server) -> None:
        address, password = server.new_user()
        await append(server, address, password, message("one"), message("two"))
        async with source(server, address, password) as poller, source(
            server, address, password
        ) as watcher:
            assert await watcher.idle_wait(20.0, fetched_by=poller) is True  # nothing fetched
            first = await poller.fetch_new(None, None)
            assert len(first.messages) == 2
            assert await watcher.idle_wait(0.5, fetched_by=poller) is False
            await append(server, address, password, message("three"))
            assert await watcher.idle_wait(20.0, fetched_by=poller) is True
            news = await poller.fetch_new(first.last_uid, first.uidvalidity)
            assert [body for _, body in news.messages] == [message("three")]
            assert await watcher.idle_wait(0.5, fetched_by=poller) is False

    imap_server(scenario)


def test_mail_moved_away_above_the_last_fetch_is_no_news_again(imap_server):
    """UIDNEXT stays above mail that is gone: once a fetch has read up to it, an IDLE
    wait does not count the gap as news (nor does a fetch read it again)."""

    async def scenario(server: Server) -> None:
        address, password = server.new_user()
        await append(server, address, password, message("kept"), message("moved"))
        async with source(server, address, password, processed_folder="Done") as inbox:
            both = await inbox.fetch_new(None, None)
            assert len(both.messages) == 2
            await inbox.mark_done([both.messages[1][0]])  # moved out of the folder
            again = await inbox.fetch_new(both.messages[0][0], both.uidvalidity)
            assert again.messages == []
            assert await inbox.idle_wait(0.5) is False

    imap_server(scenario)


def test_idle_wait_returns_false_at_once_when_the_server_has_no_idle():
    async def scenario(hub: MailHub) -> None:
        server = HubServer(hub)
        address, password = server.new_user()
        async with source(server, address, password) as inbox:
            await inbox.fetch_new(None, None)
            assert "IDLE" not in inbox.capabilities
            loop = asyncio.get_running_loop()
            started = loop.time()
            assert await inbox.idle_wait(30.0) is False
            assert loop.time() - started < 1.0

    run_with_hub(scenario, idle=False)


# -- IMAP: connections -------------------------------------------------------------------


def test_a_connection_dropped_between_calls_is_reopened(imap_server):
    async def scenario(server: Server) -> None:
        address, password = server.new_user()
        await append(server, address, password, message("a"))
        async with source(server, address, password) as inbox:
            first = await inbox.fetch_new(None, None)
            await server.drop(address)
            await asyncio.sleep(0.2)
            await append(server, address, password, message("b"))
            after = await inbox.fetch_new(first.last_uid, first.uidvalidity)
            assert [body for _, body in after.messages] == [message("b")]
            await inbox.mark_done([uid for uid, _ in after.messages])

    imap_server(scenario)


def test_a_connection_dropped_during_idle_raises_and_the_next_call_reconnects(imap_server):
    async def scenario(server: Server) -> None:
        address, password = server.new_user()
        async with source(server, address, password) as inbox:
            first = await inbox.fetch_new(None, None)

            async def drop_soon() -> None:
                await asyncio.sleep(0.3)
                await server.drop(address)

            dropping = asyncio.create_task(drop_soon())
            loop = asyncio.get_running_loop()
            started = loop.time()
            with pytest.raises(MailTransportError) as dropped:
                await inbox.idle_wait(20.0)
            assert not dropped.value.permanent
            assert isinstance(dropped.value, ConnectionError)
            assert loop.time() - started < 10.0
            await dropping
            await append(server, address, password, message("after the drop"))
            after = await inbox.fetch_new(first.last_uid, first.uidvalidity)
            assert [body for _, body in after.messages] == [message("after the drop")]

    imap_server(scenario)


def test_a_wrong_password_is_a_permanent_failure(imap_server):
    async def scenario(server: Server) -> None:
        address, _ = server.new_user()
        async with source(server, address, "wrong") as inbox:
            with pytest.raises(MailTransportError) as refused:
                await inbox.fetch_new(None, None)
        assert refused.value.permanent

    imap_server(scenario)


def test_an_unreachable_imap_server_is_a_temporary_failure():
    async def scenario() -> None:
        async with imap_source_at("127.0.0.1", closed_port(), "a@b", "pw", tls=False) as inbox:
            with pytest.raises(MailTransportError) as failed:
                await inbox.fetch_new(None, None)
        assert not failed.value.permanent

    asyncio.run(scenario())


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- IMAP: the response parsing --------------------------------------------------------------


def test_imap_source_checks_its_settings():
    with pytest.raises(ValueError, match="batch_size"):
        imap_source_at("localhost", 143, "a@b", "pw", tls=False, batch_size=0)
    inbox = imap_source_at("localhost", 143, "a@b", "pw", tls=False)
    with pytest.raises(ValueError, match="limit"):
        asyncio.run(inbox.fetch_new(None, None, limit=0))


def test_uid_sets_fold_runs():
    assert uid_set([7]) == "7"
    assert uid_set([3, 1, 2, 2, 10, 11, 5]) == "1:3,5,10:11"


def test_fetch_parsing_takes_the_uid_before_or_after_the_literal():
    lines = [
        b"1 FETCH (UID 7 BODY[] {3}",
        bytearray(b"abc"),
        b")",
        b"2 FETCH (BODY[] {2}",
        bytearray(b"de"),
        b" UID 9)",
        b"3 FETCH (FLAGS (\\Seen) UID 11)",
        b"UID FETCH completed",
    ]
    assert fetched_bodies(lines) == {7: b"abc", 9: b"de"}
    assert search_uids([b"4 9", b"", b"SEARCH 12", b"done"]) == [4, 9, 12]


# -- SMTP ------------------------------------------------------------------------------


def test_smtp_to_the_hub_delivers_into_the_recipients_mailbox():
    async def scenario(hub: MailHub) -> None:
        server = HubServer(hub)
        ann, ann_password = server.new_user()
        bob, bob_password = server.new_user()
        sink = smtp_sink_at("127.0.0.1", hub.smtp_port, local_hostname="moderator.test")
        raw = EXACT[1]
        result = await sink.send(raw, "moderator@titan.example", [ann.upper()])
        assert result.refused == {}
        mail = EmailMessage()
        mail["From"], mail["To"], mail["Subject"] = "moderator@titan.example", bob, "report"
        mail.set_content("Turn 3: your move.\n.\n")
        await sink.send(mail, "moderator@titan.example", [bob])
        assert hub.deliveries == {ann: 1, bob: 1}

        async with source(server, ann, ann_password) as inbox:
            assert [body for _, body in (await inbox.fetch_new(None, None)).messages] == [raw]
        async with source(server, bob, bob_password) as inbox:
            (_, body), *rest = (await inbox.fetch_new(None, None)).messages
        assert rest == []
        assert b"Subject: report" in body and b"Turn 3: your move.\r\n.\r\n" in body

    run_with_hub(scenario)


def test_an_smtp_session_sends_many_mails_over_one_connection_and_reconnects_when_dropped():
    async def scenario(hub: MailHub) -> None:
        ann, _ = HubServer(hub).new_user()
        sink = smtp_sink_at("127.0.0.1", hub.smtp_port, local_hostname="moderator.test")
        async with sink.session() as session:
            await session.send(message("one"), "moderator@titan.example", [ann])
            first = session._client
            await session.send(message("two"), "moderator@titan.example", [ann])
            assert session._client is first and first is not None and first.is_connected
            first.close()  # the server or the network dropped it
            await session.send(message("three"), "moderator@titan.example", [ann])
            assert session._client is not first
            # A refusal leaves the session usable for the next mail.
            with pytest.raises(MailTransportError):
                await session.send(message("x"), "moderator@titan.example", ["nobody@x.org"])
            await session.send(message("four"), "moderator@titan.example", [ann])
        assert session._client is None
        assert hub.deliveries == {ann: 4}

    run_with_hub(scenario)


def test_smtp_unknown_recipients_are_refused_for_good():
    async def scenario(hub: MailHub) -> None:
        ann, _ = HubServer(hub).new_user()
        sink = smtp_sink_at("127.0.0.1", hub.smtp_port, local_hostname="moderator.test")
        with pytest.raises(MailTransportError) as refused:
            await sink.send(message("x"), "moderator@titan.example", ["nobody@example.org"])
        assert refused.value.permanent and refused.value.code == 550
        partly = await sink.send(
            message("y"), "moderator@titan.example", [ann, "nobody@example.org"]
        )
        assert set(partly.refused) == {"nobody@example.org"}
        assert partly.refused["nobody@example.org"][0] == 550
        assert hub.deliveries == {ann: 1}
        assert hub.rejected["nobody@example.org"] == 2

    run_with_hub(scenario)


class Refusing:
    """An aiosmtpd handler that answers ``reply`` at one stage of the transaction."""

    def __init__(self, stage: str, reply: str) -> None:
        self.stage, self.reply = stage, reply

    async def handle_MAIL(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        if self.stage == "MAIL":
            return self.reply
        envelope.mail_from = address
        return "250 OK"

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        if self.stage == "RCPT":
            return self.reply
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        return self.reply if self.stage == "DATA" else "250 OK"


async def refusing_server(stage: str, reply: str) -> asyncio.Server:
    loop = asyncio.get_running_loop()
    handler = Refusing(stage, reply)
    return await loop.create_server(lambda: SMTP(handler, hostname="refusing.test"), "127.0.0.1", 0)


@pytest.mark.parametrize(
    ("stage", "reply", "permanent"),
    [
        ("DATA", "550 5.7.1 message refused", True),
        ("DATA", "451 4.3.0 try again later", False),
        ("DATA", "554 5.6.0 content rejected", True),
        ("MAIL", "553 5.1.8 sender refused", True),
        ("MAIL", "452 4.3.1 out of storage", False),
        ("RCPT", "550 5.1.1 no such user", True),
        ("RCPT", "450 4.2.0 greylisted", False),
    ],
)
def test_smtp_failures_are_permanent_for_5xx_and_temporary_for_4xx(stage, reply, permanent):
    async def scenario() -> None:
        server = await refusing_server(stage, reply)
        try:
            port = int(server.sockets[0].getsockname()[1])
            sink = smtp_sink_at("127.0.0.1", port, local_hostname="moderator.test", timeout=10)
            with pytest.raises(MailTransportError) as failed:
                await sink.send(message("x"), "moderator@titan.example", ["ann@example.org"])
        finally:
            server.close()
            await server.wait_closed()
        assert failed.value.permanent is permanent
        assert failed.value.code == int(reply[:3])

    asyncio.run(scenario())


def test_smtp_connection_failures_and_missing_starttls_are_temporary():
    async def scenario() -> None:
        down = smtp_sink_at("127.0.0.1", closed_port(), local_hostname="moderator.test", timeout=5)
        with pytest.raises(MailTransportError) as unreachable:
            await down.send(message("x"), "moderator@titan.example", ["ann@example.org"])
        assert not unreachable.value.permanent and unreachable.value.code is None

        async with MailHub() as hub:
            hub.add_user("ann@example.org", "pw")
            strict = smtp_sink_at("127.0.0.1", hub.smtp_port, tls="starttls", local_hostname="m.test")
            with pytest.raises(MailTransportError) as no_tls:
                await strict.send(message("x"), "moderator@titan.example", ["ann@example.org"])
            assert not no_tls.value.permanent
            assert hub.deliveries == {}

    asyncio.run(scenario())


def test_smtp_sink_checks_its_settings():
    with pytest.raises(ValueError, match="tls"):
        smtp_sink_at("localhost", 25, tls="ssl")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="together"):
        smtp_sink_at("localhost", 25, user="moderator")


# -- TLS -------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key (made with openssl)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("needs openssl to make a certificate")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert, key


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


def server_context(certificate: tuple[Path, Path]) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(*certificate)
    return context


def client_context(certificate: tuple[Path, Path]) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=str(certificate[0]))


def test_imap_over_implicit_tls_checks_the_certificate(certificate):
    async def scenario(hub: MailHub) -> None:
        server = HubServer(hub)
        address, password = server.new_user()
        await hub.deliver(address, message("secret orders"))
        trusting = imap_source_at(
            hub.host,
            hub.imap_port,
            address,
            password,
            tls=True,
            ssl_context=client_context(certificate),
        )
        async with trusting:
            found = await trusting.fetch_new(None, None)
        assert [body for _, body in found.messages] == [message("secret orders")]
        async with imap_source_at(hub.host, hub.imap_port, address, password, tls=True) as default:
            with pytest.raises(MailTransportError) as untrusted:
                await default.fetch_new(None, None)
        assert isinstance(untrusted.value.__cause__, ssl.SSLCertVerificationError)

    run_with_hub(scenario, ssl_context=server_context(certificate))


def test_smtp_starttls_with_auth_and_implicit_tls(certificate):
    def authenticate(
        server: SMTP, session: Session, envelope: Envelope, mechanism: str, data: object
    ) -> AuthResult:  # aiosmtpd calls it without awaiting
        given = (_text(data.login), _text(data.password)) if isinstance(data, LoginPassword) else ()
        ok = given == ("mod", "pw")
        # handled=False: aiosmtpd answers 235 or 535 itself.
        return AuthResult(success=ok, handled=False)

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        got: list[bytes] = []

        class Keep:
            async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
                got.append(envelope.original_content or b"")
                return "250 OK"

        tls_server = server_context(certificate)
        starttls = await loop.create_server(
            lambda: SMTP(
                Keep(),
                hostname="mx.test",
                tls_context=tls_server,
                require_starttls=True,
                auth_required=True,
                authenticator=authenticate,
            ),
            "127.0.0.1",
            0,
        )
        implicit = await loop.create_server(
            lambda: SMTP(Keep(), hostname="mx.test"), "127.0.0.1", 0, ssl=tls_server
        )
        try:
            ports = [int(s.sockets[0].getsockname()[1]) for s in (starttls, implicit)]
            context = client_context(certificate)

            def sink(port: int, tls: TlsMode, password: str | None = None) -> SmtpSink:
                user = None if password is None else "mod"
                return smtp_sink_at(
                    "127.0.0.1",
                    port,
                    user=user,
                    password=password,
                    tls=tls,
                    tls_context=context,
                    local_hostname="moderator.test",
                    timeout=10,
                )

            good = sink(ports[0], "starttls", "pw")
            await good.send(message("over starttls"), "moderator@titan.example", ["a@example.org"])
            bad = sink(ports[0], "starttls", "no")
            with pytest.raises(MailTransportError) as refused:
                await bad.send(message("x"), "moderator@titan.example", ["a@example.org"])
            # A refused login says nothing about the mail: it may go once the password is fixed.
            assert refused.value.code == 535 and not refused.value.permanent
            wrapped = sink(ports[1], "tls")
            await wrapped.send(message("over tls"), "moderator@titan.example", ["a@example.org"])
        finally:
            for server in (starttls, implicit):
                server.close()
                await server.wait_closed()
        assert got == [message("over starttls"), message("over tls")]

    asyncio.run(scenario())


# -- back-off -----------------------------------------------------------------------------

NOW = datetime(2024, 5, 1, 12, 0)


def test_backoff_doubles_from_the_base_up_to_the_cap():
    rng = random.Random(7)
    waits = [next_attempt(n, NOW, rng=rng, jitter=0) - NOW for n in range(1, 12)]
    assert waits[:4] == [timedelta(minutes=m) for m in (1, 2, 4, 8)]
    assert waits[-1] == timedelta(hours=6)
    assert all(a <= b for a, b in itertools.pairwise(waits))
    assert next_attempt(0, NOW, rng=rng, jitter=0) - NOW == timedelta(minutes=1)
    assert next_attempt(10**6, NOW, rng=rng, jitter=0) - NOW == timedelta(hours=6)
    custom = next_attempt(
        3, NOW, rng=rng, base=timedelta(seconds=10), cap=timedelta(seconds=30), jitter=0
    )
    assert custom - NOW == timedelta(seconds=30)


def test_backoff_jitter_comes_from_the_rng_and_stays_under_the_exponential_wait():
    first = [next_attempt(n, NOW, rng=random.Random(42)) for n in range(1, 30)]
    again = [next_attempt(n, NOW, rng=random.Random(42)) for n in range(1, 30)]
    assert first == again  # pure: the same rng gives the same times
    rng = random.Random(1)
    for attempts in range(1, 30):
        full = next_attempt(attempts, NOW, rng=rng, jitter=0) - NOW
        for _ in range(20):
            wait = next_attempt(attempts, NOW, rng=rng, jitter=0.25) - NOW
            assert full * 0.75 <= wait <= full <= timedelta(hours=6)
    spread = {next_attempt(5, NOW, rng=rng) for _ in range(50)}
    assert len(spread) > 40  # mails that failed together come back apart


def test_backoff_rejects_a_jitter_that_is_not_a_fraction():
    with pytest.raises(ValueError, match="jitter"):
        next_attempt(1, NOW, rng=random.Random(), jitter=1.5)
