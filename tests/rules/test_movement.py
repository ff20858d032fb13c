"""
Masterboard movement by the signs (rules 6.2, 7.0-7.6, Wolff 4.3, 4.7, 6.2, 7.1, 7.6).

Board facts used (from the printed masterboard, moderator/rules/data):
land 4 Hills has a Block to 103; land 1 Plains an Arch to 1000 and Triple
Arrows to 2; land 3 Brush Triple Arrows to 4 and an Arch to tower 100;
tower 100 single Arrows to 3, 41 and 101; the centre lands 1000-6000 are
joined by single Arrows; swamp 42 returns to itself on a 6 (Wolff 6.2).
"""

from __future__ import annotations

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.legal import legal_commands, may_end_movement
from moderator.rules.movement import legion_moves
from moderator.rules.state import Step

BOB = ("Bu01", 300, "Titan Minotaur")


def dests(game, marker: str) -> dict[int, tuple[str, ...]]:
    """Normal (non-teleport) destinations of ``marker`` with their entry sides."""
    legion = game.legion(marker)
    return {o.land: o.entries for o in legion_moves(game.state, legion) if o.teleport is None}


def move(marker: str, land: int, player: str = "Ann", **kw) -> cmd.MoveLegion:
    return cmd.MoveLegion(player=player, marker=marker, land=land, **kw)


# -- the signs (7.2-7.5) ---------------------------------------------------------------


def test_7_4_block_forces_the_first_step(game_at) -> None:
    """7.4: a legion on a land from which a Block points must begin its move that way."""
    game = game_at([("Rd01", 4, "Titan Minotaur"), BOB], roll=1)
    assert dests(game, "Rd01") == {103: ()}
    error = game.refused(move("Rd01", 5), "E-MOVE")
    assert "block" in str(error)
    game = game_at([("Rd01", 4, "Titan Minotaur"), BOB], roll=2)
    assert dests(game, "Rd01") == {102: ()}


def test_7_4_arch_may_begin_a_move(game_at) -> None:
    """7.4: a legion on a land from which an Arch points may begin its move through it."""
    game = game_at([("Rd01", 1, "Titan Minotaur"), BOB], roll=1)
    assert set(dests(game, "Rd01")) == {2, 1000}
    events = game.do(move("Rd01", 1000))
    assert game.one(events, ev.LegionMoved) == ev.LegionMoved(
        marker="Rd01", from_land=1, to_land=1000
    )
    assert game.legion("Rd01").land == 1000
    assert game.legion("Rd01").moved


def test_7_5_arches_apply_only_to_the_first_step(game_at) -> None:
    """7.5: passing through a land, its Arch has no effect: 42 on a 2 reaches 38 or 2, never 1000."""
    game = game_at([("Rd01", 42, "Titan Minotaur"), BOB], roll=2)
    assert set(dests(game, "Rd01")) == {2, 38}
    game.refused(move("Rd01", 1000), "E-MOVE")


def test_7_4_triple_arrows_must_be_followed_once_moving(game_at) -> None:
    """7.4b: entering a land with Triple Arrows, a continuing legion follows them (3 leads to 4, not tower 100)."""
    game = game_at([("Rd01", 2, "Titan Minotaur"), BOB], roll=2)
    assert set(dests(game, "Rd01")) == {4, 8}
    game.refused(move("Rd01", 100), "E-MOVE")


def test_7_4_tower_start_follows_any_of_its_arrows(game_at) -> None:
    """7.4a: from a tower a legion may begin along any of that tower's Arrows."""
    game = game_at([("Rd01", 100, "Titan Minotaur"), BOB], roll=1)
    assert set(dests(game, "Rd01")) == {3, 41, 101}
    game = game_at([("Rd01", 100, "Titan Minotaur"), BOB], roll=2)
    assert set(dests(game, "Rd01")) == {4, 42, 142}


def test_7_4_single_arrows_do_not_backtrack(game_at) -> None:
    """7.4b: along single Arrows a legion may not backtrack (1 on a 3 cannot come back to 1000)."""
    game = game_at([("Rd01", 1, "Titan Minotaur"), BOB], roll=3)
    assert set(dests(game, "Rd01")) == {4, 3000, 5000}
    game = game_at([("Rd01", 1, "Titan Minotaur"), BOB], roll=2)
    assert set(dests(game, "Rd01")) == {3, 2000, 6000}


