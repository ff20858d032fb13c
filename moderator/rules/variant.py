"""The static data of a game of Titan (a variant), loaded by name from our own TOML files.

Each variant's facts live in ``moderator/rules/data/<name>/*.toml`` (human-readable, one
table per land, creature or battleland) so that a reviewer can check them against the
printed game and Wolff's errata without reading code; ``standard`` is the Avalon Hill
game.  This module only turns them into frozen values and checks that they hold
together; the rules themselves live elsewhere and take the variant from the game's
state (``GameState.variant``), never from here directly.  The data are read through
:mod:`importlib.resources`, so they work from an installed wheel too.
"""

from __future__ import annotations

import enum
import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any

from moderator.rules.options import DEFAULT_OPTIONS, RuleOptions

#: The Avalon Hill game: the variant of every game whose setup names none.
STANDARD = "standard"
TOWER = "Tower"
#: Battle entry sides of the attacker (errata 2.2/10.1).
SIDES = ("left", "right", "bottom")
#: The demi-lords a tower may muster besides the tower creatures (rule 18.5).
_TOWER_DEMILORDS = ("Warlock", "Guardian")
_HEXSIDE_KINDS = ("slope", "wall", "cliff", "dune")

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


@dataclass(frozen=True, slots=True)
class Exit:
    """A sign on this land pointing to land ``to`` (rule 7.3)."""

    sign: Sign
    to: int


@dataclass(frozen=True, slots=True)
class Land:
    """One land of the masterboard."""

    number: int
    terrain: str
    exits: tuple[Exit, ...]
    #: land a mover crosses FROM -> battle entry side (Wolff 2.2/10.1; towers: "bottom").
    entry_sides: Mapping[int, str] = field(hash=False)
    #: lands sharing a border, whichever way its signs point (tower teleport, 8.1).
    neighbours: frozenset[int]

    @property
    def is_tower(self) -> bool:
        return self.terrain == TOWER


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class BattleHex:
    """One hex of a battleland."""

    label: str
    terrain: str  # plains, bramble, bog, sand, drift, volcano, tree, tower
    elevation: int


def _step(label: str, direction: int) -> str | None:
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


@dataclass(frozen=True, slots=True)
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
        return _step(label, direction)

    def neighbours(self, label: str) -> dict[int, str]:
        """Direction -> hex, for every side of ``label`` that touches another hex."""
        found = {d: self.neighbour(label, d) for d in range(6)}
        return {d: n for d, n in found.items() if n is not None}


@dataclass(frozen=True, slots=True)
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

    def musterable(self, terrain: str) -> tuple[str, ...]:
        """Every creature or demi-lord that may ever be mustered in ``terrain`` (18.0-18.5)."""
        if terrain == TOWER:
            return self.tower_creatures + _TOWER_DEMILORDS
        try:
            return tuple(name for name, _ in self.muster_chains[terrain])
        except KeyError:
            raise KeyError(f"no masterboard terrain {terrain!r}") from None


# --------------------------------------------------------------------------- loading


def _read(variant: str, name: str) -> dict[str, Any]:
    resource = files("moderator.rules") / "data" / variant / name
    return tomllib.loads(resource.read_text(encoding="utf-8"))


def _lands(raw: dict[str, Any]) -> dict[int, Land]:
    tables = raw["land"]
    touching: dict[int, set[int]] = {int(t["number"]): set() for t in tables}
    for t in tables:
        for e in t["exits"]:
            touching[t["number"]].add(e["to"])
            touching[e["to"]].add(t["number"])
    lands: dict[int, Land] = {}
    for t in tables:
        number = int(t["number"])
        lands[number] = Land(
            number=number,
            terrain=t["terrain"],
            exits=tuple(Exit(Sign(e["sign"]), int(e["to"])) for e in t["exits"]),
            entry_sides={int(k): v for k, v in t["entered_from"].items()},
            neighbours=frozenset(touching[number]),
        )
    return lands


def _creatures(raw: dict[str, Any]) -> dict[str, CreatureType]:
    return {
        t["name"]: CreatureType(
            name=t["name"],
            plural=t["plural"],
            power=t["power"],
            skill=t["skill"],
            rangestrikes=t["rangestrikes"],
            flies=t["flies"],
            natives=frozenset(t["natives"]),
            lord=t["lord"],
            demilord=t["demilord"],
            summonable=t["summonable"],
            count=t["count"],
            aliases=tuple(t.get("aliases", ())),
        )
        for t in raw["creature"]
    }


