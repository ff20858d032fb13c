"""
A bounce as read: who failed for good, why, where it came back to, and which mail of
ours it returns.  Pure: the mail is parsed already; no store, no clock.

Which recipients failed is ``flufl.bounce``'s answer (Mailman's bounce detectors, kept
by its maintainers): bounces come in dozens of formats (RFC 3464 DSNs, Exim, qmail,
Exchange, Yahoo ...) and a parser of our own would know a few.  Its permanent failures
only: a warning that delivery is delayed is not a bounce.  The rest is read with the
standard library: the DSN's per-recipient blocks (RFC 3464 2.3: ``Final-Recipient``,
``Original-Recipient``, ``Action``, ``Status``, ``Diagnostic-Code``), the addresses the
bounce was delivered to (a VERP return path names the mail: ``moderator.mail.verp``),
who sent it (``From``, ``Sender``, ``Return-Path``), and the Message-IDs of the returned
mail (an attached ``message/rfc822``, ``text/rfc822-headers``, a quoted ``Message-ID:``
line, Gmail's ``X-Original-Message-ID``) for when no return path names it.

flufl.bounce says whether a mail looks like a bounce at all; whether it is believed is
the service's question (``moderator.usecases.mail.bounces``), asked of the DSN's blocks: a
detector's guess from free text names addresses, never a status anybody vouches for.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from email.message import Message
from email.parser import HeaderParser
from email.utils import getaddresses

from moderator.mail.checks.base import (
    MAIL_ERRORS,
    clean,
    content_type,
    first_chars,
    own_parts,
    raw_values,
)
from moderator.mail.part_decoding import decode, payload_bytes
from moderator.records import record

#: The headers a mail server writes with the address it delivered a mail to.
DELIVERY_HEADERS = ("Delivered-To", "X-Original-To", "Envelope-To", "To")
#: Parts of a bounce looked into, at most (a bounce is small; a crafted one need not be).
_MAX_PARTS = 200
#: Characters of a text part searched for a quoted Message-ID.
_MAX_TEXT = 100_000
_QUOTED_ID = re.compile(r"^[ \t>]*Message-ID:[ \t]*(<[^<>\s]{1,250}>)", re.IGNORECASE | re.MULTILINE)
_MESSAGE_ID = re.compile(r"<[^<>\s]{1,250}>")
#: A permanent failure's status code (RFC 3463 2: class 5).
_PERMANENT = re.compile(r"5\.\d{1,3}\.\d{1,3}")
#: Per-recipient blocks read, at most.
_MAX_BLOCKS = 50
#: The headers that say who sent a mail.
SENDER_HEADERS = ("From", "Sender", "Return-Path")


@record
class RecipientStatus:
    """
    One per-recipient block of a DSN (RFC 3464 2.3): the recipient as the last server
    knew it (``final``) and as our mail named him (``original``, "" when not given), both
    lower case, what was done (``action``: failed, delayed, delivered, relayed, expanded)
    and the ``status`` code.
    """

    final: str
    original: str = ""
    action: str = ""
    status: str = ""
    diagnostic: str = ""

    @property
    def permanent(self) -> bool:
        """Failed for good: the action ``failed`` with a status of class 5 (5.x.x)."""
        return self.action == "failed" and _PERMANENT.fullmatch(self.status) is not None

    def about(self, address: str) -> bool:
        """Whether the block is about ``address`` (lower case)."""
        return address in (self.final, self.original)

    @property
    def line(self) -> str:
        """The block in one line, for the log."""
        return f"{self.final or self.original or '?'}: {self.action or '?'} {self.status or '?'}"


@record
class Bounce:
    """
    What a bounce says: the addresses it was delivered to (``delivered_to``), the
    recipients that failed for good (``failed``, flufl.bounce's reading), the first
    failure's DSN ``status`` and ``diagnostic`` when it has them, the Message-IDs it
    quotes (``returned``), its DSN's per-recipient blocks (``recipients``; none: it is
    no RFC 3464 report) and the addresses that sent it (``senders``).
    """

    delivered_to: tuple[str, ...]
    failed: tuple[str, ...]
    status: str = ""
    diagnostic: str = ""
    returned: tuple[str, ...] = ()
    recipients: tuple[RecipientStatus, ...] = ()
    senders: tuple[str, ...] = ()

    def status_for(self, address: str) -> RecipientStatus | None:
        """
        The DSN's word on ``address``: a block about him that failed for good, else the
        first block about him, else None (the report says nothing of him).
        """
        address = address.strip().lower()
        about = [block for block in self.recipients if block.about(address)]
        return next((block for block in about if block.permanent), about[0] if about else None)

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
    # Imported here: what imports this module (a reply's checks, the order runner's
    # notices) reads no bounce, and Mailman's detectors are many modules (issue 28).
    from flufl.bounce import scan_message

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
        recipients=tuple(_recipient_blocks(msg)),
        senders=tuple(dict.fromkeys(_senders(msg))),
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


def _senders(msg: Message) -> Iterator[str]:
    """The addresses in the bounce's sender headers (every Return-Path), lower case."""
    for name in SENDER_HEADERS:
        for value in raw_values(msg, name, 5):
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


def _recipient_blocks(msg: Message) -> Iterator[RecipientStatus]:
    """The DSN's per-recipient blocks (those naming a recipient), at most ``_MAX_BLOCKS``."""
    count = 0
    for block in _status_blocks(msg):
        final = _recipient(block, "Final-Recipient")
        original = _recipient(block, "Original-Recipient")
        if not (final or original):
            continue  # the per-message block
        action = clean(" ".join(raw_values(block, "Action", 1))).strip().lower()
        status = clean(" ".join(raw_values(block, "Status", 1))).strip()
        diagnostic = clean(" ".join(" ".join(raw_values(block, "Diagnostic-Code", 1)).split()))
        yield RecipientStatus(final, original, action[:40], status[:40], diagnostic[:500])
        count += 1
        if count >= _MAX_BLOCKS:
            return


def _recipient(block: Message, name: str) -> str:
    """The address of a recipient field (``rfc822; bob@example.org``), lower case, or ""."""
    value = clean(" ".join(raw_values(block, name, 1)))
    kind, typed, address = value.partition(";")
    address = (address if typed else kind).strip().strip("<>").strip().lower()
    return address[:320] if "@" in address else ""


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


__all__ = [
    "DELIVERY_HEADERS",
    "SENDER_HEADERS",
    "Bounce",
    "RecipientStatus",
    "read_bounce",
]
