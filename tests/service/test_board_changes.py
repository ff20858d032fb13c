"""
Small mails (issue 28): whether a report carries the masterboard is decided by what
the board shows (markers, heights, scores), compared with the board the player was
last shown, not by which lands events named.  A battle's steps leave the board as it
was until a legion's height changes, so the reports of a battle do not carry the same
board again and again.
"""

from __future__ import annotations

from moderator.pictures.spec import BATTLE, MASTERBOARD
from moderator.reporting.views import legal_orders
from moderator.rules.legal import to_act
from moderator.runners.commands import new_game
from moderator.store import EventStore
from moderator.usecases.mail.handler import MailGameHandler

from .conftest import MODERATOR, Table, carries_report, seat_players
from .test_reports import ENGAGED


def _engaged(store: EventStore) -> Table:
    new_game(store, "g1", None, seed=3, position=ENGAGED)
    seat_players(store, "g1", ["Ann", "Bob", "Cy"])
    table = Table(store, MailGameHandler(None, MODERATOR))
    table.set_record(
        allow_secrets=True,
        reported=dict.fromkeys(["Ann", "Bob", "Cy"], 1),
        notify=dict.fromkeys(["Ann", "Bob", "Cy"], "all"),
    )
    return table


def _reports(table: Table, name: str, line: str) -> dict[str, list[str]]:
    """The kinds of picture each player's report carries after ``name`` sends ``line``."""
    sent = table.orders(name, line)
    return {
        mail.recipient.split("@")[0]: [p["kind"] for p in mail.pictures]
        for mail in sent.mails
        if carries_report(mail)
    }


def test_the_steps_of_a_battle_do_not_send_the_unchanged_board_again(store: EventStore) -> None:
    """Before, the engaged land counted as changed at every step of the battle, so every
    report of a battle carried the same board again."""
    table = _engaged(store)
    _reports(table, "Ann", "engage 1")
    assert _reports(table, "Bob", "no more proposals") == {"ann": [], "bob": []}
    assert _reports(table, "Ann", "fight") == {"ann": [BATTLE], "bob": [], "cy": []}
    assert _reports(table, "Ann", "proceed") == {"ann": [], "bob": [BATTLE], "cy": []}
    assert _reports(table, "Bob", "proceed") == {"ann": [], "bob": [BATTLE], "cy": []}
    maneuver = next(c for c in legal_orders(table.state, "Bob") if c.startswith("move "))
    assert _reports(table, "Bob", maneuver) == {"ann": [], "bob": [BATTLE], "cy": []}


def test_a_move_sends_the_board_to_everybody_who_hears_of_it(store: EventStore) -> None:
    """The lands a legion left and entered changed: every report of it carries the board,
    and a move taken back changes it again."""
    table = _engaged(store)
    _reports(table, "Ann", "engage 1")
    _reports(table, "Bob", "flee")
    assert to_act(table.state) == "Ann"
    _reports(table, "Ann", "done")  # no muster: the board is as it was
    assert to_act(table.state) == "Bob"
    _reports(table, "Bob", "roll")
    move = next(c for c in legal_orders(table.state, "Bob") if c.startswith("move "))
    everybody = {"ann": [MASTERBOARD], "bob": [MASTERBOARD], "cy": [MASTERBOARD]}
    assert _reports(table, "Bob", move) == everybody
    assert _reports(table, "Bob", "undo") == everybody
