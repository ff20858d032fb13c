"""
Outgoing mail (PGP/MIME, RFC 3156) and the signature check of incoming mail.

Everything here is pure except for the keyring it is given (a ``Signer`` or a
``Verifier``: ``moderator.mail.gpg.Keyring`` in the service, built by the composition
root), so that the use cases that read or compose mail do not import GnuPG.

**What the moderator signs (Wolff 4.5).**  A player must never hold legion
contents (even of his own legions) signed by the moderator: he could show
them to others as proof.  So a report is split in two:

- the *public* part (what every player may see, plus the digest of a fresh
  token) is signed, PGP/MIME ``multipart/signed``;
- the *private* part (the legion contents the player knows, plus the token
  itself) is never signed.  When the player has a key it is encrypted to him
  alone (``multipart/encrypted``, RFC 3156 section 4) and placed *beside* the
  signed part: the signature covers neither the contents nor their
  ciphertext (a signed ciphertext plus the session key would again prove
  the contents).

The token is ``new_token()``: random, used for one report only.  The signed
part carries ``token_digest(token)`` (SHA-256, hex) rather than the token:
anybody who sees the mail in transit sees the signed part, and a token in
clear could be copied next to forged contents into a new encrypted part.
The player checks that the token in his decrypted part hashes to the signed
digest (``printf %s TOKEN | sha256sum``); then he knows the contents came
from the moderator, yet he cannot prove them to anybody else, since the
signature covers the digest only.  Without a player key the private part
travels in clear, still unsigned, and the token only ties the two parts
together.

**Headers.**  ``mail_headers`` threads every mail of a game under one root
Message-ID (``thread_root_id``) and marks the mail as automatic
(``Auto-Submitted``, ``X-Auto-Response-Suppress``) with our loop header
``X-Titan-Moderator: <game>``.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import quopri
import re
import secrets
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import datetime
from email.message import EmailMessage, Message, MIMEPart
from email.parser import BytesParser
from email.utils import collapse_rfc2231_value, format_datetime, parseaddr

from moderator.mail.header_classes import HeaderClasses
from moderator.mail.pgp_packets import find_clearsigned, signature_hash
from moderator.mail.signatures import SignatureStatus, Signer, Verification, Verifier

#: The policy of everything built here: CRLF line ends, 7bit-clean output.
POLICY = email.policy.SMTP.clone(cte_type="7bit", header_factory=HeaderClasses())
#: Our loop-detection header; its value is the game id.
LOOP_HEADER = "X-Titan-Moderator"

_GAME_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
_BEGIN_SIGNED = re.compile(rb"^-----BEGIN PGP SIGNED MESSAGE-----\r?$", re.MULTILINE)
_END_SIGNATURE = re.compile(rb"^-----END PGP SIGNATURE-----\r?$", re.MULTILINE)


# -- tokens ------------------------------------------------------------------


def new_token() -> str:
    """A fresh, unguessable token for one report (Wolff 4.5)."""
    return secrets.token_urlsafe(18)


def token_digest(token: str) -> str:
    """The SHA-256 of ``token`` in hex: what the signed part of a report carries."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


# -- PGP/MIME ----------------------------------------------------------------


