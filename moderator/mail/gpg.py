"""
A GnuPG keyring for the moderator, over python-gnupg.

A ``Keyring`` is bound to one GnuPG home (a directory holding the keys and,
while it runs, a gpg-agent).  It signs, verifies, encrypts and decrypts bytes;
the MIME framing lives in ``moderator.mail.compose``.

Rules this adapter keeps:

- Keys are named by their full fingerprint.  Recipients *must* be
  fingerprints: a player's key is pinned when he registers, so encryption
  uses ``--trust-model always`` and never looks a key up by name or address
  (a look-up by address could pick a key somebody else imported).
- A signature is good only if GnuPG says so and reports no problem with any
  signature in the data.  ``Verification.signed_data`` holds what the
  signature covers and is empty unless the signature is good, so nobody acts
  on unverified text.  (GnuPG prints a clearsigned text even when its
  signature is bad.)
- Nothing is fetched from the network: keys must be imported.
- python-gnupg's warning "gpg returned a non-zero error code" is dropped: gpg exits
  with 2 for every signature by a key it does not hold (each sign-on's first check),
  and this adapter reads each result's status and says what failed itself.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import gnupg

from moderator.mail.errors import GpgError
from moderator.mail.pgp_packets import find_clearsigned
from moderator.mail.signatures import SignatureStatus, Verification

#: The advice in every message about a keyring that is not set up right.
CHECK_CONFIG = "run `titan-moderator check-config`"

_FINGERPRINT = re.compile(r"^(?:[0-9A-F]{40}|[0-9A-F]{64})$")


_STATUS = {
    "signature valid": SignatureStatus.GOOD,
    "signature good": SignatureStatus.GOOD,
    "signature bad": SignatureStatus.BAD,
    "no public key": SignatureStatus.UNKNOWN_KEY,
    "signature expired": SignatureStatus.EXPIRED_SIGNATURE,
    "signing key has expired": SignatureStatus.EXPIRED_KEY,
    "signing key was revoked": SignatureStatus.REVOKED_KEY,
    "signature expected but not found": SignatureStatus.MALFORMED,
    "unexpected data": SignatureStatus.MALFORMED,
}


def _not_a_bare_exit_code(record: logging.LogRecord) -> bool:
    """Keeps every python-gnupg record but its exit-code warning (see the module's text)."""
    return not str(record.msg).startswith("gpg returned a non-zero error code")


logging.getLogger(gnupg.__name__).addFilter(_not_a_bare_exit_code)


def normalize_fingerprint(fingerprint: str) -> str:
    """
    The fingerprint in GnuPG's spelling: upper case, no spaces.

    Raises:
        GpgError: if it is not a full v4 (40 hex digits) or v5 (64) fingerprint.
    """
    fpr = re.sub(r"\s+", "", fingerprint).upper().removeprefix("0X")
    if not _FINGERPRINT.match(fpr):
        msg = f"not a full key fingerprint: {fingerprint!r} (give all 40 hex digits)"
        raise GpgError(msg, operation="fingerprint")
    return fpr


class Keyring:
    """
    One GnuPG home and the operations the moderator needs on it.

    Args:
        home: the GnuPG home; created (mode 0700) if missing.  Keep its path
            short: gpg-agent's socket lives inside it and a Unix socket path
            may not exceed about 100 characters.
        passphrase: the passphrase of the secret keys, if they have one.
        binary: the gpg program.
        clock: the time this keyring signs at (``--faked-system-time``), for a world
            whose clock is not the machine's: the demo's fast clock, a test's fixed
            one.  Signatures carry their time, and the moderator checks it.
        frozen: sign at exactly ``clock``'s time (gpg's faked time frozen, where it
            would otherwise run on while gpg works): the demo's robots, whose mails
            must be the same bytes in every run of a seed.

    Raises:
        GpgError: if gpg cannot be run.
    """

    def __init__(self, home: str | os.PathLike[str], *, passphrase: str | None = None,
                 binary: str = "gpg", clock: Callable[[], datetime | None] | None = None,
                 frozen: bool = False) -> None:
        self.home = Path(home)
        self._clock = clock
        self._frozen = "!" if frozen else ""
        self.home.mkdir(mode=0o700, parents=True, exist_ok=True)
        self._passphrase = passphrase
        try:
            self._gpg: Any = gnupg.GPG(gpgbinary=binary, gnupghome=str(self.home),
                                       options=["--no-auto-key-retrieve"])
        except (OSError, ValueError) as exc:
            msg = f"cannot run GnuPG ({binary!r}): {exc}; install GnuPG 2.2 or later"
            raise GpgError(msg, operation="start") from exc

    def __repr__(self) -> str:
        return f"Keyring({str(self.home)!r})"

    @property
    def _g(self) -> Any:
        """python-gnupg's object, at the machine's time (checking, importing, decrypting)."""
        return self._at(None)

    @property
    def _signing(self) -> Any:
        """python-gnupg's object, at this keyring's clock: the time its signatures carry."""
        return self._at(self._clock() if self._clock is not None else None)

    def _at(self, moment: datetime | None) -> Any:
        faked = [f"--faked-system-time={int(moment.timestamp())}{self._frozen}"] if moment else []
        self._gpg.options = ["--no-auto-key-retrieve", *faked]
        return self._gpg

    @property
    def gpg_version(self) -> str:
        """The version of the gpg program in use, e.g. ``"2.2.40"``."""
        return ".".join(str(part) for part in self._gpg.version or ())

    # -- keys ---------------------------------------------------------------

    def generate_key(
        self, name: str, email: str, passphrase: str | None = None, *, at: datetime | None = None
    ) -> str:
        """
        Make a key pair (ed25519 signing key with a cv25519 encryption subkey,
        or RSA 2048 where GnuPG lacks those curves) and return its fingerprint;
        ``at``: the key's creation time, if not now (a key must predate what it signs).
        """
        if passphrase is not None:
            self._passphrase = passphrase
        params: dict[str, Any] = {"name_real": name, "name_email": email, "expire_date": 0}
        if passphrase is None:
            params["no_protection"] = True
        else:
            params["passphrase"] = passphrase
        if {"ed25519", "cv25519"} <= self._curves():
            params |= {"key_type": "EDDSA", "key_curve": "ed25519", "key_usage": "sign",
                       "subkey_type": "ECDH", "subkey_curve": "cv25519",
                       "subkey_usage": "encrypt"}
        else:
            params |= {"key_type": "RSA", "key_length": 2048, "key_usage": "sign",
                       "subkey_type": "RSA", "subkey_length": 2048, "subkey_usage": "encrypt"}
        result = self._at(at).gen_key(self._gpg.gen_key_input(**params))
        if not result.fingerprint:
            msg = (f"cannot generate a key for {email!r} in GnuPG home {str(self.home)!r}:"
                   f" {result.stderr.strip()}")
            raise GpgError(msg, operation="generate", status=result.status)
        return str(result.fingerprint)

    def import_key(self, armored: str | bytes) -> tuple[str, ...]:
        """
        Import one or more keys and return their fingerprints.

        Raises:
            GpgError: if the data holds no key.
        """
        result = self._g.import_keys(armored)
        fingerprints = tuple(dict.fromkeys(f for f in result.fingerprints if f))
        if not fingerprints:
            msg = "no OpenPGP key found in the data to import (send an armored public key block)"
            raise GpgError(msg, operation="import")
        return fingerprints

    def export_public(self, fingerprint: str) -> str:
        """The armored public key; raises ``GpgError`` if the key is not here."""
        fpr = normalize_fingerprint(fingerprint)
        armored = str(self._g.export_keys(fpr, armor=True))
        if "BEGIN PGP PUBLIC KEY BLOCK" not in armored:
            msg = f"no public key {fpr} in GnuPG home {str(self.home)!r}; import it first"
            raise GpgError(msg, operation="export")
        return armored

    def has_secret_key(self, fingerprint: str) -> bool:
        """Whether this home can sign (and decrypt) as ``fingerprint``."""
        fpr = normalize_fingerprint(fingerprint)
        return any(key["fingerprint"] == fpr for key in self._g.list_keys(secret=True))

    # -- signatures ---------------------------------------------------------

    def sign_detached(self, data: bytes, signer: str) -> bytes:
        """
        An armored detached signature of ``data`` (binary mode: ``data`` is
        signed byte for byte, so canonicalize it first, e.g. CRLF for MIME).

        Raises:
            GpgError: if the home has no usable secret key for ``signer``.
        """
        return self._sign(data, signer, detach=True)

    def clearsign(self, text: str | bytes, signer: str) -> bytes:
        """``text`` as an armored clearsigned block (for tests and inline replies)."""
        data = text.encode("utf-8") if isinstance(text, str) else text
        return self._sign(data, signer, detach=False)

    def verify_detached(self, data: bytes, signature: bytes) -> Verification:
        """Check a detached signature over ``data``; never raises for a bad signature."""
        with tempfile.TemporaryDirectory(prefix="sig-", dir=self.home) as tmp:
            sig_path = Path(tmp, "signature.asc")
            sig_path.write_bytes(signature)
            result = self._g.verify_data(str(sig_path), data)
        return _verification(result, data)

    def verify_clearsigned(self, text: str | bytes) -> Verification:
        """
        Check the first clearsigned block in ``text`` (text around it is
        ignored).  ``signed_data`` of the answer is the signed text as GnuPG
        extracted it (dash-escaping undone), and only if valid.
        """
        block = find_clearsigned(text.encode("utf-8") if isinstance(text, str) else text)
        if block is None:
            return Verification(valid=False, fingerprint=None, reason=SignatureStatus.NOT_SIGNED)
        # --decrypt, not --verify: it prints the text the signature covers
        result = self._g.decrypt(block)
        return _verification(result, bytes(result.data or b""))

    # -- encryption ---------------------------------------------------------

    def encrypt(self, data: bytes, recipients: Sequence[str], sign_with: str | None = None) -> bytes:
        """
        ``data`` encrypted (armored) to every recipient fingerprint, and signed
        inside the encryption by ``sign_with`` if given.

        Raises:
            GpgError: if a recipient's public key is not in this home.
        """
        fprs = [normalize_fingerprint(r) for r in recipients]
        if not fprs:
            msg = "no recipient to encrypt to"
            raise GpgError(msg, operation="encrypt")
        signer = normalize_fingerprint(sign_with) if sign_with else None
        gpg = self._signing if signer else self._g
        result = gpg.encrypt(data, fprs, sign=bool(signer), always_trust=True, armor=True,
                                   passphrase=self._passphrase if signer else None,
                                   extra_args=["--local-user", signer] if signer else None)
        if not result.ok:
            missing = [f for f in fprs if not self._has_public_key(f)]
            if missing:
                msg = (f"no public key for recipient {missing[0]} in GnuPG home {str(self.home)!r};"
                       f" import the player's key, then {CHECK_CONFIG}")
                raise GpgError(msg, operation="encrypt", status=result.status)
            if signer:
                raise self._secret_key_error("encrypt", signer, result)
            msg = f"cannot encrypt to {', '.join(fprs)}: {result.status}; {CHECK_CONFIG}"
            raise GpgError(msg, operation="encrypt", status=result.status)
        return bytes(result.data)

    def decrypt(self, data: bytes) -> bytes:
        """
        The plaintext of an OpenPGP message.

        Raises:
            GpgError: if this home holds no secret key the message was encrypted to.
        """
        result = self._g.decrypt(data, passphrase=self._passphrase)
        if not result.ok:
            if "no secret key" in (result.status, *(p["status"] for p in result.problems)):
                msg = (f"no secret key in GnuPG home {str(self.home)!r} for this encrypted message;"
                       f" it was encrypted to another key ({CHECK_CONFIG})")
            else:
                msg = f"cannot decrypt: {result.status or 'not an OpenPGP message'}"
            raise GpgError(msg, operation="decrypt", status=result.status)
        return bytes(result.data)

    # -- housekeeping -------------------------------------------------------

    def stop_agent(self) -> None:
        """Stop this home's gpg-agent (it starts again when next needed)."""
        gpgconf = shutil.which("gpgconf")
        if gpgconf:
            subprocess.run([gpgconf, "--homedir", str(self.home), "--kill", "gpg-agent"],
                           check=False, capture_output=True)

    def _sign(self, data: bytes, signer: str, *, detach: bool) -> bytes:
        # --local-user, not python-gnupg's keyid= (--default-key): with --default-key
        # gpg quietly signs with another secret key when the named one is missing.
        fpr = normalize_fingerprint(signer)
        result = self._signing.sign(data, detach=detach, clearsign=not detach,
                                passphrase=self._passphrase, extra_args=["--local-user", fpr])
        if not result.data:
            raise self._secret_key_error("sign", fpr, result)
        return bytes(result.data)

    def _curves(self) -> set[str]:
        result = subprocess.run(
            [self._gpg.gpgbinary, "--homedir", str(self.home), "--batch", "--with-colons",
             "--list-config", "curve"], check=False, capture_output=True, text=True)
        for line in result.stdout.splitlines():
            if line.startswith("cfg:curve:"):
                return set(line.removeprefix("cfg:curve:").split(";"))
        return set()

    def _has_public_key(self, fpr: str) -> bool:
        return any(key["fingerprint"] == fpr for key in self._g.list_keys(keys=[fpr]))

    def _secret_key_error(self, operation: str, fpr: str, result: Any) -> GpgError:
        if self.has_secret_key(fpr):
            msg = (f"cannot {operation} with key {fpr}: {result.status or 'GnuPG refused'}"
                   f" (a passphrase missing or wrong?); {CHECK_CONFIG}")
        else:
            msg = f"no secret key for {fpr} in GnuPG home {str(self.home)!r}; {CHECK_CONFIG}"
        return GpgError(msg, operation=operation, status=result.status, signing=True)


def _verification(result: Any, data: bytes) -> Verification:
    """A python-gnupg verify (or decrypt) result as a ``Verification``."""
    problems = [p.get("status", "") for p in result.problems]
    if result.valid and not problems:
        fingerprint = result.pubkey_fingerprint or result.fingerprint
        stamp = result.sig_timestamp or result.timestamp
        return Verification(
            valid=True, fingerprint=fingerprint, reason=SignatureStatus.GOOD,
            issuer=result.fingerprint or result.key_id,
            signed_at=datetime.fromtimestamp(int(stamp), UTC) if stamp else None,
            signed_data=data,
        )
    status = problems[0] if problems else (result.status or "")
    if status == "signature error" and "no public key" in problems:
        status = "no public key"
    reason = _STATUS.get(status, SignatureStatus.ERROR if status else SignatureStatus.NOT_SIGNED)
    if reason is SignatureStatus.GOOD:  # a good signature next to a problem
        reason = SignatureStatus.ERROR
    return Verification(valid=False, fingerprint=None, reason=reason,
                        issuer=result.fingerprint or result.key_id)
