"""Reports and histories name the game's variant where it is not the standard game, and a
battle's history line says which battleland a die chose (Badlands)."""

from __future__ import annotations

import pytest

from moderator.letters.reports import status
from moderator.reporting.narrate import history_lines
from moderator.reporting.views import player_view
from moderator.rules import setup
from moderator.rules.dice import ScriptedDice
from moderator.rules.evolve import replay
from moderator.usecases.games.robot_games import play_robot_game


@pytest.mark.parametrize(("variant", "named"), [
    ("titanplus", "TITANplus (variant titanplus)"),
    ("badlands", "Badlands (variant badlands)"),
])  # fmt: skip
def test_the_history_and_the_report_name_the_variant(variant: str, named: str) -> None:
    events = setup.start_game(["Ann", "Bob"], ScriptedDice([6, 3]), variant=variant)
    assert any(f"A game of {named} was created for Ann and Bob" in line for line in history_lines(events, "Ann"))
    assert f"Playing {named}." in status(player_view(replay(events), "Ann"), "Ann")


def test_a_standard_game_reads_as_it_always_did() -> None:
    events = setup.start_game(["Ann", "Bob"], ScriptedDice([6, 3]))
    assert any("A game of Titan was created for Ann and Bob" in line for line in history_lines(events, "Ann"))
    assert "Playing" not in status(player_view(replay(events), "Ann"), "Ann")


def test_badlands_the_history_tells_the_die_that_chose_the_battleland() -> None:
    for seed in range(11, 40):
        played = play_robot_game(2, seed, variant="badlands")
        lines = [line for line in history_lines(played.events, None) if "for the defender)" in line]
        if lines:
            assert ", by a roll of " in lines[0]
            return
    pytest.fail("no robot game of Badlands rolled for a battleland")
