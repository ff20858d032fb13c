"""
An undelivered report is not a late player, and a mail that only looks like a bounce is
not one (issue 23, item 1).  A delivery report that a mail to a player failed for good,
from no player's address or key, come back to its VERP return path, marks the mail
undelivered, pauses his deadline for a bounded time (once per deadline) and tells the
game master; the deadline then runs on with the time it had left.  Anything else, above
all a "bounce" a player mails himself to his own report's return path, changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import pytest
from sqlalchemy import select, update

from moderator.mail import verp
from moderator.ports import StoredMail
from moderator.ports.deadlines import BOUNCE_END
from moderator.ports.mail import PENDING, UNDELIVERED
from moderator.reporting.views import legal_orders
from moderator.runtime.bootstrap import mail_handler
from moderator.runtime.config import load_config
from moderator.schedule.record import GameRecord, Undelivered
from moderator.store import EventStore, inbox
from moderator.store.tables import OUTBOX, PLAYER
from moderator.usecases.mail.handler import MailGameHandler

from ..gpgparties import GpgWorld
from ..mail.bounce_samples import delayed, dsn, failure_notice
from ..service.conftest import MODERATOR
from .conftest import Desk, hours, position, to

KEY = b"the moderator's verp key, 32 b."
GM = "gm@titan.example"
BOB = "bob@example.org"
THREE = ("Ann", "Bob", "Cy")


def _bobs_turn(
    make_desk: Callable[..., Desk], handler: MailGameHandler | None = None, **kw: object
) -> tuple[Desk, StoredMail]:
    """Ann withdraws: Bob's turn, 72 hours, and the report that tells him so."""
    desk = make_desk(
        position=position(
            [("Rd01", 600, "Titan Ogre"), ("Bu01", 300, "Titan Ogre"), ("Gr01", 100, "Titan")],
            players=THREE,
            phase="split",
        ),
        **kw,
    )
    desk.table.handler = handler or MailGameHandler(None, MODERATOR, verp_key=KEY, gm_address=GM)
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


def _bobs_turn_with_his_key(
    make_desk: Callable[..., Desk], gpg_world: GpgWorld
) -> tuple[Desk, StoredMail]:
    """``_bobs_turn`` with the moderator's keyring, and Bob's key pinned for him."""
    keyring = gpg_world.moderator.keyring
    handler = MailGameHandler(lambda: keyring, MODERATOR, verp_key=KEY, gm_address=GM)
    desk, report = _bobs_turn(make_desk, handler)
    fingerprint = gpg_world.bob.fingerprint
    with desk.store.transaction() as tx:
        tx.connection.execute(
            update(PLAYER).where(PLAYER.c.address == BOB).values(key_fingerprint=fingerprint)
        )
    return desk, report


def _row(desk: Desk, mail: StoredMail) -> tuple[str, str | None]:
    with desk.store.reading() as tx:
        found = tx.connection.execute(
            select(OUTBOX.c.status, OUTBOX.c.last_error).where(OUTBOX.c.id == mail.id)
        ).one()
    return str(found[0]), found[1]


def _path(mail: StoredMail, key: bytes = KEY) -> str:
    return verp.return_path(MODERATOR, mail.id, key)


def _bounce(desk: Desk, mail: StoredMail, *, key: bytes = KEY, **kw: str) -> object:
    """A postmaster's failed 5.1.1 report of ``mail``, to its return path."""
    return desk.table.send(
        dsn(to=_path(mail, key), failed=mail.recipient, message_id=mail.message_id, **kw)
    )


def _bounce_end(desk: Desk) -> list[datetime]:
    return [row.due_at for row in desk.open() if row.kind == BOUNCE_END]


def _assert_dropped(desk: Desk, sent: object, report: StoredMail, running: object) -> None:
    """The bounce changed nothing: dropped unanswered, the mail and deadline as they were."""
    assert sent.status == inbox.REJECTED and (sent.note or "").startswith("dropped:"), sent.note
    assert sent.mails == []
    assert _row(desk, report)[0] == PENDING  # as it was (no sender runs here)
    assert desk.table.record.undelivered == {} and desk.acting() == running
    assert _bounce_end(desk) == []


