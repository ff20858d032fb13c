"""Rangestrike range and line of sight (13.2, 13.3, 13.5, the hazard chart, Wolff 11.7/13.x)."""

from __future__ import annotations

import itertools

import pytest

from moderator.rules.battlefield import ATTACKER, DEFENDER, Fighter, adjacent
from moderator.rules.sightline import (
    MAX_RANGE,
    SightResult,
    coords,
    hex_distance,
    max_range,
    paths,
    rangestrike_paths,
    sight,
    strike_range,
)
from moderator.rules.variant import LABELS, STANDARD, Battleland, load_variant

V = load_variant(STANDARD)
_ids = itertools.count(1)
STEP = {0: (0, 2), 1: (1, 1), 2: (1, -1), 3: (0, -2), 4: (-1, -1), 5: (-1, 1)}


def land(name: str) -> Battleland:
    return V.battlelands[name]


def fighter(creature: str, where: str, side: str = ATTACKER, hits: int = 0) -> Fighter:
    kind = V.creature(creature)
    return Fighter(
        id=next(_ids), side=side, creature=kind.name, power=kind.power, skill=kind.skill,
        hex=where, hits=hits, variant_name=STANDARD,
    )  # fmt: skip


def look(
    terrain: str, striker_at: str, target_at: str, *others: str, striker: str = "Hydra"
) -> dict[tuple[str, ...], SightResult]:
    """via -> sight, a Hydra (or ``striker``) shooting a Centaur, Ogres on ``others``."""
    s = fighter(striker, striker_at)
    t = fighter("Centaur", target_at, DEFENDER)
    crowd = [s, t, *(fighter("Ogre", h, DEFENDER) for h in others)]
    return dict(rangestrike_paths(land(terrain), s, t, crowd))


def only(
    terrain: str, striker_at: str, target_at: str, *others: str, striker: str = "Hydra"
) -> SightResult:
    found = look(terrain, striker_at, target_at, *others, striker=striker)
    assert list(found) == [()], f"expected a single path, got {list(found)}"
    return found[()]


def clear(result: SightResult) -> bool:
    return not result.blocked and result.reason == ""


# --------------------------------------------------------------------------- geometry


def test_coordinates_follow_the_neighbour_tables_for_every_hex() -> None:
    plains = land("Plains")
    for label in LABELS:
        c, v = coords(label)
        for direction, other in plains.neighbours(label).items():
            dc, dv = STEP[direction]
            assert coords(other) == (c + dc, v + dv), (label, direction, other)
        # and every on-board hex one step away is a listed neighbour
        steps = {(c + dc, v + dv) for dc, dv in STEP.values()}
        assert {coords(x) for x in LABELS} & steps == {
            coords(x) for x in plains.neighbours(label).values()
        }


def test_hex_distance_is_one_exactly_for_neighbours() -> None:
    plains = land("Plains")
    for a, b in itertools.product(LABELS, repeat=2):
        assert (hex_distance(a, b) == 1) == adjacent(plains, a, b), (a, b)
        assert hex_distance(a, b) == hex_distance(b, a)


def test_hex_distance_is_the_fewest_steps() -> None:
    plains = land("Plains")
    for start in LABELS:  # breadth-first search over the neighbour table
        seen, frontier, d = {start: 0}, [start], 0
        while frontier:
            d += 1
            frontier = [n for h in frontier for n in plains.neighbours(h).values() if n not in seen]
            for n in frontier:
                seen.setdefault(n, d)
        assert all(hex_distance(start, h) == steps for h, steps in seen.items())


def test_13_2_range_counts_both_hexes() -> None:
    assert strike_range("D4", "B3") == 3
    assert strike_range("D1", "D4") == 4
    assert strike_range("C3", "D4") == 2


def test_wolff_11_7_13_2_ranger_in_b3_reaches_e5() -> None:
    ranger = fighter("Ranger", "B3")
    assert strike_range("B3", "E5") == 4 <= max_range(ranger)
    # over the brambles C4 and D5: they cost skill, never range
    result = only("Brush", "B3", "E5", striker="Ranger")
    assert clear(result) and result.brambles == 2


def test_13_2_range_4_limit() -> None:
    assert MAX_RANGE == 4
    assert max_range(fighter("Minotaur", "A1")) == 4
    assert max_range(fighter("Warlock", "A1")) == 4
    assert max_range(fighter("Hydra", "A1")) == 3  # skill 3: range up to the skill
    assert strike_range("D1", "D5") == 5 > MAX_RANGE


# --------------------------------------------------------------------------- paths


def test_13_3_straight_line_down_a_column() -> None:
    assert paths(land("Plains"), "D1", "D5") == [(("D2", "D3", "D4"), ())]


