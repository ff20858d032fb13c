"""
Every real mail of the shared corpus through parse -> screen -> extract_text -> order_lines.

The corpus README's table says which mails are automatic (the ``autoreply`` and
``bounce`` categories): those must be dropped without an answer; every other mail is a
person's and must be accepted, with the text a person would read as his own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.message import Message
from pathlib import Path

import pytest

from moderator.mail.intake import (
    Action,
    extract_text,
    game_and_player_hints,
    order_lines,
    parse,
    screen,
)

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "mail-corpus"
if not CORPUS.is_dir():
    pytest.skip(f"no mail corpus at {CORPUS}", allow_module_level=True)

OWN = {"titan@moderator.example"}
AUTOMATIC_CATEGORIES = {"autoreply", "bounce"}


def _readme_table() -> dict[str, str]:
    """File -> category, from the corpus README's table."""
    text = (CORPUS / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([\w-]+) \| ([\w-]+/[\w.-]+\.eml) \|", text, re.MULTILINE)
    return {name: category for category, name in rows}


TABLE = _readme_table()
FILES = sorted(TABLE)
AUTOMATIC = [name for name in FILES if TABLE[name] in AUTOMATIC_CATEGORIES]
HUMAN = [name for name in FILES if TABLE[name] not in AUTOMATIC_CATEGORIES]


def _load(name: str) -> tuple[bytes, Message]:
    raw = (CORPUS / name).read_bytes()
    return raw, parse(raw)


def test_the_readme_table_names_every_file_and_only_those():
    on_disk = {str(path.relative_to(CORPUS)) for path in CORPUS.glob("*/*.eml")}
    assert set(FILES) == on_disk
    assert len(FILES) == 60
    assert (len(AUTOMATIC), len(HUMAN)) == (12, 48)


@pytest.mark.parametrize("name", FILES)
def test_no_step_raises_on_any_mail(name):
    raw, msg = _load(name)
    for kwargs in ({}, {"strict_lists": True, "replies_today": 99}):
        assert screen(msg, own_addresses=OWN, **kwargs).action in set(Action)
    for extracted in (
        extract_text(msg, raw=raw),
        extract_text(msg),
        extract_text(msg, max_bytes=64, max_lines=3, raw=raw[:500]),
    ):
        lines, ignored = order_lines(extracted.text)
        assert all(isinstance(line, str) and line == line.strip() and line for line in lines)
        assert all(isinstance(line, str) for line in ignored)
        game_and_player_hints(msg, extracted.text)


@pytest.mark.parametrize("name", AUTOMATIC)
def test_automatic_mail_is_dropped_without_an_answer(name):
    _, msg = _load(name)
    disposition = screen(msg, own_addresses=OWN)
    assert disposition.action is Action.DROP
    assert not disposition.answer
    assert disposition.reasons


@pytest.mark.parametrize("name", HUMAN)
def test_human_mail_is_accepted(name):
    _, msg = _load(name)
    disposition = screen(msg, own_addresses=OWN, replies_today=0)
    assert disposition.action is Action.ACCEPT, disposition
    assert disposition.answer
    assert disposition.reasons == ()


@pytest.mark.parametrize(
    "name", [n for n in HUMAN if "lists.debian.org" in _load(n)[1].get("List-Id", "")]
)
def test_strict_lists_drops_mail_relayed_by_a_list(name):
    _, msg = _load(name)
    disposition = screen(msg, own_addresses=OWN, strict_lists=True)
    assert disposition.action is Action.DROP
    assert [check for check, _ in disposition.reasons] == ["list-headers"]


def test_a_list_relayed_mail_is_accepted_with_the_list_as_a_signal():
    _, msg = _load("plain/mutt.eml")
    disposition = screen(msg, own_addresses=OWN)
    assert [check for check, _ in disposition.signals] == ["list-headers"]


def test_the_reasons_name_the_signs_of_each_automatic_mail():
    expected = {
        "autoreply/1and1-precedence-bulk.eml": {"precedence", "bounce"},
        "autoreply/exchange-automatic-reply.eml": {"bounce", "autoreply-headers"},
        "autoreply/exchange-read-receipt-mdn.eml": {"report"},
        "autoreply/icloud-vacation.eml": {"autoreply-headers"},
        "autoreply/wp-pl-polish-precedence-junk.eml": {"precedence"},
        "bounce/qmail-failure-notice.eml": {"bounce"},
        "bounce/hotmail-delayed-utf7.eml": {"report", "bounce"},
    }
    for name, checks in expected.items():
        disposition = screen(_load(name)[1], own_addresses=OWN)
        assert {check for check, _ in disposition.reasons} == checks, name


@dataclass(frozen=True)
class Expect:
    """What a person's mail must give: its order lines (all, or the first ones) and more."""

    lines: tuple[str, ...] | None = None
    first: tuple[str, ...] = ()
    count: int | None = None
    kind: str = "text/plain"
    part: str = "1"
    notes: tuple[str, ...] = ()
    signed: str | None = None


EXPECTED = {
    # quoted replies: only the new text remains
    "reply-quoted/gmail.eml": Expect(lines=("Hello",)),
    "reply-quoted/outlook.eml": Expect(lines=("Hello",)),
    "reply-quoted/yahoo.eml": Expect(lines=("Hello",)),
    "reply-quoted/hotmail.eml": Expect(lines=("Hello",)),
    "reply-quoted/android-gmail-base64.eml": Expect(lines=("Hello",)),
    "reply-quoted/thunderbird-flowed.eml": Expect(lines=("Hello",)),
    "encoding/outlook-mac-base64-german-quote.eml": Expect(
        lines=(
            "Hi Christian,",
            "habs gerade getestet:",
            "«This is a test… Some more test.",
            "They test..”",
            "Test test.",
            "Test test!",
            "Test",
        )
    ),
    "long-lines/unwrapped-base64-single-line.eml": Expect(
        first=(
            (
                "Hi Katharine.  Sounds great.  Are there and dietry restrictions or things your "
                "husband does/doesn't like to eat?  Would you like to do a few hors d oeuvres and "
                "then a 3 or 4 course dinner?  Let me know what you think will work best and I will "
                "start working on a menu and proposal.  Thanks so much and look forward to hearing "
                "from you soon."
            ),
            "Joe XXX",
        ),
        count=2,
    ),
    # HTML only
    "html/gmx-webmail-html-only.eml": Expect(
        lines=("YIPPEEEEEE", "Multi-line"), kind="text/html", notes=("html",)
    ),
    "html/all-inkl-webmail-html-qp-latin1.eml": Expect(lines=("It's 1.0.",), kind="text/html"),
    "html/open-xchange-related-html-only.eml": Expect(
        lines=("Guten Abend,", "Lots of text", "text with Umlaut ä...", "MfG"), kind="text/html"
    ),
    "html/apple-mail-inline-cid-image.eml": Expect(lines=("a jpeg",)),
    "long-lines/thunderbird-html-1000-char-line.eml": Expect(first=(), count=3, kind="text/html"),
    # charsets
    "charset/thunderbird-iso-2022-jp.eml": Expect(
        lines=(
            "Let's see if both subject and body works fine...",
            "日本語が",
            "正常に",
            "送れているか",
            "テスト.",
        )
    ),
    "charset/docomo-shift-jis-8bit.eml": Expect(
        lines=(
            "あいうえお",
            "このメールはテスト用のメールです。",
            "今後ともよろしくお願い申し上げます！",
        )
    ),
    "charset/thunderbird-windows-1252-8bit.eml": Expect(lines=("foo bar ä ö ü ß",)),
    "charset/koi8-r-undeclared-8bit.eml": Expect(
        lines=(
            "ЧТО ТАКОЕ РЕКЛАМНАЯ РАССЫЛКА?",
            "Какой отклик ждать от этого метода поиска клиентов?",
        )
    ),
    "charset/thunderbird2-iso-8859-15-qp.eml": Expect(first=("Package: wesnoth",), count=32),
    "charset/gnus-qp-latin1-utf8-header.eml": Expect(first=("Package: texlive-base",), count=38),
    "encoding/evolution-8bit-utf8.eml": Expect(lines=("Превел", "123")),
    "encoding/gmail-quoted-printable-soft-breaks.eml": Expect(
        first=(
            "Hello Bob,",
            "Please note that this email contains extremely long links:",
            (
                "http://translate.google.com/translate?sl=de&tl=en&u=http%3A%2F%2Fwww.horizont.at"
                "%2Fhome%2Fdetail%2Fgoogle-ist-geldgeber-von-adblock-plus.html&act=url"
            ),
        ),
        count=6,
    ),
    "encoding/eudora-x-uuencode.eml": Expect(
        lines=("Attached are the comments of the Public Generating Pool.",)
    ),
    # PGP
    "pgp-inline/kmail-qp-partially-signed.eml": Expect(
        lines=("ohno öäü",), notes=("clearsigned", "unsigned-text: 1 line"), signed="clearsigned"
    ),
    "pgp-inline/mutt-x-action-pgp-signed.eml": Expect(
        first=("Package: exim4-base", "Version: 4.63-17", "Severity: normal"),
        signed="clearsigned",
    ),
    "pgp-inline/debian-dsa-clearsigned-mbox.eml": Expect(
        first=("Debian Security Advisory DSA-1553-1                  security@debian.org",),
        signed="clearsigned",
    ),
    "pgp-mime-signed/evolution-2.22.eml": Expect(
        first=("Package: evolution-rss", "Version: 0.0.8-1"), signed="pgp-mime"
    ),
    "pgp-mime-signed/gnus-via-mailman-footer.eml": Expect(
        lines=(
            "Hello!",
            "The GnuPG team is pleased to announce the availability of a new release",
            "of GnuPG: version 2.1.20.  See below for a list of new features and bug",
            "fixes.",
            "About GnuPG",
        ),
        part="1.1",
        notes=("more-text: 1",),
        signed="pgp-mime",
    ),
    "pgp-mime-signed/apple-mail-gpgmail.eml": Expect(
        first=("…", "Quonk"), part="1.1", signed="pgp-mime"
    ),
    "pgp-mime-signed/thunderbird-102-autocrypt.eml": Expect(
        lines=(), part="1.1.1", signed="pgp-mime"
    ),
    # attachments
    "attachment/iphone-inline-image-split-text.eml": Expect(
        lines=("First we have a text block, then we insert an image:",), notes=("more-text: 1",)
    ),
    "attachment/k9-forwarded-message-rfc822.eml": Expect(
        lines=("I attached the .EML file",), part="1.1"
    ),
    "attachment/thunderbird-mac-pdf-rfc2231-continuation.eml": Expect(lines=("mail body",)),
    "attachment/thunderbird-jpeg-as-octet-stream.eml": Expect(lines=()),
    "attachment/apple-mail-rfc2231-japanese-filename.eml": Expect(
        lines=(), kind="", part="", notes=("no-text",)
    ),
    # malformed
    "malformed/gmail-missing-content-type.eml": Expect(
        lines=("Hello,", "I'm just testing message parsing", "BR,", "Bob")
    ),
    "malformed/literal-backslash-r-n-in-header.eml": Expect(
        first=(
            "Der VIS organisiert zusammen mit eBay einen TechTalk am 03. Mai 2018.",
            "Nachfolgend findest du alle weiteren Informationen.",
            "Liebe Grüsse",
        )
    ),
    "malformed/sms-gateway-charset-x-unknown.eml": Expect(
        lines=("Test test. Hi. Waving. m",), notes=("charset-unknown",)
    ),
    "malformed/outlook-express-mac-reused-boundary.eml": Expect(
        lines=("Some removed test.",), part="2"
    ),
    "malformed/spam-mismatched-boundaries.eml": Expect(
        first=("Problemas para visualizar | Ver on-line",), kind="text/html", notes=("salvaged",)
    ),
    "malformed/windows-live-mail-duplicate-content-type.eml": Expect(
        first=("Hey;)", "how so? It's Maria"), count=3, notes=("duplicate-header", "boundary-cut")
    ),
    "malformed/to-header-blank-continuation.eml": Expect(
        first=('<?xml version="1.0" encoding="UTF-8"?>',)
    ),
    # plain
    "plain/apple-mail-crlf.eml": Expect(lines=("Plain email.", "Hope it works well!", "Mikel")),
    "plain/mutt.eml": Expect(
        lines=(
            "Package: cupsddk",
            "Version: 1.2.3-1",
            "Severity: serious",
            "Atleast dpatch build-dependency missing...",
        )
    ),
    "plain/alpine-flowed.eml": Expect(first=("Package: linux-image-2.6.24-1-686",), count=100),
}


def test_every_expectation_names_a_human_mail():
    assert set(EXPECTED) <= set(HUMAN)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_text_a_person_wrote(name):
    expect = EXPECTED[name]
    raw, msg = _load(name)
    extracted = extract_text(msg, raw=raw)
    lines, _ = order_lines(extracted.text)
    if expect.lines is not None:
        assert lines == list(expect.lines)
    assert lines[: len(expect.first)] == list(expect.first)
    if expect.count is not None:
        assert len(lines) == expect.count
    assert (extracted.content_type, extracted.source_part) == (expect.kind, expect.part)
    for note in expect.notes:
        assert any(note in each for each in extracted.notes), extracted.notes
    assert (extracted.signed.kind if extracted.signed else None) == expect.signed


@pytest.mark.parametrize("name", [n for n in FILES if n.startswith("pgp-mime-signed/")])
def test_pgp_mime_keeps_the_signed_part_bytes_and_the_signature(name):
    raw, msg = _load(name)
    signed = extract_text(msg, raw=raw).signed
    assert signed is not None and signed.kind == "pgp-mime" and signed.exact
    assert signed.hash_name.lower().startswith("pgp-sha")
    assert signed.signature.lstrip().startswith(b"-----BEGIN PGP SIGNATURE-----")
    assert b"\n" not in signed.signed_bytes.replace(b"\r\n", b"")  # CRLF line ends only
    container = next(p for p in msg.walk() if p.get_content_type() == "multipart/signed")
    first = container.get_payload()[0]
    reparsed = parse(signed.signed_bytes)
    assert reparsed.get_content_type() == first.get_content_type()
    if first.is_multipart():
        assert reparsed.get_boundary() == first.get_boundary()
        assert len(reparsed.get_payload()) == len(first.get_payload())
    else:
        body = reparsed.get_payload(decode=True).replace(b"\r\n", b"\n")
        assert body == first.get_payload(decode=True).replace(b"\r\n", b"\n")
    assert signed.signed_bytes.replace(b"\r\n", b"\n") in raw.replace(b"\r\n", b"\n")


@pytest.mark.parametrize("name", [n for n in FILES if n.startswith("pgp-inline/")])
def test_clearsigned_text_is_unwrapped_and_the_block_kept(name):
    raw, msg = _load(name)
    extracted = extract_text(msg, raw=raw)
    signed = extracted.signed
    assert extracted.clearsigned and signed is not None
    assert signed.signed_bytes.startswith(b"-----BEGIN PGP SIGNED MESSAGE-----")
    assert signed.signed_bytes.rstrip().endswith(b"-----END PGP SIGNATURE-----")
    assert signed.signature.startswith(b"-----BEGIN PGP SIGNATURE-----")
    assert signed.signed_bytes.endswith(signed.signature)
    assert "BEGIN PGP" not in extracted.text
    assert not any(line.startswith("- ") for line in extracted.text.splitlines())


def test_the_sender_hint_is_the_from_address():
    _, msg = _load("charset/thunderbird2-iso-8859-15-qp.eml")
    hints = game_and_player_hints(msg, extract_text(msg).text)
    assert (hints.sender, hints.sender_name) == ("matthias.krueger@famsik.de", "Matthias Krüger")
    assert hints.game is None and hints.secret is None
