"""
The store's contract tests run on SQLite and on a real PostgreSQL server (the
``postgres_url`` fixture of ``tests/conftest.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from moderator.store import EventStore
from moderator.testing.stores import empty_postgres, open_store, sqlite_url
from moderator.usecases.games.robot_games import RobotGameSummary, play_robot_game

from .lookup_backends import Backend, MemoryBackend, SqlBackend

BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of each kind (SQLite: a new file; PostgreSQL: emptied tables)."""
    if request.param == "sqlite":
        return sqlite_url(tmp_path, "store.sqlite")
    return empty_postgres(request.getfixturevalue("postgres_url"))


@pytest.fixture
def make_store(db_url: str) -> Iterator[Callable[..., EventStore]]:
    """``make_store(**options)``: an ``EventStore`` on the test's database, closed after."""
    opened: list[EventStore] = []

    def make(**options: object) -> EventStore:
        store = open_store(db_url, **options)  # type: ignore[arg-type]
        opened.append(store)
        return store

    yield make
    for store in opened:
        store.close()


@pytest.fixture
def store(make_store: Callable[..., EventStore]) -> EventStore:
    return make_store()


@pytest.fixture(scope="session")
def robot_games() -> list[RobotGameSummary]:
    """A few whole robot games (with battles), played once for the session."""
    return [play_robot_game(players, seed) for players, seed in ((6, 2), (3, 2), (2, 3))]


# The Lookup contract's stores, each in turn (``lookup_backends.py``).
@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    if request.param == "memory":
        yield MemoryBackend()
        return
    if request.param == "sqlite":
        url = sqlite_url(tmp_path, "store.sqlite")
    else:
        url = request.getfixturevalue("postgres_url")
        empty_postgres(url)
    sql = SqlBackend(url)
    yield sql
    sql.store.close()
