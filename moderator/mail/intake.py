"""
The intake of incoming mail: raw bytes in; a disposition, the text and the order lines out.

Pure: the standard library's ``email`` package only, no network, no database, no clock.
The service archives the raw bytes first, then::

    msg = parse(raw)
    disposition = screen(msg, own_addresses={"titan@example.org"}, replies_today=n)
    if disposition.action is Action.ACCEPT:
        extracted = extract_text(msg, raw=raw)
        lines, ignored = order_lines(extracted.text)
        hints = game_and_player_hints(msg, extracted.text)

None of these functions raises, whatever the bytes: a mail the intake cannot make
sense of comes out with empty text and a note saying why, for the GM to look at.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from email import policy as email_policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.policy import Policy
from email.utils import parseaddr
from html.parser import HTMLParser
from typing import Literal

from moderator.mail.checks import CHAIN, LIST_LINK, Action, Context, ReplyBudget
from moderator.mail.checks.base import (
    MAIL_ERRORS,
    SEVERITY,
    addresses,
    clean,
    content_type,
    header_text,
    normalize_address,
    own_parts,
    param,
    raw_values,
)
from moderator.mail.compose import signed_part_bytes
from moderator.orders.finder import split_lines

__all__ = [
    "DEFAULT_BUDGET",
    "LOOP_HEADER",
    "Action",
    "Disposition",
    "Extracted",
    "Hints",
    "ReplyBudget",
    "SignedContent",
    "extract_text",
    "game_and_player_hints",
    "order_lines",
    "parse",
    "screen",
]

#: The header every moderator mail carries (``moderator.mail.compose`` writes it).
LOOP_HEADER = "X-Titan-Moderator"
#: Mailman's default: at most 10 automatic replies per address per day.
DEFAULT_BUDGET = ReplyBudget(10)
DEFAULT_MAX_BYTES = 100_000
DEFAULT_MAX_LINES = 2_000
_MAX_DEPTH = 40
_SLOW_HEADER = 10_000

# -- parse -------------------------------------------------------------------


def parse(raw: bytes) -> EmailMessage:
    """
    Parse raw mail bytes, whatever they hold; never raises.

    ``email.policy.default`` first; if that parser or its (lazy) header parsing fails on
    the mail, or a header is longer than 10,000 characters (the default policy's header
    parser takes seconds on such), the lenient ``compat32`` policy.  A leading mbox
    ``From `` line becomes the unix-from; blank lines before the headers are skipped.
    """
    data = bytes(raw).lstrip(b"\r\n")
    msg = _parse_with(data, email_policy.default) or _parse_with(data, email_policy.compat32)
    if msg is None:  # pragma: no cover - compat32 has not been seen failing
        msg = EmailMessage(policy=email_policy.compat32)
        msg.set_payload(data.decode("ascii", "surrogateescape"))
    return msg


def _parse_with(data: bytes, policy: Policy) -> EmailMessage | None:
    """The parsed mail, its headers all read once through ``policy``; None if that fails."""
    try:
        msg = BytesParser(_class=EmailMessage, policy=policy).parsebytes(data)
        for count, part in enumerate(msg.walk()):
            if count > 1000:
                break
            if policy is not email_policy.compat32 and any(
                len(value) > _SLOW_HEADER for _, value in part.raw_items()
            ):
                return None  # the default policy's header parser is slow on huge headers
            for value in part.values():
                str(value)
            part.get_params()
    except Exception:  # noqa: BLE001 - any parser bug means: try the next policy
        return None
    return msg if isinstance(msg, EmailMessage) else None


# -- screen ------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Disposition:
    """
    What to do with a mail: ``action``, the decisive hits as (check name, reason) in
    ``reasons``, and the weak signs that did not decide anything in ``signals``.
    """

    action: Action
    reasons: tuple[tuple[str, str], ...] = ()
    signals: tuple[tuple[str, str], ...] = ()

    @property
    def answer(self) -> bool:
        """Whether the sender gets a reply (``accept`` and ``reply-only``)."""
        return self.action in (Action.ACCEPT, Action.REPLY_ONLY)


def screen(
    msg: Message,
    *,
    own_addresses: Iterable[str],
    loop_header: str = LOOP_HEADER,
    replies_today: int | None = None,
    budget: ReplyBudget = DEFAULT_BUDGET,
    strict_lists: bool = False,
) -> Disposition:
    """
    Run the checks of ``moderator.mail.checks.CHAIN`` on ``msg``; never raises.

    Drops, without a reply, anything automatic or ours (RFC 3834 ``Auto-Submitted``,
    ``Precedence: bulk/junk``, delivery reports and read receipts, bounces, autoresponder
    headers, our own addresses and loop header), and any mail with two weak signs
    (mailing-list headers, a vacation subject, a role sender, no sender address).
    Encrypted mail is ``reply-only``; mail beyond the reply ``budget`` (the caller
    counts ``replies_today`` to the sender) and mail a check crashed on are held.
    ``strict_lists`` makes mailing-list headers drop the mail on their own.
    """
    ctx = Context(
        own_addresses=frozenset(normalize_address(a) for a in own_addresses if a.strip()),
        loop_header=loop_header,
        strict_lists=strict_lists,
        replies_today=replies_today,
        replies_per_day=budget.per_day,
    )
    decisive: list[tuple[Action, str, str]] = []
    weak: list[tuple[str, str]] = []
    for link in CHAIN:
        try:
            verdict = link.check(msg, ctx)
        except Exception as error:  # noqa: BLE001 - a broken check holds the mail (a shunt)
            decisive.append((Action.HOLD, link.name, f"check failed: {error!r}"))
            continue
        if not verdict.hit:
            continue
        if link.weak and not (strict_lists and link.name == LIST_LINK):
            weak.append((link.name, verdict.reason))
        else:
            decisive.append((link.action, link.name, verdict.reason))
    if len(weak) >= 2:
        decisive.extend((Action.DROP, name, f"{why} (with other weak signs)") for name, why in weak)
        weak = []
    if not decisive:
        return Disposition(action=Action.ACCEPT, signals=tuple(weak))
    worst = max((action for action, _, _ in decisive), key=SEVERITY.__getitem__)
    reasons = tuple((name, reason) for _, name, reason in decisive)
    return Disposition(action=worst, reasons=reasons, signals=tuple(weak))


# -- extract_text ------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class SignedContent:
    """
    What a signature check needs; the check itself is ``moderator.mail.compose``'s.

    ``clearsigned``: ``signed_bytes`` is the whole armored block as sent (after the
    transfer encoding, before the charset), from ``-----BEGIN PGP SIGNED MESSAGE-----``
    to ``-----END PGP SIGNATURE-----``: feed it to ``gpg --verify`` as it is.
    ``pgp-mime``: ``signed_bytes`` is the first part of the ``multipart/signed``, cut
    from the raw mail with CRLF line ends (RFC 3156 section 5), and ``signature`` the
    detached signature.  ``exact`` is False when no raw bytes were given and the part
    had to be written out again (the check may then fail on a good signature).
    """

    kind: Literal["clearsigned", "pgp-mime"]
    signed_bytes: bytes
    signature: bytes
    hash_name: str = ""
    exact: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class Extracted:
    """
    The text of a mail that the order lines are read from.

    ``source_part`` is the IMAP section number of the part read (``"1"`` for a
    single-part mail, ``"1.2"`` …; ``""`` when none), ``notes`` say what was done to
    the text (charset fallbacks, HTML, truncation, unsigned text left out …), and
    ``signed`` holds the signature material when the text came from a signed block.
    """

    text: str
    source_part: str = ""
    content_type: str = ""
    charset: str = ""
    notes: tuple[str, ...] = ()
    signed: SignedContent | None = None

    @property
    def clearsigned(self) -> bool:
        """Whether the text is the inside of an inline (clearsigned) PGP block."""
        return self.signed is not None and self.signed.kind == "clearsigned"


def extract_text(
    msg: Message,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_lines: int = DEFAULT_MAX_LINES,
    raw: bytes | None = None,
) -> Extracted:
    """
    The text of the mail's first text part, decoded; never raises.

    The part read is the first ``text/plain`` or ``text/html`` in the mail's own tree
    (``text/plain`` wins within a ``multipart/alternative``); attachments (by
    ``Content-Disposition``) and attached mails (``message/rfc822``) are skipped.  The
    charset is the declared one, else UTF-8, else windows-1252, else Latin-1.  HTML is
    turned into text (quotes become ``>`` lines), ``format=flowed`` is joined,
    clearsigned blocks are unwrapped, and the text of a PGP/MIME ``multipart/signed``
    comes with its signed bytes (cut from ``raw`` when given).  At most ``max_bytes``
    of the part are read and ``max_lines`` lines kept.
    """
    notes: list[str] = []
    try:
        return _extract(msg, max_bytes, max_lines, raw, notes)
    except Exception as error:  # noqa: BLE001 - never raise: the GM gets the mail and the note
        return Extracted(text="", notes=(*notes, f"extract-failed: {error!r}"))


@dataclass(frozen=True, slots=True)
class _Found:
    part: Message
    section: str
    kind: str
    signed: Message | None
    more: int = 0  # text parts after this one in the multiparts it was chosen from


def _extract(
    msg: Message, max_bytes: int, max_lines: int, raw: bytes | None, notes: list[str]
) -> Extracted:
    found = _find_body(msg, "", 0, None, notes)
    if found is None:
        attached = sum(1 for part in own_parts(msg) if _disposition(part) == "attachment")
        notes.append(f"no-text: no text/plain or text/html body ({attached} attachment(s) left)")
        return Extracted(text="", notes=tuple(notes))
    if found.more:
        notes.append(f"more-text: {found.more} more text part(s) after part {found.section}")
    data = _payload_bytes(found.part)
    final = len(data) <= max_bytes
    if not final:
        notes.append(f"truncated: read {max(0, max_bytes)} of {len(data)} bytes")
        data = data[: max(0, max_bytes)]
    text, charset, signed = _read_part(found, data, final, notes)
    if found.signed is not None and signed is None:
        signed = _mime_signed(found.signed, raw, notes)
    lines = _lines(_tidy(found.part, text, notes) if found.kind == "text/plain" else text)
    if len(lines) > max_lines:
        notes.append(f"truncated: kept {max(0, max_lines)} of {len(lines)} lines")
        lines = lines[: max(0, max_lines)]
    return Extracted(
        text="\n".join(lines).strip("\n"),
        source_part=found.section or "1",
        content_type=found.kind,
        charset=charset,
        notes=tuple(notes),
        signed=signed,
    )


def _read_part(
    found: _Found, data: bytes, final: bool, notes: list[str]
) -> tuple[str, str, SignedContent | None]:
    """The part's text (clearsigned block unwrapped, HTML or flowed text turned into lines)."""
    declared = param(found.part, "charset")
    signed: SignedContent | None = None
    clear = _clearsigned(data) if found.kind == "text/plain" else None
    if clear is not None:
        text_bytes, signed = clear
        text, charset = _decode(text_bytes, declared, final, notes)
        text = "\n".join(line.removeprefix("- ") for line in _lines(text))
        _note_outside(data, signed, notes)
        signed = signed if signed.signed_bytes else None
    else:
        text, charset = _decode(data, declared, final, notes)
    if found.kind == "text/html":
        text = _html_to_text(text)
        notes.append("html: converted to text")
    elif param(found.part, "format").lower() == "flowed":
        text = _unflow(text, delsp=param(found.part, "delsp").lower() == "yes")
    return text, charset, signed


