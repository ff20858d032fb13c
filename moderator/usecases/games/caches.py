"""
What the service keeps between units of work: recent states of games
(``state_cache``) and what every player knows of their legions (``knowledge_cache``).
The composition root builds one ``Caches`` for a store (``runtime.bootstrap``) and the
runners hand it to the use cases with the lookup (``Lookup.memo``); a lookup without
one gets a fresh, empty ``Caches``, so a use case is right either way, only slower.
"""

from __future__ import annotations

from dataclasses import field

from moderator.ports import Lookup
from moderator.records import record
from moderator.usecases.games.knowledge_cache import KnowledgeCache
from moderator.usecases.games.state_cache import StateCache


@record
class Caches:
    states: StateCache = field(default_factory=StateCache)
    knowledge: KnowledgeCache = field(default_factory=KnowledgeCache)

    def forget(self, database: str, game_id: str) -> None:
        """Drop what is kept of a game (it ended: nothing of it is needed again soon)."""
        self.states.forget((database, game_id))
        self.knowledge.forget((database, game_id))


def caches_of(lookup: Lookup) -> Caches:
    """The caches handed in with ``lookup``, or fresh ones."""
    memo = lookup.memo
    return memo if isinstance(memo, Caches) else Caches()


__all__ = ["Caches", "caches_of"]
