"""Reports after every change, and the queries answered by mail."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime

from moderator.letters.moments import deadline_line
from moderator.reporting.views import legal_orders
from moderator.rules.legal import to_act
from moderator.rules.state import Step
from moderator.runners.commands import new_game, order
from moderator.schedule import reference
from moderator.schedule.record import Deadline, GameRecord
from moderator.store import EventStore, inbox
from moderator.usecases.games import reports
from moderator.usecases.mail.handler import MailGameHandler

from .conftest import MODERATOR, Table, address, carries_report, seat_players

SPLIT = "split Bu01 into Bu02: angel centaur centaur gargoyle"


def at_first_split(
    make_table: Callable[..., Table],
    names: tuple[str, ...] = ("Ann", "Bob"),
    notify: str | None = "all",
) -> Table:
    """
    A game (seed 5) at its first split step, colours chosen, everybody reported; every
    player mailed after each change (``notify all``) unless ``notify`` says otherwise.
    """
    table = make_table(names, seed=5, notify=notify)
    while table.state.step is Step.COLOUR:
        actor = to_act(table.state)
        assert actor is not None
        colour = "colour black" if actor == "Bob" else legal_orders(table.state, actor)[0]
        assert order(table.store, "g1", actor, colour)[1]
    table.set_record(reported=dict.fromkeys(names, table.state.version))
    return table


def test_the_player_to_act_is_told_first_thing(make_table: Callable[..., Table]) -> None:
    table = at_first_split(make_table)
    sent = table.orders("Ann", f"{SPLIT}\nroll")
    ann = sent.report("ann@example.org")
    bob = sent.one("bob@example.org", "report")
    assert "*** It is your move, Ann. ***" in ann.body
    assert bob.body.startswith("Titan game g1: report for Bob")
    assert ann.subject.startswith("[titan g1] Re: Your move:")
    assert "It is your move. You may write:" in (ann.private_body or "")
    assert "move Bu01 to" in (ann.private_body or "")
    assert "It is your move" not in bob.body and "Waiting for Ann." in bob.body
    assert "You may write" not in (bob.private_body or "")
    for name, mail in (("Ann", ann), ("Bob", bob)):
        assert f"Step reference: {table.ref_of(name)}" in mail.body
        assert "Deadline: no deadline set" in mail.body


def test_private_contents_go_only_to_their_owner_and_never_in_the_signed_part(
    make_table: Callable[..., Table],
) -> None:
    table = at_first_split(make_table)
    sent = table.orders("Ann", SPLIT)
    secret_line = "(secret) Bu02 takes Angel, 2 Centaurs, Gargoyle from Bu01"
    ann = sent.report("ann@example.org")
    bob = sent.one("bob@example.org", "report")
    assert secret_line in (ann.private_body or "") and secret_line not in ann.body
    assert "Bu02 (Bat) in 500 (Tower), 4 high: Angel, Centaur, Centaur, Gargoyle" in (
        ann.private_body or ""
    )
    assert "Bu02 Bat         in 500 (Tower)     4 high\n" in ann.body
    for text in (bob.body, bob.private_body or ""):
        assert "4 high: Angel, Centaur, Centaur, Gargoyle" not in text
        assert "(secret)" not in text
    reply = sent.one("ann@example.org", "reply")
    assert SPLIT not in reply.body and SPLIT in (reply.private_body or "")


def test_reported_versions_are_kept_in_the_game_record(make_table: Callable[..., Table]) -> None:
    table = at_first_split(make_table)
    table.orders("Ann", SPLIT)
    record = table.record
    version = table.state.version
    assert record.reported == {"Ann": version, "Bob": version}
    assert record.report_from == {"Ann": 6, "Bob": 6}
    # Queries alone change nothing and send no report.
    sent = table.orders("Bob", "status")
    assert [m.kind for m in sent.mails] == ["reply"]
    assert table.record.reported == {"Ann": version, "Bob": version}


def test_events_added_outside_the_mail_service_are_reported_later(
    make_table: Callable[..., Table],
) -> None:
    table = at_first_split(make_table)
    assert order(table.store, "g1", "Ann", SPLIT)[1]  # e.g. by the GM, not by mail
    sent = table.orders("Ann", "roll")
    bob = sent.one("bob@example.org", "report")
    assert "Ann split Bu02 off Bu01 (4 and 4)" in bob.body
    assert "Ann rolled a" in bob.body
    assert "(secret)" in (sent.report("ann@example.org").private_body or "")


def test_the_report_query_sends_the_latest_report_again(make_table: Callable[..., Table]) -> None:
    table = at_first_split(make_table)
    first = table.orders("Ann", SPLIT).one("bob@example.org", "report")
    again = table.orders("Bob", "report").report("bob@example.org")
    assert "the latest report, sent again" in again.body
    assert "Ann split Bu02 off Bu01 (4 and 4)" in again.body
    assert (
        first.body.split("Since your last report")[1]
        == again.body.split("Since your last report")[1]
    )


def test_history_is_a_record_of_what_the_player_saw(make_table: Callable[..., Table]) -> None:
    table = at_first_split(make_table)
    table.orders("Ann", f"{SPLIT}\nroll")
    ann = table.orders("Ann", "history").one("ann@example.org", "history")
    bob = table.orders("Bob", "history from turn 1 to turn 1").one("bob@example.org", "history")
    assert "(secret) Bu02 takes" in (ann.private_body or "")
    assert "(secret)" not in (bob.private_body or "") and "(secret)" not in ann.body
    assert "Ann split Bu02 off Bu01" in (bob.private_body or "")
    assert "turns 1 to 1" in bob.body and "Turn 1" in (bob.private_body or "")


def test_queries_are_answered_in_the_private_part(make_table: Callable[..., Table]) -> None:
    table = at_first_split(make_table)
    sent = table.orders("Ann", "legion Bu01\nlegal\nhelp split\nmoves Bu01\nbattle\nstrikes")
    reply = sent.one("ann@example.org", "reply")
    private = reply.private_body or ""
    assert "Bu01 (Anchor), Ann's, in 500, 8 high:" in private
    assert SPLIT in private and "No battle is being fought." in private
    assert "6 question(s) answered" in private and "answered" not in reply.body
    assert "Anchor" not in reply.body


def test_the_deadline_is_shown_in_the_players_time_zone(make_table: Callable[..., Table]) -> None:
    due = datetime(2024, 7, 3, 18, tzinfo=UTC)
    by_hand = Deadline(key="", player="", kind="", started=due, due=due)  # times no step
    assert deadline_line(GameRecord()) == "no deadline set"
    line = deadline_line(GameRecord(deadline=by_hand), "Europe/Berlin")
    assert line == "2024-07-03 20:00 (Europe/Berlin)"
    table = at_first_split(make_table)
    table.set_record(deadline=by_hand)
    sent = table.orders("Ann", SPLIT)
    assert "Deadline: 2024-07-03 18:00 (UTC)" in sent.one("bob@example.org", "report").body


def test_everybody_who_sees_a_change_is_reported(make_table: Callable[..., Table]) -> None:
    """
    In a three-player game a split is seen by all (the split itself; its contents only
    by the owner): all are reported.  A refused order reports nobody.
    """
    table = at_first_split(make_table, ("Ann", "Bob", "Cy"))
    actor = to_act(table.state)
    assert actor is not None
    split = legal_orders(table.state, actor)[0]
    sent = table.orders(actor, f"{split}\nnonsense")
    assert sent.status == inbox.PROCESSED, sent.note
    reports = sorted(m.recipient for m in sent.mails if carries_report(m))
    assert reports == [address("Ann"), address("Bob"), address("Cy")]
    assert len(sent.to(address(actor))) == 1  # the answer carries his report
    refused = table.orders(actor, "nonsense")
    assert [m.kind for m in refused.mails] == ["reply"]


ENGAGED = {
    "players": [
        {"name": "Ann", "color": "Red", "tower": 600},
        {"name": "Bob", "color": "Blue", "tower": 300},
        {"name": "Cy", "color": "Gold", "tower": 100},
    ],
    "turn": 4,
    "active": "Ann",
    "phase": "engage",
    "roll": 3,
    "legions": [
        {"marker": "Rd01", "land": 1, "contents": ["Titan", "Ogre", "Ogre"]},
        {"marker": "Bu01", "land": 1, "contents": ["Centaur", "Gargoyle"]},
        {"marker": "Bu02", "land": 300, "contents": ["Titan"]},
        {"marker": "Gd01", "land": 100, "contents": ["Titan", "Troll"]},
    ],
}


def engaged_table(store: EventStore, notify: str | None = "all") -> Table:
    """
    ENGAGED by mail: Ann, Bob and Cy seated, each reported once and choosing ``notify``
    (default: every report; None: the default choice).
    """
    new_game(store, "g1", None, seed=3, position=ENGAGED)
    seated = ["Ann", "Bob", "Cy"]
    seat_players(store, "g1", seated)
    table = Table(store, MailGameHandler(None, MODERATOR))
    chosen = {} if notify is None else {"notify": dict.fromkeys(seated, notify)}
    table.set_record(allow_secrets=True, reported=dict.fromkeys(seated, 1), **chosen)
    return table


def test_a_player_who_may_see_nothing_new_gets_no_report(store: EventStore) -> None:
    """Proposals are between the two engaged players (Wolff 9.3): Cy hears nothing."""
    table = engaged_table(store)
    engaged = table.orders("Ann", "engage 1")
    assert {m.recipient for m in engaged.mails if carries_report(m)} == {
        address("Ann"),
        address("Bob"),
        address("Cy"),
    }
    proposal = "propose Rd01 loses nothing; Bu01 loses centaur gargoyle"
    sent = table.orders("Bob", proposal)
    assert sent.status == inbox.PROCESSED and sent.note is None
    reports = {m.recipient: m for m in sent.mails if carries_report(m)}
    assert set(reports) == {address("Ann"), address("Bob")}
    ann = reports[address("Ann")]
    assert "Bob proposed: #1" in (ann.private_body or "") and "proposed" not in ann.body
    assert "#1 by Bob: Rd01 loses nothing; Bu01 loses Centaur, Gargoyle" in (ann.private_body or "")
    version = table.state.version
    assert table.record.reported == {"Ann": version, "Bob": version, "Cy": version}


def test_19_4_an_eliminated_player_is_informed_but_not_asked_for_orders(
    make_table: Callable[..., Table],
) -> None:
    """Rule 19.4: a player whose Titan died is out; his reports invite no orders."""
    table = at_first_split(make_table)
    state = table.state
    out = [replace(p, eliminated=True) if p.name == "Bob" else p for p in state.players]
    ended = replace(state, players=tuple(out))
    bob = reports.report(
        reference.current("g1", ended, "Bob"), ended, "Bob", [], 0, record=GameRecord()
    )
    ann = reports.report(
        reference.current("g1", ended, "Ann"), ended, "Ann", [], 0, record=GameRecord()
    )
    assert "You are out of this game" in bob.public
    assert "To give orders" not in bob.public
    assert "To give orders" in ann.public and "You are out" not in ann.public
    assert "Bob        Black   tower 300  score    0  free markers 11 (out)" in bob.public
