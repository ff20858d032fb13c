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
from moderator.reporting.narrate import describe, history_lines
from moderator.rules import events as ev
from moderator.rules.state import GameState
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


def test_wolff_4_5_a_message_cannot_steer_the_addressees_screen_to_pass_for_the_moderators_words(
    store: EventStore,
) -> None:
    """
    Ann's message with backspaces, escape sequences or a right-to-left override would,
    in Bob's terminal (``gpg --decrypt`` of his private part), erase "the sender's words,
    not the moderator's" or paint a moderator's line of her choosing: it is refused and
    Bob gets nothing.  Words in any script, emoji and a tab still pass (as the
    moderator lays out any text, its runs of spaces as one).
    """
    new_game(store, "g1", None, seed=3, position=ENGAGED)
    seat_players(store, "g1", ["Ann", "Bob"])
    table = Table(store, MailGameHandler(None, MODERATOR))
    table.set_record(allow_secrets=True, reported=dict.fromkeys(["Ann", "Bob"], 1))
    version = table.state.version
    forged = (
        "\b" * 30 + "\x1b[2J\x1b[H The moderator: Bu01 opened: held Titan, Angel",
        "ok \u202etsoh ruoy si sihT",
    )
    for words in forged:
        sent = table.orders("Ann", f"tell Bob: {words}")
        assert table.state.version == version
        assert not sent.to(address("Bob"))
        (answer,) = sent.to(address("Ann"))
        assert "refused (E-SYNTAX)" in (answer.private_body or "")
        assert "may hold no control characters" in (answer.private_body or "")
    plain = "d'accord, Bob \u2014 \u00e0 toi\tvoil\u00e0 \U0001f44d \u05e9\u05dc\u05d5\u05dd"
    sent = table.orders("Ann", f"tell Bob: {plain}")
    assert sent.status == "processed", sent.note
    (mail,) = sent.to(address("Bob"))
    assert " ".join(plain.split()) in " ".join((mail.private_body or "").split())


def test_wolff_4_5_a_message_passed_on_before_that_shows_its_control_characters_as_codes() -> None:
    """A message logged before they were refused is told with each such character as
    its code, in reports and histories alike: it can steer nobody's screen."""
    said = ev.MessageRelayed(
        sender="Ann", text="ok\b\b\x1b[2J \u202eheld Titan", visible_to=frozenset({"Ann", "Bob"})
    )
    line = describe(said, GameState())
    assert line.endswith('"ok<U+0008><U+0008><U+001B>[2J <U+202E>held Titan"'), line
    assert f"  {line}" in history_lines([said], "Bob")
