"""``notify digest HH:MM``: one report a day at the player's hour, and whenever he must act."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta
from zoneinfo import ZoneInfo

from moderator import robot
from moderator.ports.deadlines import DIGEST

from .conftest import Desk, to


def _other_than(desk: Desk) -> str:
    return next(n for n in ("Ann", "Bob", "Cy") if n != desk.actor)


def test_a_digest_player_gets_one_report_a_day_at_his_hour(
    make_desk: Callable[..., Desk],
) -> None:
    desk = make_desk(("Ann", "Bob", "Cy"), zones={"Ann": "Europe/Berlin", "Bob": "Europe/Berlin",
                                                  "Cy": "Europe/Berlin"})
    start = desk.clock.now()
    rng = random.Random(2)
    while desk.table.state.step.value == "colour":  # colours first, as anybody would
        line, _ = robot.choose_order(desk.table.state, rng)
        desk.orders(str(desk.actor), line)
    quiet = _other_than(desk)
    answer = desk.orders(quiet, "notify digest 18:30", ref=False).one(
        f"{quiet.lower()}@example.org", "reply"
    )
    assert "one digest a day at 18:30 your time" in (answer.private_body or "")
    (row,) = [d for d in desk.open() if d.kind == DIGEST]
    local = row.due_at.astimezone(ZoneInfo("Europe/Berlin"))
    assert (local.hour, local.minute, row.player) == (18, 30, quiet)
    assert row.due_at > start and row.due_at - start <= timedelta(days=1)
    desk.mails()
    mover = str(desk.actor)
    moved = 0
    while desk.actor == mover and moved < 3:  # another's play: nothing for him yet
        line, _ = robot.choose_order(desk.table.state, rng)
        desk.orders(mover, line)
        moved += 1
    assert moved == 3 and desk.actor == mover
    assert to(desk.mails(), quiet) == [], "a digest player was mailed before his hour"
    assert desk.table.record.reported[quiet] < desk.table.state.version
    assert "digest" not in " ".join(desk.at(row.due_at - timedelta(minutes=1)))
    lines = desk.at(row.due_at)
    assert f"g1: {quiet}'s daily digest sent" in lines
    (digest,) = to(desk.mails(), quiet, "report")
    assert f"{mover} " in digest.body and "Since your last report" in digest.body
    assert desk.table.record.reported[quiet] == desk.table.state.version
    (following,) = [d for d in desk.open() if d.kind == DIGEST]
    assert following.due_at == row.due_at + timedelta(days=1)
    # Nothing new by the next day: no mail, and the next digest is set all the same.
    assert desk.at(following.due_at) == [f"g1: {quiet}'s daily digest not needed (nothing new)"]
    assert to(desk.mails(), quiet) == []


def test_turning_digest_off_closes_its_deadline(make_desk: Callable[..., Desk]) -> None:
    desk = make_desk(("Ann", "Bob"))
    desk.orders("Bob", "notify digest 7", ref=False)
    assert [d.step for d in desk.open() if d.kind == DIGEST] == ["digest"]
    desk.orders("Bob", "notify turn", ref=False)
    assert [d for d in desk.open() if d.kind == DIGEST] == []
    assert desk.table.record.notify["Bob"] == "turn"


def test_the_daily_digest_says_it_is_one_in_its_subject(make_desk: Callable[..., Desk]) -> None:
    """The finding: the daily digest was not labelled as one (its subject read like any
    report's, "Turn 2 ... to act")."""
    desk = make_desk(("Ann", "Bob", "Cy"))
    rng = random.Random(5)
    while desk.table.state.step.value == "colour":
        line, _ = robot.choose_order(desk.table.state, rng)
        desk.orders(str(desk.actor), line)
    quiet = _other_than(desk)
    desk.orders(quiet, "notify digest 18:00", ref=False)
    mover = str(desk.actor)
    line, _ = robot.choose_order(desk.table.state, rng)
    desk.orders(mover, line)
    desk.mails()
    (row,) = [d for d in desk.open() if d.kind == DIGEST]
    assert f"g1: {quiet}'s daily digest sent" in desk.at(row.due_at)
    (digest,) = to(desk.mails(), quiet, "report")
    assert digest.subject.startswith(f"[titan g1] Daily digest: turn 1, split step, {mover} "
                                     "to act (ref g1-"), digest.subject
    assert f"Titan game g1: daily digest for {quiet}" in digest.body
