"""
The battle sequence (Complete Sequence 2.5.6) and the Wolff battle clauses:
concession windows and attempts, entry and leaving off, drift, strikes,
summoning, reinforcement, the end checks and the time loss.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.decide import apply
from moderator.rules.dice import NoDice, ScriptedDice
from moderator.rules.errors import RuleError
from moderator.rules.evolve import replay
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.positions import position_event
from moderator.rules.state import GameState, Step
from moderator.rules.variant import STANDARD

ANN, BOB = "Ann", "Bob"  # Ann (Blue) attacks, Bob (Red) defends

#: Every test here plays in a variant, named so that test_variant_coverage counts them.
pytestmark = pytest.mark.usefixtures("variant_name", "in_variant")
#: The variant this test plays in, the helpers' default: set for each test of this module
#: by ``in_variant`` (the lateness tests that borrow the helpers play the standard game).
_PLAYING: list[str] = [STANDARD]


@pytest.fixture
def in_variant(variant_name: str) -> Iterator[None]:
    """Every test here runs under each variant where it applies (tests/rules/conftest.py)."""
    _PLAYING[0] = variant_name
    yield
    _PLAYING[0] = STANDARD


def battle_position(
    land: int,
    attacker: list[tuple[str, str | None, int]],
    defender: list[tuple[str, str | None, int]],
    *,
    turn: int = 1,
    phasing: str = "defender",
    step: str = "maneuver",
    entry: str = "bottom",
    extra: list[dict[str, Any]] | None = None,
    scores: tuple[int, int] = (0, 0),
    variant: str | None = None,
) -> GameState:
    """A battle in progress; characters are (type, hex or None for 'not entered', hits)."""
    a_contents = [c for c, _, _ in attacker]
    d_contents = [c for c, _, _ in defender]
    legions = [
        {"marker": "Bu01", "land": land, "contents": a_contents, "moved": True},
        {"marker": "Rd01", "land": land, "contents": d_contents},
    ]
    if "Titan" not in a_contents:
        legions.append({"marker": "Bu02", "land": 600, "contents": ["Titan"]})
    if "Titan" not in d_contents:
        legions.append({"marker": "Rd02", "land": 300, "contents": ["Titan"]})
    legions += extra or []
    characters = [
        {"legion": "Bu01", "type": c, "hex": h, "hits": n} for c, h, n in attacker if h is not None
    ] + [
        {"legion": "Rd01", "type": c, "hex": h, "hits": n} for c, h, n in defender if h is not None
    ]
    position = {
        "players": [
            {"name": ANN, "color": "Blue", "tower": 600, "score": scores[0]},
            {"name": BOB, "color": "Red", "tower": 300, "score": scores[1]},
        ],
        "turn": 5,
        "active": ANN,
        "phase": "engage",
        "roll": 3,
        "legions": legions,
    }
    variant = variant or _PLAYING[0]
    if variant != STANDARD:
        position["variant"] = variant
    if all(h is not None for _, h, _ in attacker + defender):
        position["battle"] = {
            "land": land,
            "attacker": "Bu01",
            "defender": "Rd01",
            "entry": entry,
            "turn": turn,
            "phasing": phasing,
            "step": step,
            "characters": characters,
        }
        return replay([position_event(position)])
    return start_battle(position)


def start_battle(position: dict[str, Any]) -> GameState:
    """Engage and fight from negotiation, so nobody has entered yet."""
    state = replay([position_event(position)])
    land = position["battle_land"] if "battle_land" in position else position["legions"][0]["land"]
    state = run(state, cmd.Engage(player=ANN, land=land))
    state = run(state, cmd.NoMore(player=BOB))
    return run(state, cmd.Fight(player=ANN))


def run(state: GameState, command: cmd.Command, rolls: list[int] | None = None) -> GameState:
    dice = ScriptedDice(rolls) if rolls is not None else NoDice()
    new, _ = apply(state, command, dice)
    return new


def run_events(
    state: GameState, command: cmd.Command, rolls: list[int] | None = None
) -> tuple[GameState, tuple[ev.Event, ...]]:
    dice = ScriptedDice(rolls) if rolls is not None else NoDice()
    return apply(state, command, dice)


def fresh(land: int, attacker: list[str], defender: list[str]) -> GameState:
    """A battle just chosen: no character has entered yet."""
    return battle_position(land, [(c, None, 0) for c in attacker], [(c, None, 0) for c in defender])


def step(state: GameState) -> str:
    assert state.battle is not None
    return state.battle.step


# -- 2.5.6.1-2.5.6.3: the start ------------------------------------------------------------


def test_complete_sequence_2_5_6_1_both_legions_become_public() -> None:
    """2.5.6.1: once a battle is chosen, every player may look at both legions."""
    state = fresh(20, ["Ogre", "Troll"], ["Centaur", "Lion"])
    assert state.legions["Bu01"].known_by(None)
    assert state.legions["Rd01"].known_by(None)
    assert state.step is Step.BATTLE


def test_complete_sequence_2_5_6_2_attacker_may_concede_first_and_denies_reinforcement() -> None:
    """2.5.6.2 and 14.2: the attacker may concede before any battle turn; the defender then may not reinforce."""
    state = fresh(20, ["Ogre", "Troll"], ["Centaur", "Centaur"])
    assert to_act(state) == ANN and step(state) == "attacker-concede"
    assert {type(c) for c in legal_commands(state)} == {cmd.Proceed, cmd.Concede}
    state, events = run_events(state, cmd.Concede(player=ANN))
    resolved = next(e for e in events if isinstance(e, ev.EngagementResolved))
    assert resolved.how == "concession" and resolved.winner == "Rd01"
    assert resolved.points == 12 + 16  # ogre and troll, full value (9.4)
    assert not any(isinstance(e, ev.DecisionAwaited) and e.what == "reinforce" for e in events)
    assert "Bu01" not in state.legions and state.battle is None


def test_complete_sequence_2_5_6_3_defender_may_concede_and_attacker_loses_nothing() -> None:
    """2.5.6.3 and Wolff 9.4/10.1: a defender conceding before the attacker enters costs the attacker nothing."""
    state = fresh(20, ["Ogre", "Troll"], ["Centaur", "Centaur"])
    state = run(state, cmd.Proceed(player=ANN))
    assert to_act(state) == BOB and step(state) == "defender-concede"
    state, events = run_events(state, cmd.Concede(player=BOB))
    resolved = next(e for e in events if isinstance(e, ev.EngagementResolved))
    assert resolved.winner == "Bu01" and resolved.attacker_losses == ()
    assert resolved.points == 24


# -- entering and maneuvering -----------------------------------------------------------------


def test_wolff_10_1_defender_enters_opposite_the_attacker() -> None:
    """Wolff 2.2/10.1: against a bottom attack the defender enters on F4, E5 or D6."""
    state = fresh(20, ["Ogre"], ["Centaur"])
    state = run(run(state, cmd.Proceed(player=ANN)), cmd.Proceed(player=BOB))
    targets = {c.to_hex for c in legal_commands(state) if isinstance(c, cmd.Maneuver)}
    # The centaur (skill 4) may enter on F4, E5 or D6 and walk on from there.
    assert {"F4", "E5", "D6"} <= targets
    with pytest.raises(RuleError) as error:
        run(state, cmd.Maneuver(player=BOB, creature="Centaur", to_hex="A1"))
    assert error.value.code == "E-MANEUVER"


def test_wolff_10_1_characters_left_off_are_slain_but_score_and_do_not_trigger_summoning() -> None:
    """Wolff 10.1: characters left off on the first maneuver are slain, count for points, and trigger no summons."""
    state = fresh(20, ["Ogre"], ["Centaur", "Centaur"])
    state = run(run(state, cmd.Proceed(player=ANN)), cmd.Proceed(player=BOB))
    state = run(state, cmd.Maneuver(player=BOB, creature="Centaur", to_hex="F4"))
    state, events = run_events(state, cmd.Done(player=BOB))
    assert any(isinstance(e, ev.FightersLeftOff) for e in events)
    battle = state.battle
    assert battle is not None
    assert sum(1 for f in battle.fighters if f.side == "defender" and f.slain) == 1
    assert not battle.first_blood  # never entered, so no summoning trigger


def test_10_2_tower_defender_deploys_inside_the_walls() -> None:
    """Wolff 2.2/10.2: in a tower the defender deploys on C3, C4, D3, D4, D5, E3 or E4."""
    state = fresh(100, ["Ogre"], ["Centaur"])
    state = run(run(state, cmd.Proceed(player=ANN)), cmd.Proceed(player=BOB))
    targets = {c.to_hex for c in legal_commands(state) if isinstance(c, cmd.Maneuver)}
    assert targets == {"C3", "C4", "D3", "D4", "D5", "E3", "E4"}


def test_wolff_11_0_maneuver_may_be_reset_until_done() -> None:
    """Wolff 11.0: the maneuver phase is atomic; it may be reset until the player says done."""
    state = battle_position(20, [("Ogre", "D1", 0)], [("Centaur", "D6", 0)], turn=2)
    moved = run(state, cmd.Maneuver(player=BOB, from_hex="D6", to_hex="D4"))
    assert moved.battle is not None and {f.hex for f in moved.battle.fighters} == {"D1", "D4"}
    reset = run(moved, cmd.ResetManeuver(player=BOB))
    assert reset.battle is not None and {f.hex for f in reset.battle.fighters} == {"D1", "D6"}
    with pytest.raises(RuleError):
        run(moved, cmd.Maneuver(player=BOB, from_hex="D4", to_hex="D5"))  # moved once already


def test_11_3_characters_in_contact_cannot_move() -> None:
    """11.3: a character that starts its maneuver next to an enemy is locked in contact."""
    state = battle_position(20, [("Ogre", "D3", 0)], [("Centaur", "D4", 0)], turn=2)
    assert not [c for c in legal_commands(state) if isinstance(c, cmd.Maneuver)]


# -- concession attempts (Wolff 9.4, 10.0, 11.1) -----------------------------------------------------


def test_wolff_9_4_an_attempt_to_concede_lets_the_opponent_concede_instead() -> None:
    """Wolff 9.4/10.0: the phasing player only attempts to concede; the other may accept or concede himself."""
    state = battle_position(20, [("Ogre", "D1", 0)], [("Centaur", "D6", 0)], turn=2)
    attempted = run(state, cmd.Concede(player=BOB))
    assert step(attempted) == "concede-reply" and to_act(attempted) == ANN
    assert {type(c) for c in legal_commands(attempted)} == {cmd.AcceptConcession, cmd.Concede}
    _, events = run_events(attempted, cmd.Concede(player=ANN))
    ended = next(e for e in events if isinstance(e, ev.BattleEnded))
    assert ended.conceded == "attacker"
    resolved = next(e for e in events if isinstance(e, ev.EngagementResolved))
    assert resolved.winner == "Rd01"
    _, events = run_events(attempted, cmd.AcceptConcession(player=ANN))
    assert next(e for e in events if isinstance(e, ev.EngagementResolved)).winner == "Bu01"


def test_wolff_11_1_preempted_first_maneuver_concession_costs_the_victor_nothing() -> None:
    """Wolff 11.1: if the attacker attempts to concede on his first maneuver and the defender concedes instead, the attacker loses nothing."""
    state = fresh(20, ["Ogre", "Troll"], ["Centaur"])
    state = run(run(state, cmd.Proceed(player=ANN)), cmd.Proceed(player=BOB))
    state = run(state, cmd.Maneuver(player=BOB, creature="Centaur", to_hex="E5"))
    state = run(state, cmd.Done(player=BOB))
    # Nothing is in contact: the defender strikes nothing, the attacker passes and strikes back nothing.
    state = run(state, cmd.Done(player=BOB))  # strike
    state = run(state, cmd.Proceed(player=ANN))  # counter-concede window
    state = run(state, cmd.Done(player=ANN))  # counterstrike
    assert state.battle is not None and state.battle.phasing == "attacker"
    attempted = run(state, cmd.Concede(player=ANN))
    _, events = run_events(attempted, cmd.Concede(player=BOB))
    resolved = next(e for e in events if isinstance(e, ev.EngagementResolved))
    assert resolved.winner == "Bu01" and resolved.attacker_losses == ()


def test_wolff_9_4_conceding_after_the_opponents_titan_is_slain_is_mutual_elimination() -> None:
    """Wolff 9.4/9.5 and 19.3: a concession after the opponent's Titan is slain is a mutual elimination."""
    state = battle_position(
        20,
        [("Titan", "D3", 5), ("Ogre", "C2", 0)],
        [("Troll", "D4", 0)],
        turn=2,
        phasing="defender",
        step="strike",
    )
    state = run(state, cmd.Strike(player=BOB, striker="D4", target="D3"), [6] * 8)
    state = run(state, cmd.Concede(player=BOB))  # only an attempt (Wolff 9.4)
    state, events = run_events(state, cmd.AcceptConcession(player=ANN))
    resolved = next(e for e in events if isinstance(e, ev.EngagementResolved))
    assert resolved.winner is None and resolved.points == 0
    eliminated = next(e for e in events if isinstance(e, ev.PlayerEliminated))
    assert eliminated.player == ANN and eliminated.slayer == BOB
    assert eliminated.half_points == ((BOB, 6),)  # the surviving ogre, at half (19.4)
    assert state.step is Step.OVER and state.winner == BOB


