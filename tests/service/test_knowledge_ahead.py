"""
The knowledge cache's fold ahead (issue 28): a mail's new events, folded for its
reports, are not folded again when the next mail reads them back stored, nor when the
same mail asks again; and what it answers is always the fold of the game's events from
the first, whatever was stored meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable

from moderator.ports import GameContext
from moderator.reporting.knowledge import knowledge_of
from moderator.reporting.views import legal_orders
from moderator.rules.events import Event
from moderator.rules.legal import to_act
from moderator.store import inbox, players
from moderator.store.eventstore import Tx
from moderator.store.handling import SqlLookup
from moderator.usecases.games.caches import Caches
from moderator.usecases.games.knowledge_cache import KnowledgeCache

from .conftest import Table


def _one_order(table: Table) -> None:
    actor = to_act(table.state)
    assert actor is not None
    line = next(o for o in legal_orders(table.state, actor) if o not in ("withdraw", "undo"))
    assert table.orders(actor, line).status == inbox.PROCESSED


def _game(table: Table, tx: Tx) -> GameContext:
    loaded = tx.load(table.game_id)
    return GameContext(table.game_id, loaded.state, loaded.seq, loaded.record,
                       players.seats(tx, table.game_id))


def _played(make_table: Callable[..., Table], orders: int) -> tuple[Table, KnowledgeCache, list[Event]]:
    """A game with ``orders`` orders played, a fresh cache and the game's events."""
    table = make_table()
    for _ in range(orders):
        _one_order(table)
    return table, KnowledgeCache(), table.events()


def test_the_events_a_mail_stored_are_taken_from_its_fold_ahead(
    make_table: Callable[..., Table],
) -> None:
    table = make_table(notify="all")
    caches = table.store.memo
    assert isinstance(caches, Caches)
    for _ in range(6):
        _one_order(table)
    counts = caches.knowledge.counts
    assert counts["ahead"] >= 4, counts  # each mail's events, read back by the next one
    with table.store.reading() as tx:
        game = _game(table, tx)
        got = caches.knowledge.knowledge_after(game, SqlLookup(tx), ())
    assert got == knowledge_of(table.events())


def test_a_fold_ahead_of_events_never_stored_is_not_used(
    make_table: Callable[..., Table],
) -> None:
    """A mail rolled back (its events never stored) and other events stored in their
    place: the next fold is of what was stored."""
    table, cache, events = _played(make_table, 3)
    with table.store.reading() as tx:
        game = _game(table, tx)
        base = cache.knowledge_after(game, SqlLookup(tx), ())
        assert cache.knowledge_after(game, SqlLookup(tx), events[-1:]) == knowledge_of(
            [*events, events[-1]]
        )  # folded ahead: the last event again, as if stored twice
    _one_order(table)  # what is stored instead
    with table.store.reading() as tx:
        game = _game(table, tx)
        got = cache.knowledge_after(game, SqlLookup(tx), ())
    assert got == knowledge_of(table.events()) != base
    assert cache.counts["ahead"] == 0 and cache.counts["folded"] >= 2


def test_the_same_mail_asking_again_gets_the_same_fold(make_table: Callable[..., Table]) -> None:
    table, cache, events = _played(make_table, 2)
    with table.store.reading() as tx:
        game = _game(table, tx)
        first = cache.knowledge_after(game, SqlLookup(tx), events[-2:])
        again = cache.knowledge_after(game, SqlLookup(tx), events[-2:])
    assert again is first and cache.counts["again"] == 1
