"""
A game read back: a player's view, the legal orders, the history.

These read one game and nothing else, so they ask for no more than ``GameReader``: the
store's ``Lookup`` is one, and so is the command line's quick reader of a SQLite file
(``store.quick``), which answers ``local show`` and ``local legal`` without loading
SQLAlchemy (issue 28).  This module imports only what the answer needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from moderator.ports.errors import GameNotFoundError
from moderator.reporting.views import legal_json, player_view
from moderator.schedule import holders

if TYPE_CHECKING:
    from moderator.ports.games import GameContext
    from moderator.rules.events import Event


class GameReader(Protocol):
    """What reading one game needs of a store (a part of ``ports.Lookup``)."""

    def game(self, game_id: str) -> GameContext | None:
        """The game as it stands, or None if there is no such game."""
        ...

    def events(self, game_id: str, after: int = 0, upto: int | None = None) -> list[Event]:
        """The game's stored events after ``after`` (up to ``upto``)."""
        ...


def _game(reader: GameReader, game_id: str) -> GameContext:
    found = reader.game(game_id)
    if found is None:
        raise GameNotFoundError(game_id)
    return found


def show(reader: GameReader, game_id: str, viewer: str | None) -> dict[str, Any]:
    """
    ``viewer``'s JSON view of the game; each legion's ``known`` lists the characters he
    knows for certain it holds (all of them for his own), from every event he has seen:
    musters, looks, battles, what owners chose to show (Wolff 4.5).

    Raises:
        GameNotFoundError: there is no such game.
    """
    from moderator.reporting.knowledge import known_contents

    view = player_view(_game(reader, game_id).state, viewer)
    known = known_contents(reader.events(game_id), viewer)
    for legion in view["legions"]:
        found = known.get(legion["marker"])
        legion["known"] = list(found.known) if found is not None else []
    return view


def legal(reader: GameReader, game_id: str) -> dict[str, Any]:
    """The player to act's legal orders (``reporting.views.legal_json``)."""
    return legal_json(_game(reader, game_id).state)


def history(
    reader: GameReader,
    game_id: str,
    viewer: str | None,
    first_turn: int | None = None,
    last_turn: int | None = None,
) -> list[str]:
    """The game's history as ``viewer`` may read it (turns ``first_turn`` to ``last_turn``)."""
    from moderator.reporting.narrate import history_lines

    since = holders.held_since(_game(reader, game_id).record.former, viewer)
    return history_lines(reader.events(game_id), viewer, first_turn, last_turn, since)


__all__ = ["GameReader", "history", "legal", "show"]
