"""Teleportation (rules 8.0-8.3, 10.4, Wolff 7.0, 7.1, 8.0, 8.1, 8.2, 10.4)."""

from __future__ import annotations

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.legal import legal_commands
from moderator.rules.movement import legion_moves


def teleport(marker: str, land: int, **kw) -> cmd.MoveLegion:
    return cmd.MoveLegion(player="Ann", marker=marker, land=land, teleport=True, **kw)


def teleports(game, marker: str) -> dict[int, str]:
    legion = game.legion(marker)
    return {o.land: o.teleport for o in legion_moves(game.state, legion) if o.teleport}


# -- tower teleport (8.1) ------------------------------------------------------------------


def _tower_game(game_at, roll: int = 6, extra=()):
    return game_at(
        [
            ("Rd01", 100, "Angel Minotaur Minotaur"),
            ("Rd02", 30, "Titan Minotaur"),
            ("Bu01", 300, "Titan Minotaur"),
            *extra,
        ],
        roll=roll,
    )


def test_8_1_tower_teleport_to_any_vacant_tower(game_at) -> None:
    """8.1: on a 6 a legion with a lord in a tower may teleport to a vacant tower anywhere."""
    game = _tower_game(game_at)
    events = game.do(teleport("Rd01", 400))
    assert game.one(events, ev.LegionMoved) == ev.LegionMoved(
        marker="Rd01", from_land=100, to_land=400, teleport="tower", lord_shown="Angel"
    )
    assert game.legion("Rd01").land == 400 and game.legion("Rd01").moved


def test_8_1_tower_teleport_to_a_vacant_land_within_six(game_at) -> None:
    """8.1: or to any vacant land up to six lands from the tower (8 is; 4000 is not)."""
    game = _tower_game(game_at)
    assert teleports(game, "Rd01")[8] == "tower"
    assert 4000 not in teleports(game, "Rd01")
    error = game.refused(teleport("Rd01", 4000), "E-TELEPORT-FAR")
    assert "neither a tower nor within 6 lands of tower 100" in str(error)
    assert "'moves Rd01' lists them" in str(error)
    game.do(teleport("Rd01", 8))
    assert game.legion("Rd01").land == 8


def test_8_1_tower_teleport_ignores_signs_and_enemies(game_at) -> None:
    """8.1: the teleporting legion ignores all signs and enemy legions on the way."""
    game = game_at(
        [
            ("Rd01", 100, "Angel Minotaur Minotaur"),
            ("Rd02", 30, "Titan Minotaur"),
            ("Bu01", 300, "Titan Minotaur"),
            ("Bu02", 3, "Minotaur Minotaur"),
            ("Bu03", 41, "Minotaur Minotaur"),
            ("Bu04", 101, "Minotaur Minotaur"),
        ],
        roll=6,
    )
    game.do(teleport("Rd01", 5))  # every neighbour of tower 100 holds an enemy
    assert game.legion("Rd01").land == 5


def test_8_1_tower_teleport_only_to_vacant_lands(game_at) -> None:
    """8.1: the destination must be vacant: no enemy and no friendly legion there."""
    game = _tower_game(
        game_at, extra=[("Bu02", 5, "Minotaur Minotaur"), ("Rd03", 6, "Minotaur Minotaur")]
    )
    game.refused(teleport("Rd01", 300), "E-TELEPORT-NO-TITAN")  # Bob's tower
    game.refused(teleport("Rd01", 5), "E-TELEPORT-NO-TITAN")
    error = game.refused(teleport("Rd01", 6), "E-TELEPORT-OWN")
    assert "your legion Rd03 stands on 6" in str(error)


def test_wolff_8_1_tower_teleport_not_to_the_starting_land(game_at) -> None:
    """Wolff 8.1: tower teleportation must end on a different land than it started."""
    game = _tower_game(game_at)
    assert 100 not in teleports(game, "Rd01")
    game.refused(teleport("Rd01", 100), "E-TELEPORT-SAME-LAND")


