"""The values a variant is made of: lands, characters, battlelands, and the variant itself.

Plain frozen data with the battleland geometry they need; ``variant_files`` reads them
from a variant's TOML directory, ``variant_check`` checks that they hold together and
``variant`` finds a variant by name.  Kept apart from the loading so that the checks
and the reader can import these without importing each other.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import field

from moderator.records import record
from moderator.rules.options import DEFAULT_OPTIONS, RuleOptions

#: The Avalon Hill game: the variant of every game whose setup names none.
STANDARD = "standard"
TOWER = "Tower"
#: Battle entry sides of the attacker (errata 2.2/10.1).
SIDES = ("left", "right", "bottom")
#: The demi-lords a tower may muster besides the tower creatures (rule 18.5).
TOWER_DEMILORDS = ("Warlock", "Guardian")
HEXSIDE_KINDS = ("slope", "wall", "cliff", "dune")
#: The hex terrains the battle rules know (maneuver.py, sightline.py, strikes.py).
HEX_TERRAINS = ("plains", "bramble", "bog", "sand", "drift", "volcano", "tree", "tower", "lake")

# Battleland geometry (errata 2.2): columns A-F left to right, row 1 at the bottom.
_COLUMNS = "ABCDEF"
_HEIGHTS = (3, 4, 5, 6, 5, 4)
#: All 27 hex labels of a battleland, column by column.
LABELS: tuple[str, ...] = tuple(
    f"{c}{n}" for c, h in zip(_COLUMNS, _HEIGHTS) for n in range(1, h + 1)
)


class Sign(enum.Enum):
    """A movement sign printed on a land's side of a border (rule 7.3)."""

    BLOCK = "block"
    ARCH = "arch"
    ARROW = "arrow"
    ARROWS = "arrows"  # the triple arrow


@record
class Exit:
    """A sign on this land pointing to land ``to`` (rule 7.3)."""

    sign: Sign
    to: int


@record
class Land:
    """One land of the masterboard."""

    number: int
    terrain: str
    exits: tuple[Exit, ...]
    #: land a mover crosses FROM -> battle entry side (Wolff 2.2/10.1; towers: "bottom").
    entry_sides: Mapping[int, str] = field(hash=False)
    #: lands sharing a border, whichever way its signs point (tower teleport, 8.1).
    neighbours: frozenset[int]
    #: the battleland fought on here when the variant places one (Badlands); else the
    #: terrain's own.
    battleland: str = ""

    @property
    def battleland_name(self) -> str:
        """The battleland this land is fought on when nothing is rolled for it."""
        return self.battleland or self.terrain

    @property
    def is_tower(self) -> bool:
        return self.terrain == TOWER


@record
class CreatureType:
    """A kind of character: creature, demi-lord or lord (rules 3.0-3.5)."""

    name: str
    plural: str
    power: int  # the Titan's is the base 6; the rules add score // 100 (19.1)
    skill: int
    rangestrikes: bool
    flies: bool
    natives: frozenset[str]
    lord: bool
    demilord: bool
    summonable: bool
    count: int  # Wolff 3.5 counter mix; Titan: 1 (one per player)
    #: other spellings a player may write, e.g. "Cyclopes", "Hydrae" (lookup only).
    aliases: tuple[str, ...] = ()

    @property
    def value(self) -> int:
        """Points for slaying one (rule 16.0)."""
        return self.power * self.skill

    @property
    def is_creature(self) -> bool:
        return not (self.lord or self.demilord)


@record
class BattleHex:
    """One hex of a battleland."""

    label: str
    terrain: str  # plains, bramble, bog, sand, drift, volcano, tree, tower
    elevation: int


def neighbour_of(label: str, direction: int) -> str | None:
    """The hex next to ``label`` in ``direction`` (0=N clockwise to 5=NW), if on the board.

    Columns B, D, F sit half a hex lower than their neighbours, so the row offset of a
    diagonal step depends on which side of the long middle column D the step lies.
    """
    return _STEPS.get((label, direction))


def _compute_step(label: str, direction: int) -> str | None:
    col, row = _COLUMNS.index(label[0]), int(label[1:])
    if direction == 0:
        col2, row2 = col, row + 1
    elif direction == 3:
        col2, row2 = col, row - 1
    elif direction in (1, 2):  # eastward
        col2 = col + 1
        row2 = row + (1 if direction == 1 else 0) - (0 if col < 3 else 1)
    else:  # 4 (SW) or 5 (NW), westward
        col2 = col - 1
        row2 = row + (0 if direction == 5 else -1) + (0 if col <= 3 else 1)
    if not 0 <= col2 < len(_COLUMNS) or not 1 <= row2 <= _HEIGHTS[col2]:
        return None
    return f"{_COLUMNS[col2]}{row2}"


