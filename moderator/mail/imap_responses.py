"""
IMAP responses as aioimaplib hands them over, read without a server: UID sets,
``UID SEARCH`` and ``UID FETCH`` answers, refusal texts and mailbox names.

Pure functions, apart from the connection (``imap_connection``) and the folder work
(``imap``) so each quirk of aioimaplib's line lists is pinned down and tested once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import aioimaplib

_FETCH_START = re.compile(rb"^\d+ FETCH \(", re.IGNORECASE)
_FETCH_UID = re.compile(rb"\bUID (\d+)", re.IGNORECASE)
_BODY_LITERAL = re.compile(rb"BODY\[\] \{\d+\}$", re.IGNORECASE)
_ATOM = re.compile(r"^[A-Za-z0-9._/&+-]+$")


def uid_set(uids: Iterable[int]) -> str:
    """
    The IMAP sequence set naming ``uids``, with runs folded into ranges.

    >>> uid_set([5, 1, 2, 3, 9])
    '1:3,5,9'
    """
    ordered = sorted(set(uids))
    parts: list[str] = []
    start = prev = ordered[0]
    for uid in [*ordered[1:], None]:
        if uid is not None and uid == prev + 1:
            prev = uid
            continue
        parts.append(str(start) if start == prev else f"{start}:{prev}")
        if uid is not None:
            start = prev = uid
    return ",".join(parts)


def search_uids(lines: Sequence[Any]) -> list[int]:
    """
    The UIDs in a ``UID SEARCH`` response.

    aioimaplib strips the ``* SEARCH`` of each untagged line (an empty answer
    leaves an empty line) and ends the list with the tagged status text.
    """
    found: list[int] = []
    for line in lines[:-1]:
        if not isinstance(line, bytes):
            continue
        words = line.split()
        if words and words[0].upper() == b"SEARCH":
            words = words[1:]
        found += [int(word) for word in words if word.isdigit()]
    return found


def fetched_bodies(lines: Sequence[Any]) -> dict[int, bytes]:
    """
    The ``BODY[]`` literal of every message in a ``UID FETCH`` response, by UID.

    aioimaplib hands the response over as text lines (``bytes``) with each
    literal as a ``bytearray`` after the line that announced it; the UID may
    stand before or after the literal.
    """
    bodies: dict[int, bytes] = {}
    uid: int | None = None
    body: bytes | None = None
    announced = False

    def finish() -> None:
        if uid is not None and body is not None:
            bodies[uid] = body

    for line in lines:
        if isinstance(line, bytearray):
            if announced:
                body = bytes(line)
            announced = False
            continue
        if not isinstance(line, bytes):
            continue
        if _FETCH_START.match(line):
            finish()
            uid, body = None, None
        found = _FETCH_UID.search(line)
        if found:
            uid = int(found.group(1))
        announced = bool(_BODY_LITERAL.search(line))
    finish()
    return bodies


def mailbox_arg(name: str) -> str:
    """A folder name as a command argument: an atom as it is, anything else quoted."""
    return name if _ATOM.match(name) else aioimaplib.quoted(name)


def response_text(lines: Sequence[Any]) -> str:
    """The text lines of a response, for an error message."""
    parts = [line.decode("utf-8", "replace") for line in lines if isinstance(line, bytes)]
    return " / ".join(part for part in parts if part) or "no answer"


def says_trycreate(lines: Sequence[Any]) -> bool:
    """Whether a refusal says the target folder is missing (``[TRYCREATE]``)."""
    return any(isinstance(line, bytes) and b"[TRYCREATE]" in line.upper() for line in lines)


def says_already_exists(lines: Sequence[Any]) -> bool:
    """Whether a refused ``CREATE`` says the folder is there already."""
    return any(
        isinstance(line, bytes)
        and (b"[ALREADYEXISTS]" in line.upper() or b"EXISTS" in line.upper())
        for line in lines
    )
