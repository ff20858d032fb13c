"""Every signed mail counts once: ``used_seal`` keeps a digest of what authenticated
each mail that was acted on (a PGP signature, or a secret with the mail's text), when
it was used and when its row may be pruned.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "used_seal",
        sa.Column("digest", sa.String(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("used_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=True),
        sa.Column("inbound_id", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("digest"),
    )
    op.create_index("ix_used_seal_expires_at", "used_seal", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_used_seal_expires_at", table_name="used_seal")
    op.drop_table("used_seal")
