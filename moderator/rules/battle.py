"""
Battles on the battlelands, step by step as Wolff's Complete Sequence 2.5.6
lays them out: entry, maneuvers, drift, strikes and counterstrikes with
carry-over, the concession windows and attempts (Wolff 9.4, 10.0, 11.1),
summoning (15.x), reinforcement (14.x), the end checks and the time loss.

Commands raise ``RuleError`` or return events; ``next_events`` gives what
follows automatically.  Geometry lives in ``maneuver``, ``sightline`` and
``strikes``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.battlefield import ATTACKER, DEFENDER, Fighter, enemies_in_contact, terrain
from moderator.rules.dice import Dice
from moderator.rules.errors import RuleError
from moderator.rules.maneuver import reach
from moderator.rules.muster import MAX_HEIGHT, muster_options
from moderator.rules.state import Battle, Engagement, GameState
from moderator.rules.strikes import (
    excess_allocations,
    hits,
    rangestrike_options,
    rangestrike_refusal,
    strike_options,
)
from moderator.rules.variant import Battleland, load_variant

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
    return load_variant().battlelands[battle.terrain]


# -- starting -------------------------------------------------------------------------


def start(state: GameState, eng: Engagement) -> list[ev.Event]:
    """2.5.6/2.5.6.1: the battle begins; both legions are shown to every player."""
    move = next((m for m in reversed(state.moves) if m.marker == eng.attacker), None)
    variant = load_variant()
    land = variant.lands[eng.land]
    entry = "bottom" if land.is_tower else (move.entry if move and move.entry else "bottom")
    fighters: list[tuple[int, str, str, int, int]] = []
    for side, marker in ((DEFENDER, eng.defender), (ATTACKER, eng.attacker)):
        legion = state.legions[marker]
        for creature in legion.contents:
            power = (
                state.player(legion.owner).titan_power
                if creature == "Titan"
                else (variant.creature(creature).power)
            )
            fighters.append(
                (len(fighters) + 1, side, creature, power, variant.creature(creature).skill)
            )
    return [
        ev.BattleStarted(
            land=eng.land, terrain=land.terrain, entry=entry, fighters=tuple(fighters)
        ),
        *(
            ev.LegionRevealed(marker=m, contents=state.legions[m].contents, reason="battle")
            for m in (eng.defender, eng.attacker)
        ),
        ev.BattleStepBegan(turn=1, phasing=DEFENDER, step="attacker-concede"),
    ]


# -- windows and concessions -------------------------------------------------------------


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


def proceed(state: GameState, player: str) -> list[ev.Event]:
    battle, _, _side = check_actor(state, player, *WINDOWS)
    return [
        ev.BattleStepBegan(turn=battle.turn, phasing=battle.phasing, step="after-" + battle.step)
    ]


def concede(state: GameState, player: str) -> list[ev.Event]:
    """
    Wolff 9.4/10.0: in a window, concede outright; in one's own maneuver or
    strikes, attempt to concede (the opponent may concede instead); after an
    attempt, concede instead of the one who attempted.
    """
    battle, eng, side = check_actor(
        state, player, *WINDOWS, "maneuver", "strike", "counterstrike", "concede-reply"
    )
    if battle.step in ("maneuver", "strike", "counterstrike"):
        events: list[ev.Event] = []
        if battle.step == "maneuver":
            # Wolff 11.0/20.4: the partial maneuver is undone, so an angel summoned or a
            # reinforcement mustered in it has not entered and goes back (Wolff 14.1/15.1).
            if battle.moved:
                events.append(ev.ManeuverReset(side=side))
            hexes = {f.id: f.hex for f in battle.fighters}
            for fid, before in reversed(battle.moved):
                hexes[fid] = before
            events.extend(joins_undone(battle, eng, side, hexes))
        return [*events, ev.ConcessionAttempted(side=side)]
    return [ev.BattleEnded(how="concession", conceded=side)]


def accept_concession(state: GameState, player: str) -> list[ev.Event]:
    battle, _, _ = check_actor(state, player, "concede-reply")
    return [ev.BattleEnded(how="concession", conceded=battle.attempt)]


# -- maneuvers ----------------------------------------------------------------------------


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


# -- summoning and reinforcement during a battle -----------------------------------------------


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


# -- strikes ------------------------------------------------------------------------------------


def _striker(battle: Battle, side: str, hex_label: str) -> Fighter:
    found = next(
        (f for f in battle.fighters if f.hex == hex_label.upper() and f.side == side), None
    )
    if found is None:
        raise RuleError("E-STRIKE", f"none of your characters stands on {hex_label}")
    if found.id in battle.struck:
        raise RuleError(
            "E-STRIKE", f"the {found.creature} on {found.hex} has already struck this phase (12.1)"
        )
    return found


def _target(battle: Battle, side: str, hex_label: str) -> Fighter:
    found = next(
        (
            f
            for f in battle.fighters
            if f.hex == hex_label.upper() and f.side != side and not f.slain
        ),
        None,
    )
    if found is None:
        raise RuleError(
            "E-STRIKE",
            f"there is no living enemy on {hex_label} (a slain character is never a target, Wolff 12.0)",
        )
    return found


def strike(state: GameState, c: cmd.Strike, dice: Dice) -> list[ev.Event]:
    """12.x: one strike, declared and rolled (Wolff 12.1), at the chosen effectiveness."""
    battle, _, side = check_actor(state, c.player, "strike", "counterstrike")
    striker = _striker(battle, side, c.striker)
    target = _target(battle, side, c.target)
    land = land_of(battle)
    if target not in enemies_in_contact(striker, battle.fighters, land):
        raise RuleError(
            "E-STRIKE",
            f"the {striker.creature} on {striker.hex} is not in contact with {target.hex}",
        )
    options = strike_options(land, striker, target, battle.fighters)
    best = options[0]
    wanted_sn = c.strike_number if c.strike_number is not None else best.strike_number
    wanted_dice = c.dice if c.dice is not None else None
    chosen = next(
        (
            o
            for o in options
            if o.strike_number == wanted_sn and (wanted_dice is None or o.dice == wanted_dice)
        ),
        None,
    )
    if chosen is None:
        legal = "; ".join(f"needing {o.strike_number} with {o.dice} dice" for o in options)
        raise RuleError(
            "E-STRIKE-NUMBER",
            f"that strike may be made only {legal} (maximum effectiveness, Wolff 12.2)",
        )
    return [
        _roll(dice, striker, target, chosen.strike_number, chosen.dice, carry=tuple(chosen.carry))
    ]


def rangestrike(state: GameState, c: cmd.Rangestrike, dice: Dice) -> list[ev.Event]:
    """13.x: only the phasing player, optional, along a chosen unblocked path (Wolff 13.3)."""
    battle, _, side = check_actor(state, c.player, "strike")
    striker = _striker(battle, side, c.striker)
    target = _target(battle, side, c.target)
    refusal = rangestrike_refusal(striker, target)
    if refusal is not None:
        raise RuleError("E-RANGESTRIKE", refusal)
    land = land_of(battle)
    options = rangestrike_options(land, striker, target, battle.fighters, phasing=True)
    if not options:
        raise RuleError(
            "E-RANGESTRIKE",
            f"the {striker.creature} on {striker.hex} has no rangestrike at {target.hex} "
            "(range, line of sight, or contact with an enemy)",
        )
    via = tuple(h.upper() for h in c.via)
    chosen = next(
        (
            o
            for o in options
            if (not via or tuple(o.via) == via)
            and (c.strike_number is None or o.strike_number == c.strike_number)
        ),
        None,
    )
    if chosen is None:
        legal = "; ".join(
            f"needing {o.strike_number}" + (f" via {' '.join(o.via)}" if o.via else "")
            for o in options
        )
        raise RuleError("E-RANGESTRIKE", f"that rangestrike may be made: {legal}")
    return [_roll(dice, striker, target, chosen.strike_number, chosen.dice, via=tuple(chosen.via))]


def _roll(
    dice: Dice,
    striker: Fighter,
    target: Fighter,
    strike_number: int,
    count: int,
    *,
    carry: tuple[int, ...] = (),
    via: tuple[str, ...] | None = None,
) -> ev.StrikeRolled:
    """Roll a declared strike (Wolff 12.1: one at a time); a ``via`` marks a rangestrike."""
    rolls = dice.roll(count)
    return ev.StrikeRolled(
        striker=striker.id,
        target=target.id,
        strike_number=strike_number,
        rolls=rolls,
        hits=hits(rolls, strike_number),
        rangestrike=via is not None,
        via=via or (),
        carry=carry,
    )


def carry(state: GameState, c: cmd.Carry) -> list[ev.Event]:
    """12.4/Wolff 12.4: after the roll, carry excess damage by character, or not at all."""
    battle, _, _side = check_actor(state, c.player, "carry")
    choices = carry_allocations(battle)
    wanted = tuple(h.upper() for h in c.targets)
    by_hex = {f.id: f.hex for f in battle.fighters}
    for allocation in choices:
        if tuple(by_hex[fid] for fid, _ in allocation) == wanted:
            return [ev.CarryAllocated(allocations=allocation)]
    legal = "; ".join(
        " then ".join(f"{by_hex[fid]} ({dmg})" for fid, dmg in a) or "nowhere" for a in choices
    )
    raise RuleError("E-CARRY", f"the damage may be carried to: {legal}")


def carry_allocations(battle: Battle) -> list[tuple[tuple[int, int], ...]]:
    assert battle.carry is not None
    _, _, excess, allowed = battle.carry
    room = {fid: battle.fighter(fid).remaining for fid in allowed}
    return excess_allocations(excess, room)


def required_strikers(battle: Battle, side: str) -> list[Fighter]:
    """12.0: every character in contact with a living enemy must strike (slain ones too)."""
    land = land_of(battle)
    return [
        f
        for f in battle.fighters
        if f.side == side
        and f.hex is not None
        and f.id not in battle.struck
        and enemies_in_contact(f, battle.fighters, land)
    ]


def end_strikes(state: GameState, player: str) -> list[ev.Event]:
    battle, _, side = check_actor(state, player, "strike", "counterstrike")
    missing = required_strikers(battle, side)
    if missing:
        names = ", ".join(f"{f.creature} on {f.hex}" for f in missing)
        raise RuleError(
            "E-MUST-STRIKE",
            f"these characters are in contact and must strike first (12.0): {names}",
        )
    return [
        ev.BattleStepBegan(turn=battle.turn, phasing=battle.phasing, step="after-" + battle.step)
    ]


# -- what follows automatically -------------------------------------------------------------------


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
