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
"""

from __future__ import annotations

import asyncio
import ssl
from typing import Any

from pymap.bytes import BytesFormat

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


def quicken_pymap() -> None:
    """Put the exact-type answers in front of pymap's ``BytesFormat %`` (once; harmless
    again)."""
    if BytesFormat.__mod__ is _PLAIN_MOD:
        BytesFormat.__mod__ = _mod  # type: ignore[method-assign]


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
