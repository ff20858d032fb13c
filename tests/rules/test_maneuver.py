"""Battle movement (rules 11.0-11.7, the hazard chart, Wolff 2.2/10.1/11.7) on the real battlelands."""

from __future__ import annotations

import dataclasses
import itertools

from moderator.rules.battlefield import ATTACKER, DEFENDER, Fighter
from moderator.rules.maneuver import contact_locked, reach
from moderator.rules.variant import STANDARD, BattleHex, Battleland, load_variant

V = load_variant(STANDARD)
_ids = itertools.count(1)


def land(name: str) -> Battleland:
    return V.battlelands[name]


def fighter(creature: str, where: str | None, side: str = ATTACKER, hits: int = 0) -> Fighter:
    kind = V.creature(creature)
    return Fighter(
        id=next(_ids), side=side, creature=kind.name, power=kind.power, skill=kind.skill,
        hex=where, hits=hits, variant_name=STANDARD,
    )  # fmt: skip


def moves(terrain: str, mover: Fighter, *others: Fighter) -> dict[str, int]:
    return reach(land(terrain), mover, [mover, *others], first_maneuver=False, entry_hexes=())


def enters(terrain: str, mover: Fighter, side: str, *others: Fighter) -> dict[str, int]:
    battleland = land(terrain)
    return reach(
        battleland, mover, [mover, *others], first_maneuver=True,
        entry_hexes=battleland.entrances[side],
    )  # fmt: skip


# --------------------------------------------------------------------------- 11.2 allowance


def test_11_2_allowance_is_the_skill_on_open_plains() -> None:
    centaur = moves("Plains", fighter("Centaur", "D1"))  # skill 4
    assert centaur["D5"] == 4 and centaur["D2"] == 1
    assert "D6" not in centaur  # five hexes away
    ogre = moves("Plains", fighter("Ogre", "D1"))  # skill 2
    assert ogre == {"C1": 1, "C2": 2, "D2": 1, "D3": 2, "E1": 1, "E2": 2, "F1": 2, "B1": 2}


def test_11_2_starting_hex_is_not_a_destination() -> None:
    assert "D3" not in moves("Plains", fighter("Centaur", "D3"))


# --------------------------------------------------------------------------- 11.3 contact


def test_11_3_in_contact_at_the_start_cannot_move() -> None:
    centaur = fighter("Centaur", "D3")
    ogre = fighter("Ogre", "D4", DEFENDER)
    assert contact_locked(land("Plains"), centaur, [centaur, ogre])
    assert moves("Plains", centaur, ogre) == {}


def test_11_3_a_friend_alongside_does_not_lock() -> None:
    centaur = fighter("Centaur", "D3")
    friend = fighter("Ogre", "D4")
    assert not contact_locked(land("Plains"), centaur, [centaur, friend])
    assert moves("Plains", centaur, friend)


def test_11_3_a_slain_enemy_does_not_lock() -> None:
    centaur = fighter("Centaur", "D3")
    dead = fighter("Ogre", "D4", DEFENDER, hits=6)
    assert not contact_locked(land("Plains"), centaur, [centaur, dead])


def test_11_3_cliff_separated_characters_are_not_in_contact() -> None:
    # Desert: the cliff D4>C3; a centaur at its base may walk away.
    centaur = fighter("Centaur", "C3")
    lion = fighter("Lion", "D4", DEFENDER)
    assert not contact_locked(land("Desert"), centaur, [centaur, lion])
    assert "B3" in moves("Desert", centaur, lion)


def test_11_3_moving_past_enemies_does_not_stop_the_mover() -> None:
    # D2 touches enemies at C2 and E2; the centaur walks on through it.
    result = moves("Plains", fighter("Centaur", "D1"), fighter("Ogre", "C2", DEFENDER),
                   fighter("Ogre", "E2", DEFENDER))  # fmt: skip
    assert result["D2"] == 1 and result["D3"] == 2 and result["D5"] == 4


