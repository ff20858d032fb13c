"""Setting up: tower rolls, colours, initial legions and the turn order (Complete Sequence 1.x, 2)."""

from __future__ import annotations

import pytest

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules import setup
from moderator.rules.dice import ScriptedDice
from moderator.rules.errors import RuleError
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.state import Step

EIGHT = ("Angel", "Centaur", "Centaur", "Gargoyle", "Gargoyle", "Ogre", "Ogre", "Titan")


def _choose_all(game, order: list[tuple[str, str]]) -> None:
    for name, colour in order:
        game.do(cmd.ChooseColour(player=name, colour=colour))


def _play_first_turn(game, name: str, titan_marker: str, child: str, roll: int) -> None:
    """Split 4-4, roll, move both legions to the first two destinations, end the turn."""
    game.do(
        cmd.Split(
            player=name,
            parent=titan_marker,
            child=child,
            characters=("Angel", "Centaur", "Gargoyle", "Ogre"),
        )
    )
    game.do(cmd.Roll(player=name), roll)
    moves = [c for c in legal_commands(game.state) if isinstance(c, cmd.MoveLegion)]
    first = next(c for c in moves if c.marker == titan_marker and not c.teleport)
    game.do(first)
    second = next(
        c
        for c in legal_commands(game.state)
        if isinstance(c, cmd.MoveLegion) and c.marker == child and not c.teleport
    )
    game.do(second)
    game.do(cmd.Done(player=name))  # end of movement
    game.do(cmd.Done(player=name))  # end of turn


# -- 1.3 / 5.1 towers --------------------------------------------------------------------


def test_complete_sequence_1_3_unique_rolls_assign_towers_at_once(new_game) -> None:
    """1.3.1/5.1: each player rolls one die; distinct rolls give the towers (zeros ignored)."""
    game = new_game(["Ann", "Bob", "Cy"], [6, 3, 1])
    rolled = game.one(game.log, ev.TowersRolled)
    assert rolled.rolls == (("Ann", 6), ("Bob", 3), ("Cy", 1))
    assert rolled.assigned == (("Ann", 600), ("Bob", 300), ("Cy", 100))
    assert {p.name: p.tower for p in game.state.players} == {"Ann": 600, "Bob": 300, "Cy": 100}


def test_5_1_tied_tower_rolls_are_rolled_again(new_game) -> None:
    """5.1: players who roll the same number must roll again; the others keep their tower."""
    game = new_game(["Ann", "Bob", "Cy"], [3, 3, 5, 2, 4])
    sets = game.of(game.log, ev.TowersRolled)
    assert [s.rolls for s in sets] == [
        (("Ann", 3), ("Bob", 3), ("Cy", 5)),
        (("Ann", 2), ("Bob", 4)),
    ]
    assert sets[0].assigned == (("Cy", 500),)
    assert sets[1].assigned == (("Ann", 200), ("Bob", 400))


def test_5_1_roll_of_an_assigned_tower_is_rolled_again(new_game) -> None:
    """5.1: rolling the number of a tower already assigned to another player means rolling again."""
    game = new_game(["Ann", "Bob", "Cy"], [3, 3, 5, 5, 2, 1])
    sets = game.of(game.log, ev.TowersRolled)
    assert [s.assigned for s in sets] == [
        (("Cy", 500),),
        (("Bob", 200),),  # Ann's 5 names Cy's tower: she rolls again
        (("Ann", 100),),
    ]
    assert sets[2].rolls == (("Ann", 1),)
    assert {p.name: p.tower for p in game.state.players} == {"Ann": 100, "Bob": 200, "Cy": 500}


def test_5_1_six_players_fill_all_six_towers(new_game) -> None:
    """5.1/1.3.1: rolls repeat until every player has his own tower of 100..600."""
    names = ["P1", "P2", "P3", "P4", "P5", "P6"]
    game = new_game(names, [1, 2, 3, 4, 5, 5, 6, 6, 6, 5])
    towers = sorted(p.tower for p in game.state.players)
    assert towers == [100, 200, 300, 400, 500, 600]
    assert game.state.step is Step.COLOUR


@pytest.mark.parametrize("names", [["Solo"], ["A", "B", "C", "D", "E", "F", "G"], ["Ann", "ann"]])
def test_1_1_two_to_six_distinct_players(names) -> None:
    """1.1/rule 1.1: Titan is for two to six players, each one distinct."""
    with pytest.raises(RuleError) as info:
        setup.start_game(names, ScriptedDice([1, 2, 3, 4, 5, 6, 1]))
    assert info.value.code == "E-SETUP-PLAYERS"


# -- 1.4 / Wolff 5.0 colours --------------------------------------------------------------


def test_wolff_5_0_colours_chosen_in_ascending_tower_order(new_game) -> None:
    """Wolff 5.0/1.4.1: the player in the lowest numbered tower chooses his colour first."""
    game = new_game(["Ann", "Bob", "Cy"], [6, 3, 1])
    assert to_act(game.state) == "Cy"
    game.refused(cmd.ChooseColour(player="Ann", colour="Red"), "E-NOT-YOUR-TURN")
    game.refused(cmd.ChooseColour(player="Bob", colour="Red"), "E-NOT-YOUR-TURN")
    game.do(cmd.ChooseColour(player="Cy", colour="Green"))
    assert to_act(game.state) == "Bob"
    game.do(cmd.ChooseColour(player="Bob", colour="blue"))  # any case
    assert to_act(game.state) == "Ann"
    game.do(cmd.ChooseColour(player="Ann", colour="Red"))
    chosen = game.of(game.log, ev.ColourChosen)
    assert [(c.player, c.colour) for c in chosen] == [
        ("Cy", "Green"),
        ("Bob", "Blue"),
        ("Ann", "Red"),
    ]