def _assert_runs_and_times_out(desk: Desk, due: datetime) -> None:
    """Bob's deadline ``due`` runs: both reminders, then the timeout at its moment."""
    assert desk.at(due - hours(24)) == [f"g1: reminded Bob of the deadline {due.isoformat()}"]
    assert desk.at(due - hours(4)) == [f"g1: reminded Bob of the deadline {due.isoformat()}"]
    assert desk.at(due - hours(0.02)) == []
    lines = desk.at(due)
    assert any(line.startswith("g1: Bob did not act by") for line in lines), lines


# -- the attack, and its neighbours: nothing is paused --------------------------------------


def test_a_dsn_a_player_mails_from_his_own_address_to_his_report_pauses_nothing(
    make_desk: Callable[..., Desk],
) -> None:
    """Issue 23.1 exactly: Bob's own DSN to his report's return path no longer stops his clock."""
    desk, report = _bobs_turn(make_desk)
    running = desk.acting()
    assert running is not None and running.player == "Bob"
    desk.clock.advance(hours=2)
    sent = _bounce(desk, report, sender=f"Bob <{BOB}>", envelope=BOB)
    _assert_dropped(desk, sent, report, running)
    assert f"sent from {BOB}, a player's address" in (sent.note or "")
    _assert_runs_and_times_out(desk, running.due_at)  # on time, not a minute later


@pytest.mark.parametrize(
    ("sender", "envelope", "extra"),
    [
        ("Ann <ann@example.org>", "", ""),  # another player's From, the null envelope
        ("MAILER-DAEMON@mx.example.org", "cy@example.org", ""),  # a player's envelope
        ("MAILER-DAEMON@mx.example.org", "", "Sender: bob@example.org\r\n"),
    ],
)
def test_a_failed_dsn_sent_from_a_players_address_pauses_nothing(
    make_desk: Callable[..., Desk], sender: str, envelope: str, extra: str
) -> None:
    desk, report = _bobs_turn(make_desk)
    running = desk.acting()
    sent = _bounce(desk, report, sender=sender, envelope=envelope, extra=extra)
    _assert_dropped(desk, sent, report, running)
    assert "a player's address" in (sent.note or "")


@pytest.mark.parametrize(
    ("action", "status"),
    [("delayed", "4.4.7"), ("failed", "4.4.7"), ("failed", "2.0.0"), ("failed", "")],
)
def test_a_dsn_that_does_not_say_failed_with_a_5xx_status_pauses_nothing(
    make_desk: Callable[..., Desk], action: str, status: str
) -> None:
    desk, report = _bobs_turn(make_desk)
    running = desk.acting()
    sent = _bounce(desk, report, action=action, status=status)
    _assert_dropped(desk, sent, report, running)


def test_a_dsn_whose_failed_recipient_is_not_the_reports_pauses_nothing(
    make_desk: Callable[..., Desk],
) -> None:
    desk, report = _bobs_turn(make_desk)
    running = desk.acting()
    raw = dsn(to=_path(report), failed="eve@example.net", message_id=report.message_id)
    sent = desk.table.send(raw)
    _assert_dropped(desk, sent, report, running)
    assert f"says nothing of {BOB}" in (sent.note or "")


def test_a_multipart_report_from_a_stranger_with_no_failed_status_pauses_nothing(
    make_desk: Callable[..., Desk],
) -> None:
    desk, report = _bobs_turn(make_desk)
    running = desk.acting()
    path = _path(report)
    raw = (
        f"From: Eve <eve@example.net>\r\nDelivered-To: {path}\r\nTo: {path}\r\n"
        f"Subject: Delivery report\r\nMessage-ID: <eve-1@example.net>\r\nMIME-Version: 1.0\r\n"
        f'Content-Type: multipart/report; report-type=delivery-status; boundary="X"\r\n\r\n'
        f"--X\r\nContent-Type: text/plain\r\n\r\nYour mail to <{BOB}> could not be delivered.\r\n"
        f"\r\n--X\r\nContent-Type: message/delivery-status\r\n\r\n"
        f"Reporting-MTA: dns; mx.example.net\r\n\r\nFinal-Recipient: rfc822; {BOB}\r\n"
        f"Action: delivered\r\nStatus: 2.0.0\r\n\r\n--X--\r\n"
    ).encode("ascii")
    _assert_dropped(desk, desk.table.send(raw), report, running)


def test_a_failure_notice_that_is_no_delivery_report_pauses_nothing(
    make_desk: Callable[..., Desk],
) -> None:
    """A qmail-style notice in free text quoting our Message-ID: nobody vouches for a status."""
    desk, report = _bobs_turn(make_desk)
    running = desk.acting()
    sent = desk.table.send(failure_notice(to=MODERATOR, failed=BOB, message_id=report.message_id))
    _assert_dropped(desk, sent, report, running)
    assert "no delivery status notification" in (sent.note or "")


