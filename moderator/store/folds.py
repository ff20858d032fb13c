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

from collections import Counter

from moderator.kept_states import KeptStates
from moderator.rules.state import GameState

#: Games kept, and states kept per game (the newest few: a mail reads the head, a
#: report round may read a little behind it).
GAMES = 128
STATES = 4


class Folds(KeptStates[str]):
    """Recent folded states of at most ``games`` games, ``states`` each (least recently used go)."""

    def __init__(self, games: int = GAMES, states: int = STATES) -> None:
        super().__init__(games, states)
        #: Loads answered whole from the cache (``hit``), from a kept state and the
        #: events after it (``partial``) and without it (``miss``): what tests and
        #: benchmarks read.
        self.counts: Counter[str] = Counter()

    def before(self, game_id: str, seq: int) -> tuple[int, GameState] | None:
        """The newest kept state of ``game_id`` at or before event ``seq``, if any."""
        return self.nearest(game_id, seq)

    def keep(self, game_id: str, seq: int, state: GameState) -> None:
        """Keep ``state`` as ``game_id``'s state after event ``seq`` (committed)."""
        if state.version == seq:  # else not the fold of the first ``seq`` events
            super().keep(game_id, seq, state)

    def count(self, kind: str) -> None:
        """Count one load: ``hit``, ``partial`` or ``miss``."""
        with self._lock:
            self.counts[kind] += 1


__all__ = ["GAMES", "STATES", "Folds"]
