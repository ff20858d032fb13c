"""
Maneuvers in a battle (11.x, Complete Sequence 2.5.6.4.x.1): entering (10.1,
10.2: a tower's defender deploys), moving, resetting a partial maneuver, the
characters left off after the first maneuver, and the summoned angel or
reinforcement that never entered going back (Wolff 14.1/15.1).  Where a
character may go is ``maneuver.reach``.
"""

from __future__ import annotations

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.battle_base import (
    check_actor,
    land_of,
)
from moderator.rules.battlefield import ATTACKER, DEFENDER, Fighter
from moderator.rules.errors import RuleError
from moderator.rules.maneuver import reach
from moderator.rules.state import Battle, Engagement, GameState


def entry_hexes(battle: Battle, side: str, joining: bool = False) -> tuple[str, ...]:
    """Wolff 2.2/10.1/10.2: where each side enters; a tower's defender deploys inside."""
    land = land_of(battle)
    if side == ATTACKER:
        return land.entrances[battle.entry]
    if land.tower and not joining:
        return land.deploy
    return land.entrances["defender-" + battle.entry]


def _first_maneuver(battle: Battle, side: str) -> bool:
    return side not in battle.entered


def _find_fighter(battle: Battle, side: str, c: cmd.Maneuver) -> Fighter:
    mine = [f for f in battle.fighters if f.side == side and not f.slain]
    if c.from_hex is not None:
        found = next((f for f in mine if f.hex == c.from_hex.upper()), None)
        if found is None:
            raise RuleError("E-MANEUVER", f"none of your characters stands on {c.from_hex}")
        if c.creature and found.creature != c.creature:
            raise RuleError("E-MANEUVER", f"the character on {found.hex} is a {found.creature}")
        return found
    waiting = [f for f in mine if f.hex is None and f.creature == c.creature]
    if not waiting:
        where = ", ".join(f"{f.creature} on {f.hex}" for f in mine if f.creature == c.creature)
        raise RuleError(
            "E-MANEUVER",
            f"no {c.creature} of yours waits to enter"
            + (f"; name the hex of the one to move ({where})" if where else ""),
        )
    return waiting[0]


def maneuver(state: GameState, c: cmd.Maneuver) -> list[ev.Event]:
    """11.x: one character moves, enters or (in a tower, turn 1) deploys."""
    battle, _, side = check_actor(state, c.player, "maneuver")
    fighter = _find_fighter(battle, side, c)
    if any(fid == fighter.id for fid, _ in battle.moved):
        raise RuleError(
            "E-MANEUVER", f"that {fighter.creature} has already moved this maneuver (11.0)"
        )
    to_hex = c.to_hex.upper()
    legal = destinations(battle, fighter)
    if to_hex not in legal:
        options = ", ".join(sorted(legal)) or "nowhere"
        raise RuleError(
            "E-MANEUVER",
            f"the {fighter.creature} cannot move to {to_hex}; it may move to: {options}",
        )
    return [ev.FighterMoved(fighter=fighter.id, from_hex=fighter.hex, to_hex=to_hex)]


def destinations(battle: Battle, fighter: Fighter) -> set[str]:
    """Where a fighter may go in this maneuver."""
    land = land_of(battle)
    joining = fighter.id in (battle.summoned, battle.reinforced)
    first = _first_maneuver(battle, fighter.side) or (joining and fighter.hex is None)
    if fighter.hex is None and not first:
        return set()
    if land.tower and fighter.side == DEFENDER and first and not joining:
        taken = {f.hex for f in battle.fighters if f.hex is not None}
        return set(land.deploy) - taken  # 10.2: deployed, not moved
    entries = entry_hexes(battle, fighter.side, joining)
    return set(reach(land, fighter, battle.fighters, first_maneuver=first, entry_hexes=entries))


def reset(state: GameState, player: str) -> list[ev.Event]:
    battle, _, side = check_actor(state, player, "maneuver")
    if not battle.moved:
        raise RuleError("E-RESET", "nothing has moved in this maneuver yet")
    return [ev.ManeuverReset(side=side)]


def end_maneuver(state: GameState, player: str) -> list[ev.Event]:
    """2.5.6.4.x.1: the first maneuver slays the characters left off (10.1)."""
    battle, eng, side = check_actor(state, player, "maneuver")
    out: list[ev.Event] = joins_undone(battle, eng, side, {f.id: f.hex for f in battle.fighters})
    joined = {e.fighter for e in out if isinstance(e, ev.JoinUndone)}
    if _first_maneuver(battle, side):
        left = tuple(
            f.id for f in battle.fighters if f.side == side and f.hex is None and f.id not in joined
        )
        if left:
            out.append(ev.FightersLeftOff(fighters=left))
    out.append(ev.BattleStepBegan(turn=battle.turn, phasing=battle.phasing, step="after-maneuver"))
    return out


def joins_undone(
    battle: Battle, eng: Engagement, side: str, hexes: dict[int, str | None]
) -> list[ev.Event]:
    """
    Wolff 10.1/14.1/15.1: ``side``'s summoned angel or reinforcement that is not on the
    battleland (``hexes``: where each fighter stands) goes back as if it never joined.
    One that entered and was slain since is off the board too, but stays slain.
    """
    out: list[ev.Event] = []
    for f in battle.fighters:
        if f.id not in (battle.summoned, battle.reinforced) or f.side != side:
            continue
        if hexes.get(f.id) is not None or f.slain:
            continue
        source = battle.summoned_from if f.id == battle.summoned else None
        marker = eng.attacker if f.side == ATTACKER else eng.defender
        out.append(ev.JoinUndone(fighter=f.id, marker=marker, creature=f.creature, source=source))
    return out
