"""
What things are worth to the robot: a character's and a legion's combat value on a
battleland, and a battle's likely outcome.

A character's combat value is its points (power x skill, 16.0) raised a tenth for
flying and a tenth for the bolt (both let it choose its fights; the bolt's tenth in
proportion to its dice, so a Hydra's three heads of two dice, 1981 27E and option
``hydra_three_heads``, count six dice against one bolt's five), a fifth when it is
native to a hazard of the battleland (it moves and strikes better there, 11.x), and a
fifth for a defender in a tower (walls, 10.2).  The Titan's power grows with its
owner's score (19.1).

The battleland is the one the battle is fought on, which need not be the land's
terrain's: a land placed on a battleland of its own (Badlands' Fort), or, under option
``battleland_choice = "defender-roll"``, one of two the die chooses before the battle;
before it is rolled ``battlelands_of`` gives each with its chance and ``expected``
weighs the estimates.  The muster (the defender's reinforcement) is still the land's
terrain's.

``battle`` estimates a battle without dice: turn by turn, each side's living
characters deal their expected hits (dice x chance to hit, by the strike chart 12.7
against the skill of the character they are killing), which fall on the enemy's
characters in the order they are most cheaply killed, the excess carrying on to the
next (12.5).  The defender strikes first (10.3); nothing is in contact in the first
half turn and little in the attacker's first, when he enters.  The defender's
reinforcement comes in his fourth turn (14.0) when his legion can muster one on the
land; the attacker's summoned angel after his second, if he has one to summon (15.0).
An attacker who has not won by the end of the seventh turn loses (10.5).  The answer
says which side is expected to win, by how much, and what each is expected to lose.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from moderator.records import record
from moderator.rules.muster import qualifications
from moderator.rules.strikes import HEAD_DICE, HEADED, strike_number
from moderator.rules.variant import Land, Variant

TITAN = "Titan"
#: Battle turns before the attacker loses on time (10.5).
LAST_TURN = 7
FLYER_BONUS = 1.1
RANGESTRIKE_BONUS = 1.1
NATIVE_BONUS = 1.2
TOWER_BONUS = 1.2
#: How much likelier the Titan is to be struck at than its worth says.
TITAN_FOCUS = 0.5


@lru_cache(maxsize=64)
def hazards(variant: Variant, terrain: str) -> frozenset[str]:
    """The hazards of a land's battleland: its hex terrains and hexside kinds."""
    land = variant.battlelands[terrain]
    return frozenset({h.terrain for h in land.hexes.values()} | set(land.hexsides.values()))


