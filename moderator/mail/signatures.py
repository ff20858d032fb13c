"""
What a signature check says (``SignatureStatus``, ``Verification``) and what the mail
service needs of a keyring to check one (``Verifier``), apart from the GnuPG adapter
(``moderator.mail.gpg.Keyring``, which fulfils ``Verifier``): the use cases read
signatures and pin keys without naming the adapter that makes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Protocol


class SignatureStatus(StrEnum):
    """Why a signature is, or is not, good."""

    GOOD = "good signature"
    BAD = "bad signature"
    UNKNOWN_KEY = "unknown key"
    EXPIRED_SIGNATURE = "expired signature"
    EXPIRED_KEY = "expired key"
    REVOKED_KEY = "revoked key"
    NOT_SIGNED = "not signed"
    MALFORMED = "malformed signature"
    UNSUPPORTED = "unsupported signature"
    ERROR = "signature error"


@dataclass(frozen=True, slots=True, kw_only=True)
class Verification:
    """
    The outcome of checking one signature.

    ``fingerprint`` is the signer's primary key fingerprint and is set only
    when the signature is good; compare it with the fingerprint pinned for
    the player.  ``issuer`` is whatever the signature says about its key
    (a fingerprint or long key id), also when the key is unknown.
    ``signed_data`` is exactly what the signature covers (the signed MIME
    entity, or the text of a clearsigned block) and is empty unless valid.
    ``method`` is ``"pgp/mime"`` or ``"inline"`` when the signature was found
    in a mail.
    """

    valid: bool
    fingerprint: str | None
    reason: SignatureStatus
    issuer: str | None = None
    signed_at: datetime | None = None
    signed_data: bytes = b""
    method: str | None = None

    @property
    def signed_text(self) -> str:
        """``signed_data`` as text (UTF-8, undecodable bytes replaced)."""
        return self.signed_data.decode("utf-8", errors="replace")


class Verifier(Protocol):
    """The keyring as the mail service's use cases see it."""

    def verify_detached(self, data: bytes, signature: bytes) -> Verification:
        """The detached ``signature`` over ``data``, checked."""

    def verify_clearsigned(self, text: str | bytes) -> Verification:
        """A clearsigned text, checked."""

    def import_key(self, armored: str | bytes) -> tuple[str, ...]:
        """Import public keys; the fingerprints imported."""


__all__ = ["SignatureStatus", "Verification", "Verifier"]
