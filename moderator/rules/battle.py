"""
Battles on the battlelands, step by step as Wolff's Complete Sequence 2.5.6
lays them out: entry, maneuvers, drift, strikes and counterstrikes with
carry-over, the concession windows and attempts (Wolff 9.4, 10.0, 11.1),
summoning (15.x), reinforcement (14.x), the end checks and the time loss.

Commands raise ``RuleError`` or return events; ``next_events`` gives what
follows automatically.

This module starts the battle and holds its windows and concessions; the other
steps live by rule area in ``battle_maneuver``, ``battle_join``, ``battle_strike``
and ``battle_end`` (shared lookups in ``battle_base``).  Geometry lives in
``maneuver``, ``sightline`` and ``strikes``.
"""

from __future__ import annotations

from moderator.rules import events as ev

# The battle's other steps, by rule area; imported here so that ``battle.X`` keeps working.
from moderator.rules.battle_base import (
    LAST_TURN,
    WINDOWS,
    acting_side,
    battle_of,
    check_actor,
    land_of,
    other,
    player_of,
    side_of,
)
from moderator.rules.battle_end import drift_victims, ending, next_events, resolve
from moderator.rules.battle_join import (
    living_contents,
    living_height,
    may_reinforce,
    may_summon,
    reinforce,
    reinforce_options,
)
from moderator.rules.battle_maneuver import (
    destinations,
    end_maneuver,
    entry_hexes,
    joins_undone,
    maneuver,
    reset,
)
from moderator.rules.battle_strike import (
    carry,
    carry_allocations,
    end_strikes,
    rangestrike,
    required_strikers,
    strike,
)
from moderator.rules.battlefield import ATTACKER, DEFENDER
from moderator.rules.dice import Dice
from moderator.rules.state import Engagement, GameState
from moderator.rules.variant import Land, Variant

__all__ = [
    "LAST_TURN",
    "WINDOWS",
    "accept_concession",
    "acting_side",
    "battle_of",
    "battleland_for",
    "carry",
    "carry_allocations",
    "check_actor",
    "concede",
    "destinations",
    "drift_victims",
    "end_maneuver",
    "end_strikes",
    "ending",
    "entry_hexes",
    "joins_undone",
    "land_of",
    "living_contents",
    "living_height",
    "maneuver",
    "may_reinforce",
    "may_summon",
    "next_events",
    "other",
    "player_of",
    "proceed",
    "rangestrike",
    "reinforce",
    "reinforce_options",
    "required_strikers",
    "reset",
    "resolve",
    "side_of",
    "start",
    "strike",
]


# -- starting -------------------------------------------------------------------------


def battleland_for(variant: Variant, land: Land, dice: Dice) -> tuple[str, int | None]:
    """The battleland fought on at ``land``, and the die that chose it if one was rolled.

    Option ``battleland_choice``: "fixed" takes the land's placed battleland (its
    terrain's where none is placed); "defender-roll" is the original Badlands rule: for a
    terrain with an alternate the moderator rolls one die for the defender before he sets
    up, 1-3 the alternate, 4-6 the terrain's own.  A land placed on a battleland of its
    own (Badlands' Fort, Town, Waterhole) is never rolled for.
    """
    choices = variant.battlelands_at(land.number)
    if len(choices) == 1:
        return choices[0], None
    own, alternate = choices
    roll = dice.roll(1)[0]
    return (alternate if roll <= 3 else own), roll


def start(state: GameState, eng: Engagement, dice: Dice) -> list[ev.Event]:
    """2.5.6/2.5.6.1: the battle begins; both legions are shown to every player."""
    move = next((m for m in reversed(state.moves) if m.marker == eng.attacker), None)
    variant = state.variant
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
    battleland, roll = battleland_for(variant, land, dice)
    return [
        ev.BattleStarted(
            land=eng.land,
            terrain=battleland,
            entry=entry,
            fighters=tuple(fighters),
            battleland_roll=roll,
        ),
        *(
            ev.LegionRevealed(marker=m, contents=state.legions[m].contents, reason="battle")
            for m in (eng.defender, eng.attacker)
        ),
        ev.BattleStepBegan(turn=1, phasing=DEFENDER, step="attacker-concede"),
    ]


# -- windows and concessions -------------------------------------------------------------


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
