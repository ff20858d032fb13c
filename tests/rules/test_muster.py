"""
Mustering in the mover's muster phase (rules 4.1, 6.4, 18.0-18.5, Wolff 18.0,
Complete Sequence 2.6-2.7).

Lands used: Desert 35 (Lion; 3 Lions: Griffon; 2 Griffons: Hydra),
Mountains 1000 (Lion; 2 Lions: Minotaur; 2 Minotaurs: Dragon; 2 Dragons: Colossus),
Marsh 8 (Ogre; 2 Ogres: Troll; 2 Trolls: Ranger), Jungle 5 (Gargoyle; 2: Cyclops;
3 Cyclopes: Behemoth; 2 Behemoths: Serpent) and tower 600.
"""

from __future__ import annotations

import pytest

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.legal import legal_commands
from moderator.rules.state import Step

BOB = ("Bu01", 300, "Titan Minotaur")


def _at(game_at, land: int, contents: str, moved: bool = True, **kw):
    """Ann's Rd02 on ``land`` in her muster phase; her Titan waits unmoved in 34."""
    return game_at(
        [("Rd01", 34, "Titan Minotaur"), ("Rd02", land, contents, moved), BOB],
        phase="muster",
        roll=1,
        **kw,
    )


def muster(creature: str, *showing: str, marker: str = "Rd02", player: str = "Ann"):
    return cmd.Muster(player=player, marker=marker, creature=creature, showing=showing)


def offered(game, marker: str = "Rd02") -> set[str]:
    return {
        c.creature
        for c in legal_commands(game.state)
        if isinstance(c, cmd.Muster) and c.marker == marker
    }


# -- eligibility (18.0, 18.1, 4.1) -----------------------------------------------------------------


def test_18_1_only_a_legion_that_moved_may_muster(game_at) -> None:
    """18.1/6.4: a legion is only eligible to muster after moving this turn."""
    game = _at(game_at, 35, "Lion Lion", moved=False)
    error = game.refused(muster("Lion"), "E-MUSTER")
    assert "did not move" in str(error)
    assert offered(game) == set()
    game = _at(game_at, 35, "Lion Lion", moved=True)
    events = game.do(muster("Lion"))
    assert game.one(events, ev.CreatureMustered) == ev.CreatureMustered(
        marker="Rd02", creature="Lion", shown=("Lion",)
    )
    assert game.legion("Rd02").contents == ("Lion", "Lion", "Lion")


def test_18_0_one_muster_per_legion_per_turn(game_at) -> None:
    """18.0: no legion may muster more than one character per game-turn."""
    game = _at(game_at, 35, "Lion Lion Lion")
    game.do(muster("Lion"))
    game.refused(muster("Griffon", "Lion", "Lion", "Lion"), "E-MUSTER")
    assert offered(game) == set()


def test_4_1_seven_high_legion_cannot_muster(game_at) -> None:
    """4.1/18.1: a legion of seven characters cannot muster."""
    game = _at(game_at, 35, "Lion Lion Lion Ogre Ogre Troll Troll")
    error = game.refused(muster("Lion"), "E-MUSTER")
    assert "seven high" in str(error)


def test_18_0_no_muster_when_the_caretaker_has_none_left(game_at) -> None:
    """18.0/Wolff 3.5: only characters left in the caretaker's stacks can be mustered (28 Lions in all)."""
    game = _at(game_at, 35, "Lion Lion", dead={"Lion": 26})
    assert game.state.caretaker["Lion"] == 0
    game.refused(muster("Lion"), "E-MUSTER")
    assert offered(game) == set()


def test_complete_sequence_2_6_only_the_mover_musters(game_at) -> None:
    """2.6/Wolff 1.3: only the current player may muster, and only in his muster phase."""
    game = _at(game_at, 35, "Lion Lion")
    game.refused(muster("Minotaur", marker="Bu01", player="Bob"), "E-NOT-YOUR-TURN")
    game.refused(muster("Lion", marker="Bu01"), "E-NOT-YOURS")
    moving = game_at([("Rd01", 34, "Titan Minotaur"), ("Rd02", 35, "Lion Lion"), BOB], roll=1)
    moving.refused(muster("Lion"), "E-NOT-NOW")


