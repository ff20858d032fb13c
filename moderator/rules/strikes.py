"""
Strikes and rangestrikes: strike numbers, dice, the choice of penalties for
carry-over and the allocation of carried damage (rules 12-13, the hazard
chart 11.7 and Wolff's errata 11.7, 12.0-12.7, 13.x, which win over the
rulebook where they disagree).

Pure functions of the battleland and the fighters; nothing here rolls.

Melee (12.0-12.5):

* ``best_strike`` is the strike with maximum effectiveness (Wolff 11.7/12.0):
  every hazard benefit taken, every hazard penalty applied.
* ``strike_options`` lists the strikes a player may declare against one
  target: the best one, and each reduced one (higher strike number and/or
  fewer dice; forsaking a benefit is a penalty) that opens carry-over to a
  set of characters no less-penalized strike opens, provided rolling all
  sixes could still leave an excess hit on the target (Wolff 11.7, 12.2,
  12.4, 12.5).
* ``carry_choices`` lists, once the dice are rolled, every legal way to
  carry the excess hits (Wolff 12.4: by character, optional, all or nothing
  to a character not slain by it).

Rangestrikes (13.0-13.5): ``rangestrike_options`` and ``rangestrike_refusal``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from moderator.records import record
from moderator.rules.battlefield import (
    Fighter,
    crossing,
    enemies_in_contact,
    in_contact,
    terrain,
)
from moderator.rules.sightline import (
    MAX_RANGE,
    WARLOCK,
    max_range,
    rangestrike_paths,
    strike_range,
)
from moderator.rules.variant import Battleland

#: 12.7/Wolff 12.7: a strike never needs more than a six (sixes always hit)
#: and may need as little as a one (ones do not always miss).
LOWEST_STRIKE_NUMBER, HIGHEST_STRIKE_NUMBER = 1, 6

#: 1981 27E (``hydra_three_heads``): the Hydra's three heads, each a rangestrike of two dice.
HEADED = {"Hydra": 3}
HEAD_DICE = 2



def strike_number(attacker_skill: int, defender_skill: int) -> int:
    """The strike chart (12.7): 4 - attacker's skill + target's skill, kept within 1..6."""
    return max(
        LOWEST_STRIKE_NUMBER, min(HIGHEST_STRIKE_NUMBER, 4 - attacker_skill + defender_skill)
    )


def hits(rolls: Sequence[int], strike_number: int) -> int:
    """Dice at or above the strike number hit; a six always hits (12.0, Wolff 12.7)."""
    if not LOWEST_STRIKE_NUMBER <= strike_number <= HIGHEST_STRIKE_NUMBER:
        raise ValueError(f"a strike number is 1 to 6, not {strike_number}")
    bad = [r for r in rolls if not 1 <= r <= 6]
    if bad:
        raise ValueError(f"dice show 1 to 6, not {bad}")
    return sum(1 for r in rolls if r >= strike_number or r == 6)


# --------------------------------------------------------------------------- melee


@record
class StrikeOption:
    """A strike a player may declare (12.2/12.4): target, strike number, dice, carry."""

    target: int  # fighter id
    strike_number: int
    dice: int
    #: fighter ids the excess damage may carry to, in id order (12.4, 12.5).
    carry: tuple[int, ...] = ()


def _placed(f: Fighter) -> str:
    if f.hex is None:
        raise ValueError(f"{f.creature} #{f.id} is not on the battleland")
    return f.hex


def best_strike(land: Battleland, striker: Fighter, target: Fighter) -> tuple[int, int]:
    """
    (strike number, dice) of ``striker``'s strike at ``target`` with maximum
    effectiveness: every hazard effect of the chart (11.7) and Wolff 11.7.

    Skill: a non-native striking out of bramble -1; a non-native striking up a
    slope -1; down a wall +1, up a wall -1. The target's skill: +1 for a
    bramble native in bramble struck by a non-native (Wolff 11.7: skill, not
    strike number). Dice: the power; +1 for a slope native striking down a
    slope, +2 for a dune native striking down a dune, -1 for a non-native
    striking up a dune, +2 for a volcano native striking out of the volcano.

    Raises ``ValueError`` unless the two are in contact (a cliff keeps
    adjacent characters out of contact: no strike across it, 11.3/11.7).
    """
    here, there = _placed(striker), _placed(target)
    if not in_contact(land, here, there):
        raise ValueError(f"{striker.creature} in {here} is not in contact with {there}")
    attack, defence, dice = striker.skill, target.skill, striker.power
    hazard, way = crossing(land, here, there)
    up, down = way > 0, way < 0
    if terrain(land, here) == "bramble" and not striker.native_to("bramble"):
        attack -= 1
    if (
        terrain(land, there) == "bramble"
        and target.native_to("bramble")
        and not striker.native_to("bramble")
    ):
        defence += 1
    if hazard == "slope":
        if down and striker.native_to("slope"):
            dice += 1
        if up and not striker.native_to("slope"):
            attack -= 1
    elif hazard == "wall":
        attack += 1 if down else -1
    elif hazard == "dune":
        if down and striker.native_to("dune"):
            dice += 2
        if up and not striker.native_to("dune"):
            dice -= 1
    if terrain(land, here) == "volcano" and striker.native_to("volcano"):
        dice += 2
    return strike_number(attack, defence), dice


def _up_dune(land: Battleland, a: str, b: str) -> bool:
    return crossing(land, a, b) == ("dune", 1)


def _carry_candidates(
    land: Battleland, striker: Fighter, target: Fighter, fighters: Iterable[Fighter]
) -> list[tuple[Fighter, int, int]]:
    """
    Living enemies in contact with the striker, other than the target, that
    damage may ever carry to, with the best strike against each as if it were
    the target (Wolff 12.2/12.4/12.5). No carry across a cliff (they are not in
    contact); none up a dune unless the strike itself goes up a dune (hazard
    chart; Wolff 11.7, natives too).
    """
    here, there = _placed(striker), _placed(target)
    dune_ok = _up_dune(land, here, there)
    found = []
    for other in enemies_in_contact(striker, fighters, land):
        if other.id in (target.id, striker.id):
            continue
        if not dune_ok and _up_dune(land, here, _placed(other)):
            continue
        found.append((other, *best_strike(land, striker, other)))
    return sorted(found, key=lambda t: t[0].id)


def _is_target(land: Battleland, striker: Fighter, target: Fighter) -> bool:
    return (
        target.side != striker.side
        and not target.slain
        and striker.hex is not None
        and target.hex is not None
        and in_contact(land, striker.hex, target.hex)
    )


def strike_options(
    land: Battleland, striker: Fighter, target: Fighter, fighters: Iterable[Fighter]
) -> list[StrikeOption]:
    """
    Every strike ``striker`` may declare at ``target``, the best one first.

    Wolff 11.7/12.0/12.2/12.4: a character strikes with maximum effectiveness
    unless penalties (a higher strike number, fewer dice; forsaking a benefit is
    a penalty, 12.5) allow possible carry-over that otherwise would not be
    allowed. A reduced strike is offered only if (a) rolling all sixes with its
    dice could do at least one excess hit on the target, and (b) it opens
    carry-over to a set of characters that no less-penalized strike opens: if
    dropping one of its penalties carries to the same set, the penalty is
    illegal. Damage may carry to C iff the best strike at C as if it were the
    target needs the same or a lower strike number and rolls the same or more
    dice (Wolff 12.2/12.4/12.5), plus the dune and cliff limits.

    An option whose dice cannot leave an excess hit lists no carry. A target
    that may not be struck (friendly, slain, off the board, not in contact)
    has no options: ``[]``.
    """
    if not _is_target(land, striker, target):
        return []
    fighters = list(fighters)
    best_sn, best_dice = best_strike(land, striker, target)
    others = _carry_candidates(land, striker, target, fighters)

    def carry(sn: int, dice: int) -> frozenset[int]:
        return frozenset(o.id for o, o_sn, o_dice in others if o_sn <= sn and o_dice >= dice)

    def option(sn: int, dice: int) -> StrikeOption:
        reach = carry(sn, dice) if dice > target.remaining else frozenset()
        return StrikeOption(target.id, sn, dice, tuple(sorted(reach)))

    options = [option(best_sn, best_dice)]
    # The carry set only changes at the strike numbers and dice of the other
    # characters, so those are the only reductions worth a look.
    numbers = sorted({best_sn, *(sn for _, sn, _ in others if sn > best_sn)})
    dice_counts = sorted({best_dice, *(d for _, _, d in others if d < best_dice)}, reverse=True)
    for i, sn in enumerate(numbers):
        for j, dice in enumerate(dice_counts):
            if (i, j) == (0, 0) or dice <= target.remaining:
                continue
            reach = carry(sn, dice)
            # Less-penalized neighbours: one step less on either penalty.
            if i and carry(numbers[i - 1], dice) >= reach:
                continue
            if j and carry(sn, dice_counts[j - 1]) >= reach:
                continue
            options.append(option(sn, dice))
    return options


def carry_choices(
    land: Battleland,
    striker: Fighter,
    option: StrikeOption,
    fighters: Iterable[Fighter],
    hits: int,
) -> list[tuple[tuple[int, int], ...]]:
    """
    Every legal allocation of the excess of ``hits`` over what slays the
    target, as sequences of (fighter id, damage), the empty one (no carry)
    first.

    ``fighters`` are as they stood when the strike was declared, before its
    damage: the excess is ``hits`` minus the target's remaining hits.

    Wolff 12.4: carry-over is optional and by character. Once damage carries
    to a character, all the remaining excess goes to it, up to what slays it;
    if it is slain and damage remains, the player may carry on to another
    allowed character or stop. Only the characters of ``option.carry`` that
    are still living enemies in contact with the striker may receive damage.
    Sequences that differ only in order are all listed (the order is how the
    player states it).
    """
    by_id = {f.id: f for f in fighters}
    target = by_id.get(option.target)
    if target is None:
        raise ValueError(f"no fighter #{option.target} in this battle")
    excess = hits - target.remaining
    allowed = {f.id for f in enemies_in_contact(striker, by_id.values(), land)}
    room = {i: by_id[i].remaining for i in option.carry if i in allowed and i != target.id}
    return excess_allocations(excess, room)


def excess_allocations(excess: int, room: Mapping[int, int]) -> list[tuple[tuple[int, int], ...]]:
    """
    The allocations of ``carry_choices`` from the excess hits and, for each
    character damage may carry to, the hits that would slay it (Wolff 12.4).
    """
    if excess <= 0:
        return [()]
    found: list[tuple[tuple[int, int], ...]] = []

    def extend(done: tuple[tuple[int, int], ...], left: int) -> None:
        found.append(done)
        used = {i for i, _ in done}
        for i, need in room.items():
            if i in used or need <= 0:
                continue
            if need >= left:  # all of the rest goes here and stops here
                found.append((*done, (i, left)))
            else:  # slain; the player may stop or go on
                extend((*done, (i, need)), left - need)

    extend((), excess)
    return found


# --------------------------------------------------------------------------- rangestrikes


@record
class RangestrikeOption:
    """A rangestrike a player may declare (13.x): never any carry-over (13.0)."""

    target: int  # fighter id
    strike_number: int
    dice: int
    #: the hexes the striker picks where the line runs along a hexside (13.3); may be empty.
    via: tuple[str, ...] = ()


def rangestrike_refusal(striker: Fighter, target: Fighter) -> str | None:
    """
    Why ``striker`` may not rangestrike ``target`` at all, whatever the
    battleland; None if nothing in the two characters forbids it.

    Wolff 13.5: an attempt at a lord (Titan, Angel, Archangel) by anything but
    a Warlock is illegal, and is rejected without using up the rangestrike.
    Range, paths, contact and the phase are for ``rangestrike_options``.
    """
    if not striker.kind.rangestrikes:
        return f"a {striker.creature} cannot rangestrike (13.0: only characters with the bolt)"
    if target.side == striker.side:
        return "a character may not rangestrike a friend (12.1)"
    if target.slain:
        return f"the {target.creature} is already slain (Wolff 12.0)"
    if target.kind.lord and striker.creature != WARLOCK:
        return (
            f"the {target.creature} is a lord, immune to rangestrikes except from a Warlock (13.5)"
        )
    return None


def rangestrike_options(
    land: Battleland,
    striker: Fighter,
    target: Fighter,
    fighters: Iterable[Fighter],
    *,
    phasing: bool,
    heads: bool = False,
) -> list[RangestrikeOption]:
    """
    Every rangestrike ``striker`` may declare at ``target``, the best first;
    ``[]`` when there is none.

    13.0: only the phasing player's characters with the bolt, never while in
    contact with an enemy, never at a lord except by a Warlock (13.5). 13.2: the
    range (both end hexes counted) is at most the printed skill, never beyond 4
    (Wolff 11.7/13.2: hazards that change the skill do not change the range);
    at range 4 the skill is one less. 13.1: half the power, rounded down, in
    dice. Per unblocked path (13.3): -1 skill per intervening bramble for a
    non-native striker; -1 skill per wall crossed going up; +1 skill for a
    bramble native defending in bramble against a non-native; +1 to the strike
    number against a dragon (volcano native) in the volcano (Wolff 11.7); +2
    dice for a dragon rangestriking from the volcano. 13.5: a Warlock is never
    blocked nor affected by hazards (not even the volcano's or bramble's
    defence, Wolff 11.7/13.5) and has no range-4 penalty.

    Wolff 13.3: with two unblocked paths the striker picks one before rolling,
    even if the strike numbers differ, so each path's strike is an option; paths
    giving the same strike number and dice are one option (the first path's
    ``via``).
    """
    if not phasing or rangestrike_refusal(striker, target) is not None:
        return []
    if striker.hex is None or target.hex is None:
        return []
    fighters = list(fighters)
    if enemies_in_contact(striker, fighters, land):
        return []
    distance = strike_range(striker.hex, target.hex)
    if distance > max_range(striker) or distance > MAX_RANGE:
        return []
    warlock = striker.creature == WARLOCK
    attack, defence = striker.skill, target.skill
    if distance == MAX_RANGE and not warlock:
        attack -= 1
    dice = HEAD_DICE if heads and striker.creature in HEADED else striker.power // 2
    if terrain(land, striker.hex) == "volcano" and striker.native_to("volcano"):
        dice += 2
    volcano_defence = 0
    if not warlock:
        if (
            terrain(land, target.hex) == "bramble"
            and target.native_to("bramble")
            and not striker.native_to("bramble")
        ):
            defence += 1
        if terrain(land, target.hex) == "volcano" and target.native_to("volcano"):
            volcano_defence = 1
    found: dict[tuple[int, int], RangestrikeOption] = {}
    for via, seen in rangestrike_paths(land, striker, target, fighters):
        if seen.blocked:
            continue
        skill = attack - seen.walls_up
        if not striker.native_to("bramble"):
            skill -= seen.brambles
        sn = strike_number(skill, defence + volcano_defence)  # +1 to the strike number
        found.setdefault((sn, dice), RangestrikeOption(target.id, sn, dice, tuple(via)))
    return sorted(found.values(), key=lambda o: (o.strike_number, -o.dice))
