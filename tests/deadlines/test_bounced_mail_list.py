"""
A bounced mail is in the operator's ``mail list`` (``--bounced``, and the plain list with
its state): what bounced, when, the server's words, and what the service did about it:
how the bounce was recognised, what became of the player's deadline, whom it told.
Nothing is listed that the bounce did not record.  The bounce is the real one a
postmaster sends, handled by the service's handler, on SQLite and PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Callable

from typer.testing import CliRunner

from moderator.cli import app
from moderator.ports.mail import PENDING
from moderator.store import EventStore
from moderator.store.mail_status import BOUNCED, listed

from .conftest import Desk
from .test_bounces import BOB, GM, _bobs_turn, _bounce, _path


def _mail_list(store: EventStore, *flags: str) -> list[str]:
    result = CliRunner().invoke(app, ["mail", "list", *flags, "--db", str(store.url)])
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def test_a_bounced_report_is_listed_with_the_servers_words_and_what_the_service_did(
    make_desk: Callable[..., Desk], any_store: EventStore
) -> None:
    desk, report = _bobs_turn(make_desk, on=any_store)
    assert _mail_list(any_store, "--bounced") == ["No mail is bounced."]
    desk.clock.advance(hours=2)
    bounced_at = desk.clock.now()
    sent = _bounce(desk, report)
    assert f"mail {report.id} to {BOB} undelivered" in (sent.note or "")

    with any_store.reading() as tx:
        (mail,) = listed(tx, (BOUNCED,))
    assert (mail.ref, mail.state, mail.who, mail.kind, mail.game) == (
        str(report.id), BOUNCED, BOB, "report", "g1",
    )
    assert mail.bounced == bounced_at
    assert mail.error is not None and "status 5.1.1" in mail.error
    did = f"marked undelivered (by its return path {_path(report)}); Bob's deadline paused"
    assert mail.done == (
        f"{did} until 2024-07-03T12:00:00+00:00",
        f"notice to {GM} ({PENDING})",
    )

    lines = _mail_list(any_store, "--bounced")
    assert lines[0] == f"{report.id}: bounced report to {BOB}, game g1"
    assert lines[1].startswith("    written ") and "; bounced 2024-07-01 12:00 UTC" in lines[1]
    assert lines[2] == f"    the server said: {mail.error}"
    assert lines[3:] == [f"    done: {line}" for line in mail.done]
    # the plain list shows it with its state, among the mail waiting for the operator
    assert f"{report.id}: bounced report to {BOB}, game g1" in _mail_list(any_store)
    assert _mail_list(any_store, "--failed") == ["No mail is failed."]


def test_a_second_bounce_of_a_mail_lists_it_once_with_what_the_first_did(
    make_desk: Callable[..., Desk], any_store: EventStore
) -> None:
    desk, report = _bobs_turn(make_desk, on=any_store)
    _bounce(desk, report)
    again = _bounce(desk, report, bounce_id="<dsn-2@mx.example.org>")
    assert (again.note or "") == f"dropped: mail {report.id} bounced before"
    with any_store.reading() as tx:
        (mail,) = listed(tx, (BOUNCED,))
    assert mail.done[0].endswith("Bob's deadline paused until 2024-07-03T10:00:00+00:00")
    assert mail.done[1:] == (f"notice to {GM} ({PENDING})",)
