"""The service's caches of games (states, knowledge) never mix two games of one name."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from moderator.reporting.views import legal_orders
from moderator.rules.legal import to_act
from moderator.runners.commands import order
from moderator.runtime import bootstrap
from moderator.store import EventStore, inbox
from moderator.store.handling import SqlLookup
from moderator.testing.memory import MemoryLookup
from moderator.testing.stores import open_store
from moderator.usecases.games.caches import Caches, caches_of

from .conftest import Table, address
from .test_reports import SPLIT, at_first_split


def _play(table: Table, store: EventStore, orders: int) -> None:
    for _ in range(orders):
        actor = to_act(table.state)
        assert actor is not None
        line = next(o for o in legal_orders(table.state, actor) if not o.startswith("withdraw"))
        assert order(store, "g1", actor, line)[1]


def test_a_kept_state_of_another_database_is_never_used(
    make_table: Callable[..., Table], tmp_path: Path
) -> None:
    """Two databases, each with a game 'g1' that went differently: a report that begins
    in the past is made from its own game's events, though the process kept states of
    the first game under the same name."""
    first = at_first_split(make_table)
    assert first.orders("Ann", f"{SPLIT}\nroll").status == inbox.PROCESSED
    kept = first.state.version  # the first game's state here is kept by the next mail
    actor = to_act(first.state)
    assert actor is not None
    assert first.orders(actor, legal_orders(first.state, actor)[0]).status == inbox.PROCESSED
    other = open_store(f"sqlite:///{tmp_path / 'other.sqlite'}")
    other.memo = first.store.memo  # one process's caches serve both databases
    assert other.memo is not None
    try:
        second = make_table(("Ann", "Bob"), seed=5, on=other, notify="all")
        _play(second, other, 12)  # another way from the same start
        assert second.state.version > kept
        second.set_record(reported={"Ann": kept, "Bob": kept})
        actor = to_act(second.state)
        assert actor is not None
        sent = second.orders(actor, legal_orders(second.state, actor)[0])
        assert sent.status == inbox.PROCESSED, sent.note
        assert "Since your last report" in sent.report(address(actor)).body
    finally:
        other.close()


def test_the_caches_are_an_object_the_composition_root_builds_and_the_lookup_hands_in(
    tmp_path: Path,
) -> None:
    """No module keeps games between calls: the store built by the composition root
    carries one ``Caches``, each runner's lookup hands it to the use cases, and a lookup
    without one gets fresh, empty caches (right, only slower)."""
    store = bootstrap.open_store(f"sqlite:///{tmp_path / 'root.sqlite'}")
    try:
        assert isinstance(store.memo, Caches)
        with store.reading() as tx:
            assert caches_of(SqlLookup(tx)) is store.memo
    finally:
        store.close()
    bare = MemoryLookup()
    assert caches_of(bare) is not caches_of(bare)
