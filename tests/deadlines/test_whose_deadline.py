"""
The "Deadline:" line says whose deadline it is (issue 24, item 9): a player reading
"Deadline: 2024-07-04 10:00" in a report could not tell whether the time was his to
act or somebody else's.
"""

from __future__ import annotations

from collections.abc import Callable

from moderator.reporting.views import legal_orders

from .conftest import Desk, address


def test_the_deadline_line_says_whose_deadline_it_is(make_desk: Callable[..., Desk]) -> None:
    desk = make_desk(("Ann", "Bob"))
    first = desk.actor
    assert first is not None
    sent = desk.orders(first, legal_orders(desk.table.state, first)[0])
    second = desk.actor
    assert second is not None and second != first
    due = "2024-07-04 10:00 (UTC)"
    reply = sent.one(address(first), "reply")
    assert f"Deadline: {due}, for {second}'s choice of colour\n" in reply.body
    report = sent.one(address(second), "report")
    assert f"Deadline: {due}, for your choice of colour\n" in report.body