# -- drift (hazard chart, Wolff 9.4/11.7) --------------------------------------------------------------


def test_wolff_9_4_11_7_drift_that_would_slay_opens_a_concession_window() -> None:
    """Hazard chart and Wolff 9.4/11.7: before drift would slay a phasing character, the other player may concede."""
    # Tundra 2000: C2 is drift; an ogre (not a drift native) with 5 hits of 6.
    state = battle_position(2000, [("Troll", "A1", 0)], [("Ogre", "C2", 5)], turn=2)
    state = run(state, cmd.Done(player=BOB))
    assert step(state) == "drift-concede" and to_act(state) == ANN
    state, events = run_events(state, cmd.Proceed(player=ANN))
    drift = next(e for e in events if isinstance(e, ev.DriftDamaged))
    assert state.battle is not None
    ogre = state.battle.fighter(drift.fighters[0])
    assert ogre.creature == "Ogre" and ogre.slain
    assert step(state) == "strike"  # the slain still strike this phase


def test_hazard_chart_drift_natives_take_no_damage() -> None:
    """Hazard chart: drift natives (troll, warbear, giant, colossus) take no drift damage."""
    state = battle_position(2000, [("Ogre", "A2", 0)], [("Troll", "C2", 0)], turn=2)
    state, events = run_events(state, cmd.Done(player=BOB))
    assert not any(isinstance(e, ev.DriftDamaged) for e in events)


