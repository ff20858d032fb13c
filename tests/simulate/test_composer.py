"""What a simulated robot writes: one order (strict), or all it can decide (default)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from moderator.orders import parse_order
from moderator.rules.battle import WINDOWS
from moderator.rules.decide import decide
from moderator.rules.dice import NoDice, ScriptedDice
from moderator.rules.evolve import evolve, replay
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step
from moderator.simulate.composer import (
    DEFAULT,
    NOTIFY_ALL,
    STANDING,
    STRICT,
    Composer,
    answered_by_standing,
)
from moderator.usecases.games.robot_games import play_robot_game


def _states(seed: int) -> Iterator[GameState]:
    """Every state of a 2-player robot game, in order."""
    state = GameState()
    for event in play_robot_game(2, seed).events:
        state = evolve(state, event)
        yield state


def _first(step: Step, seed: int = 4) -> GameState:
    return next(s for s in _states(seed) if s.step is step and to_act(s) is not None)


def _apply(state: GameState, line: str, player: str) -> GameState:
    """A planned line carried out without dice (it must be legal and roll nothing)."""
    return replay(decide(state, parse_order(line, player, state), NoDice()), state)


def test_strict_robots_ask_for_every_report_then_send_one_order_a_mail() -> None:
    state = _first(Step.SPLIT)
    robot = Composer(to_act(state) or "", STRICT, random.Random(1))
    assert robot.setup_mail() == [NOTIFY_ALL]
    assert len(robot.order_mail(state)) == 1


def test_a_default_robot_splits_rolls_and_moves_for_every_roll_in_one_mail() -> None:
    state = _first(Step.SPLIT)
    player = to_act(state) or ""
    robot = Composer(player, DEFAULT, random.Random(2))
    lines = robot.order_mail(state)
    assert lines[: len(STANDING)] == list(STANDING)
    orders = lines[len(STANDING) :]
    rolled = orders.index("roll")
    for line in orders[:rolled]:  # splits: decided without a die
        state = _apply(state, line, player)
    seen: list[int] = []
    for line in orders[rolled + 1 :]:
        head, _, block = line.partition(": ")
        values = [int(v) for v in head.removeprefix("on roll ").split(", ")]
        seen += values
        assert "mulligan" not in block  # the new roll would take its own line again
        for value in values:  # each order legal, in turn, on the game with that roll
            roll = parse_order("roll", player, state)
            after = replay(decide(state, roll, ScriptedDice([value])), state)
            for order in block.split("; "):
                after = _apply(after, order, player)
            if block.endswith("done"):
                assert after.step is not Step.MOVE
    assert sorted(seen) == [1, 2, 3, 4, 5, 6]


def test_without_conditional_orders_the_mail_ends_with_the_order_that_rolls() -> None:
    state = _first(Step.SPLIT)
    robot = Composer(to_act(state) or "", DEFAULT, random.Random(3), unsupported={"on roll"})
    lines = robot.order_mail(state)
    assert lines[-1] == "roll" and lines.count("roll") == 1


def test_a_setting_the_moderator_does_not_know_is_not_written_again() -> None:
    state = _first(Step.SPLIT)
    robot = Composer(to_act(state) or "", DEFAULT, random.Random(4))
    sent = robot.order_mail(state)
    robot.heard(sent, [(STANDING[0], "E-UNKNOWN-ORDER")])
    assert robot.setup == [] and "standing" in robot.unsupported and not robot.standing
    assert not robot.one_order_next  # only a setting was refused: plan as before
    assert not any(line.startswith("standing") for line in robot.order_mail(state))


def test_after_a_refused_order_the_next_mail_carries_one_order() -> None:
    state = _first(Step.SPLIT)
    robot = Composer(to_act(state) or "", DEFAULT, random.Random(5), setup=["notify turn"])
    robot.heard(["notify turn", "roll", "on roll 2: move Bu01 to 35"], [])
    robot.heard(
        ["roll", "on roll 2: move Bu01 to 35"], [("on roll 2: move Bu01 to 35", "E-SYNTAX")]
    )
    assert "on roll" in robot.unsupported and robot.one_order_next
    assert len(robot.order_mail(state)) == 1
    assert not robot.one_order_next


def test_settings_after_a_refused_line_are_given_again() -> None:
    state = _first(Step.SPLIT)
    robot = Composer(to_act(state) or "", DEFAULT, random.Random(6))
    robot.heard(list(STANDING), [(STANDING[1], "E-SYNTAX")])
    assert robot.standing == {STANDING[0]}  # carried out
    assert robot.setup == list(STANDING[2:])  # not processed: said again
    assert "standing" not in robot.unsupported  # a line it could not read, not the word


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_acknowledged_standing_orders_answer_their_steps(seed: int) -> None:
    everything = set(STANDING)
    for state in _states(seed):
        player = to_act(state)
        if player is None:
            continue
        if state.step is Step.MUSTER:
            assert answered_by_standing(state, player, everything)
            assert not answered_by_standing(state, player, everything - {"standing muster best"})
        battle = state.battle
        if state.step is Step.BATTLE and battle is not None and battle.step in WINDOWS:
            assert answered_by_standing(state, player, {"standing no concede"})
        if state.step in (Step.SPLIT, Step.MOVE):
            assert not answered_by_standing(state, player, everything)