def test_complete_sequence_2_7_turn_ends_and_the_next_begins(game_at) -> None:
    """2.7/Complete Sequence 2: the current player ends his turn; the next player (descending tower) begins."""
    game = _at(game_at, 35, "Lion Lion")
    assert {type(c) for c in legal_commands(game.state)} == {cmd.Muster, cmd.Done, cmd.Withdraw}
    events = game.do(cmd.Done(player="Ann"))
    assert list(events) == [ev.TurnEnded(player="Ann"), ev.TurnStarted(player="Bob", turn=2)]
    assert game.state.step is Step.SPLIT and game.state.active == "Bob"
    assert not game.legion("Rd02").moved
    game.refused(muster("Lion"), "E-NOT-NOW")


# -- qualification (18.2-18.5, Wolff 18.0) ------------------------------------------------------------


def test_18_3_a_creature_musters_a_like_or_lesser_one_of_the_terrain(game_at) -> None:
    """18.3: a Colossus in the Mountains qualifies a Colossus, Dragon, Minotaur or Lion."""
    game = _at(game_at, 1000, "Colossus Ogre")
    assert offered(game) == {"Lion", "Minotaur", "Dragon", "Colossus"}
    events = game.do(muster("Minotaur", "Colossus"))
    assert game.one(events, ev.CreatureMustered).shown == ("Colossus",)


def test_18_3_two_lions_muster_a_minotaur_but_not_a_dragon(game_at) -> None:
    """18.3: intermediate steps cannot be skipped: two Lions muster a Minotaur in the Mountains, not a Dragon."""
    game = _at(game_at, 1000, "Lion Lion")
    assert offered(game) == {"Lion", "Minotaur"}
    game.refused(muster("Dragon", "Lion", "Lion"), "E-MUSTER")
    events = game.do(muster("Minotaur", "Lion", "Lion"))
    assert game.one(events, ev.CreatureMustered).shown == ("Lion", "Lion")


def test_18_3_two_minotaurs_muster_a_dragon(game_at) -> None:
    """18.3: a legion must hold two Minotaurs, a Dragon or a Colossus to muster a Dragon in the Mountains."""
    game = _at(game_at, 1000, "Minotaur Minotaur")
    assert "Dragon" in offered(game)
    game.do(muster("Dragon", "Minotaur", "Minotaur"))


def test_18_2_numbers_needed_for_the_next_creature(game_at) -> None:
    """18.2: the chart says how many of a creature qualify the next: three Lions for a Griffon in the Desert."""
    game = _at(game_at, 35, "Lion Lion")
    game.refused(muster("Griffon", "Lion", "Lion"), "E-MUSTER")
    game = _at(game_at, 35, "Lion Lion Lion")
    events = game.do(muster("Griffon", "Lion", "Lion", "Lion"))
    assert game.one(events, ev.CreatureMustered).shown == ("Lion", "Lion", "Lion")
    game = _at(game_at, 5, "Cyclops Cyclops")
    assert offered(game) == {"Gargoyle", "Cyclops"}  # three Cyclopes for a Behemoth


def test_18_3_only_creatures_of_the_terrain(game_at) -> None:
    """18.3: no legion can muster a creature not listed for its terrain, nor be qualified by one that is not."""
    game = _at(game_at, 8, "Lion Lion Griffon")
    assert offered(game) == set()
    game.refused(muster("Ogre"), "E-MUSTER")
    game.refused(muster("Lion", "Lion"), "E-MUSTER")


def test_18_4_either_qualifying_way_may_be_shown(game_at) -> None:
    """18.4: a legion with two Ogres and a Troll may muster a Troll showing either both Ogres or the Troll."""
    game = _at(game_at, 8, "Ogre Ogre Troll")
    events = game.do(muster("Troll", "Ogre", "Ogre"))
    assert game.one(events, ev.CreatureMustered).shown == ("Ogre", "Ogre")
    game = _at(game_at, 8, "Ogre Ogre Troll")
    events = game.do(muster("Troll", "Troll"))
    assert game.one(events, ev.CreatureMustered).shown == ("Troll",)
    game = _at(game_at, 8, "Ogre Ogre Troll")
    game.refused(muster("Troll", "Ogre"), "E-MUSTER")  # not enough
    game.refused(muster("Troll", "Ranger"), "E-MUSTER")  # not in the legion
    events = game.do(muster("Troll"))  # nothing named: the first qualifying way
    assert game.one(events, ev.CreatureMustered).shown in (("Ogre", "Ogre"), ("Troll",))


