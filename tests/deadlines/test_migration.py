"""Migration 0004: deadlines of an older database keep their rows and gain the new columns."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from alembic import command
from sqlalchemy import create_engine, text

from moderator.schedule.record import GameRecord
from moderator.store import deadlines, migrate
from moderator.testing.stores import open_store


def test_0004_adds_step_seq_reminded_and_the_service_state(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    assert migrate.upgrade(url, "0003") == (None, "0003")
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO game (id, created_at, options, last_seq) "
                "VALUES ('old', '2024-07-01 10:00:00', '{}', 0)"
            )
        )
        connection.execute(
            text(
                "INSERT INTO deadline (game_id, player, kind, due_at, status, created_at) "
                "VALUES ('old', 'Ann', 'turn', '2024-07-04 10:00:00', 'due', "
                "'2024-07-01 10:00:00')"
            )
        )
    engine.dispose()
    assert migrate.upgrade(url, "0004") == ("0003", "0004")
    migrate.upgrade(url)
    with open_store(url) as store:
        with store.reading() as tx:
            (row,) = deadlines.open_deadlines(tx)
            assert (row.player, row.step, row.seq, row.reminded) == ("Ann", None, None, 0)
            assert tx.record("old") == GameRecord()  # its empty options, upcast
            assert deadlines.heartbeat(tx) is None
        moment = datetime(2024, 7, 2, tzinfo=UTC)
        with store.transaction() as tx:
            deadlines.beat(tx, moment)
        with store.reading() as tx:
            assert deadlines.heartbeat(tx) == moment
    engine = create_engine(url)
    with engine.connect() as connection:
        config = migrate.alembic_config(connection)
        command.downgrade(config, "0003")
        connection.commit()
        assert migrate.current_revision(connection) == "0003"
    engine.dispose()