def _tidy(part: Message, text: str, notes: list[str]) -> str:
    """Plain text without NULs, and cut where a multipart mistaken for text/plain begins."""
    content_types = raw_values(part, "Content-Type")
    if len(content_types) > 1:
        notes.append("duplicate-header: several Content-Type headers, the first one used")
    for boundary in re.findall(r'boundary="?([^";\s]+)', " ".join(content_types)):
        cut = re.search(rf"(?m)^--{re.escape(boundary)}(?:--)?[ \t]*$", text)
        if cut:
            text = text[: cut.start()]
            notes.append(f"boundary-cut: the text ends at the delimiter of {boundary!r}")
    if "\x00" in text:
        text = text.replace("\x00", "")
        notes.append("nul: NUL characters removed")
    return text


def _find_body(
    part: Message, section: str, depth: int, signed: Message | None, notes: list[str]
) -> _Found | None:
    kind = content_type(part)
    attached = depth > 0 and _disposition(part) == "attachment"
    if depth > _MAX_DEPTH or attached or kind.startswith("message/"):
        return None
    if kind in ("text/plain", "text/html"):
        return _Found(part, section, kind, signed)
    if not kind.startswith("multipart/"):
        return None
    if kind == "multipart/encrypted":
        notes.append("encrypted: multipart/encrypted cannot be read")
        return None
    children = _children(part, notes)
    if kind == "multipart/signed":
        children, signed = children[:1], part
    found = [
        hit
        for number, child in enumerate(children, 1)
        if (hit := _find_body(child, f"{section}.{number}".lstrip("."), depth + 1, signed, notes))
    ]
    if kind == "multipart/alternative":
        found.sort(key=lambda hit: hit.kind != "text/plain")
    elif len(found) > 1:
        found[0] = replace(found[0], more=found[0].more + len(found) - 1)
    return found[0] if found else None


