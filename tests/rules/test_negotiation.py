"""
Negotiation and concession (rules 9.3-9.5, 16.1, Wolff 9.3-9.5,
Complete Sequence 2.5.4-2.5.5).

Proposals are (attacker's losses, defender's losses).  Ann's Rd01
(Troll Troll Minotaur, 48 points) has moved onto Bob's Bu02 (Angel Lion Minotaur,
55 points; the Angel keeps Bob from fleeing) at land 3.
"""

from __future__ import annotations

import pytest

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.decide import decide
from moderator.rules.dice import NoDice
from moderator.rules.errors import RuleError
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.state import Step

A = ("Minotaur", "Troll", "Troll")  # the attacker, Rd01
D = ("Angel", "Lion", "Minotaur")  # the defender, Bu02
ANN_WINS = ((), D)
BOB_WINS = (A, ())
BOTH_DIE = (A, D)


def _negotiation(game_at, players=("Ann", "Bob")):
    legions = [
        ("Rd01", 3, " ".join(A), True),
        ("Rd02", 600, "Titan Minotaur"),
        ("Bu01", 300, "Titan Minotaur"),
        ("Bu02", 3, " ".join(D)),
    ]
    if "Cy" in players:
        legions.append(("Gr01", 100, "Titan Minotaur"))
    game = game_at(legions, players=players, phase="engage", roll=1)
    game.do(cmd.Engage(player="Ann", land=3))
    return game


def propose(player: str, *proposals) -> cmd.Propose:
    return cmd.Propose(player=player, proposals=tuple(proposals))


# -- who acts (Wolff 9.3, 2.5.4) --------------------------------------------------------------


def test_wolff_9_3_defender_acts_first(game_at) -> None:
    """Wolff 9.3/2.5.4.1: negotiation starts with the defender (after he declines to flee)."""
    game = _negotiation(game_at)
    assert to_act(game.state) == "Bob"
    game.refused(propose("Ann", ANN_WINS), "E-NOT-YOUR-TURN")
    game.refused(cmd.NoMore(player="Ann"), "E-NOT-YOUR-TURN")


def test_wolff_9_3_players_alternate(game_at) -> None:
    """Wolff 9.3: each player alternates taking an action."""
    game = _negotiation(game_at)
    game.do(propose("Bob", BOB_WINS))
    assert to_act(game.state) == "Ann"
    game.refused(propose("Bob", BOTH_DIE), "E-NOT-YOUR-TURN")
    game.do(propose("Ann", ANN_WINS))
    assert to_act(game.state) == "Bob"


def test_wolff_9_3_proposals_are_secret_between_the_two_players(game_at) -> None:
    """Wolff 9.3: negotiations are conducted in secret between the two involved players."""
    game = _negotiation(game_at, players=("Ann", "Bob", "Cy"))
    events = game.do(propose("Bob", BOB_WINS, BOTH_DIE))
    made = game.one(events, ev.ProposalsMade)
    assert made == ev.ProposalsMade(
        player="Bob",
        proposals=(BOB_WINS, BOTH_DIE),
        first_number=1,
        visible_to=frozenset({"Ann", "Bob"}),
    )
    events = game.do(propose("Ann", ANN_WINS))
    assert game.one(events, ev.ProposalsMade).first_number == 3


# -- what may be proposed (9.3, Wolff 9.3) ------------------------------------------------------


def test_9_3_agreement_eliminates_at_least_one_legion(game_at) -> None:
    """9.3/Wolff 9.3: every agreement must totally eliminate at least one side."""
    game = _negotiation(game_at)
    game.refused(propose("Bob", (("Troll",), ("Minotaur",))), "E-PROPOSAL")
    game.refused(propose("Bob", ((), ())), "E-PROPOSAL")
    game.refused(propose("Bob", BOB_WINS, (("Troll",), ("Minotaur",))), "E-PROPOSAL")  # whole set


