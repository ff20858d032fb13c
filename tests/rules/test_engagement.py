"""
Entering engagements and resolving them by flight: entry sides, changing
moves, the order of engagements, the look at the other legion, fleeing
(rules 6.3, 7.0, 9.0-9.2, 16.1, Wolff 7.0, 9.1, 9.2, Complete Sequence 2.3-2.5.3).
"""

from __future__ import annotations

import pytest

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.state import Step


def move(marker: str, land: int, **kw) -> cmd.MoveLegion:
    return cmd.MoveLegion(player="Ann", marker=marker, land=land, **kw)


# -- entry sides (Complete Sequence 2.3, Wolff 7.0) ---------------------------------------------


def _two_sided(game_at):
    """From plains 1 on a 4, tundra 4000 is reached from 3000 (left) or from 5000 (right)."""
    return game_at([("Rd01", 1, "Titan Minotaur"), ("Bu01", 4000, "Titan Minotaur")], roll=4)


def test_complete_sequence_2_3_entry_side_declared_when_moving(game_at) -> None:
    """2.3: the entry side of every engagement is decided during movement."""
    game = _two_sided(game_at)
    events = game.do(move("Rd01", 4000, entry="right"))
    moved = game.one(events, ev.LegionMoved)
    assert (moved.entry, moved.entry_roll) == ("right", None)
    assert game.state.moves[-1].entry == "right"


def test_wolff_7_0_undeclared_entry_side_is_drawn_at_random(game_at) -> None:
    """Wolff 7.0: an undeclared side is drawn uniformly among the legal sides, and the roll recorded."""
    game = _two_sided(game_at)
    moved = game.one(game.do(move("Rd01", 4000), 2), ev.LegionMoved)
    assert (moved.entry, moved.entry_roll) == ("left", 2)
    game = _two_sided(game_at)
    moved = game.one(game.do(move("Rd01", 4000), 4), ev.LegionMoved)
    assert (moved.entry, moved.entry_roll) == ("right", 4)


def test_wolff_7_0_entry_side_must_be_legal(game_at) -> None:
    """Wolff 2.2/7.0: only a side the legion could actually enter by may be declared."""
    game = _two_sided(game_at)
    error = game.refused(move("Rd01", 4000, entry="bottom"), "E-ENTRY")
    assert "left, right" in str(error)


def test_wolff_7_0_single_legal_side_needs_no_roll(game_at) -> None:
    """Wolff 7.0: with only one legal side there is nothing to draw."""
    game = game_at([("Rd01", 100, "Titan Minotaur"), ("Bu01", 3, "Titan Minotaur")], roll=3)
    moved = game.one(game.do(move("Rd01", 3)), ev.LegionMoved)  # NoDice: it may not roll
    assert (moved.entry, moved.entry_roll) == ("right", None)


def test_complete_sequence_2_3_no_side_without_engagement(game_at) -> None:
    """2.3: entry sides are for engagements; a move onto a vacant land takes none."""
    game = game_at([("Rd01", 100, "Titan Minotaur"), ("Bu01", 300, "Titan Minotaur")], roll=3)
    game.refused(move("Rd01", 5, entry="left"), "E-ENTRY")
    moved = game.one(game.do(move("Rd01", 5)), ev.LegionMoved)
    assert moved.entry is None


# -- changing moves (Wolff 7.0) ------------------------------------------------------------------


def _three_moved(game_at):
    game = game_at(
        [
            ("Rd01", 100, "Titan Minotaur"),
            ("Rd02", 30, "Minotaur Minotaur"),
            ("Rd03", 20, "Lion Lion"),
            ("Bu01", 300, "Titan Minotaur"),
        ],
        roll=1,
    )
    game.do(move("Rd01", 3))
    game.do(move("Rd02", 31))
    game.do(move("Rd03", 21))
    return game


