"""
Salted commitments to what a legion holds (Wolff 4.5: the moderator signs no contents,
but may be held to them).  A commitment is SHA-256 over the game, the marker, the
number of the event that carries it, a 128-bit salt and the sorted contents; the salt
is HMAC-SHA256 of the seed, so the moderator fixed every salt when he fixed the seed
and the audit can derive them all.  Without its salt a commitment tells nothing: the
contents of a legion are few enough to be guessed, the salt is not.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable

from moderator.audit.dice import seed_bytes


def salt_for(seed: int, game: str, marker: str, seq: int) -> str:
    """The salt of ``marker``'s commitment carried by event ``seq`` (32 hex digits)."""
    message = f"titan-salt|{game}|{marker}|{seq}".encode()
    return hmac.new(seed_bytes(seed), message, hashlib.sha256).hexdigest()[:32]


def commitment_for(game: str, marker: str, seq: int, salt: str, contents: Iterable[str]) -> str:
    """The commitment (hex SHA-256) to ``contents`` with ``salt``; order does not matter."""
    held = ",".join(sorted(contents))
    return hashlib.sha256(f"titan-legion|{game}|{marker}|{seq}|{salt}|{held}".encode()).hexdigest()