def test_13_3_adjacent_hexes_have_nothing_between() -> None:
    assert paths(land("Plains"), "D4", "C4") == [((), ())]


def test_13_3_line_along_hexside_offers_both_hexes() -> None:
    # D4 to B3 runs along the side between C3 and C4.
    assert paths(land("Plains"), "D4", "B3") == [(("C3",), ("C3",)), (("C4",), ("C4",))]


def test_13_3_two_hexside_runs_give_four_paths() -> None:
    # A1 to C5: along the A2|B2 side, through the centre of B3, along the B4|C4 side.
    found = paths(land("Plains"), "A1", "C5")
    assert found == [
        (("A2", "B3", "B4"), ("A2", "B4")),
        (("A2", "B3", "C4"), ("A2", "C4")),
        (("B2", "B3", "B4"), ("B2", "B4")),
        (("B2", "B3", "C4"), ("B2", "C4")),
    ]


def test_13_3_a_line_may_cross_more_hexes_than_its_length() -> None:
    # A1 to D5 is three steps, but the straight line zig-zags through four hexes.
    assert paths(land("Plains"), "A1", "D5") == [(("B2", "B3", "C3", "C4"), ())]


def test_13_3_every_path_is_a_chain_of_neighbours_and_reverses() -> None:
    plains = land("Plains")
    for a, b in itertools.permutations(LABELS, 2):
        found = paths(plains, a, b)
        assert found and len(found) in (1, 2, 4)
        for hexes, via in found:
            line = (a, *hexes, b)
            assert all(adjacent(plains, x, y) for x, y in itertools.pairwise(line)), line
            assert len(set(line)) == len(line)
            assert set(via) <= set(hexes)
            assert len(hexes) >= hex_distance(a, b) - 1
        back = {tuple(reversed(h)) for h, _ in paths(plains, b, a)}
        assert back == {h for h, _ in found}


def test_13_3_unknown_hex_is_refused() -> None:
    with pytest.raises(KeyError):
        paths(land("Plains"), "A4", "B1")


# --------------------------------------------------------------------------- characters


def test_13_3_character_in_the_path_blocks() -> None:
    result = only("Plains", "D1", "D4", "D2")
    assert result.blocked and "D2" in result.reason


def test_13_3_friendly_character_blocks_too() -> None:
    s, t = fighter("Hydra", "D1"), fighter("Centaur", "D4", DEFENDER)
    friend = fighter("Ogre", "D3")
    assert sight(land("Plains"), s, t, [s, t, friend], ("D2", "D3")).blocked


def test_13_3_one_blocked_route_leaves_the_other() -> None:
    found = look("Plains", "D4", "B3", "C3")
    assert found[("C3",)].blocked
    assert clear(found[("C4",)])


def test_12_6_slain_character_still_standing_blocks() -> None:
    # Slain characters stay on the battleland until the end of the strike phase.
    s, t = fighter("Hydra", "D1"), fighter("Centaur", "D4", DEFENDER)
    dead = fighter("Ogre", "D2", DEFENDER, hits=6)
    assert sight(land("Plains"), s, t, [s, t, dead], ("D2", "D3")).blocked


def test_13_5_warlock_is_never_blocked() -> None:
    result = only("Plains", "D1", "D4", "D2", "D3", striker="Warlock")
    assert clear(result)
    assert clear(only("Jungle", "D2", "D4", striker="Warlock"))  # tree D3
    assert clear(only("Desert", "C3", "D4", striker="Warlock"))  # up the cliff


def test_wolff_11_7_13_5_warlock_from_the_base_of_a_cliff_to_its_top() -> None:
    # Desert: D4 is atop the cliff over C3.
    assert only("Desert", "C3", "D4").blocked
    assert clear(only("Desert", "C3", "D4", striker="Warlock"))


def test_13_5_warlock_is_not_affected_by_hazards() -> None:
    assert only("Tower", "A1", "D4", striker="Warlock") == SightResult(False, "", 0, 0)
    assert only("Brush", "B3", "E5", striker="Warlock").brambles == 0


def test_hazard_chart_character_lower_than_both_ends_does_not_block() -> None:
    # Hills: B3 and E3 are raised; C3 and D4 between them are plains below.
    result = only("Hills", "B3", "E3", "C3", "D4")
    assert clear(result)


def test_hazard_chart_character_as_high_as_one_end_blocks() -> None:
    # Hills: from the raised B3 down to D3, the ogre in C3 stands level with the target.
    result = only("Hills", "B3", "D3", "C3")
    assert result.blocked and "Ogre" in result.reason


def test_wolff_11_7_bramble_is_plains_height_so_blocks_level_strikes() -> None:
    # Brush: the ogre in the bramble C4 is level with D4 and B4.
    assert only("Brush", "D4", "B4", "C4").blocked


