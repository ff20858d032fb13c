"""Battles through ``titan-moderator local``: positions with a battle, strikes, battle queries."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from moderator.cli import app
from moderator.testing.stores import open_store

runner = CliRunner()

#: Ann's cyclops on D4 in contact with Bob's troll (D3), ogre (D5) and ranger (E4); Ann strikes.
BATTLE: dict[str, Any] = {
    "players": [
        {"name": "Ann", "color": "Blue", "tower": 600},
        {"name": "Bob", "color": "Red", "tower": 300},
    ],
    "turn": 4,
    "active": "Ann",
    "phase": "engage",
    "roll": 3,
    "legions": [
        {"marker": "Bu01", "land": 1, "contents": ["Cyclops"]},
        {"marker": "Rd01", "land": 1, "contents": ["Troll", "Ogre", "Ranger"]},
        {"marker": "Bu02", "land": 600, "contents": ["Titan"]},
        {"marker": "Rd02", "land": 300, "contents": ["Titan"]},
    ],
    "battle": {
        "land": 1,
        "attacker": "Bu01",
        "defender": "Rd01",
        "entry": "bottom",
        "turn": 2,
        "phasing": "attacker",
        "step": "strike",
        "characters": [
            {"legion": "Bu01", "type": "cyclops", "hex": "D4"},
            {"legion": "Rd01", "type": "troll", "hex": "D3", "hits": 1},
            {"legion": "Rd01", "type": "ogre", "hex": "D5"},
            {"legion": "Rd01", "type": "ranger", "hex": "E4"},
        ],
    },
}


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite'}"


def run(db: str, *args: str, code: int = 0) -> str:
    result = runner.invoke(app, [*args, "--db", db])
    assert result.exit_code == code, result.output
    return result.stdout


def run_json(db: str, *args: str) -> Any:
    return json.loads(run(db, *args, "--json"))


def restore(db: str, tmp_path: Path, data: dict[str, Any], *dice: str, game: str = "b") -> None:
    path = tmp_path / f"{game}.json"
    path.write_text(json.dumps(data))
    out = run(db, "local", "new", game, "--from-position", str(path), *dice)
    assert f"Game {game} created for Ann, Bob" in out


def scripted(tmp_path: Path, values: str) -> tuple[str, str]:
    path = tmp_path / "dice.txt"
    path.write_text(values + "\n")
    return "--dice-script", str(path)


def maneuvering() -> dict[str, Any]:
    """Ann's cyclops on D1 is to move; Bob's legion stands away at the top."""
    data = copy.deepcopy(BATTLE)
    data["battle"]["step"] = "maneuver"
    for char, where in zip(data["battle"]["characters"], ("D1", "D5", "E5", "F4")):
        char["hex"] = where
    return data


def test_show_json_with_a_battle(db: str, tmp_path: Path) -> None:
    restore(db, tmp_path, BATTLE, "--dice-seed", "1")
    views = [run_json(db, "local", "show", "b", "--as", who) for who in ("Ann", "Bob")]
    assert views[0]["battle"] == views[1]["battle"]
    battle = views[1]["battle"]
    assert (battle["land"], battle["terrain"], battle["turn"]) == (1, "Plains", 2)
    assert (battle["phasing"], battle["step"], battle["entry"]) == ("attacker", "strike", "bottom")
    assert (battle["attacker"], battle["defender"]) == ("Bu01", "Rd01")
    assert battle["characters"][1] == {
        "owner": "Bob",
        "legion": "Rd01",
        "type": "Troll",
        "hex": "D3",
        "hits": 1,
        "power": 8,
        "slain": False,
    }
    assert views[1]["to_act"] == "Ann" and views[1]["step"] == "battle"
    text = run(db, "local", "show", "b", "--as", "Bob")
    assert "Battle at 1 (Plains): Ann's Bu01 attacks Bob's Rd01 from the bottom." in text
    assert "  D3   Bob's Rd01 Troll 1/8" in text


def test_legal_json_lists_the_strikes(db: str, tmp_path: Path) -> None:
    restore(db, tmp_path, BATTLE, "--dice-seed", "1")
    legal = run_json(db, "local", "legal", "b")
    assert legal["player"] == "Ann"
    kinds = [a["kind"] for a in legal["actions"]]
    assert kinds == ["strike"] * 5 + ["concede"]
    assert legal["actions"][2] == {
        "kind": "strike",
        "order": "strike D4 at D5 needing 4 with 9 dice",
        "striker": "D4",
        "target": "D5",
        "strike_number": 4,
        "dice": 9,
        "carry": ["D3"],
    }


def test_a_strike_with_scripted_dice(db: str, tmp_path: Path) -> None:
    restore(db, tmp_path, BATTLE, *scripted(tmp_path, "6 6 6 6 6 6 6 6 6"))
    out = run(db, "local", "order", "b", "--as", "Ann", "strike D4 at D5 needing 4 with 9 dice")
    assert (
        "Ann's cyclops (D4) strikes Bob's ogre (D5) needing 4: 6 6 6 6 6 6 6 6 6 — 9 hits; "
        "the ogre is slain, 3 hits to spare"
    ) in out
    assert "Your turn (battle step: carry)" in out
    legal = run_json(db, "local", "legal", "b")
    assert [a["order"] for a in legal["actions"]] == ["carry nowhere", "carry to D3"]
    out = run(db, "local", "order", "b", "--as", "Ann", "carry to D3\ndone")
    assert "Ann carries 3 to the troll on D3" in out
    assert "Battle turn 2: Bob may concede or proceed" in out
    assert "after-" not in out
    view = run_json(db, "local", "show", "b", "--as", "Bob")
    chars = {c["type"]: c for c in view["battle"]["characters"]}
    assert (chars["Ogre"]["hits"], chars["Ogre"]["slain"]) == (6, True)
    assert chars["Troll"]["hits"] == 4 and view["to_act"] == "Bob"
    history = run(db, "local", "history", "b", "--as", "Bob")
    assert "  Ann carries 3 to the troll on D3" in history
    # The script is spent: Bob's counterstrike cannot be rolled and changes nothing.
    run(db, "local", "order", "b", "--as", "Bob", "proceed")
    with open_store(db) as store:
        count = len(store.load("b"))
    out = run(db, "local", "order", "b", "--as", "Bob", "strike D3 at D4", code=1)
    assert "dice script has run out" in out
    with open_store(db) as store:
        assert len(store.load("b")) == count


def test_a_strike_out_of_turn_is_rejected(db: str, tmp_path: Path) -> None:
    restore(db, tmp_path, BATTLE, "--dice-seed", "1")
    out = run(db, "local", "order", "b", "--as", "Bob", "strike D3 at D4", code=1)
    assert "Rejected" in out and "It is Ann's turn" in out


def test_battle_query(db: str, tmp_path: Path) -> None:
    restore(db, tmp_path, BATTLE, "--dice-seed", "1")
    out = run(db, "local", "order", "b", "--as", "Bob", "battle")
    lines = out.splitlines()
    assert lines[1] == "Battle at 1 (Plains): Ann's Bu01 attacks Bob's Rd01 from the bottom."
    assert lines[2].startswith("Battle turn 2 of 7: Ann's turn (attacker); strike step")
    hexes = [line.split()[0] for line in lines if line.startswith("  ") and line[2:3].isupper()]
    assert len(hexes) == 28 and hexes[0] == "Hex" and hexes[1:3] == ["A1", "A2"]
    assert any(line.startswith("  D4   Ann's Bu01 Cyclops 0/9") for line in lines)
    plain = copy.deepcopy(BATTLE)
    del plain["battle"]
    restore(db, tmp_path, plain, "--dice-seed", "1", game="p")
    out = run(db, "local", "order", "p", "--as", "Bob", "battle")
    assert "No battle is being fought." in out


def test_reach_query(db: str, tmp_path: Path) -> None:
    restore(db, tmp_path, maneuvering(), "--dice-seed", "1")
    out = run(db, "local", "order", "b", "--as", "Ann", "reach D1")
    assert "Your Cyclops on D1 may move to: B1, C1, C2, D2, D3, E1, E2, F1." in out
    assert "  move D1 to D2" in out
    legal = run_json(db, "local", "legal", "b")
    moves = {a["to"] for a in legal["actions"] if a["kind"] == "maneuver" and a["from"] == "D1"}
    assert moves == {"B1", "C1", "C2", "D2", "D3", "E1", "E2", "F1"}
    out = run(db, "local", "order", "b", "--as", "Bob", "reach d5\nreach A1")
    assert "Your Troll on D5 cannot move now: it is Ann's maneuver." in out
    assert "There is no living character on A1." in out
    out = run(db, "local", "order", "b", "--as", "Ann", "move D1 to D2\nreach D2")
    assert "Ann's cyclops moves D1 -> D2" in out
    assert "Your Cyclops on D2 has already moved in this maneuver (11.0)." in out
    restore(db, tmp_path, BATTLE, "--dice-seed", "1", game="s")
    out = run(db, "local", "order", "s", "--as", "Ann", "reach D4")
    assert "Your Cyclops on D4 cannot move now: the battle is in its strike step." in out


def test_strikes_query(db: str, tmp_path: Path) -> None:
    restore(db, tmp_path, BATTLE, "--dice-seed", "1")
    for player, whose in (("Ann", "Your strikes:"), ("Bob", "Ann's strikes:")):
        out = run(db, "local", "order", "b", "--as", player, "strikes")
        lines = out.splitlines()
        assert lines[1] == whose
        assert len(lines) == 2 + 5 + 1  # the query, its heading, five strikes, who is to act
        assert (
            "  Cyclops (D4) strikes Ogre (D5): needing 6 with 9 dice, carry to D3, E4 "
            "-- strike D4 at D5 needing 6 with 9 dice"
        ) in lines
    restore(db, tmp_path, maneuvering(), "--dice-seed", "1", game="m")
    out = run(db, "local", "order", "m", "--as", "Ann", "strikes")
    assert "No strikes now: the battle is in its maneuver step (Ann to act)." in out
