"""
Position files (rulebook 20.5, docs/positions.md): what a restored game
looks like and what a position may not say (Wolff 3.5, 4.1, 4.2, 5.1, 19.0),
and the entry sides of pending engagements (Wolff 2.2/10.1).
"""

from __future__ import annotations

import copy

import pytest

from moderator.rules import commands as cmd
from moderator.rules.decide import apply
from moderator.rules.dice import NoDice
from moderator.rules.errors import RuleError
from moderator.rules.evolve import replay
from moderator.rules.positions import export_position, position_event
from moderator.rules.state import Step


def _base(make_position, **kw):
    return make_position(
        [("Rd01", 600, "Titan Minotaur Minotaur"), ("Bu01", 300, "Titan Lion")], **kw
    )


def _rejected(data, fragment: str = "") -> RuleError:
    with pytest.raises(RuleError) as info:
        position_event(data)
    assert info.value.code == "E-POSITION"
    assert fragment in str(info.value)
    return info.value


# -- what a position restores ------------------------------------------------------------------


def test_20_5_position_restores_players_legions_and_phase(make_position) -> None:
    """20.5: a position records every player's score and every legion's land and contents; the game resumes there."""
    data = make_position(
        [
            ("Rd01", 42, "Titan minotaurs Troll"),
            ("Rd04", 6, "Angel Lion Lion", True),
            ("Bu02", 300, "Titan Gargoyle Cyclopes"),
        ],
        scores={"Ann": 120, "Bob": 44},
        turn=5,
        roll=3,
        dead={"Centaur": 2},
    )
    state = replay([position_event(data)])
    assert [p.name for p in state.players] == ["Ann", "Bob"]  # Wolff 5.1: descending towers
    assert (state.player("Ann").score, state.player("Bob").score) == (120, 44)
    assert state.step is Step.MOVE and state.active == "Ann" and state.roll == 3
    assert state.turn == 5
    assert state.legions["Rd01"].contents == ("Minotaur", "Titan", "Troll")  # any case, plurals
    assert state.legions["Bu02"].contents == ("Cyclops", "Gargoyle", "Titan")
    assert state.legions["Rd04"].moved and not state.legions["Rd01"].moved
    assert state.legions["Bu02"].owner == "Bob"
    assert state.dead == {"Centaur": 2}
    # Wolff 3.5: the caretaker holds what the legions and the dead piles leave
    assert state.caretaker["Centaur"] == 25 - 2
    assert state.caretaker["Lion"] == 28 - 2
    assert state.caretaker["Angel"] == 18 - 1
    assert state.player("Ann").markers == tuple(f"Rd{i:02d}" for i in range(1, 13))


def test_20_5_export_gives_back_the_position(make_position) -> None:
    """20.5: writing the restored game down again gives the same position."""
    data = _base(make_position, scores={"Ann": 7}, roll=2)
    exported = export_position(replay([position_event(data)]))
    assert exported["turn"] == 2 and exported["active"] == "Ann" and exported["roll"] == 2
    assert exported["phase"] == "move"
    assert [(p["name"], p["color"], p["tower"], p["score"]) for p in exported["players"]] == [
        ("Ann", "Red", 600, 7),
        ("Bob", "Blue", 300, 0),
    ]
    assert exported["legions"] == [
        {"marker": "Bu01", "land": 300, "contents": ["Lion", "Titan"], "moved": False},
        {
            "marker": "Rd01",
            "land": 600,
            "contents": ["Minotaur", "Minotaur", "Titan"],
            "moved": False,
        },
    ]
    again = replay([position_event(exported)])
    assert export_position(again) == exported


def test_wolff_5_1_first_turns_follow_from_turn_and_tower(make_position) -> None:
    """Wolff 5.1/4.1: on turn 1, players with a higher tower than the active one have had their first turn."""
    data = make_position(
        [
            ("Rd01", 34, "Titan Minotaur"),
            ("Bu01", 300, "Titan Minotaur"),
            ("Gr01", 100, "Titan Minotaur"),
        ],
        players=("Ann", "Bob", "Cy"),
        turn=1,
        active="Bob",
        phase="split",
    )
    state = replay([position_event(data)])
    assert {p.name: p.turns_played for p in state.players} == {"Ann": 1, "Bob": 0, "Cy": 0}


