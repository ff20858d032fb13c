"""``titan-moderator worker`` processes waiting mail with the mail service's handler."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from typer.testing import CliRunner

from moderator.cli import app
from moderator.runtime.bootstrap import mail_handler
from moderator.runtime.config import load_config
from moderator.store import inbox, outbox
from moderator.usecases.mail.handler import MailGameHandler

from .conftest import DATE, MODERATOR, Table, plain_mail


def test_the_worker_command_runs_the_mail_service(
    make_table: Callable[..., Table], tmp_path: Path
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'[moderator]\naddress = "{MODERATOR}"\n', encoding="utf-8")
    assert isinstance(mail_handler(load_config(config), None), MailGameHandler)
    table = make_table()
    raw = plain_mail(
        "game g1\nsecret bob-secret-42\nstatus\n",
        {"From": "bob@example.org", "Subject": "s", "Date": DATE, "Message-ID": "<w@x>"},
    )
    message_id = inbox.receive(table.store, raw)
    done = CliRunner().invoke(app, ["worker", "--config", str(config), "--db", table.store.url])
    assert done.exit_code == 0, done.output
    assert "worker: processed 1" in done.output
    with table.store.reading() as tx:
        assert inbox.message(tx, message_id).status == inbox.PROCESSED
        (reply,) = outbox.mails(tx, inbound_id=message_id)
    assert reply.kind == "reply" and reply.recipient == "bob@example.org"
