"""
A bounce as read: who failed for good, why, where it came back to, and which mail of
ours it returns.  Pure: the mail is parsed already; no store, no clock.

Which recipients failed is ``flufl.bounce``'s answer (Mailman's bounce detectors, kept
by its maintainers): bounces come in dozens of formats (RFC 3464 DSNs, Exim, qmail,
Exchange, Yahoo ...) and a parser of our own would know a few.  Its permanent failures
only: a warning that delivery is delayed is not a bounce.  The rest is read with the
standard library: the DSN's ``Status`` and ``Diagnostic-Code`` (RFC 3464 2.3) for the
game master, the addresses the bounce was delivered to (a VERP return path names the
mail: ``moderator.mail.verp``), and the Message-IDs of the returned mail (an attached
``message/rfc822``, ``text/rfc822-headers``, a quoted ``Message-ID:`` line, Gmail's
``X-Original-Message-ID``) for when no return path names it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import Message
from email.parser import HeaderParser
from email.utils import getaddresses

from flufl.bounce import scan_message

from moderator.mail.checks.base import (
    MAIL_ERRORS,
    clean,
    content_type,
    first_chars,
    own_parts,
    raw_values,
)
from moderator.mail.part_decoding import decode, payload_bytes

#: The headers a mail server writes with the address it delivered a mail to.
DELIVERY_HEADERS = ("Delivered-To", "X-Original-To", "Envelope-To", "To")
#: Parts of a bounce looked into, at most (a bounce is small; a crafted one need not be).
_MAX_PARTS = 200
#: Characters of a text part searched for a quoted Message-ID.
_MAX_TEXT = 100_000
_QUOTED_ID = re.compile(r"^[ \t>]*Message-ID:[ \t]*(<[^<>\s]{1,250}>)", re.IGNORECASE | re.MULTILINE)
_MESSAGE_ID = re.compile(r"<[^<>\s]{1,250}>")


@dataclass(frozen=True, slots=True)
class Bounce:
    """
    What a bounce says: the addresses it was delivered to (``delivered_to``), the
    recipients that failed for good (``failed``), the first failure's DSN ``status`` and
    ``diagnostic`` when it has them, and the Message-IDs it quotes (``returned``).
    """

    delivered_to: tuple[str, ...]
    failed: tuple[str, ...]
    status: str = ""
    diagnostic: str = ""
    returned: tuple[str, ...] = ()

    @property
    def reason(self) -> str:
        """The failure in one line, for the outbox row and the game master."""
        parts = [f"failed: {', '.join(self.failed)}"]
        if self.status:
            parts.append(f"status {self.status}")
        if self.diagnostic:
            parts.append(self.diagnostic)
        return "; ".join(parts)


def read_bounce(msg: Message) -> Bounce | None:
    """
    ``msg`` read as a bounce; None when ``flufl.bounce`` finds no recipient that failed
    for good (a delay warning, a read receipt, a person's mail).  Never raises.
    """
    try:
        failed = sorted(address.decode("ascii").lower() for address in scan_message(msg))
    except Exception:  # noqa: BLE001 - a detector that breaks on a strange mail finds nothing
        return None
    if not failed:
        return None
    status, diagnostic = _first_failure(msg)
    return Bounce(
        delivered_to=tuple(dict.fromkeys(_delivered_to(msg))),
        failed=tuple(failed),
        status=status,
        diagnostic=diagnostic,
        returned=tuple(dict.fromkeys(_returned_ids(msg))),
    )


def _delivered_to(msg: Message) -> Iterator[str]:
    """Every address in the bounce's delivery headers, lower case."""
    for name in DELIVERY_HEADERS:
        for value in raw_values(msg, name, 20):
            try:
                pairs = getaddresses([first_chars(value)])
            except MAIL_ERRORS:
                continue
            yield from (clean(addr).strip().lower() for _, addr in pairs if "@" in addr)


def _parts(msg: Message) -> Iterator[Message]:
    """Every part, depth first, attached mails included; at most ``_MAX_PARTS``."""
    return own_parts(msg, limit=_MAX_PARTS, attached=True)


def _status_blocks(msg: Message) -> Iterator[Message]:
    """The per-message and per-recipient blocks of every ``message/delivery-status`` part."""
    for part in _parts(msg):
        if content_type(part) not in ("message/delivery-status", "message/global-delivery-status"):
            continue
        payload = part.get_payload()
        if isinstance(payload, list):
            yield from (block for block in payload if isinstance(block, Message))


def _first_failure(msg: Message) -> tuple[str, str]:
    """(Status, Diagnostic-Code) of the first recipient block whose action is a failure."""
    for block in _status_blocks(msg):
        action = " ".join(raw_values(block, "Action", 1)).strip().lower()
        if action.startswith(("fail", "error")):
            status = " ".join(raw_values(block, "Status", 1)).strip()
            diagnostic = " ".join(raw_values(block, "Diagnostic-Code", 1))
            return clean(status)[:40], clean(" ".join(diagnostic.split()))[:500]
    return "", ""


def _returned_ids(msg: Message) -> Iterator[str]:
    """The Message-IDs the bounce quotes of the mail it returns."""
    for name in ("In-Reply-To", "References"):
        for value in raw_values(msg, name, 5):
            yield from _MESSAGE_ID.findall(value[:2000])
    for block in _status_blocks(msg):
        for value in raw_values(block, "X-Original-Message-ID", 1):
            yield from _MESSAGE_ID.findall(value)
    for part in _parts(msg):
        kind = content_type(part)
        if part is not msg and kind in ("message/rfc822", "message/global"):
            continue  # its own headers are read as the part below it
        if kind == "text/rfc822-headers":
            yield from _header_ids(_text(part))
        elif kind.startswith("text/"):
            yield from _QUOTED_ID.findall(_text(part))
        if part is not msg:
            for value in raw_values(part, "Message-ID", 1):
                yield from _MESSAGE_ID.findall(value)


def _header_ids(text: str) -> list[str]:
    try:
        headers = HeaderParser().parsestr(text, headersonly=True)
    except MAIL_ERRORS:
        return []
    return _MESSAGE_ID.findall(" ".join(raw_values(headers, "Message-ID", 1)))


def _text(part: Message) -> str:
    try:
        text, _ = decode(payload_bytes(part)[:_MAX_TEXT], _charset(part), True, [])
    except MAIL_ERRORS:
        return ""
    return text


def _charset(part: Message) -> str:
    try:
        return str(part.get_content_charset() or "us-ascii")
    except MAIL_ERRORS:
        return "us-ascii"


__all__ = ["DELIVERY_HEADERS", "Bounce", "read_bounce"]
