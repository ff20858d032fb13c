"""Reminders before a deadline: to the player to act, each once, at its moment."""

from __future__ import annotations

from collections.abc import Callable

from moderator.schedule.timing import TimeLimits
from moderator.usecases.games import notify

from .conftest import Desk, address, hours, position, to


def _turn(make_desk: Callable[..., Desk], **kw: object) -> Desk:
    return make_desk(
        position=position(
            [("Rd01", 600, "Titan Ogre"), ("Bu01", 300, "Titan Ogre")], phase="split"
        ),
        zones={"Ann": "Asia/Tokyo"},
        **kw,
    )


def test_wolff_21_0_reminders_go_to_the_player_to_act_once_each_at_their_moment(
    make_desk: Callable[..., Desk],
) -> None:
    desk = _turn(make_desk)
    row = desk.acting()
    assert row is not None and row.player == "Ann"
    due = row.due_at
    assert desk.at(due - hours(24) - hours(0.02)) == []
    assert desk.mails() == []
    lines = desk.at(due - hours(24))
    assert lines == [f"g1: reminded Ann of the deadline {due.isoformat()}"]
    (mail,) = desk.mails()
    assert mail.recipient == address("Ann") and mail.kind == notify.NOTICE
    assert mail.private_body is None  # nothing private in it
    assert "2024-07-04 19:00 (Asia/Tokyo)" in mail.body  # in her time zone
    assert "about 24 hours from now" in mail.body
    assert "withdraw" in mail.body  # what a refusal would be now (Wolff 20.4)
    assert mail.subject.startswith("[titan g1] Reminder:")
    # once: later checks before the next reminder send nothing
    assert desk.advance(minutes=1) == [] and desk.advance(hours=10) == []
    assert desk.mails() == []
    assert desk.at(due - hours(4)) == [f"g1: reminded Ann of the deadline {due.isoformat()}"]
    (second,) = desk.mails()
    assert "about 4 hours from now" in second.body
    assert desk.at(due - hours(1)) == [] and desk.mails() == []
    assert (desk.acting() or row).reminded == 2


def test_reminders_missed_together_send_one_mail(make_desk: Callable[..., Desk]) -> None:
    desk = _turn(make_desk)
    row = desk.acting()
    assert row is not None
    assert len(desk.at(row.due_at - hours(2))) == 1  # both moments passed: one reminder
    assert len(desk.mails()) == 1
    assert desk.at(row.due_at - hours(1)) == []


def test_a_deadline_shorter_than_a_reminders_lead_skips_that_reminder(
    make_desk: Callable[..., Desk],
) -> None:
    desk = _turn(make_desk, limits=TimeLimits(turn_hours=12, minimum_hours=12))
    row = desk.acting()
    assert row is not None and row.reminded == 1  # the 24-hour reminder never applies
    assert desk.at(row.due_at - hours(5)) == []
    assert len(desk.at(row.due_at - hours(4))) == 1


def test_acting_in_time_ends_the_reminders(make_desk: Callable[..., Desk]) -> None:
    desk = make_desk(
        position=position(
            [("Rd01", 600, "Titan Ogre"), ("Bu01", 300, "Titan Ogre"), ("Gr01", 100, "Titan")],
            players=("Ann", "Bob", "Cy"),
            phase="split",
        )
    )
    row = desk.acting()
    assert row is not None
    desk.at(row.due_at - hours(24))
    desk.mails()
    desk.orders("Ann", "roll")  # same turn: the same deadline runs on
    desk.orders("Ann", "withdraw")  # ... and ends it
    desk.mails()
    after = desk.acting()
    assert after is not None and after.player == "Bob"
    assert desk.at(row.due_at - hours(4)) == []
    assert to(desk.mails(), "Ann") == []