def test_11_3_off_board_fighter_is_never_locked() -> None:
    ogre = fighter("Ogre", None)
    assert not contact_locked(land("Plains"), ogre, [ogre, fighter("Troll", "A1", DEFENDER)])


# --------------------------------------------------------------------------- 11.1 entry


def test_11_1_first_hex_is_an_entry_hex_and_counts() -> None:
    result = enters("Plains", fighter("Ogre", None), "bottom")
    assert {h: c for h, c in result.items() if c == 1} == dict.fromkeys(("A1", "B1", "C1", "D1"), 1)
    assert set(result) == {"A1", "B1", "C1", "D1", "A2", "B2", "C2", "D2", "E1"}
    assert all(c == 2 for h, c in result.items() if h not in ("A1", "B1", "C1", "D1"))


def test_wolff_2_2_10_1_left_side_entry_hexes() -> None:
    result = enters("Plains", fighter("Ogre", None), "left")
    assert {h for h, c in result.items() if c == 1} == {"A3", "B4", "C5", "D6"}
    assert "F1" not in result


def test_wolff_2_2_10_1_defender_enters_on_the_narrow_opposite_side() -> None:
    result = enters("Plains", fighter("Centaur", None, DEFENDER), "defender-bottom")
    assert {h for h, c in result.items() if c == 1} == {"F4", "E5", "D6"}


def test_11_1_off_board_after_the_first_maneuver_cannot_move() -> None:
    ogre = fighter("Ogre", None)
    plains = land("Plains")
    assert (
        reach(plains, ogre, [ogre], first_maneuver=False, entry_hexes=plains.entrances["bottom"])
        == {}
    )


def test_11_1_entering_a_bramble_entry_hex_is_slowed() -> None:
    # Brush: D1 is bramble (11.4 applies to the entry hex too).
    assert enters("Brush", fighter("Centaur", None), "bottom")["D1"] == 2
    assert enters("Brush", fighter("Cyclops", None), "bottom")["D1"] == 1  # native


def test_11_5_occupied_entry_hex_cannot_be_entered_on_foot() -> None:
    result = enters("Plains", fighter("Ogre", None), "bottom", fighter("Ogre", "A1"))
    assert "A1" not in result
    assert "A2" not in result  # only reached through A1 within two hexes
    assert result["B2"] == 2


def test_11_5_flier_may_enter_over_an_occupied_entry_hex() -> None:
    result = enters("Plains", fighter("Gargoyle", None), "bottom", fighter("Ogre", "D1"),
                    fighter("Ogre", "C1"), fighter("Ogre", "E1"))  # fmt: skip
    assert "D1" not in result
    assert result["D2"] == 2  # over D1


# --------------------------------------------------------------------------- 11.5 occupied


def test_11_5_non_flier_cannot_pass_a_friend() -> None:
    result = moves("Plains", fighter("Centaur", "D1"), fighter("Ogre", "D2"))
    assert "D2" not in result
    assert result["D3"] == 3  # round by C1, C2
    assert "D3" not in moves("Plains", fighter("Ogre", "D1"), fighter("Ogre", "D2"))


def test_11_5_flier_flies_over_occupied_hexes_but_lands_in_an_empty_one() -> None:
    result = moves("Plains", fighter("Gargoyle", "D1"), fighter("Ogre", "D2"),
                   fighter("Troll", "D3", DEFENDER))  # fmt: skip
    assert "D2" not in result and "D3" not in result
    assert result["D4"] == 3


# --------------------------------------------------------------------------- bramble


def test_11_4_bramble_slows_non_native() -> None:
    assert moves("Brush", fighter("Centaur", "C3"))["C4"] == 2
    assert moves("Brush", fighter("Cyclops", "C3"))["C4"] == 1  # native


def test_11_4_leaving_bramble_costs_nothing_extra() -> None:
    assert moves("Brush", fighter("Centaur", "C4"))["C3"] == 1


def test_11_4_slowed_entry_needs_two_points_left() -> None:
    # An ogre (skill 2) at F1: E1 costs 1, then the bramble D1 would cost 2 more.
    result = moves("Brush", fighter("Ogre", "F1"))
    assert "D1" not in result
    assert moves("Brush", fighter("Ogre", "E1"))["D1"] == 2