def test_a_bounce_signed_by_a_players_key_pauses_nothing(
    make_desk: Callable[..., Desk], gpg_world: GpgWorld
) -> None:
    bob = gpg_world.bob
    desk, report = _bobs_turn_with_his_key(make_desk, gpg_world)
    running = desk.acting()
    # a postmaster's report as it came, signed whole (PGP/MIME, RFC 3156) by Bob
    head, _, body = dsn(to=_path(report), failed=BOB, message_id=report.message_id).partition(
        b"\r\n\r\n"
    )
    lines = head.split(b"\r\n")
    content = next(line for line in lines if line.startswith(b"Content-Type:"))
    entity = content + b"\r\n\r\n" + body
    signature = bob.keyring.sign_detached(entity, bob.fingerprint)
    kept = b"\r\n".join(line for line in lines if not line.startswith((b"MIME-", b"Content-")))
    mail = (
        kept + b"\r\nMIME-Version: 1.0\r\nContent-Type: multipart/signed; micalg=pgp-sha256;"
        b' protocol="application/pgp-signature"; boundary="S"\r\n\r\n--S\r\n' + entity
        + b"\r\n--S\r\nContent-Type: application/pgp-signature\r\n\r\n" + signature
        + b"\r\n--S--\r\n"
    )
    sent = desk.table.send(mail)
    _assert_dropped(desk, sent, report, running)
    assert f"signed by a player's key ({bob.fingerprint})" in (sent.note or "")


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
        _assert_dropped(desk, desk.table.send(raw), report, running)


# -- a believed bounce: a bounded pause, once per deadline ----------------------------------


def test_a_failed_dsn_from_the_mailer_daemon_pauses_the_deadline_48_hours_then_it_runs_on(
    make_desk: Callable[..., Desk], any_store: EventStore
) -> None:
    desk, report = _bobs_turn(make_desk, on=any_store)
    running = desk.acting()
    assert running is not None and running.player == "Bob"
    due = running.due_at  # 72 h after the start
    desk.clock.advance(hours=2)
    paused_at = desk.clock.now()
    sent = _bounce(desk, report)
    assert sent.status == inbox.PROCESSED, sent.note
    assert f"mail {report.id} to {BOB} undelivered" in (sent.note or "")
    status, error = _row(desk, report)
    assert status == UNDELIVERED and error is not None and "status 5.1.1" in error
    pause = desk.table.record.undelivered["Bob"]
    assert (pause.since, pause.until, pause.told) == (paused_at, paused_at + hours(48), (GM,))
    assert desk.acting() is None and desk.table.record.deadline is None
    assert _bounce_end(desk) == [paused_at + hours(48)]
    # the game master is told; nobody else is mailed, Bob least of all
    (notice,) = sent.mails
    assert notice.recipient == GM and notice.kind == "notice" and "g1" in notice.subject
    assert "his deadline is paused" in notice.subject
    assert "a mail to Bob <bob@example.org> came back undelivered" in notice.body
    assert "Status:      5.1.1" in notice.body and "User unknown" in notice.body
    assert "paused\nuntil 2024-07-03 12:00 (UTC) at the latest" in notice.body
    assert "Bob is the player to act" in notice.body
    desk.mails()
    # the others are told why the game has no deadline, and until when at most
    answer = desk.orders("Cy", "status", ref=False).one("cy@example.org", "reply")
    assert "Deadline: none while mail to Bob cannot be delivered, at most until" in answer.body
    desk.mails()
    # no reminder (the first was due 46 hours after the bounce) and no timeout meanwhile
    assert desk.at(paused_at + hours(47.9)) == [] and desk.mails() == []
    lines = desk.at(paused_at + hours(48))
    assert lines == [f"g1: Bob's bounce pause is over; deadline now {(due + hours(48)).isoformat()}"]
    # the deadline runs on with the 70 hours it had left, the game master is told again
    resumed = desk.acting()
    assert resumed is not None and resumed.player == "Bob" and resumed.due_at == due + hours(48)
    assert resumed.reminded == 0 and desk.table.record.undelivered == {}
    (over,) = desk.mails()
    assert over.recipient == GM and "Pause over: Bob's deadline in g1 runs again" in over.subject
    assert "falls 2024-07-06 10:00 (UTC)" in over.body
    _assert_runs_and_times_out(desk, due + hours(48))


