"""
Event stores on test databases: the one way a test or a benchmark opens a store
without a configuration (a service under test gets its store from
``runtime.bootstrap``).
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import create_engine, inspect, text

from moderator.clock import Clock
from moderator.store import migrate
from moderator.store.eventstore import EventStore
from moderator.usecases.games.caches import Caches


def open_store(
    url: str,
    *,
    clock: Clock | None = None,
    snapshot_every: int | None = None,
    create: bool = True,
) -> EventStore:
    """An event store on ``url``, reading the games' time from ``clock`` (else the machine's),
    with the service's caches as the composition root gives them (``service.caches``)."""
    if clock is None:
        store = EventStore(url, snapshot_every=snapshot_every, create=create)
    else:
        store = EventStore(url, snapshot_every=snapshot_every, create=create, clock=clock.now)
    store.memo = Caches()
    return store


def sqlite_url(folder: Path, name: str = "test.sqlite") -> str:
    """A new SQLite database in ``folder`` with the newest schema."""
    url = f"sqlite:///{folder / name}"
    migrate.upgrade(url)
    return url


def empty_postgres(url: str) -> str:
    """
    ``url``'s PostgreSQL database with every table emptied and its sequences reset (the
    schema kept): a session's server serves each test a database as new.
    """
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            tables = [t for t in inspect(connection).get_table_names() if t != "alembic_version"]
            if tables:
                connection.execute(text(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE"))
    finally:
        engine.dispose()
    return url


__all__ = ["empty_postgres", "open_store", "sqlite_url"]
