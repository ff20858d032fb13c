"""
The store's cache of folded game states (``store.folds``): a load reuses the state
folded for the game's version, never a state a rolled-back transaction folded, and
the write still checks the version its decision was made on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from moderator.ports import ConflictError
from moderator.rules.evolve import replay
from moderator.rules.state import GameState
from moderator.schedule.record import GameRecord
from moderator.store import EventStore
from moderator.store.folds import Folds
from moderator.store.snapshots import encode_state
from moderator.usecases.games.robot_games import RobotGameSummary


def _fresh(store: EventStore, game_id: str) -> GameState:
    return store.load_state(game_id, fresh=True).state


def test_a_game_whose_stream_has_not_moved_is_not_folded_again(
    store: EventStore, robot_games: list[RobotGameSummary]
) -> None:
    events = robot_games[0].events
    store.create_game("g", GameRecord())
    store.append("g", 0, events[:30], state=replay(events[:30]))
    before = store.folds.counts["hit"]
    with store.transaction() as tx:
        loaded = tx.load("g", lock=True)
    assert store.folds.counts["hit"] == before + 1
    assert loaded.seq == 30
    assert encode_state(loaded.state) == encode_state(_fresh(store, "g"))


def test_a_stream_that_moved_on_elsewhere_is_folded_on_from_the_kept_state(
    make_store: Callable[..., EventStore], robot_games: list[RobotGameSummary]
) -> None:
    """Another process (another store on the database) appended: the kept state is not
    the game's any more, and the load folds only the events after it."""
    events = robot_games[0].events
    store, other = make_store(), make_store()
    store.create_game("g", GameRecord())
    store.append("g", 0, events[:30], state=replay(events[:30]))
    other.append("g", 30, events[30:40])
    partial = store.folds.counts["partial"]
    loaded = store.load_state("g")
    assert store.folds.counts["partial"] == partial + 1
    assert loaded.seq == 40 and loaded.snapshot_seq == 30
    assert encode_state(loaded.state) == encode_state(replay(events[:40]))


def test_a_rolled_back_append_leaves_no_state_behind(
    store: EventStore, robot_games: list[RobotGameSummary]
) -> None:
    """A state folded in a transaction that did not commit is never reused: the same
    version is later filled with other events."""
    one, two = robot_games[0].events, robot_games[1].events
    store.create_game("g", GameRecord())
    with pytest.raises(RuntimeError), store.transaction() as tx:
        tx.append("g", 0, one[:20], state=replay(one[:20]))
        assert tx.load("g").state.version == 20  # seen inside, not kept after
        raise RuntimeError("crash before commit")
    assert store.folds.at("g", 20) is None
    store.append("g", 0, two[:20])
    assert encode_state(store.load_state("g").state) == encode_state(replay(two[:20]))


def test_a_cached_state_does_not_weaken_the_optimistic_write(
    make_store: Callable[..., EventStore], robot_games: list[RobotGameSummary]
) -> None:
    """A decision made on a kept state that another writer has since passed is refused
    by the append, as one made on a state read from the tables."""
    events = robot_games[0].events
    store, other = make_store(), make_store()
    store.create_game("g", GameRecord())
    store.append("g", 0, events[:10], state=replay(events[:10]))
    seen = store.load_state("g").seq  # the kept state
    other.append("g", seen, events[10:12])
    with pytest.raises(ConflictError, match="at event 12, not 10"):
        store.append("g", seen, events[10:11])
    assert store.load_state("g").seq == 12


def test_folds_are_bounded_and_keep_only_true_versions() -> None:
    folds = Folds(games=2, states=2)
    for game in ("a", "b", "c"):
        for seq in (1, 2, 3):
            folds.keep(game, seq, _at(seq))
    assert len(folds) == 2 and folds.at("a", 3) is None
    assert folds.at("c", 1) is None and folds.at("c", 3) is not None
    assert folds.before("c", 10) is not None and folds.before("c", 1) is None
    folds.keep("d", 5, _at(4))  # a state that is not the fold of five events
    assert folds.at("d", 5) is None


def _at(version: int) -> GameState:
    return replace(GameState(), version=version)
