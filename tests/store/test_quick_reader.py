"""
Issue 28: the quick reader (``store.quick``) reads a game from a SQLite file as the
store's lookup does, and declines whatever it cannot read, so that the store answers.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import update

from moderator.rules.evolve import replay
from moderator.schedule.record import Dice, GameRecord
from moderator.store.quick import quick_reader, sqlite_file
from moderator.store.tables import SNAPSHOT
from moderator.testing.stores import sqlite_url
from moderator.usecases.games.reads import history, legal, show
from moderator.usecases.games.robot_games import RobotGameSummary

from .lookup_backends import ANN, BOB, SqlBackend, register, two_player_game


@pytest.fixture
def filled(tmp_path: Path, robot_games: list[RobotGameSummary]) -> str:
    """A SQLite store with a seated game (g1) and a long robot game (r) with snapshots."""
    url = sqlite_url(tmp_path, "quick.sqlite")
    backend = SqlBackend(url)
    register(backend, ANN, BOB)
    two_player_game(backend)
    store = backend.store
    store.snapshot_every = 100
    longest = max(robot_games, key=lambda g: len(g.events))
    record = GameRecord(players=tuple(p.name for p in longest.state.players), dice=Dice(seed=1))
    store.create_game("r", record)
    seq = 0
    for start in range(0, len(longest.events), 70):
        batch = longest.events[start : start + 70]
        seq = store.append("r", seq, batch, state=replay(longest.events[: start + len(batch)]))
    store.close()
    return url


def test_issue_28_the_quick_reader_answers_what_the_store_lookup_answers(filled: str) -> None:
    backend = SqlBackend(filled)
    try:
        with backend.reading() as lookup, quick_reader(filled) as reader:
            assert reader is not None
            for game in ("g1", "r"):
                assert reader.game(game) == lookup.game(game)
                assert reader.events(game) == lookup.events(game)
                assert reader.events(game, 5, 40) == lookup.events(game, 5, 40)
                viewer = lookup.events(game)[0].players[0]  # type: ignore[attr-defined]
                assert show(reader, game, viewer) == show(lookup, game, viewer)
                assert legal(reader, game) == legal(lookup, game)
                assert history(reader, game, viewer) == history(lookup, game, viewer)
            assert reader.game("nobody") is None and lookup.game("nobody") is None
    finally:
        backend.store.close()


def test_issue_28_the_quick_reader_starts_from_the_newest_snapshot_of_this_code(
    filled: str,
) -> None:
    backend = SqlBackend(filled)
    try:
        with quick_reader(filled) as reader:
            assert reader is not None
            from_snapshot = reader.game("r")
        with backend.store.transaction() as tx:
            tx.connection.execute(update(SNAPSHOT).values(shape="older"))
        with quick_reader(filled) as reader:
            assert reader is not None
            replayed = reader.game("r")
        assert from_snapshot is not None and from_snapshot == replayed
    finally:
        backend.store.close()


def test_issue_28_the_quick_reader_declines_what_is_not_a_sqlite_file_of_this_schema(
    tmp_path: Path, filled: str
) -> None:
    missing = tmp_path / "missing.sqlite"
    for url in (
        "postgresql+psycopg://moderator@localhost/titan",
        "sqlite://",
        "sqlite:///:memory:",
        f"sqlite:///{filled.removeprefix('sqlite:///')}?timeout=3",
        f"sqlite:///{missing}",
    ):
        with quick_reader(url) as reader:
            assert reader is None, url
    assert not missing.exists()  # a mistyped path is not made into a new database
    with sqlite3.connect(filled.removeprefix("sqlite:///")) as older:
        older.execute("UPDATE alembic_version SET version_num = '0011'")
    with quick_reader(filled) as reader:
        assert reader is None  # the store says which upgrade it needs


def test_issue_28_sqlite_file_reads_only_plain_file_urls() -> None:
    assert sqlite_file("sqlite:////var/games.sqlite") == "/var/games.sqlite"
    assert sqlite_file("sqlite:///games.sqlite") == "games.sqlite"
    assert sqlite_file("sqlite+pysqlite:///games.sqlite") is None
    assert sqlite_file("sqlite:///my%20games.sqlite") is None
