"""
Strikes (rules 12.x), rangestrikes (13.x) and the hazard chart (11.7), checked
against Wolff's errata, whose six worked examples under "12.0, 12.2, 12.3,
12.4, 12.5" are reproduced exactly. Fighters are placed by hand on the real
battlelands; hexes use the Wolff 2.2 labels.
"""

from __future__ import annotations

import pytest

from moderator.rules.battlefield import ATTACKER, DEFENDER, Fighter
from moderator.rules.strikes import (
    RangestrikeOption,
    StrikeOption,
    best_strike,
    carry_choices,
    excess_allocations,
    hits,
    rangestrike_options,
    rangestrike_refusal,
    strike_number,
    strike_options,
)
from moderator.rules.variant import STANDARD, Battleland, load_variant

V = load_variant(STANDARD)
PLAINS = V.battlelands["Plains"]
DESERT = V.battlelands["Desert"]
TOWER = V.battlelands["Tower"]
BRUSH = V.battlelands["Brush"]
MOUNTAINS = V.battlelands["Mountains"]


def _fighter(side: str, fid: int, name: str, hex: str, hits: int) -> Fighter:
    kind = V.creature(name)
    return Fighter(
        id=fid,
        side=side,
        creature=kind.name,
        power=kind.power,
        skill=kind.skill,
        hex=hex,
        hits=hits,
        variant_name=STANDARD,
    )


def blue(fid: int, name: str, hex: str, hits: int = 0) -> Fighter:
    """One of Blue's characters (the striker's side in Wolff's examples)."""
    return _fighter(ATTACKER, fid, name, hex, hits)


def red(fid: int, name: str, hex: str, hits: int = 0) -> Fighter:
    return _fighter(DEFENDER, fid, name, hex, hits)


def opt(target: Fighter, sn: int, dice: int, *carry: Fighter) -> StrikeOption:
    return StrikeOption(target.id, sn, dice, tuple(sorted(c.id for c in carry)))


def ranged(
    striker: Fighter,
    target: Fighter,
    *others: Fighter,
    land: Battleland = PLAINS,
    phasing: bool = True,
) -> list[tuple[int, int, tuple[str, ...]]]:
    """The rangestrike options at ``target`` as (strike number, dice, via)."""
    found = rangestrike_options(land, striker, target, [striker, target, *others], phasing=phasing)
    assert all(o.target == target.id for o in found)
    return [(o.strike_number, o.dice, o.via) for o in found]


def alloc(*pairs: tuple[Fighter, int]) -> tuple[tuple[int, int], ...]:
    return tuple((f.id, n) for f, n in pairs)


# --------------------------------------------------------------- strike chart 12.7


@pytest.mark.parametrize(
    ("attack", "defence", "expected"),
    [(2, 3, 5), (3, 3, 4), (4, 2, 2), (2, 4, 6), (4, 4, 4), (5, 2, 1), (1, 5, 6), (6, 2, 1)],
)
def test_12_7_strike_chart_four_minus_skill_plus_skill_within_one_to_six(
    attack: int, defence: int, expected: int
) -> None:
    assert strike_number(attack, defence) == expected


def test_12_2_ogre_strikes_lion_needing_fives_with_six_dice() -> None:
    ogre, lion = blue(1, "Ogre", "C3"), red(2, "Lion", "C4")
    assert best_strike(PLAINS, ogre, lion) == (5, 6)


def test_wolff_12_7_sixes_always_hit_and_ones_can_hit() -> None:
    assert hits([1, 2, 3, 4, 5, 6], 6) == 1
    assert hits([1, 2, 3, 4, 5, 6], 5) == 2
    assert hits([1, 1, 2], 1) == 3
    assert hits([], 4) == 0
    with pytest.raises(ValueError):
        hits([7], 4)
    with pytest.raises(ValueError):
        hits([3], 7)


# ------------------------------------------------------ Wolff's worked examples 12.x


