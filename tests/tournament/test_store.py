"""The tournament streams in the store: optimistic appends, loading, seats handed over."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from moderator.ports import ConflictError, StoreError
from moderator.ports.errors import TournamentExistsError, TournamentNotFoundError
from moderator.ports.players import DIRECTOR
from moderator.runners.commands import new_game
from moderator.schedule import timing
from moderator.schedule.record import GameRecord
from moderator.store import EventStore, players
from moderator.store import tournaments as stored
from moderator.store.streams import append_records
from moderator.store.tables import TOURNAMENT, TOURNAMENT_EVENT
from moderator.tournament import events as ev
from moderator.tournament.settings import Settings

from .conftest import address, register

AT = datetime(2024, 9, 1, tzinfo=UTC).isoformat()
CREATED = ev.TournamentCreated(
    at=AT, tournament="t", director="dee@x", director_name="Dee", settings=Settings().to_payload()
)


def test_append_is_optimistic_and_load_folds(any_store: EventStore) -> None:
    with any_store.transaction() as tx:
        stored.create(tx, "t", "Dee@X")
        assert stored.append(tx, "t", 0, [CREATED]) == 1
        assert stored.append(tx, "t", 1, [ev.PlayerJoined(at=AT, player="a@x", name="A")]) == 2
    with any_store.transaction() as tx, pytest.raises(ConflictError, match="at event 2, not 1"):
        stored.append(tx, "t", 1, [ev.PlayerLeft(at=AT, player="a@x")])
    with any_store.reading() as tx:
        loaded = stored.load(tx, "t")
        assert loaded.seq == 2
        assert loaded.state.name == "t" and loaded.state.entrants["a@x"].waiting
        assert stored.events(tx, "t")[0] == CREATED
        assert stored.tournament_ids(tx) == ["t"]
        assert stored.tournament_ids(tx, finished=True) == []
    with any_store.transaction() as tx:
        stored.append(tx, "t", 2, [ev.TournamentFinished(at=AT)])
    with any_store.reading() as tx:
        assert stored.tournament_ids(tx, finished=True) == ["t"]
        assert stored.tournament_ids(tx, finished=False) == []


def test_names_are_unique_and_unknown_ones_are_refused(any_store: EventStore) -> None:
    with any_store.transaction() as tx:
        stored.create(tx, "t", "dee@x")
        with pytest.raises(TournamentExistsError, match="already a tournament"):
            stored.create(tx, "t", "dee@x")
    with any_store.reading() as tx:
        with pytest.raises(TournamentNotFoundError, match="no tournament called 'u'"):
            stored.load(tx, "u")
        assert not stored.exists(tx, "u")


def test_reliability_is_summed_over_every_tournament(any_store: EventStore) -> None:
    with any_store.transaction() as tx:
        for name in ("t", "u"):
            stored.create(tx, name, "dee@x")
            stored.append(
                tx,
                name,
                0,
                [
                    CREATED,
                    ev.ReliabilityRecorded(
                        at=AT, player="ann@x", game=f"{name}-1", seat="Ann", on_time=4, timeouts=1
                    ),
                ],
            )
        assert stored.reliability(tx, "ANN@x") == (8, 2)
        assert stored.reliability(tx, "bob@x") == (0, 0)


def test_old_reliability_events_without_seats_lost_still_load_from_the_store(
    any_store: EventStore,
) -> None:
    old = {  # as stored before seats lost were counted (version 1)
        "type": ev.ReliabilityRecorded.TYPE,
        "version": 1,
        "payload": {
            "at": AT, "player": "ann@x", "game": "t-1", "seat": "Ann", "on_time": 2, "timeouts": 1,
        },
    }
    with any_store.transaction() as tx:
        stored.create(tx, "t", "dee@x")
        stored.append(tx, "t", 0, [CREATED, ev.PlayerJoined(at=AT, player="ann@x", name="Ann")])
        append_records(
            tx.connection, head=TOURNAMENT, events=TOURNAMENT_EVENT, stream_column="tournament_id",
            stream_id="t", expected_seq=2, records=[old], now=tx.now(),
            actual_seq=lambda: stored.head(tx, "t"), what="tournament 't'",
        )
    with any_store.reading() as tx:
        (event,) = stored.events(tx, "t", after=2)
        assert isinstance(event, ev.ReliabilityRecorded) and event.seats_lost == 0
        ann = stored.load(tx, "t").state.entrants["ann@x"]
        assert (ann.on_time, ann.timeouts, ann.seats_lost) == (2, 1, 0)
        assert stored.reliability(tx, "ann@x") == (2, 1)


def test_a_seat_is_handed_over_in_the_seat_table(any_store: EventStore) -> None:
    register(any_store, "Ann", "Bob", "Gus")
    new_game(any_store, "g1", ["Ann", "Bob"], seed=1)
    with any_store.transaction() as tx:
        players.seat_player(tx, "g1", "Ann", address("Ann"))
        players.seat_player(tx, "g1", "Bob", address("Bob"))
        stored.reseat(tx, "g1", "Ann", address("Gus"))
        assert players.seats(tx, "g1") == {address("Gus"): "Ann", address("Bob"): "Bob"}
        with pytest.raises(StoreError, match="has the seat 'Bob'"):
            stored.reseat(tx, "g1", "Ann", address("Bob"))
        with pytest.raises(StoreError, match="no seat 'Cy'"):
            stored.reseat(tx, "g1", "Cy", address("Ann"))
        with pytest.raises(StoreError, match="no player is registered"):
            stored.reseat(tx, "g1", "Ann", "nobody@x")


def test_roles_are_stored_with_the_player(any_store: EventStore) -> None:
    register(any_store, "Ann")
    with any_store.transaction() as tx:
        assert players.set_roles(tx, address("Ann"), ("Director", " "))
        assert not players.set_roles(tx, "nobody@x", ("director",))
    with any_store.reading() as tx:
        ann = players.player_by_address(tx, address("Ann"))
    assert ann is not None and ann.roles == ("director",) and ann.has_role(DIRECTOR)


def test_the_game_record_holds_what_the_clock_reads() -> None:
    limits = Settings(time_limits={"turn_hours": 48}, absence={"absences": 2}).limits()
    parsed = timing.TimeLimits.from_json(limits)
    assert parsed is not None and (parsed.turn_hours, parsed.absences) == (48, 2)
    ends = datetime(2024, 12, 1, tzinfo=UTC)
    record = GameRecord(tournament="t", time_limits=parsed, ends_at=ends)
    stored = record.to_json()
    assert stored["tournament"] == "t"
    assert stored["time_limits"] == parsed.to_json() and stored["ends_at"] == timing.iso(ends)
    assert GameRecord.from_json(stored) == record


def test_a_long_stream_loads_from_its_snapshot_and_agrees_with_a_full_replay(
    any_store: EventStore,
) -> None:
    """Issue 13: the cost of loading a tournament must not grow with its history."""
    joins = [ev.PlayerJoined(at=AT, player=f"p{n}@x", name=f"P{n}") for n in range(250)]
    with any_store.transaction() as tx:
        stored.create(tx, "t", "dee@x")
        stored.append(tx, "t", 0, [CREATED, *joins])
    with any_store.transaction() as tx:
        first = stored.load(tx, "t")  # folds all 251 events and keeps the snapshot
    with any_store.transaction() as tx:
        stored.append(tx, "t", first.seq, [ev.PlayerLeft(at=AT, player="p7@x")])
    with any_store.reading() as tx:
        row = stored._row(tx, "t")
        assert row.snapshot_seq == 251
        loaded = stored.load(tx, "t")
        full = replay_all(stored.events(tx, "t"))
    assert loaded.seq == 252 and loaded.state == full
    assert not loaded.state.entrants["p7@x"].waiting


def test_a_long_stream_read_in_a_reading_writes_no_snapshot_while_another_writes(
    any_store: EventStore,
) -> None:
    """
    A reading (the tournament job's look for finished games) is rolled back anyway: it
    writes no snapshot, so another connection's write transaction never makes it fail
    with SQLite's "database is locked" (seen under load in the tournament demo).
    """
    joins = [ev.PlayerJoined(at=AT, player=f"p{n}@x", name=f"P{n}") for n in range(120)]
    with any_store.transaction() as tx:
        stored.create(tx, "t", "dee@x")
        stored.append(tx, "t", 0, [CREATED, *joins])
    with any_store.transaction() as writer, any_store.reading() as tx:
        stored.create(writer, "u", "dee@x")  # SQLite's write lock is the writer's meanwhile
        loaded = stored.load(tx, "t", lock=True)
        assert loaded.seq == 121 and len(loaded.state.entrants) == 120
    with any_store.reading() as tx:
        assert stored._row(tx, "t").snapshot_seq in (None, 0)  # nothing written by the reading
    with any_store.transaction() as tx:
        stored.load(tx, "t")  # a write transaction keeps it
    with any_store.reading() as tx:
        assert stored._row(tx, "t").snapshot_seq == 121


def test_a_snapshot_of_another_shape_is_ignored(any_store: EventStore) -> None:
    joins = [ev.PlayerJoined(at=AT, player=f"p{n}@x", name=f"P{n}") for n in range(120)]
    with any_store.transaction() as tx:
        stored.create(tx, "t", "dee@x")
        stored.append(tx, "t", 0, [CREATED, *joins])
        stored.load(tx, "t")
        tx.connection.execute(
            stored.update(stored.TOURNAMENT).values(snapshot={"name": "bogus"}, snapshot_shape="old")
        )
    with any_store.reading() as tx:
        loaded = stored.load(tx, "t")
    assert loaded.seq == 121 and loaded.state.name == "t" and len(loaded.state.entrants) == 120


def replay_all(events: list[ev.TournamentEvent]) -> object:
    from moderator.tournament.state import replay

    return replay(events)
