"""
What every step of a battle asks first (Complete Sequence 2.5.6): whose battle
it is, which side a player fights on, whose decision the battle waits for (the
concession windows of Wolff 9.4, 10.0 and 11.1 included) and whether an order
comes from him at the right step.  Kept apart so that the modules of the battle
share it without importing one another.
"""

from __future__ import annotations

from moderator.rules.battlefield import ATTACKER, DEFENDER
from moderator.rules.errors import RuleError
from moderator.rules.state import Battle, Engagement, GameState
from moderator.rules.variant import Battleland

#: Windows in which a player may concede or proceed, and who decides.
WINDOWS = {
    "attacker-concede": "attacker",
    "defender-concede": "defender",
    "drift-concede": "nonphasing",
    "counter-concede": "nonphasing",
    "end-concede": "phasing",
}
LAST_TURN = 7  # 10.5


def other(side: str) -> str:
    return ATTACKER if side == DEFENDER else DEFENDER


def battle_of(state: GameState) -> tuple[Battle, Engagement]:
    if state.battle is None or state.engagement is None:
        raise RuleError("E-NO-BATTLE", "no battle is being fought now")
    return state.battle, state.engagement


def player_of(eng: Engagement, side: str) -> str:
    return eng.attacker_player if side == ATTACKER else eng.defender_player


def side_of(eng: Engagement, player: str) -> str:
    return ATTACKER if player == eng.attacker_player else DEFENDER


def acting_side(battle: Battle) -> str:
    """The side whose decision the battle waits for."""
    step = battle.step
    if step in WINDOWS:
        who = WINDOWS[step]
        if who == "phasing":
            return battle.phasing
        if who == "nonphasing":
            return battle.nonphasing
        return who
    if step == "concede-reply":
        return other(battle.attempt or battle.phasing)
    if step == "carry" and battle.carry is not None:
        return battle.fighter(battle.carry[0]).side
    if step == "counterstrike":
        return battle.nonphasing
    return battle.phasing


def land_of(battle: Battle) -> Battleland:
    return battle.battleland


def check_actor(state: GameState, player: str, *steps: str) -> tuple[Battle, Engagement, str]:
    battle, eng = battle_of(state)
    if battle.step not in steps:
        raise RuleError(
            "E-NOT-NOW",
            f"that order does not fit the battle's {battle.step} step; "
            f"send 'legal' to see what you may do",
        )
    side = side_of(eng, player)
    if acting_side(battle) != side:
        raise RuleError(
            "E-NOT-YOUR-TURN",
            f"it is {player_of(eng, acting_side(battle))}'s decision in the battle",
        )
    return battle, eng, side
