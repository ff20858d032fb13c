"""
Strikes in a battle (12.x, 13.x; Complete Sequence 2.5.6.4.x.4 onwards): one
strike or rangestrike declared and rolled at a time (Wolff 12.1), carrying
excess damage (12.4), and the rule that every character in contact must strike
(12.0).  Strike numbers and lines of sight are ``strikes`` and ``sightline``.
"""

from __future__ import annotations

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.battle_base import (
    check_actor,
    land_of,
)
from moderator.rules.battlefield import Fighter, enemies_in_contact
from moderator.rules.dice import Dice
from moderator.rules.errors import RuleError
from moderator.rules.state import Battle, GameState
from moderator.rules.strikes import (
    HEADED,
    excess_allocations,
    hits,
    rangestrike_options,
    rangestrike_refusal,
    strike_options,
)


def _striker(battle: Battle, side: str, hex_label: str, heads: int = 1) -> Fighter:
    found = next(
        (f for f in battle.fighters if f.hex == hex_label.upper() and f.side == side), None
    )
    if found is None:
        raise RuleError("E-STRIKE", f"none of your characters stands on {hex_label}")
    if battle.struck.count(found.id) >= heads_of(found, heads):
        raise RuleError(
            "E-STRIKE", f"the {found.creature} on {found.hex} has already struck this phase (12.1)"
        )
    return found


def heads_of(fighter: Fighter, heads: int) -> int:
    """How many rangestrikes ``fighter`` has in a strike phase: one, or its heads (1981 27E)."""
    return HEADED.get(fighter.creature, 1) if heads > 1 else 1


def hydra_heads(state: GameState) -> int:
    """3 when the variant gives the Hydra its three heads (``hydra_three_heads``), else 1."""
    return 3 if state.variant.options.hydra_three_heads else 1


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
    heads = hydra_heads(state)
    striker = _striker(battle, side, c.striker, heads)
    target = _target(battle, side, c.target)
    refusal = rangestrike_refusal(striker, target)
    if refusal is not None:
        raise RuleError("E-RANGESTRIKE", refusal)
    land = land_of(battle)
    options = rangestrike_options(
        land, striker, target, battle.fighters, phasing=True, heads=heads > 1
    )
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
