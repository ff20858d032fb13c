"""What can go wrong with stored games, messages and mail."""

from __future__ import annotations

from sqlalchemy.exc import DBAPIError

#: PostgreSQL's SQLSTATEs for "try the transaction again": a deadlock broken by the
#: server, a serialization failure.
RETRYABLE_SQLSTATES = frozenset({"40P01", "40001"})


class StoreError(Exception):
    """Something is wrong with a stored game (missing, already there, out of sequence)."""


class GameNotFoundError(StoreError, LookupError):
    """Raised when no game by the given id is stored."""

    def __init__(self, game_id: str) -> None:
        super().__init__(game_id)
        self.game_id = game_id

    def __str__(self) -> str:
        return f"there is no game called {self.game_id!r}"


class GameExistsError(StoreError):
    """Raised when a game is created under an id that is taken."""

    def __init__(self, game_id: str) -> None:
        super().__init__(game_id)
        self.game_id = game_id

    def __str__(self) -> str:
        return f"there is already a game called {self.game_id!r}"


class ConflictError(StoreError):
    """
    Raised when appended events do not follow the last stored event: somebody else
    appended first.  Nothing was stored; reload the game and decide again.
    """


class MessageNotFoundError(StoreError, LookupError):
    """Raised when no inbound message has the given id."""


class SchemaError(StoreError):
    """Raised when the database's schema is not the one this code needs (run ``db upgrade``)."""


class PlayerExistsError(StoreError):
    """Raised when a player is registered under an address that is taken."""


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
