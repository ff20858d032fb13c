"""
Battle movement: where one character may go in a maneuver phase (rules 11.0-11.7,
the hazard chart and Wolff's errata 2.2, 10.1, 11.7).

``reach`` lists every hex a character may end its move in, with the movement points
the cheapest way there costs; ``contact_locked`` tells whether it may move at all.

The rules as implemented:

* The allowance is the character's skill (11.2).  A character that starts its
  maneuver phase in contact with a living enemy cannot move (11.3; adjacent
  characters separated by a cliff are not in contact, hazard chart).  Moving past
  enemies never stops a mover (11.3: there are no zones of control).
* An off-board character may move only on its side's first maneuver phase (or when
  the caller says so for a summoned angel or a reinforcement): its first hex must be
  an entry hex and counts as a hex entered, hazard cost included (11.1, Wolff
  2.2/10.1).  Tower deployment (10.2) is not movement and is left to the caller.
* A non-flier cannot enter or pass a hex holding any character, friend or foe
  (11.5).  A flier may fly over occupied hexes but lands in an empty one (11.5).
* Entry costs (11.4, hazard chart, Wolff 11.7), never more than 2 (the slowdowns
  are not cumulative):

  ======== =============================================================
  bramble  2 for non-natives, fliers included when they land there
  drift    2 for non-natives, fliers included when they land there
  sand     2 for non-flying non-natives (Wolff 11.7: fliers are not slowed)
  bog      natives only; fliers may fly over it, only natives land
  tree     nobody enters or lands; fliers may fly over it
  lake     as a tree (Badlands' Fort, Town and Waterhole; docs/variants.md)
  volcano  natives (Dragons) only, flying over included (11.4)
  slope    2 up across it for non-flying non-natives of slope
  wall     2 up across it for non-fliers
  cliff    non-fliers never cross it, up or down
  dune     no effect on movement
  ======== =============================================================

  Leaving a hex costs nothing (11.4).  A slowed entry needs two points left;
  without them the hex cannot be entered (11.4).
* A flier flies up to its skill in hexes, each hex passed over costing 1, and
  ignores every hazard except the volcano until it lands; landing in a slowing hex
  counts as two hexes (11.4).  Hexsides never slow a flier.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence

from moderator.rules.battlefield import Fighter, crossing, enemies_in_contact, terrain
from moderator.rules.variant import Battleland

#: Hex terrains that slow a non-native entering (or a flier landing in) them (11.4).
_SLOWING = frozenset({"bramble", "drift"})
#: Slows only non-flying non-natives (Wolff 11.7).
_SLOWING_WALKERS = frozenset({"sand"})
#: Only natives may enter (walk in or land); fliers may pass over.
_NATIVES_ONLY = frozenset({"bog"})
#: Only natives may enter or even fly over (11.4: only Dragons cross a volcano).
_NATIVES_ONLY_EVEN_FLYING = frozenset({"volcano"})
#: Nobody may enter or land; fliers may pass over (a lake: Badlands, docs/variants.md).
_FORBIDDEN = frozenset({"tree", "lake"})

#: Off the battleland: the start of an entering character's move.
_OFF = ""


def contact_locked(land: Battleland, fighter: Fighter, fighters: Iterable[Fighter]) -> bool:
    """11.3: on the board and adjacent to a living enemy not across a cliff."""
    return bool(enemies_in_contact(fighter, fighters, land))


def reach(
    land: Battleland,
    fighter: Fighter,
    fighters: Sequence[Fighter],
    *,
    first_maneuver: bool,
    entry_hexes: tuple[str, ...],
) -> dict[str, int]:
    """
    Every hex ``fighter`` may end this maneuver phase in -> movement points it costs.

    ``fighters`` is everyone in the battle (the mover may be among them).  The
    starting hex is never listed: staying put is not a move.  ``first_maneuver``
    and ``entry_hexes`` matter only for a fighter off the board (``hex`` None).
    Slain fighters are ignored: by a maneuver phase they have left the board (12.6).
    """
    if fighter.hex is None:
        if not first_maneuver:
            return {}
    elif contact_locked(land, fighter, fighters):
        return {}
    occupied = {f.hex for f in fighters if f.hex is not None and f.id != fighter.id and not f.slain}
    if fighter.flies:
        found = _flight(land, fighter, occupied, entry_hexes)
    else:
        found = _walk(land, fighter, occupied, entry_hexes)
    found.pop(_OFF, None)
    if fighter.hex is not None:
        found.pop(fighter.hex, None)
    return dict(sorted(found.items()))


# --------------------------------------------------------------------------- costs


def _may_stand(land: Battleland, fighter: Fighter, label: str) -> bool:
    """May ``fighter`` end a move (or, walking, set foot) in ``label``?"""
    kind = terrain(land, label)
    if kind in _FORBIDDEN:
        return False
    if kind in _NATIVES_ONLY or kind in _NATIVES_ONLY_EVEN_FLYING:
        return fighter.native_to(kind)
    return True


def _may_fly_over(fighter: Fighter, kind: str) -> bool:
    return kind not in _NATIVES_ONLY_EVEN_FLYING or fighter.native_to(kind)


def _landing_cost(land: Battleland, fighter: Fighter, label: str) -> int:
    """The hex's own cost: 2 if it slows this character (bramble, drift; sand on foot)."""
    kind = terrain(land, label)
    slowing = _SLOWING if fighter.flies else _SLOWING | _SLOWING_WALKERS
    return 2 if kind in slowing and not fighter.native_to(kind) else 1


