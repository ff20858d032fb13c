"""
Which game a mail seems to be about and who it seems to be from: ``game_and_player_hints``.

The ``game …`` and ``secret …`` lines of the sender's own text, the subject's
``[titan …]`` tag and the From address, gathered for the caller to check; ``is_hint``
lets ``intake.order_lines`` keep those lines out of the orders (a secret is never echoed).
Hints only: deciding that a mail really comes from a player is the caller's job.
"""

from __future__ import annotations

import re
from email.message import Message
from email.utils import parseaddr

from moderator.mail.checks.base import MAIL_ERRORS, addresses, clean, first_chars, header_text
from moderator.mail.quoted_replies import own_lines
from moderator.records import record

__all__ = ["Hints", "game_and_player_hints", "is_hint"]

_GAME_ID = r"([A-Za-z0-9](?:[\w-]*[A-Za-z0-9])?)"
# No two neighbouring quantifiers of one class (``\s*[:=]?\s*``): on a long run of blanks
# that fails to match at its end they backtrack in quadratic time.
_GAME_LINE = re.compile(rf"^\s*game(?:\s*[:=])?\s*{_GAME_ID}\s*(?:\.\s*)?$", re.IGNORECASE)
_SECRET_LINE = re.compile(r"^\s*secret(?:\s*[:=])?\s*(\S+)\s*$", re.IGNORECASE)
_SUBJECT_TAG = re.compile(rf"\[\s*titan[\s:-]+{_GAME_ID}\s*\]", re.IGNORECASE)


@record(kw_only=True)
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


def is_hint(line: str) -> bool:
    """Whether ``line`` is a ``game …`` or ``secret …`` line (for the hints, not the orders)."""
    return bool(_GAME_LINE.match(line) or _SECRET_LINE.match(line))


def game_and_player_hints(msg: Message, text: str) -> Hints:
    """The game, secret and sender hints of a mail and its extracted ``text``; never raises."""
    try:
        subject = header_text(msg, "Subject")
        tag = _SUBJECT_TAG.search(subject)
        own = own_lines(text)[0]
        games = [m.group(1) for m in map(_GAME_LINE.match, own) if m]
        secrets = [m.group(1) for m in map(_SECRET_LINE.match, own) if m]
        senders = addresses(msg, "From")
        name = clean(parseaddr(first_chars(header_text(msg, "From")))[0])
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
