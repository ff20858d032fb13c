"""
A time limit on the whole game (Wolff 21.0/21.1) and scoring a game stopped before it
is decided (rulebook 20.5/21.1), with refusal to play (Wolff 20.4) in the final round.

Default cast: Ann (tower 600) moves first, then Bob (300), then Cy (100).
"""

from __future__ import annotations

import json

import pytest

from moderator.reporting.narrate import describe, history_lines
from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.codec import decode, encode
from moderator.rules.decide import decide
from moderator.rules.dice import NoDice
from moderator.rules.errors import RuleError
from moderator.rules.evolve import evolve
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.refusal import refusal_command, refuse
from moderator.rules.state import GameState, Step
from moderator.rules.timelimit import in_final_round, time_called

THREE = ("Ann", "Bob", "Cy")

#: Legions far apart, so that a movement roll of 1 never makes an engagement.
APART = [
    ("Rd01", 600, "Titan Angel Ogre"),
    ("Bu01", 300, "Titan Troll"),
    ("Gr01", 100, "Titan Lion"),
]


def call_time(game) -> tuple[ev.Event, ...]:
    """What the shell does when the game's time is up: fold ``time_called``'s events."""
    events = tuple(time_called(game.state))
    for e in events:
        game.state = evolve(game.state, e)
    game.log.extend(events)
    return events


def finish_turn(game) -> tuple[ev.Event, ...]:
    """The player whose turn it is plays it out quietly: roll 1, move one legion, done."""
    player = game.state.active
    if game.state.step is Step.SPLIT:
        first = [c for c in legal_commands(game.state) if isinstance(c, cmd.Split)]
        if any(lg.height == 8 for lg in game.state.legions_of(player)):
            game.do(first[0])  # the first turn's 4-4 split
        game.do(cmd.Roll(player=player), 1)
    if game.state.step is Step.MOVE:
        move = next(
            c
            for c in legal_commands(game.state)
            if isinstance(c, cmd.MoveLegion)
            and not c.teleport
            and not game.state.legions_at(c.land)
        )
        game.do(move)
        game.do(cmd.Done(player=player))
    assert game.state.step is Step.MUSTER
    return game.do(cmd.Done(player=player))


def turns_after_time(game) -> list[tuple[str, int]]:
    called = next(i for i, e in enumerate(game.log) if isinstance(e, ev.TimeCalled))
    return [(e.player, e.turn) for e in game.log[called:] if isinstance(e, ev.TurnStarted)]


# -- calling time (Wolff 21.1) ------------------------------------------------------------------


def test_21_1_time_called_names_the_last_turn(game_at) -> None:
    """Wolff 21.1: the current player finishes his turn, then every player gets one more full turn, his included."""
    game = game_at(APART, players=THREE, active="Bob", turn=2, phase="move")
    events = call_time(game)
    assert events == (ev.TimeCalled(last_player="Bob", last_turn=3),)
    assert events[0].visible_to is None  # public
    assert (game.state.final_turn, game.state.final_player) == (3, "Bob")
    assert in_final_round(game.state)
    assert to_act(game.state) == "Bob" and game.state.step is Step.MOVE  # nothing else changes


def test_21_1_time_is_called_once(game_at) -> None:
    """Wolff 21.1: calling time again in the final round, or after the end, changes nothing."""
    game = game_at(APART, players=THREE, phase="split")
    assert call_time(game)
    assert time_called(game.state) == []
    finish_turn(game)
    assert time_called(game.state) == []
    while game.state.step is not Step.OVER:
        finish_turn(game)
    assert time_called(game.state) == []
    assert not in_final_round(game.state)


def test_21_1_every_player_gets_one_more_turn(game_at) -> None:
    """Wolff 21.1: time called in Bob's turn 2: Bob finishes, Cy, Ann and Bob play one more turn each, then the game ends."""
    game = game_at(APART, players=THREE, active="Bob", turn=2, phase="move")
    call_time(game)
    ended = ()
    while game.state.step is not Step.OVER:
        ended = finish_turn(game)
    assert turns_after_time(game) == [("Cy", 2), ("Ann", 3), ("Bob", 3)]
    assert isinstance(ended[-1], ev.GameScored)  # instead of Cy's turn 3
    assert ended[-2] == ev.TurnEnded(player="Bob")


def test_21_1_time_called_in_the_last_players_turn_wraps_to_the_next_round(game_at) -> None:
    """Wolff 21.1: time called in the last player's turn: the next round is the final one."""
    game = game_at(APART, players=THREE, active="Cy", turn=4, phase="muster")
    assert call_time(game) == (ev.TimeCalled(last_player="Cy", last_turn=5),)
    while game.state.step is not Step.OVER:
        finish_turn(game)
    assert turns_after_time(game) == [("Ann", 5), ("Bob", 5), ("Cy", 5)]


