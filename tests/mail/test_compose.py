"""PGP/MIME mail, the per-player report (Wolff 4.5) and headers, with the real gpg."""

from __future__ import annotations

import email
import email.policy
import re
from datetime import UTC, datetime, timedelta, timezone
from email.message import EmailMessage
from pathlib import Path

import gnupg
import pytest

from moderator.mail import header_classes
from moderator.mail.compose import (
    LOOP_HEADER,
    decrypt_mime,
    mail_headers,
    new_token,
    report_mail,
    signed_mime,
    signed_part_bytes,
    tagged_subject,
    text_part,
    thread_root_id,
    token_digest,
    verify_incoming,
)
from moderator.mail.errors import GpgError
from moderator.mail.signatures import SignatureStatus

CORPUS = Path("/work/shared/mail-corpus")
WHEN = datetime(2024, 3, 1, 12, 30, tzinfo=UTC)
PUBLIC = "Turn 3, Ann (Red): Rd01 moved to 133.\nBob (Blue) to split.\n"
PRIVATE = "Rd01 (133): Titan, Angel, Ogre, Ogre, Centaur\nRd02 (200): Gargoyle, Gargoyle\n"


def parse(raw: bytes) -> EmailMessage:
    return email.message_from_bytes(raw, _class=EmailMessage, policy=email.policy.default)


def first_part_bytes(raw: bytes, boundary: str) -> bytes:
    """The signed part cut out by plain splitting (independent of compose's own cutter)."""
    delimiter = b"\r\n--" + boundary.encode()
    start = raw.index(delimiter + b"\r\n") + len(delimiter) + 2
    return raw[start : raw.index(delimiter, start)]


def signed_container(message: EmailMessage) -> EmailMessage:
    return next(p for p in message.walk() if p.get_content_type() == "multipart/signed")


def headers(game: str = "g7", **extra) -> dict[str, str]:
    extra.setdefault("date", WHEN)
    return mail_headers(
        game=game,
        sender="Titan Moderator <moderator@titan.example>",
        to="Ann <ann@example.org>",
        subject="turn 3 report",
        **extra,
    )


def content(part) -> str:
    """A text part's content with the line ends of the text (parsing keeps CRLF)."""
    return part.get_content().replace("\r\n", "\n")


# -- signed_mime ----------------------------------------------------------------


def test_signed_mime_round_trips_through_bytes(gpg_world):
    mod, ann = gpg_world.moderator, gpg_world.ann
    message = signed_mime(["move Rd01 to 133\n"], mod.keyring, mod.fingerprint)
    raw = message.as_bytes()
    parsed = parse(raw)
    assert parsed.get_content_type() == "multipart/signed"
    assert parsed.get_param("protocol") == "application/pgp-signature"
    assert parsed.get_param("micalg") == "pgp-sha256"
    _signed, signature = parsed.get_payload()
    assert signature.get_content_type() == "application/pgp-signature"
    data = first_part_bytes(raw, parsed.get_boundary())
    assert data == signed_part_bytes(raw, parsed.get_boundary())
    assert b"\n" not in data.replace(b"\r\n", b"")  # canonical CRLF only
    result = ann.keyring.verify_detached(data, signature.get_payload(decode=True))
    assert result.valid and result.fingerprint == mod.fingerprint
    assert verify_incoming(raw, ann.keyring).valid


def test_awkward_text_is_quoted_printable_and_still_verifies(gpg_world):
    mod, ann = gpg_world.moderator, gpg_world.ann
    text = (
        "Légion Rd01 — Titan\nFrom here on, trailing blank \n"
        + "x" * 120
        + "\n-----BEGIN PGP SIGNATURE-----\n"
    )
    raw = signed_mime([text], mod.keyring, mod.fingerprint).as_bytes()
    assert raw.isascii()
    assert b"\r\nFrom " not in raw
    parsed = parse(raw)
    inner = parsed.get_payload()[0]
    assert inner["Content-Transfer-Encoding"] == "quoted-printable"
    assert content(inner) == text
    result = verify_incoming(raw, ann.keyring)
    assert result.valid and result.method == "pgp/mime"


def test_several_parts_are_signed_as_one_entity(gpg_world):
    mod, ann = gpg_world.moderator, gpg_world.ann
    raw = signed_mime(["first\n", "second\n"], mod.keyring, mod.fingerprint).as_bytes()
    inner = parse(raw).get_payload()[0]
    assert inner.get_content_type() == "multipart/mixed"
    assert [content(p) for p in inner.get_payload()] == ["first\n", "second\n"]
    assert verify_incoming(raw, ann.keyring).valid


