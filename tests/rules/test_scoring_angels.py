"""
After an engagement resolved without battle: summoning and reinforcement
(2.5.6.5), points (2.5.6.8, 16.x, 19.1), acquiring angels (17.x) and
regeneration (2.5.6.10).  Rules 14.x, 15.x, 16.x, 17.x, Wolff 8.0, 15.0,
17.0, 18.1.

Ann's Rd01 has moved onto Bob's Bu02 at Brush 3 (muster chain Gargoyle,
Cyclops by two Gargoyles, Gorgon by two Cyclopes).  Values are power x
skill: Angel 24, Archangel 36, Colossus 40, Cyclops 18, Gargoyle 12,
Giant 28, Guardian 24, Hydra 30, Lion 15, Ogre 12, Serpent 36, Troll 16,
Warlock 20.
"""

from __future__ import annotations

import pytest

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.state import Step

ANN = "Rd01"
BOB = "Bu02"


def _fight(
    game_at,
    attacker: str = "Troll Troll Ogre",
    defender: str = "Angel Lion Ogre",
    extra=(),
    **kw,
):
    game = game_at(
        [
            (ANN, 3, attacker, True),
            ("Rd02", 600, "Titan Ogre"),
            ("Bu01", 300, "Titan Ogre"),
            (BOB, 3, defender),
            *extra,
        ],
        phase="engage",
        roll=1,
        **kw,
    )
    game.do(cmd.Engage(player="Ann", land=3))
    return game


def _bob_gives_up(game):
    """Bob concedes his Bu02."""
    return game.do(cmd.Concede(player="Bob"))


def _ann_gives_up(game):
    """Bob offers that Ann loses everything; Ann concedes instead (no agreement)."""
    game.do(cmd.Propose(player="Bob", proposals=((game.legion(ANN).contents, ()),)))
    return game.do(cmd.Concede(player="Ann"))


def _bob_wins_by_agreement(game):
    game.do(cmd.Propose(player="Bob", proposals=((game.legion(ANN).contents, ()),)))
    return game.do(cmd.Accept(player="Ann", number=1))


# -- points (16.0-16.2, 19.1) -------------------------------------------------------------------


def test_16_0_engagement_scores_power_times_skill(game_at) -> None:
    """16.0: a battle scores the value of the losing legion's characters, each power times skill."""
    game = _fight(game_at, defender="Angel Colossus Hydra Cyclops")
    events = _bob_gives_up(game)
    assert game.one(events, ev.PointsScored).points == 24 + 40 + 30 + 18
    assert game.score("Ann") == 112


@pytest.mark.parametrize(("score", "power"), [(0, 6), (99, 6), (100, 7), (327, 9), (1163, 17)])
def test_19_1_titan_power_is_six_plus_one_per_hundred_points(
    game_at, score: int, power: int
) -> None:
    """19.1: a Titan's power is 6 plus the number of whole hundreds in its player's score; its value is power x 4."""
    game = game_at(
        [("Rd01", 600, "Titan"), ("Bu01", 300, "Titan")], scores={"Bob": score}, phase="split"
    )
    assert game.player("Bob").titan_power == power
    assert game.state.value_of("Titan", "Bob") == power * 4
    assert game.state.value_of("Titan", "Ann") == 24


def test_19_1_titan_grows_as_points_are_scored(game_at) -> None:
    """19.1/16.2: points scored raise the Titan's power at once."""
    game = _fight(game_at, scores={"Ann": 90})
    _bob_gives_up(game)
    game.do(cmd.Decline(player="Ann"))  # the angel earned at 100
    assert game.score("Ann") == 141
    assert game.player("Ann").titan_power == 7


# -- acquiring angels (17.x, Wolff 17.0) -------------------------------------------------------------


