"""
The variant seam: a game names its variant when it is set up, its state keeps the name,
and the rules read the board, characters and mustering from there.

The suite's second variant (``conftest.TOWER_LIONS``: towers muster Lions instead of
Ogres, a Guardian takes two of a kind) shows the rules really take the game's variant;
a log written before games named one is read as the standard game.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules import setup
from moderator.rules.codec import decode, encode
from moderator.rules.dice import ScriptedDice
from moderator.rules.errors import RuleError
from moderator.rules.evolve import replay
from moderator.rules.legal import legal_commands
from moderator.rules.positions import export_position, position_event
from moderator.rules.state import GameState
from moderator.rules.variant import (
    STANDARD,
    UnknownVariantError,
    Variant,
    load_variant,
    register_variant,
    shipped_variants,
    variant_names,
)

from .conftest import TOWER_LIONS, build_position

BOB = ("Bu01", 300, "Titan Ogre")


def _offered(game, marker: str = "Rd02") -> set[str]:
    return {
        c.creature
        for c in legal_commands(game.state)
        if getattr(c, "marker", None) == marker and hasattr(c, "creature")
    }


def _in_tower(game_at, contents: str):
    legions = [("Rd01", 100, "Titan"), ("Rd02", 600, contents, True), BOB]
    return game_at(legions, phase="muster", roll=1)


# -- the rules read the game's variant ----------------------------------------------------


def test_18_5_a_tower_musters_the_tower_creatures_of_the_games_variant(game_at, variant) -> None:
    """18.5: what a tower offers is the variant's tower muster (the second variant's Lion)."""
    game = _in_tower(game_at, "Troll Ogre")
    assert game.state.variant_name == variant.name
    assert _offered(game) == set(variant.tower_creatures)
    if variant is TOWER_LIONS:
        assert "Lion" in _offered(game) and "Ogre" not in _offered(game)
        events = game.do(_muster("Lion"))
        assert game.one(events, ev.CreatureMustered).creature == "Lion"
        _in_tower(game_at, "Troll Ogre").refused(_muster("Ogre"), "E-MUSTER")


def test_18_5_a_guardian_takes_as_many_of_a_kind_as_the_variant_says(game_at, variant) -> None:
    """18.5: two Trolls qualify a Guardian only where the variant asks for two."""
    game = _in_tower(game_at, "Troll Troll Ogre")
    assert ("Guardian" in _offered(game)) == (variant.guardian_needs <= 2)
    assert variant.guardian_needs == (2 if variant is TOWER_LIONS else 3)


def _muster(creature: str, *showing: str) -> cmd.Muster:
    return cmd.Muster(player="Ann", marker="Rd02", creature=creature, showing=showing)


def test_the_variant_rides_in_the_setup_event_and_the_state(variant) -> None:
    """The game's setup names its variant; the state keeps it through the codec."""
    events = setup.start_game(["Ann", "Bob"], ScriptedDice([6, 3]), variant=variant.name)
    created = events[0]
    assert isinstance(created, ev.GameCreated) and created.variant == variant.name
    stored = [decode(json.loads(json.dumps(encode(e)))) for e in events]
    state = replay(stored)
    assert state.variant_name == variant.name
    assert state.variant is load_variant(variant.name)


def test_a_restored_position_keeps_its_variant(game_at, variant) -> None:
    """A position file names its variant (none: standard) and restores into it."""
    game = game_at([("Rd01", 600, "Titan Ogre"), BOB], phase="split")
    exported = export_position(game.state)
    assert exported.get("variant", STANDARD) == variant.name
    again = replay([position_event(exported)])
    assert again.variant_name == variant.name
    assert export_position(again) == exported