def text_part(text: str, *, description: str | None = None) -> MIMEPart:
    """
    A text/plain part that survives transport byte for byte: 7bit when the
    text allows it, else quoted-printable (non-ASCII, long lines, trailing
    blanks, ``From `` at a line start: RFC 3156 section 3).
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.endswith("\n"):
        text += "\n"
    part = MIMEPart(policy=POLICY)
    ascii_only = text.isascii()
    part["Content-Type"] = f"text/plain; charset={'us-ascii' if ascii_only else 'utf-8'}"
    if description:
        part["Content-Description"] = description
    if ascii_only and not _needs_quoting(text):
        part["Content-Transfer-Encoding"] = "7bit"
        part.set_payload(text)
    else:
        encoded = quopri.encodestring(text.encode("utf-8")).decode("ascii")
        encoded = re.sub(r"(?m)^From ", "=46rom ", encoded)
        part["Content-Transfer-Encoding"] = "quoted-printable"
        part.set_payload(encoded)
    return part


def signed_mime(body_parts: Sequence[str | MIMEPart], keyring: Signer, signer: str) -> EmailMessage:
    """
    A PGP/MIME signed message (RFC 3156 section 5) over ``body_parts``.

    Strings become text/plain parts; several parts are wrapped in one
    multipart/mixed entity.  The signature covers that entity serialized
    with CRLF line ends, exactly as it appears in ``msg.as_bytes()``;
    ``micalg`` names the hash GnuPG used.  The caller adds the headers.
    """
    message = EmailMessage(policy=POLICY)
    message["MIME-Version"] = "1.0"
    _fill_signed(message, _entity(body_parts), keyring, signer)
    return message


def encrypted_mime(entity: MIMEPart, keyring: Signer, recipients: Sequence[str]) -> MIMEPart:
    """
    ``entity`` encrypted to ``recipients`` as multipart/encrypted (RFC 3156
    section 4).  Not signed: see the module docstring.
    """
    ciphertext = keyring.encrypt(entity.as_bytes(policy=POLICY), recipients)
    control = MIMEPart(policy=POLICY)
    control["Content-Type"] = "application/pgp-encrypted"
    control["Content-Description"] = "PGP/MIME version identification"
    control.set_payload("Version: 1\n")
    body = MIMEPart(policy=POLICY)
    body["Content-Type"] = 'application/octet-stream; name="encrypted.asc"'
    body["Content-Description"] = "OpenPGP encrypted message"
    body["Content-Disposition"] = 'inline; filename="encrypted.asc"'
    body.set_payload(ciphertext.decode("ascii"))
    part = _multipart("encrypted", [control, body], protocol="application/pgp-encrypted")
    part.preamble = "This is an OpenPGP/MIME encrypted message (RFC 4880 and 3156)"
    return part


def decrypt_mime(part: Message, keyring: Signer) -> EmailMessage:
    """
    The MIME entity inside a multipart/encrypted part.

    Raises:
        GpgError: if this keyring cannot decrypt it.
        ValueError: if ``part`` is not PGP/MIME encrypted.
    """
    payload = part.get_payload()
    if part.get_content_type() != "multipart/encrypted" or not isinstance(payload, list) \
            or len(payload) != 2:
        msg = f"not a PGP/MIME encrypted part: {part.get_content_type()!r}"
        raise ValueError(msg)
    body = payload[1]
    ciphertext = body.get_payload(decode=True) if isinstance(body, Message) else b""
    plain = keyring.decrypt(ciphertext if isinstance(ciphertext, bytes) else b"")
    return email.message_from_bytes(plain, _class=EmailMessage, policy=POLICY)


def report_mail(public_text: str, private_text: str, token: str, keyring: Signer, signer: str,
                recipient_fpr: str | None, headers: Mapping[str, str], *,
                public_extra: Sequence[MIMEPart] = (),
                private_extra: Sequence[MIMEPart] = ()) -> EmailMessage:
    """
    One player's report: the signed public part and the unsigned private
    part, encrypted to ``recipient_fpr`` when the player has a key.

    Args:
        public_text: what the player may see and may show (signed).
        private_text: the legion contents he knows (never signed).
        token: from ``new_token()``, used for this report only.
        keyring: holds the moderator's secret key and the player's public key.
        signer: the moderator's fingerprint.
        recipient_fpr: the player's pinned fingerprint, or None to send the
            private part in clear.
        headers: the envelope headers, e.g. from ``mail_headers``.
        public_extra, private_extra: parts after each text (pictures), signed with the
            public text or encrypted with the private one.

    Raises:
        GpgError: if the moderator cannot sign or the player's key is missing.
    """
    public = (f"{public_text.rstrip()}\n\nReport check (Wolff 4.5): the token in your private"
              f" part has SHA-256\n{token_digest(token)}\n")
    private = f"{private_text.rstrip()}\n\nReport token: {token}\n"
    note = "your legions; not signed by the moderator (Wolff 4.5)"
    message = EmailMessage(policy=POLICY)
    for name, value in headers.items():
        message[name] = value
    message["MIME-Version"] = "1.0"
    signed = MIMEPart(policy=POLICY)
    private_part = _entity([text_part(private, description=note), *private_extra])
    if recipient_fpr is None:
        _fill_signed(signed, _entity([public, *public_extra]), keyring, signer)
    else:  # two gpg runs at once: a report waits for the longer, not for both in turn
        with ThreadPoolExecutor(1, thread_name_prefix="encrypt") as encrypting:
            encrypted = encrypting.submit(encrypted_mime, private_part, keyring, [recipient_fpr])
            _fill_signed(signed, _entity([public, *public_extra]), keyring, signer)
            private_part = encrypted.result()
    _set_multipart(message, "mixed", [signed, private_part])
    return message


# -- headers -----------------------------------------------------------------


def thread_root_id(game: str, domain: str) -> str:
    """The stable Message-ID every mail of ``game`` is threaded under."""
    return f"<titan.{_game_id(game)}.thread@{domain}>"


def new_message_id(game: str, domain: str) -> str:
    """A fresh Message-ID under the moderator's domain."""
    return f"<titan.{_game_id(game)}.{secrets.token_hex(10)}@{domain}>"