def _example_1() -> tuple[Fighter, Fighter, Fighter, Fighter]:
    return (
        blue(1, "Cyclops", "D4"),
        red(2, "Troll", "D3"),
        red(3, "Ogre", "D5"),
        red(4, "Ranger", "E4"),
    )


def test_wolff_12_example_1_plains_cyclops_options() -> None:
    cyclops, troll, ogre, ranger = fighters = _example_1()
    every = set()
    for target in (troll, ogre, ranger):
        every |= set(strike_options(PLAINS, cyclops, target, fighters))
    assert every == {
        opt(ogre, 4, 9, troll),
        opt(ogre, 6, 9, troll, ranger),
        opt(troll, 4, 9, ogre),
        opt(troll, 6, 9, ogre, ranger),
        opt(ranger, 6, 9, ogre, troll),
    }
    # "he cannot strike at the ogre or troll needing 5s or better to hit"
    assert all(o.strike_number != 5 for o in every)
    # the best strike comes first
    assert strike_options(PLAINS, cyclops, ogre, fighters)[0] == opt(ogre, 4, 9, troll)


def test_wolff_12_example_1_nine_sixes_on_the_ogre_at_sixes() -> None:
    cyclops, troll, ogre, ranger = fighters = _example_1()
    at_sixes = opt(ogre, 6, 9, troll, ranger)
    assert hits([6] * 9, 6) == 9
    assert carry_choices(PLAINS, cyclops, at_sixes, fighters, 9) == [
        (),
        alloc((troll, 3)),
        alloc((ranger, 3)),
    ]


def test_wolff_12_example_1_nine_hits_on_the_ogre_at_fours_carry_only_to_troll() -> None:
    cyclops, troll, ogre, _ = fighters = _example_1()
    at_fours = opt(ogre, 4, 9, troll)
    assert carry_choices(PLAINS, cyclops, at_fours, fighters, 9) == [(), alloc((troll, 3))]


def test_wolff_12_example_2_desert_no_carry_up_a_dune_from_a_plain_strike() -> None:
    ogre, lion, griffon = fighters = (
        blue(1, "Ogre", "F3"),
        red(2, "Lion", "F4"),
        red(3, "Griffon", "E4"),
    )
    # Lion: 6 dice needing 5s, no carry to the griffon (up a dune); not 6s, not 5 dice.
    assert strike_options(DESERT, ogre, lion, fighters) == [opt(lion, 5, 6)]
    # Griffon: up a dune, the non-native ogre loses a die: 5 dice needing 6s. Five
    # dice cannot leave an excess hit on a 5-power griffon, so no carry is listed.
    assert strike_options(DESERT, ogre, griffon, fighters) == [opt(griffon, 6, 5)]


def _example_3(colossus_hits: int = 0) -> tuple[Fighter, Fighter, Fighter, Fighter]:
    return (
        blue(1, "Hydra", "D5"),
        red(2, "Centaur", "C5"),
        red(3, "Centaur", "D6"),
        red(4, "Colossus", "C4", hits=colossus_hits),
    )


def test_wolff_12_example_3_desert_hydra_options() -> None:
    hydra, c5, d6, colossus = fighters = _example_3()
    # down a dune at the colossus: 12 dice, 5s; it may not refuse the bonus
    assert strike_options(DESERT, hydra, colossus, fighters) == [opt(colossus, 5, 12)]
    assert strike_options(DESERT, hydra, c5, fighters) == [opt(c5, 5, 10, d6, colossus)]
    assert strike_options(DESERT, hydra, d6, fighters) == [opt(d6, 5, 10, c5, colossus)]


def test_wolff_12_example_3_damaged_colossus_lets_the_hydra_refuse_the_dune_bonus() -> None:
    hydra, c5, d6, colossus = fighters = _example_3(colossus_hits=1)
    assert strike_options(DESERT, hydra, colossus, fighters) == [
        opt(colossus, 5, 12),
        opt(colossus, 5, 10, c5, d6),
    ]


