"""
Withdrawing from the game and refusing to play (rule 20.4, Wolff 5.0, 9.4,
20.4, 21.0, Complete Sequence 2.1-2.7).
"""

from __future__ import annotations

import pytest

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.refusal import refusal_command
from moderator.rules.state import Step

THREE = ("Ann", "Bob", "Cy")


def _three(game_at, phase: str, **kw):
    return game_at(
        [
            ("Rd01", 34, "Titan Angel Minotaur Lion", phase == "muster"),
            ("Rd02", 35, "Troll Troll"),
            ("Bu01", 300, "Titan Minotaur"),
            ("Gr01", 100, "Titan Minotaur"),
        ],
        players=THREE,
        phase=phase,
        roll=None if phase == "split" else 1,
        **kw,
    )


# -- withdrawal (20.4, Wolff 20.4) ---------------------------------------------------------------------


@pytest.mark.parametrize("phase", ["split", "move", "muster"])
def test_wolff_20_4_withdraw_in_ones_own_turn(game_at, variant, phase: str) -> None:
    """20.4/Complete Sequence 2.1-2.7: a player may withdraw in his own split, movement or muster step; his legions are set aside with the slain and nobody scores."""
    game = _three(game_at, phase, scores={"Bob": 10, "Cy": 20})
    events = game.do(cmd.Withdraw(player="Ann"))
    assert events[0] == ev.PlayerWithdrew(
        player="Ann",
        legions=(("Rd01", ("Angel", "Lion", "Minotaur", "Titan")), ("Rd02", ("Troll", "Troll"))),
    )
    assert game.player("Ann").eliminated
    assert not game.state.legions_of("Ann")
    assert (game.score("Bob"), game.score("Cy")) == (10, 20)  # no points for a withdrawal
    assert not game.of(events, ev.PointsScored)
    assert game.state.dead == {"Lion": 1, "Minotaur": 1, "Titan": 1, "Troll": 2}
    assert game.state.caretaker["Angel"] == 18  # lords return to the caretaker
    assert game.of(events, ev.TurnStarted) == [ev.TurnStarted(player="Bob", turn=2)]
    dealt = variant.options.markers_per_player  # 4.2: twelve; 21.3 TitanPlus: eight
    assert game.player("Bob").markers == tuple(f"Bu{i:02d}" for i in range(1, dealt + 1))


def test_wolff_20_4_withdraw_part_way_through_movement(game_at) -> None:
    """Wolff 20.4: a player part way through his movement may withdraw; his partial movement goes with him."""
    game = _three(game_at, "move")
    game.do(cmd.MoveLegion(player="Ann", marker="Rd02", land=36))
    events = game.do(cmd.Withdraw(player="Ann"))
    assert game.one(events, ev.PlayerWithdrew).legions[1] == ("Rd02", ("Troll", "Troll"))
    assert game.state.active == "Bob" and game.state.moves == ()


def test_wolff_20_4_no_withdrawal_in_the_engagement_phase(game_at) -> None:
    """Wolff 20.4: players may not withdraw during their engagement phase."""
    game = game_at(
        [
            ("Rd01", 3, "Titan Minotaur", True),
            ("Bu01", 300, "Titan Minotaur"),
            ("Bu02", 3, "Lion Minotaur"),
        ],
        phase="engage",
        roll=1,
    )
    game.refused(cmd.Withdraw(player="Ann"), "E-WITHDRAW")
    game.do(cmd.Engage(player="Ann", land=3))
    game.refused(cmd.Withdraw(player="Ann"), "E-WITHDRAW")
    game.refused(cmd.Withdraw(player="Bob"), "E-WITHDRAW")


def test_20_4_no_withdrawal_in_another_players_turn(game_at) -> None:
    """20.4/Wolff 20.4: a player may withdraw only at the set points of his own turn (or at colour choice)."""
    game = _three(game_at, "split")
    game.refused(cmd.Withdraw(player="Bob"), "E-WITHDRAW")
    game = _three(game_at, "muster")
    game.refused(cmd.Withdraw(player="Cy"), "E-WITHDRAW")


def test_wolff_19_0_withdrawal_leaving_one_player_ends_the_game(game_at) -> None:
    """Wolff 19.0/20.4: when a withdrawal leaves a single player, he wins and his legions become public."""
    game = game_at(
        [("Rd01", 34, "Titan Minotaur"), ("Bu01", 300, "Titan Minotaur"), ("Bu02", 3, "Lion")],
        phase="split",
    )
    events = game.do(cmd.Withdraw(player="Ann"))
    over = game.one(events, ev.GameOver)
    assert over == ev.GameOver(
        winner="Bob", legions=(("Bu01", ("Minotaur", "Titan")), ("Bu02", ("Lion",)))
    )
    assert game.state.step is Step.OVER
    assert refusal_command(game.state) is None


# -- refusal to play (Wolff 20.4) -----------------------------------------------------------------------


def _refuse_and_apply(game):
    """The refusal command is always a legal command: apply it and return it."""
    command = refusal_command(game.state)
    assert command is not None
    game.do(command)
    return command


