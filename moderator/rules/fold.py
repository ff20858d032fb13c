"""
The table that folds each kind of event into the state: ``evolve`` registers the
masterboard's handlers, ``battle_fold`` the battle's, both with ``on``.  Kept apart so
that the two folds need not import each other.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from moderator.rules import events as ev
from moderator.rules.state import GameState

Handler = Callable[[GameState, Any], GameState]
#: Event class -> the function that applies it.
HANDLERS: dict[type[ev.Event], Handler] = {}


def on(cls: type[ev.Event]) -> Callable[[Handler], Handler]:
    """Register the decorated function as the fold of ``cls`` events."""

    def register(fn: Handler) -> Handler:
        HANDLERS[cls] = fn
        return fn

    return register
