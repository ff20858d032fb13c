"""
One game read from a SQLite file on the standard library's ``sqlite3``: the quick
reader of ``local show`` and ``local legal`` (issue 28).

Each of those commands is a process of its own that reads one game, and importing
SQLAlchemy and the sqlmodel tables costs it more than everything else it does.  This
reader needs neither: it runs, in one read transaction, the few SELECTs that
``eventstore.Tx.load`` and ``Tx.events`` run (the newest snapshot this code can read,
the events after it, the seats), on the tables ``store.tables`` declares, and decodes
them as the store does.  ``tests/store/test_quick_reader.py`` holds its answers to the
store's.

It answers only where it can: ``quick_reader`` gives None for a URL that is not a
plain SQLite file, a file that is not there or cannot be opened, or a schema other than
``revision.HEAD``; the caller then opens the store, which says what is wrong.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import quote

from moderator.ports.games import GameContext
from moderator.rules.codec import decode
from moderator.rules.events import Event
from moderator.rules.evolve import replay
from moderator.rules.state import GameState
from moderator.schedule.record import GameRecord
from moderator.store.config import SQLITE_BUSY_TIMEOUT, database_url
from moderator.store.revision import HEAD
from moderator.store.snapshots import SCHEMA_VERSION, SHAPE, decode_state

#: The form of URL read here: a file, with no query (``?...``) for the driver.
_PREFIX = "sqlite:///"


def sqlite_file(url: str) -> str | None:
    """The file a plain ``sqlite:///PATH`` URL names; None for any other URL."""
    if not url.startswith(_PREFIX):
        return None
    path = url.removeprefix(_PREFIX)
    if not path or path.startswith(":memory:") or any(c in path for c in "?%#"):
        return None
    return path


class QuickReader:
    """``reads.GameReader`` on an open ``sqlite3`` connection inside a read transaction."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._db = connection

    def game(self, game_id: str) -> GameContext | None:
        """As ``SqlLookup.game``: the newest usable snapshot and the events after it."""
        row = self._db.execute("SELECT record FROM game WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        snapshot = self._db.execute(
            "SELECT seq, state FROM snapshot WHERE game_id = ? AND schema_version = ? "
            "AND shape = ? ORDER BY seq DESC LIMIT 1",
            (game_id, SCHEMA_VERSION, SHAPE),
        ).fetchone()
        start, state = (
            (int(snapshot[0]), decode_state(json.loads(snapshot[1])))
            if snapshot is not None
            else (0, GameState())
        )
        events = self._events(game_id, start, None)
        seats = self._db.execute(
            "SELECT player.address, seat.seat FROM player JOIN seat "
            "ON seat.player_id = player.id WHERE seat.game_id = ?",
            (game_id,),
        )
        return GameContext(
            game_id,
            replay(events, state),
            start + len(events),
            GameRecord.from_json(json.loads(row[0])),
            {str(address): str(seat) for address, seat in seats},
        )

    def events(self, game_id: str, after: int = 0, upto: int | None = None) -> list[Event]:
        """As ``Tx.events``; an unknown game has none (``game`` tells it apart)."""
        return self._events(game_id, after, upto)

    def _events(self, game_id: str, after: int, upto: int | None) -> list[Event]:
        query = "SELECT type, version, payload FROM event WHERE game_id = ? AND seq > ?"
        values: tuple[object, ...] = (game_id, after)
        if upto is not None:
            query += " AND seq <= ?"
            values += (upto,)
        rows = self._db.execute(query + " ORDER BY seq", values)
        return [decode({"type": t, "version": v, "payload": json.loads(p)}) for t, v, p in rows]


@contextmanager
def quick_reader(db: str | None) -> Iterator[QuickReader | None]:
    """
    A ``QuickReader`` on the database ``db`` names (``store.config.database_url``), in
    one read transaction; None when it is not a SQLite file of this code's schema that
    can be opened (the store then answers, or says why it cannot).
    """
    try:
        path = sqlite_file(database_url(db))
    except (ValueError, TypeError):  # a configuration file the store will complain of
        path = None
    connection = None
    if path is not None:
        try:
            # mode=rw: a file that is not there is an error, never a new empty database
            connection = sqlite3.connect(
                f"file:{quote(path)}?mode=rw", uri=True, timeout=SQLITE_BUSY_TIMEOUT,
                isolation_level=None,
            )
            connection.execute("BEGIN")
            version = connection.execute("SELECT version_num FROM alembic_version").fetchall()
        except sqlite3.Error:
            version = []
        if version != [(HEAD,)] and connection is not None:
            connection.close()
            connection = None
    if connection is None:
        yield None
        return
    try:
        yield QuickReader(connection)
    finally:
        connection.rollback()
        connection.close()


__all__ = ["QuickReader", "quick_reader", "sqlite_file"]
