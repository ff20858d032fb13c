"""
The event store: games, their event logs and snapshots, on sqlmodel (SQLAlchemy 2).

Work happens in transactions (``EventStore.transaction()`` gives a ``Tx``); the
store's own methods each run one.  ``Tx.append`` is optimistic: it moves the game's
``last_seq`` from the number the caller saw to the new one in a single conditional
UPDATE, so a caller who saw an old number gets ``ConflictError`` and nothing is
stored.  The unique ``(game_id, seq)`` key backs the check.  On PostgreSQL that UPDATE
also locks the game's row until the transaction ends, which serialises the writers of
one game; on SQLite a write transaction holds the database's write lock, and a
process's write transactions take turns on a lock of its own before they ask SQLite
for it: a waiting one starts as soon as the one before has committed, where SQLite's
busy handler sleeps between tries (up to 100 ms a try; the sender's claims slept
behind the poller's mails, issue 28); other processes meet SQLite's busy timeout as
before.  A load reuses the state folded for the same version before (``folds.Folds``,
published on commit).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any, Self

from sqlalchemy import Connection, bindparam, delete, insert, select
from sqlalchemy.exc import IntegrityError

from moderator.ports.games import LoadedGame
from moderator.rules.codec import decode, encode
from moderator.rules.events import Event
from moderator.rules.evolve import replay
from moderator.rules.state import GameState
from moderator.schedule.record import GameRecord
from moderator.store import config, migrate
from moderator.store.engine import make_engine, writer
from moderator.store.errors import GameExistsError, GameNotFoundError
from moderator.store.folds import Folds
from moderator.store.snapshots import SCHEMA_VERSION, SHAPE, decode_state, encode_state
from moderator.store.streams import append_records
from moderator.store.tables import EVENT, GAME, SNAPSHOT, utcnow

#: Snapshots kept per game (older ones are deleted when a new one is written).
SNAPSHOTS_KEPT = 3

# The reads of every load, built once: a statement built for each call costs several
# times its execution on SQLite (its clauses made again, then its cache key).
_GAME = select(GAME).where(GAME.c.id == bindparam("game_id"))
_EVENTS = (
    select(EVENT.c.type, EVENT.c.version, EVENT.c.payload)
    .where(EVENT.c.game_id == bindparam("game_id"), EVENT.c.seq > bindparam("after"))
    .order_by(EVENT.c.seq)
)
_EVENTS_UPTO = _EVENTS.where(EVENT.c.seq <= bindparam("upto"))

Clock = Callable[[], datetime]


@contextmanager
def _collector_paused() -> Iterator[None]:
    """
    Hold off Python's cycle collector while events are decoded.  A long game is
    hundreds of thousands of small tuples, none in a cycle, and the collector would
    walk them all again and again as they are made: it doubles the time a load takes.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class Tx:
    """One transaction on the store: everything done through it commits or rolls back together."""

    def __init__(self, store: EventStore, connection: Connection, *, writing: bool = False) -> None:
        self.store = store
        self.connection = connection
        self.dialect = connection.dialect.name
        #: A write transaction (``EventStore.transaction``); a reading writes nothing.
        self.writing = writing
        #: States folded or appended in this transaction, kept once it commits.
        self._folded: dict[tuple[str, int], GameState] = {}

    def publish(self) -> None:
        """Hand this transaction's folded states to the store's cache (it committed)."""
        for (game_id, seq), state in self._folded.items():
            self.store.folds.keep(game_id, seq, state)
        self._folded.clear()

    def now(self) -> datetime:
        return self.store.clock()

    # -- games ---------------------------------------------------------------------------

    def create_game(self, game_id: str, record: GameRecord) -> None:
        if self.connection.execute(select(GAME.c.id).where(GAME.c.id == game_id)).first():
            raise GameExistsError(game_id)
        try:
            self.connection.execute(
                insert(GAME).values(
                    id=game_id, created_at=self.now(), record=record.to_json(), last_seq=0
                )
            )
        except IntegrityError as exc:
            raise GameExistsError(game_id) from exc

    def games(self) -> list[str]:
        return list(self.connection.scalars(select(GAME.c.id).order_by(GAME.c.id)))

    def game(self, game_id: str, *, lock: bool = False, skip_locked: bool = False) -> Any:
        """
        The game's row (``id``, ``record``, ``last_seq``...).  ``lock`` takes the row
        lock on PostgreSQL (``FOR UPDATE``, or ``SKIP LOCKED``: then None if another
        transaction holds it).

        Raises:
            GameNotFoundError: there is no such game.
        """
        query = _GAME
        if lock and self.dialect == "postgresql":
            query = query.with_for_update(skip_locked=skip_locked)
        row = self.connection.execute(query, {"game_id": game_id}).first()
        if row is None:
            if (
                skip_locked
                and self.connection.execute(select(GAME.c.id).where(GAME.c.id == game_id)).first()
            ):
                return None
            raise GameNotFoundError(game_id)
        return row

    def record(self, game_id: str) -> GameRecord:
        """The service's record of the game (``moderator.schedule.record``)."""
        return GameRecord.from_json(self.game(game_id).record)

    def last_seq(self, game_id: str) -> int:
        return int(self.game(game_id).last_seq)

    # -- events --------------------------------------------------------------------------

    def append(
        self,
        game_id: str,
        expected_seq: int,
        events: Iterable[Event],
        *,
        record: GameRecord | None = None,
        state: GameState | None = None,
    ) -> int:
        """
        Store ``events`` as ``expected_seq + 1, ...`` and return the new last seq.

        ``expected_seq`` is the last sequence number the caller saw (0 for none).
        ``record``, if given, replaces the game's record in the same transaction (the
        dice position moves with the events it rolled).  ``state``, the game's state
        after these events, is stored as a snapshot when the log crosses a multiple of
        the store's ``snapshot_every`` (without it the state is rebuilt for that).

        Raises:
            ConflictError: the game is not at ``expected_seq``; nothing was stored.
            GameNotFoundError: there is no such game.
        """
        records = [encode(e) for e in events]
        last = append_records(
            self.connection,
            head=GAME,
            events=EVENT,
            stream_column="game_id",
            stream_id=game_id,
            expected_seq=expected_seq,
            records=records,
            now=self.now(),
            actual_seq=lambda: self.last_seq(game_id),  # raises GameNotFoundError
            what=f"game {game_id!r}",
            head_values={"record": record.to_json()} if record is not None else None,
        )
        if not records:
            return last
        if state is not None and state.version == last:
            self._folded[game_id, last] = state
        every = self.store.snapshot_every
        if last // every > expected_seq // every:
            if state is None or state.version != last:
                state = self.load(game_id).state
            self.write_snapshot(game_id, last, state)
        return last

    def events(self, game_id: str, after: int = 0, upto: int | None = None) -> list[Event]:
        """The game's events after sequence number ``after`` (up to ``upto``), in order."""
        found = self._events(game_id, after, upto)
        if not found:
            self.game(game_id)  # none: raises GameNotFoundError if there is no such game
        return found

    def _events(self, game_id: str, after: int, upto: int | None = None) -> list[Event]:
        if upto is None:
            rows = self.connection.execute(_EVENTS, {"game_id": game_id, "after": after})
        else:
            rows = self.connection.execute(
                _EVENTS_UPTO, {"game_id": game_id, "after": after, "upto": upto}
            )
        with _collector_paused():
            return [decode({"type": t, "version": v, "payload": p}) for t, v, p in rows]

    def load(self, game_id: str, *, lock: bool = False, fresh: bool = False) -> LoadedGame:
        """
        The game's current state: the state kept for its version (``folds``), else the
        newest kept state or usable snapshot plus the events after it.  ``lock`` (in a
        write transaction) holds the game's row until the transaction ends on
        PostgreSQL, so no other writer of the game can come in between.  ``fresh``:
        from the stored snapshot and events only (what ``store.check`` compares).
        """
        return self.loaded(self.game(game_id, lock=lock), fresh=fresh)

    def loaded(self, game: Any, *, fresh: bool = False) -> LoadedGame:
        """``load`` of the game whose row (``game``) this transaction has just read."""
        game_id, last = str(game.id), int(game.last_seq)
        record = GameRecord.from_json(game.record)
        folds = self.store.folds
        if not fresh:
            state = self._folded.get((game_id, last))
            state = folds.at(game_id, last) if state is None else state
            if state is not None:
                folds.count("hit")
                return LoadedGame(game_id, state, last, record, last)
        kept = None if fresh else folds.before(game_id, last)
        if kept is not None:
            folds.count("partial")
            start, state = kept
        else:
            folds.count("miss")
            snapshot = self.latest_snapshot(game_id)
            start, state = snapshot if snapshot is not None else (0, GameState())
        events = self._events(game_id, after=start)
        state = replay(events, state)
        seq = start + len(events)
        if seq == last:
            self._folded[game_id, seq] = state
        return LoadedGame(game_id, state, seq, record, start)

    # -- snapshots -----------------------------------------------------------------------

    def latest_snapshot(self, game_id: str) -> tuple[int, GameState] | None:
        """(seq, state) of the newest snapshot this code can read, if any."""
        row = self.connection.execute(
            select(SNAPSHOT.c.seq, SNAPSHOT.c.state)
            .where(
                SNAPSHOT.c.game_id == game_id,
                SNAPSHOT.c.schema_version == SCHEMA_VERSION,
                SNAPSHOT.c.shape == SHAPE,
            )
            .order_by(SNAPSHOT.c.seq.desc())
            .limit(1)
        ).first()
        if row is None:
            return None
        return int(row.seq), decode_state(row.state)

    def write_snapshot(self, game_id: str, seq: int, state: GameState) -> None:
        """Store ``state`` as the state after event ``seq``, keeping the newest few."""
        self.connection.execute(
            delete(SNAPSHOT).where(SNAPSHOT.c.game_id == game_id, SNAPSHOT.c.seq == seq)
        )
        self.connection.execute(
            insert(SNAPSHOT).values(
                game_id=game_id,
                seq=seq,
                schema_version=SCHEMA_VERSION,
                shape=SHAPE,
                state=encode_state(state),
                created_at=self.now(),
            )
        )
        cutoff = self.connection.scalar(
            select(SNAPSHOT.c.seq)
            .where(SNAPSHOT.c.game_id == game_id)
            .order_by(SNAPSHOT.c.seq.desc())
            .offset(SNAPSHOTS_KEPT - 1)
            .limit(1)
        )
        if cutoff is not None:
            self.connection.execute(
                delete(SNAPSHOT).where(SNAPSHOT.c.game_id == game_id, SNAPSHOT.c.seq < cutoff)
            )


