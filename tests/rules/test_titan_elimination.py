"""
A Titan slain by agreement or concession: the player's elimination,
half points, markers and the end of the game (rules 4.6, 9.4, 19.0-19.4,
Wolff 4.6, 15.3, 17.0, 19.0, 19.3, 19.4, Complete Sequence 2.5.6.8-2.5.6.10, 3).

A Titan's value is its power (6 + score // 100) times skill 4: 24 at a score under 100.
"""

from __future__ import annotations

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.state import Step

BOB_MARKERS = tuple(f"Bu{i:02d}" for i in range(1, 13))


def _kill_bobs_titan(game_at, extra=(), players=("Ann", "Bob", "Cy"), **kw):
    """Ann's Rd01 (Troll Troll Ogre) has moved onto Bob's Titan legion Bu01 (Titan Ogre) at 3."""
    cy = [("Gr01", 100, "Titan Ogre")] if "Cy" in players else []
    game = game_at(
        [
            ("Rd01", 3, "Troll Troll Ogre", True),
            ("Rd03", 600, "Titan Ogre"),
            ("Bu01", 3, "Titan Ogre"),
            *cy,
            *extra,
        ],
        players=players,
        phase="engage",
        roll=1,
        **kw,
    )
    game.do(cmd.Engage(player="Ann", land=3))
    return game


def test_19_4_titan_slain_by_concession_eliminates_its_player(game_at) -> None:
    """9.4/19.4: conceding the Titan's legion eliminates the player; his other legions are removed for half points to whoever they were engaged with, else the slayer; the slayer takes his markers."""
    game = _kill_bobs_titan(
        game_at,
        extra=[
            ("Rd02", 35, "Lion Lion", True),
            ("Bu02", 35, "Lion"),  # engaged with Ann's Rd02, still unresolved
            ("Bu03", 20, "Lion"),
            ("Bu04", 21, "Angel Lion"),
        ],
    )
    events = game.do(cmd.Concede(player="Bob"))
    assert game.one(events, ev.PointsScored) == ev.PointsScored(
        player="Ann", points=24 + 12, multiples=()
    )
    gone = game.one(events, ev.PlayerEliminated)
    assert gone == ev.PlayerEliminated(
        player="Bob",
        slayer="Ann",
        legions=(("Bu02", ("Lion",)), ("Bu03", ("Lion",)), ("Bu04", ("Angel", "Lion"))),
        # Wolff 19.4: (15 + 15 + 39) // 2 once, not 7 + 7 + 19 legion by legion
        half_points=(("Ann", 34),),
        markers_to="Ann",
    )
    assert gone.visible_to is None  # Wolff 19.4: the eliminated legions become public
    assert game.score("Ann") == 36 + 34
    assert game.player("Bob").eliminated
    assert not game.state.legions_of("Bob")
    assert game.player("Ann").markers[-12:] == BOB_MARKERS  # Wolff 4.6
    assert game.player("Bob").markers == ()
    assert game.state.dead == {"Titan": 1, "Ogre": 1, "Lion": 3}
    assert game.state.caretaker["Angel"] == 18 - 0  # Bu04's Angel regenerates
    assert game.state.engagement_lands() == []  # the engagement at 35 is gone with Bu02
    assert game.state.step is Step.MUSTER
    assert game.replayed() == game.state


def test_wolff_19_4_mover_may_still_muster_with_legions_that_were_engaged(game_at) -> None:
    """Wolff 19.4: the mover may still muster with a legion that was engaged with the eliminated player's legion."""
    game = _kill_bobs_titan(game_at, extra=[("Rd02", 35, "Lion Lion", True), ("Bu02", 35, "Lion")])
    game.do(cmd.Concede(player="Bob"))
    events = game.do(cmd.Muster(player="Ann", marker="Rd02", creature="Lion"))
    assert game.one(events, ev.CreatureMustered).creature == "Lion"