def _step_cost(land: Battleland, fighter: Fighter, a: str, b: str) -> int | None:
    """Cost of walking from ``a`` (``_OFF``: from off the board) into ``b``; None if barred."""
    if not _may_stand(land, fighter, b):
        return None
    cost = _landing_cost(land, fighter, b)
    if a != _OFF:
        hazard, way = crossing(land, a, b)
        if hazard == "cliff":
            return None
        if way > 0 and (hazard == "wall" or (hazard == "slope" and not fighter.native_to("slope"))):
            cost = 2  # 11.4: costs are not cumulative; a slowed entry counts as two hexes
    return cost


def _walk(
    land: Battleland, fighter: Fighter, occupied: set[str], entry_hexes: tuple[str, ...]
) -> dict[str, int]:
    """Cheapest walking cost to every hex within the skill (Dijkstra over the land)."""
    start = fighter.hex if fighter.hex is not None else _OFF
    best: dict[str, int] = {start: 0}
    queue: list[tuple[int, str]] = [(0, start)]
    while queue:
        spent, here = heapq.heappop(queue)
        if spent > best[here]:
            continue
        ahead = entry_hexes if here == _OFF else tuple(land.neighbours(here).values())
        for there in ahead:
            if there in occupied:
                continue  # 11.5: a non-flier neither enters nor passes an occupied hex
            cost = _step_cost(land, fighter, here, there)
            if cost is None:
                continue
            total = spent + cost
            if total <= fighter.skill and total < best.get(there, total + 1):
                best[there] = total
                heapq.heappush(queue, (total, there))
    return best


def _flight(
    land: Battleland, fighter: Fighter, occupied: set[str], entry_hexes: tuple[str, ...]
) -> dict[str, int]:
    """Flight distance (volcano avoided unless native) plus the landing cost."""
    if fighter.hex is not None:
        distance = {fighter.hex: 0}
        frontier = [fighter.hex]
    else:  # 11.1: the first hex is an entry hex and counts as one hex flown
        frontier = [h for h in entry_hexes if _may_fly_over(fighter, terrain(land, h))]
        distance = dict.fromkeys(frontier, 1)
    while frontier:
        nxt: list[str] = []
        for here in frontier:
            for there in land.neighbours(here).values():
                if there in distance or not _may_fly_over(fighter, terrain(land, there)):
                    continue
                distance[there] = distance[here] + 1
                nxt.append(there)
        frontier = nxt
    result: dict[str, int] = {}
    for label, flown in distance.items():
        if label in occupied or not _may_stand(land, fighter, label):
            continue
        total = flown + _landing_cost(land, fighter, label) - 1  # landing slowed: one more
        if total <= fighter.skill:
            result[label] = total
    return result
