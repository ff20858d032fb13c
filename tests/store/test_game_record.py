"""The game's typed, versioned record: schema 0 (the untyped options) upcast, round trips."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from moderator.letters.moments import deadline_line
from moderator.schedule import timing
from moderator.schedule.limits import TimeLimits
from moderator.schedule.record import (
    SCHEMA,
    Absence,
    Deadline,
    Dice,
    GameRecord,
    Pause,
    upcast_0,
)

from .schema0 import FULL_OPTIONS, FULL_RECORD, SCRIPTED_OPTIONS, SCRIPTED_RECORD


def test_schema_0_with_every_old_key_upcasts_to_the_typed_record() -> None:
    upcast = upcast_0(FULL_OPTIONS)
    assert upcast["schema"] == SCHEMA == 1
    assert "colour_hint" not in upcast and "deadline_step" not in upcast
    assert GameRecord.from_json(FULL_OPTIONS) == FULL_RECORD  # no schema: schema 0
    assert GameRecord.from_json(upcast) == FULL_RECORD
    assert GameRecord.from_json(json.loads(json.dumps(upcast))) == FULL_RECORD
    running = timing.current(FULL_RECORD)
    assert running is not None and (running.key, running.player) == ("Ann/turn/3", "Ann")
    assert [a.first for a in FULL_RECORD.absences_of("Ann")] == ["2024-08-01", "2024-09-01"]


def test_schema_0_scripted_dice_and_a_deadline_set_by_hand_upcast() -> None:
    record = GameRecord.from_json(SCRIPTED_OPTIONS)
    assert record == SCRIPTED_RECORD
    assert record.dice.scripted and record.dice.seed is None
    assert timing.current(record) is None  # shown, never enforced
    assert deadline_line(record, "Europe/Berlin") == "2024-07-03 20:00 (Europe/Berlin)"


def test_empty_options_upcast_to_the_empty_record() -> None:
    assert GameRecord.from_json({}) == GameRecord()
    assert GameRecord.from_json(None) == GameRecord()
    assert GameRecord.from_json({"dice_seed": 4}) == GameRecord(dice=Dice(seed=4))


def test_a_full_record_round_trips_through_its_json() -> None:
    berlin = ZoneInfo("Europe/Berlin")
    record = GameRecord(
        players=("Ann", "Bob", "Cy"),
        from_position=True,
        dice=Dice(seed=8, rolled=12),
        time_limits=TimeLimits(turn_hours=96, reminder_hours=(12.0, 2.0), absence_days=10),
        deadline=Deadline(
            key="Bob/battle/4",
            player="Bob",
            kind="battle",
            started=datetime(2024, 7, 1, 10, 30, 15, 250, tzinfo=UTC),
            due=datetime(2024, 7, 3, 12, tzinfo=berlin),
        ),
        ends_at=datetime(2024, 9, 29, 10, tzinfo=UTC),
        absences=(
            Absence(
                "Cy",
                datetime(2024, 8, 1, tzinfo=UTC),
                datetime(2024, 8, 5, tzinfo=UTC),
                "2024-08-01",
                "2024-08-04",
            ),
            Absence(
                "Ann",
                datetime(2024, 7, 9, tzinfo=UTC),
                datetime(2024, 7, 10, tzinfo=UTC),
                "2024-07-09",
                "2024-07-09",
            ),
        ),
        paused=Pause(datetime(2024, 7, 2, 9, tzinfo=UTC), TimeLimits(battle_hours=24)),
        tournament="spring",
        allow_secrets=True,
        reported={"Ann": 40, "Bob": 41, "Cy": 39},
        report_from={"Ann": 30, "Bob": 31, "Cy": 32},
        pictures={"Bob": "always"},
        boards={"Ann": 38, "Bob": 41},
        battles={"Bob": 40},
    )
    stored = record.to_json()
    assert stored["schema"] == SCHEMA
    assert GameRecord.from_json(stored) == record
    assert GameRecord.from_json(json.loads(json.dumps(stored))) == record  # as the DB keeps it
    assert GameRecord.from_json(FULL_RECORD.to_json()) == FULL_RECORD
    scripted = SCRIPTED_RECORD.but(paused=Pause(datetime(2024, 7, 2, tzinfo=UTC), None))
    assert GameRecord.from_json(json.loads(json.dumps(scripted.to_json()))) == scripted
    assert GameRecord.from_json(GameRecord().to_json()) == GameRecord()
