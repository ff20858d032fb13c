"""
An undelivered report is not a late player: a bounce of a mail to a player, come back to
its VERP return path, marks the mail undelivered, stops the deadline running against him
and tells the game master; his next mail starts it afresh.  A forged bounce changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy import select

from moderator.mail import verp
from moderator.reporting.views import legal_orders
from moderator.service import MailGameHandler
from moderator.store import inbox
from moderator.store.outbox import StoredMail
from moderator.store.tables import OUTBOX, PENDING, UNDELIVERED

from ..mail.bounce_samples import delayed, dsn, failure_notice
from ..service.conftest import MODERATOR
from .conftest import Desk, hours, position, to

KEY = b"the moderator's verp key, 32 b."
GM = "gm@titan.example"
BOB = "bob@example.org"
THREE = ("Ann", "Bob", "Cy")


def _bobs_turn(make_desk: Callable[..., Desk], **kw: object) -> tuple[Desk, StoredMail]:
    """Ann withdraws: Bob's turn, 72 hours, and the report that tells him so."""
    desk = make_desk(
        position=position(
            [("Rd01", 600, "Titan Ogre"), ("Bu01", 300, "Titan Ogre"), ("Gr01", 100, "Titan")],
            players=THREE,
            phase="split",
        ),
        **kw,
    )
    desk.table.handler = MailGameHandler(None, MODERATOR, verp_key=KEY, gm_address=GM)
    sent = desk.orders("Ann", "withdraw")
    (report,) = to(sent.mails, "Bob", "report")
    desk.mails()
    return desk, report


def _play_turn(desk: Desk, name: str) -> None:
    """``name`` plays legal orders (never withdrawing) until another is to act."""
    for _ in range(30):
        if desk.actor != name:
            return
        lines = legal_orders(desk.table.state, name)
        line = next(line for line in lines if not line.startswith(("withdraw", "concede", "undo")))
        assert desk.orders(name, line).note is None
    raise AssertionError(f"{name} is still to act")


def _row(desk: Desk, mail: StoredMail) -> tuple[str, str | None]:
    with desk.store.reading() as tx:
        found = tx.connection.execute(
            select(OUTBOX.c.status, OUTBOX.c.last_error).where(OUTBOX.c.id == mail.id)
        ).one()
    return str(found[0]), found[1]


def _bounce(desk: Desk, mail: StoredMail, *, to: str | None = None, key: bytes = KEY) -> object:
    path = to or verp.return_path(MODERATOR, mail.id, key)
    return desk.table.send(dsn(to=path, failed=mail.recipient, message_id=mail.message_id))


def test_an_undelivered_report_is_not_a_late_player(make_desk: Callable[..., Desk]) -> None:
    desk, report = _bobs_turn(make_desk)
    running = desk.acting()
    assert running is not None and running.player == "Bob"
    desk.clock.advance(hours=2)
    sent = _bounce(desk, report)
    assert sent.status == inbox.PROCESSED, sent.note
    assert f"mail {report.id} to {BOB} undelivered" in (sent.note or "")
    status, error = _row(desk, report)
    assert status == UNDELIVERED and error is not None and "status 5.1.1" in error
    assert desk.table.record.undelivered == {"Bob": desk.clock.now}
    assert desk.acting() is None and desk.table.record.deadline is None
    # the game master is told; nobody else is mailed, Bob least of all
    (notice,) = sent.mails
    assert notice.recipient == GM and notice.kind == "notice" and "g1" in notice.subject
    assert "a mail to Bob <bob@example.org> came back undelivered" in notice.body
    assert "Status:      5.1.1" in notice.body and "User unknown" in notice.body
    assert "Bob has no deadline while his mail" in notice.body
    assert "Bob is the player to act" in notice.body
    desk.mails()
    # no reminder and no timeout while his mail bounces, however long it takes
    assert desk.at(running.due_at + hours(24 * 10)) == []
    assert desk.mails() == [] and desk.actor == "Bob"
    # the others are told why the game has no deadline
    answer = desk.orders("Cy", "status", ref=False).one("cy@example.org", "reply")
    assert "Deadline: none while mail to Bob cannot be delivered" in answer.body


def test_a_later_mail_of_the_player_starts_his_deadline_afresh(
    make_desk: Callable[..., Desk],
) -> None:
    desk, report = _bobs_turn(make_desk)
    _bounce(desk, report)
    desk.clock.advance(hours=24 * 5)
    sent = desk.orders("Bob", "status", ref=False)  # any mail of his: a query will do
    assert sent.status == inbox.PROCESSED, sent.note
    assert desk.table.record.undelivered == {}
    fresh = desk.acting()
    assert fresh is not None and fresh.player == "Bob"
    assert fresh.due_at == desk.clock.now + hours(72)
    assert "Deadline: " in sent.one(BOB, "reply").body
    assert desk.at(fresh.due_at - hours(1))  # his reminders come again ...
    lines = desk.at(fresh.due_at)  # ... and so does the timeout
    assert any("Bob did not act by" in line for line in lines), lines


