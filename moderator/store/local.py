"""
A minimal SQLite event store on sqlmodel: one row per game, one row per event.

``append`` is optimistic: the caller says which sequence number it last saw and the
append fails with ``ConflictError`` if somebody else appended in between (the unique
``(game_id, seq)`` constraint backs the check).  A later issue hardens the storage.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any, Self

from sqlalchemy import JSON, Column, UniqueConstraint, func
from sqlalchemy.exc import IntegrityError
from sqlmodel import Field, Session, SQLModel, col, create_engine, select

from moderator.rules.codec import decode, encode
from moderator.rules.events import Event

#: Where the database lives when neither ``--db`` nor the environment says.
DEFAULT_URL = "sqlite:///titan-moderator.sqlite"
#: The environment variable naming the database URL.
ENV_VAR = "TITAN_MODERATOR_DB"


def database_url(url: str | None = None) -> str:
    """``url`` if given, else ``$TITAN_MODERATOR_DB``, else a file in the current folder."""
    return url or os.environ.get(ENV_VAR) or DEFAULT_URL


class StoreError(Exception):
    """Something is wrong with a stored game (missing, already there, out of sequence)."""


class GameNotFoundError(StoreError, KeyError):
    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "no such game"


class GameExistsError(StoreError):
    pass


class ConflictError(StoreError):
    """The events did not follow the last stored event: somebody appended first."""


def _now() -> datetime:
    return datetime.now(UTC)


class GameRow(SQLModel, table=True):
    __tablename__ = "game"

    id: str = Field(primary_key=True)
    created_at: datetime = Field(default_factory=_now)
    options: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))


class EventRow(SQLModel, table=True):
    __tablename__ = "event"
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_event_game_seq"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True)
    seq: int
    type: str
    version: int
    payload: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    recorded_at: datetime = Field(default_factory=_now)


class EventStore:
    """Games and their events in one database (``sqlite:///file.sqlite`` and the like)."""

    def __init__(self, url: str | None = None) -> None:
        self.url = database_url(url)
        self.engine = create_engine(self.url)
        tables = [GameRow.__table__, EventRow.__table__]  # type: ignore[attr-defined]
        SQLModel.metadata.create_all(self.engine, tables=tables)

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- games -----------------------------------------------------------------

    def create_game(self, game_id: str, options: Mapping[str, Any]) -> None:
        with Session(self.engine) as session:
            if session.get(GameRow, game_id) is not None:
                raise GameExistsError(f"there is already a game called {game_id!r}")
            session.add(GameRow(id=game_id, options=dict(options)))
            try:
                session.commit()
            except IntegrityError as exc:
                raise GameExistsError(f"there is already a game called {game_id!r}") from exc

    def games(self) -> list[str]:
        with Session(self.engine) as session:
            return list(session.exec(select(GameRow.id).order_by(col(GameRow.id))))

    def options(self, game_id: str) -> dict[str, Any]:
        with Session(self.engine) as session:
            return dict(self._game(session, game_id).options)

    def _game(self, session: Session, game_id: str) -> GameRow:
        row = session.get(GameRow, game_id)
        if row is None:
            raise GameNotFoundError(f"there is no game called {game_id!r}")
        return row

    # -- events ----------------------------------------------------------------

    def last_seq(self, game_id: str) -> int:
        with Session(self.engine) as session:
            self._game(session, game_id)
            return self._last_seq(session, game_id)

    @staticmethod
    def _last_seq(session: Session, game_id: str) -> int:
        query = select(func.max(EventRow.seq)).where(EventRow.game_id == game_id)
        last = session.exec(query).one()
        return int(last or 0)

    def append(
        self,
        game_id: str,
        expected_seq: int,
        records: Iterable[Event],
        options: Mapping[str, Any] | None = None,
    ) -> int:
        """
        Store ``records`` as events ``expected_seq + 1, ...`` and return the new last seq.

        ``expected_seq`` is the sequence number of the last event the caller saw (0 for
        none).  ``options``, if given, replace the game's options in the same transaction
        (the dice position moves with the events it rolled).

        Raises:
            ConflictError: another append came first; nothing was stored.
        """
        with Session(self.engine) as session:
            game = self._game(session, game_id)
            last = self._last_seq(session, game_id)
            if last != expected_seq:
                raise ConflictError(
                    f"game {game_id!r} is at event {last}, not {expected_seq}: reload and retry"
                )
            seq = expected_seq
            for event in records:
                seq += 1
                record = encode(event)
                session.add(
                    EventRow(
                        game_id=game_id,
                        seq=seq,
                        type=record["type"],
                        version=record["version"],
                        payload=record["payload"],
                    )
                )
            if options is not None:
                game.options = dict(options)
                session.add(game)
            try:
                session.commit()
            except IntegrityError as exc:
                raise ConflictError(
                    f"game {game_id!r} moved on while these events were stored: reload and retry"
                ) from exc
            return seq

    def load(self, game_id: str) -> list[Event]:
        """Every event of the game, in order."""
        with Session(self.engine) as session:
            self._game(session, game_id)
            rows = session.exec(
                select(EventRow).where(EventRow.game_id == game_id).order_by(col(EventRow.seq))
            )
            return [
                decode({"type": r.type, "version": r.version, "payload": r.payload}) for r in rows
            ]
