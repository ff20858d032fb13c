"""
Subjects that say what arrived (issue 24, item 6), by mail: a message or a legion
shown to a digest player says who it is from; a ``notify all`` player gets one "Your
move" per step; everybody hears that the game has begun once the last colour is
chosen; a player out of the game gets the mail that says so, the game's end and its
audit, and reports only if he asks for them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from moderator.ports import StoredMail, Work
from moderator.reporting.views import legal_orders
from moderator.rules.legal import to_act
from moderator.rules.state import Step
from moderator.store import EventStore, inbox
from moderator.store.unit_of_work import write
from moderator.usecases.games import audits
from moderator.usecases.games.planning import plan_game
from moderator.usecases.mail.handler import MailGameHandler

from .conftest import MODERATOR, Sent, Table, address, seat_players
from .test_standing_orders import _engaged


def _subject(mail: StoredMail) -> str:
    """The subject without the game's tag and the reference."""
    return mail.subject.removeprefix("[titan g1] ").rsplit(" (ref ", 1)[0]


def test_a_message_to_a_digest_player_says_who_it_is_from(store: EventStore) -> None:
    """The finding: a show or tell to a digest player carried an ordinary "Turn 2 ...
    to act" subject, since his report tells all the play held back for his digest."""
    table = _engaged(store)
    table.set_record(notify={"Cy": "digest 18:00"})
    assert table.orders("Ann", "engage 1").to(address("Cy")) == []  # held for his digest
    told = table.orders("Bob", "tell Cy: Ann is strong")
    (mail,) = told.to(address("Cy"))
    assert _subject(mail) == "Message from Bob"
    assert "Engagement at 1" in mail.body  # the play held back comes with it
    shown = table.orders("Ann", "show Rd01 to Cy: titan\ntell Cy: and Bob is weak")
    (mail,) = shown.to(address("Cy"))
    assert _subject(mail) == "Message from Ann, a legion shown by Ann"


def test_one_your_move_per_step_for_a_notify_all_player(store: EventStore) -> None:
    """The finding: the 'notify all' player to act got a second "Your move" for the same
    step after somebody else's show."""
    table = _engaged(store)
    table.set_record(notify=dict.fromkeys(["Ann", "Bob", "Cy"], "all"))
    assert to_act(table.state) == "Ann"
    shown = table.orders("Cy", "show Gd01 to Ann")
    (mail,) = shown.to(address("Ann"))
    assert _subject(mail) == "A legion shown by Cy"  # she knew it was her move
    told = table.orders("Bob", "tell Ann: no")
    assert [_subject(m) for m in told.to(address("Ann"))] == ["Message from Bob"]
    engaged = table.orders("Ann", "engage 1")
    (bobs,) = engaged.to(address("Bob"))
    assert _subject(bobs) == "Your move: turn 4, negotiate step"  # a new step for Bob
    (cys,) = engaged.to(address("Cy"))
    assert _subject(cys) == "Turn 4, negotiate step, Bob to act"
    again = table.orders("Cy", "tell Bob: flee!")
    assert [_subject(m) for m in again.to(address("Bob"))] == ["Message from Cy"]
    mine = table.orders("Bob", "tell Cy: never")  # his own mail: the answer still says it
    assert _subject(mine.one(address("Bob"), "reply")) == "Re: Your move: turn 4, negotiate step"


def test_the_game_has_begun_after_the_last_colour(make_table: Callable[..., Table]) -> None:
    """The finding: after the last colour pick, default-notify players got no mail."""
    names = ("Ann", "Bob", "Cy")
    table = make_table(names, seed=5)
    last: Sent | None = None
    while table.state.step is Step.COLOUR:
        actor = to_act(table.state)
        assert actor is not None
        last = table.orders(actor, legal_orders(table.state, actor)[0])
        assert last.status == inbox.PROCESSED, last.note
    assert last is not None
    first = to_act(table.state)
    subjects = {m.recipient: _subject(m) for m in last.mails}
    assert set(subjects) == {address(n) for n in names}  # one mail each, to everybody
    for name in names:
        subject = subjects[address(name)].removeprefix("Re: ")
        if name == first:
            assert subject == "The game has begun: your move, turn 1, split step"
        else:
            assert subject == f"The game has begun: {first} to act, turn 1, split step"


#: Turn 4, Ann's engagement with Cy's last legion, his Titan alone: once he concedes
#: he is out, and Ann and Bob play on.
LAST_STAND: dict[str, Any] = {
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
        {"marker": "Rd01", "land": 1, "contents": ["Titan", "Ogre", "Ogre", "Troll"],
         "moved": True},
        {"marker": "Gd01", "land": 1, "contents": ["Titan"]},
        {"marker": "Bu01", "land": 300, "contents": ["Titan", "Gargoyle"]},
    ],
}


def _play_a_turn(table: Table, name: str) -> list[StoredMail]:
    """``name``'s masterboard turn played to its end (the first move each roll gives):
    the mails it caused."""
    mails: list[StoredMail] = []
    while to_act(table.state) == name:
        legal = [o for o in legal_orders(table.state, name) if o not in ("withdraw", "undo")]
        line = "roll" if "roll" in legal else "done" if "done" in legal else legal[0]
        sent = table.orders(name, line)
        assert sent.status == inbox.PROCESSED and not sent.note, sent.note
        mails += sent.mails
    return mails


def test_an_eliminated_player_gets_no_reports_unless_he_asks(store: EventStore) -> None:
    """The finding: an eliminated player still got two mails every game turn (38 after
    he was out in one demo).  Now: the mail that tells him he is out, then nothing
    while the others play; every change once he writes 'notify all'; and the game's
    end and its audit whatever he chose."""
    planned, _ = plan_game("g1", None, None, None, LAST_STAND, store.clock(), bound=True)
    with store.transaction() as tx:
        write(tx, Work(games=(planned,)))
    seat_players(store, "g1", ["Ann", "Bob", "Cy"])
    table = Table(store, MailGameHandler(None, MODERATOR))
    table.set_record(allow_secrets=True, reported=dict.fromkeys(["Ann", "Bob", "Cy"], 1))
    table.orders("Ann", "engage 1")
    out = table.orders("Cy", "concede")
    (answer,) = out.to(address("Cy"))
    assert _subject(answer).startswith("Re: You are out of the game")
    assert "reports only if you ask for them" in answer.body
    quiet = _play_a_turn(table, "Ann") + _play_a_turn(table, "Bob")
    assert table.state.turn == 5  # a whole game turn: each turn's end told to the others
    assert [m for m in quiet if m.recipient == address("Cy")] == []
    assert any(m.recipient == address("Bob") and m.kind == "report" for m in quiet)
    table.orders("Cy", "notify all", ref=False)
    asked = table.orders("Ann", "roll")
    assert [m.kind for m in asked.to(address("Cy"))] == ["report"]
    table.orders("Cy", "notify turn", ref=False)
    while to_act(table.state) == "Ann":
        legal = [o for o in legal_orders(table.state, "Ann") if o not in ("withdraw", "undo")]
        assert table.orders("Ann", "done" if "done" in legal else legal[0]).to(
            address("Cy")
        ) == []
    over = table.orders("Bob", "withdraw")
    assert table.state.step is Step.OVER
    kinds = sorted(m.kind for m in over.to(address("Cy")))
    assert kinds == sorted(["report", audits.AUDIT])
    (report,) = [m for m in over.to(address("Cy")) if m.kind == "report"]
    assert _subject(report) == "The game is over"