def test_17_0_angel_when_the_score_reaches_a_multiple_of_100(game_at) -> None:
    """17.0: reaching a multiple of 100 with an engagement's points earns an angel for the winning legion."""
    game = _fight(game_at, scores={"Ann": 90})
    events = _bob_gives_up(game)
    assert game.one(events, ev.PointsScored) == ev.PointsScored(
        player="Ann", points=51, multiples=(1,)
    )
    assert game.one(events, ev.DecisionAwaited) == ev.DecisionAwaited(player="Ann", what="angel")
    assert game.state.step is Step.ACQUIRE and to_act(game.state) == "Ann"
    assert {c.lord for c in legal_commands(game.state) if isinstance(c, cmd.TakeAngel)} == {"Angel"}
    game.refused(cmd.TakeAngel(player="Ann", lord="Archangel"), "E-ANGEL")
    game.refused(cmd.TakeAngel(player="Bob", lord="Angel"), "E-NOT-YOUR-TURN")
    angels = game.state.caretaker["Angel"]
    events = game.do(cmd.TakeAngel(player="Ann", lord="Angel"))
    assert game.one(events, ev.AngelAcquired) == ev.AngelAcquired(marker=ANN, lord="Angel")
    assert "Angel" in game.legion(ANN).contents
    # one Angel left the stacks; Bob's slain Angel regenerated at 2.5.6.10
    assert game.state.caretaker["Angel"] == angels - 1 + 1
    assert game.state.caretaker["Angel"] == 18 - 1
    assert game.state.step is Step.MUSTER


def test_17_4_taking_the_angel_is_optional(game_at) -> None:
    """17.4: adding an earned angel is optional."""
    game = _fight(game_at, scores={"Ann": 90})
    _bob_gives_up(game)
    events = game.do(cmd.Decline(player="Ann"))
    assert game.one(events, ev.Declined) == ev.Declined(player="Ann", what="angel")
    assert game.legion(ANN).contents == ("Ogre", "Troll", "Troll")


def test_17_2_one_angel_for_each_multiple_of_100(game_at) -> None:
    """17.2: passing more than one multiple of 100 earns one angel for each."""
    game = _fight(game_at, defender="Colossus Hydra Serpent Giant", scores={"Ann": 90})
    events = _bob_gives_up(game)
    assert game.one(events, ev.PointsScored).multiples == (1, 2)
    game.do(cmd.TakeAngel(player="Ann", lord="Angel"))
    assert game.state.step is Step.ACQUIRE  # the second one
    game.do(cmd.TakeAngel(player="Ann", lord="Angel"))
    assert game.legion(ANN).contents.count("Angel") == 2
    assert game.score("Ann") == 90 + 134


def test_17_3_archangel_at_a_multiple_of_500(game_at, variant) -> None:
    """17.3: reaching a multiple of 500 earns an archangel instead of an angel (and, by
    Wolff 17.0, an angel in its place unless the variant follows 003 17.3 as written)."""
    game = _fight(game_at, scores={"Ann": 480})
    _bob_gives_up(game)
    takes = {c.lord for c in legal_commands(game.state) if isinstance(c, cmd.TakeAngel)}
    in_place = {"Angel"} if variant.options.angel_in_place_of_archangel else set()
    assert takes == {"Archangel", *in_place}
    events = game.do(cmd.TakeAngel(player="Ann", lord="Archangel"))
    assert game.one(events, ev.AngelAcquired).lord == "Archangel"
    assert game.state.caretaker["Archangel"] == 5


@pytest.mark.needs(options={"angel_in_place_of_archangel": True})  # 003 17.3 forbids it
def test_wolff_17_0_angel_may_be_taken_instead_of_the_archangel(game_at) -> None:
    """Wolff 17.0: at a multiple of 500 a player may take an angel instead; the archangel is then gone for good."""
    game = _fight(game_at, scores={"Ann": 480})
    _bob_gives_up(game)
    game.do(cmd.TakeAngel(player="Ann", lord="Angel"))
    assert game.state.step is Step.MUSTER
    assert "Archangel" not in game.legion(ANN).contents
    assert game.state.acquisitions == ()


def test_17_3_angel_when_no_archangel_is_left(game_at) -> None:
    """17.3: if no archangel is left in the caretaker's stacks the player may take an angel."""
    archangels = ("Bu03", 20, "Archangel Archangel Archangel Archangel Archangel Archangel")
    game = _fight(game_at, scores={"Ann": 480}, extra=[archangels])
    _bob_gives_up(game)
    takes = [c.lord for c in legal_commands(game.state) if isinstance(c, cmd.TakeAngel)]
    assert takes == ["Angel"]


def test_17_1_seven_high_legion_cannot_take_an_angel(game_at) -> None:
    """17.1/4.1: a seven-high legion may not add an angel."""
    game = _fight(game_at, attacker="Troll Troll Ogre Ogre Lion Lion Centaur", scores={"Ann": 90})
    events = _bob_gives_up(game)
    declined = game.one(events, ev.Declined)
    assert declined.what == "angel" and "seven high" in declined.reason
    assert not game.of(events, ev.DecisionAwaited)
    assert game.legion(ANN).height == 7
    assert game.state.step is Step.MUSTER


