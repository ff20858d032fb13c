"""
Standing orders by mail (issue 15): kept private, used for their owner, told to him.
The use case runs on the in-memory store (``memory_table``): decide, apply, decide again.
"""

from __future__ import annotations

import copy
from typing import Any

from moderator.ports.mail import PROCESSED
from moderator.rules import events as ev
from moderator.rules.legal import to_act
from moderator.rules.state import Step
from moderator.runners.commands import new_game
from moderator.store import EventStore
from moderator.testing.clocks import TestClock as Clock
from moderator.usecases.mail.handler import MailGameHandler

from .conftest import MODERATOR, Table, address, seat_players
from .memory_table import engaged_in_memory
from .test_reports import ENGAGED


def _engaged(store: EventStore, position: dict[str, Any] = ENGAGED) -> Table:
    """The same game in a store (``engaged_in_memory``'s), for the tests through SQL."""
    new_game(store, "g1", None, seed=3, position=position)
    seat_players(store, "g1", ["Ann", "Bob", "Cy"])
    table = Table(store, MailGameHandler(None, MODERATOR))
    table.set_record(allow_secrets=True, reported=dict.fromkeys(["Ann", "Bob", "Cy"], 1))
    return table


def test_wolff_9_4_a_standing_order_is_known_to_the_moderator_alone(clock: Clock) -> None:
    table = engaged_in_memory(clock)
    sent = table.orders("Bob", "standing when attacked: fight", ref=False)
    (answer,) = sent.to(address("Bob"))
    assert "Your standing orders now: standing when attacked: fight." in (
        answer.private_body or ""
    )
    assert "attacked" not in answer.body  # never in the signed part
    assert sent.to(address("Ann")) == [] and sent.to(address("Cy")) == []
    assert table.record.standing == {"Bob": ("standing when attacked: fight",)}


def test_a_standing_order_answers_for_its_owner_and_he_is_told(clock: Clock) -> None:
    """Ann attacks; Bob's standing order makes no proposal and fights for him, so the
    game does not wait for his mail.  Only Bob sees that a standing order acted."""
    table = engaged_in_memory(clock)
    table.orders("Bob", "standing when attacked: fight", ref=False)
    sent = table.orders("Ann", "engage 1")
    assert sent.status == PROCESSED, sent.note
    events = table.events()
    (used,) = [e for e in events if isinstance(e, ev.StandingOrderUsed)]
    assert used.player == "Bob" and used.visible_to == frozenset({"Bob"})
    assert used.order == "no more proposals"
    assert to_act(table.state) == "Ann"  # her decision now: Bob answered at once
    bob = sent.to(address("Bob"))
    told = "\n".join((m.private_body or "") for m in bob)
    assert "Your standing order 'standing when attacked: fight' answered for you" in told
    assert "standing when attacked: fight" in told  # listed in his report
    for mail in [*sent.to(address("Ann")), *sent.to(address("Cy"))]:
        assert "standing" not in f"{mail.body}{mail.private_body or ''}".lower()


def test_9_2_a_standing_order_to_flee_never_stands_for_another_choice(
    clock: Clock,
) -> None:
    """Bob asked to flee, but his attacked legion holds his Titan, a lord, so he may
    not flee (9.2): the standing order gives nothing else, and the game waits for Bob."""
    lorded = copy.deepcopy(ENGAGED)
    lorded["legions"][1]["contents"] = ["Titan", "Gargoyle"]
    lorded["legions"][2]["contents"] = ["Centaur"]
    table = engaged_in_memory(clock, lorded)
    table.orders("Bob", "standing when attacked: flee", ref=False)
    sent = table.orders("Ann", "engage 1")
    state = table.state
    assert not [e for e in table.events() if isinstance(e, ev.StandingOrderUsed)]
    assert state.step is Step.NEGOTIATE and to_act(state) == "Bob"
    assert [m.kind for m in sent.to(address("Bob"))] == ["report"]
