"""
Small mails (issue 28): the signed part of a report listed every legion on the board in
every report, though a battle's dozens of reports, a proposal or a roll leave them as
they were.  A report whose legions stand as the player's last report listed them (none
moved, split, joined or changed height) says so in a line; the private part still lists
each (his own with what they hold, the others with what he knows of them), so he plans
from the mail alone.
"""

from __future__ import annotations

from moderator.reporting.views import legal_orders
from moderator.rules.legal import to_act
from moderator.store import EventStore

from .conftest import address
from .test_reports import engaged_table

UNCHANGED = "Legions: none moved, split, joined or changed height since your last report"


def test_a_report_whose_legions_stand_as_his_last_listed_them_says_so_in_a_line(
    store: EventStore,
) -> None:
    table = engaged_table(store)
    table.orders("Ann", "engage 1")
    sent = table.orders("Bob", "no more proposals")
    ann = sent.report(address("Ann"))
    assert f"{UNCHANGED}\n(ref g1-4)." in ann.body and "since your last report\n(ref g1-4)" in ann.body
    assert "\nLegions:\n" not in ann.body
    private = ann.private_body or ""
    assert "Your legions:\n  Rd01" in private
    assert "Other legions, with what you know for certain of them:\n  Bu01" in private


def test_a_report_lists_the_legions_again_when_one_moved(store: EventStore) -> None:
    table = engaged_table(store)
    table.orders("Ann", "engage 1")
    table.orders("Bob", "flee")
    while to_act(table.state) == "Ann":
        table.orders("Ann", "done")
    table.orders("Bob", "roll")
    move = next(c for c in legal_orders(table.state, "Bob") if c.startswith("move "))
    ann = table.orders("Bob", move).report(address("Ann"))
    assert "\nLegions:\n  Ann" in ann.body or "\nLegions:\n  Bob" in ann.body
    assert UNCHANGED not in ann.body


def test_the_first_report_and_one_sent_again_list_every_legion(store: EventStore) -> None:
    table = engaged_table(store)
    table.orders("Ann", "engage 1")
    table.orders("Bob", "no more proposals")
    again = table.orders("Ann", "report", ref=False).report(address("Ann"))
    assert "\nLegions:\n" in again.body and UNCHANGED not in again.body