def test_reserializing_a_parsed_message_keeps_the_signature(gpg_world):
    mod, ann = gpg_world.moderator, gpg_world.ann
    message = signed_mime(["move Rd01 to 133\n"], mod.keyring, mod.fingerprint)
    for name, value in headers().items():
        message[name] = value
    again = parse(message.as_bytes()).as_bytes(policy=email.policy.SMTP)
    assert verify_incoming(again, ann.keyring).valid
    assert verify_incoming(message, ann.keyring).valid  # no raw bytes given


def test_a_part_whose_header_folds_right_after_its_name_still_verifies(gpg_world):
    """
    A picture's description long enough to fold right after ``Content-Description:``
    is written back with a space before the fold; the signature covers what is sent.
    """
    mod, ann = gpg_world.moderator, gpg_world.ann
    for length in (40, 60, 70, 75, 120):
        part = text_part("move Rd01 to 133\n", description=("the masterboard as you see it " * 5)[:length])
        raw = signed_mime([part], mod.keyring, mod.fingerprint).as_bytes()
        assert verify_incoming(raw, ann.keyring).valid, length


def test_lf_only_transport_still_verifies(gpg_world):
    mod, ann = gpg_world.moderator, gpg_world.ann
    raw = signed_mime(["move Rd01 to 133\n"], mod.keyring, mod.fingerprint).as_bytes()
    assert verify_incoming(raw.replace(b"\r\n", b"\n"), ann.keyring).valid


def test_edited_signed_part_fails(gpg_world):
    mod, ann = gpg_world.moderator, gpg_world.ann
    raw = signed_mime(["move Rd01 to 133\n"], mod.keyring, mod.fingerprint).as_bytes()
    result = verify_incoming(raw.replace(b"to 133", b"to 134"), ann.keyring)
    assert not result.valid and result.reason is SignatureStatus.BAD


def test_signed_part_signed_by_a_stranger_is_unknown_key(gpg_world, stranger):
    raw = signed_mime(["hi\n"], stranger.keyring, stranger.fingerprint).as_bytes()
    result = verify_incoming(raw, gpg_world.moderator.keyring)
    assert (result.valid, result.reason) == (False, SignatureStatus.UNKNOWN_KEY)


# -- report_mail (Wolff 4.5) ---------------------------------------------------


def test_report_without_key_signs_the_public_part_only(gpg_world):
    mod, ann = gpg_world.moderator, gpg_world.ann
    token = new_token()
    message = report_mail(PUBLIC, PRIVATE, token, mod.keyring, mod.fingerprint, None, headers())
    raw = message.as_bytes()
    parsed = parse(raw)
    assert parsed.get_content_type() == "multipart/mixed"
    signed, private = parsed.get_payload()
    assert signed.get_content_type() == "multipart/signed"
    assert private.get_content_type() == "text/plain"
    signed_bytes = first_part_bytes(raw, signed.get_boundary())
    assert token_digest(token).encode() in signed_bytes
    assert token.encode() not in signed_bytes
    for line in PRIVATE.splitlines():
        assert line.encode() not in signed_bytes
        assert line in private.get_content()
    assert f"Report token: {token}" in private.get_content()
    result = verify_incoming(raw, ann.keyring)
    assert result.valid and result.fingerprint == mod.fingerprint
    assert "Rd01 (133)" not in result.signed_text
    assert "Rd01 moved to 133" in result.signed_text


def test_report_with_key_encrypts_the_private_part_unsigned(gpg_world):
    mod, ann, bob = gpg_world.moderator, gpg_world.ann, gpg_world.bob
    token = new_token()
    message = report_mail(
        PUBLIC, PRIVATE, token, mod.keyring, mod.fingerprint, ann.fingerprint, headers()
    )
    raw = message.as_bytes()
    for line in PRIVATE.splitlines():
        assert line.encode() not in raw  # nowhere in the clear
    assert token.encode() not in raw
    parsed = parse(raw)
    signed, encrypted = parsed.get_payload()
    assert encrypted.get_content_type() == "multipart/encrypted"
    assert encrypted.get_param("protocol") == "application/pgp-encrypted"
    control, body = encrypted.get_payload()
    assert control.get_content_type() == "application/pgp-encrypted"
    assert "Version: 1" in control.get_payload()
    signed_bytes = first_part_bytes(raw, signed.get_boundary())
    assert b"BEGIN PGP MESSAGE" not in signed_bytes  # the ciphertext is not signed either
    assert token_digest(token).encode() in signed_bytes

    opened = decrypt_mime(encrypted, ann.keyring)
    text = opened.get_content()
    assert PRIVATE.splitlines()[0] in text
    found = re.search(r"Report token: (\S+)", text)
    assert found and found.group(1) == token
    assert token_digest(found.group(1)) in verify_incoming(raw, ann.keyring).signed_text
    with pytest.raises(GpgError, match="no secret key"):
        decrypt_mime(encrypted, bob.keyring)

    ciphertext = body.get_payload(decode=True)
    inner = gnupg.GPG(gnupghome=str(ann.keyring.home)).decrypt(ciphertext)
    assert inner.ok and not inner.valid and inner.signature_id is None  # not signed