def test_8_1_tower_teleport_needs_a_lord(game_at) -> None:
    """8.1: only a legion containing one or more lords may tower teleport."""
    game = game_at(
        [
            ("Rd01", 100, "Minotaur Minotaur Guardian"),
            ("Rd02", 30, "Titan Minotaur"),
            ("Bu01", 300, "Titan"),
        ],
        roll=6,
    )
    assert teleports(game, "Rd01") == {}
    error = game.refused(teleport("Rd01", 400), "E-TELEPORT-NO-LORD")
    assert "holds no lord" in str(error) and "by the signs instead, to 4, 8, 138" in str(error)


def test_8_1_tower_teleport_only_from_a_tower(game_at) -> None:
    """8.1: the legion must begin its move in a tower land."""
    game = game_at(
        [
            ("Rd01", 30, "Angel Minotaur Minotaur"),
            ("Rd02", 1, "Titan Minotaur"),
            ("Bu01", 300, "Titan"),
        ],
        roll=6,
    )
    assert teleports(game, "Rd01") == {}
    game.refused(teleport("Rd01", 400), "E-TELEPORT-NOT-TOWER")


def test_8_1_tower_teleport_only_on_a_six(game_at) -> None:
    """8.1: tower teleportation is possible only when the movement roll is a 6."""
    game = _tower_game(game_at, roll=5)
    error = game.refused(teleport("Rd01", 400), "E-TELEPORT-ROLL")
    assert "roll of 6" in str(error)


def test_8_1_teleport_shows_a_lord_of_the_legion(game_at) -> None:
    """8.1: the mover reveals to all the lord that allows the teleport; it must be in the legion."""
    game = game_at([("Rd01", 100, "Titan Archangel Minotaur"), ("Bu01", 300, "Titan")], roll=6)
    game.refused(teleport("Rd01", 400, showing="Angel"), "E-TELEPORT-LORD")
    game.refused(teleport("Rd01", 400, showing="Minotaur"), "E-TELEPORT-LORD")
    events = game.do(teleport("Rd01", 400, showing="Titan"))
    moved = game.one(events, ev.LegionMoved)
    assert moved.lord_shown == "Titan" and moved.visible_to is None


def test_17_3_archangel_may_tower_teleport(game_at) -> None:
    """17.3: archangels are lords and may perform tower teleportation."""
    game = game_at(
        [
            ("Rd01", 100, "Archangel Minotaur"),
            ("Rd02", 30, "Titan Minotaur"),
            ("Bu01", 300, "Titan"),
        ],
        roll=6,
    )
    events = game.do(teleport("Rd01", 200))
    assert game.one(events, ev.LegionMoved).lord_shown == "Archangel"


def test_wolff_8_0_teleport_is_never_forced(game_at) -> None:
    """8.3/Wolff 8.0: a legion able to teleport may move normally instead."""
    game = _tower_game(game_at)
    normal = [o.land for o in legion_moves(game.state, game.legion("Rd01")) if not o.teleport]
    assert normal == [4, 8, 138]
    events = game.do(cmd.MoveLegion(player="Ann", marker="Rd01", land=138))
    assert game.one(events, ev.LegionMoved).teleport is None


# -- titan teleport (8.2) ---------------------------------------------------------------------


def _titan_game(game_at, score: int = 400, roll: int = 6, extra=()):
    return game_at(
        [
            ("Rd01", 30, "Titan Minotaur"),
            ("Rd02", 20, "Angel Minotaur"),
            ("Bu01", 300, "Titan Minotaur"),
            ("Bu02", 12, "Minotaur Minotaur"),
            *extra,
        ],
        scores={"Ann": score},
        roll=roll,
    )


def test_8_2_titan_teleport_onto_an_enemy_legion_anywhere(game_at) -> None:
    """8.2: with 400+ points, on a 6 the Titan legion may teleport onto any other player's legion."""
    game = _titan_game(game_at)
    assert teleports(game, "Rd01") == {12: "titan", 300: "titan"}
    events = game.do(teleport("Rd01", 12, entry="left"))
    assert game.one(events, ev.LegionMoved) == ev.LegionMoved(
        marker="Rd01", from_land=30, to_land=12, entry="left", teleport="titan", lord_shown="Titan"
    )
    game.do(cmd.Done(player="Ann"))
    assert game.state.engagement_lands() == [12]


