"""
Fair dice: each die is HMAC-SHA256 keyed by the game's secret seed over the game, the
number of the first event of the order that rolled it, the digest of the mail (or the
name of the timeout) that gave the order and the die's place among that order's dice.
Nobody can know a roll before the mail exists; the moderator cannot draw again once the
seed's SHA-256 is published.  Here so that the verifier recomputes the very same dice.
"""

from __future__ import annotations

import hashlib
import hmac


def seed_bytes(seed: int) -> bytes:
    """The seed as the HMAC key: 32 bytes, big-endian."""
    return seed.to_bytes(32, "big")


def seed_hash(seed: int) -> str:
    """The SHA-256 published at the start (hex)."""
    return hashlib.sha256(seed_bytes(seed)).hexdigest()


def bound_die(seed: int, game: str, trigger: str, seq: int, index: int) -> int:
    """
    One die, 1 to 6: HMAC-SHA256 keyed by the seed over
    ``titan-die|GAME|TRIGGER|SEQ|INDEX|BLOCK``; bytes of 252 and more are passed over so
    that every face is equally likely (a further block is drawn if all 32 are).
    """
    key = seed_bytes(seed)
    block = 0
    while True:
        message = f"titan-die|{game}|{trigger}|{seq}|{index}|{block}".encode()
        for byte in hmac.new(key, message, hashlib.sha256).digest():
            if byte < 252:
                return byte % 6 + 1
        block += 1


def bound_dice(seed: int, game: str, trigger: str, seq: int, count: int) -> tuple[int, ...]:
    """The first ``count`` dice of the order whose first event is ``seq``."""
    return tuple(bound_die(seed, game, trigger, seq, i) for i in range(count))
