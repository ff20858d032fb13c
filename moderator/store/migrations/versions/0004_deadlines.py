"""Deadlines follow the acting player: each open deadline records the step it times
(``step``), the game's sequence number when it started (``seq``) and how many of the
game's reminders were sent (``reminded``); a small ``service_state`` table holds the
service's heartbeat (to tell an outage from a quiet night).

Revision ID: 0004
Revises: 0003
Create Date: 2024-09-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("deadline") as batch:
        batch.add_column(sa.Column("step", sa.String(), nullable=True))
        batch.add_column(sa.Column("seq", sa.Integer(), nullable=True))
        batch.add_column(
            sa.Column("reminded", sa.Integer(), nullable=False, server_default="0")
        )
    op.create_index("ix_deadline_game_status", "deadline", ["game_id", "status"])
    op.create_table(
        "service_state",
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=True),
        sa.Column("value", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade() -> None:
    op.drop_table("service_state")
    op.drop_index("ix_deadline_game_status", table_name="deadline")
    with op.batch_alter_table("deadline") as batch:
        for column in ("reminded", "seq", "step"):
            batch.drop_column(column)