def test_wolff_12_example_3_eight_hits_on_a_centaur() -> None:
    hydra, c5, d6, colossus = fighters = _example_3()
    rolls = [1, 2, 5, 5, 5, 5, 6, 6, 6, 6]
    assert hits(rolls, 5) == 8
    option = opt(c5, 5, 10, d6, colossus)
    assert carry_choices(DESERT, hydra, option, fighters, 8) == [
        (),
        alloc((d6, 3)),
        alloc((d6, 3), (colossus, 2)),
        alloc((colossus, 5)),
    ]


def _example_4() -> tuple[Fighter, Fighter, Fighter, Fighter]:
    return (
        blue(1, "Hydra", "C4"),
        red(2, "Centaur", "C5"),
        red(3, "Centaur", "D4"),
        red(4, "Centaur", "D5"),
    )


def test_wolff_12_example_4_desert_carry_up_dunes_only_from_a_strike_up_a_dune() -> None:
    # The errata's "centaur at C4" (the hydra's own hex) means the one at C5.
    hydra, c5, d4, d5 = fighters = _example_4()
    assert strike_options(DESERT, hydra, c5, fighters) == [opt(c5, 5, 10)]
    assert strike_options(DESERT, hydra, d4, fighters) == [opt(d4, 5, 10, c5, d5)]
    assert strike_options(DESERT, hydra, d5, fighters) == [opt(d5, 5, 10, c5, d4)]


def test_wolff_12_example_4_eight_hits_on_the_centaur_at_d4() -> None:
    hydra, c5, d4, d5 = fighters = _example_4()
    assert hits([1, 2, 5, 5, 5, 5, 6, 6, 6, 6], 5) == 8
    got = carry_choices(DESERT, hydra, opt(d4, 5, 10, c5, d5), fighters, 8)
    assert got == [
        (),
        alloc((c5, 3)),
        alloc((c5, 3), (d5, 2)),
        alloc((d5, 3)),
        alloc((d5, 3), (c5, 2)),
    ]


def test_wolff_12_example_5_tower_benefit_against_one_target_only_still_carries() -> None:
    hydra, centaur, ogre = fighters = (
        blue(1, "Hydra", "C3"),
        red(2, "Centaur", "B2"),
        red(3, "Ogre", "D4"),
    )
    # down the wall at the centaur: skill 4 vs 4; up the wall at the ogre: 2 vs 2
    assert strike_options(TOWER, hydra, centaur, fighters) == [opt(centaur, 4, 10, ogre)]
    assert strike_options(TOWER, hydra, ogre, fighters) == [opt(ogre, 4, 10, centaur)]


def test_wolff_12_example_6_brush_rangestrike_two_paths_two_strike_numbers() -> None:
    hydra, centaur, gargoyle = fighters = (
        blue(1, "Hydra", "D4"),
        red(2, "Centaur", "B3"),
        red(3, "Gargoyle", "B4"),
    )
    # the gargoyle: through the bramble at C4, skill 3 - 1 vs 3: 5s; 10 // 2 = 5 dice
    assert rangestrike_options(BRUSH, hydra, gargoyle, fighters, phasing=True) == [
        RangestrikeOption(gargoyle.id, 5, 5, ()),
    ]
    # the centaur: via C3 (plain) 5s, or via C4 (bramble) 6s; both legal (Wolff 13.3)
    assert rangestrike_options(BRUSH, hydra, centaur, fighters, phasing=True) == [
        RangestrikeOption(centaur.id, 5, 5, ("C3",)),
        RangestrikeOption(centaur.id, 6, 5, ("C4",)),
    ]
    # "no carry over is possible with rangestrikes" (13.0): an option has no carry
    assert not hasattr(RangestrikeOption(centaur.id, 5, 5), "carry")


# ------------------------------------------------------------ carry-over (12.4/12.5)


def test_wolff_12_2_carry_compares_best_strikes_as_if_each_were_the_target() -> None:
    # "a skill 3 character striking down a wall at a skill 4 character may carry
    # over damage up a wall to a skill 2 character, using a strike number of 4"
    warbear, centaur, ogre = fighters = (
        blue(1, "Warbear", "C3"),
        red(2, "Centaur", "B2"),
        red(3, "Ogre", "D4"),
    )
    assert strike_options(TOWER, warbear, centaur, fighters) == [opt(centaur, 4, 6, ogre)]


