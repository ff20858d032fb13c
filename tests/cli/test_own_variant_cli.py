"""
A group's own variant on the command line (docs/variants.md, "A group's own variant"):
``$TITAN_VARIANTS_DIRECTORY`` (or ``[variants] directory``) names a directory of them;
``variant list`` shows them, ``local new``, ``play`` and ``game new`` take them, and a
game whose variant's files changed since it began is refused with a message.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moderator.cli import app
from moderator.rules.variant import forget_own_variant, read_own_variant
from moderator.runtime.config import ConfigError, load_config
from moderator.runtime.variants import install_configured
from tests.ownvariant import NAME, change_muster, write_own_variant

runner = CliRunner()


@pytest.fixture
def own_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The variants directory, named by the environment, with the group's variant in it."""
    root = tmp_path / "variants"
    write_own_variant(root)
    monkeypatch.setenv("TITAN_VARIANTS_DIRECTORY", str(root))
    yield root
    forget_own_variant(NAME)


def test_variant_list_shows_a_groups_own_variant_after_the_shipped(own_dir: Path) -> None:
    result = runner.invoke(app, ["variant", "list"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("badlands:")
    digest = read_own_variant(own_dir / NAME).digest
    assert lines[-1].startswith(f"{NAME}: Plains Lions (our group, 2026)")
    assert f"own variant in {own_dir / NAME}, digest {digest[:16]}" in lines[-1]


def test_local_new_plays_an_own_variant_and_refuses_it_once_its_files_changed(own_dir: Path, tmp_path: Path) -> None:
    """The game records its variant's digest; after the files change, the game is refused, naming why."""
    db = f"sqlite:///{tmp_path / 'games.sqlite'}"
    new = ["local", "new", "g", "--players", "Ann,Bob", "--dice-seed", "3", "--variant", NAME, "--db", db]
    result = runner.invoke(app, new)
    assert result.exit_code == 0, result.output
    shown = runner.invoke(app, ["local", "show", "g", "--as", "Ann", "--json", "--db", db])
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["variant"] == NAME
    change_muster(own_dir / NAME)
    refused = runner.invoke(app, ["local", "show", "g", "--as", "Ann", "--db", db])
    assert refused.exit_code == 2
    assert f"variant {NAME!r}" in refused.output and "changed since the game began" in refused.output
    # a new game is played on the files as they are now
    result = runner.invoke(app, [*new[:2], "g2", *new[3:]])
    assert result.exit_code == 0, result.output


def test_play_a_robot_game_of_an_own_variant(own_dir: Path) -> None:
    result = runner.invoke(
        app, ["play", "--players", "2", "--robots", "random", "--seed", "5", "--variant", NAME, "--json"]
    )
    assert result.exit_code == 0, result.output
    (game,) = json.loads(result.stdout)
    assert game["variant"] == NAME and game["finished"]


def test_the_configuration_names_the_variants_directory(tmp_path: Path) -> None:
    """``[variants] directory`` in the configuration file, read by the composition root."""
    root = tmp_path / "variants"
    write_own_variant(root)
    path = tmp_path / "moderator.toml"
    path.write_text(f'[variants]\ndirectory = "{root}"\n', encoding="utf-8")
    try:
        assert install_configured(load_config(path, environ={})) == (NAME,)
    finally:
        forget_own_variant(NAME)


def test_an_own_variant_named_like_a_shipped_one_is_refused(tmp_path: Path) -> None:
    """A game naming ``titanplus`` always means the shipped TITANplus: an own variant may not take the name."""
    root = tmp_path / "variants"
    write_own_variant(root, "titanplus")
    with pytest.raises(ConfigError, match="titanplus.*shipped variant's"):
        install_configured(load_config(None, environ={"TITAN_VARIANTS_DIRECTORY": str(root)}))


def test_a_broken_own_variant_is_refused_naming_its_file(tmp_path: Path) -> None:
    root = tmp_path / "variants"
    directory = write_own_variant(root)
    (directory / "muster.toml").write_text("[chain]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="muster.toml"):
        install_configured(load_config(None, environ={"TITAN_VARIANTS_DIRECTORY": str(root)}))
