"""Absences by mail: they move the absent player's deadlines, within the game's limits."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from moderator.ports.deadlines import ABSENCE_END
from moderator.schedule.timing import TimeLimits
from moderator.store import deadlines

from .conftest import Desk, hours, position, to

THREE = ("Ann", "Bob", "Cy")


def _split(make_desk: Callable[..., Desk], **kw: object) -> Desk:
    """Ann's turn (72 hours from 2024-07-01 10:00 UTC), three players."""
    return make_desk(
        position=position(
            [("Rd01", 600, "Titan Ogre"), ("Bu01", 300, "Titan Ogre"), ("Gr01", 100, "Titan")],
            players=THREE,
            phase="split",
        ),
        **kw,
    )


def test_an_absence_moves_the_absent_players_deadline_past_it(
    make_desk: Callable[..., Desk],
) -> None:
    desk = _split(make_desk, zones={"Ann": "Europe/Berlin"})
    row = desk.acting()
    assert row is not None and row.due_at == datetime(2024, 7, 4, 10, tzinfo=UTC)
    sent = desk.orders("Ann", "absent from 2024-07-03 to 2024-07-07", ref=False)
    assert sent.note is None, sent.note
    reply = sent.one("ann@example.org", "reply")
    assert "you are away from 2024-07-03 to 2024-07-07" in (reply.private_body or "").lower()
    ends = datetime(2024, 7, 7, 22, tzinfo=UTC)  # midnight after the 7th in Berlin
    moved = desk.acting()
    assert moved is not None and moved.id == row.id and moved.due_at == ends + hours(72)
    assert "Deadline: 2024-07-11 00:00 (Europe/Berlin)" in reply.body
    # the other players are told; nothing goes to Ann but her reply
    for name in ("Bob", "Cy"):
        (notice,) = to(sent.mails, name)
        assert "Ann will be away from 2024-07-03 to 2024-07-07" in notice.body
        assert notice.kind == "notice" and notice.private_body is None
    assert [m.kind for m in to(sent.mails, "Ann")] == ["reply"]
    # no timeout at the old moment; the absence's end is told to all
    desk.mails()
    assert desk.at(row.due_at + hours(1)) == []
    lines = desk.at(ends)
    assert lines == ["g1: Ann's absence (2024-07-03 to 2024-07-07) is over"]
    back = desk.mails()
    assert {m.recipient for m in back} == {"ann@example.org", "bob@example.org", "cy@example.org"}
    assert all("Ann is back" in m.body and "is over" in m.body for m in back)


def test_an_absence_of_a_player_not_to_act_moves_his_next_deadline(
    make_desk: Callable[..., Desk],
) -> None:
    desk = _split(make_desk)
    desk.orders("Bob", "absent from 2024-07-02 to 2024-07-05", ref=False)
    row = desk.acting()
    assert (
        row is not None
        and row.player == "Ann"
        and row.due_at == datetime(2024, 7, 4, 10, tzinfo=UTC)
    )
    desk.orders("Ann", "withdraw")  # Bob's turn starts during his absence
    bobs = desk.acting()
    assert bobs is not None and bobs.player == "Bob"
    assert bobs.due_at == datetime(2024, 7, 6, tzinfo=UTC) + hours(72)


def test_absences_over_the_limits_are_refused_and_change_nothing(
    make_desk: Callable[..., Desk],
) -> None:
    desk = _split(make_desk, limits=TimeLimits(absences=2, absence_days=5, absence_total_days=6))
    record = desk.table.record
    long = desk.orders("Ann", "absent from 2024-07-10 to 2024-07-20", ref=False)
    assert long.note == "refused: E-ABSENCE"
    private = long.one("ann@example.org", "reply").private_body or ""
    assert "refused (E-ABSENCE): 11 days is longer than this game allows (5 days)" in private
    assert [m.kind for m in long.mails] == ["reply"]  # nobody else is told of a refusal
    assert desk.table.record == record
    assert desk.orders("Ann", "absent from 2024-07-10 to 2024-07-14", ref=False).note is None
    total = desk.orders("Ann", "absent from 2024-08-10 to 2024-08-11", ref=False)
    assert "6 days of absence in all; you have 1 left" in (total.mails[0].private_body or "")
    assert desk.orders("Ann", "absent from 2024-08-10 to 2024-08-10", ref=False).note is None
    third = desk.orders("Ann", "absent from 2024-09-10 to 2024-09-10", ref=False)
    assert "the most it allows" in (third.mails[0].private_body or "")
    past = desk.orders("Bob", "absent from 2024-06-10 to 2024-06-11", ref=False)
    assert "cannot begin in the past" in (past.mails[0].private_body or "")
    none = make_desk(("Ann", "Bob"), game_id="g2", limits=TimeLimits(absences=0))
    refused = none.orders("Ann", "absent from 2024-07-10 to 2024-07-11", ref=False)
    assert "this game allows no absences" in (refused.mails[0].private_body or "")


def test_absent_cancel_brings_the_deadline_back(make_desk: Callable[..., Desk]) -> None:
    desk = _split(make_desk)
    desk.orders("Ann", "absent from 2024-07-01 to 2024-07-10", ref=False)
    away = desk.acting()
    assert away is not None and away.due_at == datetime(2024, 7, 11, tzinfo=UTC) + hours(72)
    desk.mails()
    desk.clock.advance(hours=30)
    sent = desk.orders("Ann", "absent cancel", ref=False)
    assert sent.note is None
    back = desk.acting()
    assert back is not None and back.due_at == desk.clock.now() + hours(72)
    for name in ("Bob", "Cy"):
        (notice,) = to(sent.mails, name)
        assert "Ann is back" in notice.body and "ended early" in notice.body
    with desk.store.reading() as tx:
        ends = [d for d in deadlines.open_deadlines(tx) if d.kind == ABSENCE_END]
    assert ends and ends[0].due_at == desk.clock.now()  # told at the next check
    desk.check()
    assert desk.mails()  # the absence's end
    assert desk.check() == []


def test_withdrawing_a_coming_absence(make_desk: Callable[..., Desk]) -> None:
    desk = _split(make_desk)
    desk.orders("Ann", "absent from 2024-07-03 to 2024-07-05", ref=False)
    sent = desk.orders("Ann", "absent cancel", ref=False)
    row = desk.acting()
    assert row is not None and row.due_at == datetime(2024, 7, 4, 10, tzinfo=UTC)
    assert all("withdrawn the absence" in m.body for m in to(sent.mails, "Bob"))
    with desk.store.reading() as tx:
        assert [d for d in deadlines.open_deadlines(tx) if d.kind == ABSENCE_END] == []


def test_an_absence_line_with_orders_in_one_mail(make_desk: Callable[..., Desk]) -> None:
    """Absence lines need no step reference; the orders beside them do, as always."""
    desk = _split(make_desk)
    sent = desk.orders("Ann", "absent from 2024-07-20 to 2024-07-22\nroll")
    assert sent.note is None
    private = sent.one("ann@example.org", "reply").private_body or ""
    assert "> absent from 2024-07-20 to 2024-07-22\n      done." in private
    assert "> roll\n      done." in private
    assert desk.table.state.roll is not None
