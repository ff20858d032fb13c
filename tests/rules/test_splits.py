"""Splits: the first turn's 4-4 split and later splits (4.2, 4.3, 6.1, 7.6, Complete Sequence 2.1)."""

from __future__ import annotations

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.legal import legal_commands
from moderator.rules.state import Step

ANGEL_SIDE = ("Angel", "Centaur", "Gargoyle", "Ogre")


def _split(player: str, parent: str, child: str | None, characters: str) -> cmd.Split:
    return cmd.Split(
        player=player, parent=parent, child=child, characters=tuple(characters.split())
    )


# -- the first turn --------------------------------------------------------------------


def test_complete_sequence_2_1_first_turn_split_four_four_one_lord_each(started) -> None:
    """2.1/5.2: on his first turn a player splits 4-4 with exactly one lord in each legion."""
    game = started()
    events = game.do(_split("Ann", "Rd01", "Rd02", "Angel Centaur Gargoyle Ogre"))
    public = game.one(events, ev.LegionSplit)
    assert public == ev.LegionSplit(parent="Rd01", child="Rd02", parent_height=4, child_height=4)
    assert public.visible_to is None
    private = game.one(events, ev.SplitContents)
    assert private.moved == ANGEL_SIDE
    assert private.visible_to == frozenset({"Ann"})  # 4.3: splits are not revealed
    assert game.legion("Rd01").contents == ("Centaur", "Gargoyle", "Ogre", "Titan")
    assert game.legion("Rd02").contents == ANGEL_SIDE
    assert game.legion("Rd02").land == 600
    # 5.2: the initial assignments are confidential: neither stack is known to Bob
    assert not game.legion("Rd02").known_by("Bob")
    assert not game.legion("Rd01").known_by("Bob")


def test_complete_sequence_2_1_first_split_needs_exactly_one_lord_each_side(started) -> None:
    """2.1: a first-turn split putting both lords (or no lord) in one legion is refused."""
    game = started()
    game.refused(_split("Ann", "Rd01", "Rd02", "Angel Titan Centaur Ogre"), "E-SPLIT-FIRST")
    game.refused(_split("Ann", "Rd01", "Rd02", "Centaur Centaur Ogre Ogre"), "E-SPLIT-FIRST")


def test_complete_sequence_2_1_first_split_is_four_and_four(started) -> None:
    """2.1: the first turn's split is exactly four characters and four."""
    game = started()
    game.refused(_split("Ann", "Rd01", "Rd02", "Angel Centaur Ogre"), "E-SPLIT-FIRST")
    game.refused(_split("Ann", "Rd01", "Rd02", "Angel Centaur Ogre Ogre Gargoyle"), "E-SPLIT-FIRST")


def test_5_2_first_turn_allows_only_the_one_split(started) -> None:
    """5.2: the beginning legions may not be split again until the player's second turn."""
    game = started()
    game.do(_split("Ann", "Rd01", "Rd02", "Angel Centaur Gargoyle Ogre"))
    game.refused(_split("Ann", "Rd01", "Rd03", "Centaur Titan"), "E-SPLIT-FIRST")
    game.refused(_split("Ann", "Rd02", "Rd03", "Angel Ogre"), "E-SPLIT-FIRST")


def test_complete_sequence_2_1_no_movement_roll_before_the_first_split(started) -> None:
    """2.1/Wolff 4.1: the eight-high legion must be split before the movement roll."""
    game = started()
    game.refused(cmd.Roll(player="Ann"), "E-SPLIT-FIRST")
    assert not any(isinstance(c, cmd.Roll) for c in legal_commands(game.state))
    splits = [c for c in legal_commands(game.state) if isinstance(c, cmd.Split)]
    assert splits and all(len(c.characters) == 4 for c in splits)
    assert all(sum(x in ("Titan", "Angel") for x in c.characters) == 1 for c in splits)
    game.do(_split("Ann", "Rd01", "Rd02", "Angel Centaur Gargoyle Ogre"))
    events = game.do(cmd.Roll(player="Ann"), 4)
    assert game.one(events, ev.MovementRolled) == ev.MovementRolled(player="Ann", roll=4)
    assert game.state.step is Step.MOVE


def test_wolff_4_1_eight_high_legion_only_before_the_first_split(started) -> None:
    """Wolff 4.1/5.2: the eight-high legion exists only until the first turn's commencement."""
    game = started()
    assert game.legion("Bu01").height == 8  # Bob has not had his first turn yet
    game.do(_split("Ann", "Rd01", "Rd02", "Angel Centaur Gargoyle Ogre"))
    assert max(lg.height for lg in game.state.legions_of("Ann")) == 4


# -- later splits ---------------------------------------------------------------------


def test_4_3_later_split_leaves_at_least_two_in_each(game_at) -> None:
    """4.3: both the old and the new legion must contain at least two characters."""
    game = game_at(
        [("Rd01", 600, "Titan Minotaur Minotaur Troll Troll"), ("Bu01", 300, "Titan Minotaur")],
        phase="split",
    )
    game.refused(_split("Ann", "Rd01", "Rd02", "Minotaur"), "E-SPLIT-SIZE")
    game.refused(_split("Ann", "Rd01", "Rd02", "Minotaur Minotaur Troll Troll"), "E-SPLIT-SIZE")
    events = game.do(_split("Ann", "Rd01", "Rd02", "Troll Troll"))
    assert game.one(events, ev.LegionSplit).parent_height == 3
    assert game.legion("Rd01").contents == ("Minotaur", "Minotaur", "Titan")
    assert game.legion("Rd02").contents == ("Troll", "Troll")
    assert game.legion("Rd02").split_from == "Rd01"


