"""Outages of the service: long ones extend deadlines (and say so), short ones do not."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from moderator.runners import clock as clockwork
from moderator.store import EventStore, deadlines
from moderator.testing.stores import open_store
from moderator.usecases.games import notify

from .conftest import MODERATOR, Desk, hours, to

THREE = ("Ann", "Bob", "Cy")


def _heartbeat(store: EventStore) -> object:
    with store.reading() as tx:
        return deadlines.heartbeat(tx)


def test_check_deadlines_records_a_heartbeat(make_desk: Callable[..., Desk]) -> None:
    desk = make_desk(THREE)
    assert _heartbeat(desk.store) is None
    desk.check()
    assert _heartbeat(desk.store) == desk.clock.now()
    desk.advance(minutes=1)
    assert _heartbeat(desk.store) == desk.clock.now()


def test_an_outage_longer_than_allowed_extends_every_deadline_and_tells_everybody(
    any_store: EventStore, make_desk: Callable[..., Desk]
) -> None:
    desk = make_desk(THREE, on=any_store)
    other = make_desk(("Ann", "Bob"), game_id="g2", on=any_store)
    desk.check()
    row = desk.acting()
    second = other.acting()
    assert row is not None and second is not None
    last = desk.clock.now()
    desk.clock.set(row.due_at + hours(2))  # down through the deadline, 74 hours in all
    down = desk.clock.now() - last
    any_store.close()
    with open_store(any_store.url, clock=desk.clock) as again:  # the restarted service
        lines = clockwork.service_started(
            again, MODERATOR, desk.clock.now(), max_outage=timedelta(hours=1)
        )
        assert lines[0].startswith("the service was down from") and "2 deadline(s)" in lines[0]
        assert not [line for line in lines if "did not act" in line]  # nobody timed out
        with again.reading() as tx:
            rows = {d.game_id: d for d in deadlines.open_deadlines(tx) if d.acting}
            record = tx.record("g1")
            heartbeat = deadlines.heartbeat(tx)
        assert rows["g1"].id == row.id and rows["g1"].due_at == row.due_at + down
        assert rows["g2"].due_at == second.due_at + down
        assert record.deadline is not None and record.deadline.due == row.due_at + down
        assert heartbeat == desk.clock.now()
        desk.table.store = again
        mails = desk.mails()
        (summary,) = [m for m in mails if m.recipient == MODERATOR]
        assert "down for\n3 days 2 hours" in summary.body and "g1:" in summary.body
        assert summary.kind == notify.NOTICE
        for name in THREE:
            (told,) = [m for m in to(mails, name) if m.game_id == "g1"]
            assert "extended by that time" in told.body
        # the next minute is an ordinary one
        assert desk.advance(minutes=1) == []


def test_an_outage_extends_a_deadline_to_at_least_the_minimum(
    make_desk: Callable[..., Desk],
) -> None:
    desk = make_desk(THREE)
    row = desk.acting()
    assert row is not None
    desk.at(row.due_at - hours(1))  # the heartbeat an hour before the deadline
    desk.mails()
    desk.clock.set(row.due_at + hours(1))  # two hours down
    clockwork.service_started(desk.store, MODERATOR, desk.clock.now(), max_outage=hours(1))
    after = desk.acting()
    assert after is not None and after.due_at == desk.clock.now() + hours(24)


def test_a_short_outage_is_handled_as_usual(make_desk: Callable[..., Desk]) -> None:
    desk = make_desk(THREE)
    row = desk.acting()
    assert row is not None
    desk.at(row.due_at - hours(0.25))
    desk.mails()
    desk.clock.set(row.due_at + hours(0.25))  # half an hour down: within the allowance
    lines = clockwork.service_started(desk.store, MODERATOR, desk.clock.now(), max_outage=hours(1))
    assert len(lines) == 1 and "did not act" in lines[0]
    assert not [m for m in desk.mails() if m.recipient == MODERATOR]


def test_the_first_start_is_no_outage(make_desk: Callable[..., Desk]) -> None:
    desk = make_desk(THREE)
    lines = clockwork.service_started(desk.store, MODERATOR, desk.clock.now(), max_outage=hours(1))
    assert lines == [] and desk.mails() == []
    assert _heartbeat(desk.store) == desk.clock.now()


def test_check_deadlines_with_max_outage_catches_a_gap_while_running(
    make_desk: Callable[..., Desk],
) -> None:
    """A machine that slept through its deadlines does not time anyone out on waking."""
    desk = make_desk(THREE)
    row = desk.acting()
    assert row is not None
    desk.check()
    desk.clock.set(row.due_at + hours(5))
    lines = clockwork.check_deadlines(
        desk.store, MODERATOR, desk.clock.now(), max_outage=timedelta(hours=1)
    )
    assert lines[0].startswith("the service was down")
    assert not [line for line in lines if "did not act" in line]
