"""The ``titan-moderator local`` commands, end to end on a temporary SQLite store."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from moderator.cli import app
from moderator.testing.stores import open_store

runner = CliRunner()

POSITION = {
    "players": [
        {"name": "Ann", "color": "Red", "tower": 600, "score": 120, "eliminated": False},
        {"name": "Bob", "color": "Blue", "tower": 300, "score": 44, "eliminated": False},
    ],
    "turn": 5,
    "active": "Ann",
    "phase": "move",
    "roll": 3,
    "legions": [
        {"marker": "Rd01", "land": 42, "contents": ["Titan", "Ogre", "Ogre", "Troll"]},
        {"marker": "Rd04", "land": 6, "contents": ["Angel", "Lion", "Lion"], "moved": True},
        {"marker": "Bu02", "land": 300, "contents": ["Titan", "Gargoyle", "Cyclops"]},
    ],
    "dead": {"Centaur": 2},
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


def events(db: str, game: str) -> int:
    with open_store(db) as store:
        return len(store.load(game))


def new(db: str, game: str = "g", players: str = "Ann,Bob,Cy", seed: str = "7") -> None:
    out = run(db, "local", "new", game, "--players", players, "--dice-seed", seed)
    assert f"Game {game} created" in out


def play_legal(db: str, game: str, steps: int, rng: random.Random) -> None:
    """Send ``steps`` orders taken from ``legal --json``, as the player to act."""
    for _ in range(steps):
        legal = run_json(db, "local", "legal", game)
        if legal["player"] is None:
            return
        actions = [a for a in legal["actions"] if a["kind"] not in ("withdraw", "undo")]
        kind = rng.choice(sorted({a["kind"] for a in actions}))
        action = rng.choice([a for a in actions if a["kind"] == kind])
        out = run(db, "local", "order", "g", "--as", legal["player"], action["order"])
        assert "Rejected" not in out


def test_new_show_json_shape(db: str) -> None:
    new(db)
    view = run_json(db, "local", "show", "g", "--as", "Ann")
    assert view["turn"] == 1 and view["phase"] == "setup" and view["step"] == "colour"
    assert sorted(p["name"] for p in view["players"]) == ["Ann", "Bob", "Cy"]
    assert all(p["tower"] in (100, 200, 300, 400, 500, 600) for p in view["players"])
    assert view["legions"] == [] and view["engagement"] is None
    assert view["to_act"] in ("Ann", "Bob", "Cy")
    text = run(db, "local", "show", "g", "--as", "Ann")
    assert "Players:" in text and "Legions:" in text


def test_legal_orders_are_accepted_and_views_stay_private(db: str) -> None:
    new(db)
    legal = run_json(db, "local", "legal", "g")
    assert legal["player"] in ("Ann", "Bob", "Cy")
    assert all({"kind", "order"} <= set(a) for a in legal["actions"])
    assert {a["kind"] for a in legal["actions"]} == {"colour", "withdraw"}
    play_legal(db, "g", 40, random.Random(1))
    view = run_json(db, "local", "show", "g", "--as", "Ann")
    assert view["turn"] >= 1 and view["legions"]
    for legion in view["legions"]:
        if legion["owner"] == "Ann":
            assert legion["contents"] is not None and len(legion["contents"]) == legion["height"]
    assert any(lg["contents"] is None for lg in view["legions"] if lg["owner"] != "Ann")


def test_rejected_order_exits_1_and_changes_nothing(db: str) -> None:
    new(db)
    before = (run_json(db, "local", "show", "g", "--as", "Ann"), events(db, "g"))
    legal = run_json(db, "local", "legal", "g")
    other = next(n for n in ("Ann", "Bob", "Cy") if n != legal["player"])
    out = run(db, "local", "order", "g", "--as", other, "colour red", code=1)
    assert "> colour red" in out and "Rejected:" in out
    assert f"It is {legal['player']}'s turn" in out
    out = run(db, "local", "order", "g", "--as", legal["player"], "colour mauve", code=1)
    assert "Rejected:" in out and "Legal now: colour black" in out
    out = run(db, "local", "order", "g", "--as", legal["player"], "flarp", code=1)
    assert "not an order" in out
    assert (run_json(db, "local", "show", "g", "--as", "Ann"), events(db, "g")) == before


def test_several_lines_stop_at_the_first_rejection(db: str) -> None:
    new(db)
    first = run_json(db, "local", "legal", "g")["player"]
    out = run(
        db, "local", "order", "g", "--as", first, "# my orders\ncolour red\ncolour blue", code=1
    )
    assert "Ann chose Red" in out or f"{first} chose Red" in out
    assert "Rejected:" in out
    view = run_json(db, "local", "show", "g", "--as", first)
    assert [p["color"] for p in view["players"] if p["name"] == first] == ["Red"]


def test_queries_answer_without_changing_the_game(db: str) -> None:
    new(db)
    count = events(db, "g")
    player = run_json(db, "local", "legal", "g")["player"]
    out = run(db, "local", "order", "g", "--as", player, "status\nhelp move\nlegal\nhistory")
    assert "Players:" in out and "move MARKER to LAND" in out and "colour red" in out
    assert events(db, "g") == count


def test_history(db: str) -> None:
    new(db)
    play_legal(db, "g", 25, random.Random(2))
    out = run(db, "local", "history", "g", "--as", "Bob")
    lines = out.splitlines()
    assert lines[0] == "Setup"
    assert any(line.startswith("Turn 1 — ") for line in lines)
    assert "Tower rolls" in out


def test_from_position(db: str, tmp_path: Path) -> None:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(POSITION))
    out = run(db, "local", "new", "p", "--from-position", str(path), "--dice-seed", "1")
    assert "Game p created for Ann, Bob" in out
    view = run_json(db, "local", "show", "p", "--as", "Bob")
    assert (view["turn"], view["phase"], view["roll"], view["to_act"]) == (5, "move", 3, "Ann")
    scores = {p["name"]: p["score"] for p in view["players"]}
    assert scores == {"Ann": 120, "Bob": 44}
    assert view["dead"] == {"Centaur": 2}
    legal = run_json(db, "local", "legal", "p")
    moves = [a for a in legal["actions"] if a["kind"] == "move" and a["legion"] == "Rd01"]
    assert moves
    out = run(db, "local", "order", "p", "--as", "Ann", moves[0]["order"])
    assert "Rd01" in out and "moved from 42" in out


def test_20_5_from_position_takes_the_players_from_the_file(db: str, tmp_path: Path) -> None:
    """20.5: a restored game is played by the file's players, with its colours and towers."""
    path = tmp_path / "position.json"
    path.write_text(json.dumps(POSITION))
    out = run(db, "local", "new", "p", "--from-position", str(path), "--dice-seed", "1")
    assert "Players from the position file: Ann (Red, tower 600), Bob (Blue, tower 300)." in out
    view = run_json(db, "local", "show", "p", "--as", "Ann")
    seated = {p["name"]: (p["color"], p["tower"]) for p in view["players"]}
    assert seated == {"Ann": ("Red", 600), "Bob": ("Blue", 300)}


