"""
The alembic environment: always online, on the connection ``moderator.store.migrate``
hands over (no alembic.ini, no URL of its own).
"""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

import moderator.store.tables  # noqa: F401 - the models fill the metadata

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=SQLModel.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
    transaction_per_migration=True,
)
with context.begin_transaction():
    context.run_migrations()