def test_the_pause_lasts_as_long_as_the_setting_says(make_desk: Callable[..., Desk]) -> None:
    environ = {
        "TITAN_MODERATOR_ADDRESS": MODERATOR,
        "TITAN_MODERATOR_GM_ADDRESS": GM,
        "TITAN_MODERATOR_VERP_SECRET": "a secret of our own",
        "TITAN_SERVICE_BOUNCE_PAUSE_HOURS": "12",
    }
    config = load_config(None, environ)
    desk, report = _bobs_turn(make_desk, mail_handler(config, None))
    running = desk.acting()
    assert running is not None and config.verp_key is not None
    sent = _bounce(desk, report, key=config.verp_key)
    assert sent.status == inbox.PROCESSED, sent.note
    assert _bounce_end(desk) == [desk.clock.now() + hours(12)]
    assert desk.advance(hours=11.9) == []
    assert desk.advance(hours=0.1)  # the pause is over after 12 hours
    resumed = desk.acting()
    assert resumed is not None and resumed.due_at == running.due_at + hours(12)


def test_a_second_bounce_for_the_same_deadline_pauses_nothing_more(
    make_desk: Callable[..., Desk],
) -> None:
    desk, report = _bobs_turn(make_desk)
    running = desk.acting()
    assert running is not None
    _bounce(desk, report)
    assert desk.at(desk.clock.now() + hours(48))  # the pause is over
    resumed = desk.acting()
    assert resumed is not None and resumed.due_at == running.due_at + hours(48)
    desk.mails()
    # Bob's query (no move: the same deadline) is answered; that answer bounces too
    (reply,) = to(desk.orders("Bob", "status", ref=False).mails, "Bob", "reply")
    sent = _bounce(desk, reply, bounce_id="<dsn-2@mx.example.org>")
    assert sent.status == inbox.PROCESSED and _row(desk, reply)[0] == UNDELIVERED
    assert desk.acting() == resumed and desk.table.record.undelivered == {}
    assert _bounce_end(desk) == []
    (notice,) = sent.mails  # the game master hears of it all the same
    assert notice.recipient == GM and "paused once already and runs on" in notice.subject
    assert "a deadline is\npaused only once" in notice.body
    _assert_runs_and_times_out(desk, resumed.due_at)


def test_a_bounce_during_a_pause_pauses_nothing_more(make_desk: Callable[..., Desk]) -> None:
    desk, report = _bobs_turn(make_desk)
    _bounce(desk, report)
    until = desk.table.record.undelivered["Bob"].until
    (relayed,) = to(desk.orders("Cy", "tell Bob: are you there?").mails, "Bob")
    desk.clock.advance(hours=10)
    sent = _bounce(desk, relayed, bounce_id="<dsn-9@mx.example.org>")
    assert sent.status == inbox.PROCESSED and _row(desk, relayed)[0] == UNDELIVERED
    notice = sent.one(GM, "notice")  # told, and told that nothing more changes
    assert "his deadline is paused already" in notice.subject
    assert desk.table.record.undelivered["Bob"].until == until
    assert _bounce_end(desk) == [until] and desk.acting() is None


@pytest.mark.parametrize("how", ["clearsigned", "secret"])
def test_the_players_mail_during_the_pause_resumes_his_deadline_with_the_time_it_had_left(
    make_desk: Callable[..., Desk], gpg_world: GpgWorld, how: str
) -> None:
    desk, report = _bobs_turn_with_his_key(make_desk, gpg_world)
    running = desk.acting()
    assert running is not None
    paused_at = desk.clock.now()
    _bounce(desk, report)
    desk.mails()
    desk.clock.advance(hours=20)
    # any authenticated mail of his, signed or with his secret: a query will do
    sent = desk.orders("Bob", "status", ref=False, how=how, party=gpg_world.bob)
    assert sent.status == inbox.PROCESSED, sent.note
    assert desk.table.record.undelivered == {} and _bounce_end(desk) == []
    resumed = desk.acting()
    assert resumed is not None and resumed.player == "Bob"
    assert resumed.due_at == running.due_at + hours(20)  # not a fresh 72 hours
    assert "Deadline: 2024-07-05 06:00 (UTC)" in sent.one(BOB, "reply").body
    over = sent.one(GM, "notice")
    assert "when a mail of his arrived" in over.body and "his mail arrived" in over.subject
    assert desk.at(paused_at + hours(48)) == []  # no pause left to end
    _assert_runs_and_times_out(desk, resumed.due_at)


