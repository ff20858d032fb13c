"""The pure parts: time limits, kinds of step, when a deadline falls, absences' limits."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from moderator.rules import setup
from moderator.rules.dice import ScriptedDice
from moderator.rules.evolve import replay
from moderator.rules.positions import position_event
from moderator.schedule import absence, timing
from moderator.schedule.record import GameRecord
from moderator.schedule.timing import TimeLimits

from .conftest import position

NOW = datetime(2024, 7, 1, 10, 0, tzinfo=UTC)


def h(n: float) -> timedelta:
    return timedelta(hours=n)


def test_wolff_21_0_time_limits_round_trip_through_the_game_record() -> None:
    limits = TimeLimits(turn_hours=96, reminder_hours=(12, 2), absences=1)
    assert TimeLimits.from_json(limits.to_json()) == limits
    stored = GameRecord(time_limits=limits).to_json()
    assert GameRecord.from_json(stored).time_limits == limits
    assert TimeLimits.from_json(None) is None
    assert GameRecord.from_json({}).time_limits is None  # Wolff 20.4: no limits, no deadlines
    assert TimeLimits().limit(timing.TURN) == h(72)
    assert TimeLimits().limit(timing.BATTLE) == h(48)
    assert TimeLimits(battle_hours=2).limit(timing.BATTLE) == h(24)  # never below the minimum
    assert TimeLimits().reminders == (h(24), h(4))
    with pytest.raises(ValueError):
        TimeLimits(turn_hours=0)


def test_step_kinds_follow_the_complete_sequence_of_play() -> None:
    fresh = replay(setup.start_game(["Ann", "Bob"], ScriptedDice([6, 3])))
    assert timing.step_kind(fresh) == timing.SETUP
    legions = [("Rd01", 3, "Troll Troll", True), ("Bu01", 3, "Titan Ogre"), ("Rd02", 600, "Titan")]
    kinds = {
        "split": timing.TURN,
        "move": timing.TURN,
        "engage": timing.ENGAGEMENT,
        "muster": timing.MUSTER,
    }
    for phase, kind in kinds.items():
        spots = legions if phase == "engage" else [legions[2], ("Bu01", 300, "Titan Ogre")]
        state = replay([position_event(position(spots, phase=phase))])
        assert timing.step_kind(state) == kind, phase
        assert timing.step_key(state) == f"Ann/{kind}/2"


def test_deadline_overlapping_an_absence_ends_the_limit_after_it() -> None:
    limits = TimeLimits()
    assert timing.deadline_for(limits, timing.TURN, NOW) == NOW + h(72)
    away = [(NOW + h(24), NOW + h(24 * 5))]  # the deadline would fall in it
    assert timing.deadline_for(limits, timing.TURN, NOW, away) == NOW + h(24 * 5 + 72)
    before = [(NOW - h(48), NOW - h(1))]  # over already
    assert timing.deadline_for(limits, timing.TURN, NOW, before) == NOW + h(72)
    chained = [(NOW + h(1), NOW + h(10)), (NOW + h(50), NOW + h(60))]
    assert timing.deadline_for(limits, timing.BATTLE, NOW, chained) == NOW + h(60 + 48)


def test_reminders_behind_counts_the_reminders_whose_moment_passed() -> None:
    limits = TimeLimits()
    due = NOW + h(72)
    assert timing.reminders_behind(limits, due, NOW) == 0
    assert timing.reminders_behind(limits, due, due - h(24)) == 1
    assert timing.reminders_behind(limits, due, due - h(3)) == 2


def test_the_same_player_in_the_same_kind_of_step_keeps_his_deadline() -> None:
    record = GameRecord(time_limits=TimeLimits())
    split = replay(
        [position_event(position([("Rd01", 600, "Titan"), ("Bu01", 300, "Titan")], phase="split"))]
    )
    record, change = timing.follow(split, record, NOW)
    assert change is not None and change.due == NOW + h(72) and change.key == "Ann/turn/2"
    move = replay([position_event(position([("Rd01", 600, "Titan"), ("Bu01", 300, "Titan")]))])
    again, none = timing.follow(move, record, NOW + h(5))  # split -> move: the same turn
    assert none is None and again == record
    muster = replay(
        [position_event(position([("Rd01", 600, "Titan"), ("Bu01", 300, "Titan")], phase="muster"))]
    )
    _, new = timing.follow(muster, record, NOW + h(6))
    assert new is not None and new.kind == timing.MUSTER and new.due == NOW + h(6 + 48)


# -- absences --------------------------------------------------------------------------------


#: A game's record with nothing in it yet.
EMPTY = GameRecord()


def _limits(**kw: int) -> TimeLimits:
    return TimeLimits(**kw)  # type: ignore[arg-type]


def test_absence_lines_are_read() -> None:
    assert absence.is_absence("absent from 2024-07-10 to 2024-07-12")
    assert absence.is_absence("Absence: 2024-07-10 - 2024-07-12")
    assert not absence.is_absence("absently")
    assert absence.parse("absent cancel") == absence.Request(cancel=True)
    asked = absence.parse("absent from 2024-07-10 to 2024-07-12")
    assert isinstance(asked, absence.Request) and str(asked.first) == "2024-07-10"
    assert isinstance(absence.parse("absent next week"), str)
    assert "not a date" in str(absence.parse("absent from 2024-02-30 to 2024-03-02"))


def test_absence_limits_count_span_total_and_number() -> None:
    limits = _limits(absences=2, absence_days=5, absence_total_days=7)
    record = EMPTY
    first = absence.request(
        record, "Ann", "absent from 2024-07-02 to 2024-07-06", NOW, "UTC", limits
    )
    assert not first.refused and first.absence is not None
    assert first.absence.begins == datetime(2024, 7, 2, tzinfo=UTC)
    assert first.absence.ends == datetime(2024, 7, 7, tzinfo=UTC)  # the last day included
    record = first.record or EMPTY
    too_long = absence.request(
        record, "Ann", "absent from 2024-08-01 to 2024-08-06", NOW, "UTC", limits
    )
    assert too_long.refused and "longer than this game allows (5 days)" in too_long.answer
    too_much = absence.request(
        record, "Ann", "absent from 2024-08-01 to 2024-08-03", NOW, "UTC", limits
    )
    assert too_much.refused and "7 days of absence in all; you have 2 left" in too_much.answer
    overlap = absence.request(
        record, "Ann", "absent from 2024-07-06 to 2024-07-07", NOW, "UTC", limits
    )
    assert overlap.refused and "overlaps" in overlap.answer
    past = absence.request(
        record, "Ann", "absent from 2024-06-20 to 2024-06-21", NOW, "UTC", limits
    )
    assert past.refused and "past" in past.answer
    second = absence.request(
        record, "Ann", "absent from 2024-08-01 to 2024-08-02", NOW, "UTC", limits
    )
    assert not second.refused
    third = absence.request(
        second.record or EMPTY, "Ann", "absent from 2024-09-01 to 2024-09-01", NOW, "UTC", limits
    )
    assert third.refused and "the most it allows" in third.answer
    none = absence.request(
        EMPTY, "Ann", "absent from 2024-09-01 to 2024-09-01", NOW, "UTC", _limits(absences=0)
    )
    assert none.refused and "allows no absences" in none.answer


def test_absence_days_are_the_players_own_days() -> None:
    done = absence.request(
        EMPTY, "Ann", "absent from 2024-07-02 to 2024-07-02", NOW, "America/New_York", TimeLimits()
    )
    assert done.absence is not None
    assert done.absence.begins == datetime(2024, 7, 2, 4, 0, tzinfo=UTC)  # midnight EDT
    assert done.absence.ends == datetime(2024, 7, 3, 4, 0, tzinfo=UTC)


def test_absence_cancel_ends_a_running_one_and_withdraws_a_coming_one() -> None:
    limits = TimeLimits()
    done = absence.request(EMPTY, "Ann", "absent from 2024-07-01 to 2024-07-03", NOW, "UTC", limits)
    assert done.absence is not None and done.absence.begins == NOW  # from now, not midnight
    later = NOW + h(20)
    cut = absence.request(done.record or EMPTY, "Ann", "absent cancel", later, "UTC", limits)
    assert cut.cancelled and cut.absence is not None and cut.absence.ends == later
    assert absence.away(cut.record or EMPTY, "Ann", later) is None
    coming = absence.request(
        EMPTY, "Ann", "absent from 2024-07-10 to 2024-07-11", NOW, "UTC", limits
    )
    gone = absence.request(coming.record or EMPTY, "Ann", "absent cancel", NOW, "UTC", limits)
    assert gone.cancelled and absence.absences(gone.record or EMPTY, "Ann") == []
    assert absence.request(EMPTY, "Ann", "absent cancel", NOW, "UTC", limits).refused


def test_wolff_21_0_time_limits_are_set_from_kind_equals_hours_lines() -> None:
    limits = TimeLimits.parse(["turn=96", "Battle=24.5", "minimum=12", "absences=1"], "48,6")
    assert limits.turn_hours == 96.0
    assert limits.battle_hours == 24.5
    assert limits.minimum_hours == 12.0
    assert limits.absences == 1
    assert limits.reminders == (timedelta(hours=48), timedelta(hours=6))
    assert limits.muster_hours == TimeLimits().muster_hours  # the rest keep their defaults
    assert TimeLimits.parse() == TimeLimits()


@pytest.mark.parametrize(
    ("limits", "reminders", "says"),
    [
        (["turn"], None, "KIND=HOURS"),
        (["lunch=2"], None, "KIND one of setup, turn"),
        (["turn=soon"], None, "'soon' is not a number"),
        (["absences=1.5"], None, "whole number"),
        (["turn=-1"], None, "positive"),
        ([], "24,later", "e.g. 24,4"),
    ],
)
def test_time_limit_settings_that_cannot_be_read_say_why(limits, reminders, says) -> None:
    with pytest.raises(ValueError, match=says):
        TimeLimits.parse(limits, reminders)
