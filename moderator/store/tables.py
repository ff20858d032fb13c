"""
The database tables (the only ``table=True`` models): games, players and their seats,
changes of address waiting to be confirmed, the event log and its snapshots, inbound
messages, the outbox, deadlines and tournaments (their event streams).

The schema itself is made by the alembic migrations in ``migrations/versions``; these
models must describe the same tables (``tests/store/test_migrations.py`` compares them).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Dialect,
    Index,
    Integer,
    LargeBinary,
    String,
    Table,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlmodel import Field, SQLModel

from moderator.clock import SystemClock
from moderator.ports.deadlines import DUE
from moderator.ports.mail import PENDING, RECEIVED

#: The machine's time (``moderator.clock``): a column's default when its writer gives none,
#: and the store's clock unless the composition root hands it another.
utcnow = SystemClock().now


class UTCDateTime(TypeDecorator[datetime]):
    """A moment in UTC, stored without a zone (the same on SQLite and PostgreSQL)."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            msg = f"a naive datetime cannot be stored ({value!r}): give it a time zone"
            raise ValueError(msg)
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


def _moment(*, nullable: bool = False, index: bool = False) -> Any:
    default: dict[str, Any] = {} if nullable else {"default_factory": utcnow}
    return Field(sa_column=Column(UTCDateTime(), nullable=nullable, index=index), **default)


class GameRow(SQLModel, table=True):
    __tablename__ = "game"

    id: str = Field(primary_key=True)
    created_at: datetime = _moment()
    #: The service's record of the game (``moderator.schedule.record``, versioned JSON).
    record: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    #: The sequence number of the last event: the optimistic-concurrency check (and, on
    #: PostgreSQL, the row every writer of the game locks).
    last_seq: int = Field(default=0)


class EventRow(SQLModel, table=True):
    __tablename__ = "event"
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_event_game_seq"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id")
    seq: int
    type: str
    version: int
    payload: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    recorded_at: datetime = _moment()


class SnapshotRow(SQLModel, table=True):
    """The state of a game after event ``seq``, so loading need not replay from zero."""

    __tablename__ = "snapshot"
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_snapshot_game_seq"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id")
    seq: int
    schema_version: int
    shape: str
    state: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    created_at: datetime = _moment()


class PlayerRow(SQLModel, table=True):
    """A person who plays by mail: how to reach him and how to know his mail is his."""

    __tablename__ = "player"

    id: int | None = Field(default=None, primary_key=True)
    name: str
    address: str = Field(unique=True)
    time_zone: str = Field(default="UTC")
    key_fingerprint: str | None = None
    secret_hash: str | None = None
    created_at: datetime = _moment()
    #: What else he may do, comma-separated: ``director`` (create tournaments).
    roles: str = Field(default="", sa_column=Column(String, nullable=False, server_default=""))


class AddressChangeRow(SQLModel, table=True):
    """
    A move of a player's account to a new address, asked for from the new address and
    waiting to be confirmed from the old one (``moderator.usecases.mail.address_change``):
    one per old address.
    """

    __tablename__ = "address_change"

    old_address: str = Field(primary_key=True)
    new_address: str
    #: SHA-256 of the token mailed to the old address; the token itself is not kept.
    token_hash: str
    requested_at: datetime = _moment()


