"""
The text of a mail that its order lines are read from: ``extract_text``.

Walks the MIME tree to the one text part that holds the sender's words (skipping
attachments, attached mails and encrypted parts, salvaging a multipart with a wrong
boundary), decodes it, and turns it into plain lines (``html_text``, ``plain_text``),
keeping the PGP material (``signed_text``) and notes on everything done for the GM.
"""

from __future__ import annotations

import re
from dataclasses import replace
from email import policy as email_policy
from email.message import EmailMessage, Message
from email.parser import BytesParser

from moderator.mail.checks.base import content_type, own_parts, param, raw_values
from moderator.mail.html_text import html_to_text
from moderator.mail.part_decoding import decode, payload_bytes
from moderator.mail.plain_text import lines, unflow
from moderator.mail.signed_text import SignedContent, clearsigned, mime_signed, note_outside
from moderator.records import record

__all__ = ["DEFAULT_MAX_BYTES", "DEFAULT_MAX_LINES", "Extracted", "extract_text"]

DEFAULT_MAX_BYTES = 100_000
DEFAULT_MAX_LINES = 2_000
_MAX_DEPTH = 40


@record(kw_only=True)
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


@record
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
    data = payload_bytes(found.part)
    final = len(data) <= max_bytes
    if not final:
        notes.append(f"truncated: read {max(0, max_bytes)} of {len(data)} bytes")
        data = data[: max(0, max_bytes)]
    text, charset, signed = _read_part(found, data, final, notes)
    if found.signed is not None and signed is None:
        signed = mime_signed(found.signed, raw, notes)
    kept = lines(_tidy(found.part, text, notes) if found.kind == "text/plain" else text)
    if len(kept) > max_lines:
        notes.append(f"truncated: kept {max(0, max_lines)} of {len(kept)} lines")
        kept = kept[: max(0, max_lines)]
    return Extracted(
        text="\n".join(kept).strip("\n"),
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
    clear = clearsigned(data) if found.kind == "text/plain" else None
    if clear is not None:
        text_bytes, signed = clear
        text, charset = decode(text_bytes, declared, final, notes)
        text = "\n".join(line.removeprefix("- ") for line in lines(text))
        note_outside(data, signed, notes)
        signed = signed if signed.signed_bytes else None
    else:
        text, charset = decode(data, declared, final, notes)
    if found.kind == "text/html":
        text = html_to_text(text, notes)
        notes.append("html: converted to text")
    elif param(found.part, "format").lower() == "flowed":
        text = unflow(text, delsp=param(found.part, "delsp").lower() == "yes")
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
