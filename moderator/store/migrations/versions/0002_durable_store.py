"""The durable store: the last sequence number on the game, snapshots, players and
seats, inbound messages, the outbox and deadlines.

Revision ID: 0002
Revises: 0001
Create Date: 2024-07-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("last_seq", sa.Integer(), nullable=False, server_default="0"))
    op.execute(
        "UPDATE game SET last_seq = "
        "(SELECT COALESCE(MAX(event.seq), 0) FROM event WHERE event.game_id = game.id)"
    )
    # The unique (game_id, seq) index answers every query by game: one index fewer to
    # keep up on each append.
    op.drop_index("ix_event_game_id", table_name="event")

    op.create_table(
        "snapshot",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("schema_version", sa.Integer(), nullable=False),
        sa.Column("shape", sa.String(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "seq", name="uq_snapshot_game_seq"),
    )
    op.create_table(
        "player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("address", sa.String(), nullable=False),
        sa.Column("time_zone", sa.String(), nullable=False),
        sa.Column("key_fingerprint", sa.String(), nullable=True),
        sa.Column("secret_hash", sa.String(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("address"),
    )
    op.create_table(
        "seat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.String(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "seat", name="uq_seat_game_seat"),
        sa.UniqueConstraint("game_id", "player_id", name="uq_seat_game_player"),
    )
    op.create_table(
        "inbound",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("mailbox", sa.String(), nullable=False),
        sa.Column("uidvalidity", sa.BigInteger(), nullable=True),
        sa.Column("uid", sa.BigInteger(), nullable=True),
        sa.Column("message_id", sa.String(), nullable=True),
        sa.Column("body_hash", sa.String(), nullable=False),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("game_id", sa.String(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("received_at", sa.DateTime(), nullable=False),
        sa.Column("processed_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("mailbox", "uidvalidity", "uid", name="uq_inbound_mailbox_uid"),
    )
    op.create_index("ix_inbound_status_id", "inbound", ["status", "id"])
    op.create_index("ix_inbound_message_id", "inbound", ["message_id"])
    op.create_index("ix_inbound_body_hash", "inbound", ["body_hash"])
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.String(), nullable=False),
        sa.Column("inbound_id", sa.Integer(), nullable=True),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(), nullable=True),
        sa.Column("recipient", sa.String(), nullable=False),
        sa.Column("subject", sa.String(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("headers", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("sent_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["inbound_id"], ["inbound.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("message_id"),
        sa.UniqueConstraint("inbound_id", "position", name="uq_outbox_inbound_position"),
    )
    op.create_index("ix_outbox_status_next", "outbox", ["status", "next_attempt_at"])
    op.create_table(
        "deadline",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(), nullable=False),
        sa.Column("player", sa.String(), nullable=True),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("due_at", sa.DateTime(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_deadline_status_due", "deadline", ["status", "due_at"])


def downgrade() -> None:
    for table in ("deadline", "outbox", "inbound", "seat", "player", "snapshot"):
        op.drop_table(table)
    op.create_index("ix_event_game_id", "event", ["game_id"])
    with op.batch_alter_table("game") as batch:
        batch.drop_column("last_seq")