def test_6_2_a_legion_moves_the_full_count(game_at) -> None:
    """6.2/7.1: a moving legion must travel the full count of the roll unless it meets an enemy."""
    game = game_at([("Rd01", 100, "Titan Minotaur"), BOB], roll=2)
    game.refused(move("Rd01", 3), "E-MOVE")
    game.refused(move("Rd01", 100), "E-MOVE")


# -- other legions (7.1) ---------------------------------------------------------------


def test_7_1_move_stops_on_entering_an_enemy_land(game_at) -> None:
    """7.1: a legion that enters another player's land stops there and is engaged."""
    game = game_at([("Rd01", 100, "Titan Minotaur"), ("Bu01", 3, "Titan Minotaur")], roll=3)
    moves = dests(game, "Rd01")
    assert moves == {3: ("right",), 1: (), 141: ()}  # 5 (beyond 3) is not reached
    events = game.do(move("Rd01", 3))
    assert game.one(events, ev.LegionMoved).entry == "right"
    game.do(cmd.Done(player="Ann"))
    assert game.state.step is Step.ENGAGE
    assert game.state.engagement_lands() == [3]


def test_7_1_cannot_end_on_own_legion(game_at) -> None:
    """7.1: a legion may not end its move on a land occupied by another of the mover's legions."""
    game = game_at([("Rd01", 100, "Titan Minotaur"), ("Rd02", 5, "Minotaur Minotaur"), BOB], roll=3)
    assert 5 not in dests(game, "Rd01")
    game.refused(move("Rd01", 5), "E-MOVE")


def test_7_1_may_pass_through_own_legion(game_at) -> None:
    """7.1: a legion may be moved through a land occupied by another of the mover's legions."""
    game = game_at([("Rd01", 100, "Titan Minotaur"), ("Rd02", 4, "Minotaur Minotaur"), BOB], roll=3)
    assert 5 in dests(game, "Rd01")
    game.do(move("Rd01", 5))
    assert game.legion("Rd01").land == 5


def test_7_1_may_end_where_own_legion_moved_away_first(game_at) -> None:
    """7.1: the move onto a friendly land is allowed if that legion can move and moves beforehand."""
    game = game_at([("Rd01", 100, "Titan Minotaur"), ("Rd02", 5, "Minotaur Minotaur"), BOB], roll=3)
    game.refused(move("Rd01", 5), "E-MOVE")
    game.do(move("Rd02", 104))
    game.do(move("Rd01", 5))
    assert (game.legion("Rd01").land, game.legion("Rd02").land) == (5, 104)


def test_7_1_engaged_land_cannot_be_entered_or_crossed(game_at) -> None:
    """7.1: no further movement is allowed into or across the land of an engagement that turn."""
    game = game_at(
        [
            ("Rd01", 100, "Titan Minotaur"),
            ("Rd02", 2, "Minotaur Minotaur"),
            ("Bu01", 4, "Titan Minotaur"),
        ],
        roll=3,
    )
    assert dests(game, "Rd01") == {4: ("left",), 1: (), 141: ()}
    game.do(move("Rd02", 4, entry="left"))  # 2 -> 3 -> 4: engaged
    assert dests(game, "Rd01") == {1: (), 141: ()}
    game.refused(move("Rd01", 4), "E-MOVE")
    game.refused(move("Rd01", 5), "E-MOVE")


def test_7_0_a_legion_moves_only_once(game_at) -> None:
    """7.0: no legion may be moved more than once per movement phase."""
    game = game_at([("Rd01", 100, "Titan Minotaur"), BOB], roll=1)
    game.do(move("Rd01", 3))
    game.refused(move("Rd01", 4), "E-MOVED")


