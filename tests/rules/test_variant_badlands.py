"""
Badlands: the battleland a battle is fought on (option ``battleland_choice``).

``badlands`` plays the original rule ("defender-roll": for the seven terrains with an
alternate the moderator rolls one die for the defender before he sets up, 1-3 the
alternate); ``badlands-fixed`` plays Colossus's placement ("fixed": each land its placed
battleland, nothing rolled).  Fort, Town and Waterhole are lands of their own in both,
and their lakes are hexes nobody enters.
"""

from __future__ import annotations

import pytest

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.battle_maneuver import destinations
from moderator.rules.codec import decode, encode
from moderator.rules.errors import RuleError
from moderator.rules.positions import position_event
from moderator.rules.variant import load_variant
from tests.rules.conftest import Game, build_position


def _fight(variant: str, land: int, *rolls: int) -> tuple[Game, ev.BattleStarted]:
    """Ann's Rd01 has moved onto Bob's Bu01 at ``land``; they fight it out."""
    game = Game(
        [
            position_event(
                build_position(
                    [
                        ("Rd01", land, "Troll Troll Lion", True),
                        ("Rd03", 600, "Titan Lion"),
                        ("Bu01", land, "Lion Ranger"),
                        ("Bu02", 300, "Titan Lion"),
                    ],
                    variant=variant,
                    phase="engage",
                    roll=1,
                )
            )
        ]
    )
    game.do(cmd.Engage(player="Ann", land=land))
    game.do(cmd.NoMore(player="Bob"))
    events = game.do(cmd.Fight(player="Ann"), *rolls)
    return game, game.one(events, ev.BattleStarted)


@pytest.mark.parametrize("roll", [1, 2, 3])
def test_badlands_defender_roll_of_1_to_3_fights_on_the_alternate(roll: int) -> None:
    """Land 3 is Brush: a roll of 1-3 for the defender gives the alternate Brush."""
    game, started = _fight("badlands", 3, roll)
    assert (started.terrain, started.battleland_roll) == ("BrushAlt", roll)
    assert game.state.battle is not None
    assert game.state.battle.battleland is load_variant("badlands").battlelands["BrushAlt"]
    assert game.replayed() == game.state


@pytest.mark.parametrize("roll", [4, 5, 6])
def test_badlands_defender_roll_of_4_to_6_fights_on_the_terrains_own(roll: int) -> None:
    """A roll of 4-6 keeps the Brush's own battleland, though Colossus places the alternate there."""
    _, started = _fight("badlands", 3, roll)
    assert (started.terrain, started.battleland_roll) == ("Brush", roll)


def test_badlands_defender_roll_on_a_land_colossus_leaves_alone() -> None:
    """Land 42 is a Swamp Colossus does not place: the die still chooses (the original rule)."""
    _, started = _fight("badlands", 42, 2)
    assert (started.terrain, started.battleland_roll) == ("SwampAlt", 2)


def test_badlands_no_die_for_a_terrain_without_an_alternate() -> None:
    """Plains (land 6) has no alternate: nothing is rolled (the Game's dice may not roll)."""
    _, started = _fight("badlands", 6)
    assert (started.terrain, started.battleland_roll) == ("Plains", None)


@pytest.mark.parametrize("variant", ["badlands", "badlands-fixed"])
@pytest.mark.parametrize(("land", "battleland"), [(1, "Fort"), (15, "Town"), (29, "Waterhole")])
def test_badlands_fort_town_and_waterhole_are_never_rolled_for(
    variant: str, land: int, battleland: str
) -> None:
    _, started = _fight(variant, land)
    assert (started.terrain, started.battleland_roll) == (battleland, None)


@pytest.mark.parametrize(("land", "battleland"), [(3, "BrushAlt"), (42, "Swamp"), (107, "DesertAlt")])
def test_badlands_fixed_fights_on_the_placed_battleland_without_a_die(land: int, battleland: str) -> None:
    _, started = _fight("badlands-fixed", land)
    assert (started.terrain, started.battleland_roll) == (battleland, None)


@pytest.mark.parametrize(("land", "lakes"), [(1, {"D5"}), (29, {"C3", "D3", "D4"})])
def test_badlands_nobody_enters_a_lake(land: int, lakes: set[str]) -> None:
    """A lake is offered to nobody entering the Fort or the Waterhole, the flying Ranger too."""
    game, _ = _fight("badlands-fixed", land)
    battle = game.state.battle
    assert battle is not None
    assert {h.label for h in battle.battleland.hexes.values() if h.terrain == "lake"} == lakes
    for fighter in battle.fighters:
        reachable = destinations(battle, fighter)
        assert reachable and not lakes & reachable, fighter.creature


def _battle_at_2000(variant: str, **battle: object) -> dict[str, object]:
    """A battle in progress at Tundra 2000 (Badlands: Tundra, or TundraAlt on 1-3)."""
    data = build_position(
        [
            ("Rd01", 2000, "Troll", True),
            ("Rd03", 600, "Titan"),
            ("Bu01", 2000, "Lion"),
            ("Bu02", 300, "Titan"),
        ],
        variant=variant,
        phase="engage",
        roll=1,
    )
    data["battle"] = {
        "land": 2000,
        "attacker": "Rd01",
        "defender": "Bu01",
        "turn": 2,
        "characters": [
            {"legion": "Rd01", "type": "Troll", "hex": "D1"},
            {"legion": "Bu01", "type": "Lion", "hex": "D6"},
        ],
        **battle,
    }
    return data


def test_badlands_a_position_names_the_battleland_the_defenders_die_chose() -> None:
    """Original Badlands: the defender's die (1-3) may have put a battle on the alternate,
    so a position of that battle in progress names it, and the battle goes on there; a
    file that names none keeps the land's own battleland, as before."""
    event = position_event(_battle_at_2000("badlands", battleland="TundraAlt"))
    assert event.battleland == "TundraAlt"
    state = Game([event]).state
    assert state.battle is not None and state.battle.terrain == "TundraAlt"
    assert decode(encode(event)) == event
    plain = Game([position_event(_battle_at_2000("badlands"))]).state
    assert plain.battle is not None and plain.battle.terrain == "Tundra"


@pytest.mark.parametrize(
    ("variant", "named", "choices"),
    [
        ("badlands", "BrushAlt", "Tundra or TundraAlt"),
        ("badlands-fixed", "TundraAlt", "Tundra"),  # nothing is rolled: the placed one only
        ("standard", "TundraAlt", "Tundra"),
    ],
)
def test_badlands_a_position_may_not_name_a_battleland_the_land_is_not_fought_on(
    variant: str, named: str, choices: str
) -> None:
    """A battle is fought only where the variant can put it: the land's placed battleland,
    or with the defender's roll its terrain's own and its alternate; the refusal names them."""
    with pytest.raises(RuleError) as info:
        position_event(_battle_at_2000(variant, battleland=named))
    assert f"land 2000 is fought on {choices}, not {named!r}" in str(info.value)
