"""
VERP return paths and bounces as the intake reads them: a return path names its mail
only with the moderator's tag, a bounce is what ``flufl.bounce`` finds failed for good
(a delay warning or a read receipt is none), and a DSN's per-recipient blocks (RFC 3464
2.3) and senders are read for the service to judge whether to believe it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from moderator.mail import verp
from moderator.mail.dsn import read_bounce
from moderator.mail.intake import Action, bounce_of, parse, screen

from .bounce_samples import delayed, dsn, failure_notice

KEY = b"k" * 32
BASE = "moderator@titan.example"
OURS = "<0123456789abcdef0123456789abcdef@titan-moderator.invalid>"
CORPUS = Path(__file__).resolve().parents[3] / "shared" / "mail-corpus" / "bounce"


def test_a_return_path_names_its_mail_with_the_moderators_tag() -> None:
    path = verp.return_path(BASE, 42, KEY)
    local, _, domain = path.partition("@")
    assert domain == "titan.example" and local.startswith("moderator+b42-")
    assert len(local) <= 64  # RFC 5321 4.5.3.1.1
    assert verp.mail_of(path, BASE, KEY) == 42
    assert verp.mail_of(f"<{path.upper()}>", BASE, KEY) == 42  # servers may change case


@pytest.mark.parametrize(
    "address",
    [
        f"moderator+b42-{'0' * verp.TAG_LENGTH}@titan.example",  # a guessed tag
        verp.return_path(BASE, 42, b"another key"),  # a tag under another key
        verp.return_path(BASE, 42, KEY).replace("b42", "b43"),  # another mail's number
        verp.return_path(BASE, 42, KEY).replace("titan.example", "example.org"),
        verp.return_path("someone@titan.example", 42, KEY),
        BASE,
        "moderator+hello@titan.example",
        "not an address",
    ],
)
def test_a_forged_or_foreign_return_path_names_no_mail(address: str) -> None:
    assert verp.mail_of(address, BASE, KEY) is None


def test_a_dsn_gives_the_failed_recipient_its_status_and_the_returned_message_id() -> None:
    to = verp.return_path(BASE, 7, KEY)
    found = read_bounce(parse(dsn(to=to, failed="Bob@example.org", message_id=OURS)))
    assert found is not None
    assert found.failed == ("bob@example.org",)
    assert to in found.delivered_to
    assert found.status == "5.1.1"
    assert "User unknown" in found.diagnostic
    assert OURS in found.returned
    assert found.reason.startswith("failed: bob@example.org; status 5.1.1; smtp; 550 5.1.1")


def test_a_dsn_gives_each_recipients_block_and_who_sent_it() -> None:
    raw = dsn(
        to=BASE,
        failed="Bob@Example.org",
        message_id=OURS,
        sender="Mail Delivery System <MAILER-DAEMON@mx.example.org>",
        envelope="bounces@mx.example.org",
        extra="Sender: postmaster@mx.example.org\r\n",
    )
    found = read_bounce(parse(raw))
    assert found is not None
    (block,) = found.recipients
    assert (block.final, block.original, block.action, block.status) == (
        "bob@example.org",
        "bob@example.org",
        "failed",
        "5.1.1",
    )
    assert block.permanent and "User unknown" in block.diagnostic
    assert found.status_for("BOB@example.org ") == block
    assert found.status_for("eve@example.org") is None
    assert found.senders == (
        "mailer-daemon@mx.example.org",
        "postmaster@mx.example.org",
        "bounces@mx.example.org",
    )


@pytest.mark.parametrize(
    ("action", "status", "permanent"),
    [
        ("failed", "5.1.1", True),
        ("failed", "5.7.26", True),
        ("failed", "4.4.7", False),  # a temporary status is no permanent failure
        ("failed", "2.0.0", False),
        ("failed", "", False),  # no status at all
        ("failed", "5.1", False),  # not a status code (RFC 3463: class.subject.detail)
        ("failure", "5.1.1", False),  # RFC 3464 2.3.3 says "failed"
    ],
)
def test_only_a_failed_action_with_a_5xx_status_is_a_permanent_failure(
    action: str, status: str, permanent: bool
) -> None:
    raw = dsn(to=BASE, failed="bob@example.org", message_id=OURS, action=action, status=status)
    found = read_bounce(parse(raw))
    assert found is not None
    block = found.status_for("bob@example.org")
    assert block is not None and block.permanent is permanent


def test_a_report_on_two_recipients_names_the_one_that_failed() -> None:
    raw = dsn(to=BASE, failed="bob@example.org", message_id=OURS).replace(
        b"Final-Recipient: rfc822; bob@example.org\r\n",
        b"Final-Recipient: rfc822; ann@example.org\r\nAction: delivered\r\nStatus: 2.0.0\r\n"
        b"\r\nFinal-Recipient: rfc822; bob@example.org\r\n",
    )
    found = read_bounce(parse(raw))
    assert found is not None
    assert [(b.final, b.action) for b in found.recipients] == [
        ("ann@example.org", "delivered"),
        ("bob@example.org", "failed"),
    ]
    ann, bob = found.status_for("ann@example.org"), found.status_for("bob@example.org")
    assert ann is not None and not ann.permanent
    assert bob is not None and bob.permanent


def test_a_plain_text_failure_notice_is_a_bounce_without_a_report() -> None:
    found = read_bounce(parse(failure_notice(to=BASE, failed="bob@example.org", message_id=OURS)))
    assert found is not None and found.failed == ("bob@example.org",)
    assert OURS in found.returned and found.status == ""
    assert found.recipients == () and found.status_for("bob@example.org") is None


def test_a_delay_warning_is_not_a_bounce() -> None:
    raw = delayed(to=verp.return_path(BASE, 7, KEY), failed="bob@example.org", message_id=OURS)
    msg = parse(raw)
    assert screen(msg, own_addresses=[BASE]).action is Action.DROP  # still never answered
    assert read_bounce(msg) is None


def test_only_a_mail_dropped_as_a_bounce_or_report_is_read_as_one() -> None:
    msg = parse(dsn(to=BASE, failed="bob@example.org", message_id=OURS))
    dropped = screen(msg, own_addresses=[BASE])
    assert dropped.action is Action.DROP
    assert bounce_of(msg, dropped) is not None
    person = parse(
        b"From: Ann <ann@example.org>\r\nTo: moderator@titan.example\r\nSubject: orders\r\n"
        b"In-Reply-To: " + OURS.encode() + b"\r\n\r\ngame g1\r\nwithdraw\r\n"
    )
    accepted = screen(person, own_addresses=[BASE])
    assert accepted.action is Action.ACCEPT and bounce_of(person, accepted) is None
    receipt = parse(
        b"From: Ann <ann@example.org>\r\nTo: moderator@titan.example\r\nSubject: Read\r\n"
        b'MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=disposition-notification;'
        b' boundary="X"\r\n\r\n--X\r\nContent-Type: text/plain\r\n\r\nRead.\r\n'
        b"--X\r\nContent-Type: message/disposition-notification\r\n\r\n"
        b"Final-Recipient: rfc822; ann@example.org\r\nDisposition: manual-action/MDN-sent-manually;"
        b" displayed\r\n--X--\r\n"
    )
    assert bounce_of(receipt, screen(receipt, own_addresses=[BASE])) is None


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs ../shared/mail-corpus")
def test_the_corpus_bounces_are_read_and_its_delay_warning_is_not() -> None:
    read = {p.name: read_bounce(parse(p.read_bytes())) for p in sorted(CORPUS.glob("*.eml"))}
    assert read.pop("hotmail-delayed-utf7.eml") is None
    assert read and all(found is not None and found.failed for found in read.values())
