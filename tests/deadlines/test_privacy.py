"""
Wolff 4.5: the clock's mails (reminders, timeout notices, absences, outages) hold only
what every player may know; each player's private events reach him in his report.
"""

from __future__ import annotations

from collections.abc import Callable

from moderator.reporting.views import legal_orders
from moderator.runners import clock as clockwork

from ..service.privacy import Knowledge, leaks
from .conftest import MODERATOR, Desk, hours

THREE = ("Ann", "Bob", "Cy")


def _check_mails(desk: Desk) -> list[str]:
    """Every mail written since the last look leaks nothing to its reader; their kinds."""
    knowledge = Knowledge()
    knowledge.follow(desk.store.load(desk.game_id))
    seats = {f"{name.lower()}@example.org": name for name in THREE}
    mails = desk.mails()
    for mail in mails:
        if mail.recipient == MODERATOR:
            continue
        reader = seats[mail.recipient]
        assert leaks(mail, reader, knowledge) == [], mail.subject
        if mail.kind == "notice":
            assert mail.private_body is None  # nothing private to tell
    return [str(m.kind) for m in mails]


def test_wolff_4_5_a_timeout_notice_tells_the_others_nothing_private(
    make_desk: Callable[..., Desk],
) -> None:
    desk = make_desk(THREE, seed=7)
    while desk.table.state.step.value == "colour":
        actor = desk.actor or ""
        desk.orders(actor, next(o for o in legal_orders(desk.table.state, actor) if "colour" in o))
        _check_mails(desk)
    first = desk.actor or ""
    split = next(o for o in legal_orders(desk.table.state, first) if o.startswith("split"))
    desk.orders(first, f"{split}\nroll")  # contents only he knows
    _check_mails(desk)
    row = desk.acting()
    assert row is not None and row.player == first
    desk.at(row.due_at - hours(24))  # a reminder
    assert _check_mails(desk) == ["notice"]
    lines = desk.at(row.due_at)  # he times out: withdraws (Wolff 20.4)
    assert "did not act" in lines[0]
    assert sorted(_check_mails(desk)) == ["notice"] * 3 + ["report"] * 3
    second = desk.actor or ""
    split = next(o for o in legal_orders(desk.table.state, second) if o.startswith("split"))
    desk.orders(second, f"{split}\nroll")
    _check_mails(desk)
    desk.orders(second, "absent from 2024-07-20 to 2024-07-21", ref=False)
    _check_mails(desk)
    row = desk.acting()
    assert row is not None
    desk.at(row.due_at - hours(1))
    _check_mails(desk)
    desk.clock.set(row.due_at + hours(5))  # down through the deadline
    clockwork.service_started(desk.store, MODERATOR, desk.clock.now(), max_outage=hours(1))
    _check_mails(desk)
    row = desk.acting()
    assert row is not None
    desk.at(row.due_at)
    _check_mails(desk)