def test_19_3_titan_value_grows_with_its_players_score(game_at) -> None:
    """19.1/19.3: the slain Titan is worth its current power times its skill of 4."""
    game = _kill_bobs_titan(game_at, scores={"Bob": 250})
    events = game.do(cmd.Concede(player="Bob"))
    assert game.one(events, ev.PointsScored).points == 8 * 4 + 12


def test_19_4_slain_attackers_legions_go_to_the_players_they_engaged(game_at) -> None:
    """19.4: when the mover's Titan falls his legions engaged with third players score half to those players, the rest to the slayer."""
    game = game_at(
        [
            ("Rd01", 3, "Titan Ogre", True),
            ("Rd02", 35, "Lion Ogre", True),
            ("Rd03", 20, "Lion Lion"),
            ("Bu01", 300, "Titan Ogre"),
            ("Bu02", 3, "Troll Troll"),
            ("Gr01", 100, "Titan Ogre"),
            ("Gr02", 35, "Ogre Ogre"),
        ],
        players=("Ann", "Bob", "Cy"),
        phase="engage",
        roll=1,
    )
    game.do(cmd.Engage(player="Ann", land=3))
    game.do(cmd.Propose(player="Bob", proposals=((("Ogre", "Titan"), ()),)))
    events = game.do(cmd.Accept(player="Ann", number=1))
    assert game.one(events, ev.PointsScored) == ev.PointsScored(
        player="Bob", points=36, multiples=()
    )
    gone = game.one(events, ev.PlayerEliminated)
    assert (gone.player, gone.slayer, gone.markers_to) == ("Ann", "Bob", "Bob")
    assert gone.half_points == (("Bob", 15), ("Cy", 13))
    assert (game.score("Bob"), game.score("Cy")) == (36 + 15, 13)
    # the mover is out: the next player's turn begins at once
    assert game.of(events, ev.TurnStarted) == [ev.TurnStarted(player="Bob", turn=2)]
    assert game.state.active == "Bob" and game.state.step is Step.SPLIT


def test_wolff_19_3_mutual_elimination_with_one_titan(game_at) -> None:
    """Wolff 19.3/19.4: in a mutual elimination where one Titan dies, the other player gets the half points and the markers, though no points for the engagement."""
    own = [f"Bu{i:02d}" for i in range(1, 13)]
    game = game_at(
        [
            ("Rd01", 3, "Troll Troll", True),
            ("Rd03", 600, "Titan Ogre"),
            ("Bu01", 3, "Titan Ogre"),
            ("Bu03", 20, "Lion"),
        ],
        players=("Ann", "Bob", "Cy"),
        eliminated=("Cy",),
        markers={"Bob": [*own, "Gr01", "Gr02"]},  # Bob took Cy's markers earlier
        phase="engage",
        roll=1,
    )
    game.do(cmd.Engage(player="Ann", land=3))
    game.do(cmd.Propose(player="Bob", proposals=((("Troll", "Troll"), ("Ogre", "Titan")),)))
    events = game.do(cmd.Accept(player="Ann", number=1))
    resolved = game.one(events, ev.EngagementResolved)
    assert (resolved.winner, resolved.points) == (None, 0)
    assert len(game.of(events, ev.PointsScored)) == 0
    gone = game.one(events, ev.PlayerEliminated)
    assert (gone.player, gone.slayer, gone.half_points, gone.markers_to) == (
        "Bob",
        "Ann",
        (("Ann", 7),),
        "Ann",
    )
    assert game.score("Ann") == 7
    assert {"Gr01", "Gr02", "Bu12"} <= set(game.player("Ann").markers)  # Wolff 4.6
    # two players were left, Bob is out: Ann wins
    over = game.one(events, ev.GameOver)
    assert over.winner == "Ann"


