"""Every legal battle command of the player to act (the battle half of ``legal``)."""

from __future__ import annotations

from moderator.rules import battle as b
from moderator.rules import commands as cmd
from moderator.rules.battle_strike import heads_of, hydra_heads
from moderator.rules.battlefield import DEFENDER, enemies_in_contact
from moderator.rules.engagement import summon_sources
from moderator.rules.state import GameState
from moderator.rules.strikes import rangestrike_options, rangestrike_refusal, strike_options


def battle_commands(state: GameState, player: str) -> list[cmd.Command]:
    battle, eng = b.battle_of(state)
    step = battle.step
    if step in b.WINDOWS:
        return [cmd.Proceed(player=player), cmd.Concede(player=player)]
    if step == "concede-reply":
        return [cmd.AcceptConcession(player=player), cmd.Concede(player=player)]
    if step == "carry":
        hexes = {f.id: f.hex or "" for f in battle.fighters}
        return [
            cmd.Carry(player=player, targets=tuple(hexes[fid] for fid, _ in allocation))
            for allocation in b.carry_allocations(battle)
        ]
    side = b.side_of(eng, player)
    out: list[cmd.Command] = []
    if step == "maneuver":
        out.extend(_maneuvers(state, player, side))
    elif step in ("strike", "counterstrike"):
        out.extend(_strikes(state, player, side, rangestrikes=step == "strike"))
        if not b.required_strikers(battle, side):
            out.append(cmd.Done(player=player))
    out.append(cmd.Concede(player=player))
    return out


def _maneuvers(state: GameState, player: str, side: str) -> list[cmd.Command]:
    battle, eng = b.battle_of(state)
    out: list[cmd.Command] = []
    moved = {fid for fid, _ in battle.moved}
    for f in battle.fighters:
        if f.side != side or f.slain or f.id in moved:
            continue
        for to_hex in sorted(b.destinations(battle, f)):
            if f.hex is None:
                out.append(cmd.Maneuver(player=player, to_hex=to_hex, creature=f.creature))
            else:
                out.append(cmd.Maneuver(player=player, to_hex=to_hex, from_hex=f.hex))
    out = list(dict.fromkeys(out))  # identical off-board characters give identical orders
    if b.may_summon(state):
        sources = summon_sources(state, state.legions[eng.attacker])
        out.extend(cmd.Summon(player=player, lord=lord, source=m) for lord, m in sources)
    if side == DEFENDER and b.may_reinforce(state):
        out.extend(
            cmd.Reinforce(player=player, creature=c, showing=shown)
            for c, shown in dict.fromkeys(b.reinforce_options(state))
        )
    if battle.moved:
        out.append(cmd.ResetManeuver(player=player))
    out.append(cmd.Done(player=player))
    return out


def _strikes(state: GameState, player: str, side: str, *, rangestrikes: bool) -> list[cmd.Command]:
    battle, _ = b.battle_of(state)
    land = b.land_of(battle)
    heads = hydra_heads(state)
    out: list[cmd.Command] = []
    for f in battle.fighters:
        if f.side != side or f.hex is None or battle.struck.count(f.id) >= heads_of(f, heads):
            continue
        foes = enemies_in_contact(f, battle.fighters, land)
        for target in foes:
            for option in strike_options(land, f, target, battle.fighters):
                out.append(
                    cmd.Strike(
                        player=player,
                        striker=f.hex,
                        target=target.hex or "",
                        strike_number=option.strike_number,
                        dice=option.dice,
                    )
                )
        if rangestrikes and not foes and f.kind.rangestrikes:
            for target in battle.fighters:
                if target.side == side or target.hex is None or target.slain:
                    continue
                if rangestrike_refusal(f, target) is not None:
                    continue
                for r in rangestrike_options(
                    land, f, target, battle.fighters, phasing=True, heads=heads > 1
                ):
                    out.append(
                        cmd.Rangestrike(
                            player=player,
                            striker=f.hex,
                            target=target.hex,
                            via=tuple(r.via),
                            strike_number=r.strike_number,
                        )
                    )
    return out