def test_wolff_7_0_changing_a_move_undoes_every_later_move(game_at) -> None:
    """Wolff 7.0: to adjust a move the player must undo all moves made after it."""
    game = _three_moved(game_at)
    events = game.do(cmd.UndoMove(player="Ann", marker="Rd02"))
    assert list(events) == [
        ev.MoveUndone(marker="Rd03", back_to=20),
        ev.MoveUndone(marker="Rd02", back_to=30),
    ]
    assert [m.marker for m in game.state.moves] == ["Rd01"]
    assert (game.legion("Rd02").land, game.legion("Rd02").moved) == (30, False)
    assert (game.legion("Rd03").land, game.legion("Rd03").moved) == (20, False)
    assert game.legion("Rd01").land == 3
    game.do(move("Rd02", 35))  # and move it differently
    assert game.legion("Rd02").land == 35


def test_wolff_7_0_undo_without_a_legion_takes_back_the_last_move(game_at) -> None:
    """Wolff 7.0/Etiquette 13: moves may be retracted, latest first, until the movement phase ends."""
    game = _three_moved(game_at)
    events = game.do(cmd.UndoMove(player="Ann"))
    assert list(events) == [ev.MoveUndone(marker="Rd03", back_to=20)]


def test_wolff_7_0_undo_needs_a_move_to_undo(game_at) -> None:
    """Wolff 7.0: only moves made this turn can be undone."""
    game = game_at(
        [
            ("Rd01", 100, "Titan Minotaur"),
            ("Rd02", 30, "Minotaur Minotaur"),
            ("Bu01", 300, "Titan"),
        ],
        roll=1,
    )
    game.refused(cmd.UndoMove(player="Ann"), "E-UNDO")
    game.do(move("Rd01", 3))
    game.refused(cmd.UndoMove(player="Ann", marker="Rd02"), "E-UNDO")


def test_wolff_7_0_moves_fixed_once_the_next_phase_begins(game_at) -> None:
    """Wolff 7.0: once the movement phase is over (e.g. an engagement begins) moves are fixed."""
    game = game_at([("Rd01", 100, "Titan Minotaur"), ("Bu01", 3, "Titan Minotaur")], roll=1)
    game.do(move("Rd01", 3))
    game.do(cmd.Done(player="Ann"))
    game.refused(cmd.UndoMove(player="Ann", marker="Rd01"), "E-NOT-NOW")
    game.do(cmd.Engage(player="Ann", land=3))
    game.refused(cmd.UndoMove(player="Ann", marker="Rd01"), "E-NOT-NOW")


# -- choosing engagements (6.3, 9.1, Wolff 9.1) ---------------------------------------------------


def _two_engagements(game_at, players=("Ann", "Bob")):
    game = game_at(
        [
            ("Rd01", 100, "Titan Minotaur"),
            ("Rd02", 30, "Troll Troll"),
            ("Bu01", 3, "Titan Minotaur"),
            ("Bu03", 35, "Lion Minotaur"),
            *([("Gr01", 200, "Titan Minotaur")] if "Cy" in players else []),
        ],
        players=players,
        roll=1,
    )
    game.do(move("Rd01", 3))
    game.do(move("Rd02", 35))
    game.do(cmd.Done(player="Ann"))
    return game


def test_wolff_9_1_mover_picks_each_next_engagement(game_at) -> None:
    """Wolff 9.1/6.3: the mover picks which engagement to resolve next, one at a time, in any order."""
    game = _two_engagements(game_at)
    assert game.state.step is Step.ENGAGE
    assert {c.land for c in legal_commands(game.state) if isinstance(c, cmd.Engage)} == {3, 35}
    events = game.do(cmd.Engage(player="Ann", land=35))  # not the lowest first
    assert game.one(events, ev.EngagementStarted) == ev.EngagementStarted(
        land=35, attacker="Rd02", defender="Bu03"
    )
    game.refused(cmd.Engage(player="Ann", land=3), "E-NOT-NOW")  # 6.3: one at a time
    game.do(cmd.Flee(player="Bob"))
    assert game.state.step is Step.ENGAGE
    assert game.state.engagement_lands() == [3]
    game.do(cmd.Engage(player="Ann", land=3))
    assert game.state.engagement is not None and game.state.engagement.land == 3


