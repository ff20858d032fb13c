"""
Folded game states kept between transactions, keyed by game and stream version.

Loading a game decodes its newest snapshot and folds every event after it; with a
snapshot every few hundred events that is most of a game's log, for each mail.  A
game's events are never changed or deleted once committed (the store only appends,
optimistic on ``last_seq``), so the state after event ``seq`` of a game is the same
for as long as the database lives: a state kept under (game, seq) is reused when the
game's row still says ``seq``, and its newest kept state is the start of a fold when
the stream moved on.  Entries are never aged by time; the least recently used games
go when there are too many.

A write transaction's states (those it folded and those it appended) are published
only once it commits (``Tx`` holds them until then): a rolled-back append must never
leave a state under a version another writer will fill with other events.  The cache
saves work and decides nothing: the unit of work still appends on the version the
decision was made on, in the one transaction.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict

from moderator.rules.state import GameState

#: Games kept, and states kept per game (the newest few: a mail reads the head, a
#: report round may read a little behind it).
GAMES = 128
STATES = 4


class Folds:
    """Recent folded states of at most ``games`` games, ``states`` each (least recently used go)."""

    def __init__(self, games: int = GAMES, states: int = STATES) -> None:
        self._games, self._states = games, states
        self._kept: OrderedDict[str, OrderedDict[int, GameState]] = OrderedDict()
        self._lock = threading.Lock()
        #: Loads answered whole from the cache (``hit``), from a kept state and the
        #: events after it (``partial``) and without it (``miss``): what tests and
        #: benchmarks read.
        self.counts: Counter[str] = Counter()

    def at(self, game_id: str, seq: int) -> GameState | None:
        """The state of ``game_id`` after event ``seq``, if kept."""
        with self._lock:
            states = self._kept.get(game_id)
            state = None if states is None else states.get(seq)
            if state is not None:
                self._kept.move_to_end(game_id)
            return state

    def before(self, game_id: str, seq: int) -> tuple[int, GameState] | None:
        """The newest kept state of ``game_id`` at or before event ``seq``, if any."""
        with self._lock:
            states = self._kept.get(game_id)
            if not states:
                return None
            found = max((s for s in states if s <= seq), default=None)
            return None if found is None else (found, states[found])

    def keep(self, game_id: str, seq: int, state: GameState) -> None:
        """Keep ``state`` as ``game_id``'s state after event ``seq`` (committed)."""
        if state.version != seq:  # not the fold of the first ``seq`` events: not kept
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

    def count(self, kind: str) -> None:
        """Count one load: ``hit``, ``partial`` or ``miss``."""
        with self._lock:
            self.counts[kind] += 1

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept)


__all__ = ["GAMES", "STATES", "Folds"]
