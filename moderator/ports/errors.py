"""
What the store raises that a caller may act on: part of the ports because the use
cases and the runners catch these by name, whichever store stands behind the lookup
(SQL or the in-memory one of ``moderator.testing``).  The store's driver errors stay in
``moderator.store.errors``.
"""

from __future__ import annotations

__all__ = [
    "ConflictError",
    "GameExistsError",
    "GameNotFoundError",
    "MessageNotFoundError",
    "PlayerExistsError",
    "SchemaError",
    "StoreError",
    "TournamentExistsError",
    "TournamentNotFoundError",
    "UnknownChangeError",
]


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


class TournamentNotFoundError(StoreError, LookupError):
    """Raised when no tournament by the given name is stored."""

    def __init__(self, tournament_id: str) -> None:
        super().__init__(tournament_id)
        self.tournament_id = tournament_id

    def __str__(self) -> str:
        return f"there is no tournament called {self.tournament_id!r}"


class TournamentExistsError(StoreError):
    """Raised when a tournament is created under a name that is taken."""

    def __init__(self, tournament_id: str) -> None:
        super().__init__(tournament_id)
        self.tournament_id = tournament_id

    def __str__(self) -> str:
        return f"there is already a tournament called {self.tournament_id!r}"


class UnknownChangeError(ValueError):
    """A decision asked for a change the store does not know (a bug in the decider)."""