def test_6_3_every_engagement_resolved_before_mustering(game_at) -> None:
    """6.3: every engagement must be resolved; the turn cannot move on with one pending."""
    game = _two_engagements(game_at)
    game.refused(cmd.Done(player="Ann"), "E-NOT-NOW")
    game.refused(cmd.Muster(player="Ann", marker="Rd02", creature="Troll"), "E-NOT-NOW")


def test_9_1_engagements_are_chosen_only_by_the_mover_and_only_where_they_are(game_at) -> None:
    """9.1/2.5: only the mover starts engagements, and only on lands where they exist."""
    game = _two_engagements(game_at)
    game.refused(cmd.Engage(player="Bob", land=3), "E-NOT-YOUR-TURN")
    game.refused(cmd.Engage(player="Ann", land=4), "E-ENGAGE")


# -- the look (2.5.1, 2.5.2, 9.1) -----------------------------------------------------------------


def test_complete_sequence_2_5_1_both_legions_shown_only_to_the_two_players(game_at) -> None:
    """2.5.1/2.5.2/9.1: the attacker looks at the defender, then the defender at the attacker; nobody else sees."""
    game = _two_engagements(game_at, players=("Ann", "Bob", "Cy"))
    events = game.do(cmd.Engage(player="Ann", land=3))
    looks = game.of(events, ev.LegionRevealed)
    assert [(e.marker, e.contents) for e in looks] == [
        ("Bu01", ("Minotaur", "Titan")),
        ("Rd01", ("Minotaur", "Titan")),
    ]
    assert all(e.visible_to == frozenset({"Ann", "Bob"}) for e in looks)
    for marker in ("Rd01", "Bu01"):
        legion = game.legion(marker)
        assert legion.known_by("Ann") and legion.known_by("Bob")
        assert not legion.known_by("Cy") and not legion.known_by(None)
    assert not game.legion("Bu03").known_by("Ann")  # the other engagement is not looked at yet
    assert game.state.step is Step.NEGOTIATE
    assert to_act(game.state) == "Bob"


# -- flight (9.2, 16.1) -----------------------------------------------------------------------------


ANN_AND_BOB = [
    ("Rd01", 3, "Titan Troll", True),
    ("Rd02", 30, "Angel Minotaur"),
    ("Bu01", 300, "Titan Minotaur"),
]


def _engaged(game_at, defender: str = "Lion Minotaur", others=ANN_AND_BOB, **kw):
    """Ann's Rd01 has moved onto Bob's Bu02 at 3; the engagement has begun."""
    game = game_at([*others, ("Bu02", 3, defender)], phase="engage", roll=1, **kw)
    game.do(cmd.Engage(player="Ann", land=3))
    return game


def test_9_2_defender_flees_for_half_points_rounded_down(game_at) -> None:
    """9.2/16.1: a fleeing defender is eliminated; the attacker scores half its value, rounded down."""
    game = _engaged(game_at)  # Lion 15 + Minotaur 16 = 31
    assert cmd.Flee(player="Bob") in legal_commands(game.state)
    events = game.do(cmd.Flee(player="Bob"))
    assert game.one(events, ev.EngagementResolved) == ev.EngagementResolved(
        land=3,
        how="flight",
        attacker_losses=(),
        defender_losses=("Lion", "Minotaur"),
        winner="Rd01",
        points=15,
    )
    assert game.one(events, ev.PointsScored) == ev.PointsScored(
        player="Ann", points=15, multiples=()
    )
    assert game.score("Ann") == 15
    assert "Bu02" not in game.state.legions
    assert game.legion("Rd01").contents == ("Titan", "Troll")  # 9.2: no losses
    assert game.state.dead == {"Lion": 1, "Minotaur": 1}


