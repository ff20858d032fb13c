"""
Recombining split-offs at the end of movement (4.3, Complete Sequence 2.4, Wolff 4.7).

Board facts used: land 4 Hills has a Block that leads only to 103 on a roll of 1, so a
legion of Ann's on 103 leaves split-offs on 4 no normal move.
"""

from __future__ import annotations

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.legal import legal_commands
from moderator.rules.state import Step

BOB = ("Bu01", 300, "Titan Minotaur")


def done(*keep: str) -> cmd.Done:
    return cmd.Done(player="Ann", keep=keep)


def _three_way(game_at):
    """Ann splits Rd01 on 4 three ways; the original (Rd01) moves off to 103, the only exit."""
    game = game_at(
        [("Rd01", 4, "Titan Minotaur Minotaur Troll Troll Lion Lion"), BOB], phase="split"
    )
    game.do(cmd.Split(player="Ann", parent="Rd01", child="Rd02", characters=("Troll", "Troll")))
    game.do(cmd.Split(player="Ann", parent="Rd01", child="Rd03", characters=("Lion", "Lion")))
    game.do(cmd.Roll(player="Ann"), 1)
    game.do(cmd.MoveLegion(player="Ann", marker="Rd01", land=103))
    return game


def _cancelled(game_at):
    """A plain two-way split on 4 that cannot separate: Rd08 fills 103."""
    game = game_at(
        [("Rd01", 4, "Titan Minotaur Minotaur Troll"), ("Rd08", 104, "Minotaur Minotaur"), BOB],
        phase="split",
    )
    game.do(
        cmd.Split(player="Ann", parent="Rd01", child="Rd02", characters=("Minotaur", "Minotaur"))
    )
    game.do(cmd.Roll(player="Ann"), 1)
    game.do(cmd.MoveLegion(player="Ann", marker="Rd08", land=103))
    return game


def test_wolff_4_7_three_way_split_player_chooses_the_kept_marker(game_at) -> None:
    """Wolff 4.7: with the original moved off, 'done keeping Rd03' keeps Rd03 for the other two."""
    game = _three_way(game_at)
    events = game.do(done("Rd03"))
    assert game.one(events, ev.LegionsRecombined) == ev.LegionsRecombined(
        land=4, marker="Rd03", absorbed=("Rd02",)
    )
    assert "Rd02" not in game.state.legions
    assert game.legion("Rd03").contents == ("Lion", "Lion", "Troll", "Troll")
    assert "Rd02" in game.state.free_markers("Ann")
    assert game.replayed() == game.state


def test_wolff_4_7_three_way_split_without_a_choice_keeps_the_lowest_marker(game_at) -> None:
    """Wolff 4.7: a plain 'done' keeps the lower of the two markers (the default)."""
    game = _three_way(game_at)
    assert game.one(game.do(done()), ev.LegionsRecombined).marker == "Rd02"


def test_wolff_4_7_legal_orders_offer_each_marker_choice(game_at) -> None:
    """Wolff 4.7: the legal orders list plain 'done' first and the other marker as a choice."""
    game = _three_way(game_at)
    dones = [c for c in legal_commands(game.state) if isinstance(c, cmd.Done)]
    assert dones == [done(), done("Rd03")]


def test_wolff_4_7_cancelled_split_must_keep_the_original_marker(game_at) -> None:
    """Wolff 4.7: a cancelled two-way split keeps the original marker; naming the other is refused."""
    game = _cancelled(game_at)
    error = game.refused(done("Rd02"), "E-RECOMBINE-MARKER")
    assert "original marker Rd01" in str(error) and "done keeping Rd01" in str(error)
    assert [c for c in legal_commands(game.state) if isinstance(c, cmd.Done)] == [done()]
    events = game.do(done("Rd01"))
    assert game.one(events, ev.LegionsRecombined).marker == "Rd01"


def test_wolff_4_7_keeping_a_marker_that_does_not_recombine_is_refused(game_at) -> None:
    """Wolff 4.7: only a marker of the recombining split-offs may be kept, one per land."""
    game = _three_way(game_at)
    error = game.refused(done("Rd01"), "E-RECOMBINE-MARKER")
    assert "Rd02 and Rd03" in str(error)
    game.refused(done("Rd02", "Rd03"), "E-RECOMBINE-MARKER")
    game.refused(done("Bu01"), "E-RECOMBINE-MARKER")


def test_wolff_4_7_keeping_with_nothing_to_recombine_is_refused(game_at) -> None:
    """Wolff 4.7: 'keeping' is refused when no split-offs recombine."""
    game = game_at([("Rd01", 4, "Titan Minotaur Minotaur"), BOB], roll=1)
    game.do(cmd.MoveLegion(player="Ann", marker="Rd01", land=103))
    error = game.refused(done("Rd01"), "E-RECOMBINE-MARKER")
    assert "nothing recombines" in str(error)


def test_wolff_4_7_keeping_belongs_to_the_end_of_movement(game_at) -> None:
    """Wolff 4.7: the choice is made when movement ends; 'done keeping' ends no muster step."""
    game = _three_way(game_at)
    game.do(done("Rd03"))
    assert game.state.step is Step.MUSTER
    error = game.refused(done("Rd03"), "E-RECOMBINE-MARKER")
    assert "plain 'done'" in str(error)
