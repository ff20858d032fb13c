"""
What a real table tripped over (issue 24, items 4, 5 and part of 9), by mail: an answer
says one thing (which lines were carried out, which were refused and why, and the
reference to use next, the one its own report gives), a reference ahead of the game is
not "moved on", ``status`` is answered as of the end of the mail with what the asker
knows for certain, and the results are counted and listed as the mail wrote them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from moderator.ports import Work
from moderator.rules import events as ev
from moderator.rules.evolve import evolve
from moderator.rules.legal import to_act
from moderator.rules.state import GameState
from moderator.runners.commands import new_game
from moderator.store import EventStore, inbox
from moderator.store.unit_of_work import write
from moderator.usecases.games.planning import plan_game
from moderator.usecases.mail.handler import MailGameHandler

from .conftest import MODERATOR, Table, address, full_text, seat_players
from .test_reports import ENGAGED, SPLIT, at_first_split
from .test_standing_orders import _engaged


def _refs(text: str) -> set[str]:
    """Every reference a text sends its reader to (not the one his mail was read at)."""
    return set(re.findall(r"(?:line '|Step reference: |reference now: )(ref g1-\d+)", text))


def test_an_answer_with_a_stale_ref_and_a_show_says_the_show_was_carried_out_and_the_ref_to_use_next(
    store: EventStore,
) -> None:
    """The finding: "nothing was changed ... send 'ref g1-79'" while the show was
    carried out and the report beside it asked for g1-82."""
    table = _engaged(store)
    old = table.ref_of("Cy")
    assert table.orders("Ann", "engage 1").status == inbox.PROCESSED  # the game moves on
    read_at = table.ref_of("Cy")
    assert read_at != old
    sent = table.orders("Cy", "show Gd01 to Bob: titan\nengage 1", ref=old)
    assert sent.status == inbox.PROCESSED, sent.note
    assert any(isinstance(e, ev.LegionShown) for e in table.store.load("g1"))
    after = table.ref_of("Cy")
    assert after == read_at  # a show leaves the game, and so his reference, where it was
    (answer,) = sent.to(address("Cy"))
    assert "quotes an earlier step of game g1" in answer.body
    assert "were not carried out, but 1 other line(s) were" in answer.body
    assert "nothing was changed" not in full_text(answer)
    assert _refs(answer.body) == {after}  # the sentence and the report beside it agree
    private = answer.private_body or ""
    assert "> show Gd01 to Bob: titan\n      done." in private
    assert "> engage 1\n      refused (E-REF-STALE)" in private
    assert _refs(private) == {after}
    assert f"but the game has moved on to '{after}'" in private


def test_a_stale_ref_with_nothing_carried_out_still_says_nothing_was_changed(
    store: EventStore,
) -> None:
    table = _engaged(store)
    old = table.ref_of("Bob")
    table.orders("Ann", "engage 1")
    sent = table.orders("Bob", "fight", ref=old)
    (answer,) = sent.to(address("Bob"))
    assert "quotes an earlier step of game g1: nothing was changed" in answer.body
    assert _refs(full_text(answer)) == {table.ref_of("Bob")}


def test_a_ref_ahead_of_the_game_is_answered_as_ahead(store: EventStore) -> None:
    """The finding: a reference the game never reached was answered "has moved on"."""
    table = _engaged(store)
    now = table.ref_of("Ann")
    ahead = f"ref g1-{table.state.steps_seen('Ann') + 5}"
    sent = table.orders("Ann", "engage 1", ref=ahead)
    assert sent.status == inbox.PROCESSED and sent.note == "refused: E-REF-AHEAD"
    assert not any(isinstance(e, ev.EngagementStarted) for e in table.store.load("g1"))
    (answer,) = sent.to(address("Ann"))
    text = full_text(answer)
    assert "moved on" not in text and "earlier step" not in text
    assert "quotes a step game g1 has not reached: nothing was changed" in answer.body
    assert f"refused (E-REF-AHEAD): your mail quotes '{ahead}', a step game g1 has not " \
        f"reached (it is at '{now}')" in (answer.private_body or "")
    assert ahead.removeprefix("ref ") not in answer.body  # his words, never signed
    assert _refs(text) == {now}
    shown = table.orders("Cy", "show Gd01 to Bob", ref=f"ref g1-{table.state.steps_seen('Cy') + 9}")
    assert any(isinstance(e, ev.LegionShown) for e in table.store.load("g1"))  # Wolff 4.5
    assert "Cy shows Gd01 to Bob" in (shown.one(address("Bob"), "report").private_body or "")


#: Ann's muster step, turn 2: both her legions may muster a Gargoyle.  Bob's Bu01 is
#: five high; he will show Ann four of its characters.
MUSTERING: dict[str, Any] = {
    "players": [
        {"name": "Ann", "color": "Red", "tower": 600},
        {"name": "Bob", "color": "Blue", "tower": 300},
    ],
    "turn": 2,
    "active": "Ann",
    "phase": "muster",
    "legions": [
        {"marker": "Rd01", "land": 5, "contents": ["Titan", "Gargoyle"], "moved": True},
        {"marker": "Rd02", "land": 3, "contents": ["Angel", "Gargoyle"], "moved": True},
        {
            "marker": "Bu01",
            "land": 300,
            "contents": ["Titan", "Cyclops", "Gargoyle", "Gargoyle", "Ogre"],
        },
    ],
}


def test_status_is_answered_as_of_the_end_of_the_mail_with_what_the_player_knows(
    store: EventStore,
) -> None:
    """The finding: "Bu01 ... 5 high: 5 unknown" while the private part knew Titan,
    Cyclops and 2 Gargoyles, and "muster step; your move" though by the end of the
    same mail it was Bob's turn."""
    new_game(store, "g1", None, seed=3, position=MUSTERING)
    seat_players(store, "g1", ["Ann", "Bob"])
    table = Table(store, MailGameHandler(None, MODERATOR))
    table.set_record(allow_secrets=True, reported=dict.fromkeys(["Ann", "Bob"], 1))
    shown = table.orders("Bob", "show Bu01 to Ann: titan cyclops gargoyle gargoyle")
    assert shown.status == inbox.PROCESSED, shown.note
    sent = table.orders(
        "Ann",
        "status\nlegion Bu01\nmuster Rd01 gargoyle\nmuster Rd02 gargoyle\ndone",
    )
    assert sent.status == inbox.PROCESSED, sent.note
    assert to_act(table.state) == "Bob"
    (answer,) = sent.to(address("Ann"))
    private = answer.private_body or ""
    status = private.split("> status")[1].split("> legion Bu01")[0]
    assert f"As of the end of your mail ({table.ref}):" in status
    assert "Bob's turn: split step" in status and "Bob to act" in status
    assert "your move" not in status and "muster step" not in status
    assert "5 high: Titan, Cyclops, Gargoyle, Gargoyle, 1 unknown" in status
    assert "5 unknown" not in status
    assert "Bu01 (Anchor), Bob's, in 300, 5 high: Titan, Cyclops, Gargoyle, Gargoyle, " \
        "1 unknown to you" in private
    # the report in the same answer says the same of Bu01
    assert "Bu01 (Anchor) in 300 (Tower), 5 high: Titan, Cyclops, Gargoyle, Gargoyle, " \
        "1 unknown" in private
    assert "Cyclops" not in answer.body  # what a legion holds is never signed


