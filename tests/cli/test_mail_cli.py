"""
Mail that waits for a person, seen and dealt with without SQL (``titan-moderator mail
list|retry|drop``): an outbox mail the sender gave up on, one still being tried, and an
inbound mail held over its sender's reply budget.  The rows are made as the service
makes them (the sender's claim and failure, the handler's hold) on a real SQLite store.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moderator.cli import app
from moderator.mail.checks.reply_budget import ReplyBudget
from moderator.ports.mail import DROPPED, PENDING, PROCESSED, RECEIVED, REJECTED, SENT
from moderator.runners import mail as processing
from moderator.runners.commands import start_game
from moderator.schedule.timing import TimeLimits
from moderator.store import EventStore, inbox, outbox, players
from moderator.testing.stores import open_store
from moderator.usecases.mail.handler import MailGameHandler

from ..service.conftest import headers_of, plain_mail

runner = CliRunner()
MODERATOR = "titan@example.org"


def run(*args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.output
    return result.output


@pytest.fixture
def service_db(tmp_path: Path) -> str:
    """Ann and Bob (secrets) in g1 with time limits: their first reports in the outbox."""
    url = f"sqlite:///{tmp_path / 'service.sqlite'}"
    with open_store(url) as store:
        with store.transaction() as tx:
            players.add_player(tx, "Ann", "ann@example.org", secret="ann-secret-42")
            players.add_player(tx, "Bob", "bob@example.org", secret="bob-secret-42")
        start_game(
            store, "g1", ["ann@example.org", "bob@example.org"], sender=MODERATOR,
            allow_secrets=True, time_limits=TimeLimits(),
        )
    return url


def _report_to(store: EventStore, address: str) -> int:
    with store.reading() as tx:
        return next(m.id for m in outbox.mails(tx) if m.recipient == address)


def _given_up(store: EventStore, address: str, error: str) -> int:
    """The report to ``address`` claimed by a sender and refused for good, as the sender does."""
    mail_id = _report_to(store, address)
    wall = store.clock()
    while (claimed := outbox.claim_next(store, store.clock(), wall=wall)) is not None:
        if claimed.id == mail_id:
            outbox.mark_failed(store, claimed, error, give_up=True)
            return mail_id
        outbox.mark_sent(store, claimed)
    raise AssertionError("the report was never claimed")


def _status(store: EventStore, mail_id: int) -> tuple[str, int]:
    with store.reading() as tx:
        mail = outbox.mail_by_id(tx, mail_id)
    assert mail is not None
    return mail.status, mail.attempts


def test_a_failed_mail_is_listed_with_why_and_sent_again_when_the_operator_retries(
    service_db: str,
) -> None:
    with open_store(service_db) as store:
        mail_id = _given_up(store, "bob@example.org", "550 5.7.1 relay refused")
    lines = run("mail", "list", "--failed", "--db", service_db).splitlines()
    assert lines[0] == f"{mail_id}: failed report to bob@example.org, game g1"
    assert lines[1].startswith("    since ") and lines[1].endswith("; 1 attempt")
    assert lines[2] == "    last error: 550 5.7.1 relay refused"
    assert run("mail", "list", "--pending", "--db", service_db).startswith("No mail is pending")

    out = run("mail", "retry", str(mail_id), "--db", service_db)
    assert out == f"Mail {mail_id} to bob@example.org (report, g1): the operator had it sent again now.\n"
    with open_store(service_db) as store:
        assert _status(store, mail_id) == (PENDING, 0)  # its tries counted afresh
        claimed = outbox.claim_next(store, store.clock(), wall=store.clock())
        assert claimed is not None and claimed.id == mail_id  # the sender takes it at once


def test_a_dropped_mail_is_never_sent_keeps_the_operators_word_and_leaves_the_game_alone(
    service_db: str,
) -> None:
    with open_store(service_db) as store:
        mail_id = _report_to(store, "ann@example.org")
        before = store.load_state("g1")
    listed = run("mail", "list", "--db", service_db)
    assert f"{mail_id}: pending report to ann@example.org, game g1" in listed
    assert "next try" in listed

    out = run("mail", "drop", str(mail_id), "--db", service_db)
    assert out == f"Mail {mail_id} to ann@example.org (report, g1): dropped by the operator, never sent.\n"
    with open_store(service_db) as store:
        with store.reading() as tx:
            mail = outbox.mail_by_id(tx, mail_id)
            error = tx.connection.execute(
                outbox.OUTBOX.select().where(outbox.OUTBOX.c.id == mail_id)
            ).one().last_error
        assert mail is not None and mail.status == DROPPED
        assert error.startswith("dropped by the operator ")
        later = store.clock() + timedelta(days=1)
        sent = []
        while (claimed := outbox.claim_next(store, later, wall=later)) is not None:
            sent.append(claimed.id)
            outbox.mark_sent(store, claimed)
        assert mail_id not in sent and sent  # the others go out, the dropped one never
        after = store.load_state("g1")
        assert (after.seq, after.state, after.record) == (before.seq, before.state, before.record)
    assert f"{mail_id}:" not in run("mail", "list", "--db", service_db)
    # Sent or dropped, it is no longer the operator's to retry or drop: he is told what it is.
    refused = runner.invoke(app, ["mail", "retry", str(mail_id), "--db", service_db])
    assert refused.exit_code == 2
    assert f"mail {mail_id} to ann@example.org is dropped" in refused.output
    other = sent[0]
    refused = runner.invoke(app, ["mail", "drop", str(other), "--db", service_db])
    assert refused.exit_code == 2 and f"is {SENT}: only pending or failed mail" in refused.output
    refused = runner.invoke(app, ["mail", "drop", "out-x", "--db", service_db])
    assert refused.exit_code == 2 and "names no mail" in refused.output


def test_held_mail_is_listed_with_its_sender_and_why_and_read_again_when_retried(
    service_db: str,
) -> None:
    def mail_from_bob(n: int) -> int:
        raw = plain_mail(f"secret bob-secret-42\ngame g1\nstatus\n# {n}\n",
                         headers_of("Bob", message_id=f"<bob-{n}@example.org>"))
        message = inbox.receive(store, raw)
        processing.process_message(store, message, handler)
        return message

    with open_store(service_db) as store:
        handler = MailGameHandler(None, MODERATOR, budget=ReplyBudget(1))
        assert mail_from_bob(1) and mail_from_bob(2)
        with store.reading() as tx:
            held = [m for m in inbox.messages(tx) if m.status == REJECTED]
        assert len(held) == 1
        held_id = held[0].id
    lines = run("mail", "list", "--held", "--db", service_db).splitlines()
    assert lines[0] == f"in-{held_id}: held mail from bob@example.org, game g1"
    assert lines[2].startswith("    held: ") and "budget is 1" in lines[2]

    out = run("mail", "retry", f"in-{held_id}", "--db", service_db)
    assert out == f"Inbound mail {held_id}: processed again.\n"
    with open_store(service_db) as store:
        with store.reading() as tx:
            assert inbox.message(tx, held_id).status == RECEIVED
        handler = MailGameHandler(None, MODERATOR, budget=ReplyBudget(10))
        assert processing.process_message(store, held_id, handler) == PROCESSED
    assert run("mail", "list", "--held", "--db", service_db) == "No mail is held.\n"
    refused = runner.invoke(app, ["mail", "drop", f"in-{held_id}", "--db", service_db])
    assert refused.exit_code == 2 and "is not held (processed" in refused.output
    # Dropped, a held mail stays unanswered, its note saying the operator dropped it.
    with open_store(service_db) as store:
        handler = MailGameHandler(None, MODERATOR, budget=ReplyBudget(1))
        again = mail_from_bob(3)
    assert run("mail", "drop", f"in-{again}", "--db", service_db) == (
        f"Inbound mail {again}: dropped by the operator.\n"
    )
    with open_store(service_db) as store, store.reading() as tx:
        dropped = inbox.message(tx, again)
    assert dropped.status == REJECTED
    assert (dropped.error or "").startswith("dropped by the operator ")
    assert "held for the moderator" in (dropped.error or "")
    assert run("mail", "list", "--held", "--db", service_db) == "No mail is held.\n"
