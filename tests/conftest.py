"""
Fixtures for the whole suite.

``postgres_url``: a real PostgreSQL server, started once per session in a temporary
folder (``moderator.store.pgtemp``) with the moderator's schema.  Without the server
binaries the tests that use it are skipped, except under ``CI=true`` where that is a
failure.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from moderator.store import migrate
from moderator.store.pgtemp import PostgresUnavailableError, TemporaryPostgres


def _unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"PostgreSQL is required under CI=true: {reason}", pytrace=False)
    pytest.skip(f"no PostgreSQL server: {reason}")


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A migrated database on a PostgreSQL server of our own, for the whole session."""
    try:
        server = TemporaryPostgres()
        url = server.start()
    except (PostgresUnavailableError, OSError) as exc:
        _unavailable(str(exc))
        raise  # not reached: the line above fails or skips
    try:
        migrate.upgrade(url)
        yield url
    finally:
        server.stop()
