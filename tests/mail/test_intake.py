"""
Unit tests of the mail intake: each check, the text extraction and the order lines.

Mails are written out as RFC 5322 text (Mailman's ``mfs`` style): the .eml text goes in,
the disposition, text or order lines come out.  A Hypothesis fuzz test feeds arbitrary
bytes and arbitrary MIME trees through every step: none of them may raise.
"""

from __future__ import annotations

import base64
import importlib
import quopri
import textwrap
from email import policy as email_policy
from email.message import EmailMessage

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moderator.mail import intake
from moderator.mail.checks import CHAIN, Context, Link, ReplyBudget
from moderator.mail.checks.base import header_text
from moderator.mail.intake import (
    Action,
    extract_text,
    game_and_player_hints,
    order_lines,
    parse,
    screen,
)

OWN = {"titan@moderator.example"}


def mfs(text: str, *, body: bytes = b"") -> tuple[bytes, EmailMessage]:
    """The raw bytes and the parsed mail of a mail written as text (plus raw body bytes)."""
    raw = textwrap.dedent(text).lstrip("\n").encode("utf-8") + body
    return raw, parse(raw)


def disposition_of(text: str, **kwargs):
    return screen(mfs(text)[1], own_addresses=OWN, **kwargs)


def lines_of(text: str, **kwargs) -> list[str]:
    raw, msg = mfs(text)
    return order_lines(extract_text(msg, raw=raw, **kwargs).text)[0]


PLAIN = """\
    From: Ann <ann@example.org>
    To: titan@moderator.example
    Subject: [titan g7] orders
    Message-ID: <1@example.org>

    split Rd01 into Rd03: ogre ogre
    roll
    """


# -- the chain -------------------------------------------------------------------


def test_the_chain_is_a_table_of_named_checks():
    names = [link.name for link in CHAIN]
    assert len(names) == len(set(names))
    for link in CHAIN:
        module = importlib.import_module(link.check.__module__)
        assert link.name == module.NAME
        assert module.DESCRIPTION
        assert link.action in set(Action)


def test_a_plain_mail_from_a_person_is_accepted():
    disposition = disposition_of(PLAIN)
    assert disposition == intake.Disposition(action=Action.ACCEPT)
    assert disposition.answer


@pytest.mark.parametrize(
    ("header", "check"),
    [
        ("Auto-Submitted: auto-replied", "auto-submitted"),
        ("Auto-Submitted: auto-generated; owner-email=x@example.org", "auto-submitted"),
        ("Precedence: bulk", "precedence"),
        ("Precedence: JUNK", "precedence"),
        ("X-Auto-Response-Suppress: All", "autoreply-headers"),
        ("X-Autoreply: yes", "autoreply-headers"),
        ("X-Autorespond: on", "autoreply-headers"),
        ("X-Apple-Action: VACATION", "autoreply-headers"),
        ("Return-Path: <>", "bounce"),
        ("Return-Path: < >", "bounce"),
        ("X-Failed-Recipients: bob@example.org", "bounce"),
        ("X-Titan-Moderator: g7", "loop"),
        ("X-Loop: Titan+g7@Moderator.Example", "loop"),
    ],
)
def test_an_automatic_header_drops_the_mail(header, check):
    disposition = disposition_of(f"{header}\n{textwrap.dedent(PLAIN)}")
    assert disposition.action is Action.DROP
    assert not disposition.answer
    assert check in [name for name, _ in disposition.reasons]


@pytest.mark.parametrize(
    "header",
    [
        "Auto-Submitted: no",
        "Auto-Submitted: No (a person)",
        "X-Loop: owner@bugs.debian.org",
        "Return-Path: <ann@example.org>",
        "Precedence: first-class",
    ],
)
def test_headers_that_are_not_ours_or_automatic_do_not_count(header):
    assert disposition_of(f"{header}\n{textwrap.dedent(PLAIN)}").action is Action.ACCEPT


@pytest.mark.parametrize(
    "sender",
    [
        "MAILER-DAEMON@mx.example.org",
        "Mail Delivery System <mailer-daemon@mx.example.org>",
        "MAILER-DAEMON (Mail Delivery System)",
    ],
)
def test_mail_from_the_mailer_daemon_is_a_bounce(sender):
    disposition = disposition_of(f"From: {sender}\nSubject: failure notice\n\nsorry\n")
    assert [name for name, _ in disposition.reasons] == ["bounce"]


def test_postmaster_alone_is_a_weak_sign_only():
    disposition = disposition_of("From: Bob <postmaster@example.org>\nSubject: hi\n\nroll\n")
    assert disposition.action is Action.ACCEPT
    assert [name for name, _ in disposition.signals] == ["role-sender"]


