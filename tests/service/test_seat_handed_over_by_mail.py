"""
A player whose seat the operator handed to another (``game replace``) attacks by mail
with his own key: he orders for the seat, asks for its status, its history and what is
legal.  Nothing he sends moves the game any more, and nothing he is sent tells him what
the seat sees now (its legions' contents, its reports); the seat's new holder plays it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from moderator.ports import Deadline, StoredMail
from moderator.ports.deadlines import ABSENCE_END, DIGEST
from moderator.reporting.views import legal_orders
from moderator.rules import events as ev
from moderator.rules.legal import to_act
from moderator.runners.commands import operate
from moderator.schedule.limits import TimeLimits
from moderator.store import deadlines, inbox, outbox, players
from moderator.usecases.tournaments.operated import Operate

from .conftest import MODERATOR, Table, World, address, full_text, secret_of


def test_a_player_whose_seat_was_handed_over_can_neither_order_for_it_nor_read_it(
    make_table: Callable[..., Table], world: World
) -> None:
    table = make_table(keyring=world.moderator.keyring, keys=world.players, allow_secrets=False)
    with table.store.transaction() as tx:
        players.add_player(tx, "Cy", address("Cy"), key_fingerprint=world.players["Cy"].fingerprint,
                           secret=secret_of("Cy"))
    seat = to_act(table.state)
    assert seat is not None
    line = legal_orders(table.state, seat)[0]
    operate(table.store, Operate("replace", "g1", MODERATOR, seat=seat, new=address("Cy")))
    version = table.state.version

    for how in ("pgp-mime", "clearsigned"):
        sent = table.orders(seat, f"{line}\nstatus\nhistory\nlegal\nlegion Bu01",
                            how=how, party=world.players[seat])
        assert table.state.version == version, "the old holder's order moved the seat"
        assert sent.status == inbox.REJECTED and sent.note == "you have no seat in game g1"
        assert {m.recipient for m in sent.mails} == {address(seat)}
        for mail in sent.mails:
            text = full_text(mail)
            assert mail.kind != "report" and "high:" not in text, text
            assert "Game record" not in mail.subject, mail.subject
            assert line not in text.replace(f"{line}\n", ""), text

    # the new holder, with his own key, plays the seat at the step it was handed over at
    done = table.orders("Cy", line, how="pgp-mime", party=world.players["Cy"],
                        ref=table.ref_of(seat), sender=address("Cy"))
    assert done.status == inbox.PROCESSED, done.note
    moved = [e for e in table.events()[version:] if not isinstance(e, ev.AUDIT_EVENT_TYPES)]
    assert moved, full_text(done.mails[0])


def test_the_standing_orders_of_a_seats_old_holder_neither_act_for_nor_reach_its_new_one(
    make_table: Callable[..., Table], world: World
) -> None:
    """
    Ann, about to lose her seat, leaves it standing orders that would sabotage it (concede
    whenever attacked): they were hers (Wolff 9.4: private to the moderator), so the seat's
    new holder neither has them acting in his name nor reads them in the report he is
    handed; he starts with none.
    """
    table = make_table(keyring=world.moderator.keyring, keys=world.players, allow_secrets=False)
    with table.store.transaction() as tx:
        players.add_player(tx, "Cy", address("Cy"), key_fingerprint=world.players["Cy"].fingerprint,
                           secret=secret_of("Cy"))
    sabotage = "standing when attacked: concede"
    sent = table.orders("Ann", f"{sabotage}\nstanding no concede", how="pgp-mime",
                        party=world.players["Ann"])
    assert sent.status == inbox.PROCESSED, sent.note
    assert table.record.standing.get("Ann")
    before = len(_outbox(table))
    operate(table.store, Operate("replace", "g1", MODERATOR, seat="Ann", new=address("Cy")))
    assert "Ann" not in table.record.standing
    to_cy = [m for m in _outbox(table)[before:] if m.recipient == address("Cy")]
    assert any(m.kind == "report" for m in to_cy)
    assert not any("concede" in full_text(m) for m in to_cy), [full_text(m) for m in to_cy]


def _outbox(table: Table) -> list[StoredMail]:
    with table.store.reading() as tx:
        return outbox.mails(tx)


def test_a_seats_old_holders_absences_and_report_choices_end_with_his_hold_of_it(
    make_table: Callable[..., Table], world: World
) -> None:
    """
    Ann declared an absence (its end kept as a deadline row) and chose a daily digest and no
    pictures: they were hers.  Handed on, the seat's deadlines no longer wait for her
    holiday, its reports are not held for her digest hour, and Cy is told the choices he
    starts with and how to change them.
    """
    table = make_table(keyring=world.moderator.keyring, keys=world.players, allow_secrets=False)
    table.set_record(time_limits=TimeLimits())
    with table.store.transaction() as tx:
        players.add_player(tx, "Cy", address("Cy"), key_fingerprint=world.players["Cy"].fingerprint,
                           secret=secret_of("Cy"))
    first = (table.now() + timedelta(days=2)).date()
    away = f"absent from {first} to {first + timedelta(days=5)}"
    sent = table.orders("Ann", f"{away}\nnotify digest 18:00\npictures none",
                        how="pgp-mime", party=world.players["Ann"])
    assert sent.status == inbox.PROCESSED, sent.note
    assert table.record.absences_of("Ann") and table.record.notify.get("Ann")
    assert {d.kind for d in _open_rows(table, "Ann")} >= {ABSENCE_END, DIGEST}
    before = len(_outbox(table))
    operate(table.store, Operate("replace", "g1", MODERATOR, seat="Ann", new=address("Cy")))
    record = table.record
    assert not record.absences_of("Ann")
    assert "Ann" not in record.notify and "Ann" not in record.pictures
    assert not {d.kind for d in _open_rows(table, "Ann")} & {ABSENCE_END, DIGEST}
    to_cy = "\n".join(full_text(m) for m in _outbox(table)[before:]
                      if m.recipient == address("Cy"))
    assert "'notify turn' and 'pictures changes'" in to_cy, to_cy
    assert "notify digest 18:00" in to_cy and "absent from YYYY-MM-DD" in to_cy


def _open_rows(table: Table, seat: str) -> list[Deadline]:
    with table.store.reading() as tx:
        return [d for d in deadlines.open_deadlines(tx, "g1") if d.player == seat]


def test_wolff_4_5_a_seats_new_holder_reads_what_it_saw_of_the_game_but_not_its_old_holders_messages(
    make_table: Callable[..., Table], world: World
) -> None:
    """
    Messages passed through the moderator (Wolff 4.5) were Ann's correspondence, not her
    seat's knowledge of the game: Cy, handed her seat, reads its history of the game and
    what is told to him after he took it, but not what Ann and Bob told each other before.
    """
    table = make_table(keyring=world.moderator.keyring, keys=world.players, allow_secrets=False)
    with table.store.transaction() as tx:
        players.add_player(tx, "Cy", address("Cy"), key_fingerprint=world.players["Cy"].fingerprint,
                           secret=secret_of("Cy"))
    for name, line in (("Bob", "tell Ann: I will not attack you"),
                       ("Ann", "tell Bob: my Titan is in the Tower, keep it quiet")):
        sent = table.orders(name, line, how="pgp-mime", party=world.players[name])
        assert sent.status == inbox.PROCESSED, sent.note
    before = len(_outbox(table))
    operate(table.store, Operate("replace", "g1", MODERATOR, seat="Ann", new=address("Cy")))
    told = table.orders("Bob", "tell Ann: welcome, Cy", how="pgp-mime", party=world.players["Bob"])
    assert told.status == inbox.PROCESSED, told.note
    asked = table.orders("Cy", "history", how="pgp-mime", party=world.players["Cy"],
                         ref=table.ref_of("Ann"), sender=address("Cy"))
    assert asked.status == inbox.PROCESSED, asked.note
    (history,) = [m for m in asked.mails if m.kind == "history"]
    text = full_text(history)
    assert "welcome, Cy" in text and "Tower rolls" in text, text
    to_cy = [full_text(m) for m in _outbox(table)[before:] if m.recipient == address("Cy")]
    for said in ("I will not attack you", "keep it quiet"):
        assert not any(said in t for t in to_cy), said
    # Bob, who held his seat throughout, still reads both
    mine = table.orders("Bob", "history", how="pgp-mime", party=world.players["Bob"])
    (kept,) = [m for m in mine.mails if m.kind == "history"]
    assert "I will not attack you" in full_text(kept) and "keep it quiet" in full_text(kept)
