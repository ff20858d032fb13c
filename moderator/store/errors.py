"""
What can go wrong with stored games, messages and mail.  The errors a caller acts on
are the ports' (``moderator.ports.errors``), named here too for the store's own modules;
this module adds what only the SQL store knows: which driver errors mean "try again".
"""

from __future__ import annotations

from sqlalchemy.exc import DBAPIError

from moderator.ports.errors import (
    ConflictError,
    GameExistsError,
    GameNotFoundError,
    MessageNotFoundError,
    PlayerExistsError,
    SchemaError,
    StoreError,
)

__all__ = [
    "RETRYABLE_SQLSTATES",
    "ConflictError",
    "GameExistsError",
    "GameNotFoundError",
    "MessageNotFoundError",
    "PlayerExistsError",
    "SchemaError",
    "StoreError",
    "retryable",
]

#: PostgreSQL's SQLSTATEs for "try the transaction again": a deadlock broken by the
#: server, a serialization failure.
RETRYABLE_SQLSTATES = frozenset({"40P01", "40001"})


def retryable(exc: BaseException) -> bool:
    """
    Whether ``exc`` says only that the transaction lost a race (a ``ConflictError``, a
    deadlock or serialization failure on PostgreSQL): the same work tried again from
    fresh state should pass.
    """
    if isinstance(exc, ConflictError):
        return True
    if isinstance(exc, DBAPIError):
        orig = exc.orig
        code = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
        return code in RETRYABLE_SQLSTATES
    return False
