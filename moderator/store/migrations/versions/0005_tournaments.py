"""Tournaments: a table per tournament (its stream's head and director) and one for the
events of every tournament's stream; players get roles (``director``).

Revision ID: 0005
Revises: 0004
Create Date: 2024-10-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("roles", sa.String(), nullable=False, server_default=""))
    op.create_table(
        "tournament",
        sa.Column("id", sa.String(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("director", sa.String(), nullable=False),
        sa.Column("last_seq", sa.Integer(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False, server_default="0"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "tournament_event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.String(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("tournament_id", "seq", name="uq_tournament_event_seq"),
    )
    # Reliability is summed over every tournament: its events are found by type.
    op.create_index("ix_tournament_event_type", "tournament_event", ["type"])


def downgrade() -> None:
    op.drop_index("ix_tournament_event_type", table_name="tournament_event")
    op.drop_table("tournament_event")
    op.drop_table("tournament")
    with op.batch_alter_table("player") as batch:
        batch.drop_column("roles")
