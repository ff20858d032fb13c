"""
Recent states of each game, kept between mails, so that a report that begins some way
back does not replay the game from its first event.

A player who hears of the others' play only at the end of a turn, or once a day
(``schedule.notify``), is reported from a version well before the game's present, and
the narration needs the state before each event since then.  Every report round
remembers the stored state it starts from; a later round finds the newest one at or
before where a report begins and replays only from there.  Games are kept by database
and name; a kept state is trusted only if replaying the stored events from it leads to
the game's present state, so a game replaced under the same name (or a kept state that
cannot even be replayed) falls back to the first event.  A finished game's states are
not kept (``remember`` of a state whose game is over forgets the game): its reports are
done, and a service that runs for months would otherwise hold every game it ended until
``GAMES`` newer ones pushed it out.

A ``StateCache`` is an object the runtime builds once (``service.caches``) and hands to
the use cases through the lookup; nothing is kept at module level.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from moderator.rules.state import GameState, Step

#: Games, and states per game, a cache keeps.
GAMES = 64
STATES = 48

Key = tuple[str, str]  # (database, game)


class StateCache:
    """Recent states of at most ``games`` games, ``states`` each (the least recently used go)."""

    def __init__(self, games: int = GAMES, states: int = STATES) -> None:
        self._games, self._states = games, states
        self._kept: OrderedDict[Key, OrderedDict[int, GameState]] = OrderedDict()
        self._lock = threading.Lock()

    def remember(self, game_id: Key, seq: int, state: GameState) -> None:
        """Keep ``state`` as ``game_id``'s state after event ``seq`` (a finished game: forget it)."""
        if state.step is Step.OVER:
            self.forget(game_id)
            return
        with self._lock:
            states = self._kept.setdefault(game_id, OrderedDict())
            self._kept.move_to_end(game_id)
            states[seq] = state
            states.move_to_end(seq)
            while len(states) > self._states:
                states.popitem(last=False)
            while len(self._kept) > self._games:
                self._kept.popitem(last=False)

    def nearest(self, game_id: Key, seq: int) -> tuple[int, GameState] | None:
        """The kept state of ``game_id`` latest at or before event ``seq``, if any."""
        with self._lock:
            states = self._kept.get(game_id)
            if not states:
                return None
            found = max((s for s in states if s <= seq), default=None)
            return None if found is None else (found, states[found])

    def forget(self, game_id: Key) -> None:
        """Drop what is kept of ``game_id`` (its kept states did not lead to its present)."""
        with self._lock:
            self._kept.pop(game_id, None)

    def __len__(self) -> int:
        """The games kept."""
        with self._lock:
            return len(self._kept)

    def states_of(self, game_id: Key) -> int:
        """How many states of ``game_id`` are kept."""
        with self._lock:
            return len(self._kept.get(game_id, ()))


__all__ = ["GAMES", "STATES", "StateCache"]
