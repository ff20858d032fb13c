"""
Wolff's six worked strike examples (errata 12.0-12.5), each set up from a
position file with a battle in progress and checked through the legal
actions and the carry-over choices the game offers after the roll.

Blue is Ann, the attacker and the phasing player; Red is Bob.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from moderator.rules import commands as cmd
from moderator.rules.decide import apply
from moderator.rules.dice import ScriptedDice
from moderator.rules.evolve import replay
from moderator.rules.legal import legal_commands
from moderator.rules.positions import position_event
from moderator.rules.state import GameState

LANDS = {"Plains": 1, "Desert": 7, "Tower": 100, "Brush": 3}


def position(terrain: str, blue: dict[str, str], red: dict[str, str]) -> GameState:
    """``blue``/``red`` map hex -> creature; Titans wait elsewhere."""
    land = LANDS[terrain]
    characters = [{"legion": "Bu01", "type": c, "hex": h} for h, c in blue.items()]
    characters += [{"legion": "Rd01", "type": c, "hex": h} for h, c in red.items()]
    data: dict[str, Any] = {
        "players": [
            {"name": "Ann", "color": "Blue", "tower": 600},
            {"name": "Bob", "color": "Red", "tower": 300 if land != 300 else 200},
        ],
        "turn": 6,
        "active": "Ann",
        "phase": "engage",
        "roll": 2,
        "legions": [
            {"marker": "Bu01", "land": land, "contents": list(blue.values()), "moved": True},
            {"marker": "Rd01", "land": land, "contents": list(red.values())},
            {"marker": "Bu02", "land": 42, "contents": ["Titan"]},
            {"marker": "Rd02", "land": 22, "contents": ["Titan"]},
        ],
        "battle": {
            "land": land,
            "attacker": "Bu01",
            "defender": "Rd01",
            "entry": "bottom",
            "turn": 3,
            "phasing": "attacker",
            "step": "strike",
            "characters": characters,
        },
    }
    return replay([position_event(data)])


def strike_options(state: GameState, striker: str) -> set[tuple[str, int, int]]:
    """(target hex, strike number, dice) of every legal strike of ``striker``."""
    return {
        (c.target, c.strike_number or 0, c.dice or 0)
        for c in legal_commands(state)
        if isinstance(c, cmd.Strike) and c.striker == striker
    }


def carries_after(state: GameState, strike: cmd.Strike, rolls: list[int]) -> set[tuple[str, ...]]:
    """Every carry-over allocation offered after the strike rolls ``rolls``."""
    after, _ = apply(state, strike, ScriptedDice(rolls))
    assert after.battle is not None and after.battle.step == "carry"
    return {c.targets for c in legal_commands(after) if isinstance(c, cmd.Carry)}


def damage_after(
    state: GameState, strike: cmd.Strike, rolls: list[int], carry: tuple[str, ...]
) -> dict[str, int]:
    after, _ = apply(state, strike, ScriptedDice(rolls))
    after, _ = apply(after, cmd.Carry(player="Ann", targets=carry), ScriptedDice([]))
    assert after.battle is not None
    return {f.hex or "": f.hits for f in after.battle.fighters if f.side == "defender"}


def test_wolff_12_example_1_plains_cyclops_options_and_carry() -> None:
    """Example 1: ogre or troll at 4s (carry to the other) or 6s (carry to all); ranger at 6s; never 5s."""
    state = position("Plains", {"D4": "Cyclops"}, {"D3": "Troll", "D5": "Ogre", "E4": "Ranger"})
    assert strike_options(state, "D4") == {
        ("D5", 4, 9),
        ("D5", 6, 9),
        ("D3", 4, 9),
        ("D3", 6, 9),
        ("E4", 6, 9),
    }
    at_six = cmd.Strike(player="Ann", striker="D4", target="D5", strike_number=6)
    assert carries_after(state, at_six, [6] * 9) == {(), ("D3",), ("E4",)}
    assert damage_after(state, at_six, [6] * 9, ("E4",)) == {"D3": 0, "D5": 6, "E4": 3}
    at_four = cmd.Strike(player="Ann", striker="D4", target="D5", strike_number=4)
    assert carries_after(state, at_four, [6] * 9) == {
        (),
        ("D3",),
    }  # the 6s may not reach the ranger


def test_wolff_12_example_2_desert_no_carry_up_a_dune_from_a_level_strike() -> None:
    """Example 2: the ogre strikes the lion with 6 dice at 5s, or the griffon with 5 dice at 6s; nothing else."""
    state = position("Desert", {"F3": "Ogre"}, {"F4": "Lion", "E4": "Griffon"})
    assert strike_options(state, "F3") == {("F4", 5, 6), ("E4", 6, 5)}


def test_wolff_12_example_3_desert_hydra_and_the_dune_bonus() -> None:
    """Example 3: 12 dice at the colossus with no carry; 10 at either centaur carrying to both others."""
    state = position(
        "Desert", {"D5": "Hydra"}, {"C5": "Centaur", "D6": "Centaur", "C4": "Colossus"}
    )
    assert strike_options(state, "D5") == {("C4", 5, 12), ("C5", 5, 10), ("D6", 5, 10)}
    strike = cmd.Strike(player="Ann", striker="D5", target="C5")
    rolls = [1, 2, 5, 5, 5, 5, 6, 6, 6, 6]  # 8 hits
    assert carries_after(state, strike, rolls) == {(), ("D6",), ("D6", "C4"), ("C4",)}
    assert damage_after(state, strike, rolls, ("D6", "C4")) == {"C5": 3, "D6": 3, "C4": 2}
    assert damage_after(state, strike, rolls, ("C4",)) == {"C5": 3, "D6": 0, "C4": 5}


def test_wolff_12_example_3_a_damaged_colossus_allows_refusing_the_bonus() -> None:
    """Example 3, note: had the colossus been damaged, the hydra could refuse its bonus to carry over."""
    state = position(
        "Desert", {"D5": "Hydra"}, {"C5": "Centaur", "D6": "Centaur", "C4": "Colossus"}
    )
    data_hits = {"C4": 1}  # one hit on the colossus
    assert state.battle is not None
    fighters = tuple(replace(f, hits=data_hits.get(f.hex or "", 0)) for f in state.battle.fighters)
    damaged = replace(state, battle=replace(state.battle, fighters=fighters))
    assert ("C4", 5, 10) in strike_options(damaged, "D5")


def test_wolff_12_example_4_desert_carry_up_dunes_only_from_a_strike_up_a_dune() -> None:
    """Example 4: 10 dice at 5s whatever the target; from C5 no carry, from D4 carry both ways."""
    state = position("Desert", {"C4": "Hydra"}, {"C5": "Centaur", "D4": "Centaur", "D5": "Centaur"})
    assert strike_options(state, "C4") == {("C5", 5, 10), ("D4", 5, 10), ("D5", 5, 10)}
    rolls = [1, 2, 5, 5, 5, 5, 6, 6, 6, 6]
    level = cmd.Strike(player="Ann", striker="C4", target="C5")
    after, _ = apply(state, level, ScriptedDice(rolls))
    assert after.battle is not None and after.battle.step == "strike"  # no carry at all
    up = cmd.Strike(player="Ann", striker="C4", target="D4")
    assert carries_after(state, up, rolls) == {
        (),
        ("C5",),
        ("D5",),
        ("C5", "D5"),
        ("D5", "C5"),
    }


def test_wolff_12_example_5_tower_walls_give_equal_strike_numbers() -> None:
    """Example 5: down a wall at the centaur and up a wall at the ogre both need 4s, so carry goes either way."""
    state = position("Tower", {"C3": "Hydra"}, {"B2": "Centaur", "D4": "Ogre"})
    assert strike_options(state, "C3") == {("B2", 4, 10), ("D4", 4, 10)}
    strike = cmd.Strike(player="Ann", striker="C3", target="B2")
    assert carries_after(state, strike, [6] * 10) == {(), ("D4",)}


def test_wolff_12_example_6_brush_rangestrike_paths() -> None:
    """Example 6: rangestrike the gargoyle at 5s, or the centaur at 5s (via C3) or 6s (via the bramble C4); 5 dice."""
    state = position("Brush", {"D4": "Hydra"}, {"B3": "Centaur", "B4": "Gargoyle"})
    options = {
        (c.target, c.strike_number, c.via)
        for c in legal_commands(state)
        if isinstance(c, cmd.Rangestrike)
    }
    assert {(t, n) for t, n, _ in options} == {("B4", 5), ("B3", 5), ("B3", 6)}
    assert ("B3", 6, ("C4",)) in options and ("B3", 5, ("C3",)) in options
    after, events = apply(
        state,
        cmd.Rangestrike(player="Ann", striker="D4", target="B3", via=("C4",)),
        ScriptedDice([6] * 5),
    )
    rolled = [e for e in events if type(e).__name__ == "StrikeRolled"]
    assert len(rolled[0].rolls) == 5 and rolled[0].strike_number == 6  # type: ignore[attr-defined]
    assert (
        after.battle is not None and after.battle.step == "strike"
    )  # no carry-over from rangestrikes
    assert not any(isinstance(c, cmd.Strike) for c in legal_commands(state))
