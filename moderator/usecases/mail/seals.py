"""
Every authenticated mail counts once (issue: replayed absences, re-aimed mail).

What proves that a mail is a player's is a PGP signature or, where the game allows
it, his secret line.  Either can be copied: anybody who ever saw Ann's signed
``absent from ...`` can send the same signed block again under a new Message-ID, or
with another game in the unsigned subject.  So what authenticated a mail that was
acted on is kept as a **seal**, a digest, in the same transaction as the mail's
effects, and a second mail bearing it changes nothing.

- A signature's seal is the digest of the signer's fingerprint, the signature's
  creation time and the signed bytes (line ends and trailing blanks normalised, as
  OpenPGP's text mode ignores them): two signatures of the same text made at
  different moments are two seals, a copy of one signature is the same seal.
- Signatures made more than ``window`` ago (default 14 days) or more than an hour in
  the future are refused, so a signature's seal may be dropped once the window has
  passed (``expires_at``).
- A secret line proves nothing about when the mail was written, so a secret mail's
  seal is the digest of the sender and the mail's text, kept without an end.

Pure: no clock (``now`` is passed in), no store.
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime, timedelta

from moderator.ports import Seal, UsedSeal
from moderator.usecases.players.auth import Signature

__all__ = [
    "FUTURE_SLACK",
    "PGP_SEAL",
    "SECRET_SEAL",
    "WINDOW",
    "age_problem",
    "normalized",
    "replay_answer",
    "secret_seal",
    "signature_seal",
]

#: How old a signature may be (its creation time, as the signer's clock wrote it).
WINDOW = timedelta(days=14)
#: How far in the future a signature may be dated (clocks are not all right).
FUTURE_SLACK = timedelta(hours=1)
#: Kinds of seal.
PGP_SEAL, SECRET_SEAL = "pgp", "secret"

_TRAILING = re.compile(rb"[ \t]+(?=\n)|[ \t]+$")


def normalized(data: bytes) -> bytes:
    """``data`` with LF line ends, no trailing blanks on a line and no blank lines at the end."""
    text = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return _TRAILING.sub(b"", text).rstrip(b"\n")


def _digest(*parts: bytes) -> str:
    hasher = hashlib.sha256()
    for part in parts:
        hasher.update(len(part).to_bytes(8, "big"))
        hasher.update(part)
    return hasher.hexdigest()


def signature_seal(signature: Signature, window: timedelta = WINDOW) -> Seal:
    """The seal of a good signature (its row may go when the window has passed)."""
    stamp = signature.signed_at.isoformat() if signature.signed_at else ""
    data = signature.signed_data or (signature.text or "").encode("utf-8", "surrogatepass")
    digest = _digest(
        PGP_SEAL.encode(),
        (signature.fingerprint or "").upper().encode(),
        stamp.encode(),
        normalized(data),
    )
    expires = signature.signed_at + window + FUTURE_SLACK if signature.signed_at else None
    return Seal(digest, PGP_SEAL, expires)


def secret_seal(sender: str, text: str) -> Seal:
    """The seal of a secret-authenticated mail: its sender and its text, kept for good."""
    body = normalized(text.encode("utf-8", "surrogatepass"))
    return Seal(_digest(SECRET_SEAL.encode(), sender.strip().lower().encode(), body), SECRET_SEAL)


def age_problem(
    signed_at: datetime | None, now: datetime, window: timedelta = WINDOW
) -> str | None:
    """Why a signature made at ``signed_at`` is not taken now; None if it is."""
    if signed_at is None:
        return "the signature carries no date"
    if signed_at < now - window:
        days = window.days or 1
        return (
            f"your signature was made on {_day(signed_at)}, more than {days} days ago: "
            f"only recent signatures are taken"
        )
    if signed_at > now + FUTURE_SLACK:
        return (
            f"your signature is dated {signed_at:%Y-%m-%d %H:%M} UTC, in the future: "
            f"check your computer's clock"
        )
    return None


def replay_answer(earlier: UsedSeal, secret: bool) -> str:
    """The reason given for a mail whose seal was used before."""
    what = "this text with your secret" if secret else "this signed text"
    return f"{what} was already used on {_day(earlier.used_at)}; write a new mail"


def _day(moment: datetime) -> str:
    return f"{moment:%Y-%m-%d}"
