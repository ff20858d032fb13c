"""The variants on the command line: ``--help`` lists them, ``local new``, ``play`` and
``game new`` take one, ``variant list`` and ``variant check`` show and check them."""

from __future__ import annotations

import json
import shutil
from importlib.resources import as_file, files
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moderator.cli import app
from moderator.rules.variant import shipped_variants
from moderator.testing.stores import open_store

runner = CliRunner()


@pytest.mark.parametrize("command", [["play"], ["local", "new"], ["game", "new"]])
def test_help_lists_the_shipped_variants_by_name(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert "--variant" in result.stdout
    assert ", ".join(shipped_variants()) in " ".join(result.stdout.split())


def test_local_new_sets_a_game_up_in_titanplus(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.sqlite'}"
    result = runner.invoke(
        app, ["local", "new", "g", "--players", "Ann,Bob", "--dice-seed", "3", "--variant", "titanplus", "--db", db]
    )
    assert result.exit_code == 0, result.output
    with open_store(db) as store:
        assert store.load("g")[0].variant == "titanplus"


def test_play_a_robot_game_of_badlands() -> None:
    result = runner.invoke(
        app, ["play", "--players", "2", "--robots", "random", "--seed", "5", "--variant", "badlands", "--json"]
    )
    assert result.exit_code == 0, result.output
    (game,) = json.loads(result.stdout)
    assert game["variant"] == "badlands" and game["finished"]


def test_an_unknown_variant_is_refused_naming_those_there_are() -> None:
    result = runner.invoke(app, ["play", "--variant", "titan-plus"])
    assert result.exit_code == 2 and "titanplus" in result.output


def test_variant_list_names_titles_and_options() -> None:
    result = runner.invoke(app, ["variant", "list"])
    assert result.exit_code == 0, result.output
    assert "titanplus: TITANplus (" in result.stdout
    assert "battleland_choice = 'defender-roll'" in result.stdout


def test_variant_check_names_the_file_at_fault(tmp_path: Path) -> None:
    with as_file(files("moderator.rules") / "data" / "titanplus") as source:
        copy = Path(shutil.copytree(source, tmp_path / "mine"))
    assert runner.invoke(app, ["variant", "check", str(copy)]).exit_code == 0
    muster = copy / "muster.toml"
    muster.write_text(muster.read_text(encoding="utf-8").replace("guardian_needs = 3", ""), "utf-8")
    result = runner.invoke(app, ["variant", "check", str(copy)])
    assert result.exit_code == 1
    assert "mine/muster.toml: a table lacks the field 'guardian_needs'" in result.output