# -- what a position may not say -------------------------------------------------------------------


def test_wolff_3_5_no_more_characters_than_the_game_has(make_position) -> None:
    """Wolff 3.5: no more of a character type in play and dead than the counter mix (28 Lions, 6 Guardians)."""
    data = _base(make_position, dead={"Lion": 27})  # with Bob's Lion: all 28
    data["legions"][0]["contents"].append("Lion")
    _rejected(data, "Lions")
    guardians = make_position(
        [
            ("Rd01", 600, "Titan Guardian Guardian Guardian"),
            ("Rd02", 1, "Guardian Guardian Guardian Guardian"),
            ("Bu01", 300, "Titan"),
        ]
    )
    _rejected(guardians, "Guardians")


def test_wolff_3_5_dead_pile_counts_within_the_mix(make_position) -> None:
    """Wolff 3.5: a dead pile at the limit is fine; one more is not."""
    state = replay([position_event(_base(make_position, dead={"Lion": 27}))])
    assert state.caretaker["Lion"] == 0


def test_19_0_exactly_one_titan_per_player_in_the_game(make_position) -> None:
    """19.0/3.5: each player still in the game has exactly one Titan (none twice, none missing)."""
    two = make_position(
        [("Rd01", 600, "Titan Minotaur"), ("Rd02", 1, "Titan Minotaur"), ("Bu01", 300, "Titan")]
    )
    _rejected(two, "Titan")
    none = make_position([("Rd01", 600, "Minotaur Minotaur"), ("Bu01", 300, "Titan")])
    _rejected(none, "Ann must have exactly one Titan")
    doubled = make_position([("Rd01", 600, "Titan Titan"), ("Bu01", 300, "Titan")])
    _rejected(doubled, "Titan")


@pytest.mark.parametrize("colour", ["Purple", "", "Rd"])
def test_1_4_colour_must_be_one_of_the_six(make_position, colour: str) -> None:
    """1.4/4.2: a player's colour is one of Black, Blue, Brown, Gold, Green, Red."""
    data = _base(make_position)
    data["players"][0]["color"] = colour
    _rejected(data, "color")


@pytest.mark.parametrize("tower", [0, 150, 700, 1000])
def test_5_1_tower_must_be_a_tower(make_position, tower: int) -> None:
    """5.1: a starting tower is one of 100, 200, ..., 600."""
    data = _base(make_position)
    data["players"][1]["tower"] = tower
    _rejected(data, "tower")


@pytest.mark.parametrize("field", ["name", "color", "tower"])
def test_5_1_players_have_distinct_names_colours_and_towers(make_position, field: str) -> None:
    """5.1/1.4: no two players share a name, a colour or a starting tower."""
    data = _base(make_position)
    data["players"][1][field] = data["players"][0][field]
    _rejected(data, "share")


def test_1_1_two_to_six_players(make_position) -> None:
    """1.1: a game has two to six players."""
    data = _base(make_position)
    data["players"] = data["players"][:1]
    _rejected(data, "2 to 6")


def test_4_1_legion_holds_one_to_seven_characters(make_position) -> None:
    """4.1/4.4: a legion holds at most seven characters, and an empty one does not exist."""
    data = _base(make_position)
    data["legions"][0]["contents"] = ["Titan", *["Minotaur"] * 7]
    _rejected(data, "1 to 7")
    data["legions"][0]["contents"] = []
    _rejected(data, "1 to 7")


def test_4_2_markers_must_belong_to_a_player_once(make_position) -> None:
    """4.2/4.7: every legion has a marker of one of the players, each marker used once."""
    data = _base(make_position)
    data["legions"][0]["marker"] = "Gr01"  # Green plays no part
    _rejected(data, "belongs to no player")
    data = _base(make_position)
    data["legions"].append({"marker": "Rd01", "land": 1, "contents": ["Minotaur"], "moved": False})
    _rejected(data, "twice")


