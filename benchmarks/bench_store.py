"""
Event-store benchmarks: prints figures, asserts nothing.

    python benchmarks/bench_store.py [--events N] [--sqlite-only]

A game of N events (100,000 by default) is made by playing robot games and storing
their events one after another under one game id (each game starts with its own
``game-created`` event, which starts the fold afresh, so the whole log replays).
For SQLite (a file in a temporary folder) and PostgreSQL (a durable server of our
own, fsync on, in a temporary folder) it prints:

- append rate: events per second appended in transactions of 500 events, and the
  time of one commit of a single command's events (what a move costs);
- load with snapshot: the time to load the game's state (newest snapshot plus the
  events after it), for the long game and for one ordinary game;
- replay from zero: events per second read, decoded and folded from the first event
  (and the read-and-decode part alone).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from moderator.rules.event_base import Event
from moderator.rules.evolve import evolve, replay
from moderator.rules.state import GameState
from moderator.schedule.record import GameRecord
from moderator.store.check import check_store
from moderator.store.tables import SNAPSHOT
from moderator.testing.pgtemp import PostgresUnavailableError, TemporaryPostgres
from moderator.testing.stores import open_store
from moderator.usecases.games.robot_games import play_robot_game

BATCH = 500


def long_log(count: int) -> tuple[list[Event], list[Event]]:
    """(at least ``count`` events of robot games back to back, one whole game)."""
    events: list[Event] = []
    seed = 0
    one: list[Event] = []
    while len(events) < count:
        one = play_robot_game(6, seed).events
        events += one
        seed += 1
    return events[:count], one


def timed(fn: Callable[[], object], rounds: int) -> list[float]:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return times


def bench(name: str, url: str, events: list[Event], game: list[Event]) -> None:
    states: dict[int, GameState] = {}
    state = GameState()
    for seq, event in enumerate(events, 1):
        state = evolve(state, event)
        if seq % BATCH == 0 or seq == len(events):
            states[seq] = state
    with open_store(url, snapshot_every=BATCH) as store:
        store.create_game("long", GameRecord())
        started = time.perf_counter()
        seq = 0
        for start in range(0, len(events), BATCH):
            batch = events[start : start + BATCH]
            seq = store.append("long", seq, batch, state=states[seq + len(batch)])
        elapsed = time.perf_counter() - started
        print(f"{name}: append {len(events) / elapsed:,.0f} events/s ({BATCH} per transaction)")

        store.create_game("one", GameRecord())
        seq = 0
        commits = []
        for start in range(0, len(game), 3):  # a command's worth of events per commit
            t0 = time.perf_counter()
            seq = store.append("one", seq, game[start : start + 3])
            commits.append(time.perf_counter() - t0)
        print(
            f"{name}: one command's events per commit: median "
            f"{statistics.median(commits) * 1e3:.2f} ms ({len(commits)} commits)"
        )

        loads = timed(lambda: store.load_state("long"), 20)
        loaded = store.load_state("long")
        assert loaded.state == state, "load with snapshot differs from the replay"
        print(
            f"{name}: load with snapshot, {len(events):,}-event game: median "
            f"{statistics.median(loads) * 1e3:.1f} ms, max {max(loads) * 1e3:.1f} ms "
            f"(snapshot at {loaded.snapshot_seq:,}, {loaded.seq - loaded.snapshot_seq} events after)"
        )
        with store.transaction() as tx:  # the worst case: a snapshot a full interval back
            newest = tx.latest_snapshot("long")
            assert newest is not None
            tx.connection.execute(
                SNAPSHOT.delete().where(SNAPSHOT.c.game_id == "long", SNAPSHOT.c.seq == newest[0])
            )
        loads = timed(lambda: store.load_state("long"), 20)
        loaded = store.load_state("long")
        assert loaded.state == state, "load with snapshot differs from the replay"
        print(
            f"{name}: load with an older snapshot: median {statistics.median(loads) * 1e3:.1f} ms, "
            f"max {max(loads) * 1e3:.1f} ms ({loaded.seq - loaded.snapshot_seq} events after it)"
        )
        loads = timed(lambda: store.load_state("one"), 20)
        print(
            f"{name}: load with snapshot, {len(game):,}-event game: median "
            f"{statistics.median(loads) * 1e3:.1f} ms, max {max(loads) * 1e3:.1f} ms"
        )

        reads = timed(lambda: store.load("long"), 3)
        folds = timed(lambda: replay(store.load("long")), 3)
        print(
            f"{name}: replay from zero: {len(events) / min(folds):,.0f} events/s "
            f"({min(folds):.2f} s; reading and decoding alone {len(events) / min(reads):,.0f} "
            f"events/s)"
        )
        checks = timed(lambda: check_store(store, "long"), 1)
        print(f"{name}: db check of the {len(events):,}-event game: {checks[0]:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args()

    started = time.perf_counter()
    events, game = long_log(args.events)
    fold = timed(lambda: replay(events), 1)[0]
    print(
        f"{len(events):,} events from robot games in {time.perf_counter() - started:.1f} s; "
        f"folding them in memory: {len(events) / fold:,.0f} events/s"
    )
    with tempfile.TemporaryDirectory() as folder:
        bench("sqlite", f"sqlite:///{Path(folder) / 'bench.sqlite'}", events, game)
    if args.sqlite_only:
        return
    try:
        server = TemporaryPostgres(durable=True)
        url = server.start()
    except PostgresUnavailableError as exc:
        print(f"postgresql: not measured ({exc})")
        return
    try:
        bench("postgresql", url, events, game)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