def test_21_1_time_called_before_the_first_turn_gives_everybody_one_turn(new_game) -> None:
    """Wolff 21.1 with Complete Sequence 1.2: called while colours are chosen, every player plays his first turn."""
    game = new_game(["Ann", "Bob"], [6, 3])
    assert call_time(game) == (ev.TimeCalled(last_player="Bob", last_turn=1),)
    game.do(cmd.ChooseColour(player="Bob", colour="Blue"))
    game.do(cmd.ChooseColour(player="Ann", colour="Red"))
    while game.state.step is not Step.OVER:
        finish_turn(game)
    assert turns_after_time(game) == [("Ann", 1), ("Bob", 1)]
    assert game.one(game.log, ev.GameScored).winners == ("Ann", "Bob")  # nobody has scored


def test_21_1_the_current_turn_is_finished_first(game_at) -> None:
    """Wolff 21.1: time called during the engagement phase: the engagements and the rest of the turn are played out."""
    game = game_at(
        [
            ("Rd01", 3, "Troll Troll", True),
            ("Rd03", 600, "Titan Angel"),
            ("Bu01", 300, "Titan Ogre"),
            ("Bu02", 3, "Lion Ogre"),
        ],
        phase="engage",
        roll=1,
    )
    call_time(game)
    game.do(cmd.Engage(player="Ann", land=3))
    game.do(cmd.Flee(player="Bob"))
    assert game.state.step is Step.MUSTER and game.state.active == "Ann"
    while game.state.step is not Step.OVER:
        finish_turn(game)
    assert turns_after_time(game) == [("Bob", 2), ("Ann", 3)]
    assert game.score("Ann") == 13  # half of the Lion and Ogre (16.1)


# -- elimination and refusal in the final round (Wolff 20.4, 21.1) ------------------------------


def test_21_1_a_player_eliminated_in_the_final_round_drops_out(game_at) -> None:
    """Wolff 21.1 ("or is eliminated") and 20.4: Cy refuses to play in the final round, withdraws and is not scored."""
    game = game_at(APART, players=THREE, active="Bob", turn=2, phase="muster")
    call_time(game)
    finish_turn(game)  # Bob's turn 2 ends; Cy's begins
    game.state, events = refuse(game.state, "Cy")
    game.log.extend(events)
    assert events[0] == ev.PlayerWithdrew(player="Cy", legions=(("Gr01", ("Lion", "Titan")),))
    while game.state.step is not Step.OVER:
        finish_turn(game)
    assert turns_after_time(game) == [("Cy", 2), ("Ann", 3), ("Bob", 3)]
    scored = game.one(game.log, ev.GameScored)
    assert [name for name, *_ in scored.scores] == ["Ann", "Bob"]


def test_21_1_the_last_player_of_the_final_round_eliminated_ends_it_early(game_at) -> None:
    """Wolff 20.4/21.1: Bob, whose turn ends the final round, withdraws in it: the game ends then, scored without him."""
    game = game_at(APART, players=THREE, active="Bob", turn=2, phase="muster")
    call_time(game)
    finish_turn(game)  # Bob
    finish_turn(game)  # Cy
    finish_turn(game)  # Ann, turn 3
    assert game.state.active == "Bob"
    events = game.do(cmd.Withdraw(player="Bob"))
    assert [type(e) for e in events] == [ev.PlayerWithdrew, ev.GameScored]
    assert game.state.step is Step.OVER
    assert [name for name, *_ in events[-1].scores] == ["Ann", "Cy"]


def test_19_0_one_player_left_in_the_final_round_wins_outright(game_at) -> None:
    """Wolff 19.0: if eliminations leave one player before time runs out, he wins as always; nothing is scored by time."""
    game = game_at(APART[:2], active="Ann", turn=2, phase="split")
    call_time(game)
    events = game.do(cmd.Withdraw(player="Ann"))
    assert game.one(events, ev.GameOver).winner == "Bob"
    assert not game.of(game.log, ev.GameScored)
    assert game.state.winners == ("Bob",)


# -- scoring the game (rulebook 20.5/21.1) ------------------------------------------------------


def test_20_5_score_counts_remaining_legions(game_at) -> None:
    """20.5/21.1: score plus the value of every remaining legion (16.0: power x skill; the Titan's power by 19.1; angels count)."""
    game = game_at(
        [
            ("Rd01", 600, "Titan Angel Ogre"),
            ("Rd02", 1, "Archangel Troll"),
            ("Bu01", 300, "Titan Troll Troll"),
            ("Gr01", 100, "Titan Lion"),
        ],
        players=THREE,
        scores={"Ann": 120, "Bob": 95, "Cy": 40},
        eliminated=(),
        active="Cy",
        turn=3,
        phase="muster",
    )
    call_time(game)
    events: tuple[ev.Event, ...] = ()
    while game.state.step is not Step.OVER:
        events = finish_turn(game)
    scored = events[-1]
    assert isinstance(scored, ev.GameScored)
    # Ann: Titan 7x4 (score 120) + Angel 24 + Ogre 12 = 64; Archangel 36 + Troll 16 = 52
    # Bob: Titan 6x4 + 2 Trolls = 56; Cy: Titan 24 + Lion 15 = 39
    assert scored.scores == (
        ("Ann", 120, 116, 236),
        ("Bob", 95, 56, 151),
        ("Cy", 40, 39, 79),
    )
    assert {(m, v) for m, _, _, v in scored.legions} == {
        ("Rd01", 64),
        ("Rd02", 52),
        ("Bu01", 56),
        ("Gr01", 39),
    }
    assert scored.winners == ("Ann",) and scored.visible_to is None
    assert game.state.winner == "Ann" and game.state.winners == ("Ann",)
    # 20.5: each legion is revealed as it is counted
    assert all(lg.known_to is None for lg in game.state.legions.values())
    assert game.replayed() == game.state


