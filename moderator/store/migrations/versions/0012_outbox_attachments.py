"""Files a mail carries besides its text and pictures (``outbox.attachments``, JSON: the
name, content type and text of each; the audit bundle at a game's end).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ALTER: a nullable column needs no table copy, even on SQLite.
    op.add_column("outbox", sa.Column("attachments", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("attachments")
