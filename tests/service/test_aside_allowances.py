"""
Issue 23, item 5: every show and message (Wolff 4.5) counts toward its daily allowance
wherever its line stands (plain, in an ``on roll`` block, written as a standing order),
shows have an allowance like messages, and the mails one player's asides make the
moderator send another are capped per day: beyond the cap they wait for his next report.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from moderator.mail.intake import ReplyBudget
from moderator.rules import events as ev
from moderator.schedule.record import GameRecord
from moderator.store import EventStore, inbox
from moderator.testing.clocks import TestClock as Clock
from moderator.usecases.games import notify
from moderator.usecases.games.allowance import SHOW_LIMIT, TELL_LIMIT
from moderator.usecases.mail import play_mail
from moderator.usecases.mail.handler import MailGameHandler

from .conftest import MODERATOR, Table, address
from .test_conditional_orders import _after_split, _first_move
from .test_reports import at_first_split
from .test_standing_orders import _engaged


def _relayed(table: Table, sender: str) -> list[ev.MessageRelayed]:
    events = table.store.load(table.game_id)
    return [e for e in events if isinstance(e, ev.MessageRelayed) and e.sender == sender]


def _shown(table: Table, owner: str) -> list[ev.LegionShown]:
    events = table.store.load(table.game_id)
    return [e for e in events if isinstance(e, ev.LegionShown) and e.owner == owner]


def _refused(private: str, code: str) -> int:
    return private.count(f"refused ({code})")


def test_an_on_roll_flood_of_500_tells_relays_only_the_days_allowance(
    make_table: Callable[..., Table],
) -> None:
    """The attack as reported: one 'on roll 1, 2, 3, 4, 5, 6' line of 500 tells to Bob
    in the mail that rolls.  Twenty are passed on, the rest are refused with the
    allowance and when it renews, and the lines after them still run."""
    table = at_first_split(make_table, notify=None)
    _after_split(table)
    flood = "; ".join(f"tell Bob: m{n}" for n in range(500))
    block = f"on roll 1, 2, 3, 4, 5, 6: {flood}"
    assert len(block) > 7_000  # the reported mail was 7.9 KB
    sent = table.orders("Ann", f"roll\n{block}\nstatus")
    assert sent.status == inbox.PROCESSED
    relayed = _relayed(table, "Ann")
    assert [e.text for e in relayed] == [f"m{n}" for n in range(play_mail.RELAYS_A_DAY)]
    private = sent.one(address("Ann"), "reply").private_body or ""
    assert _refused(private, TELL_LIMIT) == 500 - play_mail.RELAYS_A_DAY
    assert f"at most {play_mail.RELAYS_A_DAY} messages a day in a game" in private
    assert "the allowance renews at midnight UTC, 2024-07-02 00:00 (UTC)" in private
    assert "> status" in private and "- Unprocessed" not in private  # the rest ran
    assert table.record.relayed_on("Ann", "2024-07-01") == play_mail.RELAYS_A_DAY
    (to_bob,) = sent.to(address("Bob"))  # one mail carries all twenty
    assert (to_bob.private_body or "").count("Message from Ann to Bob") == play_mail.RELAYS_A_DAY


def test_tells_in_an_on_roll_block_spend_the_allowance_and_the_move_after_them_is_made(
    make_table: Callable[..., Table],
) -> None:
    """Each roll's block tells five times and then moves: with three messages left
    today, three go, two are refused, and the move planned for the roll is carried out."""
    table = at_first_split(make_table, notify=None)
    state = _after_split(table)
    table.set_record(relayed={"Ann": f"2024-07-01 {play_mail.RELAYS_A_DAY - 3}"})
    tells = "; ".join(f"tell Bob: t{n}" for n in range(5))
    blocks = [f"on roll {r}: {tells}; {_first_move(state, 'Ann', r)}" for r in range(1, 7)]
    sent = table.orders("Ann", "\n".join(["roll", *blocks]))
    assert sent.status == inbox.PROCESSED
    assert [e.text for e in _relayed(table, "Ann")] == ["t0", "t1", "t2"]
    moved = [e for e in table.store.load("g1") if isinstance(e, ev.LegionMoved)]
    assert len(moved) == 1
    private = sent.one(address("Ann"), "reply").private_body or ""
    assert _refused(private, TELL_LIMIT) == 2
    assert table.record.relayed_on("Ann", "2024-07-01") == play_mail.RELAYS_A_DAY


def test_the_allowance_counts_across_mails_and_renews_the_next_utc_day(
    make_table: Callable[..., Table], clock: Clock
) -> None:
    table = at_first_split(make_table, notify=None)
    for mail in range(2):  # two mails of their own (the same text twice is a replay)
        table.orders("Bob", "\n".join(f"tell Ann: x{mail}-{n}" for n in range(12)))
    assert len(_relayed(table, "Bob")) == play_mail.RELAYS_A_DAY  # 12 + 8: 4 refused
    clock.advance(hours=14)  # 2024-07-02 00:00 UTC
    table.orders("Bob", "tell Ann: a new day")
    assert _relayed(table, "Bob")[-1].text == "a new day"
    assert table.record.relayed_on("Bob", "2024-07-02") == 1


def test_a_tell_written_as_a_standing_order_relays_nothing(store: EventStore) -> None:
    """Standing orders answer the game's decisions (fight, muster, summon...); a tell in
    one is refused as no standing order: it is neither kept nor passed on, costs no
    allowance, and no standing order ever sends a message for its owner."""
    table = _engaged(store)
    sent = table.orders("Bob", "standing tell Cy: the moderator speaks for me")
    private = sent.one(address("Bob"), "reply").private_body or ""
    assert "refused (E-STANDING)" in private
    assert table.record.standing.get("Bob", ()) == ()
    table.orders("Bob", "standing when attacked: fight")
    table.orders("Ann", "engage 1")  # Bob's standing order answers for him
    assert any(isinstance(e, ev.StandingOrderUsed) for e in table.store.load("g1"))
    assert _relayed(table, "Bob") == [] and table.record.relayed == {}
    assert sent.to(address("Cy")) == []


@pytest.mark.long
def test_a_flood_of_300_show_only_mails_is_refused_past_the_allowance_and_capped(
    store: EventStore,
) -> None:
    """The attack as reported: Cy mails 'show Gd01 to Bob' 300 times in a day.  Twenty
    shows are carried out (his daily allowance), every later one is refused with why,
    and Bob is mailed at once for at most the day's cap of them."""
    table = _engaged(store)
    table.handler = MailGameHandler(None, MODERATOR, budget=ReplyBudget(400))
    to_bob = 0
    refused = 0
    for n in range(300):  # each mail a text of its own: the same text twice is a replay
        sent = table.orders("Cy", f"show Gd01 to Bob\n> flood {n}")
        assert sent.status == inbox.PROCESSED
        to_bob += len(sent.to(address("Bob")))
        refused += _refused(sent.one(address("Cy"), "reply").private_body or "", SHOW_LIMIT)
    assert len(_shown(table, "Cy")) == play_mail.SHOWS_A_DAY
    assert refused == 300 - play_mail.SHOWS_A_DAY
    assert to_bob <= notify.ASIDE_MAILS_A_DAY
    assert table.record.shown_on("Cy", "2024-07-01") == play_mail.SHOWS_A_DAY
    last = table.orders("Cy", "show Gd01 to Bob\n> once more").one(address("Cy"), "reply")
    assert "at most 20 shows a day in a game" in (last.private_body or "")
    assert "renews at midnight UTC" in (last.private_body or "")


