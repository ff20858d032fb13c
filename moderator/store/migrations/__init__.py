"""Alembic migrations of the moderator's database (run by ``titan-moderator db upgrade``)."""