def _children(part: Message, notes: list[str]) -> list[Message]:
    payload = part.get_payload()
    if isinstance(payload, list):
        return [child for child in payload if isinstance(child, Message)]
    # A multipart whose declared boundary never occurs: try the first delimiter-like line.
    body = payload if isinstance(payload, str) else ""
    match = re.search(r"(?m)^--([^\s\"]{1,70}?)(?:--)?[ \t]*\r?$", body)
    if match is None:
        return []
    head = f'Content-Type: multipart/mixed; boundary="{match.group(1)}"\n\n'
    data = (head + body).encode("utf-8", "surrogateescape")
    inner = BytesParser(_class=EmailMessage, policy=email_policy.compat32).parsebytes(data)
    salvaged = inner.get_payload()
    if not isinstance(salvaged, list):
        return []
    notes.append(f"salvaged: boundary {match.group(1)!r} used instead of the declared one")
    return [child for child in salvaged if isinstance(child, Message)]


def _disposition(part: Message) -> str:
    values = raw_values(part, "Content-Disposition")
    return values[0].split(";", 1)[0].strip().lower() if values else ""


def _payload_bytes(part: Message) -> bytes:
    try:
        data = part.get_payload(decode=True)
    except MAIL_ERRORS:
        data = None
    if isinstance(data, bytes):
        return data
    payload = part.get_payload()
    return payload.encode("utf-8", "surrogateescape") if isinstance(payload, str) else b""


