"""The schema check of a variant: its facts must hold together before a game is played.

A variant is data a group may write by hand (docs/variants.md), so a fault must be
caught when it is loaded, not in the middle of somebody's battle: signs that do not
pair as rule 7.3 prints them, a terrain without a battleland, a muster chain nobody
can climb from the tower creatures (18.3, 18.5), a count that is not positive.  Each
fault raises :class:`VariantDataError` naming the file it is in.
"""

from __future__ import annotations

from collections.abc import Mapping

from moderator.rules.variant_files import VariantDataError
from moderator.rules.variant_types import (
    HEX_TERRAINS,
    LABELS,
    SIDES,
    TOWER,
    TOWER_DEMILORDS,
    Sign,
    Variant,
)


def check_variant(variant: Variant, files: Mapping[str, str] | None = None) -> None:
    """Raise :class:`VariantDataError` on the first fault; ``files`` says where each file is."""
    where = dict(files or {})

    def fail(name: str, fault: str) -> VariantDataError:
        return VariantDataError(where.get(name, name), fault)

    for problem in (
        _signs(variant),
        _board(variant),
        _battlelands(variant),
        _placement(variant),
        _creatures(variant),
        _muster(variant),
        _reachable(variant),
        _markers(variant),
    ):
        if problem is not None:
            raise fail(*problem)


Fault = tuple[str, str] | None
_BOARD = "masterboard.toml"


def _board(v: Variant) -> Fault:
    """Every exit has its entry side on the other land and nothing else does (2.2/10.1)."""
    if len(v.towers) < 2:
        return _BOARD, f"the board has {len(v.towers)} Tower lands; a game needs two or more"
    into: dict[int, set[int]] = {number: set() for number in v.lands}  # land -> lands exiting to it
    for number, other in v.lands.items():
        for e in other.exits:
            into.setdefault(e.to, set()).add(number)
    for land in v.lands.values():
        for e in land.exits:
            if land.number not in v.lands[e.to].entry_sides:
                return _BOARD, f"land {e.to}: entered_from lacks {land.number}, which has an exit to it"
        extra = sorted(set(land.entry_sides) - into[land.number])
        if extra:
            return _BOARD, f"land {land.number}: entered_from names {extra}, with no exit into it"
        bad = sorted(set(land.entry_sides.values()) - set(SIDES))
        if bad:
            return _BOARD, f"land {land.number}: entry sides {bad} are not one of {', '.join(SIDES)}"
        if land.terrain != TOWER and land.terrain not in v.muster_chains:
            return "muster.toml", f"land {land.number}: the terrain {land.terrain!r} has no muster chain"
    return None


def _signs(v: Variant) -> Fault:
    """Rule 7.3: a triple arrow points one way; other borders carry a sign on each side."""
    for land in v.lands.values():
        targets = [e.to for e in land.exits]
        if len(targets) != len(set(targets)):
            return _BOARD, f"land {land.number}: two signs point to the same land"
        for e in land.exits:
            back = next((b.sign for b in v.lands[e.to].exits if b.to == land.number), None)
            pair = f"the border of {land.number} and {e.to}"
            if e.sign is Sign.ARROWS and back is not None:
                return _BOARD, f"{pair}: a triple arrow faces a {back.value} (7.3: it points one way)"
            if e.sign is not Sign.ARROWS and back is None:
                return _BOARD, f"{pair}: a {e.sign.value} on {land.number} faces no sign (7.3)"
            if e.sign is Sign.BLOCK and back is Sign.BLOCK:
                return _BOARD, f"{pair}: a block faces a block, so nobody may cross it (7.3)"
    return None


