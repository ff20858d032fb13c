"""Changes of address by mail: a move of a player's account to a new address waits in
``address_change`` (old address, new address, the hash of the token mailed to the old
address, when it was asked for) until it is confirmed from the old address.

Revision ID: 0006
Revises: 0005
Create Date: 2024-11-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "address_change",
        sa.Column("old_address", sa.String(), nullable=False),
        sa.Column("new_address", sa.String(), nullable=False),
        sa.Column("token_hash", sa.String(), nullable=False),
        sa.Column("requested_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("old_address"),
    )


def downgrade() -> None:
    op.drop_table("address_change")