def test_11_4_flier_landing_in_bramble_is_slowed() -> None:
    assert moves("Brush", fighter("Griffon", "C3"))["C4"] == 2
    assert moves("Brush", fighter("Gargoyle", "C3"))["C4"] == 1  # native


def test_11_4_flier_passing_over_bramble_is_not_slowed() -> None:
    # The only two-hex route from C3 to C5 passes over the bramble C4.
    assert moves("Brush", fighter("Griffon", "C3"))["C5"] == 2
    assert moves("Brush", fighter("Centaur", "C3"))["C5"] == 3


# --------------------------------------------------------------------------- drift


def test_11_4_drift_slows_non_native() -> None:
    # Tundra: C2 is drift.
    assert moves("Tundra", fighter("Centaur", "C3"))["C2"] == 2
    assert moves("Tundra", fighter("Troll", "C3"))["C2"] == 1  # native


def test_11_4_flier_landing_in_drift_is_slowed() -> None:
    assert moves("Tundra", fighter("Gargoyle", "C3"))["C2"] == 2


# --------------------------------------------------------------------------- sand


def test_11_4_sand_slows_non_flying_non_native() -> None:
    # Desert: D6 is sand, D5 sand too; from C5 to D6 is one step.
    assert moves("Desert", fighter("Centaur", "C5"))["D6"] == 2


def test_wolff_11_7_sand_does_not_slow_natives() -> None:
    assert moves("Desert", fighter("Lion", "C5"))["D6"] == 1


def test_wolff_11_7_sand_does_not_slow_fliers() -> None:
    # "both lions and rangers can move into sand at a cost of one movement point"
    assert moves("Desert", fighter("Ranger", "C5"))["D6"] == 1
    assert moves("Desert", fighter("Griffon", "C5"))["D6"] == 1


def test_hazard_chart_dunes_do_not_affect_movement() -> None:
    # Desert: D4>C4 is a dune; up it costs only the sand's price, down it nothing.
    assert moves("Desert", fighter("Lion", "C4"))["D4"] == 1
    assert moves("Desert", fighter("Centaur", "C4"))["D4"] == 2
    assert moves("Desert", fighter("Centaur", "D4"))["C4"] == 1


# --------------------------------------------------------------------------- bog


def test_hazard_chart_bog_forbidden_to_non_natives() -> None:
    # Marsh: C2 and C3 are bog.
    result = moves("Marsh", fighter("Centaur", "B2"))
    assert "C2" not in result and "C3" not in result


def test_hazard_chart_bog_natives_enter_at_normal_cost() -> None:
    assert moves("Marsh", fighter("Ogre", "B2"))["C3"] == 1


def test_hazard_chart_flier_may_cross_bog_but_not_land() -> None:
    # Marsh: the only three-hex route from C1 to C4 passes over the bogs C2 and C3.
    result = moves("Marsh", fighter("Gargoyle", "C1"))
    assert "C2" not in result and "C3" not in result
    assert result["C4"] == 3


def test_hazard_chart_native_flier_lands_in_bog() -> None:
    assert moves("Marsh", fighter("Wyvern", "C1"))["C2"] == 1
    assert moves("Marsh", fighter("Ranger", "C1"))["C3"] == 2


# --------------------------------------------------------------------------- tree


def test_hazard_chart_nobody_enters_a_tree() -> None:
    # Woods: C3 is a tree.
    assert "C3" not in moves("Woods", fighter("Centaur", "B3"))
    assert "C3" not in moves("Woods", fighter("Gargoyle", "B3"))


def test_hazard_chart_flier_flies_over_a_tree() -> None:
    # Woods: the only two-hex route from D6 to F4 passes over the tree E5.
    assert moves("Woods", fighter("Gargoyle", "D6"))["F4"] == 2
    assert moves("Woods", fighter("Centaur", "D6"))["F4"] == 3  # round by D5, E4