@pytest.mark.parametrize(
    "sender",
    ["titan@moderator.example", "TITAN+g7@moderator.example", "Titan <titan@Moderator.Example>"],
)
def test_mail_from_our_own_address_is_dropped(sender):
    disposition = disposition_of(f"From: {sender}\nSubject: [titan g7] report\n\nstatus\n")
    assert disposition.action is Action.DROP
    assert [name for name, _ in disposition.reasons] == ["own-address"]


def test_own_addresses_are_the_callers():
    text = "From: ref@club.example\nSubject: hi\n\nroll\n"
    assert screen(mfs(text)[1], own_addresses=["REF@club.example"]).action is Action.DROP
    assert screen(mfs(text)[1], own_addresses=[]).action is Action.ACCEPT


def test_a_loop_header_of_our_own_choice():
    text = "From: a@example.org\nX-Judge: g7\n\nroll\n"
    assert disposition_of(text).action is Action.ACCEPT
    assert disposition_of(text, loop_header="X-Judge").action is Action.DROP


DSN = """\
    From: Mail Delivery Subsystem <daemon@relay.example>
    Subject: Returned mail
    MIME-Version: 1.0
    Content-Type: multipart/report; report-type=delivery-status; boundary="B"

    --B
    Content-Type: text/plain

    Your mail could not be delivered.
    --B
    Content-Type: message/delivery-status

    Reporting-MTA: dns; relay.example

    Final-Recipient: rfc822; bob@example.org
    Action: failed
    Status: 5.1.1
    --B--
    """


def test_a_delivery_status_notification_is_dropped():
    disposition = disposition_of(DSN)
    assert disposition.action is Action.DROP
    assert disposition.reasons == (("report", "multipart/report; report-type=delivery-status"),)


def test_a_read_receipt_part_is_dropped_even_outside_multipart_report():
    text = DSN.replace("multipart/report; report-type=delivery-status", "multipart/mixed")
    text = text.replace("message/delivery-status", "message/disposition-notification")
    assert [name for name, _ in disposition_of(text).reasons] == ["report"]


def test_a_bounce_forwarded_as_an_attachment_is_a_persons_mail():
    forwarded = textwrap.dedent(DSN)
    text = (
        "From: Ann <ann@example.org>\nSubject: Fwd: my orders bounced\nMIME-Version: 1.0\n"
        'Content-Type: multipart/mixed; boundary="OUT"\n\n--OUT\nContent-Type: text/plain\n\n'
        "See below.\n--OUT\nContent-Type: message/rfc822\n\n" + forwarded + "\n--OUT--\n"
    )
    disposition = disposition_of(text)
    assert disposition.action is Action.ACCEPT
    raw, msg = mfs(text)
    assert extract_text(msg, raw=raw).text == "See below."


def test_list_headers_alone_are_a_signal():
    disposition = disposition_of("List-Id: <game.lists.example>\n" + textwrap.dedent(PLAIN))
    assert disposition.action is Action.ACCEPT
    assert [name for name, _ in disposition.signals] == ["list-headers"]


def test_list_headers_drop_the_mail_under_strict_lists():
    text = "Precedence: list\n" + textwrap.dedent(PLAIN)
    disposition = disposition_of(text, strict_lists=True)
    assert disposition.action is Action.DROP
    assert disposition.reasons == (("list-headers", "mailing-list headers: Precedence: list"),)


@pytest.mark.parametrize(
    "subject",
    [
        "Automatic reply: orders",
        "Out of Office: away",
        "Abwesenheitsnotiz",
        "Auto-Reply",
        "[Automatyczna =?iso-8859-2?Q?odpowied=BC?=] test",
        "I am on vacation",
    ],
)
def test_a_vacation_subject_is_weak_alone_and_drops_with_another_sign(subject):
    alone = disposition_of(f"From: ann@example.org\nSubject: {subject}\n\nroll\n")
    assert alone.action is Action.ACCEPT
    assert [name for name, _ in alone.signals] == ["vacation-subject"]
    with_list = disposition_of(
        f"From: ann@example.org\nList-Unsubscribe: <mailto:x@example.org>\nSubject: {subject}\n\nhi\n"
    )
    assert with_list.action is Action.DROP
    assert {name for name, _ in with_list.reasons} == {"vacation-subject", "list-headers"}


def test_no_sender_address_is_a_weak_sign():
    disposition = disposition_of("From: =?utf-8?q?Ann?=\nSubject: orders\n\nroll\n")
    assert disposition.action is Action.ACCEPT
    assert [name for name, _ in disposition.signals] == ["no-sender"]
    noreply = disposition_of("Subject: Out of office\n\nroll\n")
    assert noreply.action is Action.DROP