def test_a_bounce_of_a_player_not_to_act_starts_his_next_deadline_when_the_pause_ends(
    make_desk: Callable[..., Desk],
) -> None:
    desk, _ = _bobs_turn(make_desk)
    (reply,) = to(desk.orders("Cy", "status", ref=False).mails, "Cy", "reply")
    paused_at = desk.clock.now()
    sent = _bounce(desk, reply)
    assert "Cy is not to act now" in sent.one(GM, "notice").body
    bob = desk.acting()
    assert bob is not None and bob.player == "Bob"  # Bob's deadline runs on
    _play_turn(desk, "Bob")  # Cy's turn comes: no deadline starts for him yet
    assert desk.actor == "Cy" and desk.acting() is None
    assert desk.at(paused_at + hours(47.9)) == []
    assert desk.at(paused_at + hours(48))
    cy = desk.acting()
    assert cy is not None and cy.player == "Cy" and cy.due_at == paused_at + hours(48 + 72)
    assert desk.table.record.bounce_paused == {"Cy": cy.step}  # his one pause is spent


def test_a_bounce_quoting_our_message_id_is_recognised_without_a_return_path(
    make_desk: Callable[..., Desk],
) -> None:
    desk, report = _bobs_turn(make_desk)
    someone_else = desk.table.send(
        dsn(to=MODERATOR, failed="eve@example.net", message_id=report.message_id)
    )
    assert someone_else.status == inbox.REJECTED  # its failed recipient is not the mail's
    assert desk.table.record.undelivered == {}
    sent = desk.table.send(
        dsn(to=MODERATOR, failed=BOB, message_id=report.message_id, bounce_id="<dsn-3@x>")
    )
    assert sent.status == inbox.PROCESSED and "by its Message-ID" in (sent.note or "")
    assert _row(desk, report)[0] == UNDELIVERED and desk.acting() is None


def test_a_delay_warning_or_a_second_bounce_of_one_mail_changes_nothing_more(
    make_desk: Callable[..., Desk],
) -> None:
    desk, report = _bobs_turn(make_desk)
    path = _path(report)
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


def test_a_players_mail_ends_his_pauses_in_every_game_he_sits_in(
    make_desk: Callable[..., Desk],
) -> None:
    desk, report = _bobs_turn(make_desk)
    other = make_desk(("Ann", "Bob"), game_id="g2")
    since = datetime(2024, 7, 1, 9, tzinfo=desk.clock.now().tzinfo)
    other.table.set_record(undelivered={"Bob": Undelivered(since, since + hours(48))})
    _bounce(desk, report)
    desk.clock.advance(hours=3)
    sent = desk.orders("Bob", "status", ref=False)  # a mail for g1 ...
    assert sent.status == inbox.PROCESSED, sent.note
    assert desk.table.record.undelivered == {}
    assert other.table.record.undelivered == {}  # ... ends g2's too


def test_without_a_game_master_the_bounce_still_pauses_the_deadline(
    make_desk: Callable[..., Desk],
) -> None:
    desk, report = _bobs_turn(make_desk)
    desk.table.handler = MailGameHandler(None, MODERATOR, verp_key=KEY)
    sent = _bounce(desk, report)
    assert sent.status == inbox.PROCESSED and sent.mails == []
    assert desk.acting() is None
    assert desk.advance(hours=48)  # and it ends, telling nobody
    assert desk.acting() is not None and desk.mails() == []


# -- the record -----------------------------------------------------------------------------


def test_a_pause_is_kept_in_the_games_record_and_an_older_record_still_reads() -> None:
    since = datetime.fromisoformat("2024-07-01T12:00:00+00:00")
    record = GameRecord(
        undelivered={"Bob": Undelivered(since, since + hours(48), None, (GM,))},
        bounce_paused={"Bob": "Bob/turn/2"},
    )
    assert GameRecord.from_json(record.to_json()) == record
    older = {"schema": 1, "undelivered": {"Bob": "2024-07-01T12:00:00+00:00"}}
    read = GameRecord.from_json(older)
    assert read.undelivered == {"Bob": Undelivered(since)} and read.bounce_paused == {}
