"""
The built wheel carries the templates, the board data and the database migrations,
and works from them.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from moderator.rules.variant import shipped_variants
from moderator.store import migrate

REPO = Path(__file__).resolve().parents[1]


def _build_wheel(out: Path) -> Path:
    """
    ``pip wheel`` of this tree.  With the build backend installed here (the ``test``
    extra brings hatchling), pip builds with it, as an isolated build would after first
    installing hatchling into a fresh environment of its own: that environment was two
    thirds of the build's processor time, and needs the package index.  Without it, pip
    builds in isolation.
    """
    command = [sys.executable, "-m", "pip", "wheel", str(REPO), "-w", str(out), "--no-deps"]
    if importlib.util.find_spec("hatchling") is not None:
        command.append("--no-build-isolation")
    result = subprocess.run(command, capture_output=True, text=True, cwd=REPO, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    (wheel,) = out.glob("titan_moderator-*.whl")
    return wheel


@pytest.mark.long
def test_wheel_contains_templates_and_data(tmp_path: Path) -> None:
    wheel = _build_wheel(tmp_path / "dist")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in (
        "moderator/templates/status.txt.j2",
        "moderator/templates/battle.txt.j2",
        "moderator/rules/data/standard/masterboard.toml",
        "moderator/rules/data/standard/battlelands.toml",
        "moderator/store/migrations/env.py",
        "moderator/store/migrations/versions/0001_foundation.py",
        "moderator/store/migrations/versions/0002_durable_store.py",
        "moderator/store/migrations/versions/0003_outbox_parts.py",
        "moderator/templates/player.report.txt.j2",
        "moderator/templates/player.report-private.txt.j2",
        "moderator/templates/player.reply.txt.j2",
        "moderator/templates/player.reply-private.txt.j2",
        "moderator/templates/player.history.txt.j2",
        "moderator/usecases/mail/handler.py",
        "moderator/rules/data/standard/masterboard_layout.toml",
        "moderator/rules/data/standard/variant.toml",
        "moderator/rules/data/titanplus/muster.toml",
        "moderator/rules/data/badlands/placement.toml",
        "moderator/rules/data/badlands-fixed/variant.toml",
        "moderator/pictures/fonts/DejaVuSans.ttf",
        "moderator/pictures/fonts/DejaVuSans-Bold.ttf",
        "moderator/pictures/fonts/LICENSE-DejaVu.txt",
        "moderator/runtime/config.example.toml",
        "moderator/testing/robot_keys/ann.asc",
        "moderator/testing/hub.py",  # the demo runs on the embedded mail hub
    ):
        assert name in names, name
    # Installed on its own (no source checkout next to it), it renders from its templates.
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--target", str(target), str(wheel)],
        capture_output=True,
        check=True,
    )
    script = (
        "from moderator.letters import reports, templates as t\n"
        "from moderator.reporting import views\n"
        "assert t.template_dirs() == [t.PACKAGE_TEMPLATES], t.template_dirs()\n"
        "from moderator.rules.positions import position_event\n"
        "from moderator.rules.evolve import replay\n"
        "p = {'players': [{'name': 'Ann', 'color': 'Red', 'tower': 100},"
        " {'name': 'Bob', 'color': 'Blue', 'tower': 200}], 'turn': 2, 'active': 'Ann',"
        " 'phase': 'split', 'legions': [{'marker': 'Rd01', 'land': 100, 'contents': ['Titan']},"
        " {'marker': 'Bu01', 'land': 200, 'contents': ['Titan']}]}\n"
        "print(reports.status(views.player_view(replay([position_event(p)]), 'Ann'), 'Ann'))\n"
        "from moderator.store import migrate\n"
        "print('schema', migrate.upgrade('sqlite:///wheel.sqlite'))\n"
        "from moderator.pictures import masterboard, raster\n"
        "print('fonts', *raster.font_paths())\n"
        "v = views.player_view(replay([position_event(p)]), 'Ann')\n"
        "print('png', len(raster.svg_to_png(masterboard.masterboard_svg(v, 'Ann'))))\n"
        "from moderator.rules.variant import shipped_variants\n"
        "print('variants', *shipped_variants())\n"
        "from moderator.runtime import config\n"
        "print('example', config.EXAMPLE, config.example_text() == config.EXAMPLE.read_text())\n"
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    result = subprocess.run(
        [sys.executable, "-c", script],
        check=False,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    assert "Turn 2, Ann's turn: split step" in result.stdout
    # every shipped variant comes with the wheel, and loads (checked) from it
    assert f"variants {' '.join(shipped_variants())}\n" in result.stdout
    assert f"schema (None, '{migrate.HEAD}')" in result.stdout  # migrations run without an alembic.ini
    assert f"fonts {target}" in result.stdout  # the pictures' fonts come with the wheel
    assert "png " in result.stdout
    # `titan-moderator config example` prints the example shipped in the wheel.
    assert f"example {target}/moderator/runtime/config.example.toml True" in result.stdout
    assert (
        str(target)
        in subprocess.run(
            [sys.executable, "-c", "import moderator; print(moderator.__file__)"],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=env,
            check=True,
        ).stdout
    )