def test_asides_beyond_the_days_cap_wait_for_the_recipients_next_report(
    store: EventStore,
) -> None:
    """With a cap of 3, Cy's first three shows and messages to Bob mail him at once; the
    rest do not, yet his next report tells every one (it covers all since the last he
    was sent).  Ann's asides to Bob have a cap of their own, so hers is that report."""
    table = _engaged(store)
    table.handler = MailGameHandler(None, MODERATOR, aside_mails_a_day=3)
    at_once = 0
    for n in range(8):
        line = "show Gd01 to Bob" if n % 2 else f"tell Bob: note {n}"
        sent = table.orders("Cy", f"# mail {n}\n{line}")  # each mail its own (no replay)
        assert sent.status == inbox.PROCESSED
        at_once += len(sent.to(address("Bob")))
    assert at_once == 3
    assert table.record.aside_mails == {"Cy>Bob": "2024-07-01 3"}
    (report,) = table.orders("Ann", "tell Bob: mine go at once").to(address("Bob"))
    private = report.private_body or ""
    for n in (4, 6):  # held back, told now
        assert f'"note {n}"' in private
    assert private.count("Cy shows Gd01 to Bob") == 3  # the held shows (3, 5 and 7)
    assert '"note 2"' not in private and "mine go at once" in private
    assert "note" not in report.body and "Cy shows" not in report.body  # never signed


def test_an_old_record_without_show_counts_reads_as_none_shown() -> None:
    stored = GameRecord(relayed={"Bob": "2024-07-01 4"}).to_json()
    for key in ("shown", "aside_mails", "insecure_dice"):
        del stored[key]
    record = GameRecord.from_json(stored)
    assert record.shown_on("Bob", "2024-07-01") == 0 and record.aside_mails == {}
    assert record.relayed_on("Bob", "2024-07-01") == 4
    again = record.but(shown={"Bob": "2024-07-01 2"}, aside_mails={"Bob>Cy": "2024-07-01 1"})
    assert GameRecord.from_json(again.to_json()) == again


def test_a_refused_show_costs_nothing_of_the_allowance(store: EventStore) -> None:
    """A show the rules refuse (not his legion) is not counted: the allowance pays for
    what was shown, not for lines."""
    table = _engaged(store)
    sent = table.orders("Cy", "show Gd01 to Bob\nshow Rd01 to Bob")
    private = sent.one(address("Cy"), "reply").private_body or ""
    assert "refused (" in private and len(_shown(table, "Cy")) == 1
    assert table.record.shown_on("Cy", "2024-07-01") == 1