def test_19_2_titan_teleport_needs_four_hundred_points(game_at) -> None:
    """8.2/19.2: titan teleportation comes with a score of 400 (Titan power 10)."""
    game = _titan_game(game_at, score=399)
    assert game.player("Ann").titan_power == 9
    assert teleports(game, "Rd01") == {}
    error = game.refused(teleport("Rd01", 12, entry="left"), "E-TELEPORT-SCORE")
    assert "you have 399" in str(error)


def test_8_2_titan_teleport_must_engage(game_at) -> None:
    """8.2: a legion moved by titan teleportation may not stop on a vacant land."""
    game = _titan_game(game_at)
    error = game.refused(teleport("Rd01", 13), "E-TELEPORT-VACANT")
    assert "may teleport to 12, 300" in str(error)


def test_8_2_only_the_titan_legion_titan_teleports(game_at) -> None:
    """8.2: titan teleportation is for the legion containing the Titan."""
    game = _titan_game(game_at)
    assert teleports(game, "Rd02") == {}
    game.refused(teleport("Rd02", 12, entry="left"), "E-TELEPORT-NO-TITAN")


def test_8_2_titan_teleport_shows_the_titan(game_at) -> None:
    """8.2: the mover must show that the legion contains his Titan (another lord will not do)."""
    game = game_at(
        [
            ("Rd01", 30, "Titan Angel Minotaur"),
            ("Bu01", 300, "Titan Minotaur"),
            ("Bu02", 12, "Minotaur Minotaur"),
        ],
        scores={"Ann": 450},
        roll=6,
    )
    game.refused(teleport("Rd01", 12, entry="left", showing="Angel"), "E-TELEPORT-LORD")
    events = game.do(teleport("Rd01", 12, entry="left"))
    assert game.one(events, ev.LegionMoved).lord_shown == "Titan"


def test_wolff_10_4_titan_teleport_enters_from_any_side(game_at) -> None:
    """10.4/Wolff 10.4: by titan teleport any side may be used, even one normal movement cannot use."""
    game = _titan_game(game_at)
    options = {o.land: o.entries for o in legion_moves(game.state, game.legion("Rd01"))}
    assert options[12] == ("left", "right", "bottom")
    events = game.do(
        teleport("Rd01", 12, entry="right")
    )  # jungle 12 is entered from 11 or 113 only
    assert game.one(events, ev.LegionMoved).entry == "right"


def test_wolff_10_4_titan_teleport_into_a_tower_enters_from_the_bottom(game_at) -> None:
    """10.2/Wolff 10.4: a titan teleport into a tower always enters from the bottom side."""
    game = _titan_game(game_at)
    game.refused(teleport("Rd01", 300, entry="left"), "E-ENTRY")
    events = game.do(teleport("Rd01", 300))  # no choice to make, so no roll
    moved = game.one(events, ev.LegionMoved)
    assert (moved.entry, moved.entry_roll) == ("bottom", None)


def test_wolff_7_0_undeclared_titan_teleport_side_is_drawn(game_at) -> None:
    """Wolff 7.0/8.2: an undeclared entry side is drawn uniformly among the legal ones (a 3 of 1-6 gives the second of three)."""
    game = _titan_game(game_at)
    events = game.do(teleport("Rd01", 12), 3)
    moved = game.one(events, ev.LegionMoved)
    assert (moved.entry, moved.entry_roll) == ("right", 3)
    game = _titan_game(game_at)
    moved = game.one(game.do(teleport("Rd01", 12), 1), ev.LegionMoved)
    assert (moved.entry, moved.entry_roll) == ("left", 1)
    game = _titan_game(game_at)
    moved = game.one(game.do(teleport("Rd01", 12), 6), ev.LegionMoved)
    assert (moved.entry, moved.entry_roll) == ("bottom", 6)


