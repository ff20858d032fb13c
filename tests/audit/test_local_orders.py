"""
``local order`` on a game by mail (issue 23, item 7): the game master's orders from the
command line go through the same dice and seals as a mail's, with the game's id and a
trigger naming his command, so the game's audit verifies afterwards.  Before, their
salts were made for the game ``''`` and their dice bound to the constant ``local``, and
``verify`` accused an honest game ("the commitment to Bu01 is not to what the events
say it held").
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from moderator import robot
from moderator.audit.bundle import make_bundle
from moderator.audit.verify import verify
from moderator.ports import Work
from moderator.rules import events as ev
from moderator.rules.legal import to_act
from moderator.runners.commands import order
from moderator.store.unit_of_work import write
from moderator.testing.stores import open_store, sqlite_url
from moderator.usecases.games.planning import plan_game

GAME = "g9"


@pytest.mark.long
def test_wolff_1_3_local_orders_on_a_game_by_mail_keep_its_audit_true(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path, "local.sqlite")
    store = open_store(url)
    try:
        planned, state = plan_game(
            GAME, ["Ann", "Bob"], None, None, None, datetime(2026, 11, 26, tzinfo=UTC), bound=True
        )
        with store.transaction() as tx:
            write(tx, Work(games=(planned,)))
        seed = planned.record.dice.seed if planned.record is not None else None
        assert seed is not None and seed.bit_length() > 64  # a game by mail: a secret seed
        rng = random.Random(7)
        for _ in range(120):  # splits, moves, engagements: hidden legions and their commitments
            player = to_act(state)
            if player is None:
                break
            line, _ = robot.choose_order(state, rng)
            reply, ok = order(store, GAME, player, line)
            assert ok, reply
            state = store.load_state(GAME).state
        events = store.load(GAME)
    finally:
        store.close()
    seals = [e for e in events if isinstance(e, ev.OrderSealed) and e.order != "start"]
    assert seals and all(e.trigger.startswith("local:") for e in seals)
    assert len({e.trigger for e in seals}) == len(seals)  # each command its own dice
    assert any(isinstance(e, ev.LegionCommitted) for e in events)
    verdict = verify(make_bundle(GAME, seed, events, "2026-11-26T12:00:00Z", "Ann"))
    assert verdict.ok, verdict.problem
    assert any("orders decided again" in line for line in verdict.checked)
