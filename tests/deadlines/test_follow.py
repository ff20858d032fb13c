"""Deadlines follow the player to act: a new one whenever he or the kind of step changes."""

from __future__ import annotations

from collections.abc import Callable

from moderator.reporting.views import legal_orders
from moderator.runners.commands import order
from moderator.schedule import timing
from moderator.store import deadlines

from .conftest import Desk, address, hours, position, to


def test_wolff_21_0_a_game_with_time_limits_starts_with_a_deadline(
    make_desk: Callable[..., Desk],
) -> None:
    desk = make_desk(("Ann", "Bob"))
    row = desk.acting()
    assert row is not None and row.player == desk.actor and row.kind == timing.SETUP
    assert row.due_at == desk.clock.now() + hours(72)
    deadline = desk.table.record.deadline
    assert deadline is not None and deadline.due == row.due_at
    assert deadline.key == row.step


def test_a_game_without_time_limits_has_no_deadline(make_desk: Callable[..., Desk]) -> None:
    """Wolff 20.4: without time limits set at the start there is nothing to enforce."""
    desk = make_desk(("Ann", "Bob"), limits=None)
    assert desk.acting() is None and desk.table.record.deadline is None
    desk.orders(desk.actor or "", legal_orders(desk.table.state, desk.actor or "")[0])
    assert desk.acting() is None
    assert desk.advance(hours=24 * 30) == []


def test_orders_by_mail_start_the_next_players_deadline_in_the_same_transaction(
    make_desk: Callable[..., Desk],
) -> None:
    zones = {"Ann": "Europe/Berlin", "Bob": "America/New_York"}
    shown = {"Europe/Berlin": "2024-07-04 17:00", "America/New_York": "2024-07-04 11:00"}
    desk = make_desk(("Ann", "Bob"), zones=zones)
    first = desk.actor
    assert first is not None
    desk.clock.advance(hours=5)
    sent = desk.orders(first, legal_orders(desk.table.state, first)[0])
    second = desk.actor
    assert second is not None and second != first
    row = desk.acting()
    assert row is not None and row.player == second and row.due_at == desk.clock.now() + hours(72)
    assert row.seq == desk.table.state.version  # written with the events
    with desk.store.reading() as tx:
        closed = [d for d in deadlines.open_deadlines(tx) if d.player == first]
    assert closed == []
    # every report and reply shows the deadline, in its reader's time zone
    reply = sent.one(address(first), "reply")
    assert f"Deadline: {shown[zones[first]]} ({zones[first]})" in reply.body
    report = sent.one(address(second), "report")
    assert f"Deadline: {shown[zones[second]]} ({zones[second]})" in report.body


def test_the_same_player_in_the_same_step_kind_keeps_his_deadline(
    make_desk: Callable[..., Desk],
) -> None:
    """A masterboard turn is one deadline: the split, the roll and the moves."""
    desk = make_desk(
        position=position(
            [("Rd01", 600, "Titan Ogre Ogre Troll"), ("Bu01", 300, "Titan")], phase="split"
        )
    )
    row = desk.acting()
    assert row is not None and row.kind == timing.TURN
    desk.clock.advance(hours=10)
    desk.orders("Ann", "roll")
    desk.clock.advance(hours=10)
    move = next(line for line in legal_orders(desk.table.state, "Ann") if line.startswith("move"))
    desk.orders("Ann", move)
    again = desk.acting()
    assert again is not None and again.id == row.id and again.due_at == row.due_at
    desk.clock.advance(hours=1)
    desk.orders("Ann", "done")  # movement over: the muster is a step of its own
    muster = desk.acting()
    assert muster is not None and muster.kind == timing.MUSTER and muster.player == "Ann"
    assert muster.due_at == desk.clock.now() + hours(48)


def test_a_refused_order_changes_no_deadline(make_desk: Callable[..., Desk]) -> None:
    desk = make_desk(("Ann", "Bob"))
    row = desk.acting()
    desk.clock.advance(hours=3)
    sent = desk.orders(desk.actor or "", "colour purple")
    assert sent.note and "refused" in sent.note
    assert desk.acting() == row


def test_a_change_outside_the_mail_service_is_caught_up_at_the_next_check(
    make_desk: Callable[..., Desk],
) -> None:
    """A GM's local command moves the game on: the stale deadline is not enforced on anyone."""
    desk = make_desk(("Ann", "Bob"))
    actor = desk.actor or ""
    assert order(desk.store, "g1", actor, legal_orders(desk.table.state, actor)[0])[1]
    stale = desk.acting()
    assert stale is not None and stale.player == actor  # the local command knows no deadlines
    lines = desk.at(stale.due_at + hours(1))
    assert any("moved on without the mail service" in line for line in lines)
    row = desk.acting()
    assert row is not None and row.player == desk.actor != actor
    assert row.due_at == desk.clock.now() + hours(72)
    assert not [m for m in desk.mails() if "deadline passed" in m.subject]
    assert to(desk.mails(), actor) == []
