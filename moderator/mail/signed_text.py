"""
Finding the PGP signature material around a mail's text, for a later signature check.

Extraction must hand the text *and* exactly the bytes that were signed to
``moderator.mail.compose``; this module cuts those out of an inline clearsigned block or
a PGP/MIME ``multipart/signed`` (RFC 3156), and notes what it could not.  It verifies
nothing itself.
"""

from __future__ import annotations

import re
from email import policy as email_policy
from email.message import Message
from typing import Literal

from moderator.mail.checks.base import param
from moderator.mail.compose import canonical_crlf, signed_part_bytes
from moderator.mail.part_decoding import payload_bytes
from moderator.records import record

__all__ = ["SignedContent", "clearsigned", "mime_signed", "note_outside"]


@record(kw_only=True)
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


_BEGIN_SIGNED = re.compile(rb"^-----BEGIN PGP SIGNED MESSAGE-----[ \t]*\r?$", re.MULTILINE)
_BEGIN_SIGNATURE = re.compile(rb"^-----BEGIN PGP SIGNATURE-----[ \t]*\r?$", re.MULTILINE)
_END_SIGNATURE = re.compile(rb"^-----END PGP SIGNATURE-----[ \t]*\r?$", re.MULTILINE)
_BLANK_LINE = re.compile(rb"\n[ \t]*\r?\n")


def clearsigned(data: bytes) -> tuple[bytes, SignedContent] | None:
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
    found = re.search(r"(?im)^Hash:\s*(.+)$", headers)  # stripped below: linear time
    return data[start : max(start, text_end)], SignedContent(
        kind="clearsigned",
        signed_bytes=data[begin.start() : closing.end()],
        signature=data[opening.start() : closing.end()],
        hash_name=found.group(1).strip() if found else "",
    )


def note_outside(data: bytes, signed: SignedContent, notes: list[str]) -> None:
    """Note a broken clearsigned block, or the lines of ``data`` outside the signed block."""
    if not signed.signed_bytes:
        notes.append("clearsigned-broken: no signature block; the text is not signed")
        return
    at = data.find(signed.signed_bytes)
    outside = data[:at] + data[at + len(signed.signed_bytes) :]
    count = sum(1 for line in outside.splitlines() if line.strip())
    notes.append("clearsigned: the text is the signed block")
    if count:
        notes.append(f"unsigned-text: {count} line(s) outside the signed block not read")


def mime_signed(container: Message, raw: bytes | None, notes: list[str]) -> SignedContent | None:
    """The signed part's bytes and the detached signature of a ``multipart/signed``."""
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
        signed_bytes=canonical_crlf(signed),
        signature=payload_bytes(children[1]),
        hash_name=param(container, "micalg"),
        exact=exact,
    )


def _listed(payload: object) -> list[object]:
    return list(payload) if isinstance(payload, list) else []
