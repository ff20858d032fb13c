"""``titan-moderator local board``: the pictures of a game in a local store, end to end."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from moderator.cli import app

from .positions import BOARD

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite'}"


def run(db: str, *args: str, code: int = 0) -> str:
    result = runner.invoke(app, [*args, "--db", db])
    assert result.exit_code == code, result.output
    return result.output


def _png(path: Path) -> Image.Image:
    image = Image.open(io.BytesIO(path.read_bytes()))
    assert image.format == "PNG" and image.mode == "P"
    return image


def test_the_masterboard_of_a_new_game(db: str, tmp_path: Path) -> None:
    run(db, "local", "new", "g", "--players", "Ann,Bob,Cy", "--dice-seed", "7")
    for _ in range(3):  # each player picks a colour; the legions are placed on the towers
        legal = json.loads(run(db, "local", "legal", "g", "--json"))
        run(db, "local", "order", "g", legal["actions"][0]["order"], "--as", legal["player"])
    png, picture = tmp_path / "board.png", tmp_path / "board.svg"
    out = run(db, "local", "board", "g", "--as", "Ann", "--png", str(png), "--svg", str(picture))
    assert f"Wrote {png} and {picture}." in out
    assert _png(png).width == 800
    text = picture.read_text(encoding="utf-8")
    ET.fromstring(text.encode("utf-8"))
    assert "Game g · turn 1" in text
    # Nobody was reported yet and Ann ended no turn: the whole game is new to her, so
    # the towers, where the legions were placed, are marked as changed.
    assert text.count('class="changed"') == 3


def test_the_battle_of_a_game(db: str, tmp_path: Path) -> None:
    position = tmp_path / "position.json"
    position.write_text(json.dumps(BOARD), encoding="utf-8")
    run(db, "local", "new", "b", "--from-position", str(position))
    png = tmp_path / "battle.png"
    run(db, "local", "board", "b", "--as", "Cy", "--battle", "--png", str(png))
    image = _png(png)
    assert image.width == 800 and image.height > 800


def test_refusals(db: str, tmp_path: Path) -> None:
    run(db, "local", "new", "g", "--players", "Ann,Bob", "--dice-seed", "7")
    png = tmp_path / "x.png"
    out = run(db, "local", "board", "g", "--as", "Ann", "--battle", "--png", str(png), code=2)
    assert "no battle is being fought in g" in out
    out = run(db, "local", "board", "g", "--as", "Zed", "--png", str(png), code=2)
    assert "Zed does not play in g" in out
    assert not png.exists()
    out = run(
        db, "local", "board", "g", "--as", "Ann", "--png", str(tmp_path / "no" / "x.png"), code=2
    )
    assert "cannot write the picture" in out
