"""
Game records of schema 0 (the untyped ``options`` of the first releases), written as
the old code wrote them, and the typed records they upcast to
(``moderator.schedule.record.upcast_0``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from moderator.schedule.limits import TimeLimits
from moderator.schedule.record import Absence, Deadline, Dice, GameRecord, Pause


def at(month: int, day: int, hour: int = 0) -> datetime:
    return datetime(2024, month, day, hour, tzinfo=UTC)


#: Every key the old code wrote (not a state any one game was in: the upcast does not
#: care), and one nobody reads any more.
FULL_OPTIONS: dict[str, Any] = {
    "players": ["Ann", "Bob"],
    "from_position": True,
    "scripted_dice": False,
    "dice_seed": 11,
    "dice_rolled": 7,
    "time_limits": {
        "setup_hours": 72.0,
        "turn_hours": 96.0,
        "engagement_hours": 48.0,
        "battle_hours": 48.0,
        "muster_hours": 48.0,
        "minimum_hours": 24.0,
        "reminder_hours": [12.0, 2.0],
        "absences": 2,
        "absence_days": 15,
        "absence_total_days": 30,
    },
    "deadline": "2024-07-04T10:00:00+00:00",
    "deadline_step": {
        "key": "Ann/turn/3",
        "player": "Ann",
        "kind": "turn",
        "started": "2024-07-01T10:00:00+00:00",
    },
    "ends_at": "2024-09-29T10:00:00+00:00",
    "absences": {
        "Ann": [
            {
                "from": "2024-08-01T00:00:00+00:00",
                "to": "2024-08-11T00:00:00+00:00",
                "first": "2024-08-01",
                "last": "2024-08-10",
            },
            {
                "from": "2024-09-01T00:00:00+00:00",
                "to": "2024-09-02T00:00:00+00:00",
                "first": "2024-09-01",
                "last": "2024-09-01",
            },
        ],
        "Bob": [
            {
                "from": "2024-07-02T04:00:00+00:00",
                "to": "2024-07-03T04:00:00+00:00",
                "first": "2024-07-02",
                "last": "2024-07-02",
            }
        ],
    },
    "paused": {"at": "2024-07-02T10:00:00+00:00", "time_limits": {"turn_hours": 48}},
    "tournament": "spring",
    "allow_secrets": True,
    "reported": {"Ann": 40, "Bob": 38},
    "report_from": {"Ann": 30, "Bob": 31},
    "colour_hint": "red",  # read by nobody any more: dropped
}

FULL_RECORD = GameRecord(
    players=("Ann", "Bob"),
    from_position=True,
    dice=Dice(seed=11, rolled=7),
    time_limits=TimeLimits(turn_hours=96, reminder_hours=(12, 2), absences=2),
    deadline=Deadline(
        key="Ann/turn/3", player="Ann", kind="turn", started=at(7, 1, 10), due=at(7, 4, 10)
    ),
    ends_at=at(9, 29, 10),
    absences=(
        Absence("Ann", at(8, 1), at(8, 11), "2024-08-01", "2024-08-10"),
        Absence("Ann", at(9, 1), at(9, 2), "2024-09-01", "2024-09-01"),
        Absence("Bob", at(7, 2, 4), at(7, 3, 4), "2024-07-02", "2024-07-02"),
    ),
    paused=Pause(at(7, 2, 10), TimeLimits(turn_hours=48)),
    tournament="spring",
    allow_secrets=True,
    reported={"Ann": 40, "Bob": 38},
    report_from={"Ann": 30, "Bob": 31},
)

#: A game on scripted dice whose deadline a GM wrote in by hand (no ``deadline_step``,
#: a moment without a zone: UTC), as ``local new --dice-script`` left it.
SCRIPTED_OPTIONS: dict[str, Any] = {
    "players": ["Ann", "Bob", "Cy"],
    "from_position": False,
    "scripted_dice": True,
    "dice_script": [6, 5, 4, 3],
    "dice_rolled": 3,
    "deadline": "2024-07-03T18:00:00",
}

SCRIPTED_RECORD = GameRecord(
    players=("Ann", "Bob", "Cy"),
    dice=Dice(script=(6, 5, 4, 3), rolled=3),
    deadline=Deadline(key="", player="", kind="", started=at(7, 3, 18), due=at(7, 3, 18)),
)