#: Every (hex, direction) -> neighbour, worked out once: the battle rules ask constantly.
_STEPS: dict[tuple[str, int], str] = {
    (label, d): n for label in LABELS for d in range(6) if (n := _compute_step(label, d)) is not None
}


@record
class Battleland:
    """The battle map used for one masterboard terrain."""

    terrain: str
    hexes: Mapping[str, BattleHex] = field(hash=False)
    #: (owner, neighbour) -> kind; the owner is the hex atop the hazard (errata 11.7).
    hexsides: Mapping[tuple[str, str], str] = field(hash=False)
    tower: bool
    deploy: tuple[str, ...]  # tower defender deployment (Wolff 10.2)
    #: "left"/"right"/"bottom" -> attacker entry hexes; "defender-<side>" -> the
    #: defender's entry hexes opposite that side (Wolff 2.2/10.1, rule 10.2).
    entrances: Mapping[str, tuple[str, ...]] = field(hash=False)

    def neighbour(self, label: str, direction: int) -> str | None:
        """The hex on side ``direction`` of ``label`` (0=N, 1=NE ... 5=NW), None off board."""
        if label not in self.hexes:
            raise KeyError(f"no hex {label!r} on the {self.terrain} battleland")
        if direction not in range(6):
            raise ValueError(f"hexside direction must be 0..5, not {direction!r}")
        return neighbour_of(label, direction)

    def neighbours(self, label: str) -> dict[int, str]:
        """Direction -> hex, for every side of ``label`` that touches another hex."""
        found = {d: self.neighbour(label, d) for d in range(6)}
        return {d: n for d, n in found.items() if n is not None}


@record
class Variant:
    """Everything static about one game of Titan (the board, characters, mustering)."""

    #: What a game's setup calls it (``load_variant`` finds it by this name).
    name: str
    lands: Mapping[int, Land] = field(hash=False)
    towers: tuple[int, ...]
    creatures: Mapping[str, CreatureType] = field(hash=False)
    #: terrain -> ((creature, needed), ...): `needed` of the PREVIOUS creature qualify.
    muster_chains: Mapping[str, tuple[tuple[str, int], ...]] = field(hash=False)
    tower_creatures: tuple[str, ...]
    guardian_needs: int
    warlock_qualifiers: tuple[str, ...]
    starting_creatures: Mapping[str, int] = field(hash=False)
    acquirables: tuple[tuple[str, int], ...]
    battlelands: Mapping[str, Battleland] = field(hash=False)
    markers: Mapping[str, tuple[tuple[str, str], ...]] = field(hash=False)
    colours: tuple[str, ...]
    #: What a player reads as its name ("TitanPlus"), and where its rules come from.
    title: str = ""
    source: str = ""
    #: terrain -> the alternate battleland a die may choose for it (Badlands).
    alternates: Mapping[str, str] = field(default_factory=dict, hash=False)
    #: The rule differences this variant turns on (defaults: 1982 with Wolff's errata).
    options: RuleOptions = DEFAULT_OPTIONS

    def __hash__(self) -> int:
        # By name: equal variants share it, and a cache keyed by a variant (the order
        # reader's markers, a robot's estimates) then hashes one string, not the tables.
        return hash(self.name)

    def creature(self, name: str) -> CreatureType:
        """Look a character up by name or plural, in any case ("ogres", "Cyclops")."""
        exact = self.creatures.get(name)
        if exact is not None:  # the common case, on every rules hot path
            return exact
        key = name.strip().casefold()
        for kind in self.creatures.values():
            if key in (s.casefold() for s in (kind.name, kind.plural, *kind.aliases)):
                return kind
        raise KeyError(f"unknown character {name!r}; known: {', '.join(self.creatures)}")

    def battlelands_at(self, number: int) -> tuple[str, ...]:
        """The battlelands a battle at land ``number`` may be fought on.

        One, unless option ``battleland_choice`` is "defender-roll" and the land's terrain
        has an alternate (the original Badlands rule): then the terrain's own and its
        alternate, in that order, which a die chooses between when the battle starts (a
        position file names which, docs/positions.md).  A land placed on a
        battleland of its own (Badlands' Fort, Town, Waterhole) is never rolled for.
        """
        land = self.lands[number]
        alternate = self.alternates.get(land.terrain)
        if (
            self.options.battleland_choice != "defender-roll"
            or alternate is None
            or land.battleland not in ("", land.terrain, alternate)
        ):
            return (land.battleland_name,)
        return (land.terrain, alternate)

    def musterable(self, terrain: str) -> tuple[str, ...]:
        """Every creature or demi-lord that may ever be mustered in ``terrain`` (18.0-18.5)."""
        if terrain == TOWER:
            return self.tower_creatures + TOWER_DEMILORDS
        try:
            return tuple(name for name, _ in self.muster_chains[terrain])
        except KeyError:
            raise KeyError(f"no masterboard terrain {terrain!r}") from None


