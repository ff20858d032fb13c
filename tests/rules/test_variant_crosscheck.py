"""Cross-check TitanPlus and Badlands, fact by fact, with the Colossus reference files.

Like ``test_reference_crosscheck`` (the standard game), this reads ``../shared/reference``
and is skipped where it is absent; nothing reads those files at run time.  Where our data
departs from Colossus the test says so and why (docs/variants.md says it for players):
- trees stand above every other hex of their land (errata 11.7), so the Fort's tree is
  at 3 where the XML has it at 1;
- Colossus places the alternates on lands for good; our ``badlands`` rolls for them as
  the original did, and ``badlands-fixed`` is Colossus's placement.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from moderator.rules.variant import LABELS, load_variant

REFERENCE = Path(__file__).resolve().parents[2].parent / "shared" / "reference"
if not (REFERENCE / "colossus-titanplus").is_dir():
    pytest.skip(f"no reference data at {REFERENCE}", allow_module_level=True)

STANDARD, PLUS = load_variant("standard"), load_variant("titanplus")
BADLANDS, FIXED = load_variant("badlands"), load_variant("badlands-fixed")
COLUMNS = "ABCDEF"
HEX_TERRAIN = {
    "Plains": "plains", "Brambles": "bramble", "Bog": "bog", "Sand": "sand", "Drift": "drift",
    "Tree": "tree", "Tower": "tower", "Lake": "lake",
}  # fmt: skip
HEXSIDE = {"s": "slope", "w": "wall", "c": "cliff", "d": "dune"}


def _root(*parts: str) -> ET.Element:
    return ET.parse(REFERENCE.joinpath(*parts)).getroot()


def _chains(root: ET.Element) -> dict[str, tuple[tuple[str, int], ...]]:
    return {
        t.attrib["name"]: tuple((r.attrib["name"], int(r.attrib["number"])) for r in t.iter("recruit"))
        for t in root.iter("terrain")
        if t.attrib["name"] != "Tower"
    }


# --------------------------------------------------------------------- TitanPlus


def test_21_3_titanplus_characters_are_colossus_s_without_centaurs_gargoyles_ogres() -> None:
    theirs = {c.attrib["name"] for c in _root("colossus-titanplus", "TitanPlusCre.xml").iter("creature")}
    assert set(PLUS.creatures) == theirs == set(STANDARD.creatures) - {"Centaur", "Gargoyle", "Ogre"}
    assert all(PLUS.creatures[n] == STANDARD.creatures[n] for n in PLUS.creatures)


def test_21_3_titanplus_muster_chains_match_colossus_s_table() -> None:
    """Our reading of 21.3 (the next creature heads the chain, needing one) is Colossus's."""
    assert dict(PLUS.muster_chains) == _chains(_root("colossus-titanplus", "TitanPlusTer.xml"))


def test_21_3_titanplus_tower_creatures_and_starting_legion_match_colossus() -> None:
    tower = next(
        t for t in _root("colossus-titanplus", "TitanPlusTer.xml").iter("terrain")
        if t.attrib["name"] == "Tower"
    )  # fmt: skip
    named = [r.attrib["name"] for r in tower.iter("recruit") if r.attrib["number"] == "0"]
    assert set(PLUS.tower_creatures) == {n for n in named if n not in ("Anything", "AnyNonLord")}
    starting = {s.attrib["name"]: int(s.attrib["number"]) for s in tower.iter("starting")}
    assert starting == PLUS.starting_creatures


# ---------------------------------------------------------------------- Badlands


def _lands(path: tuple[str, str]) -> dict[int, ET.Element]:
    return {int(h.attrib["label"]): h for h in _root(*path).iter("hex")}


DEFAULT_MAP = _lands(("colossus-default", "DefaultMap.xml"))
BADLANDS_MAP = _lands(("colossus-badlands", "BadlandsMap.xml"))
ALIASES = {
    a.attrib["name"]: a.attrib["source"]
    for a in _root("colossus-badlands", "BadlandsTer.xml").iter("alias")
}


def test_badlands_board_is_the_standard_board_with_battlelands_placed() -> None:
    """Same lands and exits; a land Colossus gives an alias keeps the alias's source terrain."""
    assert BADLANDS.lands.keys() == STANDARD.lands.keys()
    for number, hex_ in BADLANDS_MAP.items():
        ours = BADLANDS.lands[number]
        assert ours.exits == STANDARD.lands[number].exits
        exits = sorted((e.attrib["type"], e.attrib["label"]) for e in hex_.iter("exit"))
        assert exits == sorted((e.attrib["type"], e.attrib["label"]) for e in DEFAULT_MAP[number].iter("exit"))
        terrain = hex_.attrib["terrain"]
        assert ours.terrain == ALIASES.get(terrain, terrain), number
        assert ours.battleland_name == terrain, number


def test_badlands_alternates_are_colossus_s_aliases_of_the_seven_terrains() -> None:
    alternates = {source: alias for alias, source in ALIASES.items() if alias.endswith("Alt")}
    assert dict(BADLANDS.alternates) == alternates
    assert len(alternates) == 7 and FIXED.alternates == BADLANDS.alternates


def _label(x: int, y: int) -> str:
    return f"{COLUMNS[x]}{6 - y - abs(int((x - 3) / 2))}"


def test_every_badlands_battleland_hex_and_hexside() -> None:
    files = sorted((REFERENCE / "colossus-badlands" / "Battlelands").glob("*.xml"))
    assert {p.stem for p in files} == set(BADLANDS.battlelands) - set(STANDARD.battlelands)
    for path in files:
        ours, root = BADLANDS.battlelands[path.stem], ET.parse(path).getroot()
        assert not ours.tower and root.find("startlist") is None
        listed: dict[str, tuple[str, int]] = {}
        sides: dict[tuple[str, str], str] = {}
        for h in root.iter("battlehex"):
            label = _label(int(h.attrib["x"]), int(h.attrib["y"]))
            listed[label] = (HEX_TERRAIN[h.attrib["terrain"]], int(h.get("elevation", "0")))
            for b in h.iter("border"):
                other = ours.neighbour(label, int(b.attrib["number"]))
                assert other in LABELS, (path.stem, label, b.attrib)
                sides[label, other] = HEXSIDE[b.attrib["type"]]
        top = max((e for t, e in listed.values() if t != "tree"), default=0)
        for label, (terrain, elevation) in listed.items():
            if terrain == "tree":  # errata 11.7: above every other hex (Wolff wins)
                listed[label] = (terrain, max(elevation, top + 1))
        for label in LABELS:
            hex_ = ours.hexes[label]
            assert (hex_.terrain, hex_.elevation) == listed.get(label, ("plains", 0)), (path.stem, label)
        assert dict(ours.hexsides) == sides, path.stem


def test_badlands_keeps_the_standard_battlelands() -> None:
    for name, battleland in STANDARD.battlelands.items():
        assert BADLANDS.battlelands[name] == battleland, name