def test_17_1_no_angel_when_none_are_left(game_at) -> None:
    """17.1: no angel can be added when none is left in the caretaker's stacks (18 in all, Wolff 3.5)."""
    six = " ".join(["Angel"] * 6)
    extra = [("Bu03", 20, six), ("Bu04", 21, six), ("Bu05", 22, six)]
    game = _fight(game_at, defender="Lion Ogre Troll", scores={"Ann": 90}, extra=extra)
    assert game.state.caretaker["Angel"] == 0
    events = game.do(cmd.Flee(player="Bob"))  # 43 // 2 = 21 points: 111
    declined = game.one(events, ev.Declined)
    assert "none left" in declined.reason


def test_17_0_angels_also_for_half_points_after_flight(game_at) -> None:
    """17.0/16.1: the half points for a fleeing defender count towards angels like any others."""
    game = _fight(game_at, defender="Lion Ogre Troll", scores={"Ann": 90})
    events = game.do(cmd.Flee(player="Bob"))
    assert game.one(events, ev.PointsScored) == ev.PointsScored(
        player="Ann", points=21, multiples=(1,)
    )
    assert game.state.step is Step.ACQUIRE


def test_17_0_a_winning_defender_acquires_angels_too(game_at) -> None:
    """17.0: the angel goes to whichever legion won the engagement, the defender's included."""
    game = _fight(game_at, scores={"Bob": 90})
    events = _ann_gives_up(game)
    assert game.one(events, ev.PointsScored) == ev.PointsScored(
        player="Bob", points=44, multiples=(1,)
    )
    assert to_act(game.state) == "Bob"
    game.refused(cmd.TakeAngel(player="Ann", lord="Angel"), "E-NOT-YOUR-TURN")
    events = game.do(cmd.TakeAngel(player="Bob", lord="Angel"))
    assert game.one(events, ev.AngelAcquired).marker == BOB


# -- summoning (15.x, Wolff 8.0, 15.0, 18.1) ---------------------------------------------------------


def test_15_2_attacker_summons_after_the_defender_concedes(game_at) -> None:
    """15.2/2.5.6.5: after the defender concedes the attacker may summon an angel, before scoring."""
    game = _fight(game_at, extra=[("Rd03", 20, "Angel Ogre Ogre")])
    events = _bob_gives_up(game)
    assert game.one(events, ev.DecisionAwaited) == ev.DecisionAwaited(player="Ann", what="summon")
    assert not game.of(events, ev.PointsScored)  # 2.5.6.5 comes before 2.5.6.8
    assert cmd.Summon(player="Ann", lord="Angel", source="Rd03") in legal_commands(game.state)
    events = game.do(cmd.Summon(player="Ann", lord="Angel", source="Rd03"))
    assert events[0] == ev.AngelSummoned(lord="Angel", source="Rd03", target=ANN)
    assert events[0].visible_to is None  # 15.1: shown to the other players
    assert game.legion(ANN).contents == ("Angel", "Ogre", "Troll", "Troll")
    assert game.legion("Rd03").contents == ("Ogre", "Ogre")
    assert game.one(events, ev.PointsScored).points == 51


def test_15_2_attacker_summons_after_winning_by_agreement(game_at) -> None:
    """15.2: winning by agreement (even with losses) also allows the summons."""
    game = _fight(game_at, extra=[("Rd03", 20, "Archangel Ogre")])
    game.do(cmd.Propose(player="Bob", proposals=((("Troll",), ("Angel", "Lion", "Ogre")),)))
    events = game.do(cmd.Accept(player="Ann", number=1))
    assert game.one(events, ev.DecisionAwaited).what == "summon"
    game.do(cmd.Summon(player="Ann", lord="Archangel", source="Rd03"))
    assert game.legion(ANN).contents == ("Archangel", "Ogre", "Troll")


def test_15_0_summoning_is_optional(game_at) -> None:
    """15.0: the attacker is not required to summon."""
    game = _fight(game_at, extra=[("Rd03", 20, "Angel Ogre Ogre")])
    _bob_gives_up(game)
    events = game.do(cmd.Decline(player="Ann"))
    assert events[0] == ev.Declined(player="Ann", what="summon")
    assert game.legion("Rd03").contents == ("Angel", "Ogre", "Ogre")
    assert game.score("Ann") == 51