def test_an_encrypted_mail_gets_a_reply_only():
    text = (
        "From: ann@example.org\nMIME-Version: 1.0\nContent-Type: multipart/encrypted;"
        ' protocol="application/pgp-encrypted"; boundary="E"\n\n--E\n'
        "Content-Type: application/pgp-encrypted\n\nVersion: 1\n--E\n"
        "Content-Type: application/octet-stream\n\n-----BEGIN PGP MESSAGE-----\nxx\n--E--\n"
    )
    raw, msg = mfs(text)
    disposition = screen(msg, own_addresses=OWN)
    assert disposition.action is Action.REPLY_ONLY and disposition.answer
    extracted = extract_text(msg, raw=raw)
    assert extracted.text == ""
    assert any(note.startswith("encrypted") for note in extracted.notes)


def test_the_reply_budget_is_pure_arithmetic():
    budget = ReplyBudget(per_day=3)
    assert [budget.check(n).hit for n in range(5)] == [False, False, False, True, True]
    assert [budget.remaining(n) for n in (-1, 0, 2, 3, 9)] == [3, 3, 1, 0, 0]


def test_mail_beyond_the_reply_budget_is_held_not_lost():
    assert disposition_of(PLAIN, replies_today=9).action is Action.ACCEPT
    held = disposition_of(PLAIN, replies_today=10)
    assert held.action is Action.HOLD and not held.answer
    assert held.reasons == (("reply-budget", "10 replies today, the budget is 10"),)
    assert disposition_of(PLAIN, replies_today=4, budget=ReplyBudget(4)).action is Action.HOLD


def test_the_worst_action_wins():
    disposition = disposition_of("Precedence: bulk\n" + textwrap.dedent(PLAIN), replies_today=50)
    assert disposition.action is Action.DROP
    assert [name for name, _ in disposition.reasons] == ["precedence", "reply-budget"]


def test_a_check_that_crashes_holds_the_mail(monkeypatch):
    def broken(msg, ctx: Context):
        raise RuntimeError("boom")

    monkeypatch.setattr(intake, "CHAIN", (*CHAIN, Link("broken", broken, Action.DROP)))
    disposition = disposition_of(PLAIN)
    assert disposition.action is Action.HOLD
    assert disposition.reasons == (("broken", "check failed: RuntimeError('boom')"),)


# -- parse ---------------------------------------------------------------------------


def test_parse_takes_an_mbox_from_line_and_leading_blank_lines():
    msg = parse(
        b"\r\n\nFrom ann@example.org Sat Jan  3 01:05:34 1996\nFrom: ann@example.org\n\nroll\n"
    )
    assert msg.get_unixfrom().startswith("From ann@example.org")
    assert header_text(msg, "From") == "ann@example.org"
    assert extract_text(msg).text == "roll"


@pytest.mark.parametrize("raw", [b"", b"\x00\xff\xfe", b"no headers at all", b":\n\n", b"From:\n"])
def test_parse_takes_anything(raw):
    msg = parse(raw)
    assert isinstance(msg, EmailMessage)
    screen(msg, own_addresses=OWN)
    order_lines(extract_text(msg).text)


def test_every_mail_is_read_with_compat32_to_stay_fast():
    msg = parse(b"From: a@example.org\nSubject: " + b"=?utf-8?q?a?= " * 1000 + b"\n\nroll\n")
    assert msg.policy is email_policy.compat32
    assert header_text(msg, "Subject") == "a" * 1000
    assert parse(textwrap.dedent(PLAIN).encode()).policy is email_policy.compat32


# -- extract_text --------------------------------------------------------------------


def test_a_plain_mail_gives_its_text():
    raw, msg = mfs(PLAIN)
    extracted = extract_text(msg, raw=raw)
    assert extracted.text == "split Rd01 into Rd03: ogre ogre\nroll"
    assert (extracted.source_part, extracted.content_type, extracted.charset) == (
        "1",
        "text/plain",
        "utf-8",
    )
    assert extracted.notes == () and extracted.signed is None


def _single(content_type: str, body: bytes, cte: str = "8bit", extra: str = "") -> str:
    return (
        "From: ann@example.org\nMIME-Version: 1.0\n"
        f"Content-Type: {content_type}\nContent-Transfer-Encoding: {cte}\n{extra}\n"
    ), body


