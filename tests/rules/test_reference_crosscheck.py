"""Cross-check every fact of our data against the Colossus Default variant files.

The reference copy lives outside the repository (``../shared/reference``), so this
module is skipped wherever it is absent; the project never reads it at run time.
Where the XML and Wolff's errata differ, Wolff wins and the test says so:
- counts (errata 3.5): the XML's Titan count 6 means one per player;
- heights (errata 11.7): trees stand above every other hex, so the Hills trees are at 2
  where the XML puts them at 1, level with the raised plains;
- the "river" native flag is dropped: the standard board has no river hexsides.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from moderator.rules.variant import LABELS, STANDARD, Sign, load_variant

REFERENCE = Path(__file__).resolve().parents[2].parent / "shared" / "reference"
DEFAULT = REFERENCE / "colossus-default"
if not DEFAULT.is_dir():
    pytest.skip(f"no reference data at {DEFAULT}", allow_module_level=True)

V = load_variant(STANDARD)
WOLFF_3_5_COUNTS = {
    "Angel": 18, "Archangel": 6, "Behemoth": 18, "Centaur": 25, "Colossus": 10,
    "Cyclops": 28, "Dragon": 18, "Gargoyle": 21, "Giant": 18, "Gorgon": 25, "Griffon": 18,
    "Guardian": 6, "Hydra": 10, "Lion": 28, "Minotaur": 21, "Ogre": 25, "Ranger": 28,
    "Serpent": 10, "Titan": 1, "Troll": 28, "Unicorn": 12, "Warbear": 21, "Warlock": 6,
    "Wyvern": 18,
}  # fmt: skip


def _root(*parts: str | Path) -> ET.Element:
    return ET.parse(DEFAULT.joinpath(*parts)).getroot()


def _true(value: str | None) -> bool:
    assert value is not None and value.lower() in ("true", "false"), value
    return value.lower() == "true"


# --------------------------------------------------------------------- masterboard

BOARD = _root("DefaultMap.xml")
XML_LANDS = {int(h.attrib["label"]): h for h in BOARD.iter("hex")}
CELL = {n: (int(h.attrib["xpos"]), int(h.attrib["ypos"])) for n, h in XML_LANDS.items()}
AT = {cell: n for n, cell in CELL.items()}


def _parity() -> int:
    """Board parity as the data doc describes Colossus finding it."""
    width, height = int(BOARD.attrib["width"]), int(BOARD.attrib["height"])
    for x in range(width):
        for y in range(height):
            if (x, y) in AT and (x, y + 1) in AT:
                return 1 - ((x + y) % 2)
    raise AssertionError("no vertically adjacent lands")


P = _parity()


def _inverted(n: int) -> bool:
    x, y = CELL[n]
    return (x + y) % 2 == P


def _exit_side(source: int, target: int) -> int:
    (x, y), (tx, ty) = CELL[source], CELL[target]
    even = (x + y + P) % 2 == 0
    side = {(0, -1): 0, (0, 1): 3, (1, 0): 2 if even else 1, (-1, 0): 4 if even else 5}
    return side[(tx - x, ty - y)]


def _label_side(n: int) -> int:
    x, y = CELL[n]
    dx, dy = x - 7, (y - 3.5) * 15 / 8
    if dy != 0 and abs(dx / dy) < 0.6:
        return 3 if _inverted(n) else 0
    if (dx >= 0) == (dy >= 0):
        return 5 if _inverted(n) else 2
    return 1 if _inverted(n) else 4


def test_board_parity_is_zero_as_documented() -> None:
    assert P == 0


def test_every_land_and_terrain() -> None:
    assert set(XML_LANDS) == set(V.lands)
    for n, h in XML_LANDS.items():
        assert V.lands[n].terrain == h.attrib["terrain"], n


def test_every_exit_sign_and_target() -> None:
    for n, h in XML_LANDS.items():
        theirs = {(e.attrib["type"].lower(), int(e.attrib["label"])) for e in h.iter("exit")}
        ours = {(e.sign.value, e.to) for e in V.lands[n].exits}
        assert ours == theirs, n
        assert len(V.lands[n].exits) == len(theirs)
    assert {s.value.upper() for s in Sign} == {
        e.attrib["type"] for h in XML_LANDS.values() for e in h.iter("exit")
    }


def test_entry_sides_recomputed_from_the_grid() -> None:
    tower_terrains = {
        p.stem for p in (DEFAULT / "Battlelands").glob("*.xml") if _root(p).find("startlist")
    }
    assert tower_terrains == {"Tower"}
    names = {1: "right", 3: "bottom", 5: "left"}
    expected: dict[int, dict[int, str]] = {n: {} for n in XML_LANDS}
    for n, h in XML_LANDS.items():
        for e in h.iter("exit"):
            target = int(e.attrib["label"])
            crossed = (_exit_side(n, target) + 3) % 6
            if XML_LANDS[target].attrib["terrain"] in tower_terrains:
                expected[target][n] = "bottom"
            else:
                expected[target][n] = names[(crossed - _label_side(target)) % 6]
    for n, land in V.lands.items():
        assert dict(land.entry_sides) == expected[n], n


def test_neighbours_are_the_lands_across_the_long_sides() -> None:
    for n in XML_LANDS:
        x, y = CELL[n]
        if _inverted(n):
            cells = [(x, y - 1), (x + 1, y), (x - 1, y)]
        else:
            cells = [(x + 1, y), (x, y + 1), (x - 1, y)]
        assert V.lands[n].neighbours == {AT[c] for c in cells if c in AT}, n


# ------------------------------------------------------------------ characters

CREATURES = {c.attrib["name"]: c.attrib for c in _root("DefaultCre.xml").iter("creature")}
NATIVE_FLAGS = {
    "Brambles": {"bramble"}, "Drift": {"drift"}, "Bog": {"bog"}, "Sand": {"sand", "dune"},
    "slope": {"slope"}, "Volcano": {"volcano"},
}  # fmt: skip


def test_every_creature_attribute() -> None:
    assert set(CREATURES) == set(V.creatures)
    for name, a in CREATURES.items():
        ours = V.creatures[name]
        assert ours.name == name
        assert ours.power == (6 if a["power"] == "-1" else int(a["power"])), name
        assert ours.skill == int(a["skill"]), name
        assert ours.rangestrikes == _true(a["rangestrikes"]), name
        assert ours.flies == _true(a["flies"]), name
        assert ours.lord == _true(a["lord"]), name
        assert ours.demilord == _true(a["demilord"]), name
        assert ours.summonable == _true(a["summonable"]), name
        natives = {h for flag, hs in NATIVE_FLAGS.items() if _true(a[flag]) for h in hs}
        assert ours.natives == natives, name
        for unused in ("Stone", "Tree", "Lake"):  # no such hazards on the standard board
            assert not _true(a[unused]), name
        assert _true(a["magic_missile"]) == (name == "Warlock")  # rule 13.5, in the rules
        assert a["plural_name"] in (ours.plural, *ours.aliases), name


def test_counts_follow_wolff_3_5_where_the_xml_differs() -> None:
    assert {n: c.count for n, c in V.creatures.items()} == WOLFF_3_5_COUNTS
    differ = {
        n: int(a["count"]) for n, a in CREATURES.items() if int(a["count"]) != V.creatures[n].count
    }
    assert differ == {"Titan": 6}  # Colossus: one per player in a six-player game


def test_titan_power_is_computed_in_the_xml_too() -> None:
    assert CREATURES["Titan"]["power"] == "-1"


# ------------------------------------------------------------------- mustering

TERRAINS = {t.attrib["name"]: t for t in _root("DefaultTer.xml").iter("terrain")}


def test_muster_chains() -> None:
    assert set(TERRAINS) - {"Tower"} == set(V.muster_chains)
    for name, t in TERRAINS.items():
        if name == "Tower":
            assert not _true(t.get("regular_recruit"))
            continue
        assert _true(t.get("regular_recruit")), name
        theirs = tuple((r.attrib["name"], int(r.attrib["number"])) for r in t.iter("recruit"))
        assert V.muster_chains[name] == theirs, name


def test_tower_mustering_starting_creatures_and_acquirables() -> None:
    tower = [(r.attrib["name"], int(r.attrib["number"])) for r in TERRAINS["Tower"].iter("recruit")]
    anything = [tower[i + 1][0] for i, (who, _) in enumerate(tower) if who == "Anything"]
    assert tuple(anything) == V.tower_creatures
    guardian = tower[tower.index(("AnyNonLord", 0)) + 1]
    assert guardian == ("Guardian", V.guardian_needs)
    titan = tower.index(("Titan", -1))
    assert tower[titan + 1] == ("Warlock", 1)
    assert V.warlock_qualifiers == ("Titan", "Warlock")  # the Warlock by the same-kind rule
    starting = {
        s.attrib["name"]: int(s.attrib["number"]) for s in TERRAINS["Tower"].iter("starting")
    }
    assert starting == V.starting_creatures
    acquirable = tuple(
        (a.attrib["name"], int(a.attrib["points"]))
        for a in _root("DefaultTer.xml").iter("acquirable")
    )
    assert acquirable == V.acquirables


# ----------------------------------------------------------------- battlelands

COLUMNS = "ABCDEF"
HEX_TERRAIN = {
    "Plains": "plains", "Brambles": "bramble", "Bog": "bog", "Sand": "sand", "Drift": "drift",
    "Volcano": "volcano", "Tree": "tree", "Tower": "tower",
}  # fmt: skip
HEXSIDE = {"s": "slope", "w": "wall", "c": "cliff", "d": "dune"}


def _label(x: int, y: int) -> str:
    """The data doc's formula: letter(x) + (6 - y - |trunc((x - 3) / 2)|)."""
    return f"{COLUMNS[x]}{6 - y - abs(int((x - 3) / 2))}"