def test_wolff_12_5_forsaking_a_dice_benefit_to_carry() -> None:
    # Mountains: B2 is atop the slopes to A2 and below the slope from B1.
    ogre, down, up = fighters = (
        blue(1, "Ogre", "B2"),
        red(2, "Centaur", "A2"),
        red(3, "Centaur", "B1"),
    )
    assert best_strike(MOUNTAINS, ogre, down) == (6, 7)
    assert best_strike(MOUNTAINS, ogre, up) == (6, 6)
    assert strike_options(MOUNTAINS, ogre, down, fighters) == [
        opt(down, 6, 7),
        opt(down, 6, 6, up),
    ]
    assert strike_options(MOUNTAINS, ogre, up, fighters) == [opt(up, 6, 6, down)]


def test_wolff_11_7_no_reduction_unless_all_sixes_could_leave_an_excess_hit() -> None:
    # Mountains: a troll down the slope (4s, 7 dice), a centaur up the slope (6s,
    # 6 dice). Forsaking the slope die and taking 6s would open carry to the
    # centaur, but only if six dice could leave an excess hit on the troll.
    for troll_hits, reduced in ((2, False), (3, True)):  # 6 remaining, then 5
        ogre, troll, up = fighters = (
            blue(1, "Ogre", "B2"),
            red(2, "Troll", "A2", hits=troll_hits),
            red(3, "Centaur", "B1"),
        )
        expected = [opt(troll, 4, 7)] + ([opt(troll, 6, 6, up)] if reduced else [])
        assert strike_options(MOUNTAINS, ogre, troll, fighters) == expected


def test_wolff_12_4_carry_is_optional_and_all_or_nothing_per_character() -> None:
    cyclops, troll, ogre, ranger = fighters = _example_1()
    option = opt(troll, 6, 9, ogre, ranger)
    # 9 hits on the troll: 1 excess, to one character or none
    assert carry_choices(PLAINS, cyclops, option, fighters, 9) == [
        (),
        alloc((ogre, 1)),
        alloc((ranger, 1)),
    ]
    # no excess: nothing to allocate
    assert carry_choices(PLAINS, cyclops, option, fighters, 8) == [()]
    assert carry_choices(PLAINS, cyclops, option, fighters, 0) == [()]


def test_wolff_12_4_carry_on_after_slaying_a_carry_target() -> None:
    cyclops, troll, ogre, ranger = (
        blue(1, "Cyclops", "D4"),
        red(2, "Troll", "D3", hits=7),
        red(3, "Ogre", "D5", hits=5),
        red(4, "Ranger", "E4", hits=2),
    )
    fighters = [cyclops, troll, ogre, ranger]
    option = opt(troll, 6, 9, ogre, ranger)
    assert option in strike_options(PLAINS, cyclops, troll, fighters)
    # 5 hits: 1 slays the troll, 4 excess
    assert carry_choices(PLAINS, cyclops, option, fighters, 5) == [
        (),
        alloc((ogre, 1)),
        alloc((ogre, 1), (ranger, 2)),
        alloc((ranger, 2)),
        alloc((ranger, 2), (ogre, 1)),
    ]


def test_12_0_slain_characters_are_neither_targets_nor_carry_targets() -> None:
    cyclops, troll, ogre, ranger = (
        blue(1, "Cyclops", "D4"),
        red(2, "Troll", "D3"),
        red(3, "Ogre", "D5", hits=6),
        red(4, "Ranger", "E4"),
    )
    fighters = [cyclops, troll, ogre, ranger]
    assert strike_options(PLAINS, cyclops, ogre, fighters) == []
    assert strike_options(PLAINS, cyclops, troll, fighters) == [
        opt(troll, 4, 9),
        opt(troll, 6, 9, ranger),
    ]


