"""
Reading one MIME part's content: its bytes with the transfer encoding undone, and their text.

Kept apart so that the body finder (``body_text``) and the PGP reader (``signed_text``)
share one way of getting at a part's bytes, and so that the charset fallbacks (declared,
else UTF-8, else windows-1252, else Latin-1) live in one place.  Never raises.
"""

from __future__ import annotations

import codecs
import re
from email.message import Message

from moderator.mail.checks.base import MAIL_ERRORS

__all__ = ["decode", "payload_bytes"]

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


def payload_bytes(part: Message) -> bytes:
    """The part's payload with the transfer encoding undone (as it stands if that fails)."""
    try:
        data = part.get_payload(decode=True)
    except MAIL_ERRORS:
        data = None
    if isinstance(data, bytes):
        return data
    payload = part.get_payload()
    return payload.encode("utf-8", "surrogateescape") if isinstance(payload, str) else b""


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


def decode(data: bytes, declared: str, final: bool, notes: list[str]) -> tuple[str, str]:
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
