"""
Wolff 4.5: the moderator never signs what a legion holds, even a player's own.  A seat
the robot plays has its orders marked in every report (``Bob's seat (played by the
robot): ...``), and a robot's order line can name characters: a split's contents, a
muster's recruit and what it shows.  Such a line goes in the private part (encrypted
to his key) of a reader who saw all the order did, never in the signed part, which
has it without its characters; a reader who may not know them (another seat's split)
gets only that.  A roll or a move stays signed as it is.  The
same for a player's own orders quoted back in the answer to his mail.  Through the
real mail: a game by mail against a robot, each mail as it leaves, signed and encrypted
by real GnuPG.
"""

from __future__ import annotations

import email
import email.policy
import random
import re
from email.message import EmailMessage

from moderator.audit.seal import robot_seat_of
from moderator.mail import compose
from moderator.orders.render import names_characters
from moderator.ports import StoredMail
from moderator.robots.robot import order
from moderator.robots.view import seat_view
from moderator.rules import events as ev
from moderator.rules.state import Step
from moderator.rules.variant import load_variant
from moderator.runners.commands import start_game
from moderator.runtime.outgoing import render_outgoing
from moderator.schedule import seats
from moderator.store import EventStore, players
from moderator.testing.clocks import TestClock
from moderator.usecases.mail.handler import MailGameHandler

from ..service import conftest as service
from ..service.conftest import MODERATOR, Table, address, carries_report, secret_of
from ..service.test_signed_battle import _private_text, _signed_text
from .conftest import LIMITS, Desk, to

world = service.world

#: Every character's name but the Titan's (the moderator's mails begin "Titan game").
CHARACTERS = tuple(sorted(set(load_variant("standard").creatures) - {"Titan"}))


def _named(text: str) -> list[str]:
    return [c for c in CHARACTERS if re.search(rf"\b{c}s?\b", text, re.IGNORECASE)]


def _as_sent(store: EventStore, mail: StoredMail, w: service.World) -> EmailMessage:
    keyring = w.moderator.keyring
    message = render_outgoing(mail, keyring, w.moderator.fingerprint, store.clock())
    raw = message.as_bytes(policy=compose.POLICY)
    return email.message_from_bytes(raw, _class=EmailMessage, policy=email.policy.default)


def _against_a_robot(store: EventStore, clock: TestClock, w: service.World) -> Desk:
    """Ann, with her key, against one robot seat that answers at once."""
    with store.transaction() as tx:
        players.add_player(
            tx, "Ann", address("Ann"), key_fingerprint=w.players["Ann"].fingerprint,
            secret=secret_of("Ann"),
        )
    start_game(
        store, "g1", [address("Ann")], sender=MODERATOR, seed=11, insecure_seed=True,
        allow_secrets=True, time_limits=LIMITS, seat_keeping=seats.ROBOT, robots=1,
    )
    handler = MailGameHandler(lambda: w.moderator.keyring, MODERATOR)
    return Desk(Table(store, handler, "g1"), clock)


def _robot_lines(desk: Desk) -> list[str]:
    return [
        s.order for s in desk.table.events()
        if isinstance(s, ev.OrderSealed) and s.player and robot_seat_of(s.trigger) == s.player
    ]


