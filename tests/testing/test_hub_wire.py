"""
The embedded hub's IMAP wire stays what a mail client expects while it costs less:
answers gathered into one send, pymap's byte formatting asked by exact type first, and
a message's body parsed when first asked for (``moderator.testing.hub_wire``).  Real loopback sockets and a real IMAP client
(the standard library's ``imaplib``), no mocks.
"""

from __future__ import annotations

import asyncio
import imaplib
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from pymap.bytes import BytesFormat
from pymap.mime import MessageContent

from moderator.testing import hub_wire
from moderator.testing.hub import MailHub
from moderator.testing.hub_wire import BatchedWriter, HeaderFirst, quicken_pymap

GOLDEN = Path(__file__).parents[1] / "service" / "golden"


def _report_like() -> bytes:
    """A report's shape: text, a picture, an armoured private part, nested parts."""
    inner = EmailMessage()
    inner.set_content("Turn 3, Ann to move.\n" * 20)
    inner.add_attachment(bytes(range(256)) * 40, maintype="image", subtype="png",
                         filename="board.png")
    outer = EmailMessage()
    outer["From"] = "moderator@titan.example"
    outer["Subject"] = "g1: your move (ref g1-3-1)"
    outer.make_mixed()
    outer.attach(inner)
    outer.add_attachment(b"-----BEGIN PGP MESSAGE-----\nhQEMA\n-----END PGP MESSAGE-----\n",
                         maintype="application", subtype="octet-stream",
                         filename="private.asc")
    return outer.as_bytes().replace(b"\n", b"\r\n")


_MESSAGES = [
    _report_like(),
    b"From: ann@example.org\r\nSubject: orders\r\n\r\nrecruit Rd01 Ogre\r\n",
    b"Subject: a header and nothing after it\r\n",  # pymap keeps all but its last byte
    b"Subject: no line end",
    b"no header at all\nonly text\n",
    b"",
    *(path.read_bytes() for path in sorted(GOLDEN.glob("*.eml"))),
]


class _Bytesy:
    def __bytes__(self) -> bytes:
        return b"bytesy"


class _Index:
    def __index__(self) -> int:
        return 7


@pytest.mark.parametrize(
    ("how", "arg"),
    [
        (b"%b %b", (b"OK", b"done")),
        (b"%b %b", [b"* 3", b"EXISTS"]),
        (b"[%b]", b"UIDNEXT 4"),
        (b"%i", 12),
        (b"<%b>", _Index()),
        (b"<%b>", _Bytesy()),
        (b"%b-%b", (_Bytesy(), b"x")),
        (b"%b%b", iter([b"a", b"b"])),
    ],
)
def test_quickened_format_says_what_pymaps_own_says(how: bytes, arg: Any) -> None:
    made = hub_wire._mod(BytesFormat(how), arg)
    again = iter([b"a", b"b"]) if how == b"%b%b" else arg
    assert made == hub_wire._PLAIN_MOD(BytesFormat(how), again)


def test_quickening_pymap_twice_changes_nothing_more() -> None:
    quicken_pymap()
    quicken_pymap()
    assert BytesFormat.__mod__ is hub_wire._mod
    assert BytesFormat(b"%b %b") % (b"a", b"b") == b"a b"


@pytest.mark.parametrize("data", _MESSAGES, ids=range(len(_MESSAGES)))
def test_a_message_parsed_header_first_is_what_pymap_parses(data: bytes) -> None:
    eager = MessageContent.parse(data)
    lazy = HeaderFirst.parse(data)
    assert bytes(lazy) == bytes(eager) and len(lazy) == len(eager)
    assert bytes(lazy.header) == bytes(eager.header)
    assert lazy.header.json == eager.header.json
    assert lazy._parsed_body is None  # the whole message and its header ask no more
    assert lazy.lines == eager.lines
    assert lazy.body.json == eager.body.json and bytes(lazy.body) == bytes(eager.body)
    assert [bytes(p) for p in lazy.walk()] == [bytes(p) for p in eager.walk()]