@pytest.mark.parametrize(
    ("content_type", "body", "text", "charset", "note"),
    [
        ("text/plain; charset=utf-8", "roll ä".encode(), "roll ä", "utf-8", None),
        ("text/plain; charset=iso-8859-1", "Grüße".encode("latin-1"), "Grüße", "cp1252", None),
        ("text/plain; charset=windows-1252", b"\x93roll\x94", "\u201croll\u201d", "cp1252", None),
        (
            "text/plain; charset=utf-8",
            "Grüße".encode("latin-1"),
            "Grüße",
            "cp1252",
            "charset-fallback",
        ),
        ("text/plain; charset=us-ascii", "Grüße".encode(), "Grüße", "utf-8", "charset-fallback"),
        ("text/plain; charset=x-unknown", "é".encode(), "é", "utf-8", "charset-unknown"),
        ("text/plain; charset=rot13", b"roll", "roll", "utf-8", "charset-unknown"),
        ("text/plain; charset=unicode_escape", b"\\u0041", "\\u0041", "utf-8", "charset-unknown"),
        ("text/plain", "Grüße".encode(), "Grüße", "utf-8", None),
        ("text/plain; charset=koi8-r", "Привет".encode("koi8-r"), "Привет", "koi8-r", None),
        ("text/plain; charset=shift_jis", "テスト".encode("cp932"), "テスト", "cp932", None),
    ],
)
def test_charsets_with_fallbacks(content_type, body, text, charset, note):
    head, data = _single(content_type, body)
    raw = head.encode() + data
    extracted = extract_text(parse(raw), raw=raw)
    assert (extracted.text, extracted.charset) == (text, charset)
    if note:
        assert any(each.startswith(note) for each in extracted.notes), extracted.notes
    else:
        assert extracted.notes == ()


def test_base64_and_quoted_printable_are_decoded():
    text = "move Rd01 to 6\nsplit Rd02 into Rd04: centaur – gargoyle\n"
    for cte, body in (
        ("base64", base64.encodebytes(text.encode())),
        ("quoted-printable", quopri.encodestring(text.encode())),
    ):
        head, data = _single("text/plain; charset=utf-8", body, cte)
        assert extract_text(parse(head.encode() + data)).text == text.strip()


def test_format_flowed_lines_are_joined():
    body = b"split Rd01 into Rd03: ogre \nogre\n> quoted soft \n> break\n-- \nAnn\n"
    head, data = _single("text/plain; charset=utf-8; format=flowed", body)
    assert extract_text(parse(head.encode() + data)).text == (
        "split Rd01 into Rd03: ogre ogre\n> quoted soft break\n-- \nAnn"
    )
    head, data = _single("text/plain; format=flowed; delsp=yes", b"Rd0 \n1\n")
    assert extract_text(parse(head.encode() + data)).text == "Rd01"


HTML = """\
    From: Ann <ann@example.org>
    MIME-Version: 1.0
    Content-Type: text/html; charset=utf-8

    <html><head><title>Orders</title><style>p {color: red}</style>
    <script>alert("x")</script></head><body>
    <div>split Rd01 into Rd03:&nbsp;ogre ogre</div><p>roll</p>move Rd01<br>to 6<br/>
    <ul><li>done</li><li>colour   red &amp; blue</li></ul>
    <table><tr><td>move</td><td>Rd02</td><td>to 7</td></tr></table>
    <div class="gmail_signature">Ann Smith</div>
    </body></html>
    """


def test_html_only_mail_is_turned_into_lines():
    raw, msg = mfs(HTML)
    extracted = extract_text(msg, raw=raw)
    assert extracted.content_type == "text/html"
    assert "html: converted to text" in extracted.notes
    assert order_lines(extracted.text) == (
        [
            "split Rd01 into Rd03: ogre ogre",
            "roll",
            "move Rd01",
            "to 6",
            "done",
            "colour red & blue",
            "move Rd02 to 7",
        ],
        ["Ann Smith"],
    )
    assert "alert" not in extracted.text and "color" not in extracted.text
    assert "Orders" not in extracted.text


def test_html_quotes_become_quoted_lines():
    raw, msg = mfs("""\
        From: ann@example.org
        Content-Type: text/html

        <div>roll</div><div class="gmail_quote">On Mon, Apr 2, 2012 at 6:26 PM, Bob &lt;bob@example.org&gt; wrote:<br>
        <blockquote>Your turn<br>status</blockquote></div>
        <pre>a  b
        c</pre>
        """)
    text = extract_text(msg, raw=raw).text
    assert text.splitlines() == [
        "roll",
        "",
        "> On Mon, Apr 2, 2012 at 6:26 PM, Bob <bob@example.org> wrote:",
        "",
        ">> Your turn",
        ">> status",
        "",
        "a  b",
        "c",
    ]
    assert order_lines(text)[0] == ["roll", "a  b", "c"]


ALTERNATIVE = """\
    From: ann@example.org
    MIME-Version: 1.0
    Content-Type: multipart/alternative; boundary="ALT"

    --ALT
    Content-Type: text/html; charset=utf-8

    <p>from html</p>
    --ALT
    Content-Type: text/plain; charset=utf-8

    from plain
    --ALT--
    """


def test_the_plain_alternative_wins_over_html_in_any_order():
    raw, msg = mfs(ALTERNATIVE)
    extracted = extract_text(msg, raw=raw)
    assert (extracted.text, extracted.source_part) == ("from plain", "2")