def test_a_bounce_of_a_player_not_to_act_stops_his_next_deadline(
    make_desk: Callable[..., Desk],
) -> None:
    desk, _ = _bobs_turn(make_desk)
    (reply,) = to(desk.orders("Cy", "status", ref=False).mails, "Cy", "reply")
    sent = _bounce(desk, reply)
    assert "Cy is not to act now" in sent.one(GM, "notice").body
    bob = desk.acting()
    assert bob is not None and bob.player == "Bob"  # Bob's deadline runs on
    _play_turn(desk, "Bob")  # Cy's turn comes: no deadline starts for him
    assert desk.actor == "Cy" and desk.acting() is None
    assert desk.advance(hours=24 * 10) == []


def test_a_forged_bounce_changes_nothing(make_desk: Callable[..., Desk]) -> None:
    desk, report = _bobs_turn(make_desk)
    running = desk.acting()
    forged = [
        verp.return_path(MODERATOR, report.id, b"not the moderator's key"),
        f"moderator+b{report.id}-{'0' * verp.TAG_LENGTH}@titan.example",
        verp.return_path(MODERATOR, report.id + 1000, KEY),  # a good tag, no such mail
    ]
    for n, address in enumerate(forged):
        mine = f"<forged-{n}@example.net>"
        raw = dsn(to=address, failed=BOB, message_id="<not-ours@example.org>", bounce_id=mine)
        sent = desk.table.send(raw)
        assert sent.status == inbox.REJECTED and (sent.note or "").startswith("dropped:")
        assert sent.mails == []
    assert _row(desk, report)[0] == PENDING  # as it was (no sender runs here)
    assert desk.table.record.undelivered == {} and desk.acting() == running


def test_a_bounce_quoting_our_message_id_is_recognised_without_a_return_path(
    make_desk: Callable[..., Desk],
) -> None:
    desk, report = _bobs_turn(make_desk)
    someone_else = desk.table.send(
        failure_notice(to=MODERATOR, failed="eve@example.net", message_id=report.message_id)
    )
    assert someone_else.status == inbox.REJECTED  # its failed recipient is not the mail's
    assert desk.table.record.undelivered == {}
    sent = desk.table.send(failure_notice(to=MODERATOR, failed=BOB, message_id=report.message_id))
    assert sent.status == inbox.PROCESSED and "by its Message-ID" in (sent.note or "")
    assert _row(desk, report)[0] == UNDELIVERED and desk.acting() is None


def test_a_delay_warning_or_a_second_bounce_changes_nothing_more(
    make_desk: Callable[..., Desk],
) -> None:
    desk, report = _bobs_turn(make_desk)
    path = verp.return_path(MODERATOR, report.id, KEY)
    warning = desk.table.send(delayed(to=path, failed=BOB, message_id=report.message_id))
    assert warning.status == inbox.REJECTED and desk.acting() is not None
    assert _bounce(desk, report).mails  # the game master is told once
    again = desk.table.send(
        dsn(to=path, failed=BOB, message_id=report.message_id, bounce_id="<dsn-2@mx.example.org>")
    )
    assert again.status == inbox.REJECTED and again.mails == []


def test_an_ordinary_mail_still_goes_through(make_desk: Callable[..., Desk]) -> None:
    desk, report = _bobs_turn(make_desk)
    _bounce(desk, report)
    sent = desk.orders("Cy", "status", ref=False)  # another player's mail clears nothing
    assert sent.status == inbox.PROCESSED and sent.one("cy@example.org", "reply")
    assert "Bob" in desk.table.record.undelivered


def test_a_players_mail_clears_his_bounces_in_every_game_he_sits_in(
    make_desk: Callable[..., Desk],
) -> None:
    desk, report = _bobs_turn(make_desk)
    other = make_desk(("Ann", "Bob"), game_id="g2")
    since = datetime(2024, 7, 1, 9, tzinfo=desk.clock.now.tzinfo)
    other.table.set_record(undelivered={"Bob": since})
    _bounce(desk, report)
    desk.clock.advance(hours=3)
    sent = desk.orders("Bob", "status", ref=False)  # a mail for g1 ...
    assert sent.status == inbox.PROCESSED, sent.note
    assert desk.table.record.undelivered == {}
    assert other.table.record.undelivered == {}  # ... clears g2 too


def test_without_a_game_master_the_bounce_still_pauses_the_deadline(
    make_desk: Callable[..., Desk],
) -> None:
    desk, report = _bobs_turn(make_desk)
    desk.table.handler = MailGameHandler(None, MODERATOR, verp_key=KEY)
    sent = _bounce(desk, report)
    assert sent.status == inbox.PROCESSED and sent.mails == []
    assert desk.acting() is None
