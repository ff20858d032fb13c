"""
What a mail may cost before anybody knows who sent it: ``RawLimits`` and ``over_limit``.

The ``email`` package's time grows with a mail's lines (each matched against every open
boundary), parts, header fields and field sizes (``Content-Type`` parameters are read in
quadratic time): a stranger's megabytes could hold the worker for seconds.  So the raw
bytes are measured first, in linear time, building no message: cut into parts as
``email.feedparser`` (compat32, as ``intake.parse``) and ``body_text``'s salvage cut them.
"""

from __future__ import annotations

import re
from email.message import Message

from moderator.records import record

__all__ = ["DEFAULT_LIMITS", "RawLimits", "over_limit"]

#: ``email.feedparser.headerRE``: a line that may stand in a header block.
_HEADER_LINE = re.compile(rb"From |[\x21-\x39\x3b-\x7e]*:|[\t ]")
#: ``body_text._children``'s search for a salvage boundary (``\s`` as a str pattern has it).
_SALVAGE = re.compile(rb'(?m)^--([^\t\n\x0b\x0c\r\x1c-\x1f "]{1,70}?)(?:--)?[ \t]*\r?$')


@record(kw_only=True)
class RawLimits:
    """
    Caps on a player's mail: orders, and what clients add (an HTML alternative, a logo, a
    key, a signature, long Autocrypt or DKIM headers).  A mail at a cap passes.  Measured
    (bench_screening.py): the worst mail within them all is read in well under 100 ms.
    """

    max_bytes: int = 1 << 20  #: the raw size
    max_lines: int = 15_000  #: CR, LF or CRLF ends; max_bytes of 76-byte base64 is 13,800
    max_line: int = 10_000  #: bytes in a line (RFC 5322 says 998; HTML mailers send more)
    max_parts: int = 50  #: MIME parts, attached mails and their parts included
    max_depth: int = 8  #: multipart and message/* parts nested in one another
    max_headers: int = 300  #: header fields of the mail, or of one part
    max_header_bytes: int = 8_192  #: a field with its folded lines (Autocrypt: ~3 KB)
    max_params: int = 32  #: ``;`` in one Content-Type (read in quadratic time)


DEFAULT_LIMITS = RawLimits()


class _Stop(Exception): """A cap is exceeded; the message says which."""


def over_limit(raw: bytes, limits: RawLimits = DEFAULT_LIMITS) -> str | None:
    """None if ``raw`` is within ``limits``, else why not, in a short sentence; never raises."""
    try:
        if len(raw) > limits.max_bytes:
            return f"the mail has {len(raw)} bytes (at most {limits.max_bytes} are read)"
        data = raw.lstrip(b"\r\n")  # as intake.parse reads it
        lines = data.splitlines()  # CR, LF and CRLF, as the parser splits; a few ms a MiB
        if len(lines) > limits.max_lines:
            return f"the mail has {len(lines)} lines (at most {limits.max_lines} are read)"
        if lines and max(map(len, lines)) > limits.max_line:
            number, longest = max(enumerate(lines, 1), key=lambda pair: len(pair[1]))
            return f"line {number} has {len(longest)} bytes (at most {limits.max_line} are read)"
        (scan := _Scan(data, lines, limits)).entity(0, 0, digest=False)
        if scan.parts > limits.max_parts:
            return f"the mail has {scan.parts} MIME parts (at most {limits.max_parts} are read)"
        return None
    except _Stop as stop:
        return str(stop)
    except Exception as error:  # noqa: BLE001 - never raise: refuse what cannot be measured
        return f"the mail could not be measured ({error!r})"