def test_9_3_agreement_only_with_characters_present(game_at) -> None:
    """9.3: an agreement cannot involve characters not present in either legion."""
    game = _negotiation(game_at)
    game.refused(propose("Bob", ((), ("Angel", "Lion", "Minotaur", "Minotaur"))), "E-PROPOSAL")
    game.refused(propose("Bob", (("Dragon",), D)), "E-PROPOSAL")


def test_wolff_9_3_losing_the_titan_loses_the_whole_legion(game_at) -> None:
    """Wolff 9.3: an agreement that loses a player's Titan loses every other character of that legion too."""
    game = game_at(
        [
            ("Rd01", 3, "Titan Troll Troll", True),
            ("Bu01", 300, "Titan Minotaur"),
            ("Bu02", 3, "Angel Lion"),
        ],
        phase="engage",
        roll=1,
    )
    game.do(cmd.Engage(player="Ann", land=3))
    game.refused(propose("Bob", (("Titan",), ("Angel", "Lion"))), "E-PROPOSAL")
    game.refused(propose("Bob", (("Titan", "Troll"), ())), "E-PROPOSAL")
    game.do(propose("Bob", (("Titan", "Troll", "Troll"), ())))


def test_wolff_9_3_a_set_may_not_repeat_the_opponents_proposals(game_at) -> None:
    """Wolff 9.3: a set of proposals cannot include any proposal previously made by the other player."""
    game = _negotiation(game_at)
    game.do(propose("Bob", BOB_WINS))
    game.do(propose("Ann", ANN_WINS))
    error = game.refused(propose("Bob", BOTH_DIE, ANN_WINS), "E-PROPOSAL-REPEAT")
    assert "accept 2" in str(error)


def test_wolff_9_3_a_set_must_hold_a_new_proposal(game_at) -> None:
    """Wolff 9.3: a set must include at least one proposal its proposer has not made before."""
    game = _negotiation(game_at)
    game.do(propose("Bob", BOB_WINS))
    game.do(propose("Ann", ANN_WINS))
    game.refused(propose("Bob", BOB_WINS), "E-PROPOSAL-REPEAT")
    events = game.do(propose("Bob", BOB_WINS, BOTH_DIE))  # old ones may come again with a new one
    assert game.one(events, ev.ProposalsMade).proposals == (BOB_WINS, BOTH_DIE)


def test_wolff_9_3_order_inside_a_proposal_does_not_matter(game_at) -> None:
    """Wolff 9.3: a proposal names characters lost; listing them in another order is the same proposal."""
    game = _negotiation(game_at)
    game.do(propose("Bob", (("Troll", "Minotaur", "Troll"), ())))
    game.do(propose("Ann", ANN_WINS))
    game.refused(propose("Bob", (("Troll", "Troll", "Minotaur"), ())), "E-PROPOSAL-REPEAT")


def test_wolff_9_3_proposals_cannot_be_withdrawn(game_at) -> None:
    """Wolff 9.3: once made a proposal stands and may be accepted at any later step."""
    game = _negotiation(game_at)
    game.do(propose("Bob", ((("Troll",), D))))  # number 1
    game.do(propose("Ann", BOB_WINS))  # number 2
    game.do(propose("Bob", BOTH_DIE))  # number 3
    events = game.do(cmd.Accept(player="Ann", number=1))
    resolved = game.one(events, ev.EngagementResolved)
    assert (resolved.attacker_losses, resolved.defender_losses) == (("Troll",), D)


def test_wolff_9_3_only_the_opponents_proposals_can_be_accepted(game_at) -> None:
    """Wolff 9.3: a player accepts a proposal previously made by the other player."""
    game = _negotiation(game_at)
    game.do(propose("Bob", BOB_WINS))
    game.do(propose("Ann", ANN_WINS))
    game.refused(cmd.Accept(player="Bob", number=1), "E-ACCEPT")  # his own
    game.refused(cmd.Accept(player="Bob", number=3), "E-ACCEPT")  # none such
    game.refused(cmd.Accept(player="Bob", number=0), "E-ACCEPT")
    accepts = [c for c in legal_commands(game.state) if isinstance(c, cmd.Accept)]
    assert accepts == [cmd.Accept(player="Bob", number=2)]


