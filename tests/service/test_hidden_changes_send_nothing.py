"""
Small mails (issue 28) against a player who reads what he is sent, and what he is not.

Since a report carries the masterboard only when what it shows changed, and the players
shown the same board share one picture, whether a mail comes, its size, its pictures
and their file names could tell a player of a change he may not see.  Two games that
differ only in what is hidden from the others (what a split put in each half, a
legion one showed to another alone) must send a third the very same mails, and the one
shown the same but for what he was shown.

The step references (``ref g1-N``) are in the comparison too: each counts only the
moves its reader was told of (``moderator.schedule.reference``), so a reference that
jumped further than a bystander's mails tell would itself have said that something
passed between others.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from email import message_from_bytes, policy
from pathlib import Path
from typing import Any

from moderator.pictures.cache import digest
from moderator.pictures.spec import MASTERBOARD, Picture
from moderator.ports import StoredMail
from moderator.reporting.views import legal_orders
from moderator.rules import events as ev
from moderator.rules.legal import to_act
from moderator.rules.state import Step
from moderator.runners.commands import order
from moderator.runtime.outgoing import picture_spec, render_outgoing
from moderator.store import EventStore, inbox
from moderator.testing.clocks import TestClock
from moderator.testing.stores import open_store, sqlite_url
from moderator.usecases.games.shown import own_doing

from .conftest import Table, address

NAMES = ("Ann", "Bob", "Cy")
#: Who moves first in seed 5, who is shown a legion, and who may see neither.
MOVER, SHOWN, BYSTANDER = "Cy", "Ann", "Bob"


def _at_split(make_table: Callable[..., Table], on: EventStore | None) -> Table:
    """Seed 5, colours chosen, the mover to split, every change mailed to everybody."""
    table = make_table(NAMES, seed=5, notify="all", on=on)
    while table.state.step is Step.COLOUR:
        actor = to_act(table.state)
        assert actor is not None
        assert order(table.store, "g1", actor, legal_orders(table.state, actor)[0])[1]
    table.set_record(reported=dict.fromkeys(NAMES, table.state.version))
    assert to_act(table.state) == MOVER and table.state.step is Step.SPLIT
    return table


def _seen(mails: list[StoredMail], name: str) -> list[tuple[Any, ...]]:
    """What ``name`` is sent: kind, subject, both texts (step references included) and
    the pictures' specs."""
    return [
        (m.kind, m.subject, m.body, m.private_body or "", m.pictures)
        for m in mails
        if m.recipient == address(name)
    ]


def _play(table: Table, halves: str, show: bool) -> list[StoredMail]:
    """The mover splits off ``halves``, maybe shows the new legion to ``SHOWN``, rolls
    and moves both halves; the mails all that sent."""
    tower = next(lg.marker for lg in table.state.legions.values() if lg.owner == MOVER)
    child = next(
        line.split()[3].rstrip(":")
        for line in legal_orders(table.state, MOVER)
        if line.startswith(f"split {tower} into ")
    )
    lines = [f"split {tower} into {child}: {halves}", *([f"show {child} to {SHOWN}"] * show)]
    sent = [table.orders(MOVER, "\n".join([*lines, "roll"]))]
    for marker in (tower, child):
        move = next(c for c in legal_orders(table.state, MOVER) if c.startswith(f"move {marker} "))
        sent.append(table.orders(MOVER, move))
    sent.append(table.orders(MOVER, "done"))
    assert all(s.status == inbox.PROCESSED for s in sent), [s.note for s in sent]
    return [mail for s in sent for mail in s.mails]


def test_wolff_4_5_what_a_split_hid_and_a_show_change_nothing_a_bystander_is_sent(
    make_table: Callable[..., Table], tmp_path: Path, clock: TestClock
) -> None:
    """The bystander gets the same mails, boards and all, whatever the mover's halves
    hold and whether he showed one to another; the one shown gets the same signed text
    and pictures, the show only in his private part."""
    other = open_store(sqlite_url(tmp_path, "other.sqlite"), clock=clock)
    try:
        plain = _play(_at_split(make_table, None), "angel centaur centaur gargoyle", False)
        shown = _play(_at_split(make_table, other), "angel ogre ogre gargoyle", True)
    finally:
        other.close()
    assert _seen(plain, BYSTANDER) == _seen(shown, BYSTANDER)
    boards = [p for seen in _seen(plain, BYSTANDER) for p in seen[4]]
    assert any(p["kind"] == MASTERBOARD for p in boards)  # the moves changed the board
    before, after = _seen(plain, SHOWN), _seen(shown, SHOWN)
    assert [(s[0], s[2], s[4]) for s in before] == [(s[0], s[2], s[4]) for s in after]
    assert f"{MOVER} shows" in str(after[0][3]) and f"{MOVER} shows" not in str(before[0][3])



def test_a_shared_board_picture_names_nothing_but_the_game_and_its_turn(
    make_table: Callable[..., Table], clock: TestClock
) -> None:
    """Players sent the same board get the same PNG part: its file name and description
    name the game and the turn, it has no Content-ID, and neither the picture's spec
    nor its digest (the cache's key) is anywhere in the mail."""
    mails = _play(_at_split(make_table, None), "angel centaur centaur gargoyle", False)
    last = {
        name: next(m for m in reversed(mails) if m.recipient == address(name) and m.pictures)
        for name in (BYSTANDER, SHOWN)
    }
    assert last[BYSTANDER].pictures == last[SHOWN].pictures
    parts = {}
    for name, mail in last.items():
        raw = render_outgoing(mail, None, None, clock.now()).as_bytes()
        for picture in mail.pictures:
            spec = picture_spec(Picture.from_json(picture))
            assert digest(spec).encode() not in raw and b'"viewer"' not in raw
        (part,) = [
            p for p in message_from_bytes(raw, policy=policy.default).walk()
            if p.get_content_type() == "image/png"
        ]
        assert part["Content-ID"] is None
        assert re.fullmatch(r"board-g1-turn\d+\.png", str(part.get_filename()))
        assert "masterboard" in str(part["Content-Description"])
        parts[name] = (part.get_filename(), str(part["Content-Description"]), part.get_content())
    assert parts[BYSTANDER] == parts[SHOWN]


def test_an_event_a_player_may_not_see_counts_neither_way_for_his_pictures(
    make_table: Callable[..., Table],
) -> None:
    """Whether a change was only the player's own doing (no picture then) was decided on
    every event since his last picture, those he may not see too: a declaration made
    between two others alone (Wolff 9.3) made his own moves count as another's play, so
    the board he then got told him something had passed between them."""
    state = _at_split(make_table, None).state
    moved = ev.LegionMoved(marker="Br01", from_land=600, to_land=7)
    between = ev.NoMoreProposals(player=SHOWN, visible_to=frozenset({SHOWN, BYSTANDER}))
    assert own_doing([(moved, state)], MOVER)
    assert own_doing([(between, state), (moved, state)], MOVER)
    seen = ev.NoMoreProposals(player=SHOWN, visible_to=frozenset({SHOWN, MOVER}))
    assert not own_doing([(seen, state), (moved, state)], MOVER)  # one he sees counts