def test_attachments_and_attached_mails_are_skipped():
    raw, msg = mfs("""\
        From: ann@example.org
        MIME-Version: 1.0
        Content-Type: multipart/mixed; boundary="MIX"

        --MIX
        Content-Type: text/plain; name="old-orders.txt"
        Content-Disposition: attachment; filename="old-orders.txt"

        move Rd09 to 1
        --MIX
        Content-Type: message/rfc822

        From: bob@example.org
        Content-Type: text/plain

        forwarded text
        --MIX
        Content-Type: multipart/alternative; boundary="ALT"

        --ALT
        Content-Type: text/plain

        the real orders
        --ALT--
        --MIX--
        """)
    extracted = extract_text(msg, raw=raw)
    assert (extracted.text, extracted.source_part) == ("the real orders", "3.1")


def test_a_mail_with_attachments_only_has_no_text():
    raw, msg = mfs("""\
        From: ann@example.org
        Content-Type: multipart/mixed; boundary="M"

        --M
        Content-Type: text/plain
        Content-Disposition: attachment; filename=a.txt

        roll
        --M--
        """)
    extracted = extract_text(msg, raw=raw)
    assert (extracted.text, extracted.source_part) == ("", "")
    assert extracted.notes == ("no-text: no text/plain or text/html body (1 attachment(s) left)",)


CLEARSIGNED = """\
    From: ann@example.org
    Content-Type: text/plain; charset=utf-8

    Hi, my orders:

    -----BEGIN PGP SIGNED MESSAGE-----
    Hash: SHA256

    split Rd01 into Rd03: ogre ogre
    - -- not a signature
    roll
    -----BEGIN PGP SIGNATURE-----

    iQEzBAEBCAAdFiEE
    =abcd
    -----END PGP SIGNATURE-----
    --
    list footer
    """


def test_a_clearsigned_body_is_unwrapped_and_kept_for_the_check():
    raw, msg = mfs(CLEARSIGNED)
    extracted = extract_text(msg, raw=raw)
    assert extracted.text == "split Rd01 into Rd03: ogre ogre\n-- not a signature\nroll"
    assert extracted.clearsigned
    signed = extracted.signed
    assert signed is not None and signed.hash_name == "SHA256" and signed.exact
    block = textwrap.dedent(CLEARSIGNED).encode()
    start = block.index(b"-----BEGIN PGP SIGNED")
    end = block.index(b"-----END PGP SIGNATURE-----") + len(b"-----END PGP SIGNATURE-----")
    assert signed.signed_bytes == block[start:end]
    assert signed.signature == block[block.index(b"-----BEGIN PGP SIGNATURE") : end]
    assert "unsigned-text: 3 line(s) outside the signed block not read" in extracted.notes
    assert order_lines(extracted.text) == (
        ["split Rd01 into Rd03: ogre ogre", "-- not a signature", "roll"],
        [],
    )


def test_a_clearsigned_block_without_its_signature_is_not_signed():
    text = CLEARSIGNED.split("    -----BEGIN PGP SIGNATURE-----")[0]
    raw, msg = mfs(text)
    extracted = extract_text(msg, raw=raw)
    assert extracted.signed is None and not extracted.clearsigned
    assert extracted.text.splitlines()[0] == "split Rd01 into Rd03: ogre ogre"
    assert any(note.startswith("clearsigned-broken") for note in extracted.notes)


PGP_MIME = (
    b"From: ann@example.org\r\nMIME-Version: 1.0\r\n"
    b'Content-Type: multipart/signed; micalg=pgp-sha256;\r\n protocol="application/pgp-signature";'
    b' boundary="SIG"\r\n\r\nThis is an OpenPGP/MIME signed message.\r\n--SIG\r\n'
    b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
    b"roll  \r\nmove Rd01 to 6=\r\n\r\n--SIG\r\n"
    b'Content-Type: application/pgp-signature; name="signature.asc"\r\n\r\n'
    b"-----BEGIN PGP SIGNATURE-----\r\n\r\niHUEARYIAB0WIQ\r\n-----END PGP SIGNATURE-----\r\n"
    b"--SIG--\r\n"
)


def test_pgp_mime_gives_the_signed_part_bytes_cut_from_the_raw_mail():
    msg = parse(PGP_MIME)
    extracted = extract_text(msg, raw=PGP_MIME)
    assert extracted.text == "roll  \nmove Rd01 to 6"
    assert extracted.source_part == "1"
    signed = extracted.signed
    assert signed is not None and (signed.kind, signed.hash_name, signed.exact) == (
        "pgp-mime",
        "pgp-sha256",
        True,
    )
    assert signed.signed_bytes == (
        b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable"
        b"\r\n\r\nroll  \r\nmove Rd01 to 6=\r\n"
    )
    assert (
        signed.signature
        == b"-----BEGIN PGP SIGNATURE-----\r\n\r\niHUEARYIAB0WIQ\r\n-----END PGP SIGNATURE-----"
    )
    lf_mail = PGP_MIME.replace(b"\r\n", b"\n")
    from_lf = extract_text(parse(lf_mail), raw=lf_mail).signed
    assert from_lf is not None and from_lf.signed_bytes == signed.signed_bytes  # CRLF either way