def _battlelands(v: Variant) -> Fault:
    file = "battlelands.toml"
    for land in v.lands.values():
        if land.terrain not in v.battlelands and not land.battleland:
            return file, f"the terrain {land.terrain!r} (land {land.number}) has no battleland"
    for name, b in v.battlelands.items():
        for h in b.hexes.values():
            if h.terrain not in HEX_TERRAINS:
                known = ", ".join(HEX_TERRAINS)
                return file, f"battleland {name}: hex {h.label} is {h.terrain!r}, not one of {known}"
            if not 0 <= h.elevation <= 3:
                return file, f"battleland {name}: hex {h.label} has elevation {h.elevation} (0-3)"
        if b.tower and not b.deploy:
            return file, f"battleland {name}: a tower battleland needs its deploy hexes (10.2)"
        stray = sorted({*b.deploy, *(x for hexes in b.entrances.values() for x in hexes)} - set(LABELS))
        if stray:
            return file, f"battleland {name}: no hexes {stray}"
    return None


def _placement(v: Variant) -> Fault:
    file = "placement.toml"
    for land in v.lands.values():
        if land.battleland and land.battleland not in v.battlelands:
            return file, f"land {land.number} is placed on {land.battleland!r}, no battleland"
    terrains = {land.terrain for land in v.lands.values()}
    for terrain, alternate in v.alternates.items():
        if terrain not in terrains:
            return file, f"alternate for {terrain!r}: no land of the masterboard has that terrain"
        if alternate not in v.battlelands:
            return file, f"the alternate of {terrain} is {alternate!r}, no battleland"
    return None


def _creatures(v: Variant) -> Fault:
    for c in v.creatures.values():
        if c.count <= 0 or c.power <= 0 or c.skill <= 0:
            return "creatures.toml", (
                f"{c.name}: count {c.count}, power {c.power} and skill {c.skill} must be positive"
            )
    return None


def _muster(v: Variant) -> Fault:
    file = "muster.toml"
    named = [n for chain in v.muster_chains.values() for n, _ in chain]
    named += [*v.tower_creatures, *v.warlock_qualifiers, *TOWER_DEMILORDS]
    named += [*v.starting_creatures, *(n for n, _ in v.acquirables)]
    unknown = sorted(set(named) - set(v.creatures))
    if unknown:
        return file, f"{', '.join(unknown)}: no such character in creatures.toml"
    for terrain, chain in v.muster_chains.items():
        for i, (name, needs) in enumerate(chain):
            if needs < 1:
                return file, f"chain {terrain}: {name} needs {needs}; it must be 1 or more"
            if i and needs > v.creatures[chain[i - 1][0]].count:
                return file, f"chain {terrain}: {name} needs {needs} of a kind with fewer counters"
    if any(count <= 0 for count in v.starting_creatures.values()) or v.guardian_needs < 1:
        return file, "the starting counts and guardian_needs must be positive"
    if not v.tower_creatures:
        return file, "the tower musters no creature (18.5)"
    return None


def _reachable(v: Variant) -> Fault:
    """18.3/18.5: starting from the tower creatures, every creature of every chain can be had.

    A creature can be mustered where one of its kind or one higher in the chain qualifies
    it, or enough of the one below it; a legion can always gather enough of one it can
    muster (the check on counts above makes sure the counters exist).
    """
    have = {*v.tower_creatures, *v.starting_creatures}
    grew = True
    while grew:
        grew = False
        for chain in v.muster_chains.values():
            names = [n for n, _ in chain]
            for i, name in enumerate(names):
                qualified = any(n in have for n in names[i:]) or (i > 0 and names[i - 1] in have)
                if qualified and name not in have:
                    have.add(name)
                    grew = True
    for terrain, chain in v.muster_chains.items():
        for name, _ in chain:
            if name not in have:
                towers = ", ".join(v.tower_creatures)
                return "muster.toml", (
                    f"chain {terrain}: no legion can ever muster a {name}: nothing that "
                    f"qualifies it can be had starting from the tower creatures ({towers})"
                )
    return None


def _markers(v: Variant) -> Fault:
    file = "markers.toml"
    if len(v.colours) < 2:
        return file, "a game needs two colours or more"
    codes = [code for pairs in v.markers.values() for code, _ in pairs]
    twice = sorted({c for c in codes if codes.count(c) > 1})
    if twice:
        return file, f"the marker codes {twice} are given twice"
    for colour, pairs in v.markers.items():
        if not pairs:
            return file, f"colour {colour} has no markers"
    return None