def test_4_3_split_characters_must_be_in_the_old_legion(game_at) -> None:
    """4.3: all of the new legion's characters must have been in the old legion."""
    game = game_at(
        [("Rd01", 600, "Titan Minotaur Minotaur Troll"), ("Bu01", 300, "Titan Minotaur")], phase="split"
    )
    game.refused(_split("Ann", "Rd01", "Rd02", "Troll Troll"), "E-SPLIT-CONTENTS")
    game.refused(_split("Ann", "Rd01", "Rd02", "Angel Minotaur"), "E-SPLIT-CONTENTS")


def test_4_3_three_way_split(game_at) -> None:
    """4.3: a large enough legion may split into three legions of at least two each."""
    game = game_at(
        [("Rd01", 600, "Titan Minotaur Minotaur Troll Troll Lion Lion"), ("Bu01", 300, "Titan Minotaur")],
        phase="split",
    )
    game.do(_split("Ann", "Rd01", "Rd02", "Troll Troll"))
    game.do(_split("Ann", "Rd01", "Rd03", "Lion Lion"))
    assert [(lg.marker, lg.land, lg.height) for lg in game.state.legions_of("Ann")] == [
        ("Rd01", 600, 3),
        ("Rd02", 600, 2),
        ("Rd03", 600, 2),
    ]
    game.refused(_split("Ann", "Rd01", "Rd04", "Minotaur"), "E-SPLIT-SIZE")


def test_4_2_split_needs_a_free_marker_of_ones_own(game_at) -> None:
    """4.2/4.6: a new legion needs one of the player's markers that is not in play."""
    game = game_at(
        [("Rd01", 600, "Titan Minotaur Minotaur Troll"), ("Rd02", 34, "Minotaur Minotaur"), ("Bu01", 300, "Titan")],
        phase="split",
    )
    game.refused(_split("Ann", "Rd01", "Rd02", "Minotaur Minotaur"), "E-SPLIT-MARKER")  # in play
    game.refused(_split("Ann", "Rd01", "Bu02", "Minotaur Minotaur"), "E-SPLIT-MARKER")  # Bob's
    events = game.do(_split("Ann", "Rd01", None, "Minotaur Minotaur"))
    assert game.one(events, ev.LegionSplit).child == "Rd03"  # the lowest free marker


def test_4_2_no_thirteenth_legion_without_captured_markers(game_at) -> None:
    """4.2: twelve markers allow at most twelve legions; with all in play no split is possible."""
    lands = [600, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12]
    legions = [(f"Rd{i:02d}", land, "Ogre Ogre") for i, land in enumerate(lands, 1)]
    legions[0] = ("Rd01", 600, "Titan Ogre Ogre Troll")
    game = game_at([*legions, ("Bu01", 300, "Titan")], phase="split")
    game.refused(_split("Ann", "Rd01", None, "Ogre Ogre"), "E-SPLIT-MARKER")
    assert not any(isinstance(c, cmd.Split) for c in legal_commands(game.state))


def test_4_6_captured_markers_may_be_used(game_at) -> None:
    """4.2/4.6: a player who eliminated another may use that player's markers too."""
    own = [f"Rd{i:02d}" for i in range(1, 13)]
    game = game_at(
        [("Rd01", 600, "Titan Minotaur Minotaur Troll"), ("Bu01", 300, "Titan")],
        players=("Ann", "Bob", "Cy"),
        eliminated=("Cy",),
        markers={"Ann": [*own, "Gr01", "Gr02"]},
        phase="split",
    )
    events = game.do(_split("Ann", "Rd01", "Gr02", "Minotaur Minotaur"))
    assert game.one(events, ev.LegionSplit).child == "Gr02"
    assert game.legion("Gr02").owner == "Ann"


def test_4_6_cannot_split_another_players_legion(game_at) -> None:
    """4.6: a player may not command another player's legions."""
    game = game_at(
        [("Rd01", 600, "Titan Minotaur"), ("Bu01", 300, "Titan Minotaur Minotaur Troll")], phase="split"
    )
    game.refused(_split("Ann", "Bu01", "Rd02", "Minotaur Minotaur"), "E-NOT-YOURS")
    game.refused(_split("Ann", "Rd09", "Rd02", "Minotaur Minotaur"), "E-NO-LEGION")
    game.refused(_split("Bob", "Bu01", "Bu02", "Minotaur Minotaur"), "E-NOT-YOUR-TURN")


def test_6_2_no_split_after_the_movement_roll(game_at) -> None:
    """6.2/Complete Sequence 2.1-2.2: once the movement roll is made no new legion may be split."""
    game = game_at([("Rd01", 600, "Titan Minotaur Minotaur Troll"), ("Bu01", 300, "Titan")], phase="split")
    game.do(cmd.Roll(player="Ann"), 3)
    game.refused(_split("Ann", "Rd01", "Rd02", "Minotaur Minotaur"), "E-NOT-NOW")


def test_wolff_7_6_no_split_change_after_a_mulligan(started) -> None:
    """Wolff 7.6: a player may not change his split after using his first-turn mulligan."""
    game = started()
    game.do(_split("Ann", "Rd01", "Rd02", "Angel Centaur Gargoyle Ogre"))
    game.do(cmd.Roll(player="Ann"), 2)
    game.do(cmd.Mulligan(player="Ann"), 5)
    game.refused(_split("Ann", "Rd01", "Rd03", "Titan Ogre"), "E-NOT-NOW")
    assert game.state.roll == 5
