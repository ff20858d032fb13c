"""
Database engines: SQLite tuned for one machine, PostgreSQL for several workers.

SQLite runs in WAL mode with ``synchronous=FULL`` (a committed transaction survives a
power cut), enforces foreign keys, waits up to 30 s for a lock, and starts write
transactions with ``BEGIN IMMEDIATE`` so that a transaction that read a game takes the
write lock before it reads, never half-way through.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url

from moderator.store.config import SQLITE_BUSY_TIMEOUT

#: Execution option that makes a SQLite transaction take the write lock at BEGIN.
WRITE = "titan_write"


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def make_engine(url: str) -> Engine:
    """An engine for ``url``, set up for the moderator's transactions."""
    if not is_sqlite(url):
        return create_engine(url, pool_pre_ping=True)
    engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT})

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy say where transactions begin (the driver's own guess does not
        # cover DDL and cannot take the write lock early).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        for pragma in (
            "journal_mode=WAL",
            "synchronous=FULL",
            "foreign_keys=ON",
            f"busy_timeout={int(SQLITE_BUSY_TIMEOUT * 1000)}",
        ):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        immediate = connection.get_execution_options().get(WRITE, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


def writer(engine: Engine) -> Engine:
    """The same engine, its transactions marked as writes (``BEGIN IMMEDIATE`` on SQLite)."""
    return engine.execution_options(**{WRITE: True})