def test_15_0_summon_only_what_is_available(game_at) -> None:
    """15.0: the angel must come from another of the attacker's legions that holds it; only the attacker summons."""
    game = _fight(game_at, extra=[("Rd03", 20, "Angel Ogre Ogre")])
    _bob_gives_up(game)
    game.refused(cmd.Summon(player="Ann", lord="Archangel", source="Rd03"), "E-SUMMON")
    game.refused(cmd.Summon(player="Ann", lord="Angel", source="Rd02"), "E-SUMMON")
    game.refused(cmd.Summon(player="Bob", lord="Angel", source="Rd03"), "E-NOT-YOUR-TURN")


def test_15_0_no_summons_into_a_seven_high_legion(game_at) -> None:
    """15.0/4.1: a legion that presently contains seven characters cannot summon."""
    game = _fight(
        game_at,
        attacker="Troll Troll Ogre Ogre Lion Lion Centaur",
        extra=[("Rd03", 20, "Angel Ogre Ogre")],
    )
    events = _bob_gives_up(game)
    assert not any(e.what == "summon" for e in game.of(events, ev.DecisionAwaited))


def test_15_0_no_summons_from_a_legion_in_an_unresolved_engagement(game_at) -> None:
    """15.0: the angel must be in a legion not involved in an unresolved engagement."""
    game = game_at(
        [
            (ANN, 3, "Troll Troll Ogre", True),
            ("Rd02", 600, "Titan Ogre"),
            ("Rd03", 35, "Angel Ogre Ogre", True),
            ("Bu01", 300, "Titan Ogre"),
            (BOB, 3, "Angel Lion Ogre"),
            ("Bu03", 35, "Lion Lion"),
        ],
        phase="engage",
        roll=1,
    )
    game.do(cmd.Engage(player="Ann", land=3))
    events = _bob_gives_up(game)
    assert not game.of(events, ev.DecisionAwaited)  # Rd03 is still engaged at 35
    game.do(cmd.Engage(player="Ann", land=35))
    events = game.do(cmd.Flee(player="Bob"))
    assert not game.of(events, ev.DecisionAwaited)  # 15.2: no summons after flight


def test_15_0_only_one_summons_per_engagement_phase(game_at) -> None:
    """15.0/8.0: only one angel may be summoned during a player's whole engagement phase."""
    game = game_at(
        [
            (ANN, 3, "Troll Troll Ogre", True),
            ("Rd02", 600, "Titan Ogre"),
            ("Rd03", 20, "Angel Archangel Ogre"),
            ("Rd04", 35, "Ogre Ogre", True),
            ("Bu01", 300, "Titan Ogre"),
            (BOB, 3, "Angel Lion Ogre"),
            ("Bu03", 35, "Angel Lion"),
        ],
        phase="engage",
        roll=1,
    )
    game.do(cmd.Engage(player="Ann", land=3))
    _bob_gives_up(game)
    game.do(cmd.Summon(player="Ann", lord="Angel", source="Rd03"))
    game.do(cmd.Engage(player="Ann", land=35))
    events = _bob_gives_up(game)
    assert not game.of(events, ev.DecisionAwaited)
    assert game.legion("Rd03").contents == ("Archangel", "Ogre")


def test_wolff_18_1_emptied_source_legion_is_disbanded(game_at) -> None:
    """Wolff 18.1/4.4: summoning a legion's last character disbands it; its marker is free again."""
    game = _fight(game_at, extra=[("Rd03", 20, "Angel", True)])
    _bob_gives_up(game)
    game.do(cmd.Summon(player="Ann", lord="Angel", source="Rd03"))
    assert "Rd03" not in game.state.legions
    assert "Rd03" in game.state.free_markers("Ann")
    game.do(cmd.Done(player="Ann"))  # the disbanded legion musters nothing; the turn ends
    assert game.state.active == "Bob"


def test_wolff_8_0_teleported_lord_may_be_summoned(game_at) -> None:
    """Wolff 8.0/15.0: the same lord may teleport in the movement phase and be summoned later."""
    game = game_at(
        [
            (ANN, 1, "Troll Troll Ogre"),
            ("Rd02", 30, "Titan Ogre"),
            ("Rd03", 600, "Angel Ogre"),
            ("Bu01", 300, "Titan Ogre"),
            (BOB, 2, "Angel Lion Ogre"),
        ],
        roll=6,
    )
    game.do(cmd.MoveLegion(player="Ann", marker="Rd03", land=400, teleport=True))
    game.do(cmd.MoveLegion(player="Ann", marker=ANN, land=2))
    game.do(cmd.Done(player="Ann"))
    game.do(cmd.Engage(player="Ann", land=2))
    game.do(cmd.Concede(player="Bob"))
    game.do(cmd.Summon(player="Ann", lord="Angel", source="Rd03"))
    assert "Angel" in game.legion(ANN).contents


