"""
Signing on by mail: with a key that signs the sign-on, or with a secret.  The use case
runs on the in-memory store (``memory_table.memory_desk``) with real GnuPG keyrings.
"""

from __future__ import annotations

from email.message import EmailMessage, MIMEPart

import pytest

from moderator.mail import compose
from moderator.mail.gpg import Keyring
from moderator.ports import Player, StoredMail, Work
from moderator.ports.mail import PROCESSED, REJECTED
from moderator.ports.players import secret_matches
from moderator.testing.clocks import TestClock as Clock
from moderator.usecases.games.planning import plan_game
from moderator.usecases.games.starting import NewGame, StartError, start_game

from ..gpgparties import Party
from .conftest import World, full_text, headers_of, plain_mail
from .memory_table import MemoryDesk, memory_desk

NEW = "stranger@elsewhere.example"


def send(where: MemoryDesk, raw: bytes) -> tuple[str, str, list[StoredMail]]:
    sent = where.send(raw)
    return sent.status, sent.note or "", sent.mails


def key_part(party: Party) -> MIMEPart:
    part = MIMEPart(policy=compose.POLICY)
    part.set_content(
        party.keyring.export_public(party.fingerprint).encode(),
        maintype="application",
        subtype="pgp-keys",
        disposition="attachment",
        filename="key.asc",
    )
    return part


def signed_signon(signer: Party, sender: Party, body: str) -> bytes:
    """PGP/MIME: the sign-on text and ``sender``'s key, signed by ``signer``."""
    message = compose.signed_mime([body, key_part(sender)], signer.keyring, signer.fingerprint)
    for key, value in headers_of("Stranger", sender=NEW, subject="signon").items():
        message[key] = value
    return message.as_bytes(policy=compose.POLICY)


def registered(where: MemoryDesk, address: str = NEW) -> Player | None:
    return where.memory.player(address)


def test_sign_on_with_an_attached_key_that_signs_the_mail(
    clock: Clock, stranger: Party, fresh_keyring: Keyring
) -> None:
    desk = memory_desk(clock, fresh_keyring)
    raw = signed_signon(stranger, stranger, "signon Stella Stranger\ntimezone Europe/Berlin\n")
    status, note, mails = send(desk, raw)
    assert status == PROCESSED, note
    player = registered(desk)
    assert player is not None
    assert (player.name, player.time_zone) == ("Stella Stranger", "Europe/Berlin")
    assert player.key_fingerprint == stranger.fingerprint and player.secret_hash is None
    (welcome,) = mails
    assert (welcome.recipient, welcome.kind) == (NEW, "welcome")
    assert stranger.fingerprint in welcome.body
    # The key is in the moderator's keyring now: the new player's signed mail is his.
    signed = compose.verify_incoming(
        compose.signed_mime(["x\n"], stranger.keyring, stranger.fingerprint).as_bytes(),
        fresh_keyring,
    )
    assert signed.valid


def test_sign_on_with_an_inline_key_in_a_clearsigned_mail(
    clock: Clock, stranger: Party, fresh_keyring: Keyring
) -> None:
    desk = memory_desk(clock, fresh_keyring)
    key = stranger.keyring.export_public(stranger.fingerprint)
    block = stranger.keyring.clearsign(f"signon Stella\n\n{key}", stranger.fingerprint)
    raw = plain_mail(block.decode(), headers_of("Stella", sender=NEW))
    status, note, _mails = send(desk, raw)
    assert status == PROCESSED, note
    assert registered(desk).key_fingerprint == stranger.fingerprint  # type: ignore[union-attr]


def test_a_key_must_sign_its_own_sign_on(
    clock: Clock, stranger: Party, world: World, fresh_keyring: Keyring
) -> None:
    desk = memory_desk(clock, fresh_keyring)
    unsigned = EmailMessage(policy=compose.POLICY)
    for key, value in headers_of("Stranger", sender=NEW).items():
        unsigned[key] = value
    unsigned.set_content("signon Stella\n")
    unsigned.add_attachment(
        stranger.keyring.export_public(stranger.fingerprint).encode(),
        maintype="application",
        subtype="pgp-keys",
        filename="key.asc",
    )
    status, note, mails = send(desk, unsigned.as_bytes())
    assert status == REJECTED and "carries a public key but is not signed" in note
    assert [(m.recipient, m.kind) for m in mails] == [(NEW, "signon-refusal")]
    assert "sign the mail with that same key" in mails[0].body
    assert registered(desk) is None
    # Signed, but by another key than the one sent: refused too, and answered again
    # (up to five answers a day to an address nobody registered).
    raw = signed_signon(world.players["Ann"], stranger, "signon Stella\n")
    status, note, mails = send(desk, raw)
    assert status == REJECTED and "must be signed with the key you send" in note
    assert [(m.recipient, m.kind) for m in mails] == [(NEW, "signon-refusal")]
    assert registered(desk) is None


