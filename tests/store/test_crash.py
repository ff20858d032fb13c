"""
Crash safety: a worker killed with SIGKILL at each step of handling a message, then
restarted, leaves every message processed exactly once, every event stored once, and
every reply in the outbox once.  Nothing of a transaction that did not commit is
there, and so nothing of it can be sent.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from moderator.runners.mail import STEPS
from moderator.store import inbox, outbox
from moderator.store.check import check_store
from moderator.testing.stores import open_store

from .mailbox import order_chain, seated_game

REPO = Path(__file__).resolve().parents[2]


def _worker(db_url: str, cwd: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            str(REPO / "tests" / "store" / "worker_process.py"),
            "--db",
            db_url,
            *extra,
        ],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("step", STEPS)
def test_kill_9_at_each_step_then_restart(db_url: str, tmp_path: Path, step: str) -> None:
    with open_store(db_url) as store:
        seated_game(store)
        before = store.load("g1")
        mails, expected = order_chain(store, "g1", 3)
        ids = [inbox.receive(store, mail) for mail in mails]

    crashed = _worker(db_url, tmp_path, "--crash-at", step, "--crash-on", "2")
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    with open_store(db_url) as store, store.reading() as tx:
        statuses = [inbox.message(tx, i).status for i in ids]
        committed = 2 if step == "after-commit" else 1
        assert statuses == [inbox.PROCESSED] * committed + [inbox.RECEIVED] * (3 - committed)
        assert len(outbox.mails(tx)) == committed

    restarted = _worker(db_url, tmp_path)
    assert restarted.returncode == 0, restarted.stderr
    assert f"processed {3 - committed}" in restarted.stdout

    with open_store(db_url) as store:
        assert store.load("g1") == before + expected
        assert check_store(store, "g1").ok
        with store.reading() as tx:
            assert [inbox.message(tx, i).status for i in ids] == [inbox.PROCESSED] * 3
            replies = outbox.mails(tx)
    assert sorted(m.inbound_id for m in replies) == ids
    assert all(m.status == "pending" for m in replies)
