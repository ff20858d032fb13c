"""
What follows in a battle without anyone deciding (Complete Sequence 2.5.6):
drift damage before the strikes (hazard chart), the steps after each window,
the end checks (2.5.6.4.x.8, Wolff 16.0, the time loss of 10.5) and the outcome
of the battle as an ``EngagementResolved`` (16.0, 19.3, Wolff 9.4/9.5).
"""

from __future__ import annotations

from collections.abc import Callable

from moderator.rules import events as ev
from moderator.rules.battle_base import (
    LAST_TURN,
    battle_of,
    land_of,
    other,
)
from moderator.rules.battlefield import ATTACKER, DEFENDER, Fighter, terrain
from moderator.rules.state import Battle, GameState


def drift_victims(battle: Battle) -> list[Fighter]:
    """Hazard chart: non-natives in drift take one hit at the start of each strike phase."""
    land = land_of(battle)
    return [
        f
        for f in battle.fighters
        if f.hex is not None
        and not f.slain
        and terrain(land, f.hex) == "drift"
        and not f.native_to("drift")
    ]


def ending(battle: Battle) -> str | None:
    """2.5.6.4.x.8 and Wolff 16.0: a side eliminated, a Titan slain, or turn 7 over."""
    for side in (ATTACKER, DEFENDER):
        if not any(not f.slain for f in battle.fighters if f.side == side):
            return "elimination"
    if any(f.creature == "Titan" and f.slain for f in battle.fighters):
        return "titan"
    if battle.turn == LAST_TURN and battle.phasing == ATTACKER:
        return "time loss"
    return None


def next_events(state: GameState) -> list[ev.Event] | None:
    """Advance through a transitional battle step; None when a player must decide."""
    battle = state.battle
    if battle is None:
        return None
    step = battle.step
    turn, phasing = battle.turn, battle.phasing

    def begin(new_step: str, new_turn: int = turn, new_phasing: str = phasing) -> ev.Event:
        return ev.BattleStepBegan(turn=new_turn, phasing=new_phasing, step=new_step)

    if step == "after-attacker-concede":
        return [begin("defender-concede")]
    if step == "after-defender-concede":
        return [begin("maneuver")]
    if step == "after-maneuver":
        victims = drift_victims(battle)
        if any(f.side == phasing and f.remaining <= 1 for f in victims):
            return [begin("drift-concede")]
        return _drift_then_strike(victims, begin)
    if step == "after-drift-concede":
        return _drift_then_strike(drift_victims(battle), begin)
    if step == "after-strike":
        return [begin("counter-concede")]
    if step == "after-counter-concede":
        return [begin("counterstrike")]
    if step == "after-counterstrike":
        slain = tuple(f.id for f in battle.fighters if f.slain and f.hex is not None)
        out: list[ev.Event] = [ev.SlainRemoved(fighters=slain)] if slain else []
        return [*out, ev.BattleStepBegan(turn=turn, phasing=phasing, step="end-check")]
    if step == "end-check":
        if ending(battle) is not None:
            return [begin("end-concede")]
        if phasing == DEFENDER:
            return [begin("maneuver", turn, ATTACKER)]
        return [begin("maneuver", turn + 1, DEFENDER)]
    if step == "after-end-concede":
        return [ev.BattleEnded(how=ending(battle) or "elimination")]
    return None


def _drift_then_strike(victims: list[Fighter], begin: Callable[[str], ev.Event]) -> list[ev.Event]:
    out: list[ev.Event] = (
        [ev.DriftDamaged(fighters=tuple(f.id for f in victims))] if victims else []
    )
    return [*out, begin("strike")]


# -- the outcome (2.5.6.5 onwards) -------------------------------------------------------------------


def resolve(state: GameState) -> ev.EngagementResolved:
    """
    What the battle cost each legion and who won: 16.0, 19.3, Wolff 9.4/9.5
    (conceding after the opponent's Titan or whole legion is slain is mutual
    elimination), 10.5 (a time loss eliminates the attacker and scores nothing).
    """
    battle, eng = battle_of(state)

    def lost(side: str) -> tuple[str, ...]:
        gone = [
            f
            for f in battle.fighters
            if f.side == side
            and (
                f.slain
                or battle.conceded == side
                or (battle.ending == "time loss" and side == ATTACKER)
            )
        ]
        return tuple(sorted(f.creature for f in gone))

    def beaten(side: str) -> bool:
        mine = battle.side_of(side)
        return all(f.slain for f in mine) or any(f.creature == "Titan" and f.slain for f in mine)

    a_loss, d_loss = lost(ATTACKER), lost(DEFENDER)
    if battle.conceded is not None:
        winner_side: str | None = None if beaten(other(battle.conceded)) else other(battle.conceded)
    elif battle.ending == "time loss":
        winner_side = DEFENDER
    else:
        losers = [side for side in (ATTACKER, DEFENDER) if beaten(side)]
        winner_side = other(losers[0]) if len(losers) == 1 else None
    how = {"concession": "concession", "time loss": "time loss"}.get(battle.ending or "", "battle")
    winner = (
        None if winner_side is None else (eng.attacker if winner_side == ATTACKER else eng.defender)
    )
    points = 0
    if winner_side is not None and how != "time loss":
        loser = state.legions[eng.defender if winner_side == ATTACKER else eng.attacker]
        points = state.legion_value(d_loss if winner_side == ATTACKER else a_loss, loser.owner)
    return ev.EngagementResolved(
        land=eng.land,
        how=how,
        attacker_losses=a_loss,
        defender_losses=d_loss,
        winner=winner,
        points=points,
    )
