"""Event storage: games and their events."""

from __future__ import annotations

from moderator.store.local import (
    DEFAULT_URL,
    ENV_VAR,
    ConflictError,
    EventStore,
    GameExistsError,
    GameNotFoundError,
    StoreError,
    database_url,
)

__all__ = [
    "DEFAULT_URL",
    "ENV_VAR",
    "ConflictError",
    "EventStore",
    "GameExistsError",
    "GameNotFoundError",
    "StoreError",
    "database_url",
]
