"""
Players as a use case reads them, and the forms the store and the use cases must agree
on: an address in its normal form, a shared secret's salted hash, a confirmation
token's hash.  Pure: the store keeps the rows (``moderator.store.players``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import datetime

from moderator.records import record

__all__ = [
    "DIRECTOR",
    "PendingAddressChange",
    "Player",
    "hash_secret",
    "normal_address",
    "secret_matches",
    "token_hash",
    "token_matches",
]

_ITERATIONS = 200_000
#: The role of a tournament director (``Player.roles``): he may create tournaments.
DIRECTOR = "director"


@record
class Player:
    id: int
    name: str
    address: str
    time_zone: str
    key_fingerprint: str | None
    secret_hash: str | None
    roles: tuple[str, ...] = ()

    def has_role(self, role: str) -> bool:
        return role in self.roles


@record
class PendingAddressChange:
    """A move of the account at ``old`` to ``new``, waiting to be confirmed from ``old``."""

    old: str
    new: str
    token_hash: str  # ``token_hash``'s, never the token
    requested_at: datetime


def normal_address(address: str) -> str:
    return address.strip().lower()


def hash_secret(secret: str, *, salt: bytes | None = None) -> str:
    """``pbkdf2_sha256$iterations$salt$hash`` for a shared secret."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", secret.encode(), salt, _ITERATIONS)
    return f"pbkdf2_sha256${_ITERATIONS}${salt.hex()}${digest.hex()}"


def secret_matches(secret: str, stored: str) -> bool:
    scheme, iterations, salt, digest = stored.split("$")
    if scheme != "pbkdf2_sha256":
        return False
    again = hashlib.pbkdf2_hmac("sha256", secret.encode(), bytes.fromhex(salt), int(iterations))
    return hmac.compare_digest(again.hex(), digest)


def token_hash(token: str) -> str:
    """SHA-256 of a confirmation token (random, so no salt or rounds are needed)."""
    return hashlib.sha256(token.strip().lower().encode()).hexdigest()


def token_matches(token: str, stored: str) -> bool:
    return hmac.compare_digest(token_hash(token), stored)