def test_7_0_only_the_movers_legions_move(game_at) -> None:
    """7.0/6.2: only the mover's legions may be moved, and only by the mover."""
    game = game_at([("Rd01", 100, "Titan Minotaur"), ("Bu01", 1, "Titan Minotaur")], roll=1)
    game.refused(move("Bu01", 2), "E-NOT-YOURS")
    game.refused(move("Bu01", 2, player="Bob"), "E-NOT-YOUR-TURN")
    game.refused(move("Rd07", 2), "E-NO-LEGION")


def test_6_2_no_movement_before_the_roll(game_at) -> None:
    """6.2/Complete Sequence 2.2-2.3: legions move only after the movement roll."""
    game = game_at([("Rd01", 100, "Titan Minotaur"), BOB], phase="split")
    game.refused(move("Rd01", 3), "E-NOT-NOW")


# -- must move (6.2, Wolff 6.2) ---------------------------------------------------------


def test_6_2_must_move_at_least_one_legion(game_at) -> None:
    """6.2: the mover must move at least one of his legions when he can."""
    game = game_at([("Rd01", 100, "Titan Minotaur"), ("Rd02", 5, "Minotaur Minotaur"), BOB], roll=1)
    game.refused(cmd.Done(player="Ann"), "E-MUST-MOVE")
    assert not may_end_movement(game.state, "Ann")
    game.do(move("Rd02", 106))
    events = game.do(cmd.Done(player="Ann"))
    assert game.one(events, ev.MovementEnded) == ev.MovementEnded(player="Ann")
    assert game.state.step is Step.MUSTER


def test_wolff_6_2_no_move_needed_when_no_legion_can_move_without_teleporting(game_at) -> None:
    """Wolff 6.2: with no legal move (teleports aside) no legion has to move; this position was saved mid-movement, its blockers already moved."""
    game = game_at(
        [
            ("Rd01", 100, "Titan Angel Minotaur"),  # on a 6 it could tower teleport
            ("Rd02", 4, "Minotaur Minotaur", True),
            ("Rd03", 8, "Minotaur Minotaur", True),
            ("Rd04", 138, "Minotaur Minotaur", True),
            BOB,
        ],
        roll=6,
    )
    assert dests(game, "Rd01") == {}
    assert any(o.teleport for o in legion_moves(game.state, game.legion("Rd01")))
    events = game.do(cmd.Done(player="Ann"))
    assert game.of(events, ev.MovementEnded)
    assert game.legion("Rd01").land == 100 and not game.legion("Rd01").moved


def test_wolff_6_2_return_to_the_starting_land_counts_as_a_move(game_at) -> None:
    """Wolff 6.2/18.0: swamp 42 back to 42 on a 6 (split-off gone first) is a move, for 6.2 and mustering."""
    game = game_at([("Rd01", 42, "Titan Troll Minotaur Minotaur"), BOB], phase="split")
    game.do(
        cmd.Split(player="Ann", parent="Rd01", child="Rd02", characters=("Minotaur", "Minotaur"))
    )
    game.do(cmd.Roll(player="Ann"), 6)
    assert 42 not in dests(game, "Rd01")  # the split-off still stands on 42
    game.refused(move("Rd01", 42), "E-MOVE")
    game.do(move("Rd02", 6))
    assert 42 in dests(game, "Rd01")
    events = game.do(move("Rd01", 42))
    assert game.one(events, ev.LegionMoved) == ev.LegionMoved(
        marker="Rd01", from_land=42, to_land=42
    )
    assert game.legion("Rd01").moved
    game.do(cmd.Done(player="Ann"))
    assert game.state.step is Step.MUSTER
    events = game.do(cmd.Muster(player="Ann", marker="Rd01", creature="Troll"))
    assert game.one(events, ev.CreatureMustered).shown == ("Troll",)


def test_wolff_6_2_return_to_start_alone_satisfies_must_move(game_at) -> None:
    """Wolff 6.2: a legion that ends where it started has moved, so the phase may end."""
    game = game_at([("Rd01", 42, "Titan Minotaur"), BOB], roll=6)
    game.do(move("Rd01", 42))
    assert may_end_movement(game.state, "Ann")
    game.do(cmd.Done(player="Ann"))
    assert game.state.step is Step.MUSTER


# -- split-offs (4.3, 2.4, Wolff 4.3, 4.7) -------------------------------------------------