def test_20_5_players_tied_for_the_highest_total_share_the_win(game_at) -> None:
    """20.5: the highest grand total wins; the rules name no tie-break, so tied players share the win."""
    game = game_at(
        [("Rd01", 600, "Titan Ogre"), ("Bu01", 300, "Titan Troll"), ("Gr01", 100, "Titan")],
        players=THREE,
        scores={"Ann": 4, "Cy": 20},
        active="Cy",
        phase="muster",
    )
    call_time(game)
    while game.state.step is not Step.OVER:
        finish_turn(game)
    scored = game.one(game.log, ev.GameScored)
    assert [total for *_, total in scored.scores] == [40, 40, 44]
    assert scored.winners == ("Cy",)
    game = game_at(
        [("Rd01", 600, "Titan Ogre"), ("Bu01", 300, "Titan Troll")],
        scores={"Ann": 4},
        active="Bob",
        phase="muster",
    )
    call_time(game)
    while game.state.step is not Step.OVER:
        finish_turn(game)
    scored = game.one(game.log, ev.GameScored)
    assert scored.winners == ("Ann", "Bob")
    assert game.state.winner is None and game.state.winners == ("Ann", "Bob")


def test_3_nobody_acts_after_the_end(game_at) -> None:
    """Complete Sequence 3: once the game is scored nobody may act; no refusal is due."""
    game = game_at(APART[:2], active="Bob", phase="muster")
    call_time(game)
    while game.state.step is not Step.OVER:
        finish_turn(game)
    assert to_act(game.state) is None
    assert legal_commands(game.state) == []
    assert refusal_command(game.state) is None
    with pytest.raises(RuleError) as info:
        decide(game.state, cmd.Roll(player="Ann"), NoDice())
    assert info.value.code == "E-GAME-OVER"


# -- the record ---------------------------------------------------------------------------------


def test_time_limit_events_round_trip_through_the_codec() -> None:
    """Every event survives storage: the new ones too."""
    called = ev.TimeCalled(last_player="Bob", last_turn=3)
    scored = ev.GameScored(
        scores=(("Ann", 120, 116, 236), ("Bob", 95, 56, 151)),
        legions=(("Rd01", "Ann", ("Angel", "Ogre", "Titan"), 64), ("Bu01", "Bob", ("Titan",), 24)),
        winners=("Ann",),
    )
    for event in (called, scored):
        record = json.loads(json.dumps(encode(event)))
        assert decode(record) == event


def test_time_limit_narration() -> None:
    """Each new event has its line in the game record, shown to every player."""
    called = ev.TimeCalled(last_player="Bob", last_turn=3)
    assert describe(called, GameState()) == (
        "Time is called (Wolff 21.1): every player still in the game has one more full "
        "turn; the game ends after Bob's turn 3"
    )
    scored = ev.GameScored(
        scores=(("Ann", 120, 64, 184), ("Bob", 95, 0, 95)),
        legions=(("Rd01", "Ann", ("Angel", "Ogre", "Titan"), 64),),
        winners=("Ann",),
    )
    assert describe(scored, GameState()) == (
        "Game over, time (20.5): Ann 120 + 64 for Rd01 (Angel, Ogre, Titan: 64) = 184; "
        "Bob 95 + 0 for no legions = 95; Ann wins"
    )
    tie = ev.GameScored(
        scores=(("Ann", 0, 36, 36), ("Bob", 0, 36, 36)), legions=(), winners=("Ann", "Bob")
    )
    assert describe(tie, GameState()).endswith("; Ann and Bob tie for the win")


def test_time_limit_lines_in_every_players_history(game_at) -> None:
    """The time call and the final score are public: every player's record shows them."""
    game = game_at(APART[:2], active="Bob", phase="muster")
    call_time(game)
    while game.state.step is not Step.OVER:
        finish_turn(game)
    for viewer in ("Ann", "Bob", None):
        text = "\n".join(history_lines(game.log, viewer))
        assert "Time is called (Wolff 21.1)" in text
        assert (
            "Game over, time (20.5): Ann 0 + 60 for Rd01 (Angel, Ogre, Titan: 60) = 60; "
            "Bob 0 + 40 for Bu01 (Titan, Troll: 40) = 40; Ann wins"
        ) in text
