"""Orders for the roll given ahead: ``on roll N: ...`` (issue 15; no die before its
order, Wolff 1.3)."""

from __future__ import annotations

from collections.abc import Callable

from moderator.orders.conditional import read_block, split
from moderator.reporting.views import legal_orders
from moderator.rules import events as ev
from moderator.rules.evolve import evolve
from moderator.rules.legal import to_act
from moderator.rules.state import GameState
from moderator.store import inbox
from moderator.usecases.games.dice import CountingDice

from .conftest import Table, address
from .test_reports import SPLIT, at_first_split


def _first_move(state: GameState, player: str, roll: int) -> str:
    """A legal move for ``roll``, planned on a copy of the game as a player would."""
    rolled = evolve(state, ev.MovementRolled(player=player, roll=roll))
    return next(o for o in legal_orders(rolled, player) if o.startswith("move "))


def _after_split(table: Table) -> GameState:
    from moderator.runners.commands import order

    assert order(table.store, "g1", "Ann", SPLIT)[1]
    return table.state


def test_wolff_1_3_the_orders_for_the_roll_that_came_are_carried_out(
    make_table: Callable[..., Table],
) -> None:
    table = at_first_split(make_table, notify=None)
    state = _after_split(table)
    plans = {roll: _first_move(state, "Ann", roll) for roll in range(1, 7)}
    blocks = [f"on roll {roll}: {move}" for roll, move in plans.items()]
    sent = table.orders("Ann", "\n".join(["roll", *blocks]))
    assert sent.status == inbox.PROCESSED and not sent.note, sent.note
    (rolled,) = [e for e in table.store.load("g1") if isinstance(e, ev.MovementRolled)]
    moved = [e for e in table.store.load("g1") if isinstance(e, ev.LegionMoved)]
    assert len(moved) == 1  # exactly the move planned for the roll that came
    private = sent.one(address("Ann"), "reply").private_body or ""
    assert f"> on roll {rolled.roll}: {plans[rolled.roll]}" in private
    assert f"You rolled a {rolled.roll}: these orders follow." in private
    assert f"> (on roll) {plans[rolled.roll]}" in private
    others = [r for r in plans if r != rolled.roll]
    assert private.count(f"Not used: you rolled a {rolled.roll}.") == len(others)


def test_no_orders_for_the_roll_that_came_leave_the_game_waiting_for_him(
    make_table: Callable[..., Table],
) -> None:
    table = at_first_split(make_table, notify=None)
    state = _after_split(table)
    coming = CountingDice.from_record(table.record.dice).roll(1)[0]  # the test peeks
    blocks = [f"on roll {r}: {_first_move(state, 'Ann', r)}" for r in range(1, 7) if r != coming]
    sent = table.orders("Ann", "\n".join(["roll", *blocks, "done"]))
    private = sent.one(address("Ann"), "reply").private_body or ""
    assert table.state.roll == coming and to_act(table.state) == "Ann"
    assert not [e for e in table.store.load("g1") if isinstance(e, ev.LegionMoved)]
    assert f"you rolled a {coming} and gave no orders for it" in private
    assert "refused (E-ON-ROLL)" in private and "What you may write now:" in private
    assert "- Unprocessed" in private and "    done" in private


def test_on_roll_lines_in_a_mail_that_rolls_nothing_are_not_used(
    make_table: Callable[..., Table],
) -> None:
    table = at_first_split(make_table, notify=None)
    state = _after_split(table)
    block = f"on roll 2: {_first_move(state, 'Ann', 2)}"
    private = table.orders("Ann", f"{block}\nstatus").one(address("Ann"), "reply").private_body
    assert "Not used: this mail rolled no movement die." in (private or "")
    assert table.state.version == state.version


def test_an_unreadable_on_roll_line_carries_out_nothing(make_table: Callable[..., Table]) -> None:
    table = at_first_split(make_table, notify=None)
    before = table.state.version
    answer = table.orders("Ann", f"{SPLIT}\nroll\non roll seven: move Bu01 to 1").one(
        address("Ann"), "reply"
    )
    private = answer.private_body or ""
    assert "refused (E-ON-ROLL)" in private and "'on roll 3: move Rd01 to 6" in private
    assert table.state.version == before


def test_on_roll_lines_are_read_with_their_rolls_and_orders() -> None:
    block = read_block("On roll 3, 4: move Rd01 to 6;  move Rd02 to 9 ;")
    assert block.rolls == {3, 4} and block.orders == ("move Rd01 to 6", "move Rd02 to 9")
    plan, bad = split(["roll", "on roll 5: done", "on roll 1 or 2: done", "on roll: x"])
    assert plan.lines == ("roll",) and bad[0][0] == "on roll: x"
    assert plan.for_roll(2) is not None and plan.for_roll(6) is None