@pytest.mark.parametrize("lord", ["Angel", "Archangel", "Titan"])
def test_9_2_defender_with_a_lord_cannot_flee(game_at, lord: str) -> None:
    """9.2: a defending legion containing a lord (Titan, Angel, Archangel) cannot flee."""
    others = ANN_AND_BOB if lord != "Titan" else [("Rd01", 3, "Titan Troll", True)]
    game = _engaged(game_at, defender=f"{lord} Minotaur", others=others)
    error = game.refused(cmd.Flee(player="Bob"), "E-FLEE")
    assert "lord" in str(error)
    assert not any(isinstance(c, cmd.Flee) for c in legal_commands(game.state))


def test_9_2_demi_lords_do_not_stop_flight(game_at) -> None:
    """9.2/3.2: guardians and warlocks are demi-lords, not lords: their legion may flee."""
    game = _engaged(game_at, defender="Guardian Warlock")
    events = game.do(cmd.Flee(player="Bob"))
    assert game.one(events, ev.EngagementResolved).points == (24 + 20) // 2
    assert game.state.caretaker["Guardian"] == 6  # 2.5.6.10: demi-lords regenerate
    assert game.state.caretaker["Warlock"] == 6


def test_9_2_flight_only_as_the_defenders_first_act(game_at) -> None:
    """9.2: once the defender has proposed an agreement he may not flee."""
    game = _engaged(game_at)
    game.do(cmd.Propose(player="Bob", proposals=((("Titan", "Troll"), ()),)))
    game.do(cmd.Propose(player="Ann", proposals=(((), ("Lion", "Minotaur")),)))
    game.refused(cmd.Flee(player="Bob"), "E-FLEE")
    assert not any(isinstance(c, cmd.Flee) for c in legal_commands(game.state))


def test_9_2_attacker_cannot_flee(game_at) -> None:
    """9.2: the attacker cannot flee."""
    game = _engaged(game_at)
    game.do(cmd.Propose(player="Bob", proposals=((("Titan", "Troll"), ()),)))
    game.refused(cmd.Flee(player="Ann"), "E-FLEE")


def test_wolff_9_2_defender_may_flee_before_the_attacker_can_concede(game_at) -> None:
    """Wolff 9.2/2.5.3: the defender's option to flee comes before the attacker may concede."""
    game = _engaged(game_at)
    game.refused(cmd.Concede(player="Ann"), "E-NOT-YOUR-TURN")
    game.refused(
        cmd.Propose(player="Ann", proposals=(((), ("Lion", "Minotaur")),)), "E-NOT-YOUR-TURN"
    )
    game.do(cmd.Flee(player="Bob"))


def test_15_2_no_summoning_after_flight(game_at) -> None:
    """15.2: if the defender flees, the attacker may not summon an angel."""
    game = _engaged(game_at)
    events = game.do(cmd.Flee(player="Bob"))
    assert not any(isinstance(e, ev.DecisionAwaited) for e in events)
    assert game.legion("Rd02").contents == ("Angel", "Minotaur")
    assert game.state.step is Step.MUSTER


def test_wolff_9_1_winner_not_revealed_after_flight(game_at) -> None:
    """Wolff 9.1: after flight the victorious legion is not revealed to all the players."""
    cy = ("Gr01", 100, "Titan Minotaur")
    game = _engaged(game_at, others=[*ANN_AND_BOB, cy], players=("Ann", "Bob", "Cy"))
    events = game.do(cmd.Flee(player="Bob"))
    resolved = game.one(events, ev.EngagementResolved)
    assert resolved.visible_to is None  # the losses are public (Wolff 9.5)
    assert not game.legion("Rd01").known_by("Cy")
    assert not any(isinstance(e, ev.LegionRevealed) and e.visible_to is None for e in events)


def test_4_4_eliminated_legions_marker_returns_to_its_owner(game_at) -> None:
    """4.4/9.5: a legion that loses all its characters is eliminated; its owner may use its marker again."""
    game = _engaged(game_at)
    assert "Bu02" not in game.state.free_markers("Bob")
    game.do(cmd.Flee(player="Bob"))
    assert "Bu02" in game.state.free_markers("Bob")
    assert game.state.free_markers("Bob")[0] == "Bu02"
