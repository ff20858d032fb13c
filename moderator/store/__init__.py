"""
Durable storage on sqlmodel (SQLAlchemy 2): games, players and seats, the event log
with snapshots, inbound messages, the outbox and deadlines, in SQLite or PostgreSQL.

The names below are imported when first asked for (PEP 562), so that a command that
needs only ``moderator.store.config`` (every command line's ``--db`` option) does not
import SQLAlchemy and the tables with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from moderator.lazy import lazy_names

if TYPE_CHECKING:
    from moderator.ports.games import LoadedGame
    from moderator.store.check import CheckResult
    from moderator.store.config import DEFAULT_URL, ENV_VAR, database_url
    from moderator.store.errors import (
        ConflictError,
        GameExistsError,
        GameNotFoundError,
        MessageNotFoundError,
        SchemaError,
        StoreError,
    )
    from moderator.store.eventstore import EventStore, Tx

#: Where each name of the package lives.
_HOMES = {
    "LoadedGame": "moderator.ports.games",
    "CheckResult": "moderator.store.check",
    "DEFAULT_URL": "moderator.store.config",
    "ENV_VAR": "moderator.store.config",
    "database_url": "moderator.store.config",
    "ConflictError": "moderator.store.errors",
    "GameExistsError": "moderator.store.errors",
    "GameNotFoundError": "moderator.store.errors",
    "MessageNotFoundError": "moderator.store.errors",
    "SchemaError": "moderator.store.errors",
    "StoreError": "moderator.store.errors",
    "EventStore": "moderator.store.eventstore",
    "Tx": "moderator.store.eventstore",
}


__getattr__ = lazy_names(__name__, _HOMES)


__all__ = [
    "DEFAULT_URL",
    "ENV_VAR",
    "CheckResult",
    "ConflictError",
    "EventStore",
    "GameExistsError",
    "GameNotFoundError",
    "LoadedGame",
    "MessageNotFoundError",
    "SchemaError",
    "StoreError",
    "Tx",
    "database_url",
]
