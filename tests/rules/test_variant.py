"""The static game data: invariants of the board and the errata facts, stated outright."""

from __future__ import annotations

import tomllib
from collections import Counter
from importlib.resources import files

import pytest

from moderator.rules.variant import LABELS, STANDARD, Exit, Sign, load_variant

V = load_variant(STANDARD)
SINGLE = {Sign.BLOCK, Sign.ARCH, Sign.ARROW}

WOLFF_3_5 = {
    "Angel": 18, "Archangel": 6, "Behemoth": 18, "Centaur": 25, "Colossus": 10,
    "Cyclops": 28, "Dragon": 18, "Gargoyle": 21, "Giant": 18, "Gorgon": 25, "Griffon": 18,
    "Guardian": 6, "Hydra": 10, "Lion": 28, "Minotaur": 21, "Ogre": 25, "Ranger": 28,
    "Serpent": 10, "Titan": 1, "Troll": 28, "Unicorn": 12, "Warbear": 21, "Warlock": 6,
    "Wyvern": 18,
}  # fmt: skip


def _exits() -> list[tuple[int, Sign, int]]:
    return [(land.number, e.sign, e.to) for land in V.lands.values() for e in land.exits]


# --------------------------------------------------------------------- masterboard


def test_2_1_ninety_six_lands_numbered_by_ring() -> None:
    expected = {*range(1, 43), *range(101, 143), *range(100, 700, 100), *range(1000, 7000, 1000)}
    assert set(V.lands) == expected
    assert len(V.lands) == 96
    assert all(number == land.number for number, land in V.lands.items())


def test_2_1_terrain_counts() -> None:
    assert Counter(land.terrain for land in V.lands.values()) == {
        "Brush": 18, "Plains": 15, "Marsh": 15, "Jungle": 10, "Desert": 7, "Swamp": 7,
        "Woods": 6, "Hills": 6, "Tower": 6, "Mountains": 3, "Tundra": 3,
    }  # fmt: skip


def test_2_1_centre_lands() -> None:
    assert {n: V.lands[n].terrain for n in range(1000, 7000, 1000)} == {
        1000: "Mountains", 2000: "Tundra", 3000: "Mountains",
        4000: "Tundra", 5000: "Mountains", 6000: "Tundra",
    }  # fmt: skip


def test_5_1_towers() -> None:
    assert V.towers == (100, 200, 300, 400, 500, 600)
    assert all(V.lands[t].is_tower for t in V.towers)
    assert not any(land.is_tower for n, land in V.lands.items() if n not in V.towers)


def test_7_3_exit_and_sign_counts() -> None:
    exits = _exits()
    assert len(exits) == 180
    assert Counter(sign for _, sign, _ in exits) == {
        Sign.ARROWS: 84, Sign.ARCH: 48, Sign.ARROW: 30, Sign.BLOCK: 18,
    }  # fmt: skip
    per_land = Counter(len(land.exits) for land in V.lands.values())
    assert per_land == {1: 24, 2: 60, 3: 12}


def test_7_3_every_exit_target_exists_and_is_not_self() -> None:
    for source, _, target in _exits():
        assert target in V.lands
        assert target != source


def test_7_3_incoming_equals_outgoing_on_every_land() -> None:
    incoming = Counter(target for _, _, target in _exits())
    for land in V.lands.values():
        assert incoming[land.number] == len(land.exits), land.number


def test_7_3_at_most_one_sign_per_land_side_of_a_border() -> None:
    for land in V.lands.values():
        targets = [e.to for e in land.exits]
        assert len(targets) == len(set(targets)), land.number


def test_7_3_single_symbols_come_in_opposite_pairs_and_triple_arrows_are_one_way() -> None:
    sign_of = {(source, target): sign for source, sign, target in _exits()}
    pairs: Counter[tuple[str, str]] = Counter()
    for (source, target), sign in sign_of.items():
        back = sign_of.get((target, source))
        if sign is Sign.ARROWS:
            assert back is None, (source, target)
        else:
            assert back in SINGLE, (source, target)
            if source < target:
                pairs[tuple(sorted((sign.value, back.value)))] += 1
    assert pairs == {
        ("arch", "block"): 18, ("arch", "arrow"): 18, ("arch", "arch"): 6, ("arrow", "arrow"): 6,
    }  # fmt: skip
    borders = {frozenset(pair) for pair in sign_of}
    assert len(borders) == 132


def test_7_3_blocks_and_the_arches_behind_them() -> None:
    blocks = {(s, t) for s, sign, t in _exits() if sign is Sign.BLOCK}
    assert blocks == {
        (4, 103), (5, 106), (11, 110), (12, 113), (18, 117), (19, 120), (25, 124), (26, 127),
        (32, 131), (33, 134), (39, 138), (40, 141),
        (1000, 1), (2000, 8), (3000, 15), (4000, 22), (5000, 29), (6000, 36),
    }  # fmt: skip
    for source, target in blocks:
        assert Exit(Sign.ARCH, source) in V.lands[target].exits


