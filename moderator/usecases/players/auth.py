"""
Who wrote a mail: by a PGP signature or a shared secret, never by the From header alone.

A mail is **authenticated** as a registered player when

- it carries a good PGP signature (PGP/MIME or clearsigned, checked with
  ``moderator.mail.compose.verify_incoming`` on the raw bytes) whose key is the key
  pinned for that player when he signed on; the player is then found by the key,
  whatever the From header says; or
- it comes from the player's registered address, holds a line ``secret XYZ`` that
  matches his stored hash, and the game allows secrets (game option
  ``allow_secrets``; a mail that names no game may use the secret too).

Orders are read only from what the signature covers: the signed MIME entity or the
clearsigned text.  A mail with a signed part and unsigned text beside it is read from
the signed part alone, so nobody can slip unsigned orders next to a player's old
signed mail.

**Where answers go.**  Answers go to the registered address of the player the mail is
from, never to a Reply-To header and never to an address nobody registered (except the
welcome of a sign-on).  A mail whose From names a player but that is not authenticated
is refused with one mail to that player's registered address explaining how to sign or
add the secret, and at most one such refusal goes to an address a day
(``REFUSALS_PER_DAY``): a forger who writes as Ann can make us mail Ann once a day,
never a third party, and never more.  Mail from addresses nobody registered gets no
answer at all unless it signs on (see ``moderator.usecases.players.signon``).
"""

from __future__ import annotations

import codecs
import hashlib
from collections import OrderedDict
from datetime import datetime
from email.message import Message

from moderator.mail import compose
from moderator.mail.checks.base import MAIL_ERRORS
from moderator.mail.errors import MailError
from moderator.mail.intake import extract_text, parse
from moderator.mail.signatures import SignatureStatus, Verification, Verifier
from moderator.ports import Lookup, Player
from moderator.ports.players import secret_matches
from moderator.records import record

#: Authentication methods.
PGP, SECRET = "pgp", "secret"
#: Refusals (unauthenticated mail, failed sign-ons) one address may get in a day.
REFUSALS_PER_DAY = 1

_KEY_BEGIN = b"-----BEGIN PGP PUBLIC KEY BLOCK-----"
_KEY_END = b"-----END PGP PUBLIC KEY BLOCK-----"
_MAX_KEY_BYTES = 64 * 1024
_MAX_KEYS = 3


@record
class Signature:
    """
    What the signature check found: ``status`` ``unsigned``, ``valid`` or ``invalid``;
    the signer's ``fingerprint`` and the signed ``text`` only when valid.
    """

    status: str
    reason: str = ""
    fingerprint: str | None = None
    text: str | None = None
    method: str | None = None
    signed_at: datetime | None = None
    signed_data: bytes = b""

    @property
    def valid(self) -> bool:
        return self.status == "valid"


UNSIGNED = Signature("unsigned", SignatureStatus.NOT_SIGNED.value)


def check_signature(
    raw: bytes, keyring: Verifier | None, charset: str = "", *, parsed: Message | None = None
) -> Signature:
    """
    The signature of a mail (``raw``, the bytes as they came), checked with ``keyring``;
    never raises.  Without a keyring every mail counts as unsigned.  ``parsed``: the
    intake's parse of ``raw``, so that it is not parsed a second time.
    """
    if keyring is None:
        return UNSIGNED
    try:
        message = parsed if parsed is not None else raw
        verification = compose.verify_incoming(message, keyring, raw=raw)
    except (MailError, OSError, RecursionError, *MAIL_ERRORS) as error:
        return Signature("invalid", f"the signature could not be checked ({error})")
    if verification.reason is SignatureStatus.NOT_SIGNED:
        return UNSIGNED
    if not verification.valid or not verification.fingerprint:
        return Signature("invalid", verification.reason.value, method=verification.method)
    return Signature(
        "valid",
        verification.reason.value,
        fingerprint=verification.fingerprint.upper(),
        text=signed_text(verification, charset),
        method=verification.method,
        signed_at=verification.signed_at,
        signed_data=verification.signed_data,
    )


def signed_text(verification: Verification, charset: str = "") -> str:
    """The text of what a good signature covers: the orders are read from it alone."""
    data = verification.signed_data
    if verification.method == "pgp/mime":
        return extract_text(parse(data), raw=data).text
    for name in ("utf-8", charset, "cp1252"):
        try:
            text = codecs.decode(data, name) if name else None
        except (LookupError, UnicodeError, ValueError):
            continue
        if text is not None:
            return text.replace("\r\n", "\n").replace("\r", "\n")
    return data.decode("latin-1").replace("\r\n", "\n")


