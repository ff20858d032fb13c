"""The worker runs the mail service's handler by default."""

from __future__ import annotations

from collections.abc import Callable

from moderator.service import MailGameHandler
from moderator.store import inbox, outbox, worker
from moderator.store.handler import OrderMailHandler

from .conftest import DATE, MODERATOR, Table, plain_mail


def test_the_default_handler_is_the_mail_service(make_table: Callable[..., Table]) -> None:
    assert isinstance(worker.make_handler("mail", MODERATOR), MailGameHandler)
    assert isinstance(worker.make_handler("simple", MODERATOR), OrderMailHandler)
    table = make_table()
    raw = plain_mail(
        "game g1\nsecret bob-secret-42\nstatus\n",
        {"From": "bob@example.org", "Subject": "s", "Date": DATE, "Message-ID": "<w@x>"},
    )
    message_id = inbox.receive(table.store, raw)
    assert worker.main(["--db", table.store.url, "--moderator", MODERATOR]) == 0
    with table.store.reading() as tx:
        assert inbox.message(tx, message_id).status == inbox.PROCESSED
        (reply,) = outbox.mails(tx, inbound_id=message_id)
    assert reply.kind == "reply" and reply.recipient == "bob@example.org"
