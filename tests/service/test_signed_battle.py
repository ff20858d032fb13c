"""
Wolff 4.5, as the red team found it broken: a battle's listing (which characters each
engaged legion holds), its "revealed (battle)" lines, its strikes and the openings of
the engaged legions' commitments were in the signed part of every report.  The
moderator never signs what a legion holds, even what every player saw: all of it goes
in each reader's private part (encrypted when he has a key, in clear when he has
none), and the signed part keeps markers, lands, heights, scores and commitments.
Through the real mail: the report as it leaves, signed and encrypted by real GnuPG.
"""

from __future__ import annotations

import email
import email.policy
import quopri
import re
from email.message import EmailMessage

from moderator.mail import compose
from moderator.rules.state import GameState
from moderator.runners.commands import new_game
from moderator.runtime.outgoing import render_outgoing
from moderator.store import EventStore
from moderator.usecases.mail.handler import MailGameHandler

from .conftest import MODERATOR, Table, World, address, carries_report, seat_players
from .test_reports import ENGAGED

#: Characters of the engaged legions (Rd01: Titan, Ogre, Ogre; Bu01: Centaur, Gargoyle).
ENGAGED_CREATURES = ("Ogre", "Centaur", "Gargoyle")


def _in_battle(store: EventStore, world: World) -> tuple[Table, dict[str, EmailMessage]]:
    """ENGAGED fought out by mail: Ann and Bob have keys, Cy none; the reports of Ann's
    'fight' (the battle begins, both legions revealed) as they leave."""
    new_game(store, "g1", None, seed=3, position=ENGAGED)
    keys = {"Ann": world.players["Ann"], "Bob": world.players["Bob"]}
    seat_players(store, "g1", ["Ann", "Bob", "Cy"], keys)
    keyring = world.moderator.keyring
    table = Table(store, MailGameHandler(lambda: keyring, MODERATOR))
    table.set_record(
        allow_secrets=True,
        reported=dict.fromkeys(["Ann", "Bob", "Cy"], 1),
        notify=dict.fromkeys(["Ann", "Bob", "Cy"], "all"),
    )
    for name, line in (("Ann", "engage 1"), ("Bob", "no more proposals")):
        table.orders(name, line)
    sent = table.orders("Ann", "fight")
    assert table.state.battle is not None
    out = {}
    for mail in sent.mails:
        if carries_report(mail):
            message = render_outgoing(mail, keyring, world.moderator.fingerprint, store.clock())
            raw = message.as_bytes(policy=compose.POLICY)
            out[mail.recipient] = email.message_from_bytes(
                raw, _class=EmailMessage, policy=email.policy.default
            )
    return table, out


def _signed_text(message: EmailMessage, world: World) -> str:
    raw = message.as_bytes(policy=compose.POLICY)
    checked = compose.verify_incoming(raw, world.players["Ann"].keyring)
    assert checked.valid and checked.fingerprint == world.moderator.fingerprint
    return quopri.decodestring(checked.signed_data or b"").decode()


def _private_text(message: EmailMessage, world: World, name: str) -> str:
    """The private part as its reader reads it: decrypted with his key, or in clear."""
    encrypted = next(
        (p for p in message.walk() if p.get_content_type() == "multipart/encrypted"), None
    )
    part = message if encrypted is None else compose.decrypt_mime(encrypted, world.players[name].keyring)
    signed = next(p for p in message.walk() if p.get_content_type() == "multipart/signed")
    inside_signed = {id(p) for p in signed.walk()}
    texts = [
        str(p.get_content())
        for p in part.walk()
        if p.get_content_type() == "text/plain" and id(p) not in inside_signed
    ]
    return "\n".join(texts)


def _names_a_creature(text: str) -> list[str]:
    return [c for c in ENGAGED_CREATURES if re.search(rf"\b{c}", text, re.IGNORECASE)]


def _engaged_contents(state: GameState) -> set[str]:
    assert state.battle is not None
    return {f.creature for f in state.battle.fighters}


def test_wolff_4_5_battle_contents_are_never_in_the_signed_part(
    store: EventStore, world: World
) -> None:
    table, mails = _in_battle(store, world)
    assert set(ENGAGED_CREATURES) <= _engaged_contents(table.state)
    assert set(mails) == {address("Ann"), address("Bob"), address("Cy")}
    for name in ("Ann", "Bob", "Cy"):
        message = mails[address(name)]
        signed = _signed_text(message, world)
        assert "Battle at" in signed  # the battle is told, by markers and land
        assert _names_a_creature(signed) == [], (name, signed)
        assert not re.search(r"'s titan\b|revealed|opened: ", signed, re.IGNORECASE), signed
        assert "2 events that every player saw" in signed or "more that name" in signed
        private = _private_text(message, world, name)
        assert _names_a_creature(private) == list(ENGAGED_CREATURES), (name, private)
        assert "revealed (battle)" in private, private
        assert "Hex  Character (hits/power)" in private  # the battle's listing


def test_wolff_4_5_a_player_without_a_key_gets_the_battle_in_clear_unsigned(
    store: EventStore, world: World
) -> None:
    """Cy has no key: his private part goes in clear, outside the signature, as before."""
    _, mails = _in_battle(store, world)
    message = mails[address("Cy")]
    assert not any(p.get_content_type() == "multipart/encrypted" for p in message.walk())
    assert "Hex  Character (hits/power)" in _private_text(message, world, "Cy")
    assert "Hex  Character" not in _signed_text(message, world)
