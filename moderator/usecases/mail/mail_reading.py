"""
How the mail service reads a mail before it trusts anybody: the caps on its raw bytes,
the parse, its text, its hints (sender, game, secret) and its signature.

Reading is kept apart from deciding so that every later step (the gate, the flows)
works from one record, ``ReadMail``, and none of them parses, decodes or checks a
signature again.  A mail over the intake's caps is not parsed: only its first header
bytes are read, enough to tell its sender.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from email.message import EmailMessage

from moderator.letters.texts import MailInfo
from moderator.mail.checks.base import header_text
from moderator.mail.intake import (
    Disposition,
    Extracted,
    Hints,
    extract_text,
    game_and_player_hints,
    parse,
)
from moderator.mail.limits import RawLimits, over_limit
from moderator.mail.signatures import Verifier
from moderator.ports import InboundMessage
from moderator.records import record
from moderator.schedule import reference
from moderator.usecases.players import auth

#: How much of a mail over the intake's caps is read for its sender.
_HEAD_BYTES = 16_384

_HEADER_GAME = re.compile(rf"^{reference.GAME_ID}$")
_ADDRESS = re.compile(
    r"^[^\s\x00-\x1f\x7f<>()@,;:\"\\]{1,128}@[^\s\x00-\x1f\x7f<>()@,;:\"\\]{1,255}$"
)
_REPLY_PREFIX = re.compile(r"^\s*(?:(?:re|aw|sv|antw|fwd?)\s*(?:\[\d+\])?\s*:\s*)+", re.IGNORECASE)

#: The headlines of the moderator's own reports: an answer to one of them is about the
#: orders in it, not about the step the report was written at (which may be long past).
_REPORT_HEADLINE = re.compile(
    r"^(?:\[titan [^\]]*\]\s*)?(?:your move:|turn \d+, .* to act$|the game is over)",
    re.IGNORECASE,
)

_NO_HINTS = Hints()


@record
class ReadMail:
    """
    A mail as the intake reads it, before anybody is trusted; ``over``: why it was not
    read at all (over the intake's caps); ``signed_hints``: the hints of the signed text
    alone (the subject's tag and the sender kept), when the signature is good.
    """

    msg: EmailMessage
    extracted: Extracted
    hints: Hints
    game: str | None
    signature: auth.Signature = auth.UNSIGNED
    signed_hints: Hints = _NO_HINTS
    over: str | None = None


def read_mail(
    raw: bytes, limits: RawLimits, keyring: Callable[[], Verifier | None]
) -> ReadMail:
    """
    The intake's reading of the mail, its signature checked (``raw``: its bytes as they
    came; nothing else of it is read, so a mail can be read before it is archived).  A
    mail over the caps of ``moderator.mail.limits`` is not parsed: only its headers'
    first bytes are read, for the sender to tell.  ``keyring`` is asked for only when a signature is to be checked.
    """
    over = over_limit(raw, limits)
    if over is not None:
        msg = parse(_head(raw))
        hints = _checked_sender(game_and_player_hints(msg, ""))
        return ReadMail(msg, Extracted(text=""), hints, None, over=over)
    msg = parse(raw)
    extracted = extract_text(msg, raw=raw)
    hints = _checked_sender(game_and_player_hints(msg, extracted.text))
    tagged = header_text(msg, "X-Titan-Game").strip()
    signature = auth.check_signature(raw, keyring(), extracted.charset, parsed=msg)
    signed_hints = Hints()
    if signature.valid:  # the game and secret lines of the signed text alone
        signed = game_and_player_hints(msg, signature.text or "")
        signed_hints = replace(signed, sender=hints.sender)
        named = signed.body_game or signed.subject_game or tagged
    else:
        named = hints.game or tagged
    game = named if _HEADER_GAME.match(named or "") else None
    return ReadMail(msg, extracted, hints, game, signature, signed_hints)


def mail_info(read: ReadMail, message: InboundMessage) -> MailInfo:
    """What an answer quotes of the mail: its sender, subject, date, id and topic."""
    subject = header_text(read.msg, "Subject")
    topic = _REPLY_PREFIX.sub("", reference.without_refs(subject)).strip()
    if _REPORT_HEADLINE.match(topic):
        tag = topic[: topic.index("]") + 1] if topic.startswith("[") else ""
        topic = f"{tag} your orders".strip()
    return MailInfo(
        sender=header_text(read.msg, "From") or "(no sender)",
        subject=subject,
        date=header_text(read.msg, "Date"),
        message_id=message.message_id or "",
        topic=topic or "your mail",
    )


def reasons(disposition: Disposition) -> str:
    """Why the intake's screen dropped, held or could not read a mail, in one line."""
    return "; ".join(f"{name}: {why}" for name, why in disposition.reasons) or "no reason"


def _head(raw: bytes) -> bytes:
    """The first headers of a mail too large to parse: enough to find its sender."""
    head = raw[:_HEAD_BYTES]
    end = head.find(b"\n\n")
    end = head.find(b"\r\n\r\n") if end < 0 else end
    return head[: end + 1] if end >= 0 else head[: head.rfind(b"\n") + 1]


def _checked_sender(hints: Hints) -> Hints:
    if hints.sender is not None and not _ADDRESS.match(hints.sender):
        return replace(hints, sender=None)  # not an address we could ever answer
    return hints