# -- strikes ---------------------------------------------------------------------------------------------


def test_12_0_every_character_in_contact_must_strike() -> None:
    """12.0: a character in contact with a living enemy must strike before the phase may end."""
    state = battle_position(20, [("Ogre", "D3", 0)], [("Centaur", "D4", 0)], turn=2, step="strike")
    with pytest.raises(RuleError) as error:
        run(state, cmd.Done(player=BOB))
    assert error.value.code == "E-MUST-STRIKE"
    state = run(state, cmd.Strike(player=BOB, striker="D4", target="D3"), [1, 1, 1])
    state = run(state, cmd.Done(player=BOB))
    assert step(state) == "counter-concede"


def test_wolff_12_0_a_slain_character_is_never_a_target_again_but_still_strikes_back() -> None:
    """Wolff 12.0 and 10.6: a slain character cannot be struck again, yet it counterstrikes before removal."""
    state = battle_position(
        20,
        [("Ogre", "D3", 4)],
        [("Centaur", "D4", 0), ("Centaur", "C3", 0)],
        turn=2,
        step="strike",
    )
    state = run(state, cmd.Strike(player=BOB, striker="D4", target="D3"), [6] * 3)
    with pytest.raises(RuleError) as error:
        run(state, cmd.Strike(player=BOB, striker="C3", target="D3"), [6] * 3)
    assert error.value.code == "E-STRIKE"
    state = run(state, cmd.Done(player=BOB))  # C3's only enemy is slain: no strike required
    state = run(state, cmd.Proceed(player=ANN))
    assert step(state) == "counterstrike"
    with pytest.raises(RuleError):
        run(state, cmd.Done(player=ANN))  # the slain ogre must still strike back
    state = run(state, cmd.Strike(player=ANN, striker="D3", target="D4"), [6] * 6)
    assert step(state) == "carry"  # 3 excess hits may go on to the centaur on C3 (12.4)
    state = run(state, cmd.Carry(player=ANN, targets=()))  # never forced (Wolff 12.4)
    state, events = run_events(state, cmd.Done(player=ANN))
    removed = next(e for e in events if isinstance(e, ev.SlainRemoved))
    assert len(removed.fighters) == 2


