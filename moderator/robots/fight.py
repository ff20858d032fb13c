"""
The robot's battle decisions: maneuvers, summons and reinforcements in a battle,
strikes, rangestrikes, carries and the concession windows.

**Maneuvers.**  Each of the seat's characters still to move scores every hex it may
reach (``hex_value``): a hazard it is native to, height, the enemies it could strike
from there (the chance to kill the weakest, 12.x) or rangestrike (13.x), less the
damage the enemies in contact or within a move could deal it, weighed by what it is
worth (the Titan many times over), and for the attacker the distance to the nearest
enemy, more urgent as the seven turns run out (10.5).  Then a bounded beam search
over the characters' best few hexes picks the combination that scores most, with a
bonus where the characters next to an enemy can kill it together.  The first move of
that plan is played; the rest is searched again after it (a move may open or close
another's path).  Characters off the board always enter (10.1).

**Strikes.**  Among the legal strikes and rangestrikes, the one most likely to kill
(the binomial chance of rolling the hits still needed), weighed by the target's worth,
with some credit for damage short of a kill.  **Carries** go where they kill the most
valuable character.  In a window the robot proceeds and it accepts an attempt to
concede; a summons or a reinforcement is always worth bringing unless the battle is
already won.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from moderator.robots import values
from moderator.robots.view import SeatView
from moderator.rules import commands as cmd
from moderator.rules.battle_base import WINDOWS, land_of
from moderator.rules.battle_maneuver import entry_hexes
from moderator.rules.battle_strike import carry_allocations
from moderator.rules.battlefield import ATTACKER, Fighter, elevation, in_contact, terrain
from moderator.rules.sightline import hex_distance, max_range, strike_range
from moderator.rules.state import Battle
from moderator.rules.strikes import strike_number
from moderator.rules.variant import Battleland, Variant

TITAN_CARE = 6.0
BEAM = 40
TOP = 4
MAX_RANGE = 4


def hit_chance(striker_skill: int, target_skill: int) -> float:
    return (7 - strike_number(striker_skill, target_skill)) / 6


def kill_chance(dice: int, chance: float, needed: int) -> float:
    """The chance of at least ``needed`` hits from ``dice`` dice each hitting with ``chance``."""
    if needed <= 0:
        return 1.0
    return sum(
        comb(dice, k) * chance**k * (1 - chance) ** (dice - k) for k in range(needed, dice + 1)
    )


def worth(f: Fighter) -> float:
    return float(f.power * f.skill)


@dataclass(slots=True)
class Field:
    """One decision's battle facts: the land, our side, the living on either side."""

    battle: Battle
    land: Battleland
    side: str
    mine: list[Fighter]
    enemies: list[Fighter]
    winning: float  # our side's chance-like score of winning
    variant: Variant  # the game's: its options (the Hydra's heads) change the bolts' dice

    @classmethod
    def of(cls, view: SeatView) -> Field:
        battle = view.battle
        eng = view.engagement
        assert battle is not None and eng is not None
        side = ATTACKER if eng.attacker_player == view.seat else "defender"
        living = [f for f in battle.fighters if not f.slain]
        mine = [f for f in living if f.side == side]
        enemies = [f for f in living if f.side != side]
        att = [f for f in living if f.side == ATTACKER]
        dfd = [f for f in living if f.side != ATTACKER]
        o = values.battle(
            view.variant,
            tuple(sorted(f.creature for f in att)),
            tuple(sorted(f.creature for f in dfd)),
            view.variant.lands[eng.land].terrain,  # the land's muster (14.0)
            attacker_titan=_titan(att),
            defender_titan=_titan(dfd),
            reinforce=battle.turn <= 4,
            battleland=battle.terrain,  # the battleland in play, rolled or placed
        )
        winning = o.attacker_wins if side == ATTACKER else 1 - o.attacker_wins
        return cls(battle, land_of(battle), side, mine, enemies, winning, view.variant)

    @property
    def caution(self) -> float:
        """
        How much a character's danger counts: each enemy strikes one character a phase,
        so a few enemies cannot hurt many of ours at once; less when we are winning.
        """
        spread = min(1.0, max(1, len(self.enemies)) / max(1, len(self.mine)))
        return spread * (1.5 - self.winning)

    def entrances(self, side: str) -> tuple[str, ...]:
        return entry_hexes(self.battle, side)

    def exposure(self, h: str) -> float:
        """The share of ``h``'s sides an enemy could come at (our own characters cover the rest)."""
        ours = {f.hex for f in self.mine if f.hex is not None}
        around = self.land.neighbours(h)
        if not around:
            return 1.0
        return sum(1 for x in around.values() if x not in ours) / 6


