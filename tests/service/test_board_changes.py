"""
Small mails (issue 28): whether a report carries the masterboard is decided by what
the board shows (markers, heights, scores), compared with the last board the player
was sent, not by which lands events named.  A battle's steps leave the board as it
was until a legion's height changes, so the reports of a battle do not carry the same
board again and again; and while a player is still at a step, his own orders' answers
carry no picture: the next report that asks him for another step does.
"""

from __future__ import annotations

from moderator.pictures.spec import BATTLE, MASTERBOARD
from moderator.reporting.views import legal_orders
from moderator.rules.legal import to_act
from moderator.rules.state import Step
from moderator.store import EventStore

from .conftest import Table, address, carries_report
from .test_reports import engaged_table


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
    table = engaged_table(store)
    _reports(table, "Ann", "engage 1")
    assert _reports(table, "Bob", "no more proposals") == {"ann": [], "bob": []}
    assert _reports(table, "Ann", "fight") == {"ann": [BATTLE], "bob": [], "cy": []}
    assert _reports(table, "Ann", "proceed") == {"ann": [], "bob": [BATTLE], "cy": []}
    assert _reports(table, "Bob", "proceed") == {"ann": [], "bob": [BATTLE], "cy": []}
    maneuver = next(c for c in legal_orders(table.state, "Bob") if c.startswith("move "))
    assert _reports(table, "Bob", maneuver) == {"ann": [], "bob": [], "cy": []}  # his own
    assert table.state.battle is not None and table.state.battle.step == "maneuver"
    assert _reports(table, "Bob", "done") == {"ann": [], "bob": [BATTLE], "cy": []}
    assert table.state.battle is not None and table.state.battle.step == "strike"


def test_a_move_sends_the_board_to_the_others_and_to_the_mover_at_his_next_step(
    store: EventStore,
) -> None:
    """The lands a legion left and entered changed: the others' reports of it carry the
    board, and so does a move taken back.  The mover's answers do not while he is still
    at his move step (he wrote the moves); the answer that asks him for his next step
    carries the board with all of them."""
    table = engaged_table(store)
    _reports(table, "Ann", "engage 1")
    _reports(table, "Bob", "flee")
    assert to_act(table.state) == "Ann"
    _reports(table, "Ann", "done")  # no muster: the board is as it was
    assert to_act(table.state) == "Bob"
    _reports(table, "Bob", "roll")
    move = next(c for c in legal_orders(table.state, "Bob") if c.startswith("move "))
    others = {"ann": [MASTERBOARD], "bob": [], "cy": [MASTERBOARD]}
    assert _reports(table, "Bob", move) == others
    assert _reports(table, "Bob", "undo") == others
    _reports(table, "Bob", move)
    sent = table.orders("Bob", "done")
    assert to_act(table.state) == "Bob" and table.state.step is not Step.MOVE
    (board,) = sent.report(address("Bob")).pictures
    assert board["kind"] == MASTERBOARD
    assert set(board["changed"]) == {300, int(move.split()[-1])}  # since his last board
