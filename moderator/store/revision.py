"""
The schema revision this code needs, apart from ``migrate`` (which imports SQLAlchemy
and alembic's helpers): the quick reader of ``store.quick`` checks it on a bare
``sqlite3`` connection.
"""

from __future__ import annotations

#: The newest revision: what this code needs (a test checks it is the scripts' head).
HEAD = "0012"
#: The revision of a database the foundation's store made (before alembic).
FOUNDATION = "0001"

__all__ = ["FOUNDATION", "HEAD"]