def test_wolff_12_example_1_options_and_carry_through_the_battle() -> None:
    """Wolff 12.0-12.5 example 1: the cyclops's options, and carrying 3 to the troll after nine 6s."""
    state = battle_position(
        20,
        [("Cyclops", "D4", 0)],
        [("Troll", "D3", 0), ("Ogre", "D5", 0), ("Ranger", "E4", 0)],
        turn=2,
        phasing="attacker",
        step="strike",
    )
    strikes = {
        (c.target, c.strike_number) for c in legal_commands(state) if isinstance(c, cmd.Strike)
    }
    assert strikes == {("D5", 4), ("D5", 6), ("D3", 4), ("D3", 6), ("E4", 6)}
    state = run(state, cmd.Strike(player=ANN, striker="D4", target="D5", strike_number=6), [6] * 9)
    assert step(state) == "carry"
    carries = {c.targets for c in legal_commands(state) if isinstance(c, cmd.Carry)}
    assert carries == {(), ("D3",), ("E4",)}
    state = run(state, cmd.Carry(player=ANN, targets=("D3",)))
    assert state.battle is not None
    troll = next(f for f in state.battle.fighters if f.creature == "Troll")
    assert troll.hits == 3 and step(state) == "strike"


def test_13_0_only_the_phasing_player_rangestrikes() -> None:
    """13.0: rangestrikes belong to the player whose maneuver preceded the strike phase."""
    state = battle_position(
        20,
        [("Ranger", "A1", 0), ("Ogre", "D3", 0)],
        [("Centaur", "D4", 0), ("Gargoyle", "C4", 0)],
        turn=2,
        phasing="attacker",
        step="strike",
    )
    kinds = {type(c) for c in legal_commands(state)}
    assert cmd.Rangestrike in kinds