class SecretChecker:
    """
    ``secret_matches`` with a small memory: a stored hash costs 200,000 PBKDF2 rounds to
    check, and a player sends many mails with the same secret.  What is remembered is
    (stored hash, SHA-256 of the secret tried) -> the answer, never the secret.
    """

    def __init__(self, size: int = 1024) -> None:
        self._size = size
        self._known: OrderedDict[tuple[str, str], bool] = OrderedDict()

    def matches(self, secret: str, stored: str) -> bool:
        key = (stored, hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest())
        if key in self._known:
            self._known.move_to_end(key)
            return self._known[key]
        try:
            answer = secret_matches(secret, stored)
        except (ValueError, TypeError):  # a stored hash in a form we do not know
            answer = False
        self._known[key] = answer
        if len(self._known) > self._size:
            self._known.popitem(last=False)
        return answer


@record
class Identity:
    """
    Who a mail is from: ``player`` (None: no registered player), how he was
    authenticated (``method``: ``pgp``, ``secret``, or None), and if he was not, ``why``.
    """

    player: Player | None
    method: str | None = None
    why: str = ""

    @property
    def authenticated(self) -> bool:
        return self.player is not None and self.method is not None


def identify(
    lookup: Lookup,
    sender: str | None,
    signature: Signature,
    secret: str | None,
    *,
    secrets_allowed: bool,
    checker: SecretChecker,
) -> Identity:
    """Who wrote the mail (see the module's text)."""
    claimed = lookup.player(sender) if sender else None
    if signature.valid and signature.fingerprint:
        signers = lookup.players_with_key(signature.fingerprint)
        if signers:
            by_from = [p for p in signers if claimed is not None and p.id == claimed.id]
            return Identity((by_from or signers)[0], PGP)
    if claimed is None:
        return Identity(None, why=f"{sender or 'the sender'} is not a registered player")
    if secret and claimed.secret_hash and secrets_allowed:
        if checker.matches(secret, claimed.secret_hash):
            return Identity(claimed, SECRET)
        return Identity(claimed, why="the secret in your mail is not the one you registered")
    return Identity(claimed, why=_unauthenticated(claimed, signature, secret, secrets_allowed))


def _unauthenticated(
    player: Player, signature: Signature, secret: str | None, secrets_allowed: bool
) -> str:
    if signature.valid:
        return (
            f"your mail is signed with the key {signature.fingerprint}, which is not the key "
            f"registered for you"
            + (f" ({player.key_fingerprint})" if player.key_fingerprint else "")
        )
    if signature.status == "invalid":
        return f"the signature of your mail is not good ({signature.reason})"
    if secret and not player.secret_hash:
        return "your mail holds a secret line, but you registered no secret"
    if secret and not secrets_allowed:
        return "this game does not accept secret lines: sign your mail with your key"
    return "your mail is neither signed with your key nor holds your secret line"


def how_to_authenticate(player: Player | None, secrets_allowed: bool) -> list[str]:
    """Sentences telling ``player`` how to prove his mail is his."""
    lines: list[str] = []
    if player is None or player.key_fingerprint:
        key = f" ({player.key_fingerprint})" if player and player.key_fingerprint else ""
        lines.append(
            f"Sign your mail with the key you registered{key}: PGP/MIME or an inline "
            f"clearsigned text; only the signed text is read, and the line 'ref ...' "
            f"must be in it."
        )
    if player is None or (player.secret_hash and secrets_allowed):
        lines.append(
            f"{'Or put' if lines else 'Put'} the line 'secret YOUR-SECRET' in your mail "
            f"(it is never echoed)."
        )
    if player is not None and not player.key_fingerprint and not player.secret_hash:
        lines.append("You registered neither a key nor a secret: ask the game master.")
    elif player is not None and not player.key_fingerprint and not secrets_allowed:
        lines.append("This game needs signed mail: ask the game master to register your key.")
    return lines


def key_blocks(msg: Message, text: str) -> list[bytes]:
    """The armored public key blocks in a mail's own parts and in its ``text``."""
    found: list[bytes] = []
    sources: list[bytes] = [text.encode("utf-8", "replace")]
    try:
        for part in _own_parts(msg):
            payload = part.get_payload(decode=True)
            if isinstance(payload, bytes):
                sources.append(payload)
    except (RecursionError, *MAIL_ERRORS):
        pass
    for data in sources:
        start = data.find(_KEY_BEGIN)
        while start >= 0 and len(found) < _MAX_KEYS:
            end = data.find(_KEY_END, start)
            if end < 0:
                break
            block = data[start : end + len(_KEY_END)]
            if len(block) <= _MAX_KEY_BYTES and block not in found:
                found.append(block)
            start = data.find(_KEY_BEGIN, end)
    return found


def _own_parts(msg: Message, depth: int = 0) -> list[Message]:
    """The mail's parts, not those of attached mails (a forwarded key is not the sender's)."""
    if depth > 20:
        return []
    parts = [msg]
    if msg.get_content_maintype() == "message":
        return parts
    payload = msg.get_payload()
    if msg.is_multipart() and isinstance(payload, list):
        for sub in payload:
            if isinstance(sub, Message):
                parts.extend(_own_parts(sub, depth + 1))
    return parts