def test_12_1_no_strike_at_a_friend_or_a_character_out_of_contact() -> None:
    cyclops, gargoyle, far = (
        blue(1, "Cyclops", "D4"),
        blue(2, "Gargoyle", "D5"),
        red(3, "Ogre", "A1"),
    )
    fighters = [cyclops, gargoyle, far]
    assert strike_options(PLAINS, cyclops, gargoyle, fighters) == []
    assert strike_options(PLAINS, cyclops, far, fighters) == []
    with pytest.raises(ValueError):
        best_strike(PLAINS, cyclops, far)


# ------------------------------------------------------------- hazard chart 11.7


def test_11_7_bramble_non_native_striking_out_of_bramble_loses_one_skill() -> None:
    # Brush: C4 is bramble, C3 plain.
    assert best_strike(BRUSH, blue(1, "Centaur", "C4"), red(2, "Ogre", "C3")) == (3, 3)
    assert best_strike(BRUSH, blue(1, "Centaur", "C3"), red(2, "Ogre", "C4")) == (2, 3)
    # a native striking out of bramble keeps its skill
    assert best_strike(BRUSH, blue(1, "Gargoyle", "C4"), red(2, "Ogre", "C3")) == (3, 4)


def test_wolff_11_7_bramble_native_defending_in_bramble_gains_one_skill() -> None:
    # vs a non-native: skill 3 + 1 (Wolff 11.7: the skill, not the strike number)
    assert best_strike(BRUSH, blue(1, "Centaur", "C3"), red(2, "Gargoyle", "C4")) == (4, 3)
    # vs a native striker: no benefit
    assert best_strike(BRUSH, blue(1, "Cyclops", "C3"), red(2, "Gargoyle", "C4")) == (5, 9)
    # a non-native defending in bramble gets nothing
    assert best_strike(BRUSH, blue(1, "Centaur", "C3"), red(2, "Lion", "C4")) == (3, 3)
    # both: a non-native in bramble (C4) at a native in bramble (D5): 3 vs 4
    assert best_strike(BRUSH, blue(1, "Centaur", "C4"), red(2, "Gargoyle", "D5")) == (5, 3)


def test_wolff_11_7_bramble_bonus_is_skill_so_the_sixes_cap_applies_after_it() -> None:
    # ogre (2) out of bramble (1) at a bramble-native gargoyle (3 + 1): 4 - 1 + 4 = 7 -> 6
    assert best_strike(BRUSH, blue(1, "Ogre", "C4"), red(2, "Gargoyle", "D5")) == (6, 6)


def test_11_7_slope_native_striking_down_adds_a_die() -> None:
    # Mountains: B2 atop the slope to A2
    assert best_strike(MOUNTAINS, blue(1, "Ogre", "B2"), red(2, "Centaur", "A2")) == (6, 7)
    assert best_strike(MOUNTAINS, blue(1, "Centaur", "B2"), red(2, "Ogre", "A2")) == (2, 3)


def test_11_7_non_native_striking_up_a_slope_loses_one_skill() -> None:
    assert best_strike(MOUNTAINS, blue(1, "Centaur", "A2"), red(2, "Ogre", "B2")) == (3, 3)
    assert best_strike(MOUNTAINS, blue(1, "Ogre", "A2"), red(2, "Centaur", "B2")) == (6, 6)


def test_11_7_wall_plus_one_skill_down_minus_one_up() -> None:
    # Tower: C3 atop the wall to B2
    assert best_strike(TOWER, blue(1, "Centaur", "C3"), red(2, "Centaur", "B2")) == (3, 3)
    assert best_strike(TOWER, blue(1, "Centaur", "B2"), red(2, "Centaur", "C3")) == (5, 3)
    # natives do not matter for walls; a 1 can be the strike number (12.7)
    assert best_strike(TOWER, blue(1, "Centaur", "C3"), red(2, "Ogre", "B2")) == (1, 3)


