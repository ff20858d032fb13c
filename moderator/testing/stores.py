"""
Event stores on test databases: the one way a test or a benchmark opens a store
without a configuration (a service under test gets its store from
``runtime.bootstrap``).

A new SQLite database is a copy of one migrated once per process (``new_sqlite``):
alembic's upgrade through every revision costs a tenth of a second of CPU and a commit
per revision, seconds on a busy disk, and the suite makes hundreds of new databases.
The copy is the very file the upgrade writes, so a test sees the schema ``serve`` would
make; the tests of the upgrade itself call ``migrate.upgrade``.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import threading
from pathlib import Path

from sqlalchemy import create_engine, inspect, make_url, text

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
    if create:
        _schema_into_new_file(url)
    if clock is None:
        store = EventStore(url, snapshot_every=snapshot_every, create=create)
    else:
        store = EventStore(url, snapshot_every=snapshot_every, create=create, clock=clock.now)
    store.memo = Caches()
    return store


def sqlite_url(folder: Path, name: str = "test.sqlite") -> str:
    """A SQLite database in ``folder`` with the newest schema: a new one, or the one there
    brought up to it (two fixtures of a test may name the same file)."""
    path = folder / name
    if path.exists():
        url = f"sqlite:///{path}"
        migrate.upgrade(url)
        return url
    return new_sqlite(path)


def new_sqlite(path: Path) -> str:
    """A new SQLite database file at ``path`` with the newest schema; its URL.  Refuses
    to overwrite a file (FileExistsError): a test that reopens its database must not get
    a new one.  The file appears whole (a hard link of a written copy) or not at all."""
    written = path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}")
    written.write_bytes(_migrated())
    try:
        os.link(written, path)
    finally:
        written.unlink()
    return f"sqlite:///{path}"


_MIGRATED: list[bytes] = []
_LOCK = threading.Lock()


def _migrated() -> bytes:
    """The bytes of a SQLite database upgraded to the newest schema, made once."""
    with _LOCK:
        if not _MIGRATED:
            with tempfile.TemporaryDirectory(prefix="titan-schema-") as folder:
                path = Path(folder) / "schema.sqlite"
                migrate.upgrade(f"sqlite:///{path}")
                _MIGRATED.append(path.read_bytes())
        return _MIGRATED[0]


def _schema_into_new_file(url: str) -> None:
    """A SQLite ``url`` whose file does not exist yet gets the migrated copy."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return
    path = Path(parsed.database)
    if not path.exists() and path.parent.is_dir():
        with contextlib.suppress(FileExistsError):  # made meanwhile, whole
            new_sqlite(path)


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


__all__ = ["empty_postgres", "new_sqlite", "open_store", "sqlite_url"]
