"""
Creating and upgrading the database with alembic, without an ``alembic.ini``.

``upgrade(url)`` brings any database to the newest schema: an empty one is created,
one made by the foundation's store (tables but no version) is recognised as revision
0001 and upgraded from there.  On PostgreSQL an advisory lock keeps two processes from
upgrading at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, inspect, text

from moderator.store.engine import make_engine
from moderator.store.errors import SchemaError
from moderator.store.revision import FOUNDATION, HEAD

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).with_name("migrations")
#: Key of the PostgreSQL advisory lock held while upgrading.
_UPGRADE_LOCK = 7_445_826_001


def alembic_config(connection: Connection | None = None) -> Config:
    """An alembic configuration for our migrations (alembic is imported only when needed)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def script_head() -> str | None:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(connection: Connection) -> str | None:
    """The database's revision; ``FOUNDATION`` for the foundation's tables; None if empty."""
    tables = set(inspect(connection).get_table_names())
    if "alembic_version" in tables:
        row = connection.execute(text("SELECT version_num FROM alembic_version")).first()
        if row is not None:
            return str(row[0])
    if {"game", "event"} <= tables:
        return FOUNDATION
    return None


def upgrade(target: str | Engine, revision: str = "head") -> tuple[str | None, str | None]:
    """Upgrade the database to ``revision``; returns (revision before, revision after)."""
    from alembic import command

    engine = make_engine(target) if isinstance(target, str) else target
    try:
        with engine.connect() as connection:
            postgres = connection.dialect.name == "postgresql"
            if postgres:
                connection.execute(text(f"SELECT pg_advisory_lock({_UPGRADE_LOCK})"))
                connection.commit()
            try:
                before = current_revision(connection)
                connection.commit()
                config = alembic_config(connection)
                if before == FOUNDATION and not _has_version_table(connection):
                    command.stamp(config, FOUNDATION)
                    connection.commit()
                command.upgrade(config, revision)
                connection.commit()
                after = current_revision(connection)
                connection.commit()
            finally:
                if postgres:
                    connection.execute(text(f"SELECT pg_advisory_unlock({_UPGRADE_LOCK})"))
                    connection.commit()
    finally:
        if isinstance(target, str):
            engine.dispose()
    return before, after


def _has_version_table(connection: Connection) -> bool:
    return "alembic_version" in inspect(connection).get_table_names()


def ensure_schema(engine: Engine, *, create: bool = True) -> None:
    """
    Check that the database has the newest schema; create it when the database is
    empty and ``create`` is set.

    Raises:
        SchemaError: the database is older or newer than this code, or empty and
            ``create`` is not set.
    """
    with engine.connect() as connection:
        revision = current_revision(connection)
        connection.commit()
    if revision == HEAD:
        return
    if revision is None and create:
        upgrade(engine)
        return
    if revision is None:
        msg = f"the database {engine.url!r} is empty: run 'titan-moderator db upgrade'"
    else:
        msg = (
            f"the database {engine.url!r} is at schema revision {revision!r} and this "
            f"program needs {HEAD!r}: back it up, then run 'titan-moderator db upgrade'"
        )
    raise SchemaError(msg)
