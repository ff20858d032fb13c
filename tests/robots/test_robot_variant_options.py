"""
The competent robot knows the variant's options where they change what a fight is
worth (moderator.robots.values, fight): the Hydra's three heads (1981 27E, option
``hydra_three_heads``) and a battleland chosen by the defender's die (Badlands, option
``battleland_choice``): before the die, both battlelands weighed by their chances; in
the battle, the one in play.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from moderator.robots import values
from moderator.rules.variant import STANDARD, load_variant, register_variant
from moderator.usecases.games.robot_match import play_match

HEADS = "test-hydra-heads"


@pytest.fixture(scope="module")
def heads() -> str:
    """The standard game with the 1981 supplement's three-headed Hydra."""
    standard = load_variant(STANDARD)
    register_variant(replace(standard, name=HEADS, options=replace(standard.options, hydra_three_heads=True)))
    return HEADS


def test_1981_27e_the_robot_counts_the_hydras_three_heads_of_two_dice(heads: str) -> None:
    """1981 27E: three rangestrikes of two dice each, where 1982 13.1 gives one of half its power (five)."""
    three, one = load_variant(heads), load_variant(STANDARD)
    assert values.rangestrike_dice(three, "Hydra") == (2, 2, 2)
    assert values.rangestrike_dice(one, "Hydra") == (5,)
    assert values.rangestrike_dice(three, "Centaur") == ()  # no bolt, no heads
    assert values.rangestrike_dice(three, "Ranger") == values.rangestrike_dice(one, "Ranger") == (2,)
    assert values.combat_value(three, "Hydra") > values.combat_value(one, "Hydra")
    assert values.combat_value(three, "Ranger") == values.combat_value(one, "Ranger")


def test_1981_27e_a_legion_with_three_headed_hydras_is_estimated_stronger(heads: str) -> None:
    """1981 27E: six dice of bolts instead of five make the Hydras' side likelier to win the same battle."""
    attacker, defender = ("Hydra", "Hydra"), ("Colossus", "Giant")
    three = values.battle(load_variant(heads), attacker, defender, "Desert")
    one = values.battle(load_variant(STANDARD), attacker, defender, "Desert")
    assert three.attacker_wins > one.attacker_wins


def test_1981_27e_competent_robots_play_a_whole_game_with_three_headed_hydras(heads: str) -> None:
    """The robot's strikes with the heads are among the legal ones, to the game's end."""
    result = play_match(["competent", "competent"], 3, variant=heads)
    assert result.finished, result


def test_badlands_before_the_die_the_robot_weighs_the_alternate_and_the_terrains_own_evenly() -> None:
    """Badlands, defender's roll: 1-3 the alternate, 4-6 the terrain's own, so each counts half."""
    badlands, fixed = load_variant("badlands"), load_variant("badlands-fixed")
    brush = badlands.lands[3]  # a Brush land that Colossus places on the alternate
    assert brush.terrain == "Brush"
    assert values.battlelands_of(badlands, brush) == (("Brush", 0.5), ("BrushAlt", 0.5))
    assert values.battlelands_of(fixed, fixed.lands[3]) == (("BrushAlt", 1.0),)  # placed: no die
    assert values.battlelands_of(badlands, badlands.lands[1]) == (("Fort", 1.0),)  # a land of its own
    assert values.battlelands_of(load_variant(STANDARD), load_variant(STANDARD).lands[3]) == (("Brush", 1.0),)


def test_badlands_the_estimate_before_the_die_is_the_mean_of_both_battlelands() -> None:
    """Badlands: the expected battle over the die lies between the battle on either battleland."""
    v = load_variant("badlands")
    attacker, defender = ("Gargoyle", "Gargoyle", "Ogre"), ("Cyclops", "Gargoyle")
    alt = values.battle(v, attacker, defender, "Brush", battleland="BrushAlt")
    own = values.battle(v, attacker, defender, "Brush")
    mean = values.expected([(alt, 0.5), (own, 0.5)])
    assert mean.attacker_wins == pytest.approx((alt.attacker_wins + own.attacker_wins) / 2)
    assert mean.defender_lost == pytest.approx((alt.defender_lost + own.defender_lost) / 2)


def test_badlands_a_battle_on_the_fort_reinforces_from_the_plains() -> None:
    """Badlands: the Fort lies on a Plains land and musters as Plains, so the defender's reinforcement (14.0) is a Plains creature."""
    v = load_variant("badlands")
    attacker, defender = ("Lion", "Ogre", "Ogre"), ("Centaur", "Centaur", "Lion")
    reinforced = values.battle(v, attacker, defender, "Plains", battleland="Fort")
    alone = values.battle(v, attacker, defender, "Plains", battleland="Fort", reinforce=False)
    assert reinforced.defender_left.count("Lion") == alone.defender_left.count("Lion") + 1
    assert reinforced.attacker_wins < alone.attacker_wins


@pytest.mark.long
@pytest.mark.parametrize("variant", ["badlands", "badlands-fixed"])
def test_badlands_competent_robots_fight_on_the_battleland_in_play_to_the_games_end(variant: str) -> None:
    result = play_match(["competent", "competent"], 4, variant=variant)
    assert result.finished, result
