"""Outbox rows made into the mails that leave: signed, encrypted, threaded (real gpg)."""

from __future__ import annotations

import dataclasses
import email
import email.policy
import io
import quopri
from collections.abc import Callable
from datetime import UTC, datetime
from email.message import EmailMessage

import pytest
from PIL import Image

from moderator.mail import compose
from moderator.mail.intake import Action, parse, screen
from moderator.pictures.spec import report_pictures
from moderator.ports import StoredMail
from moderator.runtime.outgoing import render_outgoing

from .conftest import MODERATOR, Table, World

NOW = datetime(2024, 7, 1, 12, 0, tzinfo=UTC)


def reparse(message: EmailMessage) -> tuple[bytes, EmailMessage]:
    raw = message.as_bytes(policy=compose.POLICY)
    return raw, email.message_from_bytes(raw, _class=EmailMessage, policy=email.policy.default)


@pytest.fixture
def mails(make_table: Callable[..., Table], world: World) -> dict[str, StoredMail]:
    """A reply and reports of Ann's colour choice; Ann has a key, Bob has not."""
    table = make_table(keyring=world.moderator.keyring, keys={"Ann": world.players["Ann"]})
    sent = table.orders("Bob", "colour black\nhelp")
    sent_ann = table.orders("Ann", "status", how="plain")  # not authenticated: refused
    return {
        "reply": sent.one("bob@example.org", "reply"),
        "report-ann": sent.one("ann@example.org", "report"),
        "report-bob": sent.report("bob@example.org"),
        "refusal": sent_ann.one("ann@example.org", "refusal"),
    }


def test_a_report_to_a_player_with_a_key(mails: dict[str, StoredMail], world: World) -> None:
    stored = mails["report-ann"]
    raw, message = reparse(
        render_outgoing(stored, world.moderator.keyring, world.moderator.fingerprint, NOW)
    )
    assert message["Message-ID"] == stored.message_id
    assert message["To"] == "ann@example.org" and message["From"] == MODERATOR
    assert message["Subject"] == stored.subject and message["Subject"].count("[titan g1]") == 1
    assert message["Auto-Submitted"] == "auto-generated" and message["X-Titan-Moderator"] == "g1"
    assert message["In-Reply-To"] == compose.thread_root_id("g1", "titan.example")
    ann = world.players["Ann"]
    signed = compose.verify_incoming(raw, ann.keyring)
    assert signed.valid and signed.fingerprint == world.moderator.fingerprint
    assert stored.body.splitlines()[0] in signed.signed_text
    encrypted = next(p for p in message.walk() if p.get_content_type() == "multipart/encrypted")
    private = compose.decrypt_mime(encrypted, ann.keyring).get_content()
    assert (stored.private_body or "").splitlines()[0] in private
    assert f"Report token: {stored.token}" in private
    assert compose.token_digest(stored.token or "") in signed.signed_text
    assert stored.token not in signed.signed_text  # type: ignore[operator]
    # Our own mail, should it come back, is dropped by the intake.
    back = screen(parse(raw), own_addresses=[MODERATOR])
    assert back.action is Action.DROP


def test_a_reply_threads_under_the_players_mail(mails: dict[str, StoredMail], world: World) -> None:
    stored = mails["reply"]
    assert stored.recipient_key is None  # Bob has no key: his private part goes in clear
    raw, message = reparse(
        render_outgoing(stored, world.moderator.keyring, world.moderator.fingerprint, NOW)
    )
    assert message["Auto-Submitted"] == "auto-replied"
    assert message["In-Reply-To"] == stored.headers["In-Reply-To"]
    assert stored.headers["In-Reply-To"] in message["References"]
    assert compose.thread_root_id("g1", "titan.example") in message["References"]
    assert compose.verify_incoming(raw, world.moderator.keyring).valid
    clear = [p for p in message.walk() if p.get("Content-Description", "").startswith("your")]
    assert "Results of your mail" in clear[0].get_content()


def test_a_refusal_signs_what_to_do_and_keeps_why_in_the_private_part(
    mails: dict[str, StoredMail], world: World
) -> None:
    """Why a mail was refused may quote it (a game it names, an address it gives): the
    moderator signs nothing a player chose, so the reason and the mail's Message-ID
    travel in the private part, encrypted to a player with a key."""
    stored = mails["refusal"]
    assert stored.game_id == "g1" and "Why: your mail is neither signed" in (
        stored.private_body or ""
    )
    raw, message = reparse(
        render_outgoing(stored, world.moderator.keyring, world.moderator.fingerprint, NOW)
    )
    result = compose.verify_incoming(raw, world.moderator.keyring)
    text = " ".join(quopri.decodestring(result.signed_data).decode().split())  # lines wrapped
    assert result.valid and "was not carried out: why is in the private part" in text
    assert stored.headers["In-Reply-To"] not in text and "Why:" not in text
    assert any(p.get_content_type() == "multipart/encrypted" for p in message.walk())
    assert message["Auto-Submitted"] == "auto-replied"


def test_without_a_keyring_the_parts_go_out_unsigned(mails: dict[str, StoredMail]) -> None:
    _raw, message = reparse(render_outgoing(mails["report-ann"], None, None, NOW))
    texts = [p.get_content() for p in message.walk() if p.get_content_maintype() == "text"]
    assert "Titan game g1: report for Ann" in texts[0]
    assert texts[1].startswith("Private part for Ann")
    assert message["Date"] and message["Auto-Submitted"] == "auto-generated"