def test_hazard_chart_character_at_the_base_of_a_cliff_striker_atop() -> None:
    # Desert: D4 atop the cliff over C3; B2 atop the dune over C3 (cliff/dune combination).
    assert clear(only("Desert", "D4", "B2", "C3"))
    assert clear(only("Desert", "B2", "D4", "C3"))  # the target atop the cliff


def test_hazard_chart_character_at_the_base_of_a_cliff_nobody_atop_blocks() -> None:
    # Plains have no cliffs: the same line with a character in C3 is blocked.
    assert only("Plains", "D4", "B2", "C3").blocked


# --------------------------------------------------------------------------- trees


def test_hazard_chart_tree_blocks() -> None:
    result = only("Jungle", "D2", "D4")  # D3 is a tree
    assert result.blocked and "tree" in result.reason


def test_hazard_chart_tree_blocks_one_route_of_two() -> None:
    # Woods: C3 is a tree; D4 to B3 may pass C3 or C4.
    found = look("Woods", "D4", "B3")
    assert found[("C3",)].blocked and clear(found[("C4",)])


# --------------------------------------------------------------------------- bramble


def test_wolff_12_0_example_6_two_paths_to_b3() -> None:
    # Brush: hydra at D4, centaur at B3, gargoyle at B4; routes via C3 or C4 (bramble).
    brush = land("Brush")
    hydra = fighter("Hydra", "D4")
    centaur = fighter("Centaur", "B3", DEFENDER)
    gargoyle = fighter("Gargoyle", "B4", DEFENDER)
    crowd = [hydra, centaur, gargoyle]
    to_centaur = dict(rangestrike_paths(brush, hydra, centaur, crowd))
    assert to_centaur == {
        ("C3",): SightResult(False, "", 0, 0),
        ("C4",): SightResult(False, "", 1, 0),
    }
    assert rangestrike_paths(brush, hydra, gargoyle, crowd) == [((), SightResult(False, "", 1, 0))]


def test_hazard_chart_bramble_in_strikers_or_targets_hex_does_not_count() -> None:
    # Brush: D1, D2 and D5 are bramble, D3 and D4 plains.
    assert only("Brush", "D2", "D5").brambles == 0
    assert only("Brush", "D1", "D4").brambles == 1  # D2; not D1, the striker's own


# --------------------------------------------------------------------------- dunes


def test_hazard_chart_single_dune_needs_an_end_atop() -> None:
    # Desert: E4 is atop the dune E4>E3.
    assert clear(only("Desert", "E4", "E2"))  # striker atop
    assert clear(only("Desert", "E2", "E4"))  # target atop
    result = only("Desert", "E2", "E5")  # over E4's dune, E4 held by nobody
    assert result.blocked and "dune" in result.reason
    assert only("Desert", "A1", "C3").blocked  # down B2's dune, B2 nobody's


def test_hazard_chart_dune_owned_by_a_hex_between_blocks() -> None:
    # Desert: A1 to D4 goes down B2's dune into C3 and up D4's cliff.
    result = only("Desert", "A1", "D4")
    assert result.blocked and "dune" in result.reason


def test_hazard_chart_two_dunes_need_striker_and_target_atop() -> None:
    # Desert: B2 down its dune to C2, D2, up E1's dune.
    assert paths(land("Desert"), "B2", "E1") == [(("C2", "D2"), ())]
    assert clear(only("Desert", "B2", "E1"))


def test_wolff_11_7_dunes_are_not_height() -> None:
    # Desert: sand and plains are level, so a character between always blocks.
    assert only("Desert", "B2", "E1", "C2").blocked


# --------------------------------------------------------------------------- cliffs


def test_hazard_chart_cliff_target_at_its_base_is_blocked() -> None:
    # Desert: striker atop D4, target straight below in C3 (not in contact, range 2).
    assert only("Desert", "D4", "C3").blocked
    assert only("Desert", "C3", "D4").blocked


def test_hazard_chart_cliff_striker_atop_target_beyond_base() -> None:
    # Desert: D4 down the cliff over D3 to D2.
    assert clear(only("Desert", "D4", "D2"))
    assert clear(only("Desert", "D2", "D4"))  # vice versa: target atop


def test_hazard_chart_cliff_owned_by_a_hex_between_blocks() -> None:
    # Desert: C3 to E4 goes up D4's cliff and on; nobody stands atop it.
    result = only("Desert", "C3", "E4")
    assert result.blocked and "cliff" in result.reason


