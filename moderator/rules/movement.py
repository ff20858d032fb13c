"""
Masterboard movement (rules 7 and 8, Wolff 6.2, 7.0, 7.1, 8.0-8.2, 10.4).

``legion_moves`` lists every legal destination of one legion for the roll:
normal moves that follow the signs, tower teleports and Titan teleports,
each with the battle entry sides an engagement there could use.
``teleport_refusal`` says why a teleport the player asked for is not one of them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping

from moderator.records import record
from moderator.rules.errors import RuleError
from moderator.rules.muster import MAX_HEIGHT
from moderator.rules.state import GameState, Legion
from moderator.rules.variant import Land, Sign

LORDS = ("Titan", "Angel", "Archangel")
SIDES = ("left", "right", "bottom")
TITAN_TELEPORT_SCORE = 400
TELEPORT_ROLL = 6
TOWER_TELEPORT_REACH = 6  # 8.1: lands away from the tower


@record
class MoveOption:
    """One destination: ``entries`` is empty when no engagement follows."""

    land: int
    entries: tuple[str, ...]
    teleport: str | None  # None, "tower" or "titan"
    lords: tuple[str, ...] = ()  # the lords that may be shown for a teleport


def _occupancy(state: GameState, mover: str) -> tuple[set[int], set[int], set[int]]:
    """(lands with the mover's legions, lands with enemies, engaged lands)."""
    own: set[int] = set()
    enemy: set[int] = set()
    for lg in state.legions.values():
        (own if lg.owner == mover else enemy).add(lg.land)
    return own, enemy, own & enemy


def normal_moves(state: GameState, legion: Legion, roll: int) -> dict[int, set[str]]:
    """
    Destinations reachable by following the signs, with entry sides.

    7.2-7.5: the first step must use a Block if the land has one, else any
    sign; later steps follow triple arrows if the land has them, else single
    arrows, never straight back.  A legion stops on entering an enemy's
    land; engaged lands cannot be entered or crossed (7.1); it may pass its
    own legions but not end on one (other than itself, Wolff 6.2).
    """
    lands = state.variant.lands
    _own, enemy, engaged = _occupancy(state, legion.owner)
    own_elsewhere = {
        lg.land
        for lg in state.legions.values()
        if lg.owner == legion.owner and lg.marker != legion.marker
    }
    result: dict[int, set[str]] = {}
    start = lands[legion.land]
    blocks = [x for x in start.exits if x.sign is Sign.BLOCK]
    first = blocks or list(start.exits)
    stack: list[tuple[int, int, int]] = [(x.to, legion.land, 1) for x in first]
    seen: set[tuple[int, int, int]] = set()
    while stack:
        here, came_from, steps = stack.pop()
        if (here, came_from, steps) in seen:
            continue
        seen.add((here, came_from, steps))
        if here in engaged:
            continue
        if here in enemy:
            result.setdefault(here, set()).add(lands[here].entry_sides[came_from])
            continue
        if steps == roll:
            if here not in own_elsewhere:
                result.setdefault(here, set())
            continue
        exits = lands[here].exits
        triple = [x for x in exits if x.sign is Sign.ARROWS]
        onward = triple or [x for x in exits if x.sign is Sign.ARROW]
        stack.extend((x.to, here, steps + 1) for x in onward if x.to != came_from)
    return result


def _within(lands: Mapping[int, Land], start: int, distance: int) -> set[int]:
    """Lands up to ``distance`` borders away, by any border (8.1)."""
    found = {start: 0}
    queue = deque([start])
    while queue:
        land = queue.popleft()
        if found[land] == distance:
            continue
        for n in lands[land].neighbours:
            if n not in found:
                found[n] = found[land] + 1
                queue.append(n)
    return set(found) - {start}


def has_teleported(state: GameState) -> bool:
    """8.0: only one legion may teleport per movement phase."""
    return any(m.teleport for m in state.moves)


def teleport_moves(state: GameState, legion: Legion, roll: int) -> list[MoveOption]:
    """Tower teleport (8.1, Wolff 8.1) and Titan teleport (8.2, Wolff 7.1/8.2/10.4)."""
    if roll != TELEPORT_ROLL or has_teleported(state):
        return []
    variant = state.variant
    options: list[MoveOption] = []
    occupied = {lg.land for lg in state.legions.values()}
    lords = tuple(sorted({c for c in legion.contents if c in LORDS}))
    if lords and variant.lands[legion.land].is_tower:
        targets = _within(variant.lands, legion.land, TOWER_TELEPORT_REACH) | set(variant.towers)
        for land in sorted(targets - occupied - {legion.land}):
            options.append(MoveOption(land=land, entries=(), teleport="tower", lords=lords))
    owner = state.player(legion.owner)
    if "Titan" in legion.contents and owner.score >= TITAN_TELEPORT_SCORE:
        _own, enemy, engaged = _occupancy(state, legion.owner)
        for land in sorted(enemy - engaged):
            entries = ("bottom",) if variant.lands[land].is_tower else SIDES
            options.append(
                MoveOption(land=land, entries=entries, teleport="titan", lords=("Titan",))
            )
    return options


def legion_moves(state: GameState, legion: Legion) -> list[MoveOption]:
    """Every legal move of an unmoved legion of the mover for the current roll."""
    if state.roll is None or legion.moved or legion.owner != state.active:
        return []
    if seven_high_stays(state, legion):
        return []
    options = [
        MoveOption(land=land, entries=tuple(s for s in SIDES if s in sides), teleport=None)
        for land, sides in sorted(normal_moves(state, legion, state.roll).items())
    ]
    return options + teleport_moves(state, legion, state.roll)


def can_move_normally(state: GameState, legion: Legion) -> bool:
    """Whether the legion has a move without teleporting (Wolff 4.3, 6.2)."""
    if state.roll is None or seven_high_stays(state, legion):
        return False
    return bool(normal_moves(state, legion, state.roll))


def seven_high_stays(state: GameState, legion: Legion) -> bool:
    """1980 4E/8D (``seven_high_legions_move`` off): a legion of seven may not move."""
    return legion.height >= MAX_HEIGHT and not state.variant.options.seven_high_legions_move


def teleport_refusal(state: GameState, legion: Legion, land: int) -> RuleError:
    """
    Why ``legion`` may not teleport to ``land`` now, as a refusal the player can act on.

    A teleport order does not say which kind it is; the destination does (8.1: a tower
    teleport ends on a vacant land, 8.2: a Titan teleport on another player's legion), so
    the reasons are looked for in that order: the roll, the one teleport a turn, the
    lords, then what stands on the destination.
    """
    marker, roll = legion.marker, state.roll
    if roll != TELEPORT_ROLL:
        why = f"teleports need a roll of 6 (8.1, 8.2), not {roll}"
        return _refused("E-TELEPORT-ROLL", why, state, legion, land)
    if has_teleported(state):
        first = next(m.marker for m in state.moves if m.teleport)
        return _refused(
            "E-TELEPORT-ONCE",
            f"{first} has teleported this turn and only one legion may teleport each "
            f"movement phase (8.0); 'undo {first}' first to teleport {marker} in its place",
            state,
            legion,
            land,
        )
    variant = state.variant
    if land not in variant.lands:
        return _refused("E-TELEPORT-LAND", f"there is no land {land}", state, legion, land)
    if not any(c in LORDS for c in legion.contents):
        return _refused(
            "E-TELEPORT-NO-LORD",
            f"{marker} holds no lord (Titan, Angel or Archangel) to show, and only a legion "
            "with a lord may teleport (8.0-8.2)",
            state,
            legion,
            land,
        )
    if land == legion.land:
        return _refused(
            "E-TELEPORT-SAME-LAND",
            f"a teleport must end on another land than {land}, where it starts (Wolff 8.1)",
            state,
            legion,
            land,
        )
    here = state.legions_at(land)
    own = [lg.marker for lg in here if lg.owner == legion.owner]
    enemies = [lg for lg in here if lg.owner != legion.owner]
    if own and enemies:
        return _refused(
            "E-TELEPORT-ENGAGED",
            f"your legion {own[0]} is already engaged on {land}, and no teleport may join "
            "it there (Wolff 7.1/8.2)",
            state,
            legion,
            land,
        )
    if own:
        return _refused(
            "E-TELEPORT-OWN",
            f"your legion {own[0]} stands on {land}, and no move may end on another of your "
            "legions (7.1)",
            state,
            legion,
            land,
        )
    if enemies:
        return _titan_refusal(state, legion, land)
    return _tower_refusal(state, legion, land)


def _titan_refusal(state: GameState, legion: Legion, land: int) -> RuleError:
    """8.2: onto another player's legion only the Titan's legion teleports, from 400 points."""
    if "Titan" not in legion.contents:
        return _refused(
            "E-TELEPORT-NO-TITAN",
            f"only the legion with your Titan may teleport onto another player's legion "
            f"(8.2), and {legion.marker} has none; a tower teleport ends on a vacant land (8.1)",
            state,
            legion,
            land,
        )
    score = state.player(legion.owner).score
    return _refused(
        "E-TELEPORT-SCORE",
        f"a Titan teleport onto another player's legion needs a score of "
        f"{TITAN_TELEPORT_SCORE} (8.2); you have {score}",
        state,
        legion,
        land,
    )


def _tower_refusal(state: GameState, legion: Legion, land: int) -> RuleError:
    """8.1: to a vacant land, from a tower, to a tower or a land up to six lands away."""
    if state.variant.lands[legion.land].is_tower:
        return _refused(
            "E-TELEPORT-FAR",
            f"{land} is neither a tower nor within {TOWER_TELEPORT_REACH} lands of tower "
            f"{legion.land} (8.1)",
            state,
            legion,
            land,
        )
    titan = "Titan" in legion.contents
    if titan and state.player(legion.owner).score >= TITAN_TELEPORT_SCORE:
        return _refused(
            "E-TELEPORT-VACANT",
            f"a Titan teleport must end on another player's legion and engage it (8.2), "
            f"and {land} is vacant; a tower teleport to a vacant land starts in a tower (8.1)",
            state,
            legion,
            land,
        )
    return _refused(
        "E-TELEPORT-NOT-TOWER",
        f"{legion.marker} is not in a tower, and only a tower teleport (8.1) may end on "
        f"a vacant land such as {land}; a Titan teleport must end on another player's "
        "legion (8.2)",
        state,
        legion,
        land,
    )


_LISTED = 8  # more destinations than this are left to the 'moves' query


def _refused(code: str, why: str, state: GameState, legion: Legion, land: int) -> RuleError:
    """The refusal, saying where the legion may go instead."""
    options = legion_moves(state, legion)
    teleports = sorted({o.land for o in options if o.teleport})
    normal = sorted({o.land for o in options if not o.teleport})
    if len(teleports) > _LISTED:
        instead = f"it may teleport to {len(teleports)} lands; 'moves {legion.marker}' lists them"
    elif teleports:
        instead = f"it may teleport to {', '.join(map(str, teleports))}"
    elif normal:
        instead = f"move it by the signs instead, to {', '.join(map(str, normal))}"
    else:
        instead = "it has no move this turn"
    return RuleError(code, f"{legion.marker} cannot teleport to {land}: {why}; {instead}")