def test_a_mail_of_no_game_still_carries_the_automatic_headers(
    mails: dict[str, StoredMail],
) -> None:
    from dataclasses import replace

    stored = replace(mails["refusal"], game_id=None)
    _raw, message = reparse(render_outgoing(stored, None, None, NOW))
    assert message["Auto-Submitted"] == "auto-replied"
    assert message["X-Auto-Response-Suppress"] == "All" and message["X-Titan-Moderator"]
    assert message["In-Reply-To"] == stored.headers["In-Reply-To"]
    with pytest.raises(ValueError, match="From"):
        render_outgoing(replace(stored, headers={}), None, None, NOW)


def test_mail_comes_from_the_moderator_by_name(mails: dict[str, StoredMail]) -> None:
    _raw, named = reparse(render_outgoing(mails["report-bob"], None, None, NOW, "Titan GM"))
    assert named["From"].addresses[0].display_name == "Titan GM"
    assert named["From"].addresses[0].addr_spec == MODERATOR
    _raw, plain = reparse(render_outgoing(mails["report-bob"], None, None, NOW))
    assert plain["From"].addresses[0].addr_spec == MODERATOR


def _pngs(message: EmailMessage) -> list[tuple[str, Image.Image]]:
    found = []
    for part in message.walk():
        if part.get_content_type() == "image/png":
            image = Image.open(io.BytesIO(part.get_content()))
            found.append((part.get_filename() or "", image))
    return found


def test_a_report_carries_the_masterboard_in_its_signed_part(
    mails: dict[str, StoredMail], world: World
) -> None:
    """Issue 14: every report carries a PNG of the masterboard, signed with the public
    part (it shows markers, lands and heights, no contents: Wolff 4.5)."""
    stored = mails["report-ann"]
    assert [p["kind"] for p in stored.pictures] == ["masterboard"]
    raw, message = reparse(
        render_outgoing(stored, world.moderator.keyring, world.moderator.fingerprint, NOW)
    )
    signed = next(p for p in message.walk() if p.get_content_type() == "multipart/signed")
    ((name, image),) = _pngs(signed)
    assert name.startswith("board-g1-turn") and name.endswith(".png")
    assert image.mode == "P" and image.size[0] == 800
    assert compose.verify_incoming(raw, world.players["Ann"].keyring).valid


def test_9_3_a_battle_picture_is_encrypted_with_the_private_part(
    mails: dict[str, StoredMail], world: World
) -> None:
    """A battle's picture shows what both legions hold: it goes in the private part,
    encrypted to the player and never signed (Wolff 4.5)."""
    from dataclasses import replace

    from tests.pictures.positions import board_view

    pictures = [p.to_json() for p in report_pictures(board_view(None), "Ann", "g1", [200])]
    stored = replace(mails["report-ann"], pictures=tuple(pictures))
    raw, message = reparse(
        render_outgoing(stored, world.moderator.keyring, world.moderator.fingerprint, NOW)
    )
    signed = next(p for p in message.walk() if p.get_content_type() == "multipart/signed")
    assert [name for name, _ in _pngs(signed)] == ["board-g1-turn6.png"]
    encrypted = next(p for p in message.walk() if p.get_content_type() == "multipart/encrypted")
    private = compose.decrypt_mime(encrypted, world.players["Ann"].keyring)
    assert [name for name, _ in _pngs(private)] == ["battle-g1-turn6-land200.png"]
    assert compose.verify_incoming(raw, world.players["Ann"].keyring).valid


def test_a_picture_that_cannot_be_drawn_leaves_the_report_whole(
    mails: dict[str, StoredMail], world: World
) -> None:
    from dataclasses import replace

    stored = replace(mails["report-ann"], pictures=({"kind": "poster", "view": {}},))
    _raw, message = reparse(render_outgoing(stored, None, None, NOW))
    assert _pngs(message) == []
    texts = [p.get_content() for p in message.walk() if p.get_content_maintype() == "text"]
    assert "Titan game g1: report for Ann" in texts[0]


def test_no_signed_line_is_wider_than_78_but_the_audit_lines_verify_reads(
    mails: dict[str, StoredMail], world: World
) -> None:
    """Issue 24, item 9: signed lines over 120 characters wrapped in mutt.  They are
    broken between words at 78, the rest indented under them; the lines
    ``verify --report`` reads, and a reference, stay whole."""
    seal = "event 41: order seal " + "a" * 32
    commitment = "  event 14: Bu01 commitment " + "d" * 64
    long_event = (
        "  Bob's Titan died: Bob is out of the game, slain by Ann; legions removed: Bu01 "
        "(Ogre); Bu02 (Angel); Bu04 (2 Gargoyles); half points: Ann 30"
    )
    item = "  - a list item that goes on and on and on, past the edge of a terminal of eighty columns"
    reference = "Nothing that every player may see has happened since your last report (ref g1-128)."
    body = f"{reference}\n{long_event}\n{commitment}\n{seal}\n{item}"
    stored = dataclasses.replace(mails["report-ann"], body=body)
    raw, _ = reparse(render_outgoing(stored, world.moderator.keyring,
                                     world.moderator.fingerprint, NOW))
    signed = compose.verify_incoming(raw, world.players["Ann"].keyring)
    assert signed.valid
    text = quopri.decodestring(signed.signed_text.encode()).decode().replace("\r\n", "\n")
    lines = text.split("\n\n", 1)[1].splitlines()  # after the part's headers
    assert [line for line in lines if len(line) > 78] == [commitment]
    assert seal in lines and "(ref g1-128)." in lines
    assert "    Bu01 (Ogre); Bu02 (Angel); Bu04 (2 Gargoyles); half points: Ann 30" in lines
    assert "    eighty columns" in lines  # under the item's text
    assert " ".join(text.split()).count(" ".join(long_event.split())) == 1