def _across(label: str, direction: int) -> str:
    """The data doc's neighbour table, written out independently of the module."""
    c, n = COLUMNS.index(label[0]), int(label[1:])
    east_up = c <= 2  # columns A-C: NE is (c+1, n+1)
    west_up = c >= 4  # columns E-F: NW is (c-1, n+1)
    step = {
        0: (0, 1),
        3: (0, -1),
        1: (1, 1 if east_up else 0),
        2: (1, 0 if east_up else -1),
        5: (-1, 1 if west_up else 0),
        4: (-1, 0 if west_up else -1),
    }[direction]
    return f"{COLUMNS[c + step[0]]}{n + step[1]}"


def test_label_formula_gives_the_27_standard_hexes() -> None:
    rows = {
        0: range(2, 5),
        1: range(1, 5),
        2: range(1, 6),
        3: range(6),
        4: range(1, 6),
        5: range(1, 5),
    }
    assert sorted(_label(x, y) for x, ys in rows.items() for y in ys) == sorted(LABELS)


def test_every_battleland_hex_border_and_startlist() -> None:
    files = sorted((DEFAULT / "Battlelands").glob("*.xml"))
    assert {p.stem for p in files} == set(V.battlelands)
    for path in files:
        root, ours = _root(path), V.battlelands[path.stem]
        assert ours.tower == _true(root.get("tower", "False")), path.stem
        listed: dict[str, tuple[str, int]] = {}
        sides: dict[tuple[str, str], str] = {}
        for h in root.iter("battlehex"):
            label = _label(int(h.attrib["x"]), int(h.attrib["y"]))
            elevation = int(h.get("elevation", "0"))
            if path.stem == "Hills" and h.attrib["terrain"] == "Tree":
                assert elevation == 1
                elevation = 2  # errata 11.7: trees above every other hex (Wolff wins)
            listed[label] = (HEX_TERRAIN[h.attrib["terrain"]], elevation)
            for b in h.iter("border"):
                other = _across(label, int(b.attrib["number"]))
                assert other in LABELS, (path.stem, label, b.attrib)
                assert ours.neighbour(label, int(b.attrib["number"])) == other
                sides[label, other] = HEXSIDE[b.attrib["type"]]
        for label in LABELS:
            hex_ = ours.hexes[label]
            assert (hex_.terrain, hex_.elevation) == listed.get(label, ("plains", 0)), label
        assert dict(ours.hexsides) == sides, path.stem
        startlist = root.find("startlist")
        theirs = [] if startlist is None else [r.attrib["label"] for r in startlist]
        assert sorted(ours.deploy) == sorted(theirs), path.stem


# --------------------------------------------------------------------- markers


def test_marker_codes_and_names_for_the_six_colours() -> None:
    theirs: dict[str, list[tuple[str, str]]] = {}
    colour = ""
    for line in (DEFAULT / "MarkersName").read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            colour = line.lstrip("# ").strip()
        elif "=" in line:
            code, name = (part.strip() for part in line.split("=", 1))
            theirs.setdefault(colour, []).append((code, name))
    assert set(V.colours) <= set(theirs)
    for colour in V.colours:
        assert list(V.markers[colour]) == theirs[colour], colour
