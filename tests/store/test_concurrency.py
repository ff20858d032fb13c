"""
Workers racing: on the same inbound message, on the same game, and on appends.
Exactly one wins each race, the other skips or retries, and the log has neither a
gap nor a duplicate.  (On SQLite the races are decided by its single write lock; on
PostgreSQL by row locks and ``SKIP LOCKED``.)
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from moderator.ports import ConflictError
from moderator.runners import mail as processing
from moderator.schedule.record import GameRecord
from moderator.store import EventStore, inbox, outbox
from moderator.store.check import check_store
from moderator.testing.stores import open_store
from moderator.usecases.games.robot_games import play_robot_game

from .mailbox import order_chain, seated_game
from .simple_handler import OrderMailHandler

HANDLER = OrderMailHandler()
REPO = Path(__file__).resolve().parents[2]


def _pausing(at: str, reached: threading.Event, release: threading.Event) -> Callable[[str], None]:
    def checkpoint(step: str) -> None:
        if step == at:
            reached.set()
            release.wait(timeout=1.0)  # on SQLite the rival waits for our lock instead

    return checkpoint


def test_two_workers_one_message(make_store: Callable[..., EventStore]) -> None:
    first, second = make_store(), make_store()
    seated_game(first)
    (mail,), expected = order_chain(first, "g1", 1)
    message_id = inbox.receive(first, mail)
    before = first.last_seq("g1")
    claimed, done = threading.Event(), threading.Event()
    with ThreadPoolExecutor(2) as pool:
        winner = pool.submit(
            processing.process_message,
            first,
            message_id,
            HANDLER,
            checkpoint=_pausing("after-claim", claimed, done),
        )
        assert claimed.wait(10)
        loser = pool.submit(processing.process_message, second, message_id, HANDLER)
        loser_result = loser.result(timeout=30)
        done.set()
        assert winner.result(timeout=30) == inbox.PROCESSED
    assert loser_result == inbox.SKIPPED
    assert first.load("g1")[before:] == expected
    assert check_store(first, "g1").ok
    with first.reading() as tx:
        assert len(outbox.mails(tx, inbound_id=message_id)) == 1


def test_two_workers_one_game(make_store: Callable[..., EventStore]) -> None:
    first, second = make_store(), make_store()
    seated_game(first)
    mails, expected = order_chain(first, "g1", 2)
    one, two = (inbox.receive(first, mail) for mail in mails)
    before = first.last_seq("g1")
    holding, done = threading.Event(), threading.Event()
    with ThreadPoolExecutor(2) as pool:
        winner = pool.submit(
            processing.process_message,
            first,
            one,
            HANDLER,
            checkpoint=_pausing("after-events", holding, done),
        )
        assert holding.wait(10)
        rival = pool.submit(processing.process_message, second, two, HANDLER).result(timeout=30)
        done.set()
        assert winner.result(timeout=30) == inbox.PROCESSED
    if first.dialect == "postgresql":
        assert rival == processing.BUSY  # the game was held: the message waits, untouched
        assert inbox.pending_ids(second) == [two]
        assert processing.process_message(second, two, HANDLER) == inbox.PROCESSED
    else:
        assert rival == inbox.PROCESSED  # it waited for the write lock, then went on
    assert first.load("g1")[before:] == expected
    assert check_store(first, "g1").ok


def test_racing_appends_leave_no_gap_or_duplicate(make_store: Callable[..., EventStore]) -> None:
    events = play_robot_game(2, 11).events[:120]
    stores = [make_store(snapshot_every=25) for _ in range(4)]
    stores[0].create_game("g", GameRecord())
    conflicts = [0] * len(stores)

    def writer(index: int) -> None:
        store = stores[index]
        for _ in range(len(events)):
            seq = store.last_seq("g")
            if seq >= len(events):
                return
            try:
                store.append("g", seq, events[seq : seq + 1])
            except ConflictError:
                conflicts[index] += 1

    with ThreadPoolExecutor(len(stores)) as pool:
        list(pool.map(writer, range(len(stores))))
    assert stores[0].load("g") == events
    assert check_store(stores[0], "g").ok
    if stores[0].dialect == "postgresql":
        assert sum(conflicts) > 0  # they did race: the losers reloaded and went on


def test_one_stores_writers_in_several_threads_take_turns(
    make_store: Callable[..., EventStore],
) -> None:
    """
    The poller's transactions and the sender's claims share one store: its write
    transactions in several threads each commit whole (on SQLite they take turns on the
    store's own lock before SQLite's, so none of them meets a conflict), and one that
    raises lets the next in.
    """
    events = play_robot_game(2, 11).events[:60]
    store = make_store()
    store.create_game("g", GameRecord())
    conflicts, broken = [0], [False]

    def writer(index: int) -> None:
        while True:
            try:
                with store.transaction() as tx:
                    loaded = tx.load("g")
                    if loaded.seq >= len(events):
                        return
                    tx.append("g", loaded.seq, events[loaded.seq : loaded.seq + 1])
                    if index == 0 and not broken[0]:
                        broken[0] = True
                        raise RuntimeError("a decision that fails half-way")
            except ConflictError:
                conflicts[0] += 1
            except RuntimeError:
                continue

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(writer, range(4)))
    assert broken[0]
    assert store.load("g") == events
    assert check_store(store, "g").ok
    if store.dialect == "sqlite":
        assert conflicts[0] == 0


@pytest.mark.long
def test_two_worker_processes(db_url: str, tmp_path: Path) -> None:
    """Two real worker processes on the same queue: every message is done exactly once."""
    with open_store(db_url) as store:
        ids = []
        for game_id in ("g1", "g2", "g3"):
            seated_game(store, game_id)
            mails, _ = order_chain(store, game_id, 4)
            ids += [inbox.receive(store, mail) for mail in mails]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [
        sys.executable,
        str(REPO / "tests" / "store" / "worker_process.py"),
        "--db",
        db_url,
    ]
    workers = [
        subprocess.Popen(
            command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        for _ in range(2)
    ]
    for worker in workers:
        _out, err = worker.communicate(timeout=120)
        assert worker.returncode == 0, err.decode()
    with open_store(db_url) as store:
        with store.reading() as tx:
            statuses = {m.id: m.status for m in inbox.messages(tx)}
            replies = [m.inbound_id for m in outbox.mails(tx)]
        for game_id in ("g1", "g2", "g3"):
            assert check_store(store, game_id).ok
    assert statuses == dict.fromkeys(ids, inbox.PROCESSED)
    assert sorted(replies) == sorted(ids)