def test_20_5_from_position_players_named_too_must_agree(db: str, tmp_path: Path) -> None:
    """20.5: --players beside --from-position may repeat the file's players, in any order."""
    path = tmp_path / "position.json"
    path.write_text(json.dumps(POSITION))
    out = run(db, "local", "new", "p", "--from-position", str(path), "--players", "Bob,Ann")
    assert "Game p created for Ann, Bob" in out


def test_20_5_from_position_other_players_are_refused(db: str, tmp_path: Path) -> None:
    """20.5: naming players the position file does not have creates no game and says why."""
    path = tmp_path / "position.json"
    path.write_text(json.dumps(POSITION))
    args = ["local", "new", "p", "--from-position", str(path), "--players", "Ann,Cy"]
    result = runner.invoke(app, [*args, "--db", db])
    assert result.exit_code == 2
    assert "the players named (Ann, Cy) are not the position file's (Ann, Bob)" in result.output
    assert "leave the names out or name the same players" in result.output
    with open_store(db) as store:
        assert "p" not in store.games()


def test_local_new_help_says_where_the_players_come_from() -> None:
    """The help of 'local new' says a position file names the players and --players must agree."""
    result = runner.invoke(app, ["local", "new", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "must name the same players" in text
    assert "their colours and towers, are the game's" in text


def test_a_new_game_records_its_variant_the_standard_game_by_default(db: str) -> None:
    """The game's record and its setup event name the variant (``--variant``)."""
    new(db)
    run(db, "local", "new", "h", "--players", "Ann,Bob", "--variant", "standard")
    with open_store(db) as store:
        for game in ("g", "h"):
            assert store.record(game).variant == "standard"
            assert store.load_state(game).state.variant_name == "standard"


def test_a_game_in_an_unknown_variant_is_refused_naming_those_there_are(db: str) -> None:
    out = runner.invoke(app, ["local", "new", "g", "--players", "Ann,Bob", "--variant", "x", "--db", db])
    assert out.exit_code == 2
    assert "no variant 'x'" in out.output and "standard" in out.output


def test_bad_position_is_refused(db: str, tmp_path: Path) -> None:
    path = tmp_path / "position.json"
    path.write_text(json.dumps({**POSITION, "active": "Zed"}))
    result = runner.invoke(app, ["local", "new", "p", "--from-position", str(path), "--db", db])
    assert result.exit_code == 2
    assert "active" in result.output


def test_scripted_dice(db: str, tmp_path: Path) -> None:
    script = tmp_path / "dice.txt"
    script.write_text("6 5 4\n")  # towers 600, 500, 400: then the script is spent
    run(db, "local", "new", "s", "--players", "Ann,Bob,Cy", "--dice-script", str(script))
    view = run_json(db, "local", "show", "s", "--as", "Ann")
    assert {p["name"]: p["tower"] for p in view["players"]} == {"Ann": 600, "Bob": 500, "Cy": 400}
    with open_store(db) as store:
        assert store.record("s").dice.scripted is True
        assert store.load("s")[0].scripted_dice is True  # type: ignore[attr-defined]
    for player, colour in (("Cy", "red"), ("Bob", "blue"), ("Ann", "gold")):
        run(db, "local", "order", "s", "--as", player, f"colour {colour}")
    run(db, "local", "order", "s", "--as", "Ann", "split Gd01: titan ogre ogre centaur")
    count = events(db, "s")
    out = run(db, "local", "order", "s", "--as", "Ann", "roll", code=1)
    assert "dice script has run out" in out
    assert events(db, "s") == count


@pytest.mark.long
def test_seeded_dice_survive_between_calls(db: str) -> None:
    new(db, "a", seed="11")
    new(db, "b", seed="11")
    rng_a, rng_b = random.Random(5), random.Random(5)
    for game, rng in (("a", rng_a), ("b", rng_b)):
        for _ in range(30):
            legal = run_json(db, "local", "legal", game)
            action = rng.choice([a for a in legal["actions"] if a["kind"] != "withdraw"])
            run(db, "local", "order", game, "--as", legal["player"], action["order"])
    with open_store(db) as store:
        assert store.load("a") == store.load("b")


def test_database_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path / 'env.sqlite'}"
    monkeypatch.setenv("TITAN_MODERATOR_DB", url)
    result = runner.invoke(app, ["local", "new", "e", "--players", "Ann,Bob"])
    assert result.exit_code == 0, result.output
    with open_store(url) as store:
        assert store.games() == ["e"]


def test_unknown_game_and_duplicate(db: str) -> None:
    new(db)
    result = runner.invoke(app, ["local", "show", "nope", "--as", "Ann", "--db", db])
    assert result.exit_code == 2 and "no game" in result.output
    result = runner.invoke(app, ["local", "new", "g", "--players", "Ann,Bob", "--db", db])
    assert result.exit_code == 2 and "already" in result.output


def test_play_prints_each_seats_kind_and_placement() -> None:
    result = runner.invoke(
        app, ["play", "--players", "3", "--robots", "competent,random,random", "--seed", "3"]
    )
    assert result.exit_code == 0, result.output
    assert "Game 1 (seed 3): Ann (competent), Bob (random), Cy (random)" in result.stdout
    assert "  1. " in result.stdout and "  3. " in result.stdout and " turns, " in result.stdout


def test_play_as_json_gives_one_kind_to_every_seat() -> None:
    result = runner.invoke(
        app, ["play", "--players", "2", "--robots", "random", "--games", "2", "--seed", "8",
              "--json"],
    )
    assert result.exit_code == 0, result.output
    games = json.loads(result.stdout)
    assert [g["seed"] for g in games] == [8, 9]
    for game in games:
        assert [s["robot"] for s in game["seats"]] == ["random", "random"]
        placed = [p for group in game["placement"] for p in group]
        assert sorted(placed) == ["Ann", "Bob"] and game["turns"] >= 1
        assert game["draw"] == (game["winner"] is None)


def test_play_refuses_an_unknown_kind_and_a_wrong_count() -> None:
    result = runner.invoke(app, ["play", "--robots", "clever"])
    assert result.exit_code == 2 and "competent, random" in result.output
    result = runner.invoke(app, ["play", "--players", "3", "--robots", "random,random"])
    assert result.exit_code == 2 and "one for each of the 3 seats" in result.output