def test_wolff_7_1_no_titan_teleport_onto_an_engaged_land(game_at) -> None:
    """Wolff 7.1/8.2: titan teleport may not land where another of one's legions is engaged."""
    game = _titan_game(game_at, extra=[("Rd03", 1, "Minotaur Minotaur"), ("Bu03", 2, "Lion Lion")])
    assert 2 in teleports(game, "Rd01")
    game.do(cmd.MoveLegion(player="Ann", marker="Rd03", land=2))  # 1 -> 2 meets Bob
    assert game.state.engagement_lands() == [2]
    assert 2 not in teleports(game, "Rd01")
    error = game.refused(teleport("Rd01", 2, entry="left"), "E-TELEPORT-ENGAGED")
    assert "Rd03 is already engaged on 2" in str(error) and "Wolff 7.1/8.2" in str(error)


def test_8_0_only_one_teleport_per_movement_phase(game_at) -> None:
    """8.0: only one legion may be teleported per movement phase; undoing it frees the teleport."""
    game = _titan_game(game_at, extra=[("Rd04", 600, "Angel Lion")])
    game.do(teleport("Rd04", 400))
    assert teleports(game, "Rd01") == {}
    error = game.refused(teleport("Rd01", 12, entry="left"), "E-TELEPORT-ONCE")
    assert "only one legion may teleport" in str(error) and "'undo Rd04'" in str(error)
    assert not any(isinstance(c, cmd.MoveLegion) and c.teleport for c in legal_commands(game.state))
    game.do(cmd.UndoMove(player="Ann", marker="Rd04"))
    game.do(teleport("Rd01", 12, entry="left"))
    assert game.legion("Rd01").land == 12


# -- refusals name their reason -------------------------------------------------------------


def test_8_1_teleport_refusal_names_the_lord_to_show(game_at) -> None:
    """8.1/8.2: a lord the legion lacks, a character that is no lord, or not the Titan for 8.2."""
    game = game_at([("Rd01", 100, "Titan Archangel Minotaur"), ("Bu01", 300, "Titan")], roll=6)
    error = game.refused(teleport("Rd01", 400, showing="Angel"), "E-TELEPORT-LORD")
    assert "holds no Angel" in str(error)
    assert "'showing archangel' or 'showing titan'" in str(error)
    error = game.refused(teleport("Rd01", 400, showing="Minotaur"), "E-TELEPORT-LORD")
    assert "Minotaur is not a lord" in str(error)
    game = game_at(
        [
            ("Rd01", 30, "Titan Angel Minotaur"),
            ("Bu01", 300, "Titan Minotaur"),
            ("Bu02", 12, "Minotaur Minotaur"),
        ],
        scores={"Ann": 450},
        roll=6,
    )
    error = game.refused(teleport("Rd01", 12, showing="Angel"), "E-TELEPORT-LORD")
    assert "shows your Titan (8.2): write 'showing titan'" in str(error)


def test_8_0_teleport_to_no_land_is_refused(game_at) -> None:
    """8.0: a teleport names a land of the masterboard."""
    game = _tower_game(game_at)
    error = game.refused(teleport("Rd01", 9999), "E-TELEPORT-LAND")
    assert "there is no land 9999" in str(error)


def test_wolff_7_1_no_titan_teleport_onto_a_legion_engaged_by_a_tower_teleport(game_at) -> None:
    """Wolff 7.1/8.2: the engaged legion may have come by the signs; the refusal says which it is."""
    game = _titan_game(game_at, extra=[("Rd03", 1, "Minotaur Minotaur"), ("Bu03", 2, "Lion Lion")])
    game.do(cmd.MoveLegion(player="Ann", marker="Rd03", land=2))
    error = game.refused(teleport("Rd01", 2), "E-TELEPORT-ENGAGED")
    assert str(error).startswith("Rd01 cannot teleport to 2: your legion Rd03")
    assert "it may teleport to 12, 300" in str(error)


def test_8_3_a_plain_move_to_a_teleport_destination_says_to_teleport(game_at) -> None:
    """8.3: a destination only a teleport reaches is refused as a move, naming the teleport order."""
    game = _tower_game(game_at)
    error = game.refused(cmd.MoveLegion(player="Ann", marker="Rd01", land=400), "E-MOVE")
    assert "'teleport Rd01 to 400'" in str(error)