def _lines(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


# -- charsets

#: MIME labels whose bytes are better read by a superset (as browsers do, WHATWG).
_CHARSET_ALIASES = {
    "iso-8859-1": "cp1252",
    "iso_8859-1": "cp1252",
    "latin1": "cp1252",
    "latin-1": "cp1252",
    "us-ascii": "ascii",
    "shift_jis": "cp932",
    "shift-jis": "cp932",
    "sjis": "cp932",
    "x-sjis": "cp932",
    "windows-31j": "cp932",
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "ks_c_5601-1987": "cp949",
    "euc-kr": "cp949",
    "iso-8859-8-i": "iso-8859-8",
    "iso-8859-6-i": "iso-8859-6",
    "tis-620": "cp874",
    "windows-874": "cp874",
}
#: Codecs that are not charsets (they would read escapes or names, not text).
_NOT_CHARSETS = frozenset({"unicode-escape", "raw-unicode-escape", "idna", "punycode", "undefined"})


def _codec(label: str) -> str | None:
    match = re.match(r"[\w.:-]+", label.strip().strip("\"'").lower())
    if match is None:
        return None
    name = _CHARSET_ALIASES.get(match.group(), match.group())
    try:
        info = codecs.lookup(name)
    except (LookupError, ValueError):
        return None
    if not getattr(info, "_is_text_encoding", True) or info.name in _NOT_CHARSETS:
        return None
    return info.name


def _decode(data: bytes, declared: str, final: bool, notes: list[str]) -> tuple[str, str]:
    """Decode with the declared charset, else UTF-8, windows-1252, Latin-1 (never fails)."""
    first = _codec(declared) if declared else "utf-8"
    if first is None:
        notes.append(f"charset-unknown: {declared!r}")
    for name in dict.fromkeys([first or "utf-8", "utf-8", "cp1252", "latin-1"]):
        try:
            text = codecs.getincrementaldecoder(name)().decode(data, final=final)
        except (UnicodeError, LookupError):
            continue
        if first is not None and name != first:
            said = repr(declared) if declared else "none"
            notes.append(f"charset-fallback: declared {said}, read as {name}")
        return text, name
    return data.decode("latin-1"), "latin-1"  # pragma: no cover - latin-1 always decodes


# -- PGP


_BEGIN_SIGNED = re.compile(rb"^-----BEGIN PGP SIGNED MESSAGE-----[ \t]*\r?$", re.MULTILINE)
_BEGIN_SIGNATURE = re.compile(rb"^-----BEGIN PGP SIGNATURE-----[ \t]*\r?$", re.MULTILINE)
_END_SIGNATURE = re.compile(rb"^-----END PGP SIGNATURE-----[ \t]*\r?$", re.MULTILINE)
_BLANK_LINE = re.compile(rb"\n[ \t]*\r?\n")


def _clearsigned(data: bytes) -> tuple[bytes, SignedContent] | None:
    """The signed text (still dash-escaped) and the block of the first clearsigned message."""
    begin = _BEGIN_SIGNED.search(data)
    if begin is None:
        return None
    blank = _BLANK_LINE.search(data, begin.end())
    start = blank.end() if blank else len(data)
    headers = data[begin.end() : start].decode("ascii", "replace")
    opening = _BEGIN_SIGNATURE.search(data, start)
    closing = _END_SIGNATURE.search(data, opening.end()) if opening else None
    if opening is None or closing is None:
        return data[start:], SignedContent(kind="clearsigned", signed_bytes=b"", signature=b"")
    # the line end before the signature armor belongs to the armor (RFC 4880 7.1)
    text_end = opening.start() - (2 if data[: opening.start()].endswith(b"\r\n") else 1)
    found = re.search(r"(?im)^Hash:\s*(.+?)\s*$", headers)
    return data[start : max(start, text_end)], SignedContent(
        kind="clearsigned",
        signed_bytes=data[begin.start() : closing.end()],
        signature=data[opening.start() : closing.end()],
        hash_name=found.group(1) if found else "",
    )


def _note_outside(data: bytes, signed: SignedContent, notes: list[str]) -> None:
    if not signed.signed_bytes:
        notes.append("clearsigned-broken: no signature block; the text is not signed")
        return
    at = data.find(signed.signed_bytes)
    outside = data[:at] + data[at + len(signed.signed_bytes) :]
    count = sum(1 for line in outside.splitlines() if line.strip())
    notes.append("clearsigned: the text is the signed block")
    if count:
        notes.append(f"unsigned-text: {count} line(s) outside the signed block not read")


def _mime_signed(container: Message, raw: bytes | None, notes: list[str]) -> SignedContent | None:
    protocol = param(container, "protocol").lower()
    children = [part for part in _listed(container.get_payload()) if isinstance(part, Message)]
    if protocol != "application/pgp-signature" or len(children) != 2:
        notes.append(f"signed-unreadable: multipart/signed with protocol {protocol!r}")
        return None
    boundary = container.get_boundary() or ""
    signed = signed_part_bytes(raw, boundary) if raw is not None and boundary else None
    exact = signed is not None
    if signed is None:
        notes.append("pgp-mime: signed part written out again (no raw bytes); may not verify")
        policy = email_policy.compat32.clone(linesep="\r\n", max_line_length=0)
        signed = children[0].as_bytes(policy=policy)
    notes.append("pgp-mime: the text is in the signed part")
    return SignedContent(
        kind="pgp-mime",
        signed_bytes=re.sub(rb"\r?\n", b"\r\n", signed),
        signature=_payload_bytes(children[1]),
        hash_name=param(container, "micalg"),
        exact=exact,
    )


def _listed(payload: object) -> list[object]:
    return list(payload) if isinstance(payload, list) else []


# -- text/plain format=flowed and text/html


def _unflow(text: str, *, delsp: bool) -> str:
    """RFC 3676: join soft-broken lines (ending in a space) of the same quote depth."""
    out: list[str] = []
    carry: tuple[int, str] | None = None
    for line in _lines(text):
        depth = len(line) - len(line.lstrip(">"))
        body = line[depth:]
        body = body.removeprefix(" ")
        if carry is not None and carry[0] == depth:
            body = carry[1] + body
        elif carry is not None:
            out.append(_quoted(*carry))
        carry = None
        if body.endswith(" ") and body != "-- ":
            carry = (depth, body[:-1] if delsp else body)
        else:
            out.append(_quoted(depth, body))
    if carry is not None:
        out.append(_quoted(*carry))
    return "\n".join(out)


def _quoted(depth: int, body: str) -> str:
    return f"{'>' * depth} {body}" if depth else body


_VOID = frozenset(
    {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    }
)
_SKIP = frozenset({"style", "script", "title", "template", "noscript"})
_BLOCK = frozenset(
    {
        "address",
        "article",
        "aside",
        "blockquote",
        "center",
        "dd",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "table",
        "tr",
        "ul",
    }
)
_QUOTE, _SIG, _HIDE, _PRE, _UNQUOTED = 1, 2, 4, 8, 16


class _HtmlText(HTMLParser):
    """HTML to text lines: blocks and ``<br>`` break lines, quotes become ``>`` lines."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self._words: list[str] = []
        self._stack: list[tuple[str, int]] = []
        self._depth = 0

    def _flags(self) -> int:
        flags = 0
        for _, each in self._stack:
            flags |= each
        return flags

    def _quote_depth(self) -> int:
        return sum(1 for _, flags in self._stack if flags & _QUOTE)

    def flush(self) -> None:
        line = "".join(self._words).strip()
        self._words = []
        if line:
            self.lines.append(_quoted(self._depth, line))
        elif self.lines and self.lines[-1]:
            self.lines.append("")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID:
            if tag in ("br", "hr"):
                self.flush()
            return
        marks = " ".join(value or "" for key, value in attrs if key in ("class", "id", "name"))
        flags = (_HIDE if tag in _SKIP else 0) | (_PRE if tag == "pre" else 0)
        marks = marks.lower()
        quote = tag == "blockquote" or "quote" in marks
        # Apple Mail wraps shared content in an unstyled blockquote that is no quote.
        flags |= _QUOTE if quote and not self._flags() & _UNQUOTED else 0
        flags |= _SIG if "signature" in marks else 0
        flags |= _UNQUOTED if "urlsharewrapper" in marks else 0
        if tag in _BLOCK or flags & (_QUOTE | _SIG):
            self.flush()
        elif tag in ("td", "th"):
            self._words.append(" ")  # cells of one row stay on one line, apart
        self._stack.append((tag, flags))
        if flags & _SIG and not self._flags() & _HIDE:
            self._depth = self._quote_depth()
            self.lines.append(_quoted(self._depth, "-- "))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("br", "p") and not any(open_tag == tag for open_tag, _ in self._stack):
            self.flush()  # a stray </br> or </p> still breaks the line
            return
        for index in range(len(self._stack) - 1, -1, -1):
            if self._stack[index][0] == tag:
                if tag in _BLOCK or self._stack[index][1] & (_QUOTE | _SIG):
                    self.flush()
                del self._stack[index:]
                return

    def handle_data(self, data: str) -> None:
        flags = self._flags()
        if flags & _HIDE:
            return
        if not self._words:
            self._depth = self._quote_depth()
        if flags & _PRE:
            pieces = data.replace("\r\n", "\n").split("\n")
            for index, piece in enumerate(pieces):
                if index:
                    self.flush()
                    self._depth = self._quote_depth()
                self._words.append(piece.replace("\xa0", " "))
        else:
            self._words.append(re.sub(r"\s+", " ", data.replace("\xa0", " ")))


def _html_to_text(html: str) -> str:
    parser = _HtmlText()
    try:
        parser.feed(html)
        parser.close()
    except MAIL_ERRORS:  # HTMLParser is lenient; if it ever gives up, strip the tags crudely
        return re.sub(r"<[^>]*>", " ", html)
    parser.flush()
    return "\n".join(parser.lines).strip("\n")


# -- order_lines ---------------------------------------------------------------

_OPENER = r"(?:on|am|le|el|il|op|em|den|på|w dniu|\d{1,4}[./-]\d{1,2}[./-]\d{1,4})"
_VERB = (
    r"(?:wrote|writes|schrieb|a écrit|escribió|ha scritto|scrisse|schreef|escreveu"
    r"|napisał\w*|skrev|kirjoitti|написал\w*)"
)
_ATTRIBUTION = re.compile(rf"^(?:-+\s*)?{_OPENER}\b.*{_VERB}\s*:$", re.IGNORECASE | re.DOTALL)
_VERB_ONLY = re.compile(_VERB, re.IGNORECASE)
_SEPARATOR = re.compile(
    r"^-{2,}\s*(?:original message|forwarded message|ursprüngliche nachricht|"
    r"weitergeleitete nachricht|message d'origine|message transféré|mensaje original|"
    r"messaggio originale|oorspronkelijk bericht)\s*-{2,}$"
    r"|^(?:begin forwarded message|anfang der weitergeleiteten nachricht)\s*:$",
    re.IGNORECASE,
)
_SIGNATURE = re.compile(r"^--\s*$")
_RULE = re.compile(r"^[-_=*~]{10,}$")
_FOOTER = re.compile(
    r"^(?:--\s*)?(?:(?:sent|envoy[ée]|enviado|inviato|gesendet|verzonden|skickat|sendt"
    r"|wys[lł]ane|отправлено)\s+(?:from|via|with|using|by|de|desde|da|von|vom|mit|vanaf|met"
    r"|från|fra|z|ze|с|из)\b.*|von meine[mr]? .{1,40} gesendet\.?|get outlook for \w+.*)$",
    re.IGNORECASE,
)
_HEADER_KEY = re.compile(r"^\*?\s*([^\W\d_][\w-]*(?: [^\W\d_]+)?)\s*\*?\s*:")
_FROM_KEYS = frozenset({"from", "von", "de", "da", "van", "od", "от", "från", "fra"})
_DATE_KEYS = frozenset(
    {
        "sent",
        "date",
        "gesendet",
        "datum",
        "envoyé",
        "enviado",
        "fecha",
        "data",
        "verzonden",
        "skickat",
        "sendt",
        "дата",
        "отправлено",
        "inviato",
    }
)
_OTHER_KEYS = frozenset(
    {
        "to",
        "cc",
        "subject",
        "an",
        "betreff",
        "à",
        "objet",
        "para",
        "asunto",
        "aan",
        "onderwerp",
        "a",
        "oggetto",
        "till",
        "ämne",
        "do",
        "temat",
        "тема",
        "кому",
        "kopie",
        "reply-to",
    }
)
_BR = re.compile(r"<br\s*/?>", re.IGNORECASE)
_GAME_ID = r"([A-Za-z0-9](?:[\w-]*[A-Za-z0-9])?)"
_GAME_LINE = re.compile(rf"^\s*game\s*[:=]?\s*{_GAME_ID}\s*\.?\s*$", re.IGNORECASE)
_SECRET_LINE = re.compile(r"^\s*secret\s*[:=]?\s*(\S+)\s*$", re.IGNORECASE)
_SUBJECT_TAG = re.compile(rf"\[\s*titan[\s:-]+{_GAME_ID}\s*\]", re.IGNORECASE)


def order_lines(text: str, *, max_lines: int = 100) -> tuple[list[str], list[str]]:
    """
    The order lines of a mail's text, and the ignored lines after where reading stopped.

    Quoted replies are left out: ``>`` lines, attribution lines ("On … wrote:", in one to
    three lines and several languages).  Reading stops at a forwarded or original
    message (``-----Original Message-----``, an Outlook ``From:/Sent:/To:`` block), a
    signature (``-- ``), a mobile footer ("Sent from my iPhone"), a long rule line, or
    ``signoff``; the non-blank, unquoted lines after that are the ignored ones.  Then
    ``moderator.orders.finder.split_lines`` drops blanks and comments and caps the count
    at ``max_lines``.  The ``game …`` and ``secret …`` lines are for
    ``game_and_player_hints``: they are in neither list, so a secret is never echoed.
    """
    try:
        kept, rest = _own_lines(text)
    except MAIL_ERRORS:  # never raise; the text is then read as it is
        kept, rest = _lines(text), []
    kept = [line for line in kept if not _is_hint(line)]
    orders, ignored = split_lines("\n".join(kept), max_lines)
    tail = [line.strip() for line in rest if line.strip() and not _is_hint(line)]
    return orders, ignored + [line for line in tail if not line.startswith(">")]


def _is_hint(line: str) -> bool:
    return bool(_GAME_LINE.match(line) or _SECRET_LINE.match(line))


def _own_lines(text: str) -> tuple[list[str], list[str]]:
    """The sender's own lines (quotes and attributions left out) and the lines after a stop."""
    lines = _lines(_BR.sub("\n", text.replace("\xa0", " ")))
    quoted_next = [False] * len(lines)  # whether the next non-blank line is a quoted one
    for index in range(len(lines) - 2, -1, -1):
        after = lines[index + 1].strip()
        quoted_next[index] = after.startswith(">") if after else quoted_next[index + 1]
    kept: list[str] = []
    for index, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith(">"):
            continue
        attribution = _attribution(lines, index, kept, quoted_next=quoted_next[index])
        if attribution is not None:
            span, quoted = attribution
            del kept[len(kept) - span + 1 :]
            if quoted:
                continue
            return kept, lines[index - span + 1 :]
        content = any(k.strip() for k in kept)
        if _SIGNATURE.match(stripped):  # like split_lines: the mark itself is in neither list
            return kept, lines[index + 1 :]
        if _SEPARATOR.match(stripped) or _header_block(lines, index):
            return kept, lines[index:]
        if len(stripped) <= 100 and _FOOTER.match(stripped):
            return kept, lines[index:]
        if _RULE.match(stripped):
            if content:
                return kept, lines[index:]
            continue
        kept.append(line)
    return kept, []


def _attribution(
    lines: list[str], index: int, kept: list[str], *, quoted_next: bool
) -> tuple[int, bool] | None:
    """
    (lines in it, whether quoted lines follow) if ``lines[index]`` ends an attribution.

    An attribution ends with ``:``.  It may start up to two lines earlier (the lines just
    kept) when the joined lines read "On … wrote:".  Without that phrase, one line ending
    with ``:`` that holds an address, a date or a "wrote" word counts only when ``>``
    lines follow it.
    """
    last = lines[index].strip()
    if not last.endswith(":"):
        return None
    for span in (1, 2, 3):
        earlier = kept[len(kept) - span + 1 :] if span > 1 else []
        if earlier != lines[max(0, index - span + 1) : index] or not all(map(str.strip, earlier)):
            continue
        joined = " ".join(line.strip() for line in [*earlier, last])
        if len(joined) <= 400 and _ATTRIBUTION.match(joined):
            return span, quoted_next
    if quoted_next and (re.search(r"[@\d]", last) or _VERB_ONLY.search(last)):
        return 1, True
    return None


def _header_block(lines: list[str], index: int) -> bool:
    """Whether an Outlook-style ``From:/Sent:/To:/Subject:`` block of a quoted mail starts here."""
    keys: list[str] = []
    for line in lines[index : index + 6]:
        match = _HEADER_KEY.match(line.strip())
        if not line.strip() or match is None:
            break
        keys.append(match.group(1).lower())
    if not keys or keys[0] not in _FROM_KEYS | _DATE_KEYS:
        return False
    known = [key for key in keys if key in _FROM_KEYS | _DATE_KEYS | _OTHER_KEYS]
    return (
        len(known) >= 3
        and any(key in _FROM_KEYS for key in known)
        and any(key in _DATE_KEYS for key in known)
    )


# -- hints ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Hints:
    """
    Who a mail seems to be from and which game it seems to be about: hints only.

    ``game`` is the body's ``game …`` line if there is one, else the subject's
    ``[titan …]`` tag (both are kept).  ``secret`` is the value of a ``secret …`` line,
    for the caller to hash and compare.  ``sender`` is the From address in lower case.
    Deciding that the mail really comes from a player is the caller's job.
    """

    game: str | None = None
    subject_game: str | None = None
    body_game: str | None = None
    secret: str | None = None
    sender: str | None = None
    sender_name: str = ""


def game_and_player_hints(msg: Message, text: str) -> Hints:
    """The game, secret and sender hints of a mail and its extracted ``text``; never raises."""
    try:
        subject = header_text(msg, "Subject")
        tag = _SUBJECT_TAG.search(subject)
        own = _own_lines(text)[0]
        games = [m.group(1) for m in map(_GAME_LINE.match, own) if m]
        secrets = [m.group(1) for m in map(_SECRET_LINE.match, own) if m]
        senders = addresses(msg, "From")
        name = clean(parseaddr(header_text(msg, "From"))[0])
    except MAIL_ERRORS:
        return Hints()
    subject_game = tag.group(1) if tag else None
    body_game = games[0] if games else None
    return Hints(
        game=body_game or subject_game,
        subject_game=subject_game,
        body_game=body_game,
        secret=secrets[0] if secrets else None,
        sender=senders[0] if senders else None,
        sender_name=name,
    )
