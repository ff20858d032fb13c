"""The fold for battle events (registered into ``fold``'s table on import, by ``evolve``)."""

from __future__ import annotations

from moderator.records import replace
from moderator.rules import events as ev
from moderator.rules.battlefield import ATTACKER, DEFENDER, Fighter
from moderator.rules.fold import on
from moderator.rules.state import Battle, Engagement, GameState, Legion, Step
from moderator.rules.variant import load_variant


def _battle(state: GameState) -> Battle:
    assert state.battle is not None
    return state.battle


def _fighters(battle: Battle, changed: dict[int, Fighter]) -> tuple[Fighter, ...]:
    return tuple(changed.get(f.id, f) for f in battle.fighters)


def _new(items: ev.FighterList, variant: str) -> list[Fighter]:
    return [
        Fighter(id=fid, side=side, creature=creature, power=power, skill=skill, variant_name=variant)
        for fid, side, creature, power, skill in items
    ]


@on(ev.BattleStarted)
def _battle_started(state: GameState, e: ev.BattleStarted) -> GameState:
    battle = Battle(
        land=e.land,
        terrain=e.terrain,
        entry=e.entry,
        fighters=tuple(_new(e.fighters, state.variant_name)),
        variant_name=state.variant_name,
    )
    return replace(state, battle=battle, step=Step.BATTLE)


@on(ev.BattleStepBegan)
def _step_began(state: GameState, e: ev.BattleStepBegan) -> GameState:
    battle = _battle(state)
    changes: dict[str, object] = {
        "turn": e.turn,
        "phasing": e.phasing,
        "step": e.step,
        "attempt": None,
    }
    if e.step == "maneuver":
        changes["moved"] = ()
    if e.step in ("strike", "counterstrike"):
        changes["struck"] = ()
    if e.step == "after-maneuver" and battle.phasing not in battle.entered:
        changes["entered"] = (*battle.entered, battle.phasing)
        if battle.phasing == ATTACKER:
            changes["reinforcement_earned"] = True  # Wolff 14.2
    return replace(state, battle=replace(battle, **changes))  # type: ignore[arg-type]


@on(ev.FighterMoved)
def _fighter_moved(state: GameState, e: ev.FighterMoved) -> GameState:
    battle = _battle(state)
    fighter = replace(battle.fighter(e.fighter), hex=e.to_hex)
    battle = replace(
        battle,
        fighters=_fighters(battle, {fighter.id: fighter}),
        moved=(*battle.moved, (e.fighter, e.from_hex)),
    )
    return replace(state, battle=battle)


@on(ev.ManeuverReset)
def _maneuver_reset(state: GameState, e: ev.ManeuverReset) -> GameState:
    battle = _battle(state)
    changed: dict[int, Fighter] = {}
    for fid, before in reversed(battle.moved):
        changed[fid] = replace(changed.get(fid, battle.fighter(fid)), hex=before)
    return replace(state, battle=replace(battle, fighters=_fighters(battle, changed), moved=()))


def joined(battle: Battle, side: str, creature: str) -> Battle:
    """A summoned angel (15.1) or a reinforcement (14.0) waits to enter the battleland."""
    kind = load_variant(battle.variant_name).creature(creature)
    fighter = Fighter(
        id=max(f.id for f in battle.fighters) + 1,
        side=side,
        creature=kind.name,
        power=kind.power,
        skill=kind.skill,
        variant_name=battle.variant_name,
    )
    battle = replace(battle, fighters=(*battle.fighters, fighter))
    if side == ATTACKER:
        return replace(battle, summoned=fighter.id)
    return replace(battle, reinforced=fighter.id)


@on(ev.FightersLeftOff)
def _left_off(state: GameState, e: ev.FightersLeftOff) -> GameState:
    battle = _battle(state)
    changed = {
        fid: replace(battle.fighter(fid), hits=battle.fighter(fid).power) for fid in e.fighters
    }
    return replace(state, battle=replace(battle, fighters=_fighters(battle, changed)))


@on(ev.JoinUndone)
def _join_undone(state: GameState, e: ev.JoinUndone) -> GameState:
    battle = _battle(state)
    battle = replace(battle, fighters=tuple(f for f in battle.fighters if f.id != e.fighter))
    legions = dict(state.legions)
    legion = legions[e.marker]
    contents = list(legion.contents)
    contents.remove(e.creature)
    legions[e.marker] = replace(legion, contents=tuple(contents))
    caretaker = dict(state.caretaker)
    if e.source is None:
        caretaker[e.creature] += 1
        battle = replace(battle, reinforced=None)
    else:
        source = legions.get(e.source)
        if source is None:  # Wolff 18.1 disbanded it; the angel's return restores it
            legions[e.source] = Legion(
                marker=e.source,
                owner=legion.owner,
                land=battle.summoned_land,
                contents=(e.creature,),
            )
        else:
            legions[e.source] = replace(
                source, contents=tuple(sorted((*source.contents, e.creature)))
            )
        battle = replace(battle, summoned=None, summoned_from=None)
    return replace(
        state, battle=battle, legions=legions, caretaker=caretaker, summoned_this_phase=False
    )