def test_hazard_chart_cliff_dune_combination() -> None:
    # Desert: D4 (atop the cliff over C3) to B2 (atop the dune over C3).
    assert paths(land("Desert"), "D4", "B2") == [(("C3",), ())]
    assert clear(only("Desert", "D4", "B2"))
    # B2 to E4: down B2's dune, up D4's cliff, D4 not held.
    assert only("Desert", "B2", "E4").blocked


def test_hazard_chart_cliff_held_frees_any_number_of_slopes() -> None:
    # Mountains: C2 up the D3 hill and down it, then up F2's cliff: target atop the cliff.
    assert paths(land("Mountains"), "C2", "F2") == [(("D3", "E2"), ())]
    assert clear(only("Mountains", "C2", "F2"))
    # D3 to B1: down D3's slope, up B1's cliff.
    assert clear(only("Mountains", "D3", "B1"))


def test_hazard_chart_cliff_not_held_with_slopes_blocks() -> None:
    # Mountains: A1 up B1's slope and down B1's cliff to C2: B1 is nobody's.
    found = look("Mountains", "A1", "C2")
    assert "cliff" in found[("B1",)].reason
    assert found[("B2",)].blocked  # the other way: up B2's slope, down to C2


def test_hazard_chart_two_cliffs_each_held() -> None:
    # Desert: D4 down its cliff, E1 up its cliff: each end atop one (see sightline).
    assert paths(land("Desert"), "D4", "E1") == [(("D3", "E2"), ())]
    assert clear(only("Desert", "D4", "E1"))


# --------------------------------------------------------------------------- slopes


def test_hazard_chart_one_slope_with_an_end_atop() -> None:
    # Hills: B3 down its slope to C3, on to D3.
    assert clear(only("Hills", "B3", "D3"))
    assert clear(only("Hills", "D3", "B3"))


def test_hazard_chart_hill_between_blocks() -> None:
    # Hills: D1 to D3 up and down the D2 hill: two slopes, neither end atop.
    result = only("Hills", "D1", "D3")
    assert result.blocked and "slope" in result.reason


def test_hazard_chart_two_slopes_with_ends_atop() -> None:
    # Hills: B3 to E3, both raised, plains between.
    assert clear(only("Hills", "B3", "E3"))


def test_hazard_chart_three_slopes_need_the_first_and_third_held() -> None:
    # Mountains: B2 down to B3, up C4, up C5: striker atop the first, target the third.
    assert paths(land("Mountains"), "B2", "C5") == [(("B3", "C4"), ())]
    assert clear(only("Mountains", "B2", "C5"))
    # Hills: B1 down, up the B3 hill and down to B4: the third slope is B3's.
    assert only("Hills", "B1", "B4").blocked


# --------------------------------------------------------------------------- walls


def test_hazard_chart_single_wall_striker_or_target_atop() -> None:
    # Tower: A2 up the wall into C3.
    found = look("Tower", "A1", "C3")
    assert found == {(): SightResult(False, "", 0, 1)}
    assert only("Tower", "C3", "A1") == SightResult(False, "", 0, 0)  # down: no penalty


def test_hazard_chart_single_wall_of_a_hex_between_blocks() -> None:
    # Tower: B3 up C3's wall to D3 (C3 is nobody's).
    result = only("Tower", "B3", "D3")
    assert result.blocked and "wall" in result.reason


def test_hazard_chart_two_walls_from_the_tower_centre() -> None:
    # Tower: A1 up C3's wall and D4's wall: the target holds the centre.
    result = only("Tower", "A1", "D4")
    assert clear(result) and result.walls_up == 2
    assert only("Tower", "D4", "A1") == SightResult(False, "", 0, 0)


def test_hazard_chart_two_walls_striker_beneath_an_outer_wall_blocks() -> None:
    # Tower: B2 is directly beneath C3's wall.
    assert only("Tower", "B2", "D4").blocked
    assert only("Tower", "D4", "B2").blocked


def test_hazard_chart_two_walls_without_the_centre_block() -> None:
    # Tower: B2 up D3's wall and down it again to E2.
    assert only("Tower", "B2", "E2").blocked


def test_hazard_chart_three_walls_block() -> None:
    assert only("Tower", "C3", "E5").blocked


def test_hazard_chart_walls_and_a_character_in_the_ring() -> None:
    # Tower: a character in C3 (height 1) blocks A1 -> D4 (0 and 2).
    assert only("Tower", "A1", "D4", "C3").blocked


def test_sight_needs_both_ends_on_the_board() -> None:
    s, t = fighter("Hydra", "D1"), fighter("Centaur", "D4", DEFENDER)
    off = Fighter(id=next(_ids), side=DEFENDER, creature="Ogre", power=6, skill=2, variant_name=STANDARD)
    with pytest.raises(ValueError):
        sight(land("Plains"), s, off, [s, t], ())