def test_pgp_mime_without_raw_bytes_is_written_out_again_and_says_so():
    extracted = extract_text(parse(PGP_MIME))
    assert extracted.signed is not None and not extracted.signed.exact
    assert any("no raw bytes" in note for note in extracted.notes)


def test_text_outside_the_signed_part_is_not_signed():
    wrapped = (
        b'From: ann@example.org\nContent-Type: multipart/mixed; boundary="OUT"\n\n--OUT\n'
        b"Content-Type: text/plain\n\nunsigned first\n--OUT\n"
        + PGP_MIME.split(b"\r\n\r\n", 1)[0].split(b"MIME-Version: 1.0\r\n")[1]
        + b"\n\n"
        + PGP_MIME.split(b"\r\n\r\n", 1)[1]
        + b"\n--OUT--\n"
    )
    extracted = extract_text(parse(wrapped), raw=wrapped)
    assert (extracted.text, extracted.signed) == ("unsigned first", None)


def test_the_limits_cut_bytes_and_lines_and_say_so():
    head, data = _single(
        "text/plain; charset=utf-8", "\n".join(f"roll {i} ä" for i in range(50)).encode()
    )
    raw = head.encode() + data
    short = extract_text(parse(raw), max_bytes=21, raw=raw)
    assert short.text == "roll 0 ä\nroll 1 ä\nr"
    assert short.notes[0].startswith("truncated: read 21 of")
    few = extract_text(parse(raw), max_lines=3, raw=raw)
    assert few.text.splitlines() == ["roll 0 ä", "roll 1 ä", "roll 2 ä"]
    assert few.notes == ("truncated: kept 3 of 50 lines",)


def test_a_multibyte_character_cut_by_the_byte_limit_does_not_change_the_charset():
    head, data = _single("text/plain; charset=utf-8", "ää".encode())
    extracted = extract_text(parse(head.encode() + data), max_bytes=3)
    assert (extracted.text, extracted.charset) == ("ä", "utf-8")


def test_a_broken_multipart_is_salvaged():
    raw, msg = mfs("""\
        From: ann@example.org
        MIME-Version: 1.0
        Content-Type: multipart/alternative; boundary="DECLARED"

        --OTHER
        Content-Type: text/plain

        roll
        --OTHER--
        """)
    extracted = extract_text(msg, raw=raw)
    assert extracted.text == "roll"
    assert extracted.notes == ("salvaged: boundary 'OTHER' used instead of the declared one",)


def test_nul_characters_are_removed():
    head, data = _single("text/plain", b"ro\x00ll\n")
    extracted = extract_text(parse(head.encode() + data))
    assert extracted.text == "roll"
    assert extracted.notes == ("nul: NUL characters removed",)


# -- order_lines ---------------------------------------------------------------------


def test_order_lines_uses_split_lines_for_comments_and_signoff():
    text = "# turn 4\nsplit Rd01 into Rd03: ogre ogre\n\nroll\nsignoff\nAnn\n"
    assert order_lines(text) == (["split Rd01 into Rd03: ogre ogre", "roll"], ["Ann"])
    assert order_lines("roll\n" * 5, max_lines=2) == (["roll", "roll"], ["roll", "roll", "roll"])


