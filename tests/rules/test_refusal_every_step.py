"""
Refusal to play (Wolff 20.4, 21.0) in every kind of decision: the refusal command is
always legal, partial movement and partial maneuvers are undone first, and refusing
always moves the game on.  (Withdrawal, flight, concession in negotiation, declining and
the choice of engagement are in test_withdraw_refusal.py.)
"""

from __future__ import annotations

from typing import Any

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.decide import apply
from moderator.rules.dice import NoDice, ScriptedDice
from moderator.rules.evolve import replay
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.positions import position_event
from moderator.rules.refusal import refusal_command, refuse
from moderator.rules.state import GameState, Step

ANN, BOB = "Ann", "Bob"  # Ann (Blue) attacks, Bob (Red) defends


def battle(
    land: int,
    attacker: list[tuple[str, str, int]],
    defender: list[tuple[str, str, int]],
    extra: list[dict[str, Any]] | None = None,
    **where: Any,
) -> GameState:
    """A battle in progress on ``land``; characters are (type, hex, hits)."""
    characters = [{"legion": "Bu01", "type": c, "hex": h, "hits": n} for c, h, n in attacker] + [
        {"legion": "Rd01", "type": c, "hex": h, "hits": n} for c, h, n in defender
    ]
    position = {
        "players": [
            {"name": ANN, "color": "Blue", "tower": 600},
            {"name": BOB, "color": "Red", "tower": 300},
        ],
        "turn": 5,
        "active": ANN,
        "phase": "engage",
        "roll": 3,
        "legions": [
            {
                "marker": "Bu01",
                "land": land,
                "contents": [c for c, _, _ in attacker],
                "moved": True,
            },
            {"marker": "Rd01", "land": land, "contents": [c for c, _, _ in defender]},
            {"marker": "Bu02", "land": 600, "contents": ["Titan"]},
            {"marker": "Rd02", "land": 300, "contents": ["Titan"]},
            *(extra or []),
        ],
        "battle": {
            "land": land,
            "attacker": "Bu01",
            "defender": "Rd01",
            "characters": characters,
            **where,
        },
    }
    return replay([position_event(position)])


def run(
    state: GameState, command: cmd.Command, *rolls: int
) -> tuple[GameState, tuple[ev.Event, ...]]:
    return apply(state, command, ScriptedDice(rolls) if rolls else NoDice())


def refusal(state: GameState) -> cmd.Command:
    """The refusal command, checked to be one of the legal commands."""
    command = refusal_command(state)
    assert command is not None and command in legal_commands(state)
    return command


def step(state: GameState) -> str:
    assert state.battle is not None
    return state.battle.step


# -- the masterboard ----------------------------------------------------------------------------


def test_wolff_20_4_refusal_part_way_through_movement_undoes_it_and_withdraws(game_at) -> None:
    """Wolff 20.4: part way through his movement all of the partial movement is undone, then he withdraws."""
    game = game_at(
        [
            ("Rd01", 34, "Titan Angel Ogre Lion"),
            ("Rd02", 35, "Troll Troll"),
            ("Bu01", 300, "Titan Ogre"),
            ("Gr01", 100, "Titan Ogre"),
        ],
        players=("Ann", "Bob", "Cy"),
        roll=1,
    )
    game.do(cmd.MoveLegion(player=ANN, marker="Rd02", land=36))
    game.do(cmd.MoveLegion(player=ANN, marker="Rd01", land=600))
    assert refusal(game.state) == cmd.Withdraw(player=ANN)
    events = game.do(refusal(game.state))
    assert events[:3] == (
        ev.MoveUndone(marker="Rd01", back_to=34),
        ev.MoveUndone(marker="Rd02", back_to=35),
        ev.PlayerWithdrew(
            player=ANN,
            legions=(("Rd01", ("Angel", "Lion", "Ogre", "Titan")), ("Rd02", ("Troll", "Troll"))),
        ),
    )
    assert game.state.active == BOB and game.state.step is Step.SPLIT
    assert game.replayed() == game.state


