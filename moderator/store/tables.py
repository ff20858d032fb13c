"""
The database tables: games, players and their seats, changes of address waiting to be
confirmed, the event log and its snapshots, inbound messages, the outbox, deadlines and
tournaments (their event streams).

The schema itself is made by the alembic migrations in ``migrations/versions``; these
tables must describe the same (``tests/store/test_migrations.py`` compares them).  They
are SQLAlchemy Core tables on one ``METADATA``, as the store reads and writes them (Core
statements, no ORM): no model classes are built at import, so a command that reads one
game (``local show``) starts without pydantic.  A column's Python default applies when
an insert leaves it out; a moment's column has none, its writer gives it.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    TypeDecorator,
    UniqueConstraint,
)

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


def _moment(name: str, *, nullable: bool = False, index: bool = False) -> Column[datetime]:
    """A moment in UTC (its writer gives it: ``utcnow`` or the store's clock)."""
    return Column(name, UTCDateTime(), nullable=nullable, index=index)


def _id() -> Column[int]:
    return Column("id", Integer, primary_key=True)


#: The schema: every table below, for the store's statements, alembic and the tests.
METADATA = MetaData()

GAME = Table(
    "game",
    METADATA,
    Column("id", String, primary_key=True),
    _moment("created_at"),
    # The service's record of the game (``moderator.schedule.record``, versioned JSON).
    Column("record", JSON, nullable=False),
    # The sequence number of the last event: the optimistic-concurrency check (and, on
    # PostgreSQL, the row every writer of the game locks).
    Column("last_seq", Integer, nullable=False, default=0),
)

EVENT = Table(
    "event",
    METADATA,
    _id(),
    Column("game_id", String, ForeignKey("game.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("type", String, nullable=False),
    Column("version", Integer, nullable=False),
    Column("payload", JSON, nullable=False),
    _moment("recorded_at"),
    UniqueConstraint("game_id", "seq", name="uq_event_game_seq"),
)

# The state of a game after event ``seq``, so loading need not replay from zero.
SNAPSHOT = Table(
    "snapshot",
    METADATA,
    _id(),
    Column("game_id", String, ForeignKey("game.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("schema_version", Integer, nullable=False),
    Column("shape", String, nullable=False),
    Column("state", JSON, nullable=False),
    _moment("created_at"),
    UniqueConstraint("game_id", "seq", name="uq_snapshot_game_seq"),
)

# A person who plays by mail: how to reach him and how to know his mail is his.
PLAYER = Table(
    "player",
    METADATA,
    _id(),
    Column("name", String, nullable=False),
    Column("address", String, nullable=False, unique=True),
    Column("time_zone", String, nullable=False, default="UTC"),
    Column("key_fingerprint", String, nullable=True),
    Column("secret_hash", String, nullable=True),
    _moment("created_at"),
    # What else he may do, comma-separated: ``director`` (create tournaments).
    Column("roles", String, nullable=False, server_default=""),
)

# A move of a player's account to a new address, asked for from the new address and
# waiting to be confirmed from the old one (``moderator.usecases.mail.address_change``):
# one per old address.
ADDRESS_CHANGE = Table(
    "address_change",
    METADATA,
    Column("old_address", String, primary_key=True),
    Column("new_address", String, nullable=False),
    # SHA-256 of the token mailed to the old address; the token itself is not kept.
    Column("token_hash", String, nullable=False),
    _moment("requested_at"),
)

# A player's place in a game, under the name the game knows him by.
SEAT = Table(
    "seat",
    METADATA,
    _id(),
    Column("game_id", String, ForeignKey("game.id"), nullable=False),
    Column("player_id", Integer, ForeignKey("player.id"), nullable=False),
    Column("seat", String, nullable=False),
    UniqueConstraint("game_id", "seat", name="uq_seat_game_seat"),
    UniqueConstraint("game_id", "player_id", name="uq_seat_game_player"),
)

# A message as it came in: archived before anything reads it.
INBOUND = Table(
    "inbound",
    METADATA,
    _id(),
    Column("mailbox", String, nullable=False, default="INBOX"),
    Column("uidvalidity", BigInteger, nullable=True),
    Column("uid", BigInteger, nullable=True),
    Column("message_id", String, nullable=True, index=True),
    Column("body_hash", String, nullable=False, index=True),
    Column("raw", LargeBinary, nullable=False),
    Column("status", String, nullable=False, default=RECEIVED),
    Column("game_id", String, nullable=True),
    Column("error", Text, nullable=True),
    _moment("received_at"),
    _moment("processed_at", nullable=True),
    UniqueConstraint("mailbox", "uidvalidity", "uid", name="uq_inbound_mailbox_uid"),
    Index("ix_inbound_status_id", "status", "id"),
)

# A rendered mail waiting to go out; written in the transaction that caused it.
OUTBOX = Table(
    "outbox",
    METADATA,
    _id(),
    Column("message_id", String, nullable=False, unique=True),
    Column("inbound_id", Integer, ForeignKey("inbound.id"), nullable=True),
    Column("position", Integer, nullable=False, default=0),
    Column("game_id", String, nullable=True),
    Column("recipient", String, nullable=False),
    Column("subject", String, nullable=False),
    Column("body", Text, nullable=False),
    Column("headers", JSON, nullable=False),
    # The part of a report or reply only its recipient may read (never signed; encrypted
    # to ``recipient_key`` when set), and the one-time token binding it to the signed
    # public part (Wolff 4.5).  Null for a mail of one plain part.
    Column("private_body", Text, nullable=True),
    Column("token", String, nullable=True),
    Column("recipient_key", String, nullable=True),
    # What the mail is: ``report``, ``reply``, ``refusal``, ``history``, ``welcome``,
    # ``notice`` (null: written before kinds existed).
    Column("kind", String, nullable=True),
    # The pictures the sender draws and attaches (``moderator.pictures.spec.Picture``
    # as JSON): drawn at sending, not in the transaction that wrote the mail.  Null:
    # none (migration 0011).
    Column("pictures", JSON, nullable=True),
    # Files attached as they are (``{"filename", "content_type", "text"}``), in the
    # signed part: the audit bundle at a game's end.  Null: none (migration 0012).
    Column("attachments", JSON, nullable=True),
    Column("status", String, nullable=False, default=PENDING),
    Column("attempts", Integer, nullable=False, default=0),
    _moment("next_attempt_at"),
    Column("last_error", Text, nullable=True),
    _moment("created_at"),
    _moment("sent_at", nullable=True),
    # Who holds the row for sending (a token new with every claim) and until when (real
    # time: the store's clock may run fast in the demo), renewed while the sender works
    # on it (``moderator.store.outbox``); null when nobody holds it (migration 0008).
    Column("claimed_by", String, nullable=True),
    _moment("claimed_until", nullable=True),
    UniqueConstraint("inbound_id", "position", name="uq_outbox_inbound_position"),
    Index("ix_outbox_status_next", "status", "next_attempt_at"),
    Index("ix_outbox_recipient_created", "recipient", "created_at"),
)

# When a game (or one player in it) must have acted.
DEADLINE = Table(
    "deadline",
    METADATA,
    _id(),
    Column("game_id", String, ForeignKey("game.id"), nullable=False),
    Column("player", String, nullable=True),
    Column("kind", String, nullable=False),
    _moment("due_at"),
    Column("status", String, nullable=False, default=DUE),
    _moment("created_at"),
    # What the deadline times (e.g. ``Ann/turn/3``): a deadline that follows the acting
    # player is replaced when this changes; an absence's end names the absence.
    Column("step", String, nullable=True),
    # The game's sequence number when the deadline started.
    Column("seq", Integer, nullable=True),
    # How many of the game's reminders (earliest first) were sent for this deadline.
    Column("reminded", Integer, nullable=False, server_default="0"),
    Index("ix_deadline_status_due", "status", "due_at"),
    Index("ix_deadline_game_status", "game_id", "status"),
)

# What authenticated a mail that was acted on (a PGP signature, or a player's secret
# with the mail's text), kept as a digest so that it counts once: a copy of the signed
# text sent again changes nothing (``moderator.usecases.mail.seals``).  A signature
# older than the service's window is refused anyway, so its row may go once
# ``expires_at`` has passed; a secret's row (no trusted date) has none.
USED_SEAL = Table(
    "used_seal",
    METADATA,
    Column("digest", String, primary_key=True),
    Column("kind", String, nullable=False),
    _moment("used_at"),
    _moment("expires_at", nullable=True, index=True),
    Column("inbound_id", Integer, nullable=True),
)

# The running ``serve`` that reads a mailbox with this database: at most one per
# mailbox (``moderator.store.poller_lock``, migration 0008).  A row whose heartbeat has
# gone stale belongs to a service that died, and may be taken over.
POLLER_LOCK = Table(
    "poller_lock",
    METADATA,
    # The mailbox, as ``imap://user@host:port/folder``.
    Column("mailbox", String, primary_key=True),
    Column("owner", String, nullable=False),
    Column("host", String, nullable=False),
    Column("pid", Integer, nullable=False),
    _moment("started_at"),
    _moment("heartbeat_at"),
)

# A named moment or value the service keeps, e.g. its ``heartbeat``.
SERVICE_STATE = Table(
    "service_state",
    METADATA,
    Column("name", String, primary_key=True),
    _moment("at", nullable=True),
    Column("value", Text, nullable=True),
)

# A tournament: its event stream's head (``last_seq``) and who directs it.
TOURNAMENT = Table(
    "tournament",
    METADATA,
    Column("id", String, primary_key=True),
    _moment("created_at"),
    Column("director", String, nullable=False),
    # The sequence number of the stream's last event: the optimistic-concurrency check.
    Column("last_seq", Integer, nullable=False, default=0),
    Column("finished", Boolean, nullable=False, server_default="0"),
    # The folded state at ``snapshot_seq`` and the shape it was written for
    # (``moderator.store.snapshots.shape_of``); a load folds only the events after it.
    Column("snapshot", JSON, nullable=True),
    Column("snapshot_seq", Integer, nullable=False, server_default="0"),
    Column("snapshot_shape", String, nullable=True),
)

# One event of a tournament's stream (``moderator.tournament.events``).
TOURNAMENT_EVENT = Table(
    "tournament_event",
    METADATA,
    _id(),
    Column("tournament_id", String, ForeignKey("tournament.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("type", String, nullable=False),
    Column("version", Integer, nullable=False),
    Column("payload", JSON, nullable=False),
    _moment("recorded_at"),
    UniqueConstraint("tournament_id", "seq", name="uq_tournament_event_seq"),
    Index("ix_tournament_event_type", "type"),
)

#: Every table, in the order of their definitions.
TABLES: tuple[Table, ...] = tuple(METADATA.tables.values())
