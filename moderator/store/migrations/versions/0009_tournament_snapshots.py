"""Tournament snapshots: the folded state of a tournament's stream at ``snapshot_seq``
(with the shape of the state it was written for), so that loading a tournament folds
only the events after it, however many games it has finished.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament") as batch:
        batch.add_column(sa.Column("snapshot", sa.JSON(), nullable=True))
        batch.add_column(
            sa.Column("snapshot_seq", sa.Integer(), nullable=False, server_default="0")
        )
        batch.add_column(sa.Column("snapshot_shape", sa.String(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament") as batch:
        batch.drop_column("snapshot_shape")
        batch.drop_column("snapshot_seq")
        batch.drop_column("snapshot")
