"""
What keeps the embedded mail hub's IMAP server cheap per command, without changing a
byte it says: its answers written in one piece, and pymap's byte formatting spared
the slow checks it makes of every argument.

Profiled under ``benchmarks/bench_mail.py`` the hub spent a fifth of its CPU in
socket sends (pymap writes every untagged line of an answer on its own, and asyncio
sends each at once: a ``SELECT`` is seven sends) and a sixth in ``isinstance`` checks
against ``typing`` protocols (``SupportsIndex``, ``SupportsBytes``), which Python 3.11
answers by looking the protocol's methods up one by one, for every ``BytesFormat %``
pymap makes of a response line.  ``BatchedWriter`` gathers what is written until the
server drains (pymap drains after each whole answer) or the event loop turns;
``quicken_pymap`` answers the commonest arguments (a tuple, a list, ``bytes``) by their
exact type, and others by looking up the two methods once, as the protocol checks do.

pymap also parses every message it takes in to its last MIME part (a header parse by
the standard library's header classes for each part, every line of it found), and
that was a third of the hub's time: delivery of a report with a picture, for a reader
who fetches it whole (``BODY.PEEK[]``) and never asks for its structure.
``HeaderFirst`` parses the header on delivery, as pymap does (the threads and the
mailbox need it), and the body when something first asks for it (``BODYSTRUCTURE``,
a part, a search of the text): the same parse, later or never.  The headers it reads (the
thread's, a part's type) are parsed with each header's class made once
(``header_classes.HeaderClasses``, the moderator's), where the standard library's
registry makes a class for every header it parses.
"""

from __future__ import annotations

import asyncio
import ssl
from typing import Any

from pymap.backend.dict import mailbox as dict_mailbox
from pymap.bytes import BytesFormat
from pymap.mime import MessageBody, MessageContent, MessageHeader
from pymap.mime.parsed import ParsedHeaders

from moderator.mail.header_classes import HeaderClasses

_PLAIN_MOD = BytesFormat.__mod__


def _mod(self: BytesFormat, other: Any) -> bytes:
    """``BytesFormat %``: what pymap's own gives, the exact types asked first."""
    kind = type(other)
    if kind is tuple or kind is list:
        return self.format(other)  # no __index__ nor __bytes__: pymap formats the items
    if (kind is bytes or getattr(other, "__index__", None) is not None
            or getattr(other, "__bytes__", None) is not None):
        return self.format((other,))  # what SupportsIndex and SupportsBytes would admit
    return _PLAIN_MOD(self, other)


Line = tuple[int, int, int]  # pymap's line: its start, its end before CR LF, the next start


class HeaderFirst(MessageContent):
    """
    pymap's parsed message with its body's lines found and parsed when first asked for
    (see the module's text).  Its bytes, header, body and line count are those
    ``MessageContent.parse`` gives: the same steps, the body's deferred.
    """

    __slots__ = ("_body_start", "_data", "_parsed_body", "_parsed_header", "_view")
    _data: bytes
    _view: memoryview
    _body_start: int | None  # None: no body (the header's blank line was the last)
    _parsed_header: MessageHeader
    _parsed_body: MessageBody | None

    @classmethod
    def parse(cls, data: bytes) -> MessageContent:
        content = cls.__new__(cls)
        view = memoryview(data)
        header_lines, body_start = _header_lines(data)
        content._data, content._view, content._body_start = data, view, body_start
        # pymap's bytes run to the end of the body's last line; with no body, to one
        # byte short of the end (``get_raw`` of no lines)
        content._raw = view[0 : -1 if body_start is None else len(data)]
        content._parsed_header = MessageHeader._parse(data, view, header_lines)
        content._parsed_body = None
        return content

    @property  # type: ignore[misc]  # pymap's slot, read-only here
    def header(self) -> MessageHeader:
        return self._parsed_header

    @property  # type: ignore[misc]
    def body(self) -> MessageBody:
        if self._parsed_body is None:
            content_type = self._parsed_header.parsed.content_type
            lines = [] if self._body_start is None else _lines_from(self._data, self._body_start)
            self._parsed_body = MessageBody._parse(self._data, self._view, lines, content_type)
        return self._parsed_body

    @property  # type: ignore[misc]
    def lines(self) -> int:
        return int(self._parsed_header.lines + self.body.lines - 1)


def _line_at(data: bytes, start: int) -> tuple[Line, bool]:
    """The line from ``start`` as pymap finds lines (``MessageContent._find_lines``), and
    whether it is the message's last (no line end after it)."""
    at = data.find(b"\n", start)
    if at < 0:
        return (start, len(data), len(data)), True
    end = at - 1 if at > start and data[at - 1] == 0x0D else at
    return (start, end, at + 1), False


def _lines_from(data: bytes, start: int) -> list[Line]:
    """pymap's lines from ``start`` to the end of the message."""
    lines: list[Line] = []
    last = False
    while not last:
        line, last = _line_at(data, start)
        lines.append(line)
        start = line[2]
    return lines


def _header_lines(data: bytes) -> tuple[list[Line], int | None]:
    """
    A message's header lines as pymap splits them (up to its first blank line, which
    they include; none if it has none: then it is all body), and where its body's lines
    begin (None: it has none, the blank line was its last).
    """
    lines: list[Line] = []
    start = 0
    while True:
        line, last = _line_at(data, start)
        lines.append(line)
        if not data[line[0] : line[1]].strip():
            return lines, None if last else line[2]
        if last:
            return [], 0
        start = line[2]


def quicken_pymap() -> None:
    """Put the exact-type answers in front of pymap's ``BytesFormat %``, and the
    header-first parse in its in-memory mailboxes (once; harmless again)."""
    if BytesFormat.__mod__ is _PLAIN_MOD:
        BytesFormat.__mod__ = _mod  # type: ignore[method-assign]
    dict_mailbox.MessageContent = HeaderFirst  # type: ignore[attr-defined]
    if not isinstance(ParsedHeaders._registry, HeaderClasses):
        ParsedHeaders._registry = HeaderClasses()  # each header's class made once


class BatchedWriter:
    """
    A stream writer that sends what was written in one piece: at ``drain`` (or
    ``close``), or when the event loop turns, whichever comes first, so nothing waits
    for a drain that may not come.  It stands for ``asyncio.StreamWriter`` where the
    IMAP server writes (``write``, ``drain``, ``close``, ``start_tls``).
    """

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer
        self._pending: list[bytes] = []
        self._loop = asyncio.get_running_loop()

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if not self._pending:
            self._loop.call_soon(self._flush)
        self._pending.append(bytes(data))

    def writelines(self, lines: list[bytes]) -> None:
        for line in lines:
            self.write(line)

    def _flush(self) -> None:
        if self._pending:
            data = b"".join(self._pending)
            self._pending.clear()
            if not self._writer.is_closing():
                self._writer.write(data)

    async def drain(self) -> None:
        self._flush()
        await self._writer.drain()

    def close(self) -> None:
        self._flush()
        self._writer.close()

    def is_closing(self) -> bool:
        return self._writer.is_closing()

    async def wait_closed(self) -> None:
        await self._writer.wait_closed()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._writer.get_extra_info(name, default)

    @property
    def transport(self) -> asyncio.BaseTransport:
        return self._writer.transport

    async def start_tls(self, sslcontext: ssl.SSLContext, **kwargs: Any) -> None:
        self._flush()
        await self._writer.start_tls(sslcontext, **kwargs)
