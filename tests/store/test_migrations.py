"""Migrations: the models match them, and databases of every age come up to date."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, text
from sqlmodel import SQLModel

from moderator.ports import OutgoingMail
from moderator.ports.errors import SchemaError
from moderator.rules import events as ev
from moderator.rules.codec import encode
from moderator.rules.variant import STANDARD
from moderator.schedule.record import Dice, GameRecord, upcast_0
from moderator.store import migrate
from moderator.store.check import check_store
from moderator.store.eventstore import EventStore
from moderator.store.tables import TABLES
from moderator.testing.stores import new_sqlite, open_store

from .schema0 import FULL_OPTIONS, FULL_RECORD, SCRIPTED_OPTIONS, SCRIPTED_RECORD

#: The tables of the foundation's store, as it made them (before alembic).
FOUNDATION_DDL = [
    (
        "CREATE TABLE game (id VARCHAR NOT NULL, created_at TIMESTAMP NOT NULL, "
        "options JSON NOT NULL, PRIMARY KEY (id))"
    ),
    (
        "CREATE TABLE event (id {serial} NOT NULL, game_id VARCHAR NOT NULL, "
        "seq INTEGER NOT NULL, type VARCHAR NOT NULL, version INTEGER NOT NULL, "
        "payload JSON NOT NULL, recorded_at TIMESTAMP NOT NULL, PRIMARY KEY (id), "
        "CONSTRAINT uq_event_game_seq UNIQUE (game_id, seq), "
        "FOREIGN KEY(game_id) REFERENCES game (id))"
    ),
    "CREATE INDEX ix_event_game_id ON event (game_id)",
]
EVENTS = [
    ev.GameCreated(players=("Ann", "Bob"), variant=STANDARD),
    ev.TurnStarted(player="Ann", turn=1),
]


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database with nothing in it."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'empty.sqlite'}"
        return
    server = request.getfixturevalue("postgres_url")
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    name = f"empty_{request.node.name.split('[')[0][-20:]}".lower()
    with admin.connect() as connection:
        connection.execute(text(f"DROP DATABASE IF EXISTS {name}"))
        connection.execute(text(f"CREATE DATABASE {name}"))
    yield server.rsplit("/", 1)[0] + f"/{name}"
    with admin.connect() as connection:
        connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
    admin.dispose()


def test_head_is_the_newest_script() -> None:
    assert migrate.script_head() == migrate.HEAD


def test_models_match_the_migrations(empty_url: str) -> None:
    assert migrate.upgrade(empty_url) == (None, migrate.HEAD)
    ours = {model.__tablename__ for model in TABLES}  # type: ignore[attr-defined]
    engine = create_engine(empty_url)
    with engine.connect() as connection:
        context = MigrationContext.configure(
            connection,
            opts={"include_name": lambda name, kind, _parent: kind != "table" or name in ours},
        )
        differences = compare_metadata(context, SQLModel.metadata)
    engine.dispose()
    assert differences == []


def test_upgrade_is_idempotent_and_reversible(empty_url: str) -> None:
    migrate.upgrade(empty_url)
    assert migrate.upgrade(empty_url) == (migrate.HEAD, migrate.HEAD)
    engine = create_engine(empty_url)
    with engine.connect() as connection:
        config = migrate.alembic_config(connection)
        command.downgrade(config, "base")
        connection.commit()
        assert migrate.current_revision(connection) is None
    engine.dispose()
    assert migrate.upgrade(empty_url) == (None, migrate.HEAD)


def test_foundation_database_is_upgraded(empty_url: str) -> None:
    """A database the foundation's store made keeps its games through the upgrade."""
    engine = create_engine(empty_url)
    serial = "SERIAL" if engine.dialect.name == "postgresql" else "INTEGER"
    with engine.begin() as connection:
        for statement in FOUNDATION_DDL:
            connection.execute(text(statement.format(serial=serial)))
        connection.execute(
            text("INSERT INTO game VALUES ('old', '2024-05-01 10:00:00', :options)"),
            {"options": json.dumps({"dice_seed": 4})},
        )
        for seq, event in enumerate(EVENTS, 1):
            record = encode(event)
            connection.execute(
                text(
                    "INSERT INTO event (game_id, seq, type, version, payload, recorded_at) "
                    "VALUES ('old', :seq, :type, :version, :payload, '2024-05-01 10:00:00')"
                ),
                {**record, "seq": seq, "payload": json.dumps(record["payload"])},
            )
    engine.dispose()
    with pytest.raises(SchemaError, match="revision '0001'.*db upgrade"):
        open_store(empty_url)
    assert migrate.upgrade(empty_url) == (migrate.FOUNDATION, migrate.HEAD)
    with open_store(empty_url) as store:
        assert store.load("old") == EVENTS
        assert store.last_seq("old") == 2
        assert store.record("old") == GameRecord(dice=Dice(seed=4))  # upcast from schema 0
        store.append("old", 2, [ev.TurnEnded(player="Ann")])
        assert check_store(store, "old").ok


def _json(value: Any) -> Any:
    """A JSON column as read by raw SQL (text on SQLite, decoded on PostgreSQL)."""
    return json.loads(value) if isinstance(value, str | bytes) else value