def test_the_results_count_on_roll_lines_apart_from_questions(
    make_table: Callable[..., Table],
) -> None:
    """The finding: the summary counted 'on roll' lines as "questions answered"."""
    table = at_first_split(make_table)
    sent = table.orders(
        "Ann", f"{SPLIT}\nroll\non roll 1, 2, 3: legal\non roll 4, 5, 6: legal"
    )
    assert sent.status == inbox.PROCESSED, sent.note
    private = sent.one(address("Ann"), "reply").private_body or ""
    assert (
        "2 order(s) carried out, 0 refused, 1 question(s) answered,\n"
        "  2 'on roll' line(s) read, 0 line(s) not processed, 0 ignored." in private
    )


def test_the_results_list_the_lines_in_the_order_they_were_written(
    make_table: Callable[..., Table],
) -> None:
    """The finding: 'colour' and 'notify' came back in reverse order."""
    table = make_table(("Ann", "Bob"), seed=5)
    actor = to_act(table.state)
    assert actor is not None
    sent = table.orders(actor, "notify all\ncolour red\nnotify turn\nstatus", ref=True)
    assert sent.status == inbox.PROCESSED, sent.note
    private = sent.one(address(actor), "reply").private_body or ""
    lines = [line.strip() for line in private.splitlines() if line.strip().startswith("> ")]
    assert lines == ["> notify all", "> colour red", "> notify turn", "> status"]


def test_wolff_4_5_openings_seen_by_all_are_private_and_those_shown_to_two_in_no_mail(store: EventStore) -> None:
    """The finding: "commitments opened for you" also listed openings everyone saw.
    Those go in the private part, beside the battle that showed the legions to all (an
    opening names what the legion held: never signed, Wolff 4.5), without their salts;
    those shown to the two engaged players alone go in no mail before the game ends
    (with the salt one could prove to a third what the other's legion holds).  Each is
    numbered among the events every player saw."""
    planned, _ = plan_game("g1", None, None, None, ENGAGED, store.clock(), bound=True)
    with store.transaction() as tx:
        write(tx, Work(games=(planned,)))
    seat_players(store, "g1", ["Ann", "Bob", "Cy"])
    table = Table(store, MailGameHandler(None, MODERATOR))
    table.set_record(allow_secrets=True, reported=dict.fromkeys(["Ann", "Bob", "Cy"], 1))
    engaged = table.orders("Ann", "engage 1")  # the two look at each other's legion
    table.orders("Bob", "no more proposals")
    sent = table.orders("Ann", "fight")  # the battle shows both legions to all
    assert sent.status == inbox.PROCESSED and not sent.note, sent.note
    assert table.state.battle is not None
    logged, state = [], GameState()
    for event in table.store.load("g1"):
        logged.append((state.public_events + 1, event))
        state = evolve(state, event)
    openings = [(n, e) for n, e in logged if isinstance(e, ev.CommitmentOpened)]
    assert {e.visible_to for _, e in openings} == {None, frozenset({"Ann", "Bob"})}
    everyone = [
        f"public event {n}: {e.marker} opened: held {', '.join(e.contents)}"
        for n, e in openings if e.visible_to is None
    ]
    for name in ("Ann", "Bob"):
        for mail in (engaged.report(address(name)), sent.report(address(name))):
            public, private = mail.body, mail.private_body or ""
            assert " opened: " not in public
            assert private.count(" opened: ") in (0, len(everyone))  # none to the two only
            assert not [e.salt for _, e in openings if e.salt in public + private]
        fought = sent.report(address(name)).private_body or ""
        assert all(line in fought for line in everyone)
    cy = table.orders("Cy", "report").report(address("Cy"))  # all since his first report
    assert all(line in (cy.private_body or "") for line in everyone)
    assert " opened: " not in cy.body