def test_a_battle_is_fought_on_the_variants_battleland(game_at, variant) -> None:
    """The battle and its fighters name the game's variant, whose tables they read."""
    game = game_at(
        [("Rd01", 1, "Titan Ogre", True), ("Bu01", 1, "Titan Centaur")],
        phase="engage",
        roll=1,
    )
    game.do(cmd.Engage(player="Ann", land=1))
    game.do(cmd.NoMore(player="Bob"))
    game.do(cmd.Fight(player="Ann"))
    battle = game.state.battle
    assert battle is not None and battle.variant_name == variant.name
    assert battle.battleland is variant.battlelands[battle.terrain]
    assert {f.variant_name for f in battle.fighters} == {variant.name}


# -- old logs: upcast to the standard game ------------------------------------------------


def _as_version_1(record: dict) -> dict:
    """A stored record as it was written before events named a variant."""
    payload = {k: v for k, v in record["payload"].items() if k != "variant"}
    return {**record, "version": 1, "payload": payload}


def test_an_old_log_without_a_variant_folds_to_the_standard_game() -> None:
    """A setup event with no variant name is read as the standard game, unrewritten."""
    events = setup.start_game(["Ann", "Bob"], ScriptedDice([6, 3]))
    records = [json.loads(json.dumps(encode(e))) for e in events]
    old = [_as_version_1(r) if r["type"] == "game-created" else r for r in records]
    assert "variant" not in old[0]["payload"] and old[0]["version"] == 1
    upcast = [decode(r) for r in old]
    assert upcast == events
    state = replay(upcast)
    assert state.variant_name == STANDARD and state.variant is load_variant(STANDARD)


def test_an_old_position_without_a_variant_folds_to_the_standard_game() -> None:
    """A restored position stored before variants existed is the standard game too."""
    loaded = position_event(build_position([("Rd01", 600, "Titan"), ("Bu01", 300, "Titan")]))
    old = _as_version_1(json.loads(json.dumps(encode(loaded))))
    upcast = decode(old)
    assert isinstance(upcast, ev.PositionLoaded) and upcast.variant == STANDARD
    assert replay([upcast]).variant_name == STANDARD


def test_an_empty_state_is_the_standard_game() -> None:
    """Before any event (a history's first line, a parser with no game) the game is standard."""
    assert GameState().variant_name == STANDARD


# -- finding variants by name -------------------------------------------------------------


def test_load_variant_is_cached_per_name() -> None:
    assert load_variant(STANDARD) is load_variant(STANDARD)
    assert load_variant(STANDARD).name == STANDARD
    assert load_variant(TOWER_LIONS.name) is TOWER_LIONS


def test_an_unknown_variant_is_answered_with_the_names_known() -> None:
    with pytest.raises(UnknownVariantError) as info:
        load_variant("Badlands")
    assert "'Badlands'" in str(info.value) and STANDARD in str(info.value)


def test_a_game_in_an_unknown_variant_is_refused_before_it_exists() -> None:
    with pytest.raises(RuleError) as info:
        setup.start_game(["Ann", "Bob"], ScriptedDice([6, 3]), variant="Badlands")
    assert info.value.code == "E-VARIANT" and STANDARD in str(info.value)
    data = {**build_position([("Rd01", 600, "Titan"), ("Bu01", 300, "Titan")]), "variant": "x"}
    with pytest.raises(RuleError) as info:
        position_event(data)
    assert info.value.code == "E-POSITION" and STANDARD in str(info.value)


def test_the_test_variant_is_not_offered_to_players() -> None:
    """Shipped variants are the data folders; the suite's second variant is not one."""
    assert TOWER_LIONS.name not in shipped_variants() and STANDARD in shipped_variants()
    registered = set(variant_names()) - set(shipped_variants())
    # the suite's second variant, and the one-option variants of the options' tests
    assert TOWER_LIONS.name in registered
    assert all(name.startswith("test-") for name in registered)


def test_a_registered_name_keeps_its_meaning() -> None:
    with pytest.raises(ValueError, match="shipped"):
        register_variant(load_variant(STANDARD))
    other: Variant = dataclasses.replace(TOWER_LIONS, guardian_needs=3)
    with pytest.raises(ValueError, match="already registered"):
        register_variant(other)
    assert register_variant(TOWER_LIONS) is TOWER_LIONS