def test_wolff_13_5_a_rangestrike_at_a_lord_is_refused_without_using_it() -> None:
    """Wolff 13.5: only warlocks may rangestrike lords; the attempt is refused and the rangestrike kept."""
    state = battle_position(
        20,
        [("Ranger", "A1", 0), ("Titan", "F1", 0)],
        [("Angel", "C3", 0), ("Centaur", "D5", 0)],
        turn=2,
        phasing="attacker",
        step="strike",
    )
    with pytest.raises(RuleError) as error:
        run(state, cmd.Rangestrike(player=ANN, striker="A1", target="C3"), [6, 6])
    assert error.value.code == "E-RANGESTRIKE"
    assert state.battle is not None and state.battle.struck == ()


# -- the end of a battle ----------------------------------------------------------------------------------


def test_10_5_time_loss_after_the_seventh_turn_scores_nothing() -> None:
    """10.5 and Wolff 10.5: after turn 7 the attacker is eliminated and the defender scores nothing."""
    state = battle_position(
        20, [("Ogre", "A1", 0)], [("Centaur", "F4", 0)], turn=7, phasing="attacker", step="strike"
    )
    state = run(state, cmd.Done(player=ANN))
    state = run(state, cmd.Proceed(player=BOB))
    state = run(state, cmd.Done(player=BOB))
    assert step(state) == "end-concede" and to_act(state) == ANN
    state, events = run_events(state, cmd.Proceed(player=ANN))
    resolved = next(e for e in events if isinstance(e, ev.EngagementResolved))
    assert resolved.how == "time loss" and resolved.winner == "Rd01" and resolved.points == 0
    assert resolved.attacker_losses == ("Ogre",)


