"""
Folded game states kept in memory by game and event number, the least recently used
game going first: the one mechanism behind the store's kept folds (``store.folds``)
and the report rounds' recent states (``usecases.games.state_cache``), which differ
only in what they keep and when they forget.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

from moderator.rules.state import GameState

K = TypeVar("K")


class KeptStates(Generic[K]):
    """States of at most ``games`` games, ``states`` each (the least recently used go)."""

    def __init__(self, games: int, states: int) -> None:
        self._games, self._states = games, states
        self._kept: OrderedDict[K, OrderedDict[int, GameState]] = OrderedDict()
        self._lock = threading.Lock()

    def keep(self, game: K, seq: int, state: GameState) -> None:
        """Keep ``state`` as ``game``'s state after event ``seq``."""
        with self._lock:
            states = self._kept.setdefault(game, OrderedDict())
            self._kept.move_to_end(game)
            states[seq] = state
            states.move_to_end(seq)
            while len(states) > self._states:
                states.popitem(last=False)
            while len(self._kept) > self._games:
                self._kept.popitem(last=False)

    def at(self, game: K, seq: int) -> GameState | None:
        """The state of ``game`` after event ``seq``, if kept."""
        with self._lock:
            states = self._kept.get(game)
            state = None if states is None else states.get(seq)
            if state is not None:
                self._kept.move_to_end(game)
            return state

    def nearest(self, game: K, seq: int) -> tuple[int, GameState] | None:
        """The newest kept state of ``game`` at or before event ``seq``, if any."""
        with self._lock:
            states = self._kept.get(game)
            if not states:
                return None
            found = max((s for s in states if s <= seq), default=None)
            return None if found is None else (found, states[found])

    def forget(self, game: K) -> None:
        """Drop what is kept of ``game``."""
        with self._lock:
            self._kept.pop(game, None)

    def states_of(self, game: K) -> int:
        """How many states of ``game`` are kept."""
        with self._lock:
            return len(self._kept.get(game, ()))

    def __len__(self) -> int:
        """The games kept."""
        with self._lock:
            return len(self._kept)


__all__ = ["KeptStates"]