def test_4_3_one_split_off_must_move_if_possible(game_at) -> None:
    """4.3: after a split one of the two legions must be moved that turn, if possible."""
    game = game_at(
        [("Rd01", 100, "Titan Minotaur Minotaur Troll"), ("Rd05", 30, "Lion Lion"), BOB],
        phase="split",
    )
    game.do(
        cmd.Split(player="Ann", parent="Rd01", child="Rd02", characters=("Minotaur", "Minotaur"))
    )
    game.do(cmd.Roll(player="Ann"), 1)
    game.do(move("Rd05", 31))
    game.refused(cmd.Done(player="Ann"), "E-SPLIT-MUST-MOVE")
    game.do(move("Rd02", 3))
    game.do(cmd.Done(player="Ann"))
    assert game.legion("Rd01").land == 100 and game.legion("Rd02").land == 3


def test_4_3_split_offs_may_not_move_to_the_same_land(game_at) -> None:
    """4.3: both split-offs may move, but not to the same land."""
    game = game_at([("Rd01", 100, "Titan Minotaur Minotaur Troll"), BOB], phase="split")
    game.do(
        cmd.Split(player="Ann", parent="Rd01", child="Rd02", characters=("Minotaur", "Minotaur"))
    )
    game.do(cmd.Roll(player="Ann"), 1)
    game.do(move("Rd01", 3))
    game.refused(move("Rd02", 3), "E-MOVE")
    game.do(move("Rd02", 41))


def _blocked_split_game(game_at):
    """Ann splits on 4 (whose Block leads only to 103 on a 1) and can fill 103 from 104."""
    game = game_at(
        [
            ("Rd01", 4, "Titan Minotaur Minotaur Troll Troll Lion Lion"),
            ("Rd08", 104, "Minotaur Minotaur"),
            BOB,
        ],
        phase="split",
    )
    game.do(cmd.Split(player="Ann", parent="Rd01", child="Rd02", characters=("Troll", "Troll")))
    return game


def test_4_3_split_off_recombines_when_neither_can_move(game_at) -> None:
    """4.3/2.4/7.1: if neither split-off can move because of friendly legions, they recombine."""
    game = _blocked_split_game(game_at)
    game.do(cmd.Roll(player="Ann"), 1)
    game.do(move("Rd08", 103))  # 7.1: the mover may block the only way out
    assert dests(game, "Rd01") == {} and dests(game, "Rd02") == {}
    events = game.do(cmd.Done(player="Ann"))
    recombined = game.one(events, ev.LegionsRecombined)
    assert recombined == ev.LegionsRecombined(land=4, marker="Rd01", absorbed=("Rd02",))
    assert "Rd02" not in game.state.legions
    assert game.legion("Rd01").contents == (
        "Lion", "Lion", "Minotaur", "Minotaur", "Titan", "Troll", "Troll",
    )  # fmt: skip
    assert not game.legion("Rd01").moved
    assert game.replayed() == game.state


def test_wolff_4_7_recombined_split_keeps_the_original_marker(game_at) -> None:
    """Wolff 4.7: a cancelled split uses the original legion marker, even if the new one was listed first."""
    game = game_at(
        [("Rd05", 4, "Titan Minotaur Minotaur Troll"), ("Rd08", 104, "Minotaur Minotaur"), BOB],
        phase="split",
    )
    game.do(
        cmd.Split(player="Ann", parent="Rd05", child="Rd01", characters=("Minotaur", "Minotaur"))
    )
    game.do(cmd.Roll(player="Ann"), 1)
    game.do(move("Rd08", 103))
    events = game.do(cmd.Done(player="Ann"))
    assert game.one(events, ev.LegionsRecombined).marker == "Rd05"
    assert "Rd01" not in game.state.legions