def test_wolff_9_4_10_5_conceding_preempts_the_time_loss() -> None:
    """Wolff 9.4/10.5 and 2.5.6.4.2.8.1: conceding just as the time loss comes means there is no time loss."""
    state = battle_position(
        20, [("Ogre", "A1", 0)], [("Centaur", "F4", 0)], turn=7, phasing="attacker", step="strike"
    )
    state = run(
        run(run(state, cmd.Done(player=ANN)), cmd.Proceed(player=BOB)), cmd.Done(player=BOB)
    )
    _, events = run_events(state, cmd.Concede(player=ANN))
    resolved = next(e for e in events if isinstance(e, ev.EngagementResolved))
    assert resolved.how == "concession" and resolved.points == 12


def test_wolff_16_0_a_slain_titan_ends_the_battle_and_survivors_score_half() -> None:
    """Wolff 16.0, 19.3/19.4: a slain Titan ends the battle; his surviving characters give half points."""
    state = battle_position(
        20,
        [("Colossus", "D3", 0)],
        [("Titan", "D4", 5), ("Centaur", "F4", 0), ("Centaur", "E5", 0)],
        turn=2,
        phasing="attacker",
        step="strike",
    )
    state = run(state, cmd.Strike(player=ANN, striker="D3", target="D4"), [6] * 10)
    state = run(run(state, cmd.Done(player=ANN)), cmd.Proceed(player=BOB))
    with pytest.raises(RuleError):
        run(state, cmd.Done(player=BOB))  # the slain Titan still strikes back first
    state = run(state, cmd.Strike(player=BOB, striker="D4", target="D3"), [1] * 6)
    state = run(state, cmd.Done(player=BOB))
    assert step(state) == "end-concede" and to_act(state) == ANN
    state, events = run_events(state, cmd.Proceed(player=ANN))
    resolved = next(e for e in events if isinstance(e, ev.EngagementResolved))
    assert resolved.winner == "Bu01" and resolved.defender_losses == ("Titan",)
    assert resolved.points == 24  # the Titan only: power 6 x skill 4 (19.3)
    eliminated = next(e for e in events if isinstance(e, ev.PlayerEliminated))
    assert eliminated.half_points == ((ANN, 12),)  # two centaurs set aside, at half (19.4)
    assert state.player(ANN).score == 36 and state.winner == ANN


def test_2_5_6_6_survivors_are_healed_after_the_battle() -> None:
    """2.5.6.6: damage does not outlast the engagement."""
    state = battle_position(
        20, [("Troll", "D3", 5)], [("Centaur", "D4", 0)], turn=2, phasing="attacker", step="strike"
    )
    state = run(state, cmd.Strike(player=ANN, striker="D3", target="D4"), [6] * 8)
    state = run(state, cmd.Done(player=ANN))
    state = run(state, cmd.Proceed(player=BOB))
    state = run(state, cmd.Strike(player=BOB, striker="D4", target="D3"), [1, 1, 1])
    state = run(state, cmd.Done(player=BOB))
    state = run(state, cmd.Proceed(player=ANN))
    assert state.battle is None
    assert state.legions["Bu01"].contents == ("Troll",)


# -- summoning (15.x) and reinforcement (14.x) in battle ---------------------------------------------------


def _first_blood_then_attacker_maneuver() -> GameState:
    """Ann's ogre slays an entered centaur in turn 2; her next maneuver is turn 3."""
    state = battle_position(
        20,
        [("Ogre", "D3", 0)],
        [("Centaur", "D4", 2), ("Centaur", "F4", 0)],
        turn=2,
        phasing="attacker",
        step="strike",
        extra=[{"marker": "Bu03", "land": 6, "contents": ["Angel", "Gargoyle"]}],
    )
    state = run(state, cmd.Strike(player=ANN, striker="D3", target="D4"), [6] * 6)
    state = run(run(state, cmd.Done(player=ANN)), cmd.Proceed(player=BOB))
    state = run(state, cmd.Strike(player=BOB, striker="D4", target="D3"), [1, 1, 1])
    state = run(state, cmd.Done(player=BOB))
    assert state.battle is not None and state.battle.first_blood and state.battle.summon_turn == 3
    # Bob's turn 3 passes without contact.
    state = run(state, cmd.Done(player=BOB))
    state = run(state, cmd.Done(player=BOB))
    state = run(state, cmd.Proceed(player=ANN))
    state = run(state, cmd.Done(player=ANN))
    assert step(state) == "maneuver" and to_act(state) == ANN
    return state


