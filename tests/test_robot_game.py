"""Whole games between robot players, through the order language."""

from __future__ import annotations

import copy
import random

import pytest

from moderator import robot
from moderator.orders import parse_order, render_order
from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules import setup
from moderator.rules.codec import decode, encode
from moderator.rules.decide import advance, apply, decide
from moderator.rules.dice import NoDice
from moderator.rules.evolve import evolve, replay
from moderator.rules.legal import to_act
from moderator.rules.positions import position_event
from moderator.rules.state import GameState, Step
from moderator.usecases.games.dice import CountingDice
from moderator.usecases.games.robot_games import play_robot_game

TWO_TITANS = {
    "players": [
        {"name": "Ann", "color": "Red", "tower": 600},
        {"name": "Bob", "color": "Blue", "tower": 300},
    ],
    "turn": 3,
    "active": "Ann",
    "phase": "engage",
    "roll": 3,
    "legions": [
        {"marker": "Rd01", "land": 6, "contents": ["Titan", "Ogre"]},
        {"marker": "Bu01", "land": 6, "contents": ["Gargoyle", "Centaur"]},
        {"marker": "Bu02", "land": 300, "contents": ["Titan", "Ogre"]},
    ],
}


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (6, 3), (6, 4)])
def test_a_robot_game_finishes(players: int, seed: int) -> None:
    turns_seen: list[int] = []
    summary = play_robot_game(players, seed, progress=lambda s: turns_seen.append(s.turn))
    assert summary.finished and summary.state.step is Step.OVER
    assert summary.turns == summary.state.turn and turns_seen[0] == 1
    assert isinstance(summary.events[-1], ev.GameOver)
    if summary.winner is None:  # the last Titans died together (Wolff 9.5/19.3): a draw
        assert sorted(summary.eliminated) == sorted(summary.players)
        assert "Winner: nobody (a draw)" in summary.text()
    else:
        assert summary.winner in summary.players and summary.winner not in summary.eliminated
        assert sorted([*summary.eliminated, summary.winner]) == sorted(summary.players)
        assert "Winner: " + summary.winner in summary.text()


def test_robot_games_with_battles_reach_a_winner_and_replay_exactly() -> None:
    """Robots fight battles; such games still end with a winner, and replay to the same state."""
    won = 0
    for players, seed in [(2, 1), (2, 3), (4, 1), (4, 3), (6, 1), (6, 2)]:
        summary = play_robot_game(players, seed)
        assert summary.finished
        kinds = {type(e) for e in summary.events}
        assert {ev.BattleStarted, ev.StrikeRolled, ev.BattleEnded} <= kinds
        fights = [e for e in summary.events if isinstance(e, ev.EngagementResolved)]
        assert any(e.how in ("battle", "time loss") for e in fights)
        assert replay(summary.events) == summary.state
        assert replay(decode(encode(e)) for e in summary.events) == summary.state
        if summary.winner is not None:
            won += 1
            assert sorted([*summary.eliminated, summary.winner]) == sorted(summary.players)
    assert won >= 4, "most robot games with battles should end with a winner"


def test_replay_of_a_robot_game_equals_its_final_state() -> None:
    summary = play_robot_game(4, 11)
    assert replay(summary.events) == summary.state
    assert replay(decode(encode(e)) for e in summary.events) == summary.state


def test_the_same_seed_plays_the_same_game() -> None:
    a, b = play_robot_game(3, 5), play_robot_game(3, 5)
    assert a.events == b.events and a.winner == b.winner


def test_robot_orders_round_trip_and_avoid_excluded_commands() -> None:
    rng = random.Random(0)
    dice = CountingDice(seed=8)
    events = setup.start_game(["Ann", "Bob", "Cy"], dice)
    events += advance(replay(events))
    state = replay(events)
    while to_act(state) is not None:
        line, command = robot.choose_order(state, rng)
        assert not isinstance(command, cmd.Withdraw | cmd.UndoMove | cmd.ResetManeuver)
        assert render_order(command, state) == line
        assert parse_order(line, command.player, state) == command
        if robot.loses_titan(state, command):
            assert all(robot.loses_titan(state, c) for c in robot.candidates(state))
        for e in decide(state, command, dice):
            state = evolve(state, e)
    assert state.step is Step.OVER


