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

A mail's new events are folded on top and not kept as stored, but the fold is kept
*ahead* with them: the next mail reads the events stored since, and when they begin
with exactly those events (the mail committed) it goes on from the fold ahead instead
of folding them a second time; a mail that asks again with the same new events (its
answer, then its report round) gets the same fold.  Anything else (the mail rolled
back, other events stored) folds as before, so the fold ahead decides nothing.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from moderator.ports import GameContext, Lookup
from moderator.reporting.knowledge import Knowledge, knowledge_of
from moderator.rules import events as ev
from moderator.rules.state import Step

#: Games whose knowledge a cache keeps.
GAMES = 256


@dataclass(frozen=True)
class _Kept:
    """A game's knowledge after its stored events (``stored``), and the fold of the last
    mail's ``new`` events on top of it (``ahead``)."""

    stored: Knowledge
    new: tuple[ev.Event, ...]
    ahead: Knowledge


class KnowledgeCache:
    """The knowledge after the stored events of at most ``games`` games."""

    def __init__(self, games: int = GAMES) -> None:
        self._games = games
        self._kept: OrderedDict[tuple[str, str], _Kept] = OrderedDict()  # (database, game)
        self._lock = threading.Lock()
        #: Stored events folded afresh (``folded``) and taken from a fold ahead
        #: (``ahead``), and new events answered from one (``again``): what tests read.
        self.counts: Counter[str] = Counter()

    def knowledge_after(
        self, game: GameContext, lookup: Lookup, new: Sequence[ev.Event]
    ) -> Knowledge:
        """What every viewer knows after ``game``'s stored events and then ``new``."""
        key = (lookup.database, game.game_id)
        events = tuple(new)
        with self._lock:
            entry = self._kept.get(key)
        if entry is None or entry.stored.state.version > game.seq or (
            entry.stored.state.version == game.seq and entry.stored.state != game.state
        ):
            entry = None
        kept = entry.stored if entry is not None else None
        after = kept.state.version if kept is not None else 0
        if entry is not None and after == game.seq and entry.new == events:
            self.counts["again"] += 1  # the same mail asks again: nothing stored since
            return entry.ahead
        folded: Knowledge | None = None
        try:
            folded = self._fold(list(lookup.events(game.game_id, after=after, upto=game.seq)), entry)
        except Exception:
            if kept is None:
                raise
        if folded is None or (kept is not None and folded.state != game.state):
            # another game under the same name (another database): from the first event
            folded = knowledge_of(lookup.events(game.game_id, upto=game.seq))
        stored = folded
        result = knowledge_of(events, stored)
        if stored.state.step is Step.OVER:
            self.forget(key)
        elif stored.state.version == game.seq and stored.state == game.state:
            with self._lock:
                self._kept[key] = _Kept(stored, events, result)
                self._kept.move_to_end(key)
                while len(self._kept) > self._games:
                    self._kept.popitem(last=False)
        return result

    def _fold(self, stored: list[ev.Event], entry: _Kept | None) -> Knowledge:
        """The kept knowledge with the ``stored`` events after it folded in, from the fold
        ahead where they begin with its events (see the module's text)."""
        if entry is None:
            self.counts["folded"] += 1
            return knowledge_of(stored)
        if entry.new and list(entry.new) == stored[: len(entry.new)]:
            self.counts["ahead"] += 1
            return knowledge_of(stored[len(entry.new) :], entry.ahead)
        self.counts["folded"] += 1
        return knowledge_of(stored, entry.stored)

    def forget(self, key: tuple[str, str]) -> None:
        """Drop what is kept of a game, by (database, game)."""
        with self._lock:
            self._kept.pop(key, None)

    def __len__(self) -> int:
        """The games kept."""
        with self._lock:
            return len(self._kept)


__all__ = ["GAMES", "KnowledgeCache"]
