"""
Who may move a seat, and who gets mail: forged senders, replays, bad signatures,
automatic mail, loops and floods.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from email.message import EmailMessage

import pytest

from moderator.mail import compose
from moderator.mail.intake import ReplyBudget
from moderator.ports import StoredMail
from moderator.reporting.views import legal_orders
from moderator.rules.legal import to_act
from moderator.store import EventStore, inbox, outbox
from moderator.testing.clocks import TestClock as Clock

from ..gpgparties import Party
from .conftest import (
    MODERATOR,
    Table,
    World,
    address,
    clearsigned_mail,
    full_text,
    headers_of,
    pgp_mime_mail,
    plain_mail,
)


def first_order(table: Table) -> tuple[str, str]:
    state = table.state
    actor = to_act(state)
    assert actor is not None
    return actor, legal_orders(state, actor)[0]


def all_mail(store: EventStore) -> list[StoredMail]:
    with store.reading() as tx:
        return outbox.mails(tx)


# -- forged senders -------------------------------------------------------------------------


def test_a_forged_from_is_refused_once_a_day_to_the_registered_address(
    make_table: Callable[..., Table], clock: Clock
) -> None:
    table = make_table()
    actor, line = first_order(table)
    before = table.state.version
    extra = {"Reply-To": "victim@elsewhere.example", "Cc": "other@elsewhere.example"}
    forged = [table.orders(actor, line, how="plain", extra=extra) for _ in range(3)]
    assert table.state.version == before
    assert [s.status for s in forged] == [inbox.REJECTED] * 3
    (refusal,) = forged[0].mails
    assert refusal.recipient == address(actor) and refusal.kind == "refusal"
    assert "neither signed with your key nor holds your secret" in full_text(refusal)
    assert line not in full_text(refusal)  # a refusal never echoes the mail's lines
    assert forged[1].mails == [] and forged[2].mails == []
    assert "refused today" in (forged[1].note or "")
    clock.advance(days=1)
    again = table.orders(actor, line, how="plain", extra=extra)
    assert [m.recipient for m in again.mails] == [address(actor)]
    recipients = {m.recipient for m in all_mail(table.store)}
    assert recipients == {address(actor)}


def test_mail_from_an_unknown_address_gets_no_answer(make_table: Callable[..., Table]) -> None:
    table = make_table()
    actor, line = first_order(table)
    sent = table.orders(actor, line, how="plain", sender="stranger@elsewhere.example")
    assert sent.status == inbox.REJECTED and sent.mails == []
    assert "not a registered player" in (sent.note or "")


def test_a_wrong_secret_is_refused(make_table: Callable[..., Table]) -> None:
    table = make_table()
    actor, line = first_order(table)
    raw = plain_mail(
        f"game g1\n{table.ref}\nsecret guess-guess-guess\n{line}\n",
        headers_of(actor, message_id=table.next_id()),
    )
    sent = table.send(raw)
    assert sent.status == inbox.REJECTED
    assert "not the one you registered" in full_text(sent.mails[0])
    assert "guess-guess" not in full_text(sent.mails[0])


def test_secrets_count_only_where_the_game_allows_them(
    make_table: Callable[..., Table], world: World
) -> None:
    table = make_table(keyring=world.moderator.keyring, keys=world.players, allow_secrets=False)
    actor, line = first_order(table)
    sent = table.orders(actor, line, how="secret")
    assert sent.status == inbox.REJECTED
    assert "does not accept secret lines" in full_text(sent.mails[0])
    assert "Sign your mail with the key you registered" in sent.mails[0].body


# -- signatures -------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["clearsigned", "pgp-mime"])
def test_signed_orders_are_carried_out(
    make_table: Callable[..., Table], world: World, any_store: EventStore, how: str
) -> None:
    table = make_table(
        keyring=world.moderator.keyring, keys=world.players, allow_secrets=False, on=any_store
    )
    actor, line = first_order(table)
    sent = table.orders(actor, line, how=how, party=world.players[actor])
    assert sent.status == inbox.PROCESSED, sent.note
    reply = sent.one(address(actor), "reply")
    assert reply.recipient_key == world.players[actor].fingerprint
    assert "1 order(s) carried out" in (reply.private_body or "")
    assert "carried out" not in reply.body


def test_a_replayed_signed_mail_changes_nothing(
    make_table: Callable[..., Table], world: World, any_store: EventStore
) -> None:
    table = make_table(
        keyring=world.moderator.keyring, keys=world.players, allow_secrets=False, on=any_store
    )
    actor, line = first_order(table)
    party = world.players[actor]
    text = f"game g1\n{table.ref}\n{line}\nstatus\n"
    signed = party.keyring.clearsign(text, party.fingerprint).decode()
    first = table.send(plain_mail(signed, headers_of(actor, message_id="<once@example.org>")))
    assert first.status == inbox.PROCESSED
    version = table.state.version
    # The same mail again (fetched twice, or resent by somebody): not read again.
    copy = table.send(plain_mail(signed, headers_of(actor, message_id="<once@example.org>")))
    assert copy.status == inbox.REJECTED and copy.mails == []
    assert "a copy of message" in (copy.note or "")
    # Replayed under a new Message-ID, even with the current reference in its subject:
    # the signature was used, so nothing is carried out and the signer is told.
    replayed = table.send(
        plain_mail(
            signed,
            headers_of(actor, message_id="<replay@example.org>", subject=f"orders {table.ref}"),
        )
    )
    assert table.state.version == version
    assert replayed.status == inbox.REJECTED
    refusal = full_text(replayed.one(address(actor), "refusal"))
    assert "this signed text was already used on 2024-07-01; write a new mail" in refusal
    # Signed again (a new signature of the same text): the stale reference refuses it.
    # An EdDSA signature of the same text in the same second is the same signature, a
    # true replay: sign in the next second, as a player writing again would.
    started = int(time.time())
    while int(time.time()) == started:
        time.sleep(0.05)
    again = party.keyring.clearsign(text, party.fingerprint).decode()
    fresh = table.send(plain_mail(again, headers_of(actor, subject=f"orders {table.ref}")))
    assert table.state.version == version and fresh.status == inbox.PROCESSED
    private = fresh.one(address(actor), "reply").private_body or ""
    assert "refused (E-REF-STALE)" in private and f"'{table.ref}'" in private
    assert "Players:" in private  # the query is still answered


def test_a_subject_reference_does_not_count_for_a_signed_mail(
    make_table: Callable[..., Table], world: World
) -> None:
    table = make_table(keyring=world.moderator.keyring, keys=world.players, allow_secrets=False)
    actor, line = first_order(table)
    party = world.players[actor]
    sent = table.orders(
        actor, line, how="clearsigned", party=party, ref=False, subject=f"Re: x ({table.ref})"
    )
    assert "refused (E-REF-MISSING)" in (sent.one(address(actor), "reply").private_body or "")


def test_a_tampered_signature_is_refused(make_table: Callable[..., Table], world: World) -> None:
    table = make_table(keyring=world.moderator.keyring, keys=world.players, allow_secrets=False)
    actor, _line = first_order(table)
    party = world.players[actor]
    signed = party.keyring.clearsign(f"game g1\n{table.ref}\nstatus\n", party.fingerprint)
    tampered = signed.replace(b"status", b"withdraw")
    before = table.state.version
    sent = table.send(plain_mail(tampered.decode(), headers_of(actor, message_id="<t@x>")))
    assert table.state.version == before
    assert sent.status == inbox.REJECTED
    (refusal,) = sent.mails
    assert refusal.recipient == address(actor)
    assert "the signature of your mail is not good (bad signature)" in full_text(refusal)


def test_a_stranger_key_or_another_players_key_is_not_the_seat(
    make_table: Callable[..., Table], world: World, stranger: Party
) -> None:
    table = make_table(keyring=world.moderator.keyring, keys=world.players, allow_secrets=False)
    actor, line = first_order(table)
    other = "Bob" if actor == "Ann" else "Ann"
    unknown = table.orders(actor, line, how="pgp-mime", party=stranger)
    assert unknown.status == inbox.REJECTED
    assert "unknown key" in full_text(unknown.mails[0])
    # Bob's key on a mail whose From says Ann: it is Bob's mail, answered to Bob.
    before = table.state.version
    crossed = table.orders(actor, line, how="clearsigned", party=world.players[other])
    assert table.state.version == before
    assert {m.recipient for m in crossed.mails} == {address(other)}
    assert "refused (E-NOT-YOUR-TURN)" in (crossed.mails[0].private_body or "")


def test_only_signed_text_is_read(make_table: Callable[..., Table], world: World) -> None:
    """Unsigned orders beside a signed part (inline or PGP/MIME) are not carried out."""
    table = make_table(keyring=world.moderator.keyring, keys=world.players, allow_secrets=False)
    actor, line = first_order(table)
    party = world.players[actor]
    before = table.state.version
    block = party.keyring.clearsign("game g1\nstatus\n", party.fingerprint).decode()
    inline = table.send(
        plain_mail(f"{table.ref}\n{line}\n\n{block}", headers_of(actor, message_id="<i@x>"))
    )
    assert table.state.version == before and inline.status == inbox.PROCESSED
    assert line not in (inline.mails[0].private_body or "")
    outer = EmailMessage(policy=compose.POLICY)
    for key, value in headers_of(actor, message_id="<m@x>").items():
        outer[key] = value
    outer.set_content(f"game g1\n{table.ref}\n{line}\n")
    signed = compose.signed_mime(["game g1\nstatus\n"], party.keyring, party.fingerprint)
    outer.add_attachment(signed)
    outer.get_payload()[1].replace_header("Content-Disposition", "inline")  # type: ignore[index,union-attr]
    mixed = table.send(outer.as_bytes())
    assert table.state.version == before
    assert line not in "".join(m.private_body or "" for m in mixed.mails)


# -- automatic mail, loops, floods ------------------------------------------------------------


@pytest.mark.parametrize(
    "extra",
    [
        {"Auto-Submitted": "auto-replied"},
        {"Precedence": "bulk"},
        {"X-Autoreply": "yes"},
        {"X-Titan-Moderator": "g1"},
    ],
    ids=["auto-submitted", "precedence", "x-autoreply", "our-loop-header"],
)
def test_automatic_mail_is_never_answered(
    make_table: Callable[..., Table], extra: dict[str, str]
) -> None:
    table = make_table()
    actor, line = first_order(table)
    before = table.state.version
    sent = table.orders(actor, line, extra=extra)  # even with a good secret and reference
    assert sent.status == inbox.REJECTED and sent.mails == []
    assert (sent.note or "").startswith("dropped:")
    assert table.state.version == before


def test_a_bounce_is_never_answered(make_table: Callable[..., Table]) -> None:
    table = make_table()
    bounce = (
        "From: Mail Delivery System <MAILER-DAEMON@example.org>\r\n"
        f"To: {MODERATOR}\r\nSubject: Undelivered Mail Returned to Sender\r\n"
        "Message-ID: <bounce-1@example.org>\r\nMIME-Version: 1.0\r\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="B"\r\n\r\n'
        "--B\r\nContent-Type: text/plain\r\n\r\nThis is the mail system.\r\n"
        "game g1\r\nsecret ann-secret-42\r\nwithdraw\r\n"
        "--B\r\nContent-Type: message/delivery-status\r\n\r\n"
        "Reporting-MTA: dns; example.org\r\n\r\nFinal-Recipient: rfc822; ann@example.org\r\n"
        "Action: failed\r\nStatus: 5.1.1\r\n--B--\r\n"
    ).encode()
    sent = table.send(bounce)
    assert sent.status == inbox.REJECTED and sent.mails == []


def test_our_own_mail_is_dropped(make_table: Callable[..., Table]) -> None:
    table = make_table()
    raw = plain_mail("game g1\nstatus\n", {**headers_of("Ann"), "From": MODERATOR})
    sent = table.send(raw)
    assert sent.status == inbox.REJECTED and sent.mails == []


def test_beyond_the_reply_budget_mail_is_held(make_table: Callable[..., Table]) -> None:
    table = make_table(budget=ReplyBudget(2))
    actor, _ = first_order(table)
    results = [table.orders(actor, f"status\n# mail {n}") for n in range(3)]
    assert [r.status for r in results] == [inbox.PROCESSED, inbox.PROCESSED, inbox.REJECTED]
    assert results[2].mails == []
    assert (results[2].note or "").startswith("held for the moderator:")


def test_encrypted_mail_is_answered_only_to_the_registered_address(
    make_table: Callable[..., Table],
) -> None:
    table = make_table()
    message = EmailMessage(policy=compose.POLICY)
    for key, value in headers_of("Ann", message_id="<enc@x>").items():
        message[key] = value
    message["Content-Type"] = 'multipart/encrypted; protocol="application/pgp-encrypted"'
    message.set_payload("-----BEGIN PGP MESSAGE-----\n\nhQ==\n-----END PGP MESSAGE-----\n")
    sent = table.send(message.as_bytes())
    assert sent.status == inbox.REJECTED
    assert [(m.recipient, m.kind) for m in sent.mails] == [("ann@example.org", "refusal")]
    assert "signed but not encrypted" in sent.mails[0].body


def test_mail_naming_no_game_is_answered_with_the_players_games(
    make_table: Callable[..., Table],
) -> None:
    table = make_table()
    raw = plain_mail("secret ann-secret-42\nstatus\n", headers_of("Ann", message_id="<ng@x>"))
    sent = table.send(raw)
    assert sent.status == inbox.REJECTED
    assert "your mail names no game" in full_text(sent.mails[0])
    assert "Your games: g1 (as Ann)." in sent.mails[0].body
    other = plain_mail(
        "game g9\nsecret ann-secret-42\nstatus\n", headers_of("Ann", message_id="<g9@x>")
    )
    (answer,) = table.send(other).mails
    assert "there is no game 'g9'" in full_text(answer)
    assert "g9" not in answer.body  # the game he named is his text: never signed


def test_pgp_mime_helper_makes_verifiable_mail(world: World) -> None:
    party = world.players["Ann"]
    raw = pgp_mime_mail(party, "status\n", headers_of("Ann"))
    assert compose.verify_incoming(raw, world.moderator.keyring).valid
    raw = clearsigned_mail(party, "status\n", headers_of("Ann"))
    assert compose.verify_incoming(raw, world.moderator.keyring).valid