# -- no more proposals (Wolff 9.3, 2.5.5) ---------------------------------------------------------


def test_wolff_9_3_no_more_proposals_leaves_accept_concede_or_fight(game_at) -> None:
    """Wolff 9.3/2.5.5: after one player declares no more proposals the other may accept, concede or fight."""
    game = _negotiation(game_at)
    game.do(propose("Bob", ((("Minotaur",), D))))
    events = game.do(cmd.NoMore(player="Ann"))
    assert game.one(events, ev.NoMoreProposals) == ev.NoMoreProposals(
        player="Ann", visible_to=frozenset({"Ann", "Bob"})
    )
    assert to_act(game.state) == "Bob"
    game.refused(propose("Bob", BOTH_DIE), "E-PROPOSAL")
    game.refused(cmd.NoMore(player="Bob"), "E-NO-MORE")
    kinds = {type(c) for c in legal_commands(game.state)} - {cmd.Fight}
    assert kinds == {cmd.Concede}  # nothing of Ann's to accept
    game.do(cmd.Concede(player="Bob"))


def test_complete_sequence_2_5_5_accept_after_no_more_proposals(game_at) -> None:
    """2.5.5: after no more proposals the other player may still accept an earlier proposal."""
    game = _negotiation(game_at)
    game.do(propose("Bob", BOB_WINS))
    game.do(propose("Ann", ANN_WINS))
    game.do(cmd.NoMore(player="Bob"))
    events = game.do(cmd.Accept(player="Ann", number=1))
    assert game.one(events, ev.EngagementResolved).winner == "Bu02"


@pytest.mark.needs(options={"battleland_choice": "fixed"})  # the battle starts without a die
def test_complete_sequence_2_5_5_fight_only_after_the_opponent_has_no_more(game_at) -> None:
    """2.5.5: a player may choose to fight only after his opponent declares no more proposals."""
    game = _negotiation(game_at)
    game.refused(cmd.Fight(player="Bob"), "E-FIGHT")
    game.do(propose("Bob", BOB_WINS))
    game.refused(cmd.Fight(player="Ann"), "E-FIGHT")
    game.do(cmd.NoMore(player="Ann"))
    # Now fighting is Bob's choice: refused only because battles are not implemented
    # (E-NO-BATTLES), or, once they are, accepted.
    try:
        events = decide(game.state, cmd.Fight(player="Bob"), NoDice())
    except RuleError as error:
        assert error.code == "E-NO-BATTLES"
    else:
        assert events and not game.of(events, ev.EngagementResolved)


# -- results (9.3-9.5, 16.1) -------------------------------------------------------------------------


def test_9_3_agreement_may_include_losses_to_the_winner(game_at) -> None:
    """9.3/16.1: an agreement may cost the winner characters; they do not count for scoring."""
    game = _negotiation(game_at)
    game.do(propose("Bob", (("Troll",), D)))
    events = game.do(cmd.Accept(player="Ann", number=1))
    assert game.one(events, ev.EngagementResolved) == ev.EngagementResolved(
        land=3,
        how="agreement",
        attacker_losses=("Troll",),
        defender_losses=D,
        winner="Rd01",
        points=55,
    )
    assert game.legion("Rd01").contents == ("Minotaur", "Troll")
    assert "Bu02" not in game.state.legions
    assert game.score("Ann") == 55 and game.score("Bob") == 0
    assert game.state.dead == {"Lion": 1, "Minotaur": 1, "Troll": 1}
    assert game.state.caretaker["Angel"] == 18 - 0  # 2.5.6.10: the slain Angel regenerates
    assert game.state.step is Step.MUSTER


