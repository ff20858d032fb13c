"""
Small mails (issue 28): whether a report carries the masterboard is decided by what
the board shows (markers, heights, scores), compared with the last board the player
was sent, not by which lands events named.  A battle's steps leave the board as it
was until a legion's height changes, so the reports of a battle do not carry the same
board again and again; and while a player is still at a step, his own orders' answers
carry no picture.  Nor does a report whose board (or battle) changed only by his own
orders since the last one he was sent (``usecases.games.shown``): the next that shows
another's play does.
"""

from __future__ import annotations

import copy

from moderator.pictures.spec import BATTLE, MASTERBOARD
from moderator.reporting.views import legal_orders
from moderator.rules import events as ev
from moderator.rules.legal import to_act
from moderator.rules.state import Step
from moderator.store import EventStore
from moderator.usecases.games.shown import battle_changed, own_doing, shown

from ..pictures.positions import board_view
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


def test_a_battle_picture_goes_when_another_changed_the_battle_not_at_each_step(
    store: EventStore,
) -> None:
    """Issue 28: the battle's picture went with every step that asked a player to act,
    the same fighters on the same hexes again and again.  It now goes when what it shows
    (each character's hex, hits and fate) changed since the last one he was sent, and not
    when only his own maneuvers changed it: he made them.  The report that asks him to
    act after the other side's maneuvers and strikes carries it."""
    table = engaged_table(store)
    for name, line in (("Ann", "engage 1"), ("Bob", "no more proposals"), ("Ann", "fight")):
        _reports(table, name, line)
    assert _reports(table, "Ann", "proceed") == {"ann": [], "bob": [BATTLE], "cy": []}
    assert _reports(table, "Bob", "proceed") == {"ann": [], "bob": [], "cy": []}  # a step
    for _ in range(2):  # both his characters onto the battleland (none left off: 10.1)
        maneuver = next(c for c in legal_orders(table.state, "Bob") if c.startswith("move "))
        assert _reports(table, "Bob", maneuver) == {"ann": [], "bob": [], "cy": []}  # his own
    assert table.state.battle is not None and table.state.battle.step == "maneuver"
    assert _reports(table, "Bob", "done") == {"ann": [], "bob": [], "cy": []}  # his own still
    assert table.state.battle is not None and table.state.battle.step == "strike"
    assert _reports(table, "Bob", "done") == {"ann": [BATTLE], "bob": [], "cy": []}
    assert to_act(table.state) == "Ann"


def test_a_move_sends_the_board_to_the_others_and_to_the_mover_with_the_next_others_play(
    store: EventStore,
) -> None:
    """The lands a legion left and entered changed: the others' reports of it carry the
    board, and so does a move taken back.  The mover's answers do not, at his move step
    nor at the next (issue 28: he wrote the moves, the text tells what they did); the
    first board that shows another's play carries his moves too, outlined."""
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
    assert not sent.report(address("Bob")).pictures
    while to_act(table.state) == "Bob":
        _reports(table, "Bob", "done")
    cy = to_act(table.state)
    _reports(table, cy, "roll")
    theirs = next(c for c in legal_orders(table.state, cy) if c.startswith("move "))
    sent = table.orders(cy, theirs)
    (board,) = sent.report(address("Bob")).pictures
    assert board["kind"] == MASTERBOARD
    ours = {300, int(move.split()[-1])}
    assert ours <= set(board["changed"]) and len(board["changed"]) > len(ours)  # since his last


def test_only_the_players_own_orders_count_as_his_own_doing(store: EventStore) -> None:
    """A legion moved by the player to act is his own doing; one moved for him at random
    (rulebook 21.2), by his standing order, or by another player is not, and the board
    goes with the report."""
    acting = engaged_table(store).state
    assert to_act(acting) == "Ann"
    moved = ev.LegionMoved(marker="Rd01", from_land=1, to_land=2)
    assert own_doing([(moved, acting)], "Ann")
    assert not own_doing([(moved, acting)], "Bob")
    drawn = ev.LateMoveDrawn(player="Ann", rolls=(3, 4), marker="Rd01", land=2)
    assert not own_doing([(drawn, acting), (moved, acting)], "Ann")
    used = ev.StandingOrderUsed(player="Ann", order="move Rd01 to 2", standing="standing")
    assert not own_doing([(used, acting), (moved, acting)], "Ann")
    assert own_doing([(ev.TurnStarted(player="Ann", turn=2), acting)], "Bob")  # shows nothing


def test_a_new_step_or_battle_turn_leaves_the_battle_picture_as_it_was() -> None:
    before = board_view("Ann")
    assert battle_changed(None, before)
    later = copy.deepcopy(before)
    later["battle"]["step"], later["battle"]["turn"] = "strike", later["battle"]["turn"] + 1
    assert not battle_changed(before, later)
    later["battle"]["characters"][0]["hits"] += 1
    assert battle_changed(before, later)