def test_wolff_20_4_refuse_plays_every_refusal_of_the_player_to_act(game_at) -> None:
    """Wolff 20.4/21.0: ``refuse`` applies refusals while that player is to act, and only then."""
    game = game_at(
        [("Rd01", 34, "Titan Ogre"), ("Bu01", 300, "Titan Ogre"), ("Gr01", 100, "Titan Lion")],
        players=("Ann", "Bob", "Cy"),
        phase="split",
    )
    assert refuse(game.state, BOB) == (game.state, ())  # not his turn: nothing happens
    state, events = refuse(game.state, ANN)
    assert [type(e) for e in events] == [ev.PlayerWithdrew, ev.TurnStarted]
    assert to_act(state) == BOB


# -- battles (Complete Sequence 2.5.6) ------------------------------------------------------------


def test_wolff_20_4_refusal_in_a_concession_window_concedes() -> None:
    """2.5.6.2 with Wolff 20.4: at a window the refusing player concedes the battle."""
    state = battle(1, [("Ogre", "D1", 0)], [("Centaur", "D6", 0)], step="maneuver", turn=2)
    # The end-of-turn window: the phasing defender decides after the check (2.5.6.4.1.8.1).
    state, _ = run(state, cmd.Done(player=BOB))  # maneuver
    state, _ = run(state, cmd.Done(player=BOB))  # strikes: nothing in contact
    assert step(state) == "counter-concede" and to_act(state) == ANN
    assert refusal(state) == cmd.Concede(player=ANN)
    state, events = run(state, refusal(state))
    assert ev.BattleEnded(how="concession", conceded="attacker") in events
    assert state.battle is None


def test_wolff_20_4_refusal_part_way_through_a_maneuver_resets_it_and_attempts_to_concede() -> None:
    """Wolff 20.4/11.0: the partial maneuver is undone and the player attempts to concede (Wolff 9.4)."""
    state = battle(1, [("Ogre", "D1", 0)], [("Centaur", "D6", 0)], turn=2)
    state, _ = run(state, cmd.Maneuver(player=BOB, from_hex="D6", to_hex="D4"))
    assert refusal(state) == cmd.Concede(player=BOB)
    state, events = run(state, refusal(state))
    assert events[:2] == (
        ev.ManeuverReset(side="defender"),
        ev.ConcessionAttempted(side="defender"),
    )
    assert state.battle is not None
    assert {f.hex for f in state.battle.fighters} == {"D1", "D6"}  # back where they were
    assert step(state) == "concede-reply" and to_act(state) == ANN


def test_wolff_20_4_refusal_answering_an_attempt_to_concede_concedes_instead() -> None:
    """Wolff 9.4/20.4: answering an attempt, conceding is on the refusal list (accepting is not)."""
    state = battle(1, [("Ogre", "D1", 0)], [("Centaur", "D6", 0)], turn=2)
    state, _ = run(state, cmd.Concede(player=BOB))
    assert refusal(state) == cmd.Concede(player=ANN)
    state, events = run(state, refusal(state))
    resolved = next(e for e in events if isinstance(e, ev.EngagementResolved))
    assert resolved.winner == "Rd01"


def test_wolff_20_4_refusal_in_the_strikes_attempts_to_concede() -> None:
    """Wolff 20.4/9.4: a refusing striker attempts to concede, even with strikes he must make."""
    state = battle(1, [("Ogre", "D3", 0)], [("Centaur", "D4", 0)], turn=2, step="strike")
    assert refusal(state) == cmd.Concede(player=BOB)
    state, events = run(state, refusal(state))
    assert ev.ConcessionAttempted(side="defender") in events
    assert step(state) == "concede-reply"


def test_wolff_20_4_refusal_of_carry_over_carries_nowhere() -> None:
    """Wolff 20.4/12.4: a refusing player refuses to carry over damage (the one decision with no concession)."""
    state = battle(
        1,
        [("Cyclops", "D4", 0)],
        [("Troll", "D3", 0), ("Ogre", "D5", 0), ("Ranger", "E4", 0)],
        turn=2,
        phasing="attacker",
        step="strike",
    )
    state, _ = run(
        state, cmd.Strike(player=ANN, striker="D4", target="D5", strike_number=6), *[6] * 9
    )
    assert step(state) == "carry"
    assert refusal(state) == cmd.Carry(player=ANN, targets=())
    state, events = run(state, refusal(state))
    assert ev.CarryAllocated(allocations=()) in events
    assert step(state) == "strike"


def test_wolff_20_4_refusal_before_drift_concedes() -> None:
    """Wolff 9.4/11.7/20.4: the window before drift would slay is a concession window too."""
    state = battle(2000, [("Troll", "A1", 0)], [("Ogre", "C2", 5)], turn=2)
    state, _ = run(state, cmd.Done(player=BOB))
    assert step(state) == "drift-concede"
    assert refusal(state) == cmd.Concede(player=ANN)