def test_each_report_gets_a_fresh_token():
    tokens = {new_token() for _ in range(50)}
    assert len(tokens) == 50
    assert all(len(t) >= 24 for t in tokens)


def test_report_to_a_missing_key_fails_before_sending(gpg_world, stranger):
    mod = gpg_world.moderator
    with pytest.raises(GpgError, match="no public key for recipient"):
        report_mail(
            PUBLIC,
            PRIVATE,
            new_token(),
            mod.keyring,
            mod.fingerprint,
            stranger.fingerprint,
            headers(),
        )


def test_report_carries_the_headers(gpg_world):
    mod = gpg_world.moderator
    message = report_mail(
        PUBLIC, PRIVATE, new_token(), mod.keyring, mod.fingerprint, None, headers()
    )
    parsed = parse(message.as_bytes())
    assert parsed["Subject"] == "[titan g7] turn 3 report"
    assert parsed[LOOP_HEADER] == "g7"
    assert parsed["MIME-Version"] == "1.0"


# -- headers --------------------------------------------------------------------


def test_report_headers_thread_under_the_game_root():
    first, second = headers(), headers()
    root = thread_root_id("g7", "titan.example")
    assert root == "<titan.g7.thread@titan.example>"
    for h in (first, second):
        assert h["Message-ID"].endswith("@titan.example>")
        assert h["In-Reply-To"] == h["References"] == root
        assert h["Auto-Submitted"] == "auto-generated"
        assert h["X-Auto-Response-Suppress"] == "All"
        assert h[LOOP_HEADER] == "g7"
        assert h["Subject"] == "[titan g7] turn 3 report"
        assert h["Date"] == "Fri, 01 Mar 2024 12:30:00 +0000"
    assert first["Message-ID"] != second["Message-ID"]
    assert "precedence" not in {name.lower() for name in first}


def test_reply_headers_thread_under_the_players_mail():
    h = headers(
        in_reply_to="<orders-2@example.org>",
        references="<titan.g7.thread@titan.example> <orders-1@example.org>",
    )
    assert h["Auto-Submitted"] == "auto-replied"
    assert h["In-Reply-To"] == "<orders-2@example.org>"
    assert h["References"].split() == [
        "<titan.g7.thread@titan.example>",
        "<orders-1@example.org>",
        "<orders-2@example.org>",
    ]


def test_the_root_mail_has_no_parent_and_long_chains_are_trimmed():
    root = thread_root_id("g7", "titan.example")
    h = headers(message_id=root)
    assert h["Message-ID"] == root and "In-Reply-To" not in h and "References" not in h
    refs = " ".join(f"<m{i}@example.org>" for i in range(30))
    chain = headers(in_reply_to="<m30@example.org>", references=refs)["References"].split()
    assert len(chain) == 10 and chain[0] == root and chain[-1] == "<m30@example.org>"


def test_header_rules():
    assert tagged_subject("g7", "Re: [titan g7] orders") == "Re: [titan g7] orders"
    with pytest.raises(ValueError, match="time zone"):
        headers(date=datetime(2024, 3, 1))  # naive on purpose
    with pytest.raises(ValueError, match="game id"):
        headers(game="g7 <evil>")
    local = mail_headers(
        game="g7",
        sender="m@titan.example",
        to="a@example.org",
        subject="s",
        date=WHEN.astimezone(timezone(timedelta(hours=2))),
    )
    assert local["Date"].endswith("+0200")


# -- verify_incoming --------------------------------------------------------------


def inline_mail(body: bytes, cte: str = "7bit") -> bytes:
    return (
        b"From: Ann <ann@example.org>\r\nTo: moderator@titan.example\r\n"
        b"Subject: orders\r\nMIME-Version: 1.0\r\n"
        b"Content-Type: text/plain; charset=utf-8\r\n"
        b"Content-Transfer-Encoding: " + cte.encode() + b"\r\n\r\n" + body
    )


def test_inline_clearsigned_orders_verify(gpg_world):
    ann, mod = gpg_world.ann, gpg_world.moderator
    block = ann.keyring.clearsign("move Rd01 to 133\n", ann.fingerprint)
    result = verify_incoming(inline_mail(b"Hi!\n\n" + block + b"\n-- \nAnn\n"), mod.keyring)
    assert result.valid and result.method == "inline"
    assert result.fingerprint == ann.fingerprint
    assert result.signed_text.strip() == "move Rd01 to 133"


def test_inline_clearsigned_in_quoted_printable_verifies(gpg_world):
    ann, mod = gpg_world.ann, gpg_world.moderator
    block = ann.keyring.clearsign("move Rd01 to 133 = fine\n", ann.fingerprint)
    encoded = block.replace(b"=", b"=3D")
    assert verify_incoming(inline_mail(encoded, "quoted-printable"), mod.keyring).valid