def test_4_0_one_legion_per_land_outside_engagements(make_position) -> None:
    """4.0/7.1: two legions share a land only in an engagement (or as split-offs before movement ends)."""
    data = make_position(
        [("Rd01", 3, "Titan Minotaur"), ("Rd02", 3, "Minotaur Minotaur"), ("Bu01", 300, "Titan")],
        phase="split",
    )
    _rejected(data, "more than one legion")
    data = make_position(
        [("Rd01", 3, "Titan Minotaur", True), ("Bu01", 3, "Titan")], phase="muster", roll=2
    )
    _rejected(data, "more than one legion")
    engaged = make_position(
        [("Rd01", 3, "Titan Minotaur", True), ("Bu01", 3, "Titan")], phase="engage", roll=2
    )
    assert replay([position_event(engaged)]).engagement_lands() == [3]
    wrong = copy.deepcopy(engaged)
    wrong["engagements"] = [4]
    _rejected(wrong, "engagements")


def test_2_1_legions_stand_on_lands_of_the_board(make_position) -> None:
    """2.1: lands are numbered 1-42, 101-142, 100-600 and 1000-6000."""
    data = _base(make_position)
    data["legions"][0]["land"] = 43
    _rejected(data, "not a land")


def test_complete_sequence_2_phase_active_and_roll(make_position) -> None:
    """Complete Sequence 2: a position names a known phase, a player still in the game to act, and in the move phase his roll."""
    data = _base(make_position)
    data["phase"] = "battle"
    _rejected(data, "phase")
    data = _base(make_position)
    data["active"] = "Zed"
    _rejected(data, "active")
    data = _base(make_position)
    del data["roll"]
    _rejected(data, "roll")
    data = _base(make_position, roll=7)
    _rejected(data, "roll")


def test_19_0_eliminated_players_have_no_legions(make_position) -> None:
    """19.0/4.6: an eliminated player has no legions left and cannot be the player to act."""
    data = make_position(
        [("Rd01", 600, "Titan Minotaur"), ("Bu01", 300, "Titan"), ("Gr01", 100, "Titan")],
        players=("Ann", "Bob", "Cy"),
        eliminated=("Cy",),
    )
    _rejected(data, "eliminated")
    data["legions"] = data["legions"][:2]
    data["active"] = "Cy"
    _rejected(data, "active")


def test_positions_unknown_characters_are_position_errors(make_position) -> None:
    """Wolff 3.5: only the game's character types exist; an unknown name is a position error (E-POSITION)."""
    data = _base(make_position)
    data["legions"][0]["contents"].append("Dragonn")
    _rejected(data, "Dragonn")
    data = _base(make_position, dead={"Gremlin": 1})
    _rejected(data, "Gremlin")


def test_7_1_engagements_in_a_position_are_the_movers(make_position) -> None:
    """2.5/7.1: in the engage phase each shared land holds the mover's legion and one other player's legion."""
    cast = [
        ("Rd01", 3, "Titan Minotaur", True),
        ("Bu01", 300, "Titan Minotaur"),
        ("Gr01", 100, "Titan"),
    ]
    others = make_position(
        [*cast, ("Bu02", 3, "Lion"), ("Bu03", 5, "Minotaur"), ("Gr02", 5, "Lion")],
        players=("Ann", "Bob", "Cy"),
        phase="engage",
        roll=1,
    )
    _rejected(others, "land 5")  # Bob and Cy cannot be engaged on Ann's turn
    three = make_position(
        [*cast, ("Bu02", 3, "Lion"), ("Gr02", 3, "Lion")],
        players=("Ann", "Bob", "Cy"),
        phase="engage",
        roll=1,
    )
    _rejected(three, "land 3")
    own = make_position(
        [*cast, ("Bu02", 3, "Lion"), ("Rd02", 6, "Minotaur Minotaur"), ("Rd03", 6, "Lion Lion")],
        players=("Ann", "Bob", "Cy"),
        phase="engage",
        roll=1,
    )
    _rejected(own, "land 6")  # split-offs recombine before the engagement phase (2.4)