def test_wolff_4_7_three_way_split_original_moved_either_marker(game_at) -> None:
    """Wolff 4.7/4.3: in a three-way split whose original moved off, the other two recombine under either marker."""
    game = _blocked_split_game(game_at)
    game.do(cmd.Split(player="Ann", parent="Rd01", child="Rd03", characters=("Lion", "Lion")))
    game.do(cmd.Roll(player="Ann"), 1)
    game.do(move("Rd01", 103))  # the original leaves; 103 is now the only way out, and taken
    events = game.do(cmd.Done(player="Ann"))
    recombined = game.one(events, ev.LegionsRecombined)
    assert recombined.land == 4
    assert {recombined.marker, *recombined.absorbed} == {"Rd02", "Rd03"}
    assert game.legion(recombined.marker).contents == ("Lion", "Lion", "Troll", "Troll")


def test_wolff_4_3_blocked_split_offs_not_forced_to_teleport(game_at) -> None:
    """Wolff 4.3: split-offs whose normal movement is blocked recombine even if one could teleport."""
    game = game_at(
        [
            ("Rd01", 4, "Titan Minotaur Minotaur Troll"),
            ("Rd05", 140, "Lion Lion"),
            ("Rd06", 30, "Minotaur Minotaur"),
            ("Bu01", 300, "Titan Minotaur"),
        ],
        scores={"Ann": 400},
        phase="split",
    )
    game.do(
        cmd.Split(player="Ann", parent="Rd01", child="Rd02", characters=("Minotaur", "Minotaur"))
    )
    game.do(cmd.Roll(player="Ann"), 6)
    assert dests(game, "Rd01") == {}  # 4 on a 6 leads only to 140, which is Ann's
    teleports = [o for o in legion_moves(game.state, game.legion("Rd01")) if o.teleport]
    assert [o.land for o in teleports] == [300]  # a Titan teleport onto Bob's legion
    game.do(move("Rd06", 36))
    events = game.do(cmd.Done(player="Ann"))
    assert game.one(events, ev.LegionsRecombined).marker == "Rd01"


# -- the mulligan (7.6, Wolff 7.6) -----------------------------------------------------------


def _first_turn_rolled(started, roll: int):
    game = started()
    kinds = sorted(set(game.legion("Rd01").contents) - {"Titan", "Angel"})  # one of each pair
    game.do(cmd.Split(player="Ann", parent="Rd01", child="Rd02", characters=("Angel", *kinds)))
    game.do(cmd.Roll(player="Ann"), roll)
    return game


def test_7_6_first_turn_mulligan_rerolls_once(started) -> None:
    """7.6/2.2.1: on his very first turn a player may roll again once, keeping the new roll."""
    game = _first_turn_rolled(started, 2)
    assert cmd.Mulligan(player="Ann") in legal_commands(game.state)
    events = game.do(cmd.Mulligan(player="Ann"), 5)
    assert game.one(events, ev.MovementRolled) == ev.MovementRolled(
        player="Ann", roll=5, mulligan=True
    )
    assert game.state.roll == 5 and game.state.mulligan_used
    game.refused(cmd.Mulligan(player="Ann"), "E-MULLIGAN", 1)
    assert cmd.Mulligan(player="Ann") not in legal_commands(game.state)


def test_7_6_no_mulligan_after_moving(started) -> None:
    """7.6/Wolff 7.0: the mulligan replaces the roll before it is used; not once a legion has moved."""
    game = _first_turn_rolled(started, 1)
    game.do(move("Rd01", 34))
    game.refused(cmd.Mulligan(player="Ann"), "E-MULLIGAN", 4)
    assert cmd.Mulligan(player="Ann") not in legal_commands(game.state)


def test_7_6_mulligan_only_on_the_first_turn(game_at) -> None:
    """7.6: the mulligan exists only on a player's very first game-turn; not used, it is gone."""
    game = game_at([("Rd01", 600, "Titan Minotaur"), ("Bu01", 300, "Titan")], roll=3)
    game.refused(cmd.Mulligan(player="Ann"), "E-MULLIGAN", 4)
    assert not any(isinstance(c, cmd.Mulligan) for c in legal_commands(game.state))


def test_7_6_mulligan_only_for_the_mover(started) -> None:
    """7.6/Wolff 1.3: only the player whose turn it is may use his mulligan."""
    game = _first_turn_rolled(started, 1)
    game.refused(cmd.Mulligan(player="Bob"), "E-NOT-YOUR-TURN", 4)
