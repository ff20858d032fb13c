"""
Who may join a battle in progress: the angel summoned in the attacker's maneuver
after a defender is slain (15.0, 15.3) and the defender's reinforcement in his
fourth maneuver (14.0, 14.1), with the living height that limits both.  The
joined character must still enter (see ``battle_maneuver``).
"""

from __future__ import annotations

from collections import Counter

from moderator.records import replace
from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.battle_base import (
    battle_of,
    check_actor,
)
from moderator.rules.battlefield import ATTACKER, DEFENDER
from moderator.rules.errors import RuleError
from moderator.rules.muster import MAX_HEIGHT, muster_options
from moderator.rules.state import Battle, GameState


def living_height(battle: Battle, side: str) -> int:
    """14.1/15.0: characters in the legion now, not counting the slain."""
    return sum(1 for f in battle.fighters if f.side == side and not f.slain)


def may_summon(state: GameState) -> bool:
    """15.0/15.3: the attacker's first maneuver after the first defender that entered is slain."""
    battle = state.battle
    return (
        battle is not None
        and battle.step == "maneuver"
        and battle.phasing == ATTACKER
        and battle.summon_turn == battle.turn
        and battle.summoned is None
        and not state.summoned_this_phase
        and living_height(battle, ATTACKER) < MAX_HEIGHT
    )


def may_reinforce(state: GameState) -> bool:
    """14.0/14.1: the defender's fourth maneuver, room in the legion, not yet reinforced."""
    battle = state.battle
    return (
        battle is not None
        and battle.step == "maneuver"
        and battle.phasing == DEFENDER
        and battle.turn == 4
        and battle.reinforced is None
        and living_height(battle, DEFENDER) < MAX_HEIGHT
    )


def living_contents(battle: Battle, side: str) -> tuple[str, ...]:
    return tuple(sorted(f.creature for f in battle.fighters if f.side == side and not f.slain))


def reinforce_options(state: GameState) -> list[tuple[str, tuple[str, ...]]]:
    battle, eng = battle_of(state)
    legion = state.legions[eng.defender]
    living = replace(legion, contents=living_contents(battle, DEFENDER))
    return muster_options(state, living)


def reinforce(state: GameState, c: cmd.Reinforce) -> list[ev.Event]:
    battle, eng, side = check_actor(state, c.player, "maneuver")
    if side != DEFENDER or not may_reinforce(state):
        raise RuleError(
            "E-REINFORCE",
            "a reinforcement comes only in the defender's fourth maneuver, "
            "into a legion with fewer than seven living characters (14.0, 14.1)",
        )
    options = reinforce_options(state)
    ways = [shown for creature, shown in options if creature == c.creature]
    if not ways:
        legal = ", ".join(sorted({creature for creature, _ in options})) or "nothing"
        raise RuleError(
            "E-REINFORCE", f"you cannot muster a {c.creature} here; you may muster: {legal}"
        )
    if Counter(c.showing) - Counter(living_contents(battle, DEFENDER)):
        raise RuleError(
            "E-REINFORCE", f"your living characters do not include {' '.join(c.showing)}"
        )
    return [
        ev.CreatureMustered(
            marker=eng.defender, creature=c.creature, shown=c.showing or ways[0], reinforcement=True
        ),
    ]