def tagged_subject(game: str, subject: str) -> str:
    """``subject`` with the ``[titan g7]`` tag, added once."""
    tag = f"[titan {_game_id(game)}]"
    return subject if tag in subject else f"{tag} {subject}".rstrip()


def mail_headers(*, game: str, sender: str, to: str, subject: str, date: datetime,
                 in_reply_to: str | None = None, references: str | None = None,
                 message_id: str | None = None) -> dict[str, str]:
    """
    The headers of one moderator mail, in order.

    A mail answering a player's mail (``in_reply_to`` = his Message-ID,
    ``references`` = his References header) is ``Auto-Submitted:
    auto-replied`` and threads under his mail; any other mail is
    ``auto-generated`` and threads under the game's root id.  The mail whose
    ``message_id`` is the root id (the game's first) has no parent.

    Raises:
        ValueError: if ``date`` is naive or the game id is not a plain word.
    """
    if date.tzinfo is None:
        msg = f"mail date must carry a time zone: {date!r}"
        raise ValueError(msg)
    domain = parseaddr(sender)[1].rpartition("@")[2] or "localhost"
    root = thread_root_id(game, domain)
    own_id = message_id or new_message_id(game, domain)
    parent = in_reply_to or (root if own_id != root else None)
    chain = [root, *re.findall(r"<[^<>\s]+>", references or ""), *([parent] if parent else [])]
    chain = [ref for ref in dict.fromkeys(chain) if ref != own_id]
    headers = {
        "From": sender, "To": to, "Subject": tagged_subject(game, subject),
        "Date": format_datetime(date), "Message-ID": own_id,
    }
    if parent:
        headers["In-Reply-To"] = parent
    if chain:
        # RFC 5322 3.6.4: keep the first and the latest ids when the chain grows long
        headers["References"] = " ".join(chain if len(chain) <= 10 else [chain[0], *chain[-9:]])
    headers["Auto-Submitted"] = "auto-replied" if in_reply_to else "auto-generated"
    headers["X-Auto-Response-Suppress"] = "All"
    headers[LOOP_HEADER] = _game_id(game)
    return headers


# -- incoming ----------------------------------------------------------------


