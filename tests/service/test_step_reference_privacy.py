"""
A step reference counts only what its player may see (``schedule.reference``): a
bystander whose reference jumped further than the moves he was told of would learn
that something passed between others (a show, a message, the look two players take at
their engagement).  The protections it exists for still hold: an order written for a
state its sender saw is refused once the game moved on, and a mail sent again changes
nothing.  On the in-memory store (``memory_table``).
"""

from __future__ import annotations

import re

from moderator.ports.mail import PROCESSED
from moderator.rules import events as ev
from moderator.testing.clocks import TestClock as Clock

from .conftest import address
from .memory_table import MemoryTable, engaged_in_memory

_STEP = re.compile(r"Step reference: (ref g1-\d+)")


def _cy_after_ann_engages(table: MemoryTable) -> tuple[str, list[ev.Event]]:
    """Ann attacks Bob: the reference Cy's report gives, and the events of the attack."""
    logged = len(table.events())
    sent = table.orders("Ann", "engage 1")
    assert sent.status == PROCESSED and sent.note is None, sent.note
    attack = list(table.events())[logged:]
    asked = table.orders("Cy", "report", ref=False)  # a query: it needs no reference
    found = {m for mail in asked.to(address("Cy")) for m in _STEP.findall(mail.body)}
    assert len(found) == 1, found
    return found.pop(), attack


def test_a_step_reference_does_not_count_events_a_player_may_not_see(clock: Clock) -> None:
    """Two games alike but for what Ann and Bob alone saw give Cy the same reference."""
    quiet, busy = engaged_in_memory(clock), engaged_in_memory(clock)
    told = busy.orders("Ann", "tell Bob: let us settle this quietly")
    assert told.status == PROCESSED, told.note
    assert told.to(address("Cy")) == []
    assert len(busy.events()) > len(quiet.events())  # the logs differ by a hidden event
    quiet_ref, attack = _cy_after_ann_engages(quiet)
    busy_ref, _ = _cy_after_ann_engages(busy)
    assert quiet_ref == busy_ref == quiet.ref_of("Cy") == busy.ref_of("Cy")
    # The attack itself held moves only Ann and Bob saw (the look at both legions):
    # they count in their references, never in Cy's.
    hidden = [e for e in attack if e.visible_to is not None and not ev.is_aside(e)]
    assert hidden and all("Cy" not in e.visible_to for e in hidden if e.visible_to)
    assert quiet.state.steps_seen("Ann") == quiet.state.steps_seen("Cy") + len(hidden)


def test_an_order_for_a_step_its_sender_saw_is_still_refused_once_the_game_moved_on(
    clock: Clock,
) -> None:
    table = engaged_in_memory(clock)
    old = table.ref_of("Bob")
    assert table.orders("Ann", "engage 1").status == PROCESSED  # Bob is told of it
    assert table.ref_of("Bob") != old
    logged = len(table.events())
    sent = table.orders("Bob", "fight", ref=old)
    assert sent.note == "refused: E-REF-STALE"
    assert len(table.events()) == logged  # nothing changed
    (answer,) = sent.to(address("Bob"))
    assert f"but the game has moved on to '{table.ref_of('Bob')}'" in (answer.private_body or "")


def test_a_message_between_others_leaves_a_bystanders_reference_good(clock: Clock) -> None:
    table = engaged_in_memory(clock)
    cy = table.ref_of("Cy")
    assert table.orders("Ann", "tell Bob: not a word to Cy").status == PROCESSED
    assert table.ref_of("Cy") == cy


def test_an_order_mail_sent_again_changes_nothing(clock: Clock) -> None:
    table = engaged_in_memory(clock)
    ref = table.ref_of("Ann")
    assert table.orders("Ann", "engage 1", ref=ref).status == PROCESSED
    logged = len(table.events())
    again = table.orders("Ann", "engage 1", ref=ref)
    assert (again.note or "").startswith("refused"), again.note
    assert len(table.events()) == logged