def test_wolff_19_4_two_titans_slain_score_nothing_and_pass_no_markers(game_at) -> None:
    """Wolff 19.3/19.4: when both Titans die neither eliminated player scores, even for legions engaged with each other; legions engaged with a third player still score him half; nobody takes markers."""
    game = game_at(
        [
            ("Rd01", 3, "Titan Ogre", True),
            ("Rd02", 35, "Lion Ogre", True),
            ("Rd03", 20, "Lion Lion"),
            ("Rd04", 36, "Ogre Ogre", True),
            ("Bu01", 3, "Titan Ogre"),
            ("Bu03", 21, "Lion"),
            ("Bu04", 36, "Lion"),
            ("Gr01", 100, "Titan Ogre"),
            ("Gr02", 35, "Ogre Ogre"),
        ],
        players=("Ann", "Bob", "Cy"),
        phase="engage",
        roll=1,
    )
    game.do(cmd.Engage(player="Ann", land=3))
    game.do(cmd.Propose(player="Bob", proposals=((("Ogre", "Titan"), ("Ogre", "Titan")),)))
    events = game.do(cmd.Accept(player="Ann", number=1))
    gone = game.of(events, ev.PlayerEliminated)
    assert [(g.player, g.slayer, g.markers_to) for g in gone] == [
        ("Ann", None, None),
        ("Bob", None, None),
    ]
    assert gone[-1].half_points == (("Cy", 13),)  # only Ann's Rd02, engaged with Cy
    assert (game.score("Ann"), game.score("Bob"), game.score("Cy")) == (0, 0, 13)
    assert game.player("Cy").markers == tuple(f"Gr{i:02d}" for i in range(1, 13))
    over = game.one(events, ev.GameOver)
    assert over.winner == "Cy"
    assert over.legions == (("Gr01", ("Ogre", "Titan")), ("Gr02", ("Ogre", "Ogre")))


def test_wolff_17_0_angel_decided_before_eliminated_legions_are_revealed(game_at) -> None:
    """Wolff 17.0/19.4, 2.5.6.8 before 2.5.6.9: the earned angel is taken or refused before the eliminated player's legions are revealed."""
    game = _kill_bobs_titan(
        game_at, extra=[("Bu02", 20, "Lion")], players=("Ann", "Bob"), scores={"Ann": 90}
    )
    events = game.do(cmd.Concede(player="Bob"))
    assert game.one(events, ev.DecisionAwaited) == ev.DecisionAwaited(player="Ann", what="angel")
    assert not game.of(events, ev.PlayerEliminated)
    assert "Bu02" in game.state.legions
    events = game.do(cmd.TakeAngel(player="Ann", lord="Angel"))
    kinds = [type(e) for e in events]
    assert kinds.index(ev.AngelAcquired) < kinds.index(ev.PlayerEliminated)
    assert "Angel" in game.legion("Rd01").contents


def test_19_4_half_points_bring_no_angels(game_at) -> None:
    """19.4: the half points for an eliminated player's legions raise the score but add no angels."""
    game = _kill_bobs_titan(
        game_at,
        extra=[("Bu02", 20, "Colossus Colossus Serpent Serpent")],
        scores={"Ann": 95},
    )
    events = game.do(cmd.Concede(player="Bob"))  # 95 + 36 = 131: one angel
    game.do(cmd.Decline(player="Ann"))
    assert game.score("Ann") == 131 + 152 // 2  # 207: past 200, but no second angel
    assert len(game.of(game.log, ev.DecisionAwaited)) == 1
    assert len(game.of(events, ev.DecisionAwaited)) == 1
    assert game.state.step is Step.MUSTER


def test_wolff_15_3_no_summons_from_a_legion_engaged_with_the_doomed_player(game_at) -> None:
    """Wolff 15.3/19.4: the eliminated Titan's other legions go after the summons, so an angel engaged with one cannot be summoned."""
    game = _kill_bobs_titan(game_at, extra=[("Rd02", 35, "Angel Ogre", True), ("Bu02", 35, "Lion")])
    events = game.do(cmd.Concede(player="Bob"))
    assert not game.of(events, ev.DecisionAwaited)
    assert game.legion("Rd02").contents == ("Angel", "Ogre")