def test_15_0_summon_in_the_first_attacker_maneuver_after_first_blood() -> None:
    """15.0/15.3: the attacker may summon an angel in his first maneuver after the first defender that entered is slain."""
    state = _first_blood_then_attacker_maneuver()
    summons = [c for c in legal_commands(state) if isinstance(c, cmd.Summon)]
    assert summons == [cmd.Summon(player=ANN, lord="Angel", source="Bu03")]
    state = run(state, summons[0])
    assert state.legions["Bu03"].contents == ("Gargoyle",)
    state = run(state, cmd.Maneuver(player=ANN, creature="Angel", to_hex="A1"))
    state = run(state, cmd.Done(player=ANN))
    assert state.battle is not None
    assert any(f.creature == "Angel" and f.hex == "A1" for f in state.battle.fighters)
    assert "Angel" in state.legions["Bu01"].contents


def test_wolff_15_1_a_summoned_angel_that_does_not_enter_goes_back() -> None:
    """Wolff 10.1/15.1: an angel summoned but not entered returns to its legion as if never summoned."""
    state = _first_blood_then_attacker_maneuver()
    state = run(state, cmd.Summon(player=ANN, lord="Angel", source="Bu03"))
    state, events = run_events(state, cmd.Done(player=ANN))
    assert any(isinstance(e, ev.JoinUndone) for e in events)
    assert state.legions["Bu03"].contents == ("Angel", "Gargoyle")
    assert "Angel" not in state.legions["Bu01"].contents
    assert not state.summoned_this_phase


def test_15_3_the_summons_lapses_after_that_maneuver() -> None:
    """15.3: if the attacker passes up the summons, the option is lost for this battle."""
    state = _first_blood_then_attacker_maneuver()
    state = run(state, cmd.Done(player=ANN))
    assert state.battle is not None and state.battle.summon_turn == 3
    assert not any(isinstance(c, cmd.Summon) for c in legal_commands(state))


def _defender_fourth_maneuver() -> GameState:
    return battle_position(
        20,
        [("Ogre", "A1", 0)],
        [("Centaur", "F4", 0), ("Centaur", "E5", 0)],
        turn=4,
    )


def test_14_0_reinforcement_in_the_defenders_fourth_maneuver() -> None:
    """14.0/14.1: the defender may muster a reinforcement at his fourth maneuver; it enters from his side."""
    state = _defender_fourth_maneuver()
    offered = {
        (c.creature, c.showing) for c in legal_commands(state) if isinstance(c, cmd.Reinforce)
    }
    assert ("Lion", ("Centaur", "Centaur")) in offered and ("Centaur", ("Centaur",)) in offered
    state = run(state, cmd.Reinforce(player=BOB, creature="Lion", showing=("Centaur", "Centaur")))
    state = run(state, cmd.Maneuver(player=BOB, creature="Lion", to_hex="D6"))
    state = run(state, cmd.Done(player=BOB))
    assert state.legions["Rd01"].contents == ("Centaur", "Centaur", "Lion")
    assert state.battle is not None and state.battle.reinforced is not None


def test_wolff_14_1_a_reinforcement_that_does_not_enter_returns_to_the_caretaker() -> None:
    """Wolff 10.1/14.1: a reinforcement left off is returned alive, as if never mustered."""
    state = _defender_fourth_maneuver()
    lions = state.caretaker["Lion"]
    state = run(state, cmd.Reinforce(player=BOB, creature="Lion"))
    assert state.caretaker["Lion"] == lions - 1
    state = run(state, cmd.Done(player=BOB))
    assert state.caretaker["Lion"] == lions
    assert state.legions["Rd01"].contents == ("Centaur", "Centaur")


def test_14_0_no_reinforcement_before_the_fourth_maneuver() -> None:
    """14.0: reinforcements come only at the defender's fourth maneuver."""
    state = battle_position(
        20, [("Ogre", "A1", 0)], [("Centaur", "F4", 0), ("Centaur", "E5", 0)], turn=3
    )
    with pytest.raises(RuleError) as error:
        run(state, cmd.Reinforce(player=BOB, creature="Lion"))
    assert error.value.code == "E-REINFORCE"