def _titan(fighters: list[Fighter]) -> int:
    return next((f.power for f in fighters if f.creature == "Titan"), 6)


def hex_value(fld: Field, f: Fighter, h: str) -> float:
    """How good ``h`` is for ``f`` this turn (see the module note)."""
    land = fld.land
    kind = f.kind
    ground = terrain(land, h)
    value = 1.5 * elevation(land, h)
    if ground != "plains":
        value += 3.0 if ground in kind.natives else -2.0
    on_board = [e for e in fld.enemies if e.hex is not None]
    offence = 0.0
    danger = 0.0
    contact = False
    for e in fld.enemies:
        hits = e.power * hit_chance(e.skill, f.skill)
        if e.hex is None:  # not entered yet: it comes in by its side's entrances
            distance = min((hex_distance(h, x) for x in fld.entrances(e.side)), default=9)
            if distance <= e.skill + 1:
                danger += 0.7 * hits * fld.exposure(h)
            continue
        if in_contact(land, h, e.hex):
            contact = True
            p = hit_chance(f.skill, e.skill)
            kill = kill_chance(f.power, p, e.remaining)
            offence = max(offence, kill * worth(e) + 0.3 * f.power * p * worth(e) / e.power)
            danger += hits
            continue
        if hex_distance(h, e.hex) <= e.skill + 1:
            danger += 0.7 * hits * fld.exposure(h)
        if e.kind.rangestrikes and strike_range(e.hex, h) <= min(max_range(e), MAX_RANGE):
            bolts = values.rangestrike_dice(fld.variant, e.creature, e.power)
            danger += 0.3 * sum(bolts) * hit_chance(e.skill, f.skill)
    if kind.rangestrikes and not contact:
        bolts = values.rangestrike_dice(fld.variant, f.creature, f.power)
        targets: list[float] = []
        for e in on_board:
            assert e.hex is not None
            if e.kind.lord or strike_range(h, e.hex) > min(max_range(f), MAX_RANGE):
                continue
            p = hit_chance(f.skill, e.skill)
            targets.append(0.7 * p * worth(e) / e.power)
        if targets:  # each bolt (a Hydra's head, 1981 27E) at the best target in range
            offence = max(offence, sum(bolts) * max(targets))
    care = TITAN_CARE if f.creature == "Titan" else fld.caution
    boldness = 0.5 + fld.winning
    value += boldness * offence - care * min(1.0, danger / max(1, f.remaining)) * worth(f) / 2
    if on_board and (fld.side == ATTACKER or fld.winning > 0.6):
        nearest = min(hex_distance(h, e.hex or h) for e in on_board)
        urgency = 1.0 + 0.6 * fld.battle.turn if fld.side == ATTACKER else 0.8
        if f.creature == "Titan" and fld.winning < 0.9:
            urgency *= 0.3
        value -= urgency * max(0, nearest - 1)
    return value


def _candidates(
    view: SeatView, fld: Field
) -> dict[int, list[tuple[float, str, cmd.Maneuver | None]]]:
    """Each unmoved fighter's best few hexes: (score, hex, the move there or None to stay)."""
    moved = {fid for fid, _ in fld.battle.moved}
    by_from: dict[str, list[cmd.Maneuver]] = {}
    by_creature: dict[str, list[cmd.Maneuver]] = {}
    for c in view.legal:
        if isinstance(c, cmd.Maneuver):
            if c.from_hex is None:
                by_creature.setdefault(c.creature or "", []).append(c)
            else:
                by_from.setdefault(c.from_hex, []).append(c)
    out: dict[int, list[tuple[float, str, cmd.Maneuver | None]]] = {}
    for f in fld.mine:
        if f.id in moved:
            continue
        moves = by_from.get(f.hex, []) if f.hex is not None else by_creature.get(f.creature, [])
        options: list[tuple[float, str, cmd.Maneuver | None]] = [
            (hex_value(fld, f, m.to_hex), m.to_hex, m) for m in moves
        ]
        if f.hex is not None:
            options.append((hex_value(fld, f, f.hex), f.hex, None))
        if options:
            options.sort(key=lambda t: (-t[0], t[1]))
            out[f.id] = options[:TOP]
    return out


def _focus_bonus(fld: Field, plan: dict[int, str]) -> float:
    """Credit where the characters planned next to an enemy can kill it together."""
    where = {f.id: f.hex for f in fld.mine if f.hex is not None} | plan
    by_id = {f.id: f for f in fld.mine}
    bonus = 0.0
    for e in fld.enemies:
        if e.hex is None:
            continue
        hits = sum(
            by_id[fid].power * hit_chance(by_id[fid].skill, e.skill)
            for fid, h in where.items()
            if in_contact(fld.land, h, e.hex)
        )
        if hits >= e.remaining:
            bonus += 0.5 * worth(e)
    return bonus


