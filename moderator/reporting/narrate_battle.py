"""
Battle events told in plain English: steps, maneuvers, strikes and carries, slain
characters and the battle's end, naming characters by owner and hex.  Split out of
``narrate`` to keep each module to one job; ``narrate.describe`` looks lines up here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from moderator.reporting.visibility import is_bookkeeping
from moderator.reporting.wording import Describers, _and, _legion, _owner, registrar
from moderator.rules import events as ev
from moderator.rules.battle import acting_side
from moderator.rules.battlefield import ATTACKER, DEFENDER, Fighter
from moderator.rules.state import Battle, GameState

#: Battle event class -> its describer.
DESCRIBERS: Describers = {}
_on = registrar(DESCRIBERS)


def _sides(state: GameState) -> tuple[Battle | None, dict[str, str], dict[str, str]]:
    """The battle (if any), its sides' players and their legions' markers."""
    battle = state.battle if state is not None else None
    eng = state.engagement if state is not None else None
    if eng is None:
        return battle, {ATTACKER: "the attacker", DEFENDER: "the defender"}, {}
    players = {ATTACKER: eng.attacker_player, DEFENDER: eng.defender_player}
    return battle, players, {ATTACKER: eng.attacker, DEFENDER: eng.defender}


def _fighter(state: GameState, fighter_id: int) -> Fighter | None:
    battle = state.battle if state is not None else None
    if battle is None:
        return None
    return next((f for f in battle.fighters if f.id == fighter_id), None)


def _who(state: GameState, fighter_id: int, *, at: bool = False) -> str:
    """ "Ann's cyclops" (with its hex, "Ann's cyclops (D4)", when ``at``)."""
    f = _fighter(state, fighter_id)
    if f is None:
        return f"character #{fighter_id}"
    _, players, _ = _sides(state)
    text = f"{players[f.side]}'s {f.creature.lower()}"
    return f"{text} ({f.hex})" if at and f.hex else text


def _grouped(state: GameState, fighter_ids: Iterable[int]) -> str:
    """ "Bob's ogre, troll; Ann's cyclops": characters by owner, in the order given."""
    _, players, _ = _sides(state)
    by_owner: dict[str, list[str]] = {}
    for fid in fighter_ids:
        f = _fighter(state, fid)
        if f is None:
            by_owner.setdefault("", []).append(f"character #{fid}")
        else:
            by_owner.setdefault(players[f.side], []).append(f.creature.lower())
    return "; ".join(
        f"{owner}'s {', '.join(names)}" if owner else ", ".join(names)
        for owner, names in by_owner.items()
    )


def _hits(n: int) -> str:
    return f"{n} hit" if n == 1 else f"{n} hits"


@_on(ev.BattleStarted)
def _battle_started(e: ev.BattleStarted, state: GameState) -> str:
    eng = state.engagement if state is not None else None
    where = f"Battle at {e.land} ({e.terrain})"
    if e.battleland_roll is not None:  # Badlands: the die rolled for the defender chose it
        where = f"Battle at {e.land} ({e.terrain}, by a roll of {e.battleland_roll} for the defender)"
    if eng is None:
        return f"{where}: the attacker enters from the {e.entry}"
    return (
        f"{where}: {_legion(eng.attacker, state)} attacks {_legion(eng.defender, state)} "
        f"from the {e.entry}"
    )


_STEP_WORDS = {
    "maneuver": "maneuver",
    "strike": "strikes",
    "counterstrike": "counterstrikes",
}


@_on(ev.BattleStepBegan)
def _battle_step_began(e: ev.BattleStepBegan, state: GameState) -> str:
    battle, players, _ = _sides(state)
    if battle is None or is_bookkeeping(e):
        return f"Battle turn {e.turn}: {e.step} step"
    who = players[acting_side(replace(battle, turn=e.turn, phasing=e.phasing, step=e.step))]
    if e.step in _STEP_WORDS:
        return f"Battle turn {e.turn}: {who}'s {_STEP_WORDS[e.step]}"
    return f"Battle turn {e.turn}: {who} may concede or proceed"


@_on(ev.FighterMoved)
def _fighter_moved(e: ev.FighterMoved, state: GameState) -> str:
    if e.from_hex is None:
        return f"{_who(state, e.fighter)} enters at {e.to_hex}"
    return f"{_who(state, e.fighter)} moves {e.from_hex} -> {e.to_hex}"


@_on(ev.ManeuverReset)
def _maneuver_reset(e: ev.ManeuverReset, state: GameState) -> str:
    _, players, _ = _sides(state)
    return f"{players[e.side]} takes the maneuver back: every character moved returns"


@_on(ev.FightersLeftOff)
def _fighters_left_off(e: ev.FightersLeftOff, state: GameState) -> str:
    return f"Slain for not entering the battleland (10.1): {_grouped(state, e.fighters)}"


@_on(ev.JoinUndone)
def _join_undone(e: ev.JoinUndone, state: GameState) -> str:
    where = f"goes back to {e.source}" if e.source else "goes back to the caretaker"
    owner = _owner(e.marker, state)
    who = f"{owner}'s {e.creature.lower()}" if owner else e.creature.lower()
    return f"{who} did not enter the battleland and {where}"


@_on(ev.DriftDamaged)
def _drift_damaged(e: ev.DriftDamaged, state: GameState) -> str:
    victims = ", ".join(_who(state, fid, at=True) for fid in e.fighters)
    return f"Drift damage: 1 hit to {victims}"


@_on(ev.StrikeRolled)
def _strike_rolled(e: ev.StrikeRolled, state: GameState) -> str:
    verb = "rangestrikes" if e.rangestrike else "strikes"
    via = f" via {' '.join(e.via)}" if e.via else ""
    rolls = " ".join(str(r) for r in e.rolls)
    text = (
        f"{_who(state, e.striker, at=True)} {verb} {_who(state, e.target, at=True)}{via} "
        f"needing {e.strike_number}: {rolls} — {_hits(e.hits)}"
    )
    target = _fighter(state, e.target)
    if target is not None and e.hits >= target.remaining:
        text += f"; the {target.creature.lower()} is slain"
        excess = e.hits - target.remaining
        if excess and e.carry and not e.rangestrike:
            text += f", {_hits(excess)} to spare"
    return text


@_on(ev.CarryAllocated)
def _carry_allocated(e: ev.CarryAllocated, state: GameState) -> str:
    battle, players, _ = _sides(state)
    striker = _fighter(state, battle.carry[0]) if battle and battle.carry else None
    who = players[striker.side] if striker is not None else "The striker"
    if not e.allocations:
        return f"{who} carries no hits over"
    parts = []
    for fid, damage in e.allocations:
        f = _fighter(state, fid)
        name = f"the {f.creature.lower()} on {f.hex}" if f is not None else f"character #{fid}"
        parts.append(f"{damage} to {name}")
    return f"{who} carries {_and(parts)}"


@_on(ev.ConcessionAttempted)
def _concession_attempted(e: ev.ConcessionAttempted, state: GameState) -> str:
    _, players, _ = _sides(state)
    return f"{players[e.side]} attempts to concede"


@_on(ev.SlainRemoved)
def _slain_removed(e: ev.SlainRemoved, state: GameState) -> str:
    return f"Slain: {_grouped(state, e.fighters)}"


@_on(ev.BattleEnded)
def _battle_ended(e: ev.BattleEnded, state: GameState) -> str:
    battle, players, markers = _sides(state)

    def legion(side: str) -> str:
        return f"{players[side]}'s {markers[side]}" if side in markers else players[side]

    if e.how == "concession" and e.conceded is not None:
        return f"Battle over: {legion(e.conceded)} concedes"
    if e.how == "time loss":
        return (
            f"Battle over: time ran out after seven battle turns; {legion(ATTACKER)} "
            "is eliminated (10.5)"
        )
    if battle is None:
        return f"Battle over ({e.how})"
    if e.how == "titan":
        dead = [
            s
            for s in (ATTACKER, DEFENDER)
            if any(f.side == s and f.creature == "Titan" and f.slain for f in battle.fighters)
        ]
        return (
            "Battle over: "
            + " and ".join(f"{players[s]}'s Titan" for s in dead)
            + (" are slain" if len(dead) > 1 else " is slain")
        )
    beaten = [
        s for s in (ATTACKER, DEFENDER) if all(f.slain for f in battle.fighters if f.side == s)
    ]
    if len(beaten) > 1:
        return f"Battle over: both {legion(ATTACKER)} and {legion(DEFENDER)} are eliminated"
    if beaten:
        return f"Battle over: {legion(beaten[0])} is eliminated"
    return f"Battle over ({e.how})"
