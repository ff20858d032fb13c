"""The event store's contract, on SQLite and PostgreSQL alike."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from sqlalchemy import text, update

from moderator.ports import ConflictError, GameExistsError, GameNotFoundError
from moderator.rules import events as ev
from moderator.rules.evolve import replay
from moderator.rules.variant import STANDARD
from moderator.runners.commands import new_game, order
from moderator.schedule.record import Dice, GameRecord
from moderator.store import EventStore
from moderator.store.check import check_store
from moderator.store.snapshots import encode_state
from moderator.store.tables import SNAPSHOT
from moderator.usecases.games.robot_games import RobotGameSummary


def test_create_list_and_record(store: EventStore) -> None:
    store.create_game("b", GameRecord(dice=Dice(seed=1)))
    store.create_game("a", GameRecord())
    assert store.games() == ["a", "b"]
    assert store.record("b") == GameRecord(dice=Dice(seed=1))
    assert store.last_seq("a") == 0
    with pytest.raises(GameExistsError, match="already a game called 'a'"):
        store.create_game("a", GameRecord())
    with pytest.raises(GameNotFoundError, match="no game called 'zz'"):
        store.load("zz")
    with pytest.raises(GameNotFoundError):
        store.append("zz", 0, [])


def test_append_is_optimistic(store: EventStore) -> None:
    """The next events must follow the last one seen; a stale writer changes nothing."""
    store.create_game("g", GameRecord())
    first = [ev.GameCreated(players=("Ann", "Bob"), variant=STANDARD)]
    assert store.append("g", 0, first) == 1
    stale = [ev.TurnStarted(player="Ann", turn=1)]
    changed = GameRecord(players=("Ann", "Bob"))
    with pytest.raises(ConflictError, match="at event 1, not 0"):
        store.append("g", 0, stale, record=changed)
    assert store.load("g") == first
    assert store.record("g") == GameRecord()
    assert store.append("g", 1, stale, record=changed) == 2
    assert store.load("g") == first + stale
    assert store.record("g") == changed


def test_unique_sequence_backs_the_check(store: EventStore) -> None:
    """Even a writer that bypasses last_seq cannot store a second event 1."""
    store.create_game("g", GameRecord())
    store.append("g", 0, [ev.GameCreated(players=("Ann", "Bob"), variant=STANDARD)])
    with pytest.raises(ConflictError), store.transaction() as tx:
        tx.connection.execute(text("UPDATE game SET last_seq = 0"))
        tx.append("g", 0, [ev.GameCreated(players=("Cy", "Di"), variant=STANDARD)])
    assert store.last_seq("g") == 1
    assert store.load("g")[0].players == ("Ann", "Bob")  # type: ignore[attr-defined]


def test_transaction_rolls_back_everything(store: EventStore) -> None:
    with pytest.raises(RuntimeError), store.transaction() as tx:
        tx.create_game("g", GameRecord())
        tx.append("g", 0, [ev.GameCreated(players=("Ann", "Bob"), variant=STANDARD)])
        raise RuntimeError("crash before commit")
    assert store.games() == []


def test_whole_game_round_trips(
    make_store: Callable[..., EventStore], robot_games: list[RobotGameSummary]
) -> None:
    """Every event of real games comes back equal, and replays to the same state."""
    store = make_store(snapshot_every=250)
    for index, summary in enumerate(robot_games):
        store.create_game(f"r{index}", GameRecord())
        seq = 0
        for start in range(0, len(summary.events), 40):  # appended a command's worth at a time
            seq = store.append(f"r{index}", seq, summary.events[start : start + 40])
        assert store.load(f"r{index}") == summary.events
        loaded = store.load_state(f"r{index}")
        assert loaded.state == summary.state
        assert loaded.seq == len(summary.events)
        assert 0 < loaded.snapshot_seq <= loaded.seq
        assert check_store(store, f"r{index}").ok


def test_snapshots_every_n_events(
    make_store: Callable[..., EventStore], robot_games: list[RobotGameSummary]
) -> None:
    longest = max(robot_games, key=lambda g: len(g.events))
    assert len(longest.events) >= 900, "the fixture's games are too short for this test"
    events = longest.events[:900]
    store = make_store(snapshot_every=100)
    store.create_game("g", GameRecord())
    seq = 0
    for start in range(0, len(events), 30):
        batch = events[start : start + 30]
        seq = store.append("g", seq, batch, state=replay(events[: start + len(batch)]))
    with store.reading() as tx:
        seqs = sorted(tx.connection.scalars(SNAPSHOT.select().with_only_columns(SNAPSHOT.c.seq)))
        snapshot = tx.latest_snapshot("g")
    # A snapshot ends each append that crosses a hundred; the newest three are kept.
    assert seqs == [720, 810, 900]
    assert snapshot is not None
    assert snapshot[1] == replay(events[: snapshot[0]])
    loaded = store.load_state("g", fresh=True)
    assert loaded.snapshot_seq == snapshot[0] and loaded.state == replay(events)


def test_snapshot_of_another_schema_is_ignored(
    make_store: Callable[..., EventStore], robot_games: list[RobotGameSummary]
) -> None:
    events = robot_games[1].events
    store = make_store(snapshot_every=10_000)
    store.create_game("g", GameRecord())
    store.append("g", 0, events)
    assert store.snapshot("g") == len(events)
    assert store.load_state("g", fresh=True).snapshot_seq == len(events)
    with store.transaction() as tx:
        tx.connection.execute(update(SNAPSHOT).values(schema_version=0))
    loaded = store.load_state("g", fresh=True)
    assert loaded.snapshot_seq == 0 and loaded.state == robot_games[1].state
    with store.transaction() as tx:
        tx.connection.execute(update(SNAPSHOT).values(schema_version=1, shape="older"))
    assert store.load_state("g", fresh=True).snapshot_seq == 0


def test_check_finds_a_wrong_snapshot_and_a_gap(
    store: EventStore, robot_games: list[RobotGameSummary]
) -> None:
    events = robot_games[2].events
    store.create_game("g", GameRecord())
    store.append("g", 0, events)
    store.snapshot("g")
    assert check_store(store, "g").line().startswith("g: OK")
    state = replay(events)
    wrong = replace(state, turn=state.turn + 1)
    with store.transaction() as tx:
        tx.write_snapshot("g", len(events), wrong)
    result = check_store(store, "g")
    assert not result.ok
    assert result.problem == f"snapshot != replay at turn: {state.turn + 1} != {state.turn}"
    assert "MISMATCH" in result.line()
    with store.transaction() as tx:
        tx.write_snapshot("g", len(events), state)
        tx.connection.execute(text("DELETE FROM event WHERE seq = 5"))
    assert check_store(store, "g").problem == "the log jumps from event 4 to 6"


def test_snapshot_state_is_json(
    store: EventStore, robot_games: list[RobotGameSummary]
) -> None:
    summary = robot_games[0]
    store.create_game("g", GameRecord())
    store.append("g", 0, summary.events)
    store.snapshot("g")
    with store.reading() as tx:
        stored = tx.connection.execute(SNAPSHOT.select()).one().state
    assert stored == encode_state(summary.state)


def test_local_game_on_the_store(make_store: Callable[..., EventStore]) -> None:
    """The local play service: a game made, played and reloaded from snapshots."""
    store = make_store(snapshot_every=5)
    state = new_game(store, "g", ["Ann", "Bob"], seed=3)
    player = next(p.name for p in state.players if state.active in (None, p.name))
    reply, ok = order(store, "g", player, "legal")
    assert ok, reply
    loaded = store.load_state("g")
    assert loaded.state == replay(store.load("g"))
    assert check_store(store, "g").ok
