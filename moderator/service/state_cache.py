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
cannot even be replayed) falls back to the first event.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from moderator.rules.state import GameState

#: Games, and states per game, a process keeps.
GAMES = 64
STATES = 48

Key = tuple[str, str]  # (database, game)
_kept: OrderedDict[Key, OrderedDict[int, GameState]] = OrderedDict()
_lock = threading.Lock()


def remember(game_id: Key, seq: int, state: GameState) -> None:
    """Keep ``state`` as ``game_id``'s state after event ``seq``."""
    with _lock:
        states = _kept.setdefault(game_id, OrderedDict())
        _kept.move_to_end(game_id)
        states[seq] = state
        states.move_to_end(seq)
        while len(states) > STATES:
            states.popitem(last=False)
        while len(_kept) > GAMES:
            _kept.popitem(last=False)


def nearest(game_id: Key, seq: int) -> tuple[int, GameState] | None:
    """The kept state of ``game_id`` latest at or before event ``seq``, if any."""
    with _lock:
        states = _kept.get(game_id)
        if not states:
            return None
        found = max((s for s in states if s <= seq), default=None)
        return None if found is None else (found, states[found])


def forget(game_id: Key) -> None:
    """Drop what is kept of ``game_id`` (its kept states did not lead to its present)."""
    with _lock:
        _kept.pop(game_id, None)


__all__ = ["GAMES", "STATES", "forget", "nearest", "remember"]