def rangestrike_dice(variant: Variant, creature: str, power: int | None = None) -> tuple[int, ...]:
    """
    The dice of each rangestrike ``creature`` may make in a strike phase: one of half its
    power (13.1), or with option ``hydra_three_heads`` a Hydra's three of two dice each
    (1981 27E), at the same or different targets; () if it does not rangestrike.
    """
    kind = variant.creature(creature)
    if not kind.rangestrikes:
        return ()
    heads = HEADED.get(kind.name, 1) if variant.options.hydra_three_heads else 1
    if heads > 1:
        return (HEAD_DICE,) * heads
    return ((kind.power if power is None else power) // 2,)


def battlelands_of(variant: Variant, land: Land) -> tuple[tuple[str, float], ...]:
    """
    Where a battle at ``land`` may be fought, each with its chance before any die is
    rolled: the land's placed battleland or its terrain's for certain; under option
    ``battleland_choice = "defender-roll"`` a terrain with an alternate is fought on the
    alternate on 1-3 and on its own on 4-6 (``Variant.battlelands_at``, which
    ``rules.battle.battleland_for`` rolls between).
    """
    choices = variant.battlelands_at(land.number)
    return tuple((name, 1 / len(choices)) for name in choices)


def power_of(variant: Variant, creature: str, titan_power: int = 6) -> int:
    return titan_power if creature == TITAN else variant.creature(creature).power


def points(variant: Variant, creature: str, titan_power: int = 6) -> int:
    """Points for slaying it (16.0)."""
    kind = variant.creature(creature)
    return power_of(variant, creature, titan_power) * kind.skill


@lru_cache(maxsize=4096)
def combat_value(
    variant: Variant,
    creature: str,
    terrain: str | None = None,
    *,
    titan_power: int = 6,
    defending: bool = False,
) -> float:
    """A character's worth in a fight on ``terrain``'s battleland (see the module note)."""
    kind = variant.creature(creature)
    power = power_of(variant, creature, titan_power)
    value = float(power * kind.skill)
    if kind.flies:
        value *= FLYER_BONUS
    if kind.rangestrikes:
        dice = sum(rangestrike_dice(variant, creature, power))
        value *= 1 + (RANGESTRIKE_BONUS - 1) * dice / max(1, power // 2)
    if terrain is not None:
        if kind.natives & hazards(variant, terrain):
            value *= NATIVE_BONUS
        if defending and terrain == "Tower":
            value *= TOWER_BONUS
    return value


def legion_value(
    variant: Variant,
    contents: Sequence[str],
    terrain: str | None = None,
    *,
    titan_power: int = 6,
    defending: bool = False,
) -> float:
    return sum(
        combat_value(variant, c, terrain, titan_power=titan_power, defending=defending) for c in contents
    )


@record
class Outcome:
    """A battle's expected course: who wins, how surely (0.5 even, 1 certain)."""

    attacker_wins: float  # the chance-like score that the attacker wins
    attacker_lost: float  # points the attacker is expected to lose
    defender_lost: float
    attacker_left: tuple[str, ...]  # who is expected to survive
    defender_left: tuple[str, ...]
    turns: int


@dataclass(slots=True)
class _Side:
    names: list[str]
    power: list[float]
    skill: list[int]
    mult: list[float]
    damage: list[float]
    worth: list[float]

    def alive(self) -> list[int]:
        """The living; none once the Titan is slain (19.3: his legions go with him)."""
        living = [i for i in range(len(self.names)) if self.damage[i] < self.power[i] - 1e-9]
        if TITAN in self.names and TITAN not in (self.names[i] for i in living):
            return []
        return living

    def add(self, name: str, power: float, skill: int, mult: float, worth: float) -> None:
        self.names.append(name)
        self.power.append(power)
        self.skill.append(skill)
        self.mult.append(mult)
        self.damage.append(0.0)
        self.worth.append(worth)


def _side(
    variant: Variant, contents: Sequence[str], terrain: str, titan_power: int, defending: bool
) -> _Side:
    side = _Side([], [], [], [], [], [])
    for c in contents:
        kind = variant.creature(c)
        power = power_of(variant, c, titan_power)
        mult = combat_value(variant, c, terrain, titan_power=titan_power, defending=defending) / (
            power * kind.skill
        )
        side.add(c, float(power), kind.skill, mult, float(power * kind.skill))
    return side


def _hit_chance(striker_skill: int, target_skill: int) -> float:
    return (7 - strike_number(striker_skill, target_skill)) / 6


def _strike(strikers: _Side, targets: _Side, share: float) -> None:
    """``share`` of the strikers' expected hits fall on the targets, cheapest kill first."""
    alive = targets.alive()
    if not alive:
        return

    def key(i: int) -> float:  # cheapest kill first; a Titan is worth going for (19.3)
        return (
            (targets.power[i] - targets.damage[i])
            / targets.worth[i]
            * (TITAN_FOCUS if targets.names[i] == TITAN else 1.0)
        )

    order = sorted(alive, key=key)
    mean_skill = round(sum(targets.skill[i] for i in alive) / len(alive))
    hits = share * sum(
        strikers.power[i] * _hit_chance(strikers.skill[i], mean_skill) * strikers.mult[i]
        for i in strikers.alive()
    )
    for i in order:  # 12.5: the excess carries on
        room = targets.power[i] - targets.damage[i]
        dealt = min(room, hits)
        targets.damage[i] += dealt
        hits -= dealt
        if hits <= 1e-9:
            break


def _lost(side: _Side) -> float:
    if not side.alive():
        return sum(side.worth)
    return sum(
        side.worth[i] * min(1.0, side.damage[i] / side.power[i]) for i in range(len(side.names))
    )


def _strength(side: _Side) -> float:
    return sum(
        side.worth[i] * side.mult[i] * (1 - side.damage[i] / side.power[i]) for i in side.alive()
    )


def _muster_for(variant: Variant, contents: Sequence[str], terrain: str) -> str | None:
    """The best creature a legion could muster on ``terrain``, if any (14.0, 18.x)."""
    if len(contents) >= 7:
        return None
    options = {c for c, _ in qualifications(variant, tuple(sorted(contents)), terrain)}
    if not options:
        return None
    return max(options, key=lambda c: (points(variant, c), c))


@lru_cache(maxsize=20_000)
def battle(
    variant: Variant,
    attacker: tuple[str, ...],
    defender: tuple[str, ...],
    terrain: str,
    *,
    attacker_titan: int = 6,
    defender_titan: int = 6,
    angel: str | None = None,
    reinforce: bool = True,
    battleland: str | None = None,
) -> Outcome:
    """
    The expected course of ``attacker`` attacking ``defender`` on a land of ``terrain``,
    fought on ``battleland`` (default: the terrain's own; module note).
    """
    field = battleland or terrain
    att = _side(variant, attacker, field, attacker_titan, defending=False)
    dfd = _side(variant, defender, field, defender_titan, defending=True)
    start_a, start_d = max(_strength(att), 1e-9), max(_strength(dfd), 1e-9)
    turn = 1
    for turn in range(1, LAST_TURN + 1):
        if turn == 4 and reinforce:
            extra = _muster_for(variant, [dfd.names[i] for i in dfd.alive()], terrain)
            if extra is not None:
                kind = variant.creature(extra)
                value = combat_value(variant, extra, field, defending=True)
                dfd.add(extra, float(kind.power), kind.skill, value / points(variant, extra), points(variant, extra))
        _strike(dfd, att, 0.0 if turn == 1 else 1.0)
        if not att.alive():
            break
        if turn == 3 and angel is not None and len(att.alive()) < 7:
            kind = variant.creature(angel)
            att.add(
                angel,
                float(kind.power),
                kind.skill,
                combat_value(variant, angel) / points(variant, angel),
                points(variant, angel),
            )
        _strike(att, dfd, 0.6 if turn == 1 else 1.0)
        if not dfd.alive():
            break
    left_a, left_d = _strength(att), _strength(dfd)
    if not dfd.alive() and att.alive():
        wins = 0.5 + 0.5 * min(1.0, left_a / start_a)
    elif not att.alive() and dfd.alive():
        wins = 0.5 - 0.5 * min(1.0, left_d / start_d)
    elif not att.alive():
        wins = 0.5
    else:  # time loss: the attacker loses, less surely the closer he came
        wins = 0.5 * min(1.0, (1 - left_d / start_d))
    timed_out = bool(att.alive()) and bool(dfd.alive())
    return Outcome(
        attacker_wins=max(0.0, min(1.0, wins)),
        attacker_lost=sum(att.worth) if timed_out else _lost(att),
        defender_lost=_lost(dfd),
        attacker_left=() if timed_out else tuple(att.names[i] for i in att.alive()),
        defender_left=tuple(dfd.names[i] for i in dfd.alive()),
        turns=turn,
    )


def expected(weighed: Sequence[tuple[Outcome, float]]) -> Outcome:
    """
    Outcomes weighed by their chances (a battleland a die will choose): the numbers
    averaged, the survivors those of the likeliest (the first of equals).
    """
    if len(weighed) == 1:
        return weighed[0][0]
    total = sum(w for _, w in weighed)
    likeliest = max(weighed, key=lambda pair: pair[1])[0]

    def mean(pick: Callable[[Outcome], float]) -> float:
        return sum(pick(o) * w for o, w in weighed) / total

    return Outcome(
        attacker_wins=mean(lambda o: o.attacker_wins),
        attacker_lost=mean(lambda o: o.attacker_lost),
        defender_lost=mean(lambda o: o.defender_lost),
        attacker_left=likeliest.attacker_left,
        defender_left=likeliest.defender_left,
        turns=round(mean(lambda o: o.turns)),
    )