def test_18_0_mustered_character_is_public(game_at) -> None:
    """18.0: the characters that qualify the muster, and the recruit, are revealed to the other players."""
    game = _at(game_at, 8, "Ogre Ogre Troll")
    events = game.do(muster("Troll", "Troll"))
    assert game.one(events, ev.CreatureMustered).visible_to is None
    assert game.state.caretaker["Troll"] == 28 - 2


# -- towers (18.5, Wolff 18.0) ---------------------------------------------------------------------


@pytest.mark.parametrize("which", [0, 1, 2])
def test_wolff_18_0_tower_creature_musters_showing_nothing(game_at, variant, which: int) -> None:
    """18.5/Wolff 18.0: in a tower any tower creature may be mustered without revealing any
    character (the standard game's Centaur, Gargoyle, Ogre; 21.3 TitanPlus's Lion, Troll,
    Cyclops: the variant's own three)."""
    game = _at(game_at, 600, "Minotaur Minotaur")
    events = game.do(muster(variant.tower_creatures[which]))
    assert game.one(events, ev.CreatureMustered).shown == ()


def test_18_5_tower_musters_no_other_creature(game_at, variant) -> None:
    """18.5: a tower musters only the tower creatures and the demi-lords."""
    game = _at(game_at, 600, "Minotaur Warbear")
    game.refused(muster("Minotaur", "Minotaur"), "E-MUSTER")  # 18.2 elsewhere
    assert offered(game) == set(variant.tower_creatures)


def test_18_5_warlock_with_the_titan_or_a_warlock(game_at) -> None:
    """18.5: in a tower a legion with its player's Titan, or with a Warlock, may muster a Warlock."""
    game = game_at([("Rd01", 600, "Titan Minotaur", True), BOB], phase="muster", roll=1)
    events = game.do(muster("Warlock", "Titan", marker="Rd01"))
    assert game.one(events, ev.CreatureMustered).shown == ("Titan",)
    game = _at(game_at, 600, "Warlock Minotaur")
    events = game.do(muster("Warlock", "Warlock"))
    assert game.one(events, ev.CreatureMustered).shown == ("Warlock",)
    game = _at(game_at, 600, "Troll Minotaur")
    game.refused(muster("Warlock"), "E-MUSTER")


def test_18_5_guardian_with_three_identical_creatures_or_a_guardian(game_at, variant) -> None:
    """18.5: three identical creatures (the variant's count: two in the test variant), or a
    Guardian, qualify a Guardian in a tower; one fewer does not."""
    three = ["Minotaur"] * variant.guardian_needs
    game = _at(game_at, 600, " ".join(three))
    assert "Guardian" in offered(game)
    events = game.do(muster("Guardian", *three))
    assert game.one(events, ev.CreatureMustered).shown == tuple(three)
    game = _at(game_at, 600, "Guardian Minotaur")
    events = game.do(muster("Guardian", "Guardian"))
    assert game.one(events, ev.CreatureMustered).shown == ("Guardian",)
    game = _at(game_at, 600, " ".join([*three[1:], "Warbear"]))
    game.refused(muster("Guardian"), "E-MUSTER")


def test_18_5_three_lords_are_not_three_creatures(game_at) -> None:
    """18.5/3.0: angels are lords, not creatures: three of them do not qualify a Guardian."""
    game = _at(game_at, 600, "Angel Angel Angel")
    assert "Guardian" not in offered(game)
    game.refused(muster("Guardian", "Angel", "Angel", "Angel"), "E-MUSTER")


def test_18_5_tower_muster_is_not_a_reinforcement_elsewhere(game_at) -> None:
    """18.5: tower creatures are mustered freely only on a tower land."""
    game = _at(game_at, 35, "Lion Lion")
    game.refused(muster("Centaur"), "E-MUSTER")