def test_7_2_towers_have_single_arrows_out_and_arches_in() -> None:
    for tower in V.towers:
        land = V.lands[tower]
        assert len(land.exits) == 3
        assert all(e.sign is Sign.ARROW for e in land.exits)
        for e in land.exits:
            back = [b for b in V.lands[e.to].exits if b.to == tower]
            assert [b.sign for b in back] == [Sign.ARCH]


def test_7_4_no_land_has_both_triple_and_single_arrows() -> None:
    for land in V.lands.values():
        signs = {e.sign for e in land.exits}
        assert not {Sign.ARROWS, Sign.ARROW} <= signs, land.number


def test_8_1_neighbours_are_symmetric_and_follow_the_borders() -> None:
    for land in V.lands.values():
        assert land.number not in land.neighbours
        assert 1 <= len(land.neighbours) <= 3
        for other in land.neighbours:
            assert land.number in V.lands[other].neighbours
        assert {e.to for e in land.exits} <= land.neighbours
    assert sum(len(land.neighbours) for land in V.lands.values()) == 2 * 132
    assert V.lands[100].neighbours == {3, 41, 101}
    assert V.lands[1000].neighbours == {1, 2000, 6000}


# ------------------------------------------------------------------ entry sides


def test_wolff_10_1_example_entering_1000() -> None:
    assert V.lands[1000].entry_sides == {6000: "left", 2000: "right", 1: "bottom"}


def test_wolff_10_1_entry_sides_exactly_for_lands_with_an_exit_in() -> None:
    for land in V.lands.values():
        sources = {s for s, _, t in _exits() if t == land.number}
        assert set(land.entry_sides) == sources, land.number
        assert set(land.entry_sides.values()) <= {"left", "right", "bottom"}


def test_wolff_10_2_towers_are_always_entered_from_the_bottom() -> None:
    for tower in V.towers:
        assert set(V.lands[tower].entry_sides.values()) == {"bottom"}


def test_wolff_10_1_a_few_more_entry_sides() -> None:
    assert V.lands[1].entry_sides == {1000: "bottom", 42: "right"}
    assert V.lands[2000].entry_sides == {3000: "right", 8: "bottom", 1000: "left"}
    assert V.lands[142].entry_sides == {101: "right"}


# ----------------------------------------------------------------- battlelands


def test_2_2_every_terrain_has_a_battleland() -> None:
    assert set(V.battlelands) == {land.terrain for land in V.lands.values()}
    for terrain, land in V.battlelands.items():
        assert land.terrain == terrain
        assert land.tower == (terrain == "Tower")


def test_2_2_twenty_seven_hexes_with_the_standard_labels() -> None:
    standard = {
        f"{c}{n}" for c, top in zip("ABCDEF", (3, 4, 5, 6, 5, 4)) for n in range(1, top + 1)
    }
    assert set(LABELS) == standard and len(LABELS) == 27
    for land in V.battlelands.values():
        assert set(land.hexes) == standard
        for label, hex_ in land.hexes.items():
            assert hex_.label == label
            assert hex_.terrain in {
                "plains", "bramble", "bog", "sand", "drift", "volcano", "tree", "tower",
            }  # fmt: skip
            assert hex_.elevation in (0, 1, 2)


def test_2_2_plains_battleland_is_all_flat_plains() -> None:
    plains = V.battlelands["Plains"]
    assert {(h.terrain, h.elevation) for h in plains.hexes.values()} == {("plains", 0)}
    assert plains.hexsides == {}


def test_wolff_2_2_mountains_volcano_is_d4() -> None:
    mountains = V.battlelands["Mountains"]
    assert [h.label for h in mountains.hexes.values() if h.terrain == "volcano"] == ["D4"]


def test_wolff_2_2_jungle_trees_are_b4_d3_f3() -> None:
    jungle = V.battlelands["Jungle"]
    assert {h.label for h in jungle.hexes.values() if h.terrain == "tree"} == {"B4", "D3", "F3"}


def test_wolff_10_2_tower_deploy_hexes() -> None:
    tower = V.battlelands["Tower"]
    assert tower.deploy == ("C3", "C4", "D3", "D4", "D5", "E3", "E4")
    assert {h.label for h in tower.hexes.values() if h.terrain == "tower"} == set(tower.deploy)
    assert all(land.deploy == () for land in V.battlelands.values() if not land.tower)


