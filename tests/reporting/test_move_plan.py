"""
The move list of the report that asks for the roll (issue 24, item 3): for each legion
and each roll, the lands the rules would allow once that roll had come, without rolling.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from moderator.reporting.move_plan import move_plan, plan_lines
from moderator.rules import commands as cmd
from moderator.rules.decide import apply
from moderator.rules.dice import ScriptedDice
from moderator.rules.evolve import replay
from moderator.rules.movement import legion_moves
from moderator.rules.positions import position_event
from moderator.rules.state import GameState, Step

#: Ann (score 420: her Titan may teleport) to split or roll; Bob's legions on 3 and 107.
SPLITTING: dict[str, Any] = {
    "players": [
        {"name": "Ann", "color": "Red", "tower": 100, "score": 420},
        {"name": "Bob", "color": "Black", "tower": 400},
    ],
    "turn": 3,
    "active": "Ann",
    "phase": "split",
    "legions": [
        {"marker": "Rd01", "land": 100, "contents": ["Titan", "Angel", "Ogre"]},
        {"marker": "Rd02", "land": 104, "contents": ["Ogre", "Troll"]},
        {"marker": "Bk01", "land": 107, "contents": ["Titan", "Gargoyle"]},
        {"marker": "Bk02", "land": 3, "contents": ["Ogre"]},
    ],
}


def _state(data: dict[str, Any] | None = None) -> GameState:
    return replay([position_event(copy.deepcopy(data or SPLITTING))])


def _rolled(state: GameState, value: int) -> GameState:
    """The game once Ann has rolled ``value``: the roll order, decided by the rules."""
    rolled, _ = apply(state, cmd.Roll(player="Ann"), ScriptedDice([value]))
    assert rolled.step is Step.MOVE and rolled.roll == value
    return rolled


def test_each_roll_lists_what_the_rules_allow_once_it_has_come() -> None:
    state = _state()
    plans = move_plan(state, "Ann")
    assert [(p.marker, p.land) for p in plans] == [("Rd01", 100), ("Rd02", 104)]
    for value in range(1, 7):
        rolled = _rolled(state, value)
        for plan in plans:
            legal = legion_moves(rolled, rolled.legions[plan.marker])
            moves = plan.rolls[value - 1]
            assert moves.roll == value
            assert moves.lands == tuple(o.land for o in legal if o.teleport is None)
            assert moves.tower == tuple(o.land for o in legal if o.teleport == "tower")
            assert moves.titan == tuple(o.land for o in legal if o.teleport == "titan")
    rd01 = plans[0].rolls
    assert all(not moves.tower and not moves.titan for moves in rd01[:5])
    assert rd01[5].tower and rd01[5].titan == (3, 107)  # 8.2: onto Bob's legions


def test_the_list_marks_teleports_and_the_enemies_a_move_would_engage() -> None:
    lines = plan_lines(_state(), "Ann")
    text = " ".join(line.strip() for line in lines)
    assert lines[0].startswith("Rd01 from 100: 1 → 3 (Bk02), 41, 101; 2 → ")
    assert "; 6 → 3 (Bk02), 138, or tower teleport to 1, 2, 4," in text
    assert text.endswith(
        "or Titan teleport to 3 (Bk02), 107 (Bk01) Rd02 from 104: 1 → 103; "
        "2 → 102; 3 → 101; 4 → 142; 5 → 141; 6 → 140"
    )
    assert all(len(line) <= 76 for line in lines)
    assert all(line.startswith(("Rd0", "    ")) for line in lines)
    assert "\u00a0" not in text


def test_a_line_breaks_between_rolls_or_inside_a_teleports_list_only() -> None:
    """So that no line starts with a land that reads as a roll's number."""
    lines = plan_lines(_state(), "Ann")
    so_far = lines[0]
    for line in lines[1:]:
        if not line.startswith("    "):
            so_far = line
            continue
        starts_a_roll = re.match(r"[1-6] → ", line.strip()) is not None
        in_a_teleport = "teleport to" in so_far.split("; ")[-1] and so_far.endswith(",")
        assert starts_a_roll or in_a_teleport, (so_far, line)
        so_far += " " + line.strip()
    assert any(re.match(r"    [1-6] → ", line) for line in lines)
    assert any(line.startswith("    ") and not re.match(r"    [1-6] ", line) for line in lines)


def test_no_list_unless_the_player_is_about_to_roll() -> None:
    state = _state()
    assert plan_lines(state, "Bob") == []  # not his turn
    assert plan_lines(_rolled(state, 3), "Ann") == []  # rolled: 'legal' lists the moves
    muster = copy.deepcopy(SPLITTING)
    muster["phase"] = "muster"
    assert plan_lines(_state(muster), "Ann") == []


def test_a_legion_with_nowhere_to_go_on_a_roll_says_so() -> None:
    """104's one sign leads to 103; with Ann's own legion there, a 1 takes Rd02 nowhere
    (a legion passes its own but does not end on one, Wolff 6.2)."""
    boxed = copy.deepcopy(SPLITTING)
    boxed["legions"].append({"marker": "Rd03", "land": 103, "contents": ["Troll"]})
    lines = plan_lines(_state(boxed), "Ann")
    rd02 = next(line for line in lines if line.startswith("Rd02"))
    assert rd02.startswith("Rd02 from 104: 1 → nowhere; 2 → 102; 3 → 101;")
