"""
Masterboard movement (rules 7 and 8, Wolff 6.2, 7.0, 7.1, 8.0-8.2, 10.4).

``legion_moves`` lists every legal destination of one legion for the roll:
normal moves that follow the signs, tower teleports and Titan teleports,
each with the battle entry sides an engagement there could use.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from moderator.rules.state import GameState, Legion
from moderator.rules.variant import Sign, load_variant

LORDS = ("Titan", "Angel", "Archangel")
SIDES = ("left", "right", "bottom")
TITAN_TELEPORT_SCORE = 400


@dataclass(frozen=True, slots=True)
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
    lands = load_variant().lands
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


def _within(start: int, distance: int) -> set[int]:
    """Lands up to ``distance`` borders away, by any border (8.1)."""
    lands = load_variant().lands
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
    if roll != 6 or has_teleported(state):
        return []
    variant = load_variant()
    options: list[MoveOption] = []
    occupied = {lg.land for lg in state.legions.values()}
    lords = tuple(sorted({c for c in legion.contents if c in LORDS}))
    if lords and variant.lands[legion.land].is_tower:
        targets = _within(legion.land, 6) | set(variant.towers)
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
    options = [
        MoveOption(land=land, entries=tuple(s for s in SIDES if s in sides), teleport=None)
        for land, sides in sorted(normal_moves(state, legion, state.roll).items())
    ]
    return options + teleport_moves(state, legion, state.roll)


def can_move_normally(state: GameState, legion: Legion) -> bool:
    """Whether the legion has a move without teleporting (Wolff 4.3, 6.2)."""
    return state.roll is not None and bool(normal_moves(state, legion, state.roll))
