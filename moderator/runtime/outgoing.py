"""
The mail that leaves: an outbox row made into the signed (and, for a player with a key,
partly encrypted) PGP/MIME message, just before it is handed to SMTP.

``render_outgoing`` is pure but for the keyring it is given.  The row's ``body`` is the
public part, signed by the moderator; its ``private_body`` (with the row's one-time
``token``) is never signed and is encrypted to ``recipient_key`` when there is one
(Wolff 4.5, ``moderator.mail.compose.report_mail``).  Every mail of a game threads
under the game's root Message-ID (``compose.mail_headers``); an answer to a player's
mail also under his mail.  Reports are ``Auto-Submitted: auto-generated``, answers
``auto-replied``.  The Message-ID is the one the outbox fixed when the row was written,
so a mail sent twice (a sender that died between sending and marking) is recognisable.

The signed part's lines are wrapped at ``WIDTH`` before it is signed (``wrapped``), so a
mail program shows them as written instead of breaking them at its window's edge; the
lines ``titan-moderator verify --report`` reads back (the audit's) are left whole.
``wire_bytes`` is the message as SMTP carries it, which a DKIM signature covers.

A report's pictures (``moderator.pictures.spec``) are drawn and rasterised here, as
PNG parts after the text they go with: the masterboard in the signed part, a battle in
the private part.  A picture that cannot be drawn is left out and logged: a report is
worth sending without its picture.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import json
import logging
import re
import textwrap
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from email import policy
from email.generator import BytesGenerator
from email.message import EmailMessage, MIMEPart
from email.utils import format_datetime, formataddr, parseaddr
from typing import Any, cast

from moderator.audit import report_check
from moderator.mail import compose
from moderator.mail.gpg import Keyring
from moderator.pictures.spec import Picture
from moderator.ports import StoredMail
from moderator.runtime.picture_worker import draw_here

log = logging.getLogger(__name__)

#: The kinds of mail that are not answers to a player's mail.
GENERATED_KINDS = ("report", "notice")
_GAME_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
#: The widest line of a signed part (RFC 5322's advice): a mail program in 80 columns
#: shows it unbroken, and a line wrapped here keeps its indent.
WIDTH = 78
#: The lines ``verify --report`` reads back, never wrapped.
_READ_BACK = (
    report_check.SEED, report_check.COMMITMENT, report_check.OPENING, report_check.SALT,
    report_check.SEAL,
)
_LEAD = re.compile(r"^(\s*)([-*] |\d+\. )?")
#: A reference and its game stay on one line: a player copies "ref g7-42" as it is.
_REF = re.compile(r"\bref (?=\S)")


def outgoing_headers(mail: StoredMail, now: datetime, from_name: str = "") -> dict[str, str]:
    """
    The headers of the mail, in order.  ``From`` comes from the row's headers, with
    ``from_name`` (the moderator's name) as its display name when it has none.
    """
    sender = mail.headers.get("From")
    if not sender:
        msg = f"outbox mail {mail.id} has no From header"
        raise ValueError(msg)
    name, address = parseaddr(sender)
    if from_name and not name and address:
        sender = formataddr((from_name, address))
    answer = mail.kind not in GENERATED_KINDS
    in_reply_to = mail.headers.get("In-Reply-To") if answer else None
    references = mail.headers.get("References") if answer else None
    if mail.game_id and _GAME_ID.match(mail.game_id):
        headers = compose.mail_headers(
            game=mail.game_id,
            sender=sender,
            to=mail.recipient,
            subject=mail.subject,
            date=now,
            in_reply_to=in_reply_to,
            references=references,
            message_id=mail.message_id,
        )
    else:
        headers = {
            "From": sender,
            "To": mail.recipient,
            "Subject": mail.subject,
            "Date": format_datetime(now),
            "Message-ID": mail.message_id,
        }
        if in_reply_to:
            headers["In-Reply-To"] = in_reply_to
            headers["References"] = references or in_reply_to
        headers["X-Auto-Response-Suppress"] = "All"
        headers[compose.LOOP_HEADER] = "-"
    headers["Auto-Submitted"] = "auto-replied" if answer else "auto-generated"
    return headers


def render_outgoing(
    mail: StoredMail,
    keyring: Keyring | None,
    signer: str | None,
    now: datetime,
    from_name: str = "",
    *,
    draw: Callable[[str], bytes] = draw_here,
) -> EmailMessage:
    """
    The message to send for an outbox row.  With a ``keyring`` and ``signer`` (the
    moderator's fingerprint) the public part is signed and the private part encrypted
    to the recipient's key; without them (a test set-up, a moderator without PGP) the
    same parts go out unsigned.

    Raises:
        GpgError: the moderator cannot sign, or the recipient's key is not in the keyring.
        ValueError: the row has no From header, or ``now`` is naive.
    """
    headers = outgoing_headers(mail, now, from_name)
    mail = dataclasses.replace(mail, body=wrapped(mail.body))
    signing = keyring is not None and signer is not None
    public_extra, private_extra = picture_parts(mail.pictures, draw)
    public_extra += [file_part(a) for a in mail.attachments if a.get("part") != "private"]
    private_extra += [file_part(a) for a in mail.attachments if a.get("part") == "private"]
    if mail.private_body is not None:
        token = mail.token or compose.new_token()
        if signing:
            assert keyring is not None and signer is not None
            return compose.report_mail(
                mail.body, mail.private_body, token, keyring, signer, mail.recipient_key,
                headers, public_extra=public_extra, private_extra=private_extra,
            )
        message = _with_headers(headers)
        message.set_content(mail.body.rstrip() + "\n")
        message.make_mixed()
        for part in public_extra:
            message.attach(cast(EmailMessage, part))  # typeshed wants EmailMessage parts
        message.add_attachment(
            mail.private_body.rstrip() + "\n",
            disposition="inline",
            filename="private.txt",
        )
        for part in private_extra:
            message.attach(cast(EmailMessage, part))
        return message
    if signing:
        assert keyring is not None and signer is not None
        message = compose.signed_mime([mail.body, *public_extra], keyring, signer)
        for name, value in headers.items():
            message[name] = value
        return message
    message = _with_headers(headers)
    message.set_content(mail.body.rstrip() + "\n")
    if public_extra:
        message.make_mixed()
        for part in public_extra:
            message.attach(cast(EmailMessage, part))
    return message


def wrapped(text: str, width: int = WIDTH) -> str:
    """
    ``text`` with every line longer than ``width`` broken between words: the rest goes
    on under it, indented two more (or under the text of a list item).  The audit's
    lines are left whole, as is a word longer than the line (a fingerprint, a hash).
    """
    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width or any(p.search(line) for p in _READ_BACK):
            out.append(line)
            continue
        lead = _LEAD.match(line)
        indent, item = (lead.group(1), lead.group(2) or "") if lead else ("", "")
        rest = " " * (len(indent) + len(item)) if item else (indent + "  " if indent else "")
        kept = _REF.sub("ref\u00a0", line.rstrip())
        lines = textwrap.wrap(
            kept, width, initial_indent="", subsequent_indent=rest,
            break_long_words=False, break_on_hyphens=False, drop_whitespace=True,
        )
        out.extend(piece.replace("\u00a0", " ") for piece in lines or [line])
    return "\n".join(out)


def wire_bytes(message: EmailMessage) -> bytes:
    """
    The message as SMTP carries it (CRLF line ends, as aiosmtplib writes it): the bytes
    a DKIM signature is made over, and then sent as they are.
    """
    buffer = io.BytesIO()
    BytesGenerator(buffer, policy=policy.SMTP).flatten(message)
    return buffer.getvalue()


def _with_headers(headers: dict[str, str]) -> EmailMessage:
    message = EmailMessage(policy=compose.POLICY)
    for name, value in headers.items():
        message[name] = value
    return message


def picture_parts(
    pictures: Sequence[Mapping[str, Any]],
    draw: Callable[[str], bytes] = draw_here,
) -> tuple[list[MIMEPart], list[MIMEPart]]:
    """(the signed part's pictures, the private part's) as inline PNG parts, drawn by ``draw``."""
    public: list[MIMEPart] = []
    private: list[MIMEPart] = []
    for data in pictures:
        try:
            picture = Picture.from_json(data)
            png = _png(picture_spec(picture), draw)
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("a picture was left out of a mail: %s", exc)
            continue
        (private if picture.private else public).append(
            png_part(png, picture.filename, picture.description)
        )
    return public, private


def picture_spec(picture: Picture) -> str:
    """What ``draw`` is handed for ``picture``: its JSON, keys sorted (one text per picture)."""
    return json.dumps(picture.to_json(), sort_keys=True)


def picture_specs(pictures: Sequence[Mapping[str, Any]]) -> list[str]:
    """The specs a mail's pictures will be drawn from (what the sender draws ahead)."""
    specs = []
    for data in pictures:
        try:
            specs.append(picture_spec(Picture.from_json(data)))
        except (ValueError, KeyError, TypeError):
            continue  # left out when the mail is made, and logged then
    return specs


@functools.lru_cache(maxsize=32)
def _png(picture_json: str, draw: Callable[[str], bytes]) -> bytes:
    """A picture drawn and rasterised, kept for the mail sent again (a retry, a resend)."""
    return draw(picture_json)


def file_part(attachment: Mapping[str, str]) -> MIMEPart:
    """A file attached as it is (the audit bundle): text, named, for the reader to save."""
    maintype, _, subtype = attachment.get("content_type", "text/plain").partition("/")
    part = MIMEPart(policy=compose.POLICY)
    part.set_content(
        attachment["text"].encode(), maintype=maintype, subtype=subtype or "plain",
        disposition="attachment", filename=attachment["filename"],
    )
    return part


def png_part(png: bytes, filename: str, description: str) -> MIMEPart:
    """An inline ``image/png`` part, base64: a mail client shows it below the text."""
    part = MIMEPart(policy=compose.POLICY)
    part.set_content(png, maintype="image", subtype="png", disposition="inline",
                     filename=filename)
    part["Content-Description"] = description
    return part