def test_15_2_winning_defender_does_not_summon(game_at) -> None:
    """15.0: only the attacker may summon angels; a winning defender gets no summons."""
    game = _fight(game_at, extra=[("Bu03", 20, "Angel Ogre Ogre")])
    events = _ann_gives_up(game)
    assert not game.of(events, ev.DecisionAwaited)
    assert game.legion("Bu03").contents == ("Angel", "Ogre", "Ogre")


# -- reinforcement (14.x, 2.5.5.1) -----------------------------------------------------------------


def test_14_2_defender_reinforces_after_winning_by_agreement(game_at) -> None:
    """14.2/2.5.5.1: a defender who wins by agreement may muster a reinforcement, qualified as in 18.x."""
    game = _fight(game_at, defender="Angel Gargoyle Gargoyle")
    events = _bob_wins_by_agreement(game)
    assert game.one(events, ev.DecisionAwaited) == ev.DecisionAwaited(
        player="Bob", what="reinforce"
    )
    assert to_act(game.state) == "Bob"
    offered = {c.creature for c in legal_commands(game.state) if isinstance(c, cmd.Reinforce)}
    assert offered == {"Gargoyle", "Cyclops"}
    game.refused(cmd.Reinforce(player="Bob", creature="Gorgon"), "E-REINFORCE")
    game.refused(cmd.Reinforce(player="Ann", creature="Cyclops"), "E-NOT-YOUR-TURN")
    events = game.do(
        cmd.Reinforce(player="Bob", creature="Cyclops", showing=("Gargoyle", "Gargoyle"))
    )
    mustered = game.one(events, ev.CreatureMustered)
    assert mustered == ev.CreatureMustered(
        marker=BOB, creature="Cyclops", shown=("Gargoyle", "Gargoyle"), reinforcement=True
    )
    assert mustered.visible_to is None
    assert game.legion(BOB).contents == ("Angel", "Cyclops", "Gargoyle", "Gargoyle")
    assert game.score("Bob") == 44


def test_14_2_no_reinforcement_when_the_attacker_concedes_before_battle(game_at) -> None:
    """14.2/Wolff 14.2: if the attacker concedes before entering the battleland the defender may not reinforce."""
    game = _fight(game_at, defender="Angel Gargoyle Gargoyle")
    events = _ann_gives_up(game)
    assert not game.of(events, ev.DecisionAwaited)
    assert game.legion(BOB).contents == ("Angel", "Gargoyle", "Gargoyle")
    assert game.score("Bob") == 44


def test_14_1_reinforcement_is_optional_and_must_qualify(game_at) -> None:
    """14.1: the defender need not take a reinforcement; he must show what qualifies it."""
    game = _fight(game_at, defender="Angel Gargoyle Ogre")
    _bob_wins_by_agreement(game)
    game.refused(
        cmd.Reinforce(player="Bob", creature="Cyclops", showing=("Gargoyle", "Gargoyle")),
        "E-REINFORCE",
    )
    events = game.do(cmd.Decline(player="Bob"))
    assert events[0] == ev.Declined(player="Bob", what="reinforce")
    assert game.legion(BOB).height == 3


def test_14_1_no_reinforcement_for_a_seven_high_defender(game_at) -> None:
    """14.1: a legion presently containing seven characters may not muster a reinforcement."""
    game = _fight(game_at, defender="Angel Gargoyle Gargoyle Gargoyle Ogre Ogre Lion")
    events = _bob_wins_by_agreement(game)
    assert not game.of(events, ev.DecisionAwaited)


# -- regeneration (2.5.6.10, 9.5) ------------------------------------------------------------------


