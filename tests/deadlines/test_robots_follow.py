"""
The robots that follow a person's order at once, and the mail he gets for it: one mail,
the answer carrying the report after the robots moved (not his answer, then their report
moments later); an order that leaves the game waiting on a person keeps its answer as
before.  A local order that hands the move to the robots wakes them as a mail would.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from typer.testing import CliRunner

from moderator.cli import app
from moderator.robots.robot import order
from moderator.robots.view import seat_view
from moderator.rules.legal import to_act
from moderator.rules.state import Step
from moderator.store import players
from moderator.testing.stores import open_store

from ..service.conftest import address, carries_report, full_text, secret_of
from .conftest import Desk
from .test_seat_keeping import _robot_orders, desk_actor_is_a_person, robot_desk, world

__all__ = ["robot_desk", "world"]  # the fixtures, shared with the seat-keeping tests


def test_an_order_the_robots_follow_at_once_gets_one_mail_the_report_after_them(
    robot_desk: Callable[..., Desk],
) -> None:
    """
    Ann plays against two robots by mail: each order that leaves her to act again gets
    its answer; the one that ends her turn, after which both robots play theirs in the
    unit of work of her mail, gets one mail too, whose report tells the step she is at
    once the robots have moved.
    """
    desk = robot_desk(("Ann",), robots=2)
    robots = [p.name for p in desk.table.state.players if p.name != "Ann"]
    desk.mails()
    woke = False
    for attempt in range(400):
        assert desk.actor == "Ann", "a robot left its move waiting"
        before = sum(len(_robot_orders(desk, robot)) for robot in robots)
        line, _ = order(seat_view(desk.table.state, "Ann"), random.Random(attempt))
        done = desk.orders("Ann", line)
        assert done.status == "processed", (line, done.note)
        (mail,) = done.to(address("Ann"))  # one mail per mail, whoever moved after her
        assert mail.kind == "reply" and carries_report(mail)
        if sum(len(_robot_orders(desk, robot)) for robot in robots) > before:
            woke = True
            break
    assert woke, "Ann never handed the move to the robots"
    assert desk.table.ref in full_text(mail)  # the step after the robots' turns
    written = desk.mails()  # every mail of the game so far: the robots' seats get none
    assert written and all(m.recipient == address("Ann") for m in written)


def test_local_order_wakes_the_robots_as_a_mail_would(tmp_path: Path) -> None:
    """
    ``local order`` as Ann in a game against two robots: the order that ends her turn
    has the robots play theirs at once, so the game waits on her again, not on a robot.
    """
    url = f"sqlite:///{tmp_path / 'games.sqlite'}"
    with open_store(url) as store, store.transaction() as tx:
        players.add_player(tx, "Ann", address("Ann"), secret=secret_of("Ann"))
    runner = CliRunner()
    done = runner.invoke(app, ["game", "new", "g1", "-p", address("Ann"), "--robots", "2",
                               "--seed", "5", "--insecure-test-seed", "--db", url])
    assert done.exit_code == 0, done.output
    handed = False
    for attempt in range(400):
        with open_store(url) as store:
            state, record = store.load_state("g1").state, store.record("g1")
        assert desk_actor_is_a_person(state, record), "a robot's seat was left waiting"
        if handed or state.step is Step.OVER:
            break
        assert to_act(state) == "Ann"
        line, _ = order(seat_view(state, "Ann"), random.Random(attempt))
        done = runner.invoke(app, ["local", "order", "g1", line, "--as", "Ann", "--db", url])
        assert done.exit_code == 0, done.output
        with open_store(url) as store:
            after = store.load_state("g1").state
        handed = (after.turn, after.active) != (state.turn, state.active)
    assert handed, "Ann's turn never ended"
