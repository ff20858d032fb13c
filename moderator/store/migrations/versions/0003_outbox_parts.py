"""The outbox carries a report's private part, its one-time token, the recipient's key
and the kind of mail (the mail sender signs and encrypts just before sending); an
index for counting each address's mails of the day (the reply budget).

Revision ID: 0003
Revises: 0002
Create Date: 2024-08-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("private_body", sa.Text(), nullable=True))
        batch.add_column(sa.Column("token", sa.String(), nullable=True))
        batch.add_column(sa.Column("recipient_key", sa.String(), nullable=True))
        batch.add_column(sa.Column("kind", sa.String(), nullable=True))
    # The reply budget counts each address's mails of the day.
    op.create_index("ix_outbox_recipient_created", "outbox", ["recipient", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_outbox_recipient_created", table_name="outbox")
    with op.batch_alter_table("outbox") as batch:
        for column in ("kind", "recipient_key", "token", "private_body"):
            batch.drop_column(column)