class _Scan:
    """
    ``email.feedparser.FeedParser._parsegen`` over line numbers: the same ends of parts,
    message/* and delivery-status parts, digest defaults and boundaries.  ``active``: what
    ends the entity being read (boundaries; None: a blank line), up to line ``end``.
    """

    def __init__(self, data: bytes, lines: list[bytes], limits: RawLimits) -> None:
        self.data, self.lines, self.limits, self.parts = data, lines, limits, 0
        self._kept: list[bytes] = []
        self._use([], len(lines))

    def _use(self, active: list[bytes | None], end: int) -> None:
        self.active, self.end, self.blank = active, end, None in active
        self.bounds = [boundary for boundary in active if boundary is not None]

    def eof(self, i: int) -> bool:
        """Whether the entity being read ends before line ``i``."""
        line = self.lines[i] if i < self.end else None
        if not line:
            return line is None or self.blank
        return line[:2] == b"--" and any(_delimiter(line, b) for b in self.bounds)

    def entity(self, i: int, depth: int, *, digest: bool) -> int:
        """Read the entity whose header block starts at line ``i``; the line after it."""
        if depth > (cap := self.limits.max_depth):
            raise _Stop(f"the mail nests MIME parts {depth} deep (at most {cap} are read)")
        i, value, lead = self.headers(i)
        kind, boundary = _content_type(value, digest=digest)
        while kind == "message/delivery-status":  # blocks of fields, each a part
            self.parts += 1
            self._use([*self.active, None], self.end)
            i = self.entity(i, depth + 1, digest=False)
            self._use(self.active[:-1], self.end)
            i += not self.eof(i)
            if self.eof(i):
                return i
        if kind.startswith("message/"):
            self.parts += 1
            return self.entity(i, depth + 1, digest=False)
        if kind.startswith("multipart/"):
            return self.multipart(i, depth, boundary, kind == "multipart/digest", lead)
        while not self.eof(i):  # the body
            i += 1
        return i

    def headers(self, i: int) -> tuple[int, bytes | None, int | None]:
        """The line after the header block at ``i``, its Content-Type, a last From line."""
        limits, lines, start = self.limits, self.lines, i
        where = f"part {self.parts}" if self.parts else "the mail's header"
        count, name, size, ctype, reading = 0, b"", 0, None, False
        while not self.eof(i):
            line = lines[i]
            if not _HEADER_LINE.match(line):
                i += not line  # the blank separator is read; any other line is the body's
                break
            i += 1
            if line[:1] in (b" ", b"\t"):  # a folded line (dropped when no field is open)
                size += len(line) + 1 if name else 0
                if reading and ctype is not None:
                    ctype.append(line)
            else:  # a field; or an envelope line or a nameless one, which are none
                colon, reading = line.find(b":"), False
                named = colon > 0 and not line.startswith(b"From ")
                name, size, count = line[:colon] if named else b"", len(line), count + named
                if ctype is None and name.lower() == b"content-type":
                    ctype, reading = [line[colon + 1 :].lstrip(b" \t")], True
            if size > (cap := limits.max_header_bytes) and name:
                raise _Stop(f"{where} has a field of over {cap} bytes ({name.decode('latin-1')})")
        if count > (cap := limits.max_headers):
            raise _Stop(f"{where} has {count} header fields (at most {cap} are read)")
        value = None if ctype is None else b"\n".join(ctype)
        if value is not None and (found := value.count(b";")) > (cap := limits.max_params):
            raise _Stop(f"{where} has a Content-Type of {found} parameters (at most {cap})")
        last = i - 1 - (i > start and not lines[i - 1])
        return i, value, last if last > start and lines[last].startswith(b"From ") else None

    def multipart(self, i: int, depth: int, boundary: bytes | None, digest: bool,
                  lead: int | None, salvaged: bool = False) -> int:
        """A multipart's body from line ``i``: its parts, or those salvaged from it."""
        body, parted = i, False
        while boundary is not None and not self.eof(i) and _delimiter(self.lines[i], boundary) < 2:
            i += 1
            if _delimiter(self.lines[i - 1], boundary):  # repeated delimiters make one part
                while not self.eof(i) and _delimiter(self.lines[i], boundary):
                    i += 1
                parted, self.parts = True, self.parts + 1
                self._use([*self.active, boundary], self.end)
                i = self.entity(i, depth + 1, digest=digest)
                self._use(self.active[:-1], self.end)
        stop = i  # at the close delimiter, or at the end
        while not self.eof(i):  # the epilogue (without a boundary: the body)
            i += 1
        if not parted and not salvaged:  # left as text, which body_text salvages (once)
            self.salvage(body, i if boundary is None else stop, depth, lead)
        return i

    def salvage(self, start: int, stop: int, depth: int, lead: int | None) -> None:
        """The parts ``body_text._children`` parses out of lines ``start:stop``."""
        self._kept = self._kept or self.data.splitlines(keepends=True)
        head = b"" if lead is None else self._kept[lead]
        found = _SALVAGE.search(head + b"".join(self._kept[start:stop]))
        if found is not None:  # parsed on its own, as a multipart of that boundary
            _, boundary = _content_type(b'multipart/mixed; boundary="' + found[1] + b'"')
            active, end = self.active, self.end
            self._use([], stop)
            self.multipart(start, depth, boundary, False, None, salvaged=True)
            self._use(active, end)


def _delimiter(line: bytes, boundary: bytes) -> int:
    """1 if ``line`` is a delimiter of ``boundary``, 2 if its close delimiter, else 0."""
    core = line.rstrip(b" \t")[2:] if line[:2] == b"--" else None
    return 1 if core == boundary else 2 if core == boundary + b"--" else 0


def _content_type(value: bytes | None, *, digest: bool = False) -> tuple[str, bytes | None]:
    """The type and boundary that ``email.message.Message`` (compat32) reads in ``value``."""
    msg = Message()
    msg.set_default_type("message/rfc822" if digest else "text/plain")
    if value is not None:
        msg.set_raw("Content-Type", value.decode("ascii", "surrogateescape"))
    try:
        kind = msg.get_content_type()
        found = msg.get_boundary() if kind.startswith("multipart/") else None
        return kind, None if found is None else found.encode("ascii", "surrogateescape")
    except UnicodeEncodeError:  # a boundary read from undecodable bytes matches no line
        return msg.get_content_type(), b"\n"
    except Exception:  # noqa: BLE001 - the parser fails on it too, and reads the mail as text
        return "text/plain", None