def test_complete_sequence_2_5_6_10_lords_and_demi_lords_regenerate(game_at) -> None:
    """2.5.6.10/9.5: slain angels, archangels, warlocks and guardians return to the caretaker; creatures are dead."""
    game = _fight(game_at, attacker="Angel Troll Guardian", defender="Archangel Warlock Lion")
    before = dict(game.state.caretaker)
    game.do(
        cmd.Propose(
            player="Bob",
            proposals=((("Angel", "Guardian", "Troll"), ("Archangel", "Warlock", "Lion")),),
        )
    )
    game.do(cmd.Accept(player="Ann", number=1))
    for lord in ("Angel", "Archangel", "Warlock", "Guardian"):
        assert game.state.caretaker[lord] == before[lord] + 1, lord
    assert game.state.dead == {"Lion": 1, "Troll": 1}
    assert game.state.caretaker["Lion"] == before["Lion"]


def test_complete_sequence_2_5_6_10_slain_angel_not_back_before_angels_are_taken(game_at) -> None:
    """2.5.6.8 before 2.5.6.10: an angel slain in this engagement is not yet back when angels are earned."""
    six = " ".join(["Angel"] * 6)
    extra = [("Bu03", 20, six), ("Bu04", 21, six), ("Bu05", 22, "Angel Angel Angel Angel Angel")]
    game = _fight(game_at, scores={"Ann": 90}, extra=extra)  # Bob's Bu02 holds the 18th Angel
    events = _bob_gives_up(game)
    assert "none left" in game.one(events, ev.Declined).reason
    assert game.state.caretaker["Angel"] == 1  # regenerated afterwards


def test_wolff_14_0_reinforcement_needs_the_qualifying_characters_to_survive(game_at) -> None:
    """Wolff 14.0/14.1: the reinforcement after winning needs qualifying characters that survived the engagement."""
    game = _fight(game_at, defender="Angel Gargoyle Gargoyle")
    game.do(cmd.Propose(player="Bob", proposals=((("Ogre", "Troll", "Troll"), ("Gargoyle",)),)))
    game.do(cmd.Accept(player="Ann", number=1))
    assert game.state.step is Step.REINFORCE
    offered = {c.creature for c in legal_commands(game.state) if isinstance(c, cmd.Reinforce)}
    assert offered == {"Gargoyle"}  # one Gargoyle left: no Cyclops
    game.refused(cmd.Reinforce(player="Bob", creature="Cyclops"), "E-REINFORCE")
    assert game.legion(BOB).contents == ("Angel", "Gargoyle")


def test_15_0_an_angel_acquired_this_phase_may_be_summoned(game_at) -> None:
    """15.0: an angel just acquired in a previous engagement of this engagement phase may be summoned."""
    game = game_at(
        [
            (ANN, 3, "Troll Troll Ogre", True),
            ("Rd02", 600, "Titan Ogre"),
            ("Rd04", 35, "Ogre Ogre", True),
            ("Bu01", 300, "Titan Ogre"),
            (BOB, 3, "Lion Lion Lion Lion"),
            ("Bu03", 35, "Lion Lion"),
        ],
        phase="engage",
        roll=1,
        scores={"Ann": 90},
    )
    game.do(cmd.Engage(player="Ann", land=3))
    game.do(cmd.Concede(player="Bob"))  # 60 points: 150, an angel for Rd01
    game.do(cmd.TakeAngel(player="Ann", lord="Angel"))
    game.do(cmd.Engage(player="Ann", land=35))
    game.do(cmd.Concede(player="Bob"))
    assert game.state.step is Step.SUMMON
    game.do(cmd.Summon(player="Ann", lord="Angel", source=ANN))
    assert game.legion("Rd04").contents == ("Angel", "Ogre", "Ogre")
    assert "Angel" not in game.legion(ANN).contents


def test_6_4_summoning_out_of_a_seven_high_legion_lets_it_muster(game_at) -> None:
    """6.4/15.0: a moved seven-high legion that gives up its angel to a summons may muster again."""
    game = game_at(
        [
            (ANN, 3, "Troll Troll Ogre", True),
            ("Rd02", 600, "Titan Ogre"),
            ("Rd05", 35, "Angel Lion Lion Ogre Ogre Troll Troll", True),
            ("Bu01", 300, "Titan Ogre"),
            (BOB, 3, "Angel Lion Ogre"),
        ],
        phase="engage",
        roll=1,
    )
    game.do(cmd.Engage(player="Ann", land=3))
    game.do(cmd.Concede(player="Bob"))
    game.do(cmd.Summon(player="Ann", lord="Angel", source="Rd05"))
    assert game.state.step is Step.MUSTER
    events = game.do(cmd.Muster(player="Ann", marker="Rd05", creature="Lion"))
    assert game.one(events, ev.CreatureMustered).marker == "Rd05"
    assert game.legion("Rd05").height == 7