def _battlelands(raw: dict[str, Any]) -> dict[str, Battleland]:
    entrances = {side: tuple(hexes) for side, hexes in raw["entrances"].items()}
    result: dict[str, Battleland] = {}
    for terrain, t in raw["battleland"].items():
        hexes = {label: BattleHex(label, "plains", 0) for label in LABELS}
        for group in t.get("hexes", ()):
            for label in group["labels"]:
                if label not in hexes:
                    raise ValueError(f"{terrain}: no hex {label!r}")
                hexes[label] = BattleHex(label, group["terrain"], group["elevation"])
        hexsides: dict[tuple[str, str], str] = {}
        for kind in _HEXSIDE_KINDS:
            for pair in t.get(kind, ()):
                owner, other = pair.split(">")
                if other not in {_step(owner, d) for d in range(6)}:
                    raise ValueError(f"{terrain}: {kind} {pair!r} joins hexes that do not touch")
                if (owner, other) in hexsides or (other, owner) in hexsides:
                    raise ValueError(f"{terrain}: hexside {pair!r} is listed twice")
                hexsides[owner, other] = kind
        result[terrain] = Battleland(
            terrain=terrain,
            hexes=hexes,
            hexsides=hexsides,
            tower=t["tower"],
            deploy=tuple(t.get("deploy", ())),
            entrances=dict(entrances),
        )
    return result


def _check(variant: Variant) -> None:
    """Fail loudly on inconsistent data instead of misplaying a game later."""
    for land in variant.lands.values():
        for e in land.exits:
            if e.to not in variant.lands or land.number not in variant.lands[e.to].entry_sides:
                raise ValueError(f"land {land.number}: exit to {e.to} has no entry side there")
        if land.terrain not in variant.battlelands:
            raise ValueError(f"land {land.number}: no battleland for {land.terrain!r}")
        if not set(land.entry_sides.values()) <= set(SIDES):
            raise ValueError(f"land {land.number}: bad entry side in {land.entry_sides}")
    named = [n for chain in variant.muster_chains.values() for n, _ in chain]
    named += [*variant.tower_creatures, *variant.warlock_qualifiers, *_TOWER_DEMILORDS]
    named += [*variant.starting_creatures, *(n for n, _ in variant.acquirables)]
    unknown = sorted(set(named) - set(variant.creatures))
    if unknown:
        raise ValueError(f"unknown creatures in the muster data: {unknown}")


def _markers(raw: dict[str, Any]) -> dict[str, tuple[tuple[str, str], ...]]:
    result: dict[str, tuple[tuple[str, str], ...]] = {}
    for colour, table in raw["colour"].items():
        pairs = tuple(sorted(table["markers"].items()))
        if any(not code.startswith(table["code"]) for code, _ in pairs):
            raise ValueError(f"{colour}: every marker code must start with {table['code']!r}")
        result[colour] = pairs
    return result


class UnknownVariantError(ValueError):
    """A game, a position or a command named a variant we do not have."""


#: Variants built in code rather than shipped as data, by name (see ``register_variant``).
_REGISTERED: dict[str, Variant] = {}


@functools.cache
def shipped_variants() -> tuple[str, ...]:
    """The variants the moderator ships and offers: one folder each under ``rules/data/``."""
    root = files("moderator.rules") / "data"
    return tuple(sorted(d.name for d in root.iterdir() if d.is_dir() and not d.name.startswith("_")))


def variant_names() -> tuple[str, ...]:
    """Every name ``load_variant`` answers: the shipped variants and any registered."""
    return tuple(sorted({*shipped_variants(), *_REGISTERED}))


def register_variant(variant: Variant) -> Variant:
    """Make a variant built in code loadable by its name (the rules tests' second variant).

    It is not offered to players (``shipped_variants`` lists only the data folders); a
    name already taken by a different variant is refused, so a game's name keeps its
    meaning.
    """
    _check(variant)
    if variant.name in shipped_variants():
        raise ValueError(f"{variant.name!r} is a shipped variant; register another name")
    known = _REGISTERED.setdefault(variant.name, variant)
    if known is not variant and known != variant:
        raise ValueError(f"a different variant is already registered as {variant.name!r}")
    return known


def load_variant(name: str) -> Variant:
    """The variant called ``name``, loaded once and shared, as it never changes.

    Raises:
        UnknownVariantError: naming the variants there are.
    """
    found = _REGISTERED.get(name)
    return found if found is not None else _load_shipped(name)


@functools.cache
def _load_shipped(name: str) -> Variant:
    if name not in shipped_variants():
        raise UnknownVariantError(
            f"there is no variant {name!r}; variants: {', '.join(variant_names())}"
        )
    board, muster = _read(name, "masterboard.toml"), _read(name, "muster.toml")
    markers = _read(name, "markers.toml")
    lands = _lands(board)
    variant = Variant(
        name=name,
        lands=lands,
        towers=tuple(sorted(n for n, land in lands.items() if land.is_tower)),
        creatures=_creatures(_read(name, "creatures.toml")),
        muster_chains={
            terrain: tuple((step["creature"], step["needs"]) for step in chain)
            for terrain, chain in muster["chain"].items()
        },
        tower_creatures=tuple(muster["tower"]["creatures"]),
        guardian_needs=muster["tower"]["guardian_needs"],
        warlock_qualifiers=tuple(muster["tower"]["warlock_qualifiers"]),
        starting_creatures=dict(muster["starting"]),
        acquirables=tuple((a["name"], a["points"]) for a in muster["acquirable"]),
        battlelands=_battlelands(_read(name, "battlelands.toml")),
        markers=_markers(markers),
        colours=tuple(markers["colour"]),
    )
    _check(variant)
    return variant
