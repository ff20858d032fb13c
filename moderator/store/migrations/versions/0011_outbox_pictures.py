"""A report's pictures: the outbox row keeps what to draw (``outbox.pictures``, JSON),
and the sender draws and attaches it when it sends the mail.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ALTER: a nullable column needs no table copy, even on SQLite.
    op.add_column("outbox", sa.Column("pictures", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("pictures")