def test_wolff_2_2_10_1_entry_hexes() -> None:
    for land in V.battlelands.values():
        assert land.entrances == {
            "left": ("A3", "B4", "C5", "D6"),
            "defender-left": ("D1", "E1", "F1"),
            "right": ("F1", "F2", "F3", "F4"),
            "defender-right": ("A1", "A2", "A3"),
            "bottom": ("A1", "B1", "C1", "D1"),
            "defender-bottom": ("F4", "E5", "D6"),
        }


def test_wolff_2_2_entry_hexes_lie_on_the_board_edge() -> None:
    land = V.battlelands["Plains"]
    for hexes in land.entrances.values():
        for label in hexes:
            assert len(land.neighbours(label)) < 6


def test_2_2_hexside_directions_match_the_data_doc_examples() -> None:
    land = V.battlelands["Plains"]
    assert land.neighbours("D4") == {0: "D5", 1: "E4", 2: "E3", 3: "D3", 4: "C3", 5: "C4"}
    assert land.neighbours("B3") == {0: "B4", 1: "C4", 2: "C3", 3: "B2", 4: "A2", 5: "A3"}
    assert land.neighbours("A1") == {0: "A2", 1: "B2", 2: "B1"}
    assert land.neighbour("F4", 1) is None
    with pytest.raises(KeyError):
        land.neighbour("A4", 0)


def test_2_2_hex_neighbours_are_symmetric() -> None:
    land = V.battlelands["Plains"]
    for label in LABELS:
        for direction, other in land.neighbours(label).items():
            assert land.neighbour(other, (direction + 3) % 6) == label


def test_11_7_hexside_owner_and_neighbour_are_adjacent() -> None:
    for land in V.battlelands.values():
        for (owner, other), kind in land.hexsides.items():
            assert other in land.neighbours(owner).values(), (land.terrain, owner, other)
            assert kind in {"slope", "wall", "cliff", "dune"}
            assert (other, owner) not in land.hexsides


def test_11_7_slopes_and_walls_belong_to_the_higher_hex() -> None:
    # A Hills slope may also run along a tree, which nobody may enter: the tree is left out.
    for land in V.battlelands.values():
        for (owner, other), kind in land.hexsides.items():
            if kind in ("slope", "wall") and land.hexes[other].terrain != "tree":
                assert land.hexes[owner].elevation > land.hexes[other].elevation


def test_11_7_dunes_belong_to_the_sand_hex_atop_them() -> None:
    desert = V.battlelands["Desert"]
    dunes = [pair for pair, kind in desert.hexsides.items() if kind == "dune"]
    assert len(dunes) == 14
    assert all(desert.hexes[owner].terrain == "sand" for owner, _ in dunes)


def test_11_7_heights() -> None:
    for land in V.battlelands.values():
        plains = [h.elevation for h in land.hexes.values() if h.terrain == "plains"]
        for h in land.hexes.values():
            if h.terrain in ("bog", "bramble", "drift", "sand"):
                assert h.elevation == 0 == min(plains)
            if h.terrain == "volcano":
                assert h.elevation == max(plains)
            if h.terrain == "tree":
                others = [o.elevation for o in land.hexes.values() if o.terrain != "tree"]
                assert h.elevation > max(others), (land.terrain, h.label)


def test_11_hazard_terrains_per_battleland() -> None:
    kinds = {
        terrain: {h.terrain for h in land.hexes.values()} - {"plains"}
        for terrain, land in V.battlelands.items()
    }
    assert kinds == {
        "Brush": {"bramble"}, "Desert": {"sand"}, "Hills": {"tree"},
        "Jungle": {"bramble", "tree"}, "Marsh": {"bog"}, "Mountains": {"volcano"},
        "Plains": set(), "Swamp": {"bog", "tree"}, "Tower": {"tower"},
        "Tundra": {"drift"}, "Woods": {"tree"},
    }  # fmt: skip
    assert len([1 for kind in V.battlelands["Tower"].hexsides.values() if kind == "wall"]) == 24


# ------------------------------------------------------------------ characters


def test_wolff_3_5_character_counts() -> None:
    assert {name: kind.count for name, kind in V.creatures.items()} == WOLFF_3_5


def test_3_0_factors_and_values() -> None:
    serpent, titan, ogre = V.creature("Serpent"), V.creature("Titan"), V.creature("Ogre")
    assert (serpent.power, serpent.skill, serpent.value) == (18, 2, 36)
    assert (titan.power, titan.skill, titan.value) == (6, 4, 24)
    assert (ogre.power, ogre.skill, ogre.value) == (6, 2, 12)
    assert V.creature("Warlock").rangestrikes and not V.creature("Warlock").flies


def test_3_0_lords_demilords_and_creatures() -> None:
    lords = {n for n, c in V.creatures.items() if c.lord}
    demilords = {n for n, c in V.creatures.items() if c.demilord}
    assert lords == {"Titan", "Angel", "Archangel"}
    assert demilords == {"Guardian", "Warlock"}
    assert {n for n, c in V.creatures.items() if c.summonable} == {"Angel", "Archangel"}
    assert {n for n, c in V.creatures.items() if not c.is_creature} == lords | demilords


