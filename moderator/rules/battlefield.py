"""
The battleland as the battle rules see it: fighters on hexes, and the
hexside facts every battle rule asks about (rules 10-13, hazard chart 11.7).

``Fighter`` is one character in a battle; its power is stored because a
Titan's grows with its owner's score (19.1), and it names the game's variant, whose
creature table says what it is (natives, flight, rangestrikes).
"""

from __future__ import annotations

from collections.abc import Iterable

from moderator.records import record
from moderator.rules.variant import Battleland, CreatureType, load_variant

ATTACKER, DEFENDER = "attacker", "defender"


@record(kw_only=True)
class Fighter:
    id: int  # stable within a battle
    side: str  # ATTACKER or DEFENDER
    creature: str
    power: int
    skill: int
    hex: str | None = None  # None: off the battleland (not entered yet)
    hits: int = 0
    variant_name: str  # the game's variant (``GameState.variant_name``)

    @property
    def kind(self) -> CreatureType:
        return load_variant(self.variant_name).creature(self.creature)

    @property
    def slain(self) -> bool:
        return self.hits >= self.power

    @property
    def remaining(self) -> int:
        """Hits still needed to slay it."""
        return max(0, self.power - self.hits)

    def native_to(self, hazard: str) -> bool:
        return hazard in self.kind.natives

    @property
    def flies(self) -> bool:
        return self.kind.flies


def on_board(fighters: Iterable[Fighter]) -> dict[str, Fighter]:
    """Hex -> fighter standing there (slain fighters stay until the phase ends, 12.6)."""
    return {f.hex: f for f in fighters if f.hex is not None}


def direction(land: Battleland, a: str, b: str) -> int | None:
    """The hexside of ``a`` that faces ``b`` (0 = N ... 5 = NW), or None if not adjacent."""
    for side, label in land.neighbours(a).items():
        if label == b:
            return side
    return None


def adjacent(land: Battleland, a: str, b: str) -> bool:
    return direction(land, a, b) is not None


def hexside(land: Battleland, a: str, b: str) -> tuple[str | None, str | None]:
    """
    The hazard on the side between adjacent hexes ``a`` and ``b`` and the hex atop it.

    Errata 11.7: a slope, wall, cliff or dune belongs to the hex atop it.
    Returns ``(None, None)`` for a plain side.
    """
    hazard = land.hexsides.get((a, b))
    if hazard is not None:
        return hazard, a
    hazard = land.hexsides.get((b, a))
    if hazard is not None:
        return hazard, b
    return None, None


def crossing(land: Battleland, a: str, b: str) -> tuple[str | None, int]:
    """
    The hazard crossed going from ``a`` into ``b`` and the way: +1 up, -1 down, 0 none.

    Going into the hex atop the hazard is going up it.
    """
    hazard, atop = hexside(land, a, b)
    if hazard is None:
        return None, 0
    return hazard, 1 if atop == b else -1


def elevation(land: Battleland, label: str) -> int:
    return land.hexes[label].elevation


def terrain(land: Battleland, label: str) -> str:
    return land.hexes[label].terrain


def in_contact(land: Battleland, a: str, b: str) -> bool:
    """11.3: adjacent and not separated by a cliff (hazard chart)."""
    return adjacent(land, a, b) and hexside(land, a, b)[0] != "cliff"


def enemies_in_contact(
    fighter: Fighter, fighters: Iterable[Fighter], land: Battleland
) -> list[Fighter]:
    """Living enemies in contact with ``fighter`` (slain ones are never targets, Wolff 12.0)."""
    if fighter.hex is None:
        return []
    return [
        f
        for f in fighters
        if f.side != fighter.side
        and f.hex is not None
        and not f.slain
        and in_contact(land, fighter.hex, f.hex)
    ]