def test_the_record_of_battle_pictures_is_dropped_when_the_battle_ends(store: EventStore) -> None:
    """Each report round reads the log back to the last picture each player was sent; a
    battle picture of a battle long over would have it read back further every time."""
    table = engaged_table(store)
    for name, line in (("Ann", "engage 1"), ("Bob", "no more proposals"), ("Ann", "fight")):
        _reports(table, name, line)
    assert set(table.record.battles) == {"Ann"}
    for _ in range(60):
        if table.state.battle is None:
            break
        who = to_act(table.state)
        orders = legal_orders(table.state, who)
        pick = next((c for c in orders if c.startswith(("move ", "strike "))), None)
        _reports(table, str(who), pick or next((c for c in orders if c in ("done", "proceed")), orders[0]))
    assert table.state.battle is None and not table.record.battles


def _to_counter_concede(store: EventStore) -> Table:
    """ENGAGED's battle up to Ann's first counter-concede step: Bob (the defender) has
    entered and struck, and Ann's report of it carried the battle picture."""
    table = engaged_table(store)
    for name, line in (
        ("Ann", "engage 1"),
        ("Bob", "no more proposals"),
        ("Ann", "fight"),
        ("Ann", "proceed"),
        ("Bob", "proceed\nmove centaur to A3\nmove gargoyle to B4\ndone\ndone"),
    ):
        _reports(table, name, line)
    assert table.state.battle is not None and table.state.battle.step == "counter-concede"
    assert to_act(table.state) == "Ann"
    return table


def _ann_strikes(table: Table) -> None:
    """Ann's battle turn, in one mail: proceed, no counterstrike, her maneuver, her strike."""
    ann = "proceed\ndone\nmove ogre to A1\nmove ogre to B1\nmove titan to A2\ndone"
    table.orders("Ann", f"{ann}\nstrike A2 at A3 needing 4 with 6 dice\ndone")
    assert to_act(table.state) == "Bob"


def test_an_answer_to_his_own_maneuvers_and_strikes_carries_no_new_battle_picture(
    store: EventStore,
) -> None:
    """Issue 28: the answer to a mail that maneuvered and struck, asking him to strike
    again, carried the battle picture again (a die had decided the hits).  No character
    stands elsewhere but where his own orders put it, and the text lists each one's hits
    hex by hex: the picture goes when the other side moves."""
    table = _to_counter_concede(store)
    mine = "proceed\ndone\nmove ogre to A1\nmove ogre to B1\nmove titan to A2\ndone"
    sent = table.orders("Ann", f"{mine}\nstrike A2 at A3 needing 4 with 6 dice")
    battle = table.state.battle
    assert battle is not None and (battle.phasing, battle.step) == ("attacker", "strike")
    assert to_act(table.state) == "Ann"
    answer = sent.report(address("Ann"))
    assert "A2" in (answer.private_body or "") and answer.pictures == ()
    assert _reports(table, "Ann", "done") == {"ann": [], "bob": [BATTLE], "cy": []}


def test_a_strike_that_moved_no_creature_carries_no_new_battle_picture(
    store: EventStore,
) -> None:
    """After proceeding and a counterstrike he is asked for more strikes: only hits
    changed since the picture he was sent with the other side's maneuver."""
    table = _to_counter_concede(store)
    _ann_strikes(table)
    sent = table.orders("Bob", "proceed\nstrike A3 at A2 needing 4 with 3 dice")
    battle = table.state.battle
    assert battle is not None and battle.step == "counterstrike" and to_act(table.state) == "Bob"
    assert sent.report(address("Bob")).pictures == ()


def test_a_maneuver_request_carries_the_battle_picture_when_hits_changed(
    store: EventStore,
) -> None:
    """The maneuver is the step a player plans from the picture: the report that asks
    him to maneuver carries it though no character moved since his last, when hits or
    deaths changed it (and not when it would show just what his last one showed)."""
    table = _to_counter_concede(store)
    _ann_strikes(table)
    sent = table.orders("Bob", "proceed\nstrike A3 at A2 needing 4 with 3 dice\ndone")
    battle = table.state.battle
    assert battle is not None and (battle.turn, battle.step) == (2, "maneuver")
    assert [p["kind"] for p in sent.report(address("Bob")).pictures] == [BATTLE]


def test_hits_and_deaths_alone_leave_the_characters_where_the_picture_shows_them(
    store: EventStore,
) -> None:
    """``shown``: strikes, carries, drift and the slain leaving the battleland change no
    character's hex; another's maneuver does, and so does a move made while he was not
    the one to act."""
    table = _to_counter_concede(store)
    state = table.state
    strike = ev.StrikeRolled(striker=1, target=2, strike_number=4, rolls=(6, 5), hits=2)
    removed = ev.SlainRemoved(fighters=(2,))
    numbered = [(state.version + 1, strike, state), (state.version + 2, removed, state)]
    assert shown(numbered, None, state.version, state, "Ann").battle_stood
    moved = ev.FighterMoved(fighter=3, from_hex="A1", to_hex="B2")
    with_move = [*numbered, (state.version + 3, moved, state)]
    assert shown(with_move, None, state.version, state, "Ann").battle_stood  # Ann to act: hers
    assert not shown(with_move, None, state.version, state, "Bob").battle_stood