def test_wolff_19_0_game_ends_when_one_player_is_left(game_at) -> None:
    """Wolff 19.0/Complete Sequence 3: the game ends after the final engagement; the winner's legions become public and no muster follows."""
    game = _kill_bobs_titan(
        game_at, extra=[("Rd02", 20, "Lion Lion", True)], players=("Ann", "Bob")
    )
    events = game.do(cmd.Concede(player="Bob"))
    over = game.one(events, ev.GameOver)
    assert over == ev.GameOver(
        winner="Ann",
        legions=(
            ("Rd01", ("Ogre", "Troll", "Troll")),
            ("Rd02", ("Lion", "Lion")),
            ("Rd03", ("Ogre", "Titan")),
        ),
    )
    assert over.visible_to is None
    assert all(lg.known_by(None) for lg in game.state.legions.values())
    assert game.state.step is Step.OVER and game.state.winner == "Ann"
    assert to_act(game.state) is None and legal_commands(game.state) == []
    assert game.score("Ann") == 36  # the final engagement was still scored
    game.refused(cmd.Muster(player="Ann", marker="Rd02", creature="Lion"), "E-GAME-OVER")
    game.refused(cmd.Done(player="Ann"), "E-GAME-OVER")


def test_wolff_19_0_winner_still_takes_the_last_angel(game_at) -> None:
    """Wolff 19.0: the game ends only after the final engagement, so the winner still acquires angels for it."""
    game = _kill_bobs_titan(game_at, players=("Ann", "Bob"), scores={"Ann": 90})
    events = game.do(cmd.Concede(player="Bob"))
    assert not game.of(events, ev.GameOver)
    events = game.do(cmd.TakeAngel(player="Ann", lord="Angel"))
    over = game.one(events, ev.GameOver)
    assert ("Rd01", ("Angel", "Ogre", "Troll", "Troll")) in over.legions


def test_9_4_a_player_may_concede_with_his_titan_legion_as_attacker(game_at) -> None:
    """9.4: a player may concede with any legion, his Titan's included, which eliminates him."""
    game = game_at(
        [
            ("Rd01", 3, "Titan Ogre", True),
            ("Bu01", 300, "Titan Ogre"),
            ("Bu02", 3, "Angel Lion"),
        ],
        phase="engage",
        roll=1,
    )
    game.do(cmd.Engage(player="Ann", land=3))
    game.do(cmd.NoMore(player="Bob"))
    events = game.do(cmd.Concede(player="Ann"))
    assert game.one(events, ev.PointsScored) == ev.PointsScored(
        player="Bob", points=36, multiples=()
    )
    assert game.one(events, ev.PlayerEliminated).slayer == "Bob"
    assert game.one(events, ev.GameOver).winner == "Bob"


def test_wolff_19_0_both_last_titans_slain_ends_the_game_without_a_winner(game_at) -> None:
    """Wolff 19.0: the game ends when zero or one players are left; with none left there is no winner."""
    game = game_at(
        [("Rd01", 3, "Titan Ogre", True), ("Bu01", 3, "Titan Lion"), ("Bu02", 20, "Lion")],
        phase="engage",
        roll=1,
    )
    game.do(cmd.Engage(player="Ann", land=3))
    game.do(cmd.Propose(player="Bob", proposals=((("Ogre", "Titan"), ("Lion", "Titan")),)))
    events = game.do(cmd.Accept(player="Ann", number=1))
    assert game.one(events, ev.GameOver) == ev.GameOver(winner=None, legions=())
    assert game.state.legions == {}
    assert (game.score("Ann"), game.score("Bob")) == (0, 0)
    assert game.state.step is Step.OVER and game.state.winner is None