class SeatRow(SQLModel, table=True):
    """A player's place in a game, under the name the game knows him by."""

    __tablename__ = "seat"
    __table_args__ = (
        UniqueConstraint("game_id", "seat", name="uq_seat_game_seat"),
        UniqueConstraint("game_id", "player_id", name="uq_seat_game_player"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id")
    player_id: int = Field(foreign_key="player.id")
    seat: str


class InboundRow(SQLModel, table=True):
    """A message as it came in: archived before anything reads it."""

    __tablename__ = "inbound"
    __table_args__ = (
        UniqueConstraint("mailbox", "uidvalidity", "uid", name="uq_inbound_mailbox_uid"),
        Index("ix_inbound_status_id", "status", "id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    mailbox: str = Field(default="INBOX")
    uidvalidity: int | None = Field(default=None, sa_type=BigInteger)
    uid: int | None = Field(default=None, sa_type=BigInteger)
    message_id: str | None = Field(default=None, index=True)
    body_hash: str = Field(index=True)
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    status: str = Field(default=RECEIVED)
    game_id: str | None = None
    error: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    received_at: datetime = _moment()
    processed_at: datetime | None = _moment(nullable=True)


class OutboxRow(SQLModel, table=True):
    """A rendered mail waiting to go out; written in the transaction that caused it."""

    __tablename__ = "outbox"
    __table_args__ = (
        UniqueConstraint("inbound_id", "position", name="uq_outbox_inbound_position"),
        Index("ix_outbox_status_next", "status", "next_attempt_at"),
        Index("ix_outbox_recipient_created", "recipient", "created_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(unique=True)
    inbound_id: int | None = Field(default=None, foreign_key="inbound.id")
    position: int = Field(default=0)
    game_id: str | None = None
    recipient: str
    subject: str
    body: str = Field(sa_column=Column(Text, nullable=False))
    headers: dict[str, str] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    #: The part of a report or reply only its recipient may read (never signed; encrypted
    #: to ``recipient_key`` when set), and the one-time token binding it to the signed
    #: public part (Wolff 4.5).  Null for a mail of one plain part.
    private_body: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    token: str | None = None
    recipient_key: str | None = None
    #: What the mail is: ``report``, ``reply``, ``refusal``, ``history``, ``welcome``,
    #: ``notice`` (null: written before kinds existed).
    kind: str | None = None
    #: The pictures the sender draws and attaches (``moderator.pictures.spec.Picture``
    #: as JSON): drawn at sending, not in the transaction that wrote the mail.  Null:
    #: none (migration 0011).
    pictures: list[dict[str, Any]] | None = Field(
        default=None, sa_column=Column(JSON, nullable=True)
    )
    #: Files attached as they are (``{"filename", "content_type", "text"}``), in the
    #: signed part: the audit bundle at a game's end.  Null: none (migration 0012).
    attachments: list[dict[str, Any]] | None = Field(
        default=None, sa_column=Column(JSON, nullable=True)
    )
    status: str = Field(default=PENDING)
    attempts: int = Field(default=0)
    next_attempt_at: datetime = _moment()
    last_error: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    created_at: datetime = _moment()
    sent_at: datetime | None = _moment(nullable=True)
    #: Who holds the row for sending (a token new with every claim) and until when (real
    #: time: the store's clock may run fast in the demo), renewed while the sender works
    #: on it (``moderator.store.outbox``); null when nobody holds it (migration 0008).
    claimed_by: str | None = None
    claimed_until: datetime | None = _moment(nullable=True)


class DeadlineRow(SQLModel, table=True):
    """When a game (or one player in it) must have acted."""

    __tablename__ = "deadline"
    __table_args__ = (
        Index("ix_deadline_status_due", "status", "due_at"),
        Index("ix_deadline_game_status", "game_id", "status"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id")
    player: str | None = None
    kind: str
    due_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))
    status: str = Field(default=DUE)
    created_at: datetime = _moment()
    #: What the deadline times (e.g. ``Ann/turn/3``): a deadline that follows
    #: the acting player is replaced when this changes; an absence's end names the absence.
    step: str | None = None
    #: The game's sequence number when the deadline started.
    seq: int | None = None
    #: How many of the game's reminders (earliest first) were sent for this deadline.
    reminded: int = Field(default=0, sa_column=Column(Integer, nullable=False, server_default="0"))


class UsedSealRow(SQLModel, table=True):
    """
    What authenticated a mail that was acted on (a PGP signature, or a player's secret
    with the mail's text), kept as a digest so that it counts once: a copy of the
    signed text sent again changes nothing (``moderator.usecases.mail.seals``).  A signature
    older than the service's window is refused anyway, so its row may go once
    ``expires_at`` has passed; a secret's row (no trusted date) has none.
    """

    __tablename__ = "used_seal"

    digest: str = Field(primary_key=True)
    kind: str
    used_at: datetime = _moment()
    expires_at: datetime | None = _moment(nullable=True, index=True)
    inbound_id: int | None = None


class PollerLockRow(SQLModel, table=True):
    """
    The running ``serve`` that reads a mailbox with this database: at most one per
    mailbox (``moderator.store.poller_lock``, migration 0008).  A row whose heartbeat
    has gone stale belongs to a service that died, and may be taken over.
    """

    __tablename__ = "poller_lock"

    #: The mailbox, as ``imap://user@host:port/folder``.
    mailbox: str = Field(primary_key=True)
    owner: str
    host: str
    pid: int
    started_at: datetime = _moment()
    heartbeat_at: datetime = _moment()


class ServiceStateRow(SQLModel, table=True):
    """A named moment or value the service keeps, e.g. its ``heartbeat``."""

    __tablename__ = "service_state"

    name: str = Field(primary_key=True)
    at: datetime | None = _moment(nullable=True)
    value: str | None = Field(default=None, sa_column=Column(Text, nullable=True))


class TournamentRow(SQLModel, table=True):
    """A tournament: its event stream's head (``last_seq``) and who directs it."""

    __tablename__ = "tournament"

    id: str = Field(primary_key=True)
    created_at: datetime = _moment()
    director: str
    #: The sequence number of the stream's last event: the optimistic-concurrency check.
    last_seq: int = Field(default=0)
    finished: bool = Field(
        default=False, sa_column=Column(Boolean, nullable=False, server_default="0")
    )
    #: The folded state at ``snapshot_seq`` and the shape it was written for
    #: (``moderator.store.snapshots.shape_of``); a load folds only the events after it.
    snapshot: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    snapshot_seq: int = Field(
        default=0, sa_column=Column(Integer, nullable=False, server_default="0")
    )
    snapshot_shape: str | None = None


class TournamentEventRow(SQLModel, table=True):
    """One event of a tournament's stream (``moderator.tournament.events``)."""

    __tablename__ = "tournament_event"
    __table_args__ = (
        UniqueConstraint("tournament_id", "seq", name="uq_tournament_event_seq"),
        Index("ix_tournament_event_type", "type"),
    )

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: str = Field(foreign_key="tournament.id")
    seq: int
    type: str
    version: int
    payload: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    recorded_at: datetime = _moment()


TABLES = (
    GameRow,
    EventRow,
    SnapshotRow,
    PlayerRow,
    AddressChangeRow,
    SeatRow,
    InboundRow,
    OutboxRow,
    DeadlineRow,
    ServiceStateRow,
    UsedSealRow,
    PollerLockRow,
    TournamentRow,
    TournamentEventRow,
)

# The tables for SQLAlchemy Core statements (the hot paths use Core, not the ORM).
GAME: Table = SQLModel.metadata.tables["game"]
EVENT: Table = SQLModel.metadata.tables["event"]
SNAPSHOT: Table = SQLModel.metadata.tables["snapshot"]
PLAYER: Table = SQLModel.metadata.tables["player"]
SEAT: Table = SQLModel.metadata.tables["seat"]
ADDRESS_CHANGE: Table = SQLModel.metadata.tables["address_change"]
INBOUND: Table = SQLModel.metadata.tables["inbound"]
OUTBOX: Table = SQLModel.metadata.tables["outbox"]
DEADLINE: Table = SQLModel.metadata.tables["deadline"]
SERVICE_STATE: Table = SQLModel.metadata.tables["service_state"]
USED_SEAL: Table = SQLModel.metadata.tables["used_seal"]
POLLER_LOCK: Table = SQLModel.metadata.tables["poller_lock"]
TOURNAMENT: Table = SQLModel.metadata.tables["tournament"]
TOURNAMENT_EVENT: Table = SQLModel.metadata.tables["tournament_event"]