class EventStore:
    """
    Games and their events in one database, chosen by URL: ``sqlite:///file.sqlite``
    (the default, for one machine) or ``postgresql+psycopg://...`` (for several workers).

    An empty database gets the newest schema when the store opens it (``create``); an
    older one must be upgraded first (``titan-moderator db upgrade``).
    """

    def __init__(
        self,
        url: str | None = None,
        *,
        snapshot_every: int | None = None,
        create: bool = True,
        clock: Clock = utcnow,
    ) -> None:
        self.url = config.database_url(url)
        self.engine = make_engine(self.url)
        self.dialect = self.engine.dialect.name
        self.snapshot_every = config.snapshot_every(snapshot_every)
        self.clock = clock
        #: Folded states by game and version, reused by ``Tx.load`` (never aged by time).
        self.folds = Folds()
        #: What the composition root keeps for the use cases between units of work (the
        #: service's caches, ``service.caches``); the runners' lookups hand it in.
        self.memo: object | None = None
        self._writer = writer(self.engine)
        #: This process's turn at SQLite's one write lock (see the module's text).
        self._write_turn = threading.RLock() if self.dialect == "sqlite" else None
        try:
            migrate.ensure_schema(self.engine, create=create)
        except BaseException:
            self.engine.dispose()
            raise

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        """A write transaction: committed when the block ends, rolled back if it raises."""
        turn = self._write_turn
        # Past SQLite's own wait the transaction asks SQLite anyway (and fails as before).
        held = turn.acquire(timeout=config.SQLITE_BUSY_TIMEOUT) if turn is not None else False
        try:
            with self._writer.begin() as connection:
                tx = Tx(self, connection, writing=True)
                yield tx
        finally:
            if turn is not None and held:
                turn.release()
        tx.publish()  # committed: its folded states may be reused

    @contextmanager
    def reading(self) -> Iterator[Tx]:
        """A read-only transaction (on PostgreSQL one consistent view: repeatable read)."""
        with self.engine.connect() as connection:
            if self.dialect == "postgresql":
                connection.execution_options(isolation_level="REPEATABLE READ")
            tx = Tx(self, connection)
            yield tx
            connection.rollback()
        tx.publish()  # it read committed states only

    # -- one transaction each ----------------------------------------------------------------

    def create_game(self, game_id: str, record: GameRecord) -> None:
        with self.transaction() as tx:
            tx.create_game(game_id, record)

    def games(self) -> list[str]:
        with self.reading() as tx:
            return tx.games()

    def record(self, game_id: str) -> GameRecord:
        with self.reading() as tx:
            return tx.record(game_id)

    def last_seq(self, game_id: str) -> int:
        with self.reading() as tx:
            return tx.last_seq(game_id)

    def append(
        self,
        game_id: str,
        expected_seq: int,
        events: Iterable[Event],
        record: GameRecord | None = None,
        state: GameState | None = None,
    ) -> int:
        """``Tx.append`` in a transaction of its own."""
        with self.transaction() as tx:
            return tx.append(game_id, expected_seq, events, record=record, state=state)

    def load(self, game_id: str) -> list[Event]:
        """Every event of the game, in order."""
        with self.reading() as tx:
            return tx.events(game_id)

    def load_state(self, game_id: str, *, fresh: bool = False) -> LoadedGame:
        with self.reading() as tx:
            return tx.load(game_id, fresh=fresh)

    def snapshot(self, game_id: str) -> int:
        """Write a snapshot of the game's current state now; returns its seq."""
        with self.transaction() as tx:
            loaded = tx.load(game_id)
            tx.write_snapshot(game_id, loaded.seq, loaded.state)
            return loaded.seq
