"""
Durable storage on sqlmodel (SQLAlchemy 2): games, players and seats, the event log
with snapshots, inbound messages, the outbox and deadlines, in SQLite or PostgreSQL.
"""

from __future__ import annotations

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