@on(ev.DriftDamaged)
def _drift_damaged(state: GameState, e: ev.DriftDamaged) -> GameState:
    battle = _battle(state)
    changed = {
        fid: replace(battle.fighter(fid), hits=battle.fighter(fid).hits + 1) for fid in e.fighters
    }
    return replace(state, battle=replace(battle, fighters=_fighters(battle, changed)))


@on(ev.StrikeRolled)
def _strike_rolled(state: GameState, e: ev.StrikeRolled) -> GameState:
    battle = _battle(state)
    target = battle.fighter(e.target)
    excess = max(0, e.hits - target.remaining)
    target = replace(target, hits=min(target.power, target.hits + e.hits))
    battle = replace(
        battle, fighters=_fighters(battle, {target.id: target}), struck=(*battle.struck, e.striker)
    )
    living = tuple(fid for fid in e.carry if not battle.fighter(fid).slain)
    if excess and living and not e.rangestrike:
        battle = replace(
            battle,
            carry=(e.striker, e.strike_number, excess, living),
            resume=battle.step,
            step="carry",
        )
    return replace(state, battle=battle)


@on(ev.CarryAllocated)
def _carry_allocated(state: GameState, e: ev.CarryAllocated) -> GameState:
    battle = _battle(state)
    changed = {}
    for fid, damage in e.allocations:
        f = battle.fighter(fid)
        changed[fid] = replace(f, hits=min(f.power, f.hits + damage))
    battle = replace(battle, fighters=_fighters(battle, changed), carry=None, step=battle.resume)
    return replace(state, battle=battle)


@on(ev.ConcessionAttempted)
def _concession_attempted(state: GameState, e: ev.ConcessionAttempted) -> GameState:
    battle = _battle(state)
    return replace(
        state, battle=replace(battle, attempt=e.side, resume=battle.step, step="concede-reply")
    )


@on(ev.SlainRemoved)
def _slain_removed(state: GameState, e: ev.SlainRemoved) -> GameState:
    battle = _battle(state)
    changed = {fid: replace(battle.fighter(fid), hex=None) for fid in e.fighters}
    first_blood = battle.first_blood
    summon_turn = battle.summon_turn
    if not first_blood and any(battle.fighter(fid).side == DEFENDER for fid in e.fighters):
        # 15.0: the attacker's next maneuver after the first defender that entered is slain.
        first_blood = True
        summon_turn = battle.turn if battle.phasing == DEFENDER else battle.turn + 1
    battle = replace(
        battle,
        fighters=_fighters(battle, changed),
        first_blood=first_blood,
        summon_turn=summon_turn,
    )
    return replace(state, battle=battle)


@on(ev.BattleEnded)
def _battle_ended(state: GameState, e: ev.BattleEnded) -> GameState:
    battle = _battle(state)
    battle = replace(battle, ending=e.how, conceded=e.conceded, step="ended")
    eng = state.engagement
    assert eng is not None
    right = battle.reinforcement_earned and battle.reinforced is None
    return replace(state, battle=battle, engagement=replace(eng, reinforce_right=right))


def battle_from_position(
    state: GameState,
    data: tuple[int, str, str, str, int, str, str, tuple[tuple[str, str, str, int], ...]],
    battleland: str = "",
) -> GameState:
    """A battle in progress written in a position file (docs/positions.md), on the
    battleland it names or else the land's placed one."""
    land, attacker, defender, entry, turn, phasing, step, characters = data
    a, d = state.legions[attacker], state.legions[defender]
    engagement = Engagement(
        land=land,
        attacker=attacker,
        defender=defender,
        attacker_player=a.owner,
        defender_player=d.owner,
        awaiting=a.owner,
        opened=True,
    )
    variant = state.variant
    fighters = []
    for number, (marker, creature, hex_label, hits) in enumerate(characters, 1):
        kind = variant.creature(creature)
        power = (
            state.player(state.legions[marker].owner).titan_power
            if creature == "Titan"
            else kind.power
        )
        side = ATTACKER if marker == attacker else DEFENDER
        fighters.append(
            Fighter(
                id=number,
                side=side,
                creature=kind.name,
                power=power,
                skill=kind.skill,
                hex=hex_label,
                hits=hits,
                variant_name=variant.name,
            )
        )
    entered = (DEFENDER, ATTACKER) if turn > 1 or phasing == ATTACKER else (DEFENDER,)
    battle = Battle(
        land=land,
        terrain=battleland or variant.lands[land].battleland_name,
        entry=entry,
        fighters=tuple(fighters),
        variant_name=variant.name,
        turn=turn,
        phasing=phasing,
        step=step,
        entered=entered,
        reinforcement_earned=ATTACKER in entered and (turn > 1 or phasing == DEFENDER),
    )
    legions = dict(state.legions)
    for marker in (attacker, defender):
        legions[marker] = replace(legions[marker], known_to=None)  # 2.5.6.1
    return replace(state, engagement=engagement, battle=battle, legions=legions, step=Step.BATTLE)