def test_11_7_dune_native_down_two_more_dice_non_native_up_one_less() -> None:
    # Desert: E4 atop the dune to F3
    assert best_strike(DESERT, blue(1, "Lion", "E4"), red(2, "Ogre", "F3")) == (3, 7)
    assert best_strike(DESERT, blue(1, "Centaur", "E4"), red(2, "Ogre", "F3")) == (2, 3)
    assert best_strike(DESERT, blue(1, "Centaur", "F3"), red(2, "Ogre", "E4")) == (2, 2)
    assert best_strike(DESERT, blue(1, "Lion", "F3"), red(2, "Ogre", "E4")) == (3, 5)


def test_11_7_dragon_in_the_volcano_two_more_dice_and_one_for_the_slope() -> None:
    # Mountains: D4 is the volcano, atop slopes to C4, D3, D5, E3, E4
    assert best_strike(MOUNTAINS, blue(1, "Dragon", "D4"), red(2, "Centaur", "C4")) == (5, 12)
    # out of the volcano, down a slope: the slope die only
    assert best_strike(MOUNTAINS, blue(1, "Dragon", "B2"), red(2, "Centaur", "A2")) == (5, 10)


def test_11_7_no_strike_or_carry_across_a_cliff() -> None:
    # Desert: cliffs D4-C3 and D4-D3; D4-D5 and D4-E4 are plain sides.
    troll, d5, e4, c3 = fighters = (
        blue(1, "Troll", "D4"),
        red(2, "Centaur", "D5"),
        red(3, "Centaur", "E4"),
        red(4, "Centaur", "C3"),
    )
    with pytest.raises(ValueError):
        best_strike(DESERT, troll, c3)
    assert strike_options(DESERT, troll, c3, fighters) == []
    assert strike_options(DESERT, troll, d5, fighters) == [opt(d5, 6, 8, e4)]


def test_wolff_11_7_plain_side_strike_cannot_carry_up_a_dune() -> None:
    # Desert: D4 is atop the dune to C4; D5 atop the dune to C4 as well.
    # A lion at C4 strikes up to D4 (up a dune): it may carry up to D5 and to B4 (plain).
    lion, d4, d5, b4 = fighters = (
        blue(1, "Lion", "C4"),
        red(2, "Centaur", "D4"),
        red(3, "Centaur", "D5"),
        red(4, "Centaur", "B4"),
    )
    assert strike_options(DESERT, lion, d4, fighters) == [opt(d4, 5, 5, d5, b4)]
    # from the plain side at B4 no carry up the dunes, though the lion is a native
    assert strike_options(DESERT, lion, b4, fighters) == [opt(b4, 5, 5)]


# ------------------------------------------------------------------- rangestrikes 13


def test_13_0_only_the_phasing_player_rangestrikes() -> None:
    hydra, centaur = blue(1, "Hydra", "C1"), red(2, "Centaur", "C3")
    assert ranged(hydra, centaur) == [(5, 5, ())]
    assert ranged(hydra, centaur, phasing=False) == []


def test_13_0_only_characters_with_the_bolt_rangestrike() -> None:
    ogre, centaur = blue(1, "Ogre", "C1"), red(2, "Centaur", "C3")
    assert ranged(ogre, centaur) == []
    assert rangestrike_refusal(ogre, centaur) is not None


def test_13_0_no_rangestrike_while_in_contact_with_an_enemy() -> None:
    hydra, centaur, ogre = blue(1, "Hydra", "C1"), red(2, "Centaur", "C3"), red(3, "Ogre", "B1")
    assert ranged(hydra, centaur, ogre) == []
    # a friend alongside does not matter
    assert ranged(hydra, centaur, blue(3, "Ogre", "B1")) == [(5, 5, ())]


def test_13_1_rangestrike_dice_are_half_the_power_rounded_down() -> None:
    centaur = red(2, "Centaur", "C3")
    assert ranged(blue(1, "Dragon", "C1"), centaur) == [(5, 4, ())]
    assert ranged(blue(1, "Giant", "C1"), centaur) == [(4, 3, ())]
    assert ranged(blue(1, "Warlock", "C1"), centaur) == [(4, 2, ())]