def test_wolff_14_2_a_defender_who_wins_the_battle_may_reinforce_afterwards() -> None:
    """2.5.6.5 and Wolff 14.0/14.2: after the attacker's first maneuver the defender earned his reinforcement."""
    state = battle_position(
        20,
        [("Ogre", "D3", 5)],
        [("Centaur", "D4", 0), ("Centaur", "F4", 0)],
        turn=2,
        step="strike",
    )
    state = run(state, cmd.Strike(player=BOB, striker="D4", target="D3"), [6] * 3)
    state = run(run(state, cmd.Done(player=BOB)), cmd.Proceed(player=ANN))
    state = run(state, cmd.Strike(player=ANN, striker="D3", target="D4"), [1] * 6)
    state = run(state, cmd.Done(player=ANN))
    state, events = run_events(state, cmd.Proceed(player=BOB))
    assert any(isinstance(e, ev.DecisionAwaited) and e.what == "reinforce" for e in events)
    assert state.step is Step.REINFORCE and to_act(state) == BOB


# -- more Wolff battle clauses -------------------------------------------------------------------------


def test_wolff_13_4_rangestrikes_are_optional() -> None:
    """Wolff 13.4: unlike strikes, rangestrikes may be left unused."""
    state = battle_position(
        20, [("Ranger", "A1", 0)], [("Centaur", "C2", 0)], turn=2, phasing="attacker", step="strike"
    )
    assert any(isinstance(c, cmd.Rangestrike) for c in legal_commands(state))
    state = run(state, cmd.Done(player=ANN))
    assert step(state) == "counter-concede"


def test_wolff_10_1_a_titan_left_off_ends_the_battle_after_the_strike_phase() -> None:
    """Wolff 10.1/16.0: refusing to enter the Titan slays it; the battle ends after that strike phase."""
    state = fresh(20, ["Ogre"], ["Titan", "Centaur"])
    state = run(run(state, cmd.Proceed(player=ANN)), cmd.Proceed(player=BOB))
    state = run(state, cmd.Maneuver(player=BOB, creature="Centaur", to_hex="E5"))
    state = run(state, cmd.Done(player=BOB))
    state = run(state, cmd.Done(player=BOB))  # no strikes possible
    state = run(state, cmd.Proceed(player=ANN))
    state = run(state, cmd.Done(player=ANN))
    assert step(state) == "end-concede"
    state, events = run_events(state, cmd.Proceed(player=BOB))
    resolved = next(e for e in events if isinstance(e, ev.EngagementResolved))
    assert resolved.defender_losses == ("Titan",) and resolved.winner == "Bu01"
    assert state.player(BOB).eliminated


def test_wolff_10_1_entering_nothing_is_not_a_concession() -> None:
    """Wolff 10.1: leaving every character off is not conceding; the battle runs to the end of that strike phase."""
    state = fresh(20, ["Ogre"], ["Centaur", "Gargoyle"])
    state = run(run(state, cmd.Proceed(player=ANN)), cmd.Proceed(player=BOB))
    state, events = run_events(state, cmd.Done(player=BOB))
    assert not any(isinstance(e, ev.BattleEnded) for e in events)
    assert step(state) == "strike" and to_act(state) == BOB
    state = run(run(state, cmd.Done(player=BOB)), cmd.Proceed(player=ANN))
    state = run(state, cmd.Done(player=ANN))
    assert step(state) == "end-concede" and to_act(state) == BOB
    _, events = run_events(state, cmd.Proceed(player=BOB))
    resolved = next(e for e in events if isinstance(e, ev.EngagementResolved))
    assert resolved.how == "battle" and resolved.winner == "Bu01"
    assert resolved.attacker_losses == () and resolved.points == 12 + 12


def test_wolff_15_0_only_one_summons_per_engagement_phase() -> None:
    """Wolff 15.0: a player summons at most once in his whole engagement phase."""
    state = _first_blood_then_attacker_maneuver()
    spent = replace(state, summoned_this_phase=True)
    assert not any(isinstance(c, cmd.Summon) for c in legal_commands(spent))
