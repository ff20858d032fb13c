"""Short, renewed leases: an outbox row records who claimed it for sending
(``claimed_by``, a token new with every claim) and until when (``claimed_until``, real
time), so a sender that died gives its mail up within seconds and a late sender cannot
record over another's claim; ``poller_lock`` holds one row per mailbox a running
``serve`` reads (who, where, since when, its last heartbeat), so a second one refuses to
start.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("claimed_by", sa.String(), nullable=True))
        batch.add_column(sa.Column("claimed_until", sa.DateTime(), nullable=True))
    op.create_table(
        "poller_lock",
        sa.Column("mailbox", sa.String(), nullable=False),
        sa.Column("owner", sa.String(), nullable=False),
        sa.Column("host", sa.String(), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("mailbox"),
    )


def downgrade() -> None:
    op.drop_table("poller_lock")
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("claimed_until")
        batch.drop_column("claimed_by")
