"""
Issue 23, item 6: the moderator signs nothing a player chose.  His Message-ID, subject,
date, lines, a game or reference he names: none of it is in the signed part of any
answer (the outbox row's ``body``, which ``runtime.outgoing`` signs); the answer names
his mail by when it came and the step it was read at, and echoes the rest in the
private part.
"""

from __future__ import annotations

import quopri
from collections.abc import Callable

import pytest

from moderator.mail import compose
from moderator.runtime.outgoing import render_outgoing
from moderator.store import EventStore, inbox, players
from moderator.usecases.mail.handler import MailGameHandler

from ..tournament.conftest import register
from ..tournament.test_mail import opened
from .conftest import (
    MODERATOR,
    Sent,
    Table,
    World,
    address,
    headers_of,
    plain_mail,
    secret_of,
)
from .test_reports import SPLIT, at_first_split

#: What the player chose to write where an answer might echo it.
CHOSEN = "Rd01 holds Titan"
MESSAGE_IDS = [
    "<Ann: Rd01 holds Titan@example.org>",
    '<"Ann: Rd01 holds Titan"@example.org>',
    "< Ann:Rd01 holds Titan, Ogre, Ogre @ example.org >",
]


def assert_never_signed(sent: Sent, *words: str) -> None:
    """No mail the moderator wrote for ``sent`` holds ``words`` in its signed part."""
    assert sent.mails
    for mail in sent.mails:
        for word in words:
            assert word not in mail.body, (mail.kind, mail.body)


def mail_from(name: str, body: str, message_id: str, subject: str = "orders") -> bytes:
    """A mail whose Message-ID is written byte for byte as given (a mail program's
    header class would refuse the odd ones; an attacker writes his headers himself)."""
    raw = plain_mail(body, headers_of(name, message_id="<placeholder@x>", subject=subject))
    return raw.replace(b"<placeholder@x>", message_id.encode(), 1)


@pytest.mark.parametrize("message_id", MESSAGE_IDS)
def test_a_message_id_with_spaces_and_colons_is_never_in_a_signed_part(
    make_table: Callable[..., Table], message_id: str
) -> None:
    """The attack as reported: 'your mail <Ann.Rd01.holds.Titan.Ogre.Ogre@example.org>
    of ...' in the signed part.  Now the answer names the mail by when it came, for a
    mail carried out, refused, or unauthenticated alike."""
    table = at_first_split(make_table)
    game = f"game g1\n{table.ref}\nsecret {secret_of('Ann')}\n"
    done = table.send(mail_from("Ann", f"{game}{SPLIT}\n", message_id))
    assert done.status == inbox.PROCESSED, done.note
    assert_never_signed(done, CHOSEN, "Rd01")
    answer = done.one(address("Ann"), "reply")
    assert "the answer to your mail received 2024-07-01 10:00 (UTC),\nread at ref g1-" in (
        answer.body
    )
    assert "holds Titan" in (answer.private_body or "")  # echoed where nothing is signed
    refused = table.send(mail_from("Ann", f"{game}split nonsense\n", message_id + " "))
    assert_never_signed(refused, CHOSEN, "nonsense")
    forged = table.send(mail_from("Ann", f"game g1\n{table.ref}\nroll\n", message_id + "  "))
    (refusal,) = forged.mails
    assert refusal.kind == "refusal" and "received 2024-07-01 10:00 (UTC)" in refusal.body
    assert_never_signed(forged, CHOSEN)


def test_a_signed_answer_holds_none_of_the_players_words_once_signed_by_gpg(
    make_table: Callable[..., Table], world: World
) -> None:
    """The same, on the mail as it leaves: the text the moderator's signature covers."""
    table = make_table(keyring=world.moderator.keyring, keys={"Ann": world.players["Ann"]})
    raw = mail_from(
        "Ann",
        f"game g1\n{table.ref}\nsecret {secret_of('Ann')}\nstatus\n",
        MESSAGE_IDS[0],
        subject=f"Ann: {CHOSEN}, Ogre, Ogre",
    )
    sent = table.send(raw)
    assert sent.mails
    for mail in sent.mails:
        out = render_outgoing(mail, world.moderator.keyring, world.moderator.fingerprint,
                              table.store.clock())
        checked = compose.verify_incoming(out.as_bytes(policy=compose.POLICY),
                                          world.moderator.keyring)
        assert checked.valid
        signed = quopri.decodestring(checked.signed_data or b"").decode()
        assert CHOSEN not in signed and "Ogre, Ogre" not in signed


def test_a_reference_or_game_the_player_names_is_not_signed(
    make_table: Callable[..., Table],
) -> None:
    """A reference to 'another game' and a game that does not exist are his words: the
    answer's signed part says what is wrong without them; the private part quotes them."""
    table = at_first_split(make_table)
    secret = f"secret {secret_of('Ann')}"
    other = table.send(
        mail_from("Ann", f"game g1\nref AnnRd01holdsTitan-3\n{secret}\n{SPLIT}\n", "<r1@x>")
    )
    assert_never_signed(other, "AnnRd01holdsTitan")
    answer = other.one(address("Ann"), "reply")
    assert "quotes a reference of another game: nothing was changed" in answer.body
    assert "AnnRd01holdsTitan" in (answer.private_body or "")
    stale = table.send(mail_from("Ann", f"game g1\nref g1-999999123456\n{secret}\nroll\n",
                                 "<r2@x>"))
    assert_never_signed(stale, "999999123456")
    assert "quotes a step game g1 has not reached" in stale.one(address("Ann"), "reply").body
    nowhere = table.send(mail_from("Ann", f"game AnnRd01holdsTitan\n{secret}\nstatus\n", "<r3@x>"))
    assert_never_signed(nowhere, "AnnRd01holdsTitan")
    (refusal,) = nowhere.mails
    assert "there is no game 'AnnRd01holdsTitan'" in (refusal.private_body or "")


def test_tournament_lines_are_answered_without_signing_them(store: EventStore) -> None:
    """The answer to tournament lines quotes each line and what became of it: in the
    private part; the signed part counts them."""
    opened(store)
    register(store, "Zed")
    raw = plain_mail(
        f"secret {secret_of('Zed')}\njoin tournament {CHOSEN.replace(' ', '-')}\n"
        f"standings duel\nleave tournament duel {CHOSEN}\n",
        headers_of("Zed", message_id=MESSAGE_IDS[0]),
    )
    table = Table(store, MailGameHandler(None, MODERATOR))
    sent = table.send(raw)
    assert_never_signed(sent, CHOSEN, CHOSEN.replace(" ", "-"), "Rd01")
    (answer,) = sent.mails
    assert "The results of your tournament lines (your mail read 2024-07-01 10:00 (UTC))" in (
        answer.body
    )
    assert "refused" in answer.body and CHOSEN in (answer.private_body or "")
    with store.reading() as tx:
        assert players.player_by_address(tx, address("Zed")) is not None