def test_loses_titan() -> None:
    state = replay([position_event(TWO_TITANS)])
    state, _ = apply(state, cmd.Engage(player="Ann", land=6), NoDice())
    assert to_act(state) == "Bob"
    assert not robot.loses_titan(state, cmd.Concede(player="Bob"))
    ann_out = (("Ogre", "Titan"), ())
    state, _ = apply(state, cmd.Propose(player="Bob", proposals=(ann_out,)), NoDice())
    assert robot.loses_titan(state, cmd.Concede(player="Ann"))
    assert robot.loses_titan(state, cmd.Accept(player="Ann", number=1))
    assert robot.loses_titan(state, cmd.Propose(player="Ann", proposals=(ann_out,)))
    choices = robot.candidates(state)
    assert choices and not any(robot.loses_titan(state, c) for c in choices)
    assert {type(c) for c in choices} == {cmd.Propose, cmd.NoMore}
    for seed in range(20):
        assert not robot.loses_titan(state, robot.choose(state, random.Random(seed)))
    # With nothing else left, the robot gives way rather than stall.
    state, _ = apply(state, cmd.NoMore(player="Ann"), NoDice())
    state, _ = apply(state, cmd.Concede(player="Bob"), NoDice())
    assert state.legions["Rd01"].contents == ("Ogre", "Titan")


def test_robot_fights_rather_than_concede_its_titan() -> None:
    state = replay([position_event(TWO_TITANS)])
    state, _ = apply(state, cmd.Engage(player="Ann", land=6), NoDice())
    state, _ = apply(state, cmd.NoMore(player="Bob"), NoDice())
    assert [type(c) for c in robot.candidates(state)] == [cmd.Fight]
    assert robot.choose(state, random.Random(1)) == cmd.Fight(player="Ann")


def test_robot_concedes_when_nothing_else_is_left(monkeypatch: pytest.MonkeyPatch) -> None:
    state = replay([position_event(TWO_TITANS)])
    state, _ = apply(state, cmd.Engage(player="Ann", land=6), NoDice())
    state, _ = apply(state, cmd.NoMore(player="Bob"), NoDice())
    monkeypatch.setattr(robot, "legal_commands", lambda s: [cmd.Concede(player="Ann")])
    assert [type(c) for c in robot.candidates(state)] == [cmd.Concede]
    assert robot.choose(state, random.Random(1)) == cmd.Concede(player="Ann")


def _battle_between_titans(defender: list[str]) -> GameState:
    """TWO_TITANS with Bob's legion ``defender``; Ann fights, both pass the first windows."""
    data = copy.deepcopy(TWO_TITANS)
    data["legions"][1]["contents"] = defender
    state = replay([position_event(data)])
    for command in (
        cmd.Engage(player="Ann", land=6),
        cmd.NoMore(player="Bob"),
        cmd.Fight(player="Ann"),
        cmd.Proceed(player="Ann"),
        cmd.Proceed(player="Bob"),
    ):
        state, _ = apply(state, command, NoDice())
    return state


def test_robot_enters_its_whole_legion() -> None:
    seven = ["Centaur", "Centaur", "Gargoyle", "Lion", "Ogre", "Ogre", "Troll"]
    for seed in range(10):
        state = _battle_between_titans(seven)
        rng = random.Random(seed)
        assert state.battle is not None and state.battle.step == "maneuver"
        while state.battle is not None and state.battle.step == "maneuver":
            command = robot.choose(state, rng)
            assert not isinstance(command, cmd.Concede)
            state, events = apply(state, command, NoDice())
            assert not any(isinstance(e, ev.FightersLeftOff) for e in events)
        assert state.battle is not None
        defenders = [f for f in state.battle.fighters if f.side == "defender"]
        assert len(defenders) == 7 and all(f.hex is not None for f in defenders)


def test_robot_proceeds_strikes_and_keeps_its_titan() -> None:
    state = _battle_between_titans(["Gargoyle", "Centaur"])
    rng = random.Random(3)
    dice = CountingDice(seed=3)
    kinds: set[type[cmd.Command]] = set()
    while state.battle is not None:
        command = robot.choose(state, rng)
        kinds.add(type(command))
        if command.player == "Ann":  # Ann's legion holds her Titan
            assert not isinstance(command, cmd.Concede)
        state, _ = apply(state, command, dice)
    assert {cmd.Maneuver, cmd.Done, cmd.Proceed, cmd.Strike} <= kinds
    assert state.step is not Step.BATTLE
