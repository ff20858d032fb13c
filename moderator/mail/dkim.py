"""
DKIM signing of the moderator's own mail, over dkimpy, for a moderator that relays
through a host that does not sign for its domain.

A receiving server that checks DMARC wants the From domain vouched for by SPF or by a
DKIM signature of that domain; without either, reports land in spam or are refused.
The signature is made over the exact bytes handed to SMTP, after the PGP/MIME message
is built, and only adds a header: the body, and with it the moderator's PGP
signature, is left as it is.  ``relaxed/relaxed`` canonicalization lets relays refold
headers and trim line ends without breaking it.

Only RSA keys are taken (``openssl genrsa -out dkim.key 2048``): every verifier
checks them, while ed25519 DKIM is not yet checked everywhere and would need another
library.  ``txt_record`` is what to publish in DNS, the public key taken from the
private one, so the operator needs no second tool.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from pathlib import Path

import dkim
from dkim.crypto import UnparsableKeyError, parse_pem_private_key

from moderator.mail.errors import MailError

#: The smallest RSA key verifiers accept (RFC 8301); 2048 bits is the advice.
MIN_BITS = 1024
#: How to make a key, for the messages that say one is missing or unusable.
MAKE_KEY = "make one with: openssl genrsa -out dkim.key 2048"
#: rsaEncryption (1.2.840.113549.1.1.1), DER-encoded, for the public key's algorithm.
_RSA_OID = bytes.fromhex("2a864886f70d010101")
#: The most a DNS TXT string may hold; longer records are written as several strings.
_TXT_CHUNK = 255


class DkimError(MailError):
    """The DKIM key cannot be read or used; the message says what to do."""


class DkimSigner:
    """
    Signs mail as ``selector._domainkey.domain`` with an RSA private key (PEM, PKCS#1
    or PKCS#8).

    Raises:
        DkimError: the key is not an RSA private key, or too short.
    """

    def __init__(self, selector: str, domain: str, private_key: bytes) -> None:
        self.selector = selector.strip()
        self.domain = domain.strip().lower().rstrip(".")
        if not self.selector or not self.domain:
            msg = "a DKIM signature needs a selector and a domain"
            raise DkimError(msg)
        try:
            key = parse_pem_private_key(private_key)
        except (UnparsableKeyError, ValueError, IndexError) as exc:
            msg = f"the DKIM key is not an RSA private key in PEM ({exc}); {MAKE_KEY}"
            raise DkimError(msg) from exc
        self._key = private_key
        self._modulus = int(key["modulus"])
        self._exponent = int(key["publicExponent"])
        if self.bits < MIN_BITS:
            msg = f"the DKIM key has {self.bits} bits, receivers want {MIN_BITS} or more; {MAKE_KEY}"
            raise DkimError(msg)

    def __repr__(self) -> str:
        return f"DkimSigner({self.name!r}, rsa {self.bits})"

    @property
    def bits(self) -> int:
        return self._modulus.bit_length()

    @property
    def name(self) -> str:
        """The DNS name the public key is published under."""
        return f"{self.selector}._domainkey.{self.domain}"

    def sign(self, message: bytes) -> bytes:
        """``message`` (its bytes as sent, CRLF) with a ``DKIM-Signature`` header on top."""
        try:
            header = dkim.sign(
                message,
                self.selector.encode("ascii"),
                self.domain.encode("ascii"),
                self._key,
                canonicalize=(b"relaxed", b"relaxed"),
            )
        except (dkim.DKIMException, UnicodeEncodeError) as exc:
            msg = f"cannot DKIM-sign as {self.name}: {exc}"
            raise DkimError(msg) from exc
        return bytes(header) + message

    def txt_record(self) -> str:
        """The TXT record's text: ``v=DKIM1; k=rsa; p=<the public key, base64>``."""
        public = base64.b64encode(_subject_public_key_info(self._modulus, self._exponent))
        return f"v=DKIM1; k=rsa; p={public.decode('ascii')}"

    def zone_line(self) -> str:
        """The record as a zone-file line, split into strings DNS can hold."""
        text = self.txt_record()
        strings = " ".join(
            f'"{text[i:i + _TXT_CHUNK]}"' for i in range(0, len(text), _TXT_CHUNK)
        )
        return f"{self.name}. IN TXT ( {strings} )"

    def dns(self) -> Callable[..., bytes | None]:
        """A look-up that answers this key's record only (for checks without DNS)."""
        record = self.txt_record().encode("ascii")
        wanted = self.name.lower()

        def lookup(name: bytes | str, timeout: float = 5) -> bytes | None:
            text = name.decode("ascii") if isinstance(name, bytes) else name
            return record if text.lower().rstrip(".") == wanted else None

        return lookup

    def verifies(self, message: bytes) -> bool:
        """Whether ``message``'s DKIM signature holds against this key's own record."""
        try:
            return bool(dkim.verify(message, dnsfunc=self.dns()))
        except dkim.DKIMException:
            return False


def load_signer(selector: str, domain: str, key_file: str) -> DkimSigner:
    """
    The signer of the configured key file.

    Raises:
        DkimError: the file cannot be read or holds no usable key.
    """
    try:
        data = Path(key_file).read_bytes()
    except OSError as exc:
        msg = f"cannot read the DKIM key file {key_file!r}: {exc.strerror or exc}; {MAKE_KEY}"
        raise DkimError(msg) from exc
    try:
        return DkimSigner(selector, domain, data)
    except DkimError as exc:
        msg = f"{key_file}: {exc}"
        raise DkimError(msg) from exc


def aligned(from_domain: str, dkim_domain: str) -> bool:
    """
    Whether a signature of ``dkim_domain`` can pass DMARC for mail from
    ``from_domain``: the same domain, or one inside the other (relaxed alignment).
    """
    a, b = from_domain.lower().rstrip("."), dkim_domain.lower().rstrip(".")
    return a == b or a.endswith("." + b) or b.endswith("." + a)


def _subject_public_key_info(modulus: int, exponent: int) -> bytes:
    """The RSA public key as DER ``SubjectPublicKeyInfo``, as DKIM records carry it."""
    rsa_key = _der(0x30, _der_int(modulus) + _der_int(exponent))
    algorithm = _der(0x30, _der(0x06, _RSA_OID) + _der(0x05, b""))
    return _der(0x30, algorithm + _der(0x03, b"\0" + rsa_key))


def _der_int(value: int) -> bytes:
    return _der(0x02, value.to_bytes(value.bit_length() // 8 + 1, "big"))


def _der(tag: int, body: bytes) -> bytes:
    size = len(body)
    if size < 0x80:
        return bytes([tag, size]) + body
    length = size.to_bytes((size.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(length)]) + length + body
