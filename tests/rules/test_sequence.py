"""
The synchronous sequence of play (Wolff 1.3/1.4, Complete Sequence 1-3):
exactly one player may act at any point, and only with that step's actions.
"""

from __future__ import annotations

from moderator.rules import commands as cmd
from moderator.rules.decide import decide
from moderator.rules.dice import ScriptedDice
from moderator.rules.errors import RuleError
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.state import Step


def _all_legal_commands_are_accepted(game) -> None:
    player = to_act(game.state)
    legal = legal_commands(game.state)
    assert legal
    for command in legal:
        assert command.player == player
        try:
            decide(game.state, command, ScriptedDice([3] * 6))
        except RuleError as error:  # pragma: no cover - the failure message says which
            raise AssertionError(f"legal {command} refused: {error.code} {error}") from error


def test_wolff_1_3_only_the_player_to_act_may_act(game_at) -> None:
    """Wolff 1.3/1.4: all actions are synchronous and only one player may act at any point."""
    game = game_at(
        [
            ("Rd01", 600, "Titan Minotaur Minotaur Troll"),
            ("Bu01", 300, "Titan Minotaur Minotaur Troll"),
        ],
        phase="split",
    )
    assert to_act(game.state) == "Ann"
    game.refused(cmd.Roll(player="Bob"), "E-NOT-YOUR-TURN")
    game.refused(
        cmd.Split(player="Bob", parent="Bu01", child="Bu02", characters=("Minotaur", "Minotaur")),
        "E-NOT-YOUR-TURN",
    )
    game.do(cmd.Roll(player="Ann"), 1)
    game.refused(cmd.MoveLegion(player="Bob", marker="Bu01", land=13), "E-NOT-YOUR-TURN")
    game.refused(cmd.Done(player="Bob"), "E-NOT-YOUR-TURN")
    game.do(cmd.MoveLegion(player="Ann", marker="Rd01", land=34))
    game.do(cmd.Done(player="Ann"))
    game.refused(cmd.Done(player="Bob"), "E-NOT-YOUR-TURN")
    game.refused(cmd.Muster(player="Bob", marker="Bu01", creature="Minotaur"), "E-NOT-YOUR-TURN")


def test_complete_sequence_2_steps_come_in_order(game_at) -> None:
    """Complete Sequence 2.1-2.7: split, roll, move, engage, muster, end; an action of another step is refused."""
    game = game_at(
        [("Rd01", 600, "Titan Minotaur Minotaur Troll"), ("Bu01", 300, "Titan Minotaur")],
        phase="split",
    )
    game.refused(cmd.Done(player="Ann"), "E-NOT-NOW")  # roll first
    game.refused(cmd.Muster(player="Ann", marker="Rd01", creature="Minotaur"), "E-NOT-NOW")
    game.do(cmd.Roll(player="Ann"), 1)
    assert game.state.step is Step.MOVE
    game.refused(cmd.Roll(player="Ann"), "E-NOT-NOW", 2)  # one movement roll
    game.refused(cmd.Engage(player="Ann", land=34), "E-NOT-NOW")
    game.refused(cmd.Flee(player="Ann"), "E-NOT-NOW")
    game.refused(cmd.Concede(player="Ann"), "E-NOT-NOW")
    game.refused(cmd.Summon(player="Ann", lord="Angel", source="Rd01"), "E-NOT-NOW")
    game.refused(cmd.TakeAngel(player="Ann", lord="Angel"), "E-NOT-NOW")
    game.refused(cmd.Decline(player="Ann"), "E-DECLINE")
    game.do(cmd.MoveLegion(player="Ann", marker="Rd01", land=34))
    game.do(cmd.Done(player="Ann"))
    assert game.state.step is Step.MUSTER
    game.refused(cmd.MoveLegion(player="Ann", marker="Rd01", land=35), "E-NOT-NOW")


def test_wolff_1_3_players_outside_the_game_cannot_act(game_at) -> None:
    """Wolff 1.3/19.0: nobody outside the game, nor an eliminated player, may act."""
    game = game_at(
        [("Rd01", 600, "Titan Minotaur"), ("Bu01", 300, "Titan Minotaur")],
        players=("Ann", "Bob", "Cy"),
        eliminated=("Cy",),
        phase="split",
    )
    game.refused(cmd.Roll(player="Zed"), "E-NOT-PLAYING")
    game.refused(cmd.Roll(player="Cy"), "E-ELIMINATED")


def test_wolff_1_3_the_player_to_act_in_each_step(game_at) -> None:
    """Wolff 1.3/2.5.x: the defender acts first in a negotiation, the winner decides summons, reinforcement and angels."""
    game = game_at(
        [
            ("Rd01", 3, "Troll Troll", True),
            ("Rd02", 600, "Titan Angel"),
            ("Bu01", 300, "Titan Minotaur"),
            ("Bu02", 3, "Angel Lion"),
        ],
        phase="engage",
        roll=1,
        scores={"Ann": 90},
    )
    assert to_act(game.state) == "Ann"
    _all_legal_commands_are_accepted(game)
    game.do(cmd.Engage(player="Ann", land=3))
    assert to_act(game.state) == "Bob"
    _all_legal_commands_are_accepted(game)
    game.do(cmd.Concede(player="Bob"))
    assert game.state.step is Step.SUMMON and to_act(game.state) == "Ann"
    _all_legal_commands_are_accepted(game)
    game.do(cmd.Decline(player="Ann"))
    assert game.state.step is Step.ACQUIRE and to_act(game.state) == "Ann"
    _all_legal_commands_are_accepted(game)
    game.do(cmd.Decline(player="Ann"))
    assert game.state.step is Step.MUSTER and to_act(game.state) == "Ann"
    _all_legal_commands_are_accepted(game)
    assert game.replayed() == game.state


def test_complete_sequence_2_legal_actions_are_all_accepted(game_at, started) -> None:
    """Complete Sequence 2.1-2.3: every action offered to the player to act is one the rules accept."""
    game = started()
    _all_legal_commands_are_accepted(game)  # first-turn splits and withdrawal
    game.do(
        cmd.Split(
            player="Ann",
            parent="Rd01",
            child="Rd02",
            characters=("Angel", *sorted(set(game.legion("Rd01").contents) - {"Titan", "Angel"})),
        )
    )
    game.do(cmd.Roll(player="Ann"), 6)
    _all_legal_commands_are_accepted(game)  # moves, tower teleports, mulligan
    game = game_at([("Rd01", 1, "Titan Minotaur Lion"), ("Bu01", 4000, "Titan Minotaur")], roll=4)
    _all_legal_commands_are_accepted(game)  # both entry sides listed