def test_sign_on_with_a_secret_keeps_only_its_hash(clock: Clock) -> None:
    desk = memory_desk(clock)
    raw = plain_mail("signon Dora\nsecret correct-horse-battery\n", headers_of("Dora", sender=NEW))
    status, note, mails = send(desk, raw)
    assert status == PROCESSED, note
    player = registered(desk)
    assert player is not None and player.key_fingerprint is None
    assert player.secret_hash and "correct-horse" not in player.secret_hash
    assert secret_matches("correct-horse-battery", player.secret_hash)
    assert all("correct-horse" not in (m.body + (m.private_body or "")) for m in mails)
    # Seated in a game that allows secrets, Dora plays by mail with her secret.
    planned, _ = plan_game("g2", ["Dora", "Eve"], 3, None, None, desk.now(), seats=[("Dora", NEW)])
    assert planned.record is not None
    desk.unit.write(Work(games=(planned.but(record=planned.record.but(allow_secrets=True)),)))
    raw = plain_mail(
        "game g2\nsecret correct-horse-battery\nstatus\n",
        headers_of("Dora", sender=NEW, message_id="<dora-2@x>"),
    )
    status, note, mails = send(desk, raw)
    assert status == PROCESSED, note


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ("signon Dora\nsecret short\n", "at least 8 characters"),
        (
            "signon Dora\ntimezone Mars/Olympus\nsecret long-enough-1\n",
            "not one of the tz database",
        ),
        ("signon <Dora>\nsecret long-enough-1\n", "write 'signon YOUR NAME'"),
        ("signon Dora\n", "needs your PGP public key"),
        ("signon B\u043eb\nsecret long-enough-1\n", "letters of one alphabet"),
    ],
    ids=["short-secret", "time-zone", "name", "nothing-to-authenticate", "lookalike-letters"],
)
def test_bad_sign_ons_are_refused(clock: Clock, body: str, why: str) -> None:
    desk = memory_desk(clock)
    status, note, mails = send(desk, plain_mail(body, headers_of("Dora", sender=NEW)))
    assert status == REJECTED and why in note
    assert [m.kind for m in mails] == ["signon-refusal"] and why in full_text(mails[0])
    assert registered(desk) is None


@pytest.mark.parametrize(
    "name", ["\u0418\u0432\u0430\u043d \u041f\u0435\u0442\u0440\u043e\u0432", "Zo\u00eb O'Neil", "\u5c71\u7530\u306f\u306a"]
)
def test_a_name_in_one_alphabet_signs_on(clock: Clock, name: str) -> None:
    """Any alphabet, accents and Japanese kana with kanji: only look-alike letters mixed
    (a Cyrillic o in Bob, above) are refused."""
    desk = memory_desk(clock)
    raw = plain_mail(f"signon {name}\nsecret long-enough-1\n", headers_of("Dora", sender=NEW))
    status, note, _mails = send(desk, raw)
    assert status == PROCESSED, note
    assert registered(desk).name == name  # type: ignore[union-attr]


def test_two_players_whose_names_read_the_same_are_not_seated_in_one_game(clock: Clock) -> None:
    """Bob and bob would read as one player in every report, and 'tell bob' could name
    only one of them: the game is not started."""
    desk = memory_desk(clock)
    desk.memory.add_player("Bob", "bob@example.org", secret="bob-secret-42")
    desk.memory.add_player("bob", "bob2@example.org", secret="bob2-secret-42")
    with pytest.raises(StartError, match="two players have the same name"):
        start_game(NewGame("g9", ("bob@example.org", "bob2@example.org"), "m@x"), desk.memory, desk.now())


def test_a_registered_address_cannot_sign_on_again(clock: Clock) -> None:
    desk = memory_desk(clock)
    desk.memory.add_player("Ann", "ann@example.org", secret="ann-secret-42")
    raw = plain_mail("signon Mallory\nsecret another-secret\n", headers_of("Ann"))
    status, _note, mails = send(desk, raw)
    assert status == REJECTED
    assert registered(desk, "ann@example.org").name == "Ann"  # type: ignore[union-attr]
    assert [m.recipient for m in mails] == ["ann@example.org"]
    assert "this address is registered already" in full_text(mails[0])
    assert "change address from ann@example.org" in mails[0].body


def test_refused_sign_ons_are_answered_five_times_a_day(clock: Clock) -> None:
    """Today the second failed attempt of a day went unanswered; five are answered now."""
    desk = memory_desk(clock)
    answered = []
    for attempt in range(7):
        body = f"signon Dora\nsecret short{attempt}\n"
        _status, _note, mails = send(desk, plain_mail(body, headers_of("Dora", sender=NEW)))
        answered.append(len(mails))
    assert answered == [1, 1, 1, 1, 1, 0, 0]