# --------------------------------------------------------------------------- volcano


def test_11_4_only_dragons_enter_the_volcano() -> None:
    # Mountains: D4 is the volcano.
    assert "D4" not in moves("Mountains", fighter("Centaur", "C4"))
    assert "D4" not in moves("Mountains", fighter("Griffon", "C4"))
    assert moves("Mountains", fighter("Dragon", "C4"))["D4"] == 1


def test_11_4_only_dragons_fly_over_the_volcano() -> None:
    # C4 to E3 is two hexes over D4; any other way is three.
    assert moves("Mountains", fighter("Dragon", "C4"))["E3"] == 2
    assert moves("Mountains", fighter("Griffon", "C4"))["E3"] == 3


# --------------------------------------------------------------------------- slope


def test_11_4_slope_slows_non_native_going_up() -> None:
    # Hills: B3 (raised) has a slope on its side towards C3.
    assert moves("Hills", fighter("Centaur", "C3"))["B3"] == 2


def test_11_4_slope_does_not_slow_going_down() -> None:
    assert moves("Hills", fighter("Centaur", "B3"))["C3"] == 1


def test_11_4_slope_natives_are_not_slowed() -> None:
    assert moves("Hills", fighter("Minotaur", "C3"))["B3"] == 1


def test_11_4_slope_does_not_slow_fliers() -> None:
    assert moves("Hills", fighter("Gargoyle", "C3"))["B3"] == 1


# --------------------------------------------------------------------------- wall


def test_hazard_chart_wall_slows_non_fliers_going_up() -> None:
    # Tower: C3>B2 and D4>C3 are walls.
    assert moves("Tower", fighter("Centaur", "B2"))["C3"] == 2
    assert moves("Tower", fighter("Centaur", "C3"))["D4"] == 2


def test_hazard_chart_wall_does_not_slow_going_down() -> None:
    assert moves("Tower", fighter("Centaur", "C3"))["B2"] == 1


def test_hazard_chart_wall_does_not_slow_fliers() -> None:
    assert moves("Tower", fighter("Gargoyle", "B2"))["C3"] == 1
    assert moves("Tower", fighter("Gargoyle", "B2"))["D4"] == 2


# --------------------------------------------------------------------------- cliff


def test_hazard_chart_non_fliers_never_cross_a_cliff() -> None:
    # Desert: D4>D3 and D4>C3 are cliffs; D4>E3 and D4>C4 are dunes.
    lion = moves("Desert", fighter("Lion", "D3"))
    assert lion["D4"] == 2  # round by E3 or C3-C4, not up the cliff
    down = moves("Desert", fighter("Lion", "D4"))
    assert down["C3"] == 2 and down["D3"] == 2  # not down the cliff either


def test_hazard_chart_fliers_cross_cliffs() -> None:
    assert moves("Desert", fighter("Griffon", "D3"))["D4"] == 1
    assert moves("Desert", fighter("Griffon", "D4"))["C3"] == 1


# --------------------------------------------------------------------------- costs


def test_11_4_slowdowns_are_not_cumulative() -> None:
    # No standard land puts a slowing hex atop a slope, so make one: B3 of the Hills
    # turned to bramble.  Up the slope into bramble still counts as two hexes.
    hills = land("Hills")
    thorny = dataclasses.replace(hills, hexes={**hills.hexes, "B3": BattleHex("B3", "bramble", 1)})
    centaur = fighter("Centaur", "C3")
    assert reach(thorny, centaur, [centaur], first_maneuver=False, entry_hexes=())["B3"] == 2


def test_11_6_costs_never_exceed_the_allowance() -> None:
    for name, battleland in V.battlelands.items():
        for creature in ("Ogre", "Centaur", "Gargoyle", "Dragon", "Hydra"):
            for start in battleland.hexes:
                mover = fighter(creature, start)
                result = reach(battleland, mover, [mover], first_maneuver=False, entry_hexes=())
                assert all(1 <= c <= mover.skill for c in result.values()), (name, creature, start)
