"""
The rule options about angels earned by points (moderator.rules.options): each one
tested on its own, in a variant that is the standard game with only that option
changed, against the standard game's answer.

Ann's Rd01 has moved onto Bob's Bu02 at Brush 3 (muster chain Gargoyle, Cyclops by two
Gargoyles, Gorgon by two Cyclopes).  Values: Angel 24, Lion 15, Ogre 12, Gargoyle 12.
"""

from __future__ import annotations

import dataclasses

import pytest

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.legal import legal_commands
from moderator.rules.options import RuleOptions
from moderator.rules.positions import position_event
from moderator.rules.state import Step
from moderator.rules.variant import STANDARD, load_variant, register_variant
from tests.rules.conftest import Game, build_position

ANN = "Rd01"
BOB = "Bu02"

#: 1982 17.4 read literally: the angel, or the creature, or neither.
ANGEL_OR_MUSTER = register_variant(
    dataclasses.replace(
        load_variant(STANDARD),
        name="test-angel-or-muster",
        options=RuleOptions(angel_and_muster_below_six=False),
    )
)
#: 1982 and 003 17.3 as written: the Archangel while one is left.
ARCHANGEL_FIRST = register_variant(
    dataclasses.replace(
        load_variant(STANDARD),
        name="test-archangel-first",
        options=RuleOptions(angel_in_place_of_archangel=False),
    )
)


def _fight(
    variant: str,
    attacker: str = "Gargoyle Gargoyle Ogre",
    defender: str = "Angel Lion Ogre",
    extra=(),
    **kw,
) -> Game:
    position = build_position(
        [
            (ANN, 3, attacker, True),
            ("Rd02", 600, "Titan Ogre"),
            ("Bu01", 300, "Titan Ogre"),
            (BOB, 3, defender),
            *extra,
        ],
        phase="engage",
        roll=1,
        variant=variant,
        **kw,
    )
    game = Game([position_event(position)])
    game.do(cmd.Engage(player="Ann", land=3))
    return game


def _musters(game: Game) -> set[str]:
    return {c.creature for c in legal_commands(game.state) if isinstance(c, cmd.Muster)}


def _angels(game: Game) -> list[str]:
    return [c.lord for c in legal_commands(game.state) if isinstance(c, cmd.TakeAngel)]


def test_003_angel_and_muster_below_six() -> None:
    """003 17.4 (and Wolff's sequence, 2.5.6.8 then 2.6): a winner of fewer than six takes the angel and musters."""
    game = _fight(STANDARD, scores={"Ann": 90})
    game.do(cmd.Concede(player="Bob"))  # 51 points: 141
    game.do(cmd.TakeAngel(player="Ann", lord="Angel"))
    assert game.state.step is Step.MUSTER
    assert _musters(game) == {"Gargoyle", "Cyclops"}
    events = game.do(
        cmd.Muster(player="Ann", marker=ANN, creature="Cyclops", showing=("Gargoyle", "Gargoyle"))
    )
    assert game.one(events, ev.CreatureMustered).creature == "Cyclops"
    assert game.legion(ANN).contents == ("Angel", "Cyclops", "Gargoyle", "Gargoyle", "Ogre")


def test_1982_17_4_angel_or_creature_not_both() -> None:
    """1982 17.4 read literally (option off): the winner that took its angel does not also muster."""
    game = _fight(ANGEL_OR_MUSTER.name, scores={"Ann": 90})
    game.do(cmd.Concede(player="Bob"))
    game.do(cmd.TakeAngel(player="Ann", lord="Angel"))
    assert game.state.step is Step.MUSTER
    assert _musters(game) == set()
    refusal = game.refused(cmd.Muster(player="Ann", marker=ANN, creature="Gargoyle"), "E-MUSTER")
    assert "angel or a creature" in str(refusal)


def test_1982_17_4_declining_the_angel_keeps_the_muster() -> None:
    """1982 17.4 read literally: a winner that declines the angel may muster the creature instead."""
    game = _fight(ANGEL_OR_MUSTER.name, scores={"Ann": 90})
    game.do(cmd.Concede(player="Bob"))
    game.do(cmd.Decline(player="Ann"))
    assert _musters(game) == {"Gargoyle", "Cyclops"}


def test_1982_17_4_a_reinforced_defender_takes_no_angel() -> None:
    """1982 17.4 read literally: a defender that mustered its reinforcement is not offered the angel."""
    game = _fight(
        ANGEL_OR_MUSTER.name,
        attacker="Ogre Ogre Lion",
        defender="Angel Gargoyle Gargoyle",
        scores={"Bob": 90},
    )
    game.do(cmd.Propose(player="Bob", proposals=((game.legion(ANN).contents, ()),)))
    game.do(cmd.Accept(player="Ann", number=1))
    events = game.do(
        cmd.Reinforce(player="Bob", creature="Cyclops", showing=("Gargoyle", "Gargoyle"))
    )
    declined = game.one(events, ev.Declined)
    assert declined.what == "angel" and "17.4" in declined.reason
    assert game.legion(BOB).contents == ("Angel", "Cyclops", "Gargoyle", "Gargoyle")
    assert game.score("Bob") == 90 + 39