def test_wolff_20_4_refusal_at_colour_choice_is_withdrawal(new_game) -> None:
    """Wolff 20.4/5.0: a refusing player to choose a colour withdraws."""
    game = new_game(["Ann", "Bob", "Cy"], [6, 3, 1])
    assert _refuse_and_apply(game) == cmd.Withdraw(player="Cy")
    assert game.player("Cy").eliminated


@pytest.mark.parametrize("phase", ["split", "move", "muster"])
def test_wolff_20_4_refusal_in_ones_turn_is_withdrawal(game_at, phase: str) -> None:
    """Wolff 20.4: withdrawal comes first in the refusal list, whenever it is legal (also part way through movement)."""
    game = _three(game_at, phase)
    if phase == "move":
        game.do(cmd.MoveLegion(player="Ann", marker="Rd02", land=36))
    assert _refuse_and_apply(game) == cmd.Withdraw(player="Ann")
    assert game.state.active == "Bob"


def _engaged(game_at, defender: str, others=()):
    game = game_at(
        [
            ("Rd01", 3, "Troll Troll", True),
            ("Rd02", 36, "Minotaur Minotaur", True),
            ("Rd03", 600, "Titan Angel"),
            ("Bu02", 3, defender),
            ("Bu03", 36, "Lion Lion"),
            *others,
        ],
        phase="engage",
        roll=1,
    )
    return game


def test_wolff_20_4_refusal_picks_the_lowest_engagement(game_at) -> None:
    """Wolff 20.4: a refusing mover chooses the engagement in the lowest numbered land next."""
    game = _engaged(game_at, "Lion Minotaur", [("Bu01", 300, "Titan Minotaur")])
    assert _refuse_and_apply(game) == cmd.Engage(player="Ann", land=3)
    assert game.state.engagement is not None and game.state.engagement.land == 3


def test_wolff_20_4_refusing_defender_flees_if_he_can(game_at) -> None:
    """Wolff 20.4: flight comes before concession in the refusal list."""
    game = _engaged(game_at, "Lion Minotaur", [("Bu01", 300, "Titan Minotaur")])
    game.do(cmd.Engage(player="Ann", land=3))
    assert _refuse_and_apply(game) == cmd.Flee(player="Bob")
    assert game.one(game.log, ev.EngagementResolved).how == "flight"


def test_wolff_20_4_refusing_defender_with_a_lord_concedes(game_at) -> None:
    """Wolff 20.4: a refusing defender who may not flee concedes the engagement."""
    game = _engaged(game_at, "Titan Minotaur")
    game.do(cmd.Engage(player="Ann", land=3))
    assert _refuse_and_apply(game) == cmd.Concede(player="Bob")


def test_wolff_20_4_refusing_attacker_concedes(game_at) -> None:
    """Wolff 20.4: a refusing attacker in the negotiation concedes."""
    game = _engaged(game_at, "Titan Minotaur")
    game.do(cmd.Engage(player="Ann", land=3))
    game.do(cmd.Propose(player="Bob", proposals=((("Troll", "Troll"), ()),)))
    assert _refuse_and_apply(game) == cmd.Concede(player="Ann")
    assert "Rd01" not in game.state.legions


def test_wolff_20_4_refusal_declines_summons_reinforcements_and_angels(game_at) -> None:
    """Wolff 20.4: a refusing player refuses the muster (summons, reinforcement) and the angel for points."""
    game = _engaged(game_at, "Gargoyle Gargoyle", [("Bu01", 300, "Titan Minotaur")])
    game.do(cmd.Engage(player="Ann", land=3))
    game.do(cmd.Propose(player="Bob", proposals=((("Troll", "Troll"), ()),)))
    game.do(cmd.Accept(player="Ann", number=1))
    assert game.state.step is Step.REINFORCE
    assert _refuse_and_apply(game) == cmd.Decline(player="Bob")
    assert game.legion("Bu02").height == 2
    # the next engagement: Bob's Lions concede; Ann could summon her Angel and earns one
    game.do(cmd.Engage(player="Ann", land=36))
    game.do(cmd.Concede(player="Bob"))
    assert game.state.step is Step.SUMMON
    assert _refuse_and_apply(game) == cmd.Decline(player="Ann")
    assert game.legion("Rd03").contents == ("Angel", "Titan")


def test_wolff_20_4_refusal_declines_an_earned_angel(game_at) -> None:
    """Wolff 20.4: a refusing player refuses an angel or archangel earned by points."""
    game = game_at(
        [
            ("Rd01", 3, "Troll Troll", True),
            ("Rd03", 600, "Titan Minotaur"),
            ("Bu01", 300, "Titan Minotaur"),
            ("Bu02", 3, "Angel Lion"),
        ],
        phase="engage",
        roll=1,
        scores={"Ann": 99},
    )
    game.do(cmd.Engage(player="Ann", land=3))
    game.do(cmd.Concede(player="Bob"))
    assert game.state.step is Step.ACQUIRE
    assert _refuse_and_apply(game) == cmd.Decline(player="Ann")
    assert "Angel" not in game.legion("Rd01").contents