def test_wolff_9_5_losses_are_public_but_not_the_winner(game_at) -> None:
    """Wolff 9.5/9.1: which legion lost which characters is public; the victor is not revealed."""
    game = _negotiation(game_at, players=("Ann", "Bob", "Cy"))
    game.do(propose("Bob", (("Troll",), D)))
    events = game.do(cmd.Accept(player="Ann", number=1))
    resolved = game.one(events, ev.EngagementResolved)
    assert resolved.visible_to is None
    assert resolved.attacker_losses == ("Troll",) and resolved.defender_losses == D
    assert not game.legion("Rd01").known_by("Cy")
    assert game.legion("Rd01").known_by("Bob")


def test_16_1_mutual_elimination_scores_nothing(game_at) -> None:
    """9.3/16.1: an agreement for mutual elimination awards no points to either player."""
    game = _negotiation(game_at)
    game.do(propose("Bob", BOTH_DIE))
    events = game.do(cmd.Accept(player="Ann", number=1))
    resolved = game.one(events, ev.EngagementResolved)
    assert (resolved.winner, resolved.points) == (None, 0)
    assert not game.of(events, ev.PointsScored)
    assert "Rd01" not in game.state.legions and "Bu02" not in game.state.legions
    assert game.score("Ann") == 0 and game.score("Bob") == 0


def test_9_4_concession_scores_the_full_value(game_at) -> None:
    """9.4/16.1: the conceding legion is eliminated and the winner scores its full value."""
    game = _negotiation(game_at)
    events = game.do(cmd.Concede(player="Bob"))  # even as his first act
    assert game.one(events, ev.EngagementResolved) == ev.EngagementResolved(
        land=3, how="concession", attacker_losses=(), defender_losses=D, winner="Rd01", points=55
    )
    assert game.score("Ann") == 55
    assert game.legion("Rd01").contents == A  # 9.4: the victor suffers no further losses


def test_9_4_attacker_may_concede_in_turn(game_at) -> None:
    """9.4/2.5.4.2: the attacker may concede when it is his turn to act; the defender scores in full."""
    game = _negotiation(game_at)
    game.do(propose("Bob", BOB_WINS))
    events = game.do(cmd.Concede(player="Ann"))
    resolved = game.one(events, ev.EngagementResolved)
    assert (resolved.how, resolved.winner, resolved.points) == ("concession", "Bu02", 48)
    assert resolved.attacker_losses == A and resolved.defender_losses == ()
    assert game.score("Bob") == 48
    assert "Rd01" not in game.state.legions


def test_9_3_agreements_are_binding(game_at) -> None:
    """9.3: an accepted agreement ends the engagement; nothing more can be negotiated."""
    game = _negotiation(game_at)
    game.do(propose("Bob", BOB_WINS))
    game.do(cmd.Accept(player="Ann", number=1))
    assert game.state.engagement is None
    game.refused(propose("Bob", ANN_WINS), "E-NOT-NOW")
    game.refused(cmd.Concede(player="Ann"), "E-NOT-NOW")


def test_complete_sequence_2_5_4_legal_actions_in_negotiation(game_at) -> None:
    """2.5.4: the defender may propose, concede, accept the attacker's proposals or declare no more."""
    game = _negotiation(game_at)
    legal = legal_commands(game.state)
    assert {type(c) for c in legal} == {cmd.Propose, cmd.Concede, cmd.NoMore}
    plain = {c.proposals[0] for c in legal if isinstance(c, cmd.Propose)}
    assert plain == {ANN_WINS, BOB_WINS, BOTH_DIE}
    game.do(propose("Bob", BOB_WINS))
    legal = legal_commands(game.state)
    assert cmd.Accept(player="Ann", number=1) in legal
    assert not any(isinstance(c, cmd.Propose) and c.proposals == (BOB_WINS,) for c in legal)
