"""
What every player knows of the legions, kept between mails (``reporting.knowledge``).

The fold starts at the game's first event, so folding a long game for every report
would cost as much as the game is long.  A ``KnowledgeCache`` keeps, per game, the
knowledge after the last stored event it saw and folds only the events stored since; a
report folds the mail's new events on top without keeping them (they may yet be rolled
back).  Entries are kept by database and game, and used only while the game they were
made from is the game now (the same state at the same event), so a replaced game or a
rolled-back append starts the fold again from the first event.  At most ``GAMES`` games
are kept, the least recently used dropped first, and a finished game not at all (its
reports are done: a long-running service would otherwise hold the games it ended).  The runtime builds one
(``service.caches``) and hands it to the use cases through the lookup.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

from moderator.ports import GameContext, Lookup
from moderator.reporting.knowledge import Knowledge, knowledge_of
from moderator.rules import events as ev
from moderator.rules.state import Step

#: Games whose knowledge a cache keeps.
GAMES = 256


class KnowledgeCache:
    """The knowledge after the stored events of at most ``games`` games."""

    def __init__(self, games: int = GAMES) -> None:
        self._games = games
        self._kept: OrderedDict[tuple[str, str], Knowledge] = OrderedDict()  # (database, game)
        self._lock = threading.Lock()

    def knowledge_after(
        self, game: GameContext, lookup: Lookup, new: Sequence[ev.Event]
    ) -> Knowledge:
        """What every viewer knows after ``game``'s stored events and then ``new``."""
        key = (lookup.database, game.game_id)
        with self._lock:
            kept = self._kept.get(key)
        if kept is None or kept.state.version > game.seq or (
            kept.state.version == game.seq and kept.state != game.state
        ):
            kept = None
        after = kept.state.version if kept is not None else 0
        folded: Knowledge | None = None
        try:
            folded = knowledge_of(lookup.events(game.game_id, after=after, upto=game.seq), kept)
        except Exception:
            if kept is None:
                raise
        if folded is None or (kept is not None and folded.state != game.state):
            # another game under the same name (another database): from the first event
            folded = knowledge_of(lookup.events(game.game_id, upto=game.seq))
        stored = folded
        if stored.state.step is Step.OVER:
            self.forget(key)
        elif stored.state.version == game.seq and stored.state == game.state:
            with self._lock:
                self._kept[key] = stored
                self._kept.move_to_end(key)
                while len(self._kept) > self._games:
                    self._kept.popitem(last=False)
        return knowledge_of(new, stored)

    def forget(self, key: tuple[str, str]) -> None:
        """Drop what is kept of a game, by (database, game)."""
        with self._lock:
            self._kept.pop(key, None)

    def __len__(self) -> int:
        """The games kept."""
        with self._lock:
            return len(self._kept)


__all__ = ["GAMES", "KnowledgeCache"]