@pytest.mark.parametrize(
    ("text", "lines", "ignored"),
    [
        # Gmail, attribution on two lines, quote below
        (
            "roll\n\nOn Mon, Apr 2, 2012 at 6:26 PM, Megan One <\nxxx@gmail.com> wrote:\n\n> status\n> more\n",
            ["roll"],
            [],
        ),
        # bottom posting: quote first, new text after
        ("On 04/02/2012 06:26 PM, Megan One wrote:\n> Hi\nroll\n", ["roll"], []),
        # German and Russian attributions
        ("roll\nAm 02.04.2012 um 14:20 schrieb Bob <bob@example.org>:\n> Hi\n", ["roll"], []),
        (
            'roll\n02.04.2012 14:20 пользователь "bob@example.org" <\nbob@example.org> написал:\n\n> Hi\n',
            ["roll"],
            [],
        ),
        # an unquoted original after "On ... wrote:" is cut
        (
            "roll\nOn Mon, Apr 2, 2012, Bob wrote:\nYour turn\n",
            ["roll"],
            ["On Mon, Apr 2, 2012, Bob wrote:", "Your turn"],
        ),
        # own line just above the attribution is kept
        (
            "On second thought: roll\nOn Mon, Bob <b@example.org> wrote:\n> x\n",
            ["On second thought: roll"],
            [],
        ),
        # Outlook blocks
        (
            "roll\n\n-----Original Message-----\nFrom: Bob\nSent: Monday\nmove\n",
            ["roll"],
            ["-----Original Message-----", "From: Bob", "Sent: Monday", "move"],
        ),
        (
            "roll\n________________________________\nFrom: Titan <t@x.org>\nSent: Monday\nTo: Ann\nSubject: turn 4\n\nstatus\n",
            ["roll"],
            [
                "________________________________",
                "From: Titan <t@x.org>",
                "Sent: Monday",
                "To: Ann",
                "Subject: turn 4",
                "status",
            ],
        ),
        (
            "roll\nVon: Titan\nGesendet: Montag\nAn: Ann\nBetreff: Zug 4\n",
            ["roll"],
            ["Von: Titan", "Gesendet: Montag", "An: Ann", "Betreff: Zug 4"],
        ),
        (
            "roll\n---------- Forwarded message ---------\nFrom: x\n",
            ["roll"],
            ["---------- Forwarded message ---------", "From: x"],
        ),
        (
            "roll\nBegin forwarded message:\n\nFrom: x\n",
            ["roll"],
            ["Begin forwarded message:", "From: x"],
        ),
        # signatures and footers
        ("roll\n-- \nAnn Smith\n", ["roll"], ["Ann Smith"]),
        (
            "roll\n\nSent from my iPhone\n\n> On 2 Apr, Bob wrote:\n> status\n",
            ["roll"],
            ["Sent from my iPhone"],
        ),
        ("roll\n-- sent from my phone.\n", ["roll"], ["-- sent from my phone."]),
        ("roll\nVon meinem iPhone gesendet\n", ["roll"], ["Von meinem iPhone gesendet"]),
        ("roll\nGet Outlook for Android\n", ["roll"], ["Get Outlook for Android"]),
        # rule lines: skipped before any text, a stop after it
        (
            "==========\nroll\n----------------------------------\nfooter\n",
            ["roll"],
            ["----------------------------------", "footer"],
        ),
        # phones: <br> in plain text, non-breaking spaces
        ("roll<br>move Rd01 to 6<BR/>done\n", ["roll", "move Rd01 to 6", "done"], []),
        ("move\u00a0Rd01\u00a0to 6\n", ["move Rd01 to 6"], []),
        # a line ending with ':' that is no attribution
        ("split Rd01 into Rd03:\nogre ogre\n", ["split Rd01 into Rd03:", "ogre ogre"], []),
    ],
)
def test_quotes_signatures_and_footers_are_not_orders(text, lines, ignored):
    assert order_lines(text) == (lines, ignored)


def test_game_and_secret_lines_are_hints_not_orders():
    text = "game g7\nsecret XYZZY\nroll\nsignoff\nsecret again\n"
    assert order_lines(text) == (["roll"], [])


# -- hints ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("subject", "game"),
    [
        ("[titan g7] orders", "g7"),
        ("Re: [TITAN g7] report", "g7"),
        ("Fwd: Re: [Titan  g12 ] x", "g12"),
        ("Re: Re: [titan: game-3]", "game-3"),
        ("no tag here", None),
        ("[titan]", None),
    ],
)
def test_the_game_from_the_subject_tag(subject, game):
    msg = mfs(f"From: ann@example.org\nSubject: {subject}\n\nroll\n")[1]
    assert game_and_player_hints(msg, "roll").game == game


def test_hints_from_the_body_and_the_sender():
    msg = mfs(
        "From: =?utf-8?q?Ann_M=C3=BCller?= <Ann@Example.org>\nSubject: Re: [titan g7] turn\n\n"
    )[1]
    text = "> game g5\ngame g8.\nSECRET: s3cr3t-Tok\nroll\n"
    hints = game_and_player_hints(msg, text)
    assert hints == intake.Hints(
        game="g8",
        subject_game="g7",
        body_game="g8",
        secret="s3cr3t-Tok",
        sender="ann@example.org",
        sender_name="Ann Müller",
    )


def test_hints_of_a_mail_without_any():
    assert game_and_player_hints(parse(b""), "") == intake.Hints()


# -- fuzz ------------------------------------------------------------------------------

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