def verify_incoming(message: Message | bytes, keyring: Verifier, *,
                    raw: bytes | None = None) -> Verification:
    """
    Find and check the signature of an incoming mail.

    PGP/MIME (the first multipart/signed part) is checked over the signed
    part's bytes cut from the raw mail, line ends made CRLF; pass the raw
    bytes (or ``raw=``) because reserializing a parsed mail may change them.
    Otherwise the first text part holding a clearsigned block is checked.
    Attached mails (message/rfc822) are not searched: a forwarded signed
    mail is not the sender's signature.

    Returns a ``Verification`` with ``reason`` ``NOT_SIGNED`` for an unsigned
    mail; only ``signed_data`` of a valid answer may be read as orders.  Raw bytes
    are parsed as ``moderator.mail.intake.parse`` does (compat32, leading blank lines
    skipped), so that ``moderator.mail.limits`` bounds this parse as well.
    """
    if isinstance(message, bytes):
        raw = message
        message = BytesParser(_class=EmailMessage, policy=email.policy.compat32).parsebytes(
            raw.lstrip(b"\r\n")
        )
    if raw is None:
        raw = message.as_bytes(policy=email.policy.compat32.clone(linesep="\r\n"))
    for part in _own_parts(message):
        if part.get_content_type() == "multipart/signed":
            return replace(_verify_pgp_mime(part, raw, keyring), method="pgp/mime")
    for part in _own_parts(message):
        if part.get_content_maintype() == "text" or part.get_content_type() == "application/pgp":
            data = part.get_payload(decode=True)
            block = _clearsigned(data) if isinstance(data, bytes) else None
            if block:
                return replace(keyring.verify_clearsigned(block), method="inline")
    return Verification(valid=False, fingerprint=None, reason=SignatureStatus.NOT_SIGNED)


def signed_part_bytes(raw: bytes, boundary: str) -> bytes | None:
    """
    The bytes of the first body part of the multipart with ``boundary``, as
    RFC 1847 signs them: from after the first delimiter line up to, not
    including, the line end before the next one.  None if not found.
    """
    opening = _delimiter(raw, b"--" + boundary.encode("utf-8", "surrogateescape"), 0, close=False)
    if opening is None or opening[1] >= len(raw):
        return None
    start = opening[1] + 1
    closing = _delimiter(raw, b"--" + boundary.encode("utf-8", "surrogateescape"), start)
    if closing is None:
        return None
    end = closing[0]
    end -= 2 if raw[end - 2:end] == b"\r\n" else 1
    return raw[start:max(start, end)]


def _delimiter(raw: bytes, dashed: bytes, start: int, *, close: bool = True
               ) -> tuple[int, int] | None:
    """
    (start, end before the line end) of the first line from ``start`` that is ``dashed``,
    ``--`` if ``close``, blanks and an optional CR.  Found by ``bytes.find`` of a line end
    and ``dashed``: a multiline regex is many times slower on a large mail.
    """
    at = start if raw.startswith(dashed, start) and raw[start - 1:start] in (b"", b"\n") else -1
    while True:
        if at < 0:
            at = raw.find(b"\n" + dashed, start)
            if at < 0:
                return None
            at += 1
        end = raw.find(b"\n", at)
        end = len(raw) if end < 0 else end
        rest = raw[at + len(dashed):end].removesuffix(b"\r").rstrip(b" \t")
        if not rest or close and rest == b"--":
            return at, end
        start, at = end, -1


def _clearsigned(data: bytes) -> bytes | None:
    """
    ``find_clearsigned``, but only when an end line follows the first begin line: its
    search scans to the end of ``data`` from every begin line that has no end after it,
    quadratic time on a part of many begin lines.
    """
    begin = _BEGIN_SIGNED.search(data)
    if begin is None or _END_SIGNATURE.search(data, begin.end()) is None:
        return None
    return find_clearsigned(data)


def canonical_crlf(data: bytes) -> bytes:
    """``data`` with every line end as CRLF (RFC 3156 section 5); a lone CR stays."""
    return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


# -- helpers -----------------------------------------------------------------