def test_13_2_range_counts_both_hexes_and_costs_one_skill_at_four() -> None:
    ranger = blue(1, "Ranger", "C1")
    assert ranged(ranger, red(2, "Centaur", "C3")) == [(4, 2, ())]  # range 3
    assert ranged(ranger, red(2, "Centaur", "C4")) == [(5, 2, ())]  # range 4: skill 3
    assert ranged(ranger, red(2, "Centaur", "C5")) == []  # range 5: never


def test_13_2_range_is_at_most_the_skill() -> None:
    hydra = blue(1, "Hydra", "C1")  # skill 3
    assert ranged(hydra, red(2, "Centaur", "C3")) == [(5, 5, ())]
    assert ranged(hydra, red(2, "Centaur", "C4")) == []


def test_wolff_11_7_13_2_hazards_that_cut_the_skill_do_not_cut_the_range() -> None:
    # "a ranger in hex B3 in the brush may rangestrike a character in hex E5":
    # range 4 (-1) across the brambles at C4 and D5 (-2): skill 1 vs 4, capped at 6
    ranger, centaur = blue(1, "Ranger", "B3"), red(2, "Centaur", "E5")
    assert ranged(ranger, centaur, land=BRUSH) == [(6, 2, ())]


def test_11_7_rangestrike_loses_a_skill_per_intervening_bramble_for_non_natives() -> None:
    # Brush: from D4 to B3 via C3 (plain) or C4 (bramble), as in example 6
    centaur = red(2, "Centaur", "B3")
    assert ranged(blue(1, "Ranger", "D4"), centaur, land=BRUSH) == [
        (4, 2, ("C3",)),
        (5, 2, ("C4",)),
    ]
    # a bramble native (gorgon) loses nothing: both paths give the same strike,
    # which is one option, the first path's
    assert ranged(blue(1, "Gorgon", "D4"), centaur, land=BRUSH) == [(5, 3, ("C3",))]
    # bramble in the striker's own hex does not matter: C4 -> C2 through C3
    assert ranged(blue(1, "Ranger", "C4"), red(2, "Centaur", "C2"), land=BRUSH) == [(4, 2, ())]


def test_11_7_bramble_native_defending_in_bramble_against_a_rangestrike() -> None:
    # Brush: a gargoyle in the bramble at C4, shot from C2 through C3 (plain)
    gargoyle = red(2, "Gargoyle", "C4")
    assert ranged(blue(1, "Ranger", "C2"), gargoyle, land=BRUSH) == [(4, 2, ())]  # 4 vs 3+1
    assert ranged(blue(1, "Gorgon", "C2"), gargoyle, land=BRUSH) == [(4, 3, ())]  # native: 3 vs 3
    assert ranged(blue(1, "Warlock", "C2"), gargoyle, land=BRUSH) == [(3, 2, ())]  # 13.5


def test_11_7_rangestrike_loses_a_skill_per_wall_crossed_going_up() -> None:
    # Tower: A1 -> C3 crosses the wall B2|C3 going up; A1 -> D4 crosses two walls
    # going up at range 4: skill 4 - 1 - 2 vs 4, capped at 6
    ranger = blue(1, "Ranger", "A1")
    assert ranged(ranger, red(2, "Centaur", "C3"), land=TOWER) == [(5, 2, ())]
    assert ranged(ranger, red(2, "Centaur", "D4"), land=TOWER) == [(6, 2, ())]
    assert ranged(ranger, red(2, "Ogre", "D4"), land=TOWER) == [(5, 2, ())]  # 1 vs 2
    # going down a wall costs nothing: C3 -> A1
    assert ranged(blue(1, "Ranger", "C3"), red(2, "Centaur", "A1"), land=TOWER) == [(4, 2, ())]


def test_11_7_dragon_in_the_volcano_rangestrikes_with_two_more_dice() -> None:
    # Mountains: the volcano is D4
    dragon, centaur = blue(1, "Dragon", "D4"), red(2, "Centaur", "D6")
    assert ranged(dragon, centaur, land=MOUNTAINS) == [(5, 6, ())]


