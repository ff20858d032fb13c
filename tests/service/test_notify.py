"""Fewer mails: one mail per mail, and each player's notification choice (issue 15)."""

from __future__ import annotations

import random
from collections.abc import Callable

from moderator import robot
from moderator.rules.legal import to_act
from moderator.store import EventStore, inbox

from .conftest import Table, address
from .test_reports import SPLIT, at_first_split, engaged_table


def test_one_mail_answers_a_mail_and_reports_the_game(make_table: Callable[..., Table]) -> None:
    """The answer to a player's orders and the report he would get are one mail."""
    table = at_first_split(make_table, notify=None)
    sent = table.orders("Ann", f"{SPLIT}\nroll")
    (mail,) = sent.to(address("Ann"))
    assert mail.kind == "reply" and mail.headers["In-Reply-To"]
    assert "the answer to your mail" in mail.body and "*** It is your move, Ann. ***" in mail.body
    private = mail.private_body or ""
    assert f"> {SPLIT}" in private and "It is your move. You may write:" in private
    assert [p["kind"] for p in mail.pictures] == ["masterboard"]
    assert mail.subject.startswith("[titan g1] Re: Your move: turn 1, move step")


def test_etiquette_16_a_bystander_hears_the_net_result_when_a_turn_ends(
    make_table: Callable[..., Table],
) -> None:
    """``notify turn`` (the default): the others are not mailed for each of the first
    player's steps, but once his turn ends, with everything they may see since."""
    table = at_first_split(make_table, ("Ann", "Bob", "Cy"), notify=None)
    first = to_act(table.state)
    assert first is not None
    others = [n for n in ("Ann", "Bob", "Cy") if n != first]
    rng = random.Random(3)
    told: dict[str, list[str]] = {name: [] for name in others}
    mails = 0
    while to_act(table.state) == first:
        line, _ = robot.choose_order(table.state, rng)
        sent = table.orders(first, line)
        mails += 1
        assert sent.status == inbox.PROCESSED, sent.note
        assert len(sent.to(address(first))) == 1  # his answer, carrying his report
        for name in others:
            told[name] += [m.body for m in sent.to(address(name), "report")]
        if to_act(table.state) == first:
            assert told == {name: [] for name in others}, "mailed in the middle of a turn"
    assert mails > 2
    for name in others:
        (report,) = told[name]
        assert f"{first} split" in report and f"{first} rolled a" in report, report
        assert table.record.reported[name] == table.state.version


def test_a_player_whose_legion_is_attacked_is_told_at_once(store: EventStore) -> None:
    """Bob's legion is engaged: he is mailed; Cy, not in it, waits for the turn's end."""
    table = engaged_table(store, notify=None)
    sent = table.orders("Ann", "engage 1")
    assert sent.status == inbox.PROCESSED, sent.note
    assert [m.kind for m in sent.to(address("Bob"))] == ["report"]
    assert sent.to(address("Cy")) == []
    assert table.record.reported["Cy"] == 1  # held: his next report tells it


def test_notify_all_mails_every_change(make_table: Callable[..., Table]) -> None:
    table = at_first_split(make_table, ("Ann", "Bob", "Cy"), notify=None)
    first = to_act(table.state)
    others = [n for n in ("Ann", "Bob", "Cy") if n != first]
    answer = table.orders(others[0], "notify all", ref=False).one(address(others[0]), "reply")
    assert "> notify all" in (answer.private_body or "")
    assert "after every change you may see" in (answer.private_body or "")
    assert table.record.notify[others[0]] == "all"
    line, _ = robot.choose_order(table.state, random.Random(1))
    sent = table.orders(str(first), line)
    assert sent.status == inbox.PROCESSED and not sent.note, sent.note
    assert [m.kind for m in sent.to(address(others[0]))] == ["report"]
    assert sent.to(address(others[1])) == []


def test_a_bad_notify_line_is_refused_with_what_to_write(make_table: Callable[..., Table]) -> None:
    table = at_first_split(make_table, notify=None)
    answer = table.orders("Bob", "notify sometimes", ref=False).one(address("Bob"), "reply")
    private = answer.private_body or ""
    assert "refused (E-NOTIFY)" in private
    assert "'notify digest 18:00'" in private
    assert "Bob" not in table.record.notify