def test_003_17_4_a_reinforced_defender_takes_the_angel_too() -> None:
    """003 17.4: the same defender, in the standard game, takes its angel after its reinforcement."""
    game = _fight(
        STANDARD, attacker="Ogre Ogre Lion", defender="Angel Gargoyle Gargoyle", scores={"Bob": 90}
    )
    game.do(cmd.Propose(player="Bob", proposals=((game.legion(ANN).contents, ()),)))
    game.do(cmd.Accept(player="Ann", number=1))
    game.do(cmd.Reinforce(player="Bob", creature="Cyclops", showing=("Gargoyle", "Gargoyle")))
    assert _angels(game) == ["Angel"]


def test_003_17_3_archangel_while_one_is_left() -> None:
    """003/1982 17.3 as written (Wolff 17.0 off): at a multiple of 500 the Archangel, not an Angel, while one is left."""
    game = _fight(ARCHANGEL_FIRST.name, scores={"Ann": 480})
    game.do(cmd.Concede(player="Bob"))
    assert _angels(game) == ["Archangel"]
    game.refused(cmd.TakeAngel(player="Ann", lord="Angel"), "E-ANGEL")
    events = game.do(cmd.TakeAngel(player="Ann", lord="Archangel"))
    assert game.one(events, ev.AngelAcquired).lord == "Archangel"


def test_003_17_3_angel_when_no_archangel_is_left() -> None:
    """003/1982 17.3: with every Archangel taken, the Angel instead."""
    archangels = ("Bu03", 20, "Archangel Archangel Archangel Archangel Archangel Archangel")
    game = _fight(ARCHANGEL_FIRST.name, scores={"Ann": 480}, extra=[archangels])
    game.do(cmd.Concede(player="Bob"))
    assert _angels(game) == ["Angel"]


def test_wolff_17_0_angel_in_place_of_archangel_is_the_default() -> None:
    """Wolff 17.0 (the default): at a multiple of 500 the player chooses the Archangel or an Angel."""
    game = _fight(STANDARD, scores={"Ann": 480})
    game.do(cmd.Concede(player="Bob"))
    assert sorted(_angels(game)) == ["Angel", "Archangel"]


@pytest.mark.parametrize(
    ("table", "fault"),
    [
        ({"angels": True}, "there is no rule option 'angels'"),
        ({"angel_and_muster_below_six": "yes"}, "must be true or false"),
    ],
)
def test_rule_options_table_refuses_a_fault_naming_the_file(table, fault) -> None:
    """A variant's [options] table: an unknown name or a value not true/false is refused, naming the file."""
    with pytest.raises(ValueError, match=fault) as info:
        RuleOptions.from_table(table, "later-edition/variant.toml")
    assert str(info.value).startswith("later-edition/variant.toml: ")


def test_rule_options_table_changes_only_what_it_names() -> None:
    """A variant's [options] table sets the options it names; the others keep 1982 with Wolff's errata."""
    options = RuleOptions.from_table({"angel_in_place_of_archangel": False})
    assert options.changed() == {"angel_in_place_of_archangel": False}
    assert options.angel_and_muster_below_six is True
    assert RuleOptions().changed() == {}


def test_003_6_4_defending_legions_have_first_call_on_scarce_characters() -> None:
    """003/1982 6.4: a winning defender musters before the mover's enlistment, so he gets the last of a kind.

    Not an option: Wolff's Complete Sequence has every defender's muster (in the battle,
    or at 2.5.6.5 after it) before the mover's musters at 2.6, so first call always holds.
    """
    game = _fight(
        STANDARD,
        attacker="Ogre Ogre Lion",
        defender="Angel Gargoyle Gargoyle",
        extra=[("Rd03", 10, "Gargoyle Gargoyle Ogre", True)],
        dead={"Cyclops": 27},
    )
    assert game.state.caretaker["Cyclops"] == 1
    game.do(cmd.Propose(player="Bob", proposals=((game.legion(ANN).contents, ()),)))
    game.do(cmd.Accept(player="Ann", number=1))
    game.do(cmd.Reinforce(player="Bob", creature="Cyclops", showing=("Gargoyle", "Gargoyle")))
    assert game.state.step is Step.MUSTER and game.state.caretaker["Cyclops"] == 0
    assert _musters(game) == {"Gargoyle"}
    game.refused(
        cmd.Muster(player="Ann", marker="Rd03", creature="Cyclops", showing=("Gargoyle", "Gargoyle")),
        "E-MUSTER",
    )


def test_003_later_edition_variant_plays_the_later_editions_options() -> None:
    """The shipped later-edition variant: the standard game's data with 003's options (17.3, 17.4)."""
    later, standard = load_variant("later-edition"), load_variant(STANDARD)
    assert later.options.changed() == {"angel_in_place_of_archangel": False}
    assert later.options.angel_and_muster_below_six
    assert later.lands == standard.lands and later.creatures == standard.creatures
    assert later.muster_chains == standard.muster_chains


def test_003_17_3_in_the_later_edition_the_archangel_while_one_is_left() -> None:
    """003 17.3 in a game of the later-edition variant: at a multiple of 500, the Archangel only."""
    game = _fight("later-edition", scores={"Ann": 480})
    game.do(cmd.Concede(player="Bob"))
    assert _angels(game) == ["Archangel"]