# -- the entry sides of pending engagements (Wolff 2.2/10.1) ------------------------------------


def _engaged(make_position, **kw):
    """Ann's Rd01 has moved onto Bob's Bu02 on brush 3; her Rd02 onto Bu03 on tower 100."""
    return make_position(
        [
            ("Rd01", 3, "Titan Minotaur", True),
            ("Bu02", 3, "Minotaur Minotaur"),
            ("Rd02", 100, "Troll Troll", True),
            ("Bu03", 100, "Lion Lion"),
            ("Bu01", 300, "Titan"),
        ],
        phase="engage",
        roll=1,
        **kw,
    )


def _battle_entry(data, land: int = 3) -> str:
    """Engage on ``land`` and go straight to battle (Bob then Ann: no more proposals, fight)."""
    state = replay([position_event(data)])
    for command in (
        cmd.Engage(player="Ann", land=land),
        cmd.NoMore(player="Bob"),
        cmd.Fight(player="Ann"),
    ):
        state, _ = apply(state, command, NoDice())
    assert state.battle is not None
    return state.battle.entry


@pytest.mark.needs(options={"battleland_choice": "fixed"})  # the battle starts without a die
def test_wolff_10_1_position_gives_a_pending_engagements_entry_side(make_position) -> None:
    """Wolff 2.2/10.1: 'entries' says from which side the attacker enters each pending engagement."""
    data = _engaged(make_position)
    data["entries"] = {"3": "left", "100": "bottom"}
    assert position_event(data).entries == ((3, "left"), (100, "bottom"))
    assert _battle_entry(data) == "left"


@pytest.mark.needs(options={"battleland_choice": "fixed"})  # the battle starts without a die
def test_wolff_10_1_position_without_entries_enters_from_the_bottom(make_position) -> None:
    """Wolff 2.2/10.1: without 'entries' an engagement's attacker enters from the bottom, as before."""
    data = _engaged(make_position)
    assert position_event(data).entries == ()
    assert _battle_entry(data) == "bottom"


@pytest.mark.needs(options={"battleland_choice": "fixed"})  # the battle starts without a die
def test_wolff_10_1_export_keeps_the_entry_sides(make_position) -> None:
    """20.5/Wolff 10.1: a position written down in the engage phase keeps each attacker's side."""
    data = _engaged(make_position)
    data["entries"] = {3: "right"}
    exported = export_position(replay([position_event(data)]))
    assert exported["entries"] == {"3": "right"}
    assert _battle_entry(exported) == "right"


def test_wolff_10_1_position_entries_are_checked(make_position) -> None:
    """Wolff 2.2/10.1/10.2: a side of left, right or bottom, for a pending engagement; towers from the bottom."""
    _rejected({**_engaged(make_position), "entries": {"5": "left"}}, "no engagement is pending")
    _rejected({**_engaged(make_position), "entries": {"3": "top"}}, "not 'top'")
    _rejected({**_engaged(make_position), "entries": {"x": "left"}}, "not a land number")
    _rejected({**_engaged(make_position), "entries": {"100": "left"}}, "tower 100")
    _rejected({**_engaged(make_position), "entries": ["3", "left"]}, "maps an engagement's land")
    _rejected({**_base(make_position), "entries": {"3": "left"}}, "only in phase 'engage'")
    battle = {
        "land": 3,
        "attacker": "Rd01",
        "defender": "Bu02",
        "entry": "right",
        "characters": [
            {"legion": "Rd01", "type": "titan", "hex": "D4"},
            {"legion": "Rd01", "type": "minotaur", "hex": "D3"},
            {"legion": "Bu02", "type": "minotaur", "hex": "C1"},
            {"legion": "Bu02", "type": "minotaur", "hex": "C2"},
        ],
    }
    disagreeing = {**_engaged(make_position), "entries": {"3": "left"}, "battle": battle}
    _rejected(disagreeing, "'entries' says left")
    without = {k: v for k, v in battle.items() if k != "entry"}
    agreed = {**_engaged(make_position), "entries": {"3": "left"}, "battle": without}
    assert position_event(agreed).battle[3] == "left"  # type: ignore[index]