def test_wolff_4_5_robot_orders_naming_creatures_are_never_signed(
    store: EventStore, clock: TestClock, world: service.World
) -> None:
    desk = _against_a_robot(store, clock, world)
    mails: list[StoredMail] = desk.mails()
    for sent in range(120):  # Ann plays until the robot has split and mustered
        lines = _robot_lines(desk)
        if any(x.startswith("split ") for x in lines) and any(x.startswith("muster ") for x in lines):
            break
        assert desk.table.state.step is not Step.OVER and desk.actor == "Ann"
        line, _ = order(seat_view(desk.table.state, "Ann"), random.Random(sent))
        assert desk.orders("Ann", line).status == "processed", line
        mails += desk.mails()
    naming = [x for x in _robot_lines(desk) if names_characters(x)]
    assert any(x.startswith("split ") for x in naming) and any(x.startswith("muster ") for x in naming)
    marked = [m for m in to(mails, "Ann") if carries_report(m) and "(played by the robot): " in (
        m.body + (m.private_body or ""))]
    musters = {x for x in naming if x.startswith("muster ")}
    told_in_private: set[str] = set()
    splits_signed: set[str] = set()
    for mail in marked:
        message = _as_sent(store, mail, world)
        signed = _signed_text(message, world)
        assert _named(signed) == [], (mail.subject, signed)
        private = _private_text(message, world, "Ann")
        assert any(p.get_content_type() == "multipart/encrypted" for p in message.walk())
        told_in_private |= {x for x in musters if f"(played by the robot): {x}" in private}
        for split in (x for x in naming if x.startswith("split ")):
            # what the robot's split moved is its seat's alone: Ann never learns it
            assert split not in signed and split not in private
            head = split.partition(":")[0]
            if f"(played by the robot): {head}" in signed:
                splits_signed.add(split)
    assert told_in_private == musters  # every muster reached her, unsigned
    assert splits_signed  # the split is told, signed, without what it moved


def test_wolff_4_5_orders_echoed_in_the_answer_are_never_signed(
    store: EventStore, clock: TestClock, world: service.World
) -> None:
    """Ann's own split, quoted back with its result in the answer to her mail: the
    quote and the contents it names are in her private part only."""
    desk = _against_a_robot(store, clock, world)
    for sent in range(40):
        desk.mails()
        line, _ = order(seat_view(desk.table.state, "Ann"), random.Random(sent))
        done = desk.orders("Ann", line)
        assert done.status == "processed", line
        if line.startswith("split "):
            break
    else:
        raise AssertionError("Ann never split")
    (answer,) = [m for m in to(desk.mails(), "Ann") if m.kind == "reply"]
    message = _as_sent(store, answer, world)
    signed = _signed_text(message, world)
    assert _named(signed) == [] and line not in signed, signed
    private = _private_text(message, world, "Ann")
    assert f"> {line}" in private and _named(private)


def test_wolff_4_5_a_robots_orders_at_a_timeout_name_no_character_in_the_signed_notice(
    store: EventStore, clock: TestClock, world: service.World
) -> None:
    """Bob is silent in a game that keeps seats: at each of his deadlines the robot plays
    his step, and the notice to every player lists what it gave.  A split or a muster
    among them is in the notice's private part, the signed part only counts it."""
    with store.transaction() as tx:
        for name in ("Ann", "Bob"):
            players.add_player(
                tx, name, address(name), key_fingerprint=world.players[name].fingerprint,
                secret=secret_of(name),
            )
    start_game(
        store, "g1", [address("Ann"), address("Bob")], sender=MODERATOR, seed=5,
        insecure_seed=True, allow_secrets=True, time_limits=LIMITS, seat_keeping=seats.ROBOT,
        keep_after=100,
    )
    desk = Desk(Table(store, MailGameHandler(lambda: world.moderator.keyring, MODERATOR), "g1"), clock)
    notices: list[StoredMail] = []
    for sent in range(300):
        if any(m.private_body and "split " in m.private_body for m in notices):
            break
        assert desk.table.state.step is not Step.OVER
        if desk.actor == "Ann":
            line, _ = order(seat_view(desk.table.state, "Ann"), random.Random(sent))
            assert desk.orders("Ann", line).status == "processed", line
        else:
            row = desk.acting()
            assert row is not None and row.player == "Bob"
            desk.at(row.due_at)
        notices += [m for m in desk.mails() if "deadline passed" in m.subject]
    told = [m for m in notices if m.private_body and "split " in m.private_body]
    assert {m.recipient for m in told} == {address("Bob")}  # his split, his alone
    for mail in notices:
        assert _named(mail.body) == [], mail.body
        message = _as_sent(store, mail, world)
        assert _named(_signed_text(message, world)) == []
        if mail.recipient == address("Ann"):
            assert mail.private_body is None
    for mail in told:
        assert "in full, with the characters they name, in the private part" in mail.body
        assert _named(mail.private_body or "")
    assert any(re.search(r"^  split \S+ into \S+$", m.body, re.MULTILINE) for m in notices
               if m.recipient == address("Ann"))
