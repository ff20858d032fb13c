"""The runtime's tests use the store tests' database of each kind (``db_url``)."""

from __future__ import annotations

from ..store.conftest import db_url  # noqa: F401 - SQLite, and PostgreSQL emptied
