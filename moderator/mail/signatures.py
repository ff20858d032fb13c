"""
What a signature check says (``SignatureStatus``, ``Verification``), what the mail
service needs of a keyring to check one (``Verifier``) and what composing a mail needs
of it (``Signer``), apart from the GnuPG adapter (``moderator.mail.gpg.Keyring``, which
fulfils both): the use cases read signatures, pin keys and compose mail without naming
the adapter that does the cryptography.  The composition root builds the keyring and
hands it in.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from enum import StrEnum
from typing import Protocol

from moderator.records import record


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


@record(kw_only=True)
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


class Signer(Protocol):
    """The keyring as composing and reading PGP/MIME sees it (``moderator.mail.compose``)."""

    def sign_detached(self, data: bytes, signer: str) -> bytes:
        """A detached signature over ``data`` by the key ``signer`` (a fingerprint)."""

    def encrypt(
        self, data: bytes, recipients: Sequence[str], sign_with: str | None = None
    ) -> bytes:
        """``data`` encrypted (armored) to the keys ``recipients`` (fingerprints)."""

    def decrypt(self, data: bytes) -> bytes:
        """``data`` decrypted with a secret key the keyring holds."""


__all__ = ["SignatureStatus", "Signer", "Verification", "Verifier"]