def _verify_pgp_mime(part: Message, raw: bytes, keyring: Verifier) -> Verification:
    protocol = collapse_rfc2231_value(part.get_param("protocol") or "").lower()
    subparts = part.get_payload()
    boundary = part.get_boundary()
    if protocol != "application/pgp-signature":
        return Verification(valid=False, fingerprint=None, reason=SignatureStatus.UNSUPPORTED)
    if not boundary or not isinstance(subparts, list) or len(subparts) != 2:
        return Verification(valid=False, fingerprint=None, reason=SignatureStatus.MALFORMED)
    sig_part = subparts[1]
    signature = sig_part.get_payload(decode=True) if isinstance(sig_part, Message) else None
    signed = signed_part_bytes(raw, boundary)
    if signed is None or not isinstance(signature, bytes):
        return Verification(valid=False, fingerprint=None, reason=SignatureStatus.MALFORMED)
    return keyring.verify_detached(canonical_crlf(signed), signature)


def _own_parts(message: Message) -> Iterator[Message]:
    """Like ``walk()``, but not into attached mails."""
    yield message
    if message.get_content_maintype() == "message":
        return
    payload = message.get_payload()
    if message.is_multipart() and isinstance(payload, list):
        for sub in payload:
            if isinstance(sub, Message):
                yield from _own_parts(sub)


def _fill_signed(container: Message, entity: MIMEPart, keyring: Signer, signer: str) -> None:
    """Make ``container`` multipart/signed over ``entity``."""
    # Attach the signed bytes re-parsed, so later serialization writes them unchanged:
    # only the headers are parsed, the body (a picture's base64 is most of a report) is
    # kept as the text it is and written out as it is, which costs a few times less
    # than parsing it into parts and generating them again at every serialization.
    # The signature is made over the bytes the re-parsed part writes, not the first
    # serialization: a header folded right after its name ("Name:" CRLF SP ...) comes
    # back as "Name: " CRLF SP ..., so signing the first form would sign bytes that are
    # never sent.  Two rounds reach the fixed point; anything else is refused.
    first = BytesParser(policy=POLICY).parsebytes(entity.as_bytes(policy=POLICY), headersonly=True)
    signed_bytes = first.as_bytes(policy=POLICY)
    if BytesParser(policy=POLICY).parsebytes(signed_bytes, headersonly=True).as_bytes(
            policy=POLICY) != signed_bytes:
        msg = "the part to sign does not serialize the same twice; refusing to sign it"
        raise ValueError(msg)
    signature = keyring.sign_detached(signed_bytes, signer)
    sig = MIMEPart(policy=POLICY)
    sig["Content-Type"] = 'application/pgp-signature; name="signature.asc"'
    sig["Content-Description"] = "OpenPGP digital signature"
    sig["Content-Disposition"] = 'attachment; filename="signature.asc"'
    sig.set_payload(signature.decode("ascii"))
    _set_multipart(container, "signed", [first, sig], micalg=f"pgp-{signature_hash(signature)}",
                   protocol="application/pgp-signature")
    container.preamble = "This is an OpenPGP/MIME signed message (RFC 4880 and 3156)"


def _entity(body_parts: Sequence[str | MIMEPart]) -> MIMEPart:
    parts = [text_part(p) if isinstance(p, str) else p for p in body_parts]
    if not parts:
        msg = "nothing to sign: no body parts"
        raise ValueError(msg)
    return parts[0] if len(parts) == 1 else _multipart("mixed", parts)


def _multipart(subtype: str, parts: Sequence[Message], **params: str) -> MIMEPart:
    part = MIMEPart(policy=POLICY)
    _set_multipart(part, subtype, parts, **params)
    return part


def _set_multipart(container: Message, subtype: str, parts: Sequence[Message],
                   **params: str) -> None:
    boundary = f"=_titan_{secrets.token_hex(12)}"
    container.add_header("Content-Type", f"multipart/{subtype}", **params, boundary=boundary)
    for part in parts:
        container.attach(part)


def _needs_quoting(text: str) -> bool:
    return any(len(line) > 76 or line != line.rstrip(" \t") or line.startswith("From ")
               for line in text.split("\n"))


def _game_id(game: str) -> str:
    if not _GAME_ID.match(game):
        msg = f"game id must be letters, digits, '-' or '_': {game!r}"
        raise ValueError(msg)
    return game