def test_0010_upcasts_the_options_and_its_downgrade_writes_them_back(empty_url: str) -> None:
    """
    0010: each game's options (schema 0) become its typed record; downgraded to 0009,
    the game has its options again, as the old code reads them.
    """
    assert migrate.upgrade(empty_url, "0009") == (None, "0009")
    engine = create_engine(empty_url)
    with engine.begin() as connection:
        for game_id, options in (("old", FULL_OPTIONS), ("scripted", SCRIPTED_OPTIONS)):
            connection.execute(
                text(
                    "INSERT INTO game (id, created_at, options, last_seq) "
                    "VALUES (:id, '2024-07-01 10:00:00', :options, 2)"
                ),
                {"id": game_id, "options": json.dumps(options)},
            )
            for seq, event in enumerate(EVENTS, 1):  # rows that refer to the game
                encoded = encode(event)
                connection.execute(
                    text(
                        "INSERT INTO event (game_id, seq, type, version, payload, recorded_at) "
                        "VALUES (:id, :seq, :type, :version, :payload, '2024-07-01 10:00:00')"
                    ),
                    {
                        **encoded,
                        "id": game_id,
                        "seq": seq,
                        "payload": json.dumps(encoded["payload"]),
                    },
                )
    engine.dispose()
    assert migrate.upgrade(empty_url) == ("0009", migrate.HEAD)
    with open_store(empty_url) as store:
        assert store.record("old") == FULL_RECORD
        assert store.record("scripted") == SCRIPTED_RECORD
        assert store.load("old") == EVENTS
        with store.reading() as tx:
            rows = tx.connection.execute(text("SELECT id, record FROM game")).all()
        assert {game_id: _json(record) for game_id, record in rows} == {
            "old": upcast_0(FULL_OPTIONS),
            "scripted": upcast_0(SCRIPTED_OPTIONS),
        }
    engine = create_engine(empty_url)
    with engine.connect() as connection:
        config = migrate.alembic_config(connection)
        command.downgrade(config, "0009")
        connection.commit()
        assert migrate.current_revision(connection) == "0009"
        rows = connection.execute(text("SELECT id, options FROM game")).all()
    engine.dispose()
    options = {game_id: _json(bag) for game_id, bag in rows}
    # The old code's keys, as it wrote them (less the key nobody reads any more).
    assert options["old"] == {k: v for k, v in FULL_OPTIONS.items() if k != "colour_hint"}
    scripted = options["scripted"]
    assert (scripted["scripted_dice"], scripted["dice_script"], scripted["dice_rolled"]) == (
        True,
        [6, 5, 4, 3],
        3,
    )
    assert scripted["deadline"] == "2024-07-03T18:00:00" and "deadline_step" not in scripted
    assert "dice_seed" not in scripted and scripted["players"] == ["Ann", "Bob", "Cy"]
    assert GameRecord.from_json(scripted) == SCRIPTED_RECORD
    assert migrate.upgrade(empty_url) == ("0009", migrate.HEAD)  # and up again
    with open_store(empty_url) as store:
        assert store.record("old") == FULL_RECORD
        assert store.record("scripted") == SCRIPTED_RECORD


def test_an_empty_database_is_created_unless_told_not_to(empty_url: str) -> None:
    with pytest.raises(SchemaError, match="empty"):
        open_store(empty_url, create=False)
    with open_store(empty_url) as store:
        assert store.games() == []


def _sqlite_schema(url: str) -> list[tuple[str, str, str]]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT type, name, sql FROM sqlite_master"))
            return sorted((str(t), str(n), str(q)) for t, n, q in rows)
    finally:
        engine.dispose()


def test_a_tests_new_sqlite_database_is_the_schema_a_store_makes_on_an_empty_file(
    tmp_path: Path,
) -> None:
    """The tests' new SQLite databases are copies of one migrated once
    (``testing.stores.new_sqlite``): the same tables, indexes and revision as the store
    itself makes on an empty file, and never written over an existing one."""
    copied = new_sqlite(tmp_path / "copied.sqlite")
    made = f"sqlite:///{tmp_path / 'made.sqlite'}"
    EventStore(made).close()
    assert _sqlite_schema(copied) == _sqlite_schema(made)
    assert migrate.upgrade(copied) == (migrate.HEAD, migrate.HEAD)
    with pytest.raises(FileExistsError):
        new_sqlite(tmp_path / "copied.sqlite")


def test_outbox_parts_are_added_to_an_older_outbox(empty_url: str) -> None:
    """0003: a report's private part, token, recipient key and kind; old rows keep theirs."""
    assert migrate.upgrade(empty_url, "0002") == (None, "0002")
    engine = create_engine(empty_url)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO outbox (message_id, position, recipient, subject, body, headers, "
                "status, attempts, next_attempt_at, created_at) VALUES ('<old@x>', 0, "
                "'ann@example.org', 'old', 'body', '{}', 'pending', 0, "
                "'2024-07-01 10:00:00', '2024-07-01 10:00:00')"
            )
        )
    engine.dispose()
    assert migrate.upgrade(empty_url) == ("0002", migrate.HEAD)
    from datetime import UTC, datetime

    from moderator.store import outbox

    with open_store(empty_url) as store, store.transaction() as tx:
        outbox.add_mails(
            tx,
            [
                OutgoingMail(
                    "ann@example.org",
                    "new",
                    "public",
                    {"From": "m@x"},
                    private_body="private",
                    token="tok",
                    recipient_key="ABCD",
                    kind="report",
                )
            ],
        )
        old, new = outbox.mails(tx)
        assert (old.body, old.private_body, old.token, old.kind) == ("body", None, None, None)
        assert (new.private_body, new.token, new.recipient_key, new.kind) == (
            "private",
            "tok",
            "ABCD",
            "report",
        )
        since = datetime(2024, 7, 1, tzinfo=UTC)
        assert outbox.count_since(tx, "ann@example.org", since) == 2
        assert outbox.count_since(tx, "ANN@example.org ", since, kinds=("reply",)) == 1
        assert outbox.count_since(tx, "bob@example.org", since) == 0