def test_wolff_11_7_13_5_dragon_in_the_volcano_defends_except_against_warlocks() -> None:
    dragon = red(2, "Dragon", "D4")
    assert ranged(blue(1, "Giant", "D6"), dragon, land=MOUNTAINS) == [(4, 3, ())]  # 3, +1
    # "They do get the benefit against rangestrikes from other dragons."
    assert ranged(blue(1, "Dragon", "D6"), dragon, land=MOUNTAINS) == [(5, 4, ())]
    assert ranged(blue(1, "Warlock", "D6"), dragon, land=MOUNTAINS) == [(3, 2, ())]


def test_13_5_lords_are_immune_to_rangestrikes_except_from_warlocks() -> None:
    for lord in ("Titan", "Angel", "Archangel"):
        target = red(2, lord, "C3")
        hydra, warlock = blue(1, "Hydra", "C1"), blue(1, "Warlock", "C1")
        reason = rangestrike_refusal(hydra, target)
        assert reason is not None and "13.5" in reason
        assert ranged(hydra, target) == []
        assert rangestrike_refusal(warlock, target) is None
        assert ranged(warlock, target) == [(4, 2, ())]
    # demi-lords are not lords
    assert rangestrike_refusal(blue(1, "Hydra", "C1"), red(2, "Guardian", "C3")) is None


def test_wolff_12_0_no_rangestrike_at_a_slain_character_or_a_friend() -> None:
    hydra = blue(1, "Hydra", "C1")
    slain = red(2, "Centaur", "C3", hits=3)
    assert rangestrike_refusal(hydra, slain) is not None
    assert ranged(hydra, slain) == []
    friend = blue(2, "Centaur", "C3")
    assert rangestrike_refusal(hydra, friend) is not None
    assert ranged(hydra, friend) == []


def test_13_3_characters_in_the_path_block_but_never_a_warlock_13_5() -> None:
    # Brush: both paths from D4 to B3 (C3, C4) are held by the striker's friends
    # (friends block as enemies do; an enemy there would be in contact, 13.0)
    centaur, in_c3, in_c4 = red(2, "Centaur", "B3"), blue(3, "Ogre", "C3"), blue(4, "Ogre", "C4")
    assert ranged(blue(1, "Hydra", "D4"), centaur, in_c3, in_c4, land=BRUSH) == []
    # one path free: only that one
    assert ranged(blue(1, "Hydra", "D4"), centaur, in_c4, land=BRUSH) == [(5, 5, ("C3",))]
    warlock = blue(1, "Warlock", "D4")
    assert ranged(warlock, centaur, in_c3, in_c4, land=BRUSH) == [(4, 2, ("C3",))]


def test_13_5_warlock_has_no_range_four_penalty_and_ignores_hazards() -> None:
    # Tower: A1 -> D4 is range 4 up two walls; Brush B3 -> E5 crosses two brambles
    assert ranged(blue(1, "Warlock", "A1"), red(2, "Centaur", "D4"), land=TOWER) == [(4, 2, ())]
    assert ranged(blue(1, "Warlock", "B3"), red(2, "Centaur", "E5"), land=BRUSH) == [(4, 2, ())]


def test_wolff_11_7_13_5_warlock_rangestrikes_across_an_adjacent_cliff() -> None:
    # Desert: D4 tops the cliff to C3; adjacent across a cliff is not contact
    titan = red(2, "Titan", "C3")
    assert ranged(blue(1, "Warlock", "D4"), titan, land=DESERT) == [(4, 2, ())]
    assert ranged(blue(1, "Ranger", "D4"), red(2, "Centaur", "C3"), land=DESERT) == []


def test_wolff_12_4_excess_allocations_from_the_excess_alone() -> None:
    # example 3's numbers: 5 excess, the other centaur (3 to slay), the colossus (10)
    assert excess_allocations(5, {3: 3, 4: 10}) == [(), ((3, 3),), ((3, 3), (4, 2)), ((4, 5),)]
    assert excess_allocations(0, {3: 3}) == [()]
    assert excess_allocations(2, {}) == [()]