def plan_maneuver(view: SeatView, fld: Field) -> list[tuple[int, cmd.Maneuver | None]]:
    """The best combination of the unmoved fighters' hexes, by a bounded beam search."""
    options = _candidates(view, fld)
    order = sorted(options, key=lambda fid: -(options[fid][0][0] - options[fid][-1][0]))
    held = {f.hex for f in fld.mine if f.hex is not None and f.id not in options}
    Beam = tuple[float, dict[int, str], list[tuple[int, cmd.Maneuver | None]]]
    beam: list[Beam] = [(0.0, {}, [])]
    for fid in order:
        grown: list[Beam] = []
        for score, plan, steps in beam:
            taken = held | set(plan.values())
            for value, h, move in options[fid]:
                if h in taken:
                    continue
                grown.append((score + value, {**plan, fid: h}, [*steps, (fid, move)]))
        if grown:
            grown.sort(key=lambda b: -b[0])
            beam = grown[:BEAM]
    best = max(beam, key=lambda b: b[0] + _focus_bonus(fld, b[1]))
    return best[2]


def maneuver(view: SeatView) -> cmd.Command:
    fld = Field.of(view)
    legal = view.legal
    reinforce = [c for c in legal if isinstance(c, cmd.Reinforce)]
    if reinforce:
        return max(reinforce, key=lambda c: (values.points(view.variant, c.creature), -len(c.showing)))
    summons = [c for c in legal if isinstance(c, cmd.Summon)]
    if summons and fld.winning < 0.95:
        return max(
            summons, key=lambda c: (values.points(view.variant, c.lord), view.legion(c.source).height)
        )
    for _, move in plan_maneuver(view, fld):
        if move is not None:
            return move
    return next(c for c in legal if isinstance(c, cmd.Done))


def _strike_score(battle: Battle, c: cmd.Strike | cmd.Rangestrike, variant: Variant) -> float:
    ordered = sorted(battle.fighters, key=lambda f: not f.slain)  # the living win a hex
    on_board = {f.hex: f for f in ordered if f.hex is not None}  # slain strikers strike (12.0)
    striker, target = on_board[c.striker], on_board[c.target]
    sn = c.strike_number or strike_number(striker.skill, target.skill)
    dice = c.dice if isinstance(c, cmd.Strike) and c.dice is not None else striker.power
    if isinstance(c, cmd.Rangestrike):  # half its power, or one head's two dice (1981 27E)
        dice = values.rangestrike_dice(variant, striker.creature, striker.power)[0]
    p = (7 - sn) / 6
    kill = kill_chance(dice, p, target.remaining)
    value = worth(target) * (2.0 if target.creature == "Titan" else 1.0)
    return kill * value + 0.5 * min(1.0, dice * p / target.remaining) * value / 2


def strike(view: SeatView) -> cmd.Command:
    battle = view.battle
    assert battle is not None
    strikes = [c for c in view.legal if isinstance(c, cmd.Strike | cmd.Rangestrike)]
    if strikes:
        return max(strikes, key=lambda c: _strike_score(battle, c, view.variant))
    return next(c for c in view.legal if isinstance(c, cmd.Done))


def carry(view: SeatView) -> cmd.Command:
    """The carry-over that kills the most valuable characters (12.5)."""
    battle = view.battle
    assert battle is not None
    carries = [c for c in view.legal if isinstance(c, cmd.Carry)]
    allocations = carry_allocations(battle)

    def score(allocation: tuple[tuple[int, int], ...]) -> float:
        total = 0.0
        for fid, hits in allocation:
            f = battle.fighter(fid)
            total += worth(f) if hits >= f.remaining else 0.4 * worth(f) * hits / f.power
        return total

    if len(allocations) != len(carries):
        return carries[0]
    return max(zip(carries, allocations), key=lambda pair: score(pair[1]))[0]


def battle_order(view: SeatView) -> cmd.Command:
    battle = view.battle
    assert battle is not None
    legal = view.legal
    if battle.step in WINDOWS:
        return next(c for c in legal if isinstance(c, cmd.Proceed))
    if battle.step == "concede-reply":
        return next(c for c in legal if isinstance(c, cmd.AcceptConcession))
    if battle.step == "carry":
        return carry(view)
    if battle.step == "maneuver":
        return maneuver(view)
    return strike(view)
