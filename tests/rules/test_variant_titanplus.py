"""
TITANplus (rulebook 21.3), played from the shipped ``titanplus`` variant: no Centaurs,
Gargoyles or Ogres; two Lions, two Trolls and two Cyclopes to start, and these are the
tower creatures; eight legion markers a player, eight more for each Titan he eliminates
(options ``markers_per_player`` and ``markers_per_titan_eliminated``).
"""

from __future__ import annotations

import dataclasses

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules import setup
from moderator.rules.dice import ScriptedDice
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.options import RuleOptions
from moderator.rules.positions import position_event
from moderator.rules.variant import STANDARD, load_variant, register_variant
from tests.rules.conftest import Game, build_position

PLUS = "titanplus"
#: The standard game with only TITANplus's markers: the options tested on their own.
EIGHT_MARKERS = register_variant(
    dataclasses.replace(
        load_variant(STANDARD),
        name="test-eight-markers",
        options=RuleOptions(markers_per_player=8, markers_per_titan_eliminated=8),
    )
)


def _at(legions, variant: str = PLUS, **kw) -> Game:
    return Game([position_event(build_position(legions, variant=variant, **kw))])


def _offered(game: Game, marker: str) -> set[str]:
    return {
        c.creature
        for c in legal_commands(game.state)
        if isinstance(c, cmd.Muster) and c.marker == marker
    }


def test_21_3_titanplus_has_no_centaurs_gargoyles_or_ogres() -> None:
    variant = load_variant(PLUS)
    assert not {"Centaur", "Gargoyle", "Ogre"} & set(variant.creatures)
    named = {name for chain in variant.muster_chains.values() for name, _ in chain}
    assert not {"Centaur", "Gargoyle", "Ogre"} & named


def _set_up(variant: str) -> Game:
    """Two players roll for towers (6 and 3), then choose the first free colour in turn."""
    game = Game(setup.start_game(["Ann", "Bob"], ScriptedDice([6, 3]), variant=variant))
    while (chooser := to_act(game.state)) is not None and setup.is_colour_step(game.state):
        game.do(cmd.ChooseColour(player=chooser, colour=setup.free_colours(game.state)[0]))
    return game


def test_21_3_titanplus_starts_with_two_lions_two_trolls_and_two_cyclopes() -> None:
    game = _set_up(PLUS)
    legions = list(game.state.legions.values())
    assert len(legions) == 2
    for legion in legions:
        assert sorted(legion.contents) == sorted(
            ("Titan", "Angel", "Cyclops", "Cyclops", "Lion", "Lion", "Troll", "Troll")
        )


def test_21_3_titanplus_towers_muster_lions_trolls_and_cyclopes() -> None:
    game = _at(
        [("Rd01", 100, "Titan"), ("Rd02", 600, "Griffon", True), ("Bu01", 300, "Titan")],
        phase="muster",
        roll=1,
    )
    assert _offered(game, "Rd02") == {"Lion", "Troll", "Cyclops"}
    events = game.do(cmd.Muster(player="Ann", marker="Rd02", creature="Cyclops", showing=()))
    assert game.one(events, ev.CreatureMustered).creature == "Cyclops"


def test_21_3_titanplus_a_chain_begins_with_the_creature_after_the_one_removed() -> None:
    """Woods once began with the Centaur: now one Warbear (or a Unicorn) musters a Warbear."""
    game = _at(
        [("Rd01", 600, "Titan"), ("Rd02", 2, "Warbear", True), ("Bu01", 300, "Titan")],
        phase="muster",
        roll=1,
    )
    assert _offered(game, "Rd02") == {"Warbear"}


def test_21_3_titanplus_eight_markers_a_player() -> None:
    """21.3: eight markers (the first eight of his colour) instead of 4.2's twelve."""
    for variant in (PLUS, EIGHT_MARKERS.name):
        for player in _set_up(variant).state.players:
            code = player.markers[0][:2]
            assert player.markers == tuple(f"{code}{i:02d}" for i in range(1, 9))
    for player in _set_up(STANDARD).state.players:
        assert len(player.markers) == 12
    assert len(_at([("Rd01", 600, "Titan"), ("Bu01", 300, "Titan")]).player("Ann").markers) == 8


def test_21_3_titanplus_eight_more_markers_for_each_titan_eliminated() -> None:
    """21.3: eliminating another Titan gains the use of his eight markers (4.6)."""
    for variant in (PLUS, EIGHT_MARKERS.name):
        game = _at(
            [("Rd01", 3, "Troll Troll Lion", True), ("Rd03", 600, "Titan Lion"), ("Bu01", 3, "Titan Lion")],
            variant=variant,
            phase="engage",
            roll=1,
        )
        assert len(game.player("Ann").markers) == 8
        game.do(cmd.Engage(player="Ann", land=3))
        events = game.do(cmd.Concede(player="Bob"))
        assert game.one(events, ev.PlayerEliminated).markers_to == "Ann"
        red = tuple(f"Rd{i:02d}" for i in range(1, 9))
        blue = tuple(f"Bu{i:02d}" for i in range(1, 9))
        assert game.player("Ann").markers == red + blue
        assert game.replayed() == game.state


def test_21_3_titanplus_the_slayer_gains_his_eight_not_those_he_had_taken() -> None:
    """21.3 "his eight markers": Bob's own eight pass to Ann; Cy's, which Bob took, do not.

    In the standard game (4.6, Wolff 4.6) every marker Bob held passes, Cy's too.
    """
    blue = [f"Bu{i:02d}" for i in range(1, 9)]
    green = [f"Gr{i:02d}" for i in range(1, 9)]
    for variant, gained in ((PLUS, blue), (STANDARD, [*blue, *green])):
        game = _at(
            [("Rd01", 3, "Troll Troll Lion", True), ("Rd03", 600, "Titan Lion"), ("Bu01", 3, "Titan Lion")],
            variant=variant,
            players=("Ann", "Bob", "Cy"),
            eliminated=("Cy",),
            markers={"Ann": [f"Rd{i:02d}" for i in range(1, 9)], "Bob": [*blue, *green]},
            phase="engage",
            roll=1,
        )
        game.do(cmd.Engage(player="Ann", land=3))
        game.do(cmd.Concede(player="Bob"))
        assert list(game.player("Ann").markers[8:]) == gained, variant