async def _pair() -> tuple[asyncio.StreamReader, asyncio.StreamWriter, BatchedWriter,
                          asyncio.Server]:
    """A client's reader and writer (kept: a writer collected closes its socket), and the
    server's side of the connection as the hub writes to it."""
    accepted: asyncio.Future[BatchedWriter] = asyncio.get_running_loop().create_future()

    async def serve(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.set_result(BatchedWriter(writer))

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    reader, client = await asyncio.open_connection("127.0.0.1", port)
    return reader, client, await accepted, server


def test_an_answer_written_in_lines_reaches_the_client_whole_at_drain() -> None:
    async def scenario() -> None:
        reader, client, writer, server = await _pair()
        async with server:
            lines = [b"* 3 EXISTS\r\n", b"* 0 RECENT\r\n", b"A1 OK [READ-WRITE] done\r\n"]
            for line in lines:
                writer.write(line)
            await writer.drain()
            got = await asyncio.wait_for(reader.readexactly(sum(map(len, lines))), 5)
            assert got == b"".join(lines)
            writer.close()
            client.close()

    asyncio.run(scenario())


def test_a_write_never_drained_is_sent_when_the_loop_turns() -> None:
    async def scenario() -> None:
        reader, client, writer, server = await _pair()
        async with server:
            writer.write(b"* BYE going\r\n")  # no drain: it must not wait for one
            assert await asyncio.wait_for(reader.readline(), 5) == b"* BYE going\r\n"
            writer.close()
            client.close()

    asyncio.run(scenario())


def test_a_plain_imap_client_reads_its_mail_from_the_hub() -> None:
    """The hub stays a mail server any client can use: Python's imaplib, in a thread."""
    mail = b"From: ann@example.org\r\nSubject: orders\r\n\r\nrecruit Rd01 Ogre\r\n"

    def client(port: int) -> list[Any]:
        imap = imaplib.IMAP4("127.0.0.1", port)
        try:
            imap.login("bob@example.org", "pw")
            selected = imap.select("INBOX")
            found = imap.uid("SEARCH", "ALL")
            fetched = imap.uid("FETCH", found[1][0].split()[-1].decode(), "(BODY.PEEK[])")
        finally:
            imap.logout()
        return [selected, found, fetched]

    async def scenario() -> None:
        async with MailHub() as hub:
            hub.add_user("bob@example.org", "pw")
            for _ in range(3):
                await hub.deliver("bob@example.org", mail)
            selected, found, fetched = await asyncio.wait_for(
                asyncio.to_thread(client, hub.imap_port), 30)
        assert selected == ("OK", [b"3"])
        assert found[0] == "OK" and len(found[1][0].split()) == 3
        assert fetched[0] == "OK"
        assert fetched[1][0][1] == mail

    asyncio.run(scenario())


def test_a_reports_structure_is_there_when_a_client_asks_for_it() -> None:
    """Delivery parses only the header; BODYSTRUCTURE still names every part, and the
    whole message comes back byte for byte."""
    quicken_pymap()
    mail = _report_like()

    def client(port: int) -> list[Any]:
        imap = imaplib.IMAP4("127.0.0.1", port)
        try:
            imap.login("bob@example.org", "pw")
            imap.select("INBOX")
            whole = imap.uid("FETCH", "101", "(BODY.PEEK[])")
            structure = imap.uid("FETCH", "101", "(BODYSTRUCTURE)")
        finally:
            imap.logout()
        return [whole, structure]

    async def scenario() -> None:
        async with MailHub() as hub:
            hub.add_user("bob@example.org", "pw")
            assert await hub.deliver("bob@example.org", mail) == 101
            whole, structure = await asyncio.wait_for(
                asyncio.to_thread(client, hub.imap_port), 30)
        assert whole[1][0][1] == mail
        told = structure[1][0].upper()
        for kind in (b'"IMAGE" "PNG"', b'"TEXT" "PLAIN"', b'"APPLICATION" "OCTET-STREAM"',
                     b'"MIXED"'):
            assert kind in told

    asyncio.run(scenario())