def test_wolff_20_4_everybody_refusing_ends_a_battle_and_the_game() -> None:
    """Wolff 20.4: refusals always make progress; with both players refusing the game ends."""
    state = battle(1, [("Ogre", "D3", 0)], [("Centaur", "D4", 0)], turn=2, step="strike")
    seen = []
    while (player := to_act(state)) is not None:
        seen.append(refusal(state))
        state, _ = refuse(state, player)
        assert len(seen) < 20
    assert state.step is Step.OVER
    assert refusal_command(state) is None


# -- summoned angels and the undone maneuver (Wolff 15.1, 20.4) -------------------------------------


def _summoning_maneuver() -> GameState:
    """Ann's ogre slays an entered centaur in turn 2; in her turn 3 maneuver she may summon."""
    state = battle(
        1,
        [("Ogre", "D3", 0)],
        [("Centaur", "D4", 2), ("Giant", "F3", 0)],
        extra=[{"marker": "Bu03", "land": 6, "contents": ["Angel", "Gargoyle"]}],
        turn=2,
        phasing="attacker",
        step="strike",
    )
    state, _ = run(state, cmd.Strike(player=ANN, striker="D3", target="D4"), *[6] * 6)
    state, _ = run(state, cmd.Done(player=ANN))
    state, _ = run(state, cmd.Proceed(player=BOB))
    state, _ = run(state, cmd.Strike(player=BOB, striker="D4", target="D3"), 1, 1, 1)
    for command in (
        cmd.Done(player=BOB),  # counterstrikes
        cmd.Done(player=BOB),  # turn 3 maneuver
        cmd.Done(player=BOB),  # no rangestrike
        cmd.Proceed(player=ANN),
        cmd.Done(player=ANN),
    ):
        state, _ = run(state, command)
    assert step(state) == "maneuver" and to_act(state) == ANN
    state, _ = run(state, cmd.Summon(player=ANN, lord="Angel", source="Bu03"))
    return run(state, cmd.Maneuver(player=ANN, creature="Angel", to_hex="E3"))[0]


def test_wolff_15_1_20_4_refusal_after_a_summons_sends_the_angel_back() -> None:
    """Wolff 20.4/15.1: the undone maneuver leaves the summoned angel unentered, so it goes back to its legion."""
    state = _summoning_maneuver()
    assert refusal(state) == cmd.Concede(player=ANN)
    state, events = run(state, refusal(state))
    assert [type(e) for e in events] == [ev.ManeuverReset, ev.JoinUndone, ev.ConcessionAttempted]
    assert state.legions["Bu03"].contents == ("Angel", "Gargoyle")
    assert state.legions["Bu01"].contents == ("Ogre",)
    state, events = run(state, cmd.AcceptConcession(player=BOB))
    resolved = next(e for e in events if isinstance(e, ev.EngagementResolved))
    assert resolved.attacker_losses == ("Ogre",) and resolved.points == 12


def test_wolff_15_1_a_summoned_angel_slain_in_battle_stays_slain() -> None:
    """Wolff 15.1/2.5.6.10: only an angel that never entered goes back; one slain after entering is lost."""
    state, _ = run(_summoning_maneuver(), cmd.Done(player=ANN))
    state, _ = run(state, cmd.Strike(player=ANN, striker="E3", target="F3"), *[1] * 6)
    state, _ = run(state, cmd.Done(player=ANN))
    state, _ = run(state, cmd.Proceed(player=BOB))
    state, _ = run(state, cmd.Strike(player=BOB, striker="F3", target="E3"), *[6] * 7)
    if step(state) == "carry":
        state, _ = run(state, cmd.Carry(player=BOB, targets=()))
    state, events = run(state, cmd.Done(player=BOB))
    assert any(isinstance(e, ev.SlainRemoved) for e in events)
    assert step(state) == "maneuver" and to_act(state) == BOB
    state, events = run(state, cmd.Done(player=BOB))
    assert not any(isinstance(e, ev.JoinUndone) for e in events)
    assert state.legions["Bu03"].contents == ("Gargoyle",)
    assert state.legions["Bu01"].contents == ("Angel", "Ogre")  # slain, set aside at 2.5.6.10
