"""
The rule options built from seed 000 (the 1980 original and the 1981 Battlelands of
Titan): each tested on its own in a variant that is the standard game with that one
option changed, against the standard game's answer.  Section numbers are the seed's:
1980 sections 1-21, the 1981 supplement 22-29.
"""

from __future__ import annotations

import dataclasses

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules import setup
from moderator.rules.dice import ScriptedDice
from moderator.rules.legal import legal_commands
from moderator.rules.movement import legion_moves
from moderator.rules.options import RuleOptions
from moderator.rules.positions import position_event
from moderator.rules.state import Step
from moderator.rules.variant import STANDARD, load_variant, register_variant
from tests.rules.conftest import Game, build_position
from tests.rules.test_battle_sequence import battle_position, run_events


def _variant(name: str, **options: bool) -> str:
    return register_variant(
        dataclasses.replace(load_variant(STANDARD), name=name, options=RuleOptions(**options))
    ).name


NO_MULLIGAN = _variant("test-1980-no-mulligan", first_move_mulligan=False)
SEVEN_STAY = _variant("test-1980-seven-stay", seven_high_legions_move=False)
HEADS = _variant("test-1981-hydra-heads", hydra_three_heads=True)


def _first_turn(variant: str) -> Game:
    """Ann on her very first turn, split 4-4 and rolled (a 2)."""
    game = Game(setup.start_game(["Ann", "Bob"], ScriptedDice([6, 3]), variant=variant))
    game.do(cmd.ChooseColour(player="Bob", colour="Blue"))
    game.do(cmd.ChooseColour(player="Ann", colour="Red"))
    (marker,) = [lg.marker for lg in game.state.legions_of("Ann")]
    four = ("Angel", "Gargoyle", "Gargoyle", "Centaur")
    game.do(cmd.Split(player="Ann", parent=marker, child=None, characters=four))
    game.do(cmd.Roll(player="Ann"), 2)
    return game


def _mulligans(game: Game) -> list[cmd.Command]:
    return [c for c in legal_commands(game.state) if isinstance(c, cmd.Mulligan)]


def test_1981_23a_first_move_mulligan() -> None:
    """1981 23A (kept as 1982 7.6): on his very first turn a player may roll his movement again, once."""
    game = _first_turn(STANDARD)
    assert game.state.step is Step.MOVE and _mulligans(game)
    events = game.do(cmd.Mulligan(player="Ann"), 4)
    assert game.one(events, ev.MovementRolled).mulligan


def test_1980_no_first_move_mulligan() -> None:
    """1980 (option off): the original game has no mulligan; asking for one is refused."""
    game = _first_turn(NO_MULLIGAN)
    assert game.state.step is Step.MOVE and not _mulligans(game)
    refusal = game.refused(cmd.Mulligan(player="Ann"), "E-MULLIGAN")
    assert "1980" in str(refusal)


SEVEN = "Titan Ogre Ogre Troll Troll Lion Lion"


def _seven_high(variant: str) -> Game:
    position = build_position(
        [("Rd01", 34, SEVEN), ("Rd02", 35, "Troll Troll"), ("Bu01", 300, "Titan Ogre")],
        roll=1,
        variant=variant,
    )
    return Game([position_event(position)])


def test_1981_23b_a_seven_high_legion_may_move() -> None:
    """1981 23B (kept as 1982 4.1): a legion of seven characters moves like any other."""
    game = _seven_high(STANDARD)
    assert legion_moves(game.state, game.legion("Rd01"))


def test_1980_4e_a_seven_high_legion_may_not_move() -> None:
    """1980 4E/7B (option off): a legion of seven characters cannot be moved; the others still can."""
    game = _seven_high(SEVEN_STAY)
    assert legion_moves(game.state, game.legion("Rd01")) == []
    moves = {c.marker for c in legal_commands(game.state) if isinstance(c, cmd.MoveLegion)}
    assert moves == {"Rd02"}
    land = legion_moves(game.state, game.legion("Rd02"))[0].land
    refusal = game.refused(cmd.MoveLegion(player="Ann", marker="Rd01", land=land), "E-MOVE")
    assert "seven" in str(refusal) and "4E" in str(refusal)


def test_1980_8d_a_seven_high_legion_may_not_teleport() -> None:
    """1980 8D (option off): a legion of seven cannot teleport either, even on a 6 in a tower."""
    position = build_position(
        [("Rd01", 600, SEVEN), ("Bu01", 300, "Titan Ogre")], roll=6, variant=SEVEN_STAY
    )
    game = Game([position_event(position)])
    assert legion_moves(game.state, game.legion("Rd01")) == []
    game.refused(cmd.MoveLegion(player="Ann", marker="Rd01", land=100, teleport=True), "E-MOVE")
    assert cmd.Done(player="Ann") in legal_commands(game.state)  # no legal move: Wolff 6.2


def _hydra_battle(variant: str | None):
    return battle_position(
        1,
        [("Hydra", "D1", 0)],
        [("Centaur", "D3", 0), ("Ogre", "B1", 0), ("Lion", "F1", 0)],
        phasing="attacker",
        step="strike",
        variant=variant,
    )


def _rangestrikes(state) -> list[cmd.Rangestrike]:
    return [c for c in legal_commands(state) if isinstance(c, cmd.Rangestrike)]


def test_1981_27e_the_hydra_rangestrikes_with_three_heads_of_two_dice() -> None:
    """1981 27E: each of a Hydra's three heads rangestrikes with two dice, at the same or different targets."""
    state = _hydra_battle(HEADS)
    targets = sorted({c.target for c in _rangestrikes(state)})
    assert len(targets) >= 2
    rolled: list[ev.StrikeRolled] = []
    for target in (targets[0], targets[1], targets[1]):
        options = [c for c in _rangestrikes(state) if c.target == target]
        assert options, f"no rangestrike left at {target}"
        state, events = run_events(state, options[0], [1, 1])
        rolled.extend(e for e in events if isinstance(e, ev.StrikeRolled))
    assert [len(r.rolls) for r in rolled] == [2, 2, 2]
    assert all(r.rangestrike for r in rolled)
    assert _rangestrikes(state) == []  # the three heads are spent


def test_1982_13_1_the_hydra_rangestrikes_once_with_half_its_power() -> None:
    """1982 13.1 (the default): one rangestrike a phase, with half the Hydra's power of 10: five dice."""
    state = _hydra_battle(None)
    strike = _rangestrikes(state)[0]
    state, events = run_events(state, strike, [1, 1, 1, 1, 1])
    (rolled,) = [e for e in events if isinstance(e, ev.StrikeRolled)]
    assert len(rolled.rolls) == 5
    assert _rangestrikes(state) == []
