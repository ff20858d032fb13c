"""
OpenPGP data read without GnuPG: the clearsigned block in a text, and the hash
algorithm a signature packet names (for RFC 3156's ``micalg``).  Pure, so that
composing and reading mail (``moderator.mail.compose``) need not import the GnuPG
adapter (``moderator.mail.gpg``), which only signs, verifies, encrypts and decrypts.
"""

from __future__ import annotations

import base64
import binascii
import re

from moderator.mail.errors import GpgError

__all__ = ["find_clearsigned", "signature_hash"]

_CLEARSIGNED = re.compile(rb"^-----BEGIN PGP SIGNED MESSAGE-----\r?$.*?^-----END PGP SIGNATURE-----"
                          rb"\r?$", re.MULTILINE | re.DOTALL)

#: OpenPGP hash algorithm ids (RFC 4880 9.4) and their RFC 3156 ``micalg`` names.
_HASH_NAMES = {1: "md5", 2: "sha1", 3: "ripemd160", 8: "sha256", 9: "sha384", 10: "sha512",
               11: "sha224"}


def find_clearsigned(data: bytes) -> bytes | None:
    """The first clearsigned block in ``data`` (armor lines included), or None."""
    found = _CLEARSIGNED.search(data)
    return found.group() if found else None


def signature_hash(signature: bytes) -> str:
    """
    The hash algorithm of an OpenPGP signature, by its RFC 3156 name (``"sha256"``).

    ``signature`` is armored or binary; the first packet must be a signature.

    Raises:
        GpgError: if the data is not an OpenPGP signature.
    """
    packet = _dearmor(signature) if b"-----BEGIN PGP" in signature else signature
    body = _first_packet_body(packet, expected_tag=2)
    version = body[0] if body else 0
    if version in (4, 5, 6) and len(body) > 3:
        algo = body[3]
    elif version in (2, 3) and len(body) > 16:
        algo = body[16]
    else:
        msg = f"unreadable signature packet (version {version})"
        raise GpgError(msg, operation="parse")
    if algo not in _HASH_NAMES:
        msg = f"signature uses unknown hash algorithm {algo}"
        raise GpgError(msg, operation="parse")
    return _HASH_NAMES[algo]


def _dearmor(armored: bytes) -> bytes:
    lines = armored.replace(b"\r\n", b"\n").split(b"\n")
    try:
        start = next(i for i, line in enumerate(lines) if line.startswith(b"-----BEGIN PGP"))
        blank = next(i for i in range(start + 1, len(lines)) if not lines[i].strip())
    except StopIteration:
        msg = "no armored OpenPGP data found"
        raise GpgError(msg, operation="parse") from None
    body = []
    for line in lines[blank + 1:]:
        if line.startswith((b"=", b"-----END")):
            break
        body.append(line.strip())
    try:
        return base64.b64decode(b"".join(body), validate=True)
    except binascii.Error as exc:
        msg = f"armored OpenPGP data is not base64: {exc}"
        raise GpgError(msg, operation="parse") from exc


def _first_packet_body(packet: bytes, *, expected_tag: int) -> bytes:
    if not packet or not packet[0] & 0x80:
        msg = "not an OpenPGP packet"
        raise GpgError(msg, operation="parse")
    head = packet[0]
    if head & 0x40:  # new format: tag in 6 bits, length in 1, 2 or 5 octets
        tag, first = head & 0x3F, packet[1] if len(packet) > 1 else 0
        offset = 2 if first < 192 or 224 <= first < 255 else (3 if first < 224 else 6)
    else:  # old format: tag in 4 bits, length type in 2
        tag, offset = (head >> 2) & 0x0F, 1 + (1, 2, 4, 0)[head & 0x03]
    if tag != expected_tag:
        msg = f"expected OpenPGP packet {expected_tag}, found {tag}"
        raise GpgError(msg, operation="parse")
    return packet[offset:]
