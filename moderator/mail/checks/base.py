"""
What every intake check shares: its answer, its context, and header readers that never raise.

Headers are read from ``Message.raw_items()`` (the text as it came), never through the
``email.policy.default`` header objects, because those parse lazily and may raise on
malformed mail long after ``parse`` returned.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from email.errors import MessageError
from email.header import decode_header, make_header
from email.message import Message
from email.utils import getaddresses
from enum import StrEnum
from itertools import islice
from typing import NamedTuple

from moderator.records import record

#: What the ``email`` package raises on malformed mail (binascii.Error and UnicodeError
#: are ValueErrors, HeaderParseError a MessageError; deep nesting a RecursionError).
MAIL_ERRORS = (
    ValueError,
    LookupError,
    TypeError,
    AttributeError,
    AssertionError,
    RuntimeError,
    MessageError,
)


class Action(StrEnum):
    """What becomes of a mail: the disposition of ``screen``, from the mildest."""

    ACCEPT = "accept"
    REPLY_ONLY = "reply-only"
    HOLD = "hold"
    DROP = "drop"


#: How bad each action is: the worst action of all hits decides.
SEVERITY = {Action.ACCEPT: 0, Action.REPLY_ONLY: 1, Action.HOLD: 2, Action.DROP: 3}


class Verdict(NamedTuple):
    """A check's answer: did it hit, and why (a sentence for the log and the GM)."""

    hit: bool
    reason: str = ""


MISS = Verdict(False)

#: Characters of an address field that are parsed (some dozens of addresses).
ADDRESS_CHARS = 2_000


@record(kw_only=True)
class Context:
    """What the checks know besides the mail itself."""

    own_addresses: frozenset[str]
    loop_header: str
    strict_lists: bool = False
    replies_today: int | None = None
    replies_per_day: int = 10


Check = Callable[[Message, Context], Verdict]


class Link(NamedTuple):
    """One row of the chain: a named check and what a hit means."""

    name: str
    check: Check
    action: Action
    weak: bool = False


def raw_values(msg: Message, name: str, limit: int | None = None) -> list[str]:
    """
    Every value of header ``name`` (any case), unfolded and stripped; [] when absent.
    With ``limit``, only the first ``limit`` of them (a stranger may repeat a field
    until the mail is full, and unfolding costs time).
    """
    wanted = name.lower()
    try:
        items = list(msg.raw_items())
    except MAIL_ERRORS:
        return []
    found = (value for key, value in items if str(key).lower() == wanted)
    return [_unfold(str(value)) for value in islice(found, limit)]


def has_header(msg: Message, name: str) -> bool:
    """Whether header ``name`` is present at all (even empty)."""
    wanted = name.lower()
    try:
        return any(str(key).lower() == wanted for key, _ in msg.raw_items())
    except MAIL_ERRORS:
        return False


def header_text(msg: Message, name: str) -> str:
    """The first value of header ``name`` with RFC 2047 words decoded; '' when absent."""
    values = raw_values(msg, name, 1)
    if not values:
        return ""
    try:
        text = str(make_header(decode_header(values[0])))
    except MAIL_ERRORS:
        text = values[0]
    return clean(text)


def clean(text: str) -> str:
    """``text`` with surrogate-escaped bytes (8-bit headers) read as UTF-8 or replaced."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return text


def addresses(msg: Message, name: str) -> list[str]:
    """
    The addresses (``local@domain``, lower case) in the first header ``name``, as
    ``header_text`` reads it, and in its first ``ADDRESS_CHARS`` characters: From and
    Sender stand once in a mail (RFC 5322 3.6), the first Return-Path is the last one
    written, and parsing addresses costs ~1 us a character in every check that asks.
    """
    try:
        pairs = getaddresses([first_chars(value) for value in raw_values(msg, name, 1)])
    except MAIL_ERRORS:
        return []
    return [clean(addr).strip().lower() for _, addr in pairs if "@" in addr]


def first_chars(value: str, size: int | None = None) -> str:
    """The start of a list of addresses ``value``: ``size`` characters, cut after a comma."""
    size = ADDRESS_CHARS if size is None else size
    if len(value) <= size:
        return value
    cut = value.rfind(",", 0, size)
    return value[: cut if cut > 0 else size]


def normalize_address(address: str) -> str:
    """``address`` in lower case without a ``+detail`` in the local part."""
    local, _, domain = address.strip().strip("<>").lower().rpartition("@")
    return f"{local.split('+', 1)[0]}@{domain}" if local else domain


def local_part(address: str) -> str:
    """The local part of ``address``, lower case, without ``+detail``."""
    return normalize_address(address).rpartition("@")[0]


def content_type(part: Message) -> str:
    """The part's ``maintype/subtype`` in lower case; ``text/plain`` when unreadable."""
    try:
        return part.get_content_type()
    except MAIL_ERRORS:
        return "text/plain"


def param(part: Message, name: str, header: str = "content-type") -> str:
    """A parameter of a header (RFC 2231 joined), '' when absent or unreadable."""
    try:
        value = part.get_param(name, header=header)
    except MAIL_ERRORS:
        return ""
    if isinstance(value, tuple):
        value = value[2]
    return clean(str(value)).strip() if value is not None else ""


def own_parts(msg: Message, *, limit: int = 500, attached: bool = False) -> Iterator[Message]:
    """
    Every part, depth first, but not inside attached mails (``message/*``) unless
    ``attached`` (a bounce quotes the mail it returns); at most ``limit``.
    """
    stack = [msg]
    seen = 0
    while stack and seen < limit:
        part = stack.pop()
        seen += 1
        yield part
        if not attached and content_type(part).startswith("message/"):
            continue
        try:
            payload = part.get_payload()
        except MAIL_ERRORS:
            continue
        if isinstance(payload, list):
            stack.extend(reversed([sub for sub in payload if isinstance(sub, Message)]))


def _unfold(value: str) -> str:
    return re.sub(r"\r?\n(?=[ \t])", "", value).strip()