def test_unsigned_and_forwarded_mail_is_not_signed(gpg_world):
    ann, mod = gpg_world.ann, gpg_world.moderator
    plain = verify_incoming(inline_mail(b"move Rd01 to 133\n"), mod.keyring)
    assert (plain.valid, plain.reason) == (False, SignatureStatus.NOT_SIGNED)
    signed = signed_mime(["move Rd01 to 133\n"], ann.keyring, ann.fingerprint)
    wrapper = EmailMessage(policy=email.policy.SMTP)
    wrapper["Subject"] = "Fwd: orders"
    wrapper.set_content("see attached\n")
    wrapper.add_attachment(signed)
    forwarded = verify_incoming(wrapper.as_bytes(), mod.keyring)
    assert forwarded.reason is SignatureStatus.NOT_SIGNED


def test_signed_mail_with_a_broken_boundary_is_malformed(gpg_world):
    ann, mod = gpg_world.ann, gpg_world.moderator
    message = signed_mime(["move Rd01 to 133\n"], ann.keyring, ann.fingerprint)
    raw = message.as_bytes()
    boundary = parse(raw).get_boundary().encode()
    body_start = raw.index(b"\r\n\r\n")
    broken = raw[:body_start] + raw[body_start:].replace(b"--" + boundary, b"--x" + boundary)
    result = verify_incoming(broken, mod.keyring)
    assert not result.valid
    assert result.reason in (SignatureStatus.MALFORMED, SignatureStatus.NOT_SIGNED)


# -- real mail from other programs -------------------------------------------------


def corpus_files(folder: str) -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted((CORPUS / folder).glob("*.eml"))


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs /work/shared/mail-corpus")
@pytest.mark.parametrize(
    ("path", "method"),
    [pytest.param(p, "pgp/mime", id=p.name) for p in corpus_files("pgp-mime-signed")]
    + [pytest.param(p, "inline", id=p.name) for p in corpus_files("pgp-inline")],
)
def test_real_signed_mail_is_recognized_as_signed_by_an_unknown_key(gpg_world, path, method):
    result = verify_incoming(path.read_bytes(), gpg_world.moderator.keyring)
    assert result.method == method
    assert not result.valid
    assert result.reason is SignatureStatus.UNKNOWN_KEY
    assert result.issuer
    assert result.signed_data == b""


def test_each_header_class_is_made_once_and_the_names_kept_are_bounded() -> None:
    """Composing a mail asks the policy's registry for each header's class; the standard
    library makes a new class every time, ours keeps one per name (but never more than
    a bound, whatever names a parsed mail brings), and they work as the standard's do."""
    from moderator.mail import compose

    registry = compose.POLICY.header_factory
    assert registry["Content-Type"] is registry["content-type"]
    assert registry["X-Titan-Moderator"] is registry["X-Titan-Moderator"]
    standard = email.policy.SMTP.header_factory
    assert standard["Content-Type"] is not standard["Content-Type"]
    for n in range(2 * header_classes.KEPT):
        registry[f"X-Many-{n}"]
    assert len(registry._made) <= header_classes.KEPT
    part = text_part("the text\n", description="a description")
    assert part["Content-Description"] == "a description"
    assert part.get_content_type() == "text/plain"


def test_a_header_is_parsed_once_and_written_as_the_standard_library_writes_it(gpg_world):
    """
    The mails we compose hand out a header parsed before (the same name and value) rather
    than parse it again at every write; what is written, and so what is signed and
    sent, is byte for byte what the standard library's own registry writes, and a
    report made with headers already kept still verifies.
    """
    from email.headerregistry import HeaderRegistry

    from moderator.mail import compose

    registry = compose.POLICY.header_factory
    assert registry("Content-Type", "text/plain") is registry("Content-Type", "text/plain")
    assert registry("Subject", "one") is not registry("Subject", "two")
    mod, ann = gpg_world.moderator, gpg_world.ann
    standard = compose.POLICY.clone(header_factory=HeaderRegistry())
    for turn in range(2):  # the second report finds its headers kept
        message = report_mail("public", "private", new_token(), mod.keyring, mod.fingerprint,
                              None, mail_headers(game="g7", sender="Titan <moderator@titan.example>",
                                                 to="ann@example.org", date=WHEN,
                                                 subject=f"Report {turn} " + "long words " * 9))
        assert message.as_bytes() == message.as_bytes(policy=standard)
        assert verify_incoming(message.as_bytes(), ann.keyring).valid
    for n in range(2 * header_classes.HEADERS):
        registry("X-Many", str(n))
    assert len(registry._parsed) <= header_classes.HEADERS
