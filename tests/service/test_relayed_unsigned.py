"""
Wolff 4.5 on the relay path, as the mail leaves: a message passed on reaches each
addressee in the private part of his mail, encrypted to his key or, for a player
without one, in clear; never inside the part the moderator signs.  So no addressee can
prove what the sender wrote.  Real GnuPG signs and encrypts each mail.
"""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage

from moderator.mail import compose
from moderator.ports import StoredMail
from moderator.runners.commands import new_game
from moderator.runtime.outgoing import render_outgoing
from moderator.store import EventStore
from moderator.usecases.mail.handler import MailGameHandler

from .conftest import MODERATOR, Table, World, address, seat_players
from .test_reports import ENGAGED
from .test_signed_battle import _private_text, _signed_text

WORDS = "my Rd01 holds two ogres, believe me"


def _as_sent(store: EventStore, mail: StoredMail, world: World) -> EmailMessage:
    keyring = world.moderator.keyring
    message = render_outgoing(mail, keyring, world.moderator.fingerprint, store.clock())
    raw = message.as_bytes(policy=compose.POLICY)
    return email.message_from_bytes(raw, _class=EmailMessage, policy=email.policy.default)


def test_wolff_4_5_a_relayed_message_is_never_in_a_signed_part(
    store: EventStore, world: World
) -> None:
    new_game(store, "g1", None, seed=3, position=ENGAGED)
    keys = {"Ann": world.players["Ann"], "Bob": world.players["Bob"]}  # Cy has none
    seat_players(store, "g1", ["Ann", "Bob", "Cy"], keys)
    keyring = world.moderator.keyring
    table = Table(store, MailGameHandler(lambda: keyring, MODERATOR))
    table.set_record(allow_secrets=True, reported=dict.fromkeys(["Ann", "Bob", "Cy"], 1))
    sent = table.orders("Ann", f"tell Bob, Cy: {WORDS}")
    assert sent.status == "processed", sent.note
    for name, encrypted in (("Bob", True), ("Cy", False), ("Ann", True)):  # Ann: her echo
        (mail,) = sent.to(address(name))
        message = _as_sent(store, mail, world)
        assert any(p.get_content_type() == "multipart/encrypted" for p in message.walk()) is encrypted
        assert WORDS not in _signed_text(message, world), name
        assert WORDS in _private_text(message, world, name), name
