"""
``titan-moderator status``, the operator's one look at his service, tells what the store
holds and nothing else: who polls the mailbox (the poller's lock) and when the deadlines
were last checked, the outbox and inbound mail by state (a bounced mail, a failed one,
held and shunted mail apart), the games by state (running, paused by the operator,
over), the next deadlines, the last errors kept with the mail.  Every row is made as the
service makes it, on SQLite and PostgreSQL, and read through the real command line.
"""

from __future__ import annotations

from collections.abc import Callable

from typer.testing import CliRunner

from moderator.cli import app
from moderator.runners.commands import operate
from moderator.store import EventStore, outbox, poller_lock
from moderator.usecases.tournaments.operated import Operate

from ..service.conftest import MODERATOR
from .conftest import Desk
from .test_bounces import _bobs_turn, _bounce

MAILBOX = "imap://titan@mx.test:993/INBOX"


def _status(store: EventStore) -> list[str]:
    result = CliRunner().invoke(app, ["status", "--db", str(store.url)])
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def _part(lines: list[str], heading: str) -> list[str]:
    start = lines.index(heading) + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("    ")), None)
    return lines[start:end]


def test_status_shows_the_poller_the_mail_and_games_by_state_the_next_deadlines_and_errors(
    make_desk: Callable[..., Desk], any_store: EventStore
) -> None:
    desk, report = _bobs_turn(make_desk, on=any_store)
    store = any_store
    lines = _status(store)
    assert _part(lines, "Poller:")[0].startswith("    no service holds a mailbox")
    assert "Games: 1 running, 0 paused, 0 over" in lines
    pending = sum(1 for m in _mails(store) if m.status == "pending")
    assert f"Outbox: {pending} pending" in lines
    due = desk.acting()
    assert due is not None
    (first, *_) = _part(lines, "Next deadlines:")
    assert first == f"    {due.due_at:%Y-%m-%d %H:%M} UTC  g1  Bob  {due.kind}"
    assert _part(lines, "Last errors kept with the mail:") == ["    none"]

    # a service reads the mailbox; a report bounces; another mail fails for good
    poller_lock.acquire(store, MAILBOX, "owner-1", now=desk.clock.now(), host="mx.test", pid=4242)
    _bounce(desk, report)
    claimed = outbox.claim_next(store, store.clock(), wall=store.clock())
    assert claimed is not None
    outbox.mark_failed(store, claimed, "550 5.7.1 relay refused", give_up=True)
    operate(store, Operate("pause", "g1", MODERATOR))

    lines = _status(store)
    (poller, checked) = _part(lines, "Poller:")
    assert poller.startswith(f"    {MAILBOX}: mx.test pid 4242, since 2024-07-01")
    assert checked.startswith("    deadlines last checked")
    outbox_line = next(line for line in lines if line.startswith("Outbox: "))
    assert "1 failed" in outbox_line and "1 bounced" in outbox_line
    assert "Inbound: 2 processed" in lines  # Ann's withdrawal and the bounce
    assert "Games: 0 running, 1 paused, 0 over (paused: g1)" in lines
    errors = _part(lines, "Last errors kept with the mail:")
    assert errors == [f"    outbox mail {claimed.id} to {claimed.recipient} failed: 550 5.7.1 relay refused"]

    desk.orders("Bob", "withdraw")  # Cy alone is left: the game is over
    assert "Games: 0 running, 0 paused, 1 over" in _status(store)


def _mails(store: EventStore) -> list[outbox.StoredMail]:
    with store.reading() as tx:
        return outbox.mails(tx)
