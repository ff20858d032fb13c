"""
Rulebook 21.2 as a lateness policy (moderator.rules.lateness): what the moderator does
for a player whose movement or maneuver time ran out, instead of Wolff 20.4's refusal.
The clock's side (a deadline passing, the dice bound to it, the audit) is in
tests/service/test_lateness_clock.py.
"""

from __future__ import annotations

import pytest

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.dice import NoDice, ScriptedDice
from moderator.rules.errors import RuleError
from moderator.rules.evolve import replay
from moderator.rules.lateness import draw, late_command, random_move, random_move_due
from moderator.rules.legal import legal_commands
from moderator.rules.refusal import refusal_command
from moderator.rules.state import Step
from tests.rules.test_battle_sequence import ANN, BOB, fresh, run


def _board(game_at, **kw):
    return game_at(
        [
            ("Rd01", 34, "Titan Angel Minotaur Lion"),
            ("Rd02", 35, "Troll Troll"),
            ("Bu01", 300, "Titan Minotaur"),
        ],
        **kw,
    )


@pytest.mark.parametrize(
    ("choices", "rolls", "index", "used"),
    [
        (2, [1], 0, 1),
        (2, [6], 1, 1),
        (4, [5, 6, 4], 3, 3),  # 5 and 6 fall in the leftover and are read again
        (6, [6], 5, 1),
        (7, [1, 2], 1, 2),  # two dice read as base six: 0 * 6 + 1
        (7, [6, 6, 1, 1], 0, 4),  # 35 is past the fair 35 values, so read again
    ],
)
def test_21_2_the_dice_draw_each_choice_as_likely(choices, rolls, index, used) -> None:
    """21.2 "randomly determine": a draw among any number of choices from six-sided dice, none favoured."""
    drawn, rolled = draw(ScriptedDice(rolls), choices)
    assert drawn == index and rolled == tuple(rolls[:used])


def test_21_2_every_choice_is_reachable_and_equally_often() -> None:
    """21.2: over every value of the dice read, each of seven choices is drawn the same number of times."""
    counts = [0] * 7
    for first in range(1, 7):
        for second in range(1, 7):
            value = (first - 1) * 6 + second - 1
            if value < 35:
                counts[draw(ScriptedDice([first, second]), 7)[0]] += 1
    assert counts == [5] * 7


def test_21_2_a_late_mover_has_a_legion_drawn_and_moved(game_at) -> None:
    """21.2: the mover who has not moved a legion in time has one of them drawn, then one of its legal moves."""
    game = _board(game_at, roll=1)
    assert random_move_due(game.state)
    assert late_command(game.state) is None  # the draw comes first
    move, events = random_move(game.state, ANN, ScriptedDice([2, 1]))
    drawn = events[0]
    assert drawn == ev.LateMoveDrawn(player=ANN, rolls=(2, 1), marker="Rd02", land=move.land)
    assert move.marker == "Rd02"
    moved = next(e for e in events if isinstance(e, ev.LegionMoved))
    assert (moved.marker, moved.to_land) == ("Rd02", move.land)
    state = replay(events, game.state)
    assert not random_move_due(state)
    assert late_command(state) == cmd.Done(player=ANN)  # the movement then ends


def test_21_2_moves_made_in_time_stand_and_the_movement_ends(game_at) -> None:
    """21.2: a mover who moved a legion in time keeps his moves; nothing is drawn, his movement ends."""
    game = _board(game_at, roll=1)
    game.do(cmd.MoveLegion(player=ANN, marker="Rd02", land=36))
    assert not random_move_due(game.state)
    assert late_command(game.state) == cmd.Done(player=ANN)
    assert refusal_command(game.state) == cmd.Withdraw(player=ANN)  # Wolff 20.4's answer
    with pytest.raises(RuleError) as info:
        random_move(game.state, ANN, NoDice())
    assert info.value.code == "E-LATE"


def test_21_2_a_mover_who_has_not_rolled_has_the_roll_made_for_him(game_at) -> None:
    """21.2: the movement time covers the roll too: the moderator rolls, then draws the move."""
    game = _board(game_at, phase="split")
    assert game.state.step is Step.SPLIT
    assert late_command(game.state) == cmd.Roll(player=ANN)


def test_21_2_the_first_turn_split_falls_back_to_wolff(started) -> None:
    """21.2 speaks of moving: a player who has not made his first turn's split gets Wolff 20.4's default."""
    game = started()
    assert game.state.step is Step.SPLIT
    assert late_command(game.state) is None


def test_21_2_a_late_maneuver_ends_and_characters_not_on_the_battleland_are_eliminated() -> None:
    """21.2: at a battle maneuver deadline, characters not yet brought onto the battleland are eliminated."""
    state = fresh(1, ["Minotaur"], ["Centaur", "Centaur"])
    state = run(run(state, cmd.Proceed(player=ANN)), cmd.Proceed(player=BOB))
    state = run(state, cmd.Maneuver(player=BOB, creature="Centaur", to_hex="F4"))
    command = late_command(state)
    assert command == cmd.Done(player=BOB)
    assert refusal_command(state) != command  # Wolff 20.4 would reset and attempt to concede
    state = run(state, command)
    assert state.battle is not None
    left = [f for f in state.battle.fighters if f.side == "defender"]
    assert sorted((f.hex or "off", f.slain) for f in left) == [("F4", False), ("off", True)]


def test_21_2_says_nothing_of_other_decisions(game_at) -> None:
    """21.2 limits moving and maneuvering only: an engagement's choice keeps Wolff 20.4's default."""
    game = game_at(
        [
            ("Rd01", 3, "Titan Minotaur", True),
            ("Bu01", 3, "Titan Minotaur"),
            ("Bu02", 300, "Minotaur Minotaur"),
        ],
        phase="engage",
        roll=1,
    )
    assert late_command(game.state) is None


def test_21_2_split_offs_that_must_part_have_one_moved_by_the_dice(game_at) -> None:
    """21.2 with 4.3: a late mover whose split-offs still share a land has one of them drawn and moved."""
    game = _board(game_at, phase="split")
    game.do(cmd.Split(player=ANN, parent="Rd01", child="Rd03", characters=("Minotaur", "Lion")))
    game.do(cmd.Roll(player=ANN), 1)
    game.do(cmd.MoveLegion(player=ANN, marker="Rd02", land=36))
    assert cmd.Done(player=ANN) not in legal_commands(game.state)  # Rd01 and Rd03 must part (4.3)
    assert random_move_due(game.state) and late_command(game.state) is None
    move, events = random_move(game.state, ANN, ScriptedDice([6, 1]))
    assert move.marker == "Rd03"  # drawn between the two split-offs only
    state = replay(events, game.state)
    assert late_command(state) == cmd.Done(player=ANN)
