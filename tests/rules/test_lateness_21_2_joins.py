"""
Rulebook 21.2 and a character that joined a battle: what a late maneuver does to an
angel summoned in it (moderator.rules.lateness with battle_maneuver.joins_undone).

21.2 eliminates the characters "not brought on the Battleland" in time, but Wolff
10.1/14.0/15.0/15.1 say a summoned angel that does not enter was never summoned: it
goes back to the legion it came from.  The late maneuver ends as one ended in time
would, so the angel goes back rather than being slain.
"""

from __future__ import annotations

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.lateness import late_command
from tests.rules.test_battle_sequence import (
    ANN,
    _first_blood_then_attacker_maneuver,
    run,
    run_events,
)


def test_21_2_with_wolff_15_1_a_summoned_angel_not_entered_in_time_goes_back_to_its_legion() -> None:
    """21.2 and Wolff 15.1: an angel summoned but not on the battleland at the deadline returns to its legion, unslain."""
    state = _first_blood_then_attacker_maneuver()
    state = run(state, cmd.Summon(player=ANN, lord="Angel", source="Bu03"))
    assert state.legions["Bu03"].contents == ("Gargoyle",)
    late = late_command(state)
    assert late == cmd.Done(player=ANN)
    state, events = run_events(state, late)
    assert [e.creature for e in events if isinstance(e, ev.JoinUndone)] == ["Angel"]
    assert not any(isinstance(e, ev.FightersLeftOff) for e in events)  # not eliminated
    assert state.legions["Bu03"].contents == ("Angel", "Gargoyle")
    assert "Angel" not in state.legions["Bu01"].contents
    assert state.battle is not None
    assert all(f.creature != "Angel" for f in state.battle.fighters if f.side == "attacker")


def test_21_2_a_summoned_angel_entered_in_time_stays_in_the_battle() -> None:
    """21.2: the angel brought onto the battleland before the deadline fights on; the late maneuver keeps it."""
    state = _first_blood_then_attacker_maneuver()
    state = run(state, cmd.Summon(player=ANN, lord="Angel", source="Bu03"))
    state = run(state, cmd.Maneuver(player=ANN, creature="Angel", to_hex="A1"))
    late = late_command(state)
    assert late == cmd.Done(player=ANN)
    state = run(state, late)
    assert state.battle is not None
    assert any(f.creature == "Angel" and f.hex == "A1" and not f.slain for f in state.battle.fighters)
    assert "Angel" in state.legions["Bu01"].contents