def test_11_7_natives_use_hazard_names_and_sand_implies_dune() -> None:
    hazards = {"bramble", "drift", "bog", "sand", "dune", "slope", "volcano"}
    for kind in V.creatures.values():
        assert kind.natives <= hazards
        assert ("sand" in kind.natives) == ("dune" in kind.natives), kind.name
    assert V.creature("Dragon").natives == {"slope", "volcano"}
    assert V.creature("Hydra").natives == {"bog", "sand", "dune"}


def test_creature_lookup_by_plural_and_case() -> None:
    assert V.creature("ogres").name == "Ogre"
    assert V.creature("Cyclops").name == "Cyclops"
    assert V.creature("CYCLOPES").name == "Cyclops"
    assert V.creature("colossi").name == "Colossus"
    assert V.creature(" hydrae ").name == "Hydra"
    assert V.creature("Hydras").name == "Hydra"
    with pytest.raises(KeyError, match="unknown character 'Orc'"):
        V.creature("Orc")


# ------------------------------------------------------------------- mustering


def test_18_muster_chains_for_every_non_tower_terrain() -> None:
    assert V.muster_chains == {
        "Brush": (("Gargoyle", 1), ("Cyclops", 2), ("Gorgon", 2)),
        "Desert": (("Lion", 1), ("Griffon", 3), ("Hydra", 2)),
        "Hills": (("Ogre", 1), ("Minotaur", 3), ("Unicorn", 2)),
        "Jungle": (("Gargoyle", 1), ("Cyclops", 2), ("Behemoth", 3), ("Serpent", 2)),
        "Marsh": (("Ogre", 1), ("Troll", 2), ("Ranger", 2)),
        "Mountains": (("Lion", 1), ("Minotaur", 2), ("Dragon", 2), ("Colossus", 2)),
        "Plains": (("Centaur", 1), ("Lion", 2), ("Ranger", 2)),
        "Swamp": (("Troll", 1), ("Wyvern", 3), ("Hydra", 2)),
        "Tundra": (("Troll", 1), ("Warbear", 2), ("Giant", 2), ("Colossus", 2)),
        "Woods": (("Centaur", 1), ("Warbear", 3), ("Unicorn", 2)),
    }
    for chain in V.muster_chains.values():
        assert all(V.creature(name).is_creature for name, _ in chain)


def test_18_5_tower_mustering() -> None:
    assert V.tower_creatures == ("Centaur", "Gargoyle", "Ogre")
    assert V.guardian_needs == 3
    assert V.warlock_qualifiers == ("Titan", "Warlock")
    assert V.musterable("Tower") == ("Centaur", "Gargoyle", "Ogre", "Warlock", "Guardian")
    assert V.musterable("Marsh") == ("Ogre", "Troll", "Ranger")
    with pytest.raises(KeyError):
        V.musterable("Lake")


def test_5_2_starting_legion_and_17_acquirables() -> None:
    assert V.starting_creatures == {"Centaur": 2, "Gargoyle": 2, "Ogre": 2}
    assert V.acquirables == (("Angel", 100), ("Archangel", 500))


# --------------------------------------------------------------------- markers


def test_4_6_six_colours_of_twelve_markers() -> None:
    assert V.colours == ("Black", "Blue", "Brown", "Gold", "Green", "Red")
    assert set(V.markers) == set(V.colours)
    codes = {"Black": "Bk", "Blue": "Bu", "Brown": "Br", "Gold": "Gd", "Green": "Gr", "Red": "Rd"}
    for colour, markers in V.markers.items():
        assert [code for code, _ in markers] == [f"{codes[colour]}{i:02d}" for i in range(1, 13)]
    names = [name for markers in V.markers.values() for _, name in markers]
    assert len(names) == 72 == len(set(names))
    assert V.markers["Red"][0] == ("Rd01", "Cross")


# ------------------------------------------------------------------- packaging


def test_data_loads_from_importlib_resources_once() -> None:
    data = files("moderator.rules") / "data" / STANDARD
    for name in ("masterboard", "creatures", "muster", "battlelands", "markers"):
        text = (data / f"{name}.toml").read_text(encoding="utf-8")
        assert text.startswith("#"), name  # every file explains itself
        tomllib.loads(text)
    assert load_variant(STANDARD) is load_variant(STANDARD)


def test_values_are_frozen() -> None:
    with pytest.raises(AttributeError):
        V.lands[1].terrain = "Desert"  # type: ignore[misc]
    assert hash(V.lands[1]) == hash(load_variant(STANDARD).lands[1])