def test_complete_sequence_1_4_colour_must_be_free_and_known(new_game) -> None:
    """1.4.1: a player chooses one of the colours nobody has taken yet."""
    game = new_game(["Ann", "Bob"], [6, 3])
    game.do(cmd.ChooseColour(player="Bob", colour="Red"))
    game.refused(cmd.ChooseColour(player="Ann", colour="red"), "E-COLOUR")
    game.refused(cmd.ChooseColour(player="Ann", colour="Purple"), "E-COLOUR")
    choices = {c.colour for c in legal_commands(game.state) if isinstance(c, cmd.ChooseColour)}
    assert choices == {"Black", "Blue", "Brown", "Gold", "Green"}


@pytest.mark.needs(options={"markers_per_player": 12})  # 21.3 TitanPlus: eight, tested there
def test_4_2_colour_brings_its_twelve_markers(new_game) -> None:
    """4.2/1.5: each player receives his colour's set of twelve legion markers."""
    game = new_game(["Ann", "Bob"], [6, 3])
    events = game.do(cmd.ChooseColour(player="Bob", colour="Blue"))
    chosen = game.one(events, ev.ColourChosen)
    assert chosen.markers == tuple(f"Bu{i:02d}" for i in range(1, 13))
    assert game.player("Bob").markers == chosen.markers


def test_wolff_5_0_withdraw_instead_of_choosing_colour(new_game) -> None:
    """Wolff 5.0: a player may withdraw instead of choosing his colour; the rest play on."""
    game = new_game(["Ann", "Bob", "Cy"], [6, 3, 1])
    game.refused(cmd.Withdraw(player="Ann"), "E-NOT-YOUR-TURN")  # only the chooser
    events = game.do(cmd.Withdraw(player="Cy"))
    assert game.one(events, ev.PlayerWithdrew) == ev.PlayerWithdrew(player="Cy", legions=())
    assert game.player("Cy").eliminated
    assert to_act(game.state) == "Bob"
    _choose_all(game, [("Bob", "Blue"), ("Ann", "Red")])
    placed = game.one(game.log, ev.LegionsPlaced)
    assert {owner for _, owner, _, _ in placed.legions} == {"Ann", "Bob"}
    game.refused(cmd.Roll(player="Cy"), "E-ELIMINATED")


def test_wolff_19_0_withdrawal_at_colour_choice_can_end_the_game(new_game) -> None:
    """Wolff 5.0 + 19.0: if only one player is left after a withdrawal, the game ends."""
    game = new_game(["Ann", "Bob"], [6, 3])
    events = game.do(cmd.Withdraw(player="Bob"))
    over = game.one(events, ev.GameOver)
    assert over.winner == "Ann"
    assert game.state.step is Step.OVER
    game.refused(cmd.ChooseColour(player="Ann", colour="Red"), "E-GAME-OVER")


def test_wolff_5_1_no_withdrawal_while_rolling_for_towers() -> None:
    """Wolff 5.1: nobody withdraws while rolling for towers: all tower rolls come first."""
    events = setup.start_game(["Ann", "Bob"], ScriptedDice([2, 2, 4, 1]))
    kinds = [type(e) for e in events]
    assert kinds == [ev.GameCreated, ev.TowersRolled, ev.TowersRolled]
    assert not any(isinstance(e, ev.PlayerWithdrew) for e in events)


# -- 1.5 / 1.6 / Wolff 4.1, 5.2: the initial legions ------------------------------------


def test_wolff_4_1_initial_legion_holds_all_eight_characters(started) -> None:
    """Wolff 4.1/5.2, 1.5: each player starts with one legion of eight on his tower (Titan, Angel, two of each tower creature)."""
    game = started()
    placed = game.one(game.log, ev.LegionsPlaced)
    assert sorted(placed.legions) == [
        ("Bu01", "Bob", 300, EIGHT),
        ("Rd01", "Ann", 600, EIGHT),
    ]
    assert game.legion("Rd01").contents == EIGHT
    assert game.legion("Rd01").known_by("Ann")
    # the caretaker gave out two of each tower creature per player
    assert game.state.caretaker["Centaur"] == 25 - 4
    assert game.state.caretaker["Angel"] == 18 - 2


def test_wolff_5_0_scores_start_at_zero(started) -> None:
    """Wolff 5.0/1.6: each player's point total starts at zero."""
    game = started()
    assert [p.score for p in game.state.players] == [0, 0]


def test_wolff_5_1_turns_in_descending_tower_order(new_game) -> None:
    """Wolff 5.1/Complete Sequence 2: the highest starting tower moves first, then downwards."""
    game = new_game(["Cy", "Ann", "Bob"], [1, 6, 3])
    _choose_all(game, [("Cy", "Green"), ("Bob", "Blue"), ("Ann", "Red")])
    assert [p.name for p in game.state.players] == ["Ann", "Bob", "Cy"]
    started = game.of(game.log, ev.TurnStarted)
    assert started == [ev.TurnStarted(player="Ann", turn=1)]
    _play_first_turn(game, "Ann", "Rd01", "Rd02", 1)
    assert game.state.active == "Bob"
    _play_first_turn(game, "Bob", "Bu01", "Bu02", 2)
    assert game.state.active == "Cy"
    _play_first_turn(game, "Cy", "Gr01", "Gr02", 3)
    last = game.of(game.log, ev.TurnStarted)[-1]
    assert last == ev.TurnStarted(player="Ann", turn=2)
    assert [p.turns_played for p in game.state.players] == [1, 1, 1]
    assert game.replayed() == game.state