HEADER_NAMES = st.sampled_from(
    [
        "From",
        "Subject",
        "Return-Path",
        "Auto-Submitted",
        "Precedence",
        "List-Id",
        "X-Loop",
        "Content-Disposition",
        "Content-Transfer-Encoding",
        "X-Auto-Response-Suppress",
        "Sender",
    ]
)
HEADER_VALUES = st.one_of(
    st.text(max_size=40).map(lambda s: s.replace("\n", " ").replace("\r", " ")),
    st.sampled_from(
        [
            "<>",
            "=?utf-8?b?w6Q=?=",
            "=?x-bogus?q?=ZZ?=",
            "=?utf-8?B?!!!?=",
            "a@b",
            "<a@b>, <",
            '"unterminated',
            "attachment; filename*0*=utf-8''%E3",
            "MAILER-DAEMON",
            "(((",
            "no",
        ]
    ),
)
CONTENT_TYPES = st.sampled_from(
    [
        "text/plain",
        "text/html",
        "text/plain; format=flowed; delsp=yes",
        "application/octet-stream",
        "message/rfc822",
        "message/delivery-status",
        "text/plain; charset=",
        "text/;;",
    ]
)
CHARSETS = st.sampled_from(
    [
        "utf-8",
        "iso-8859-1",
        "x-unknown",
        "utf-7",
        "iso-2022-jp",
        "",
        "utf-16",
        "rot13",
        "base64",
        '"utf-8',
        "cp1252\\r\\n",
    ]
)
ENCODINGS = st.sampled_from(
    ["7bit", "8bit", "base64", "quoted-printable", "x-uuencode", "bogus", ""]
)
BODIES = st.one_of(
    st.binary(max_size=200),
    st.text(max_size=200).map(lambda s: s.encode("utf-8", "surrogatepass")),
    st.sampled_from(
        [
            b"-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA1\n\n- roll\n-----BEGIN PGP SIGNATURE-----\n",
            b"<p>roll<br><blockquote>x</blockquote><div class=signature>s",
            b"=\n=ZZ=4",
            b"begin 644 x\n`\nend\n",
            b"On Mon, X wrote:\n> q\nroll\n-- \nsig",
            b"From: a\nSent: b\nTo: c\n",
        ]
    ),
)


@st.composite
def mime_trees(draw, depth=0):
    """Raw MIME entities: real-looking trees with random headers, charsets, boundaries and bodies."""
    headers = [
        f"{draw(HEADER_NAMES)}: {draw(HEADER_VALUES)}" for _ in range(draw(st.integers(0, 3)))
    ]
    if depth < 3 and draw(st.booleans()):
        subtype = draw(
            st.sampled_from(["mixed", "alternative", "signed", "encrypted", "report", "related"])
        )
        boundary = draw(st.sampled_from(["B", "B2", "=_x", "", "a b", "B/./="]))
        declared = draw(st.sampled_from([boundary, "other"]))
        params = '; protocol="application/pgp-signature"' if draw(st.booleans()) else ""
        headers.append(f'Content-Type: multipart/{subtype}; boundary="{declared}"{params}')
        children = draw(st.lists(mime_trees(depth=depth + 1), max_size=3))
        body = b"preamble\n" + b"".join(
            b"--" + boundary.encode() + b"\n" + child + b"\n" for child in children
        )
        body += draw(st.sampled_from([b"--" + boundary.encode() + b"--\n", b""]))
    else:
        headers.append(f"Content-Type: {draw(CONTENT_TYPES)}; charset={draw(CHARSETS)}")
        headers.append(f"Content-Transfer-Encoding: {draw(ENCODINGS)}")
        body = draw(BODIES)
    return "\n".join(headers).encode("utf-8", "surrogatepass") + b"\n\n" + body


def _whole_pipeline(raw: bytes) -> None:
    msg = parse(raw)
    disposition = screen(msg, own_addresses=OWN, replies_today=3, strict_lists=True)
    assert disposition.action in set(Action)
    for extracted in (extract_text(msg, raw=raw), extract_text(msg, max_bytes=7, max_lines=2)):
        assert isinstance(extracted.text, str)
        lines, ignored = order_lines(extracted.text)
        assert all(line and line == line.strip() for line in lines)
        assert all(isinstance(line, str) for line in ignored)
        game_and_player_hints(msg, extracted.text)


@FUZZ
@given(st.binary(max_size=3000))
def test_fuzz_arbitrary_bytes_never_raise(raw):
    _whole_pipeline(raw)


@FUZZ
@given(mime_trees(), st.sampled_from([b"", b"From x\n", b"\r\n"]), st.booleans())
def test_fuzz_arbitrary_mime_structures_never_raise(tree, prefix, crlf):
    raw = prefix + tree
    _whole_pipeline(raw.replace(b"\n", b"\r\n") if crlf else raw)


@FUZZ
@given(st.text(max_size=500), st.text(max_size=60))
def test_fuzz_arbitrary_text_never_raises(text, subject):
    order_lines(text)
    order_lines(text, max_lines=0)
    msg = parse(f"From: ann@example.org\nSubject: {subject}\n\n".encode("utf-8", "surrogatepass"))
    game_and_player_hints(msg, text)
