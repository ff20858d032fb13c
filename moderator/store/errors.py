"""What can go wrong with stored games, messages and mail."""

from __future__ import annotations


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
