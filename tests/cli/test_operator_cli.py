"""
What the operator sees of his service (issue 24, items 7 and 9): the signed-on players,
the games and where they stand, a game as the game master or one player sees it, the
example configuration from the installed program, and a mistyped database that is
named as such instead of made.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moderator.cli import app
from moderator.rules.legal import to_act
from moderator.runners.commands import start_game
from moderator.schedule.timing import TimeLimits
from moderator.store import players
from moderator.testing.stores import open_store

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
KEY = "0123456789ABCDEF0123456789ABCDEF01234567"
POSITION = {
    "players": [
        {"name": "Ann", "color": "Red", "tower": 600, "score": 120},
        {"name": "Bob", "color": "Blue", "tower": 300, "score": 44},
    ],
    "turn": 5,
    "active": "Ann",
    "phase": "split",
    "legions": [
        {"marker": "Rd01", "land": 42, "contents": ["Titan", "Ogre", "Ogre", "Troll"]},
        {"marker": "Bu02", "land": 300, "contents": ["Titan", "Gargoyle", "Cyclops"]},
    ],
}


def run(*args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.output
    return result.output


@pytest.fixture
def service_db(tmp_path: Path) -> str:
    """A service's database: Ann (a key), Bob and Cy (secrets) signed on, Ann and Bob
    seated in g1 with time limits, Cy in no game."""
    url = f"sqlite:///{tmp_path / 'service.sqlite'}"
    with open_store(url) as store:
        with store.transaction() as tx:
            players.add_player(tx, "Ann Example", "ann@example.org", key_fingerprint=KEY,
                               time_zone="Europe/Berlin")
            players.add_player(tx, "Bob", "bob@example.org", secret="bob-secret-42")
            players.add_player(tx, "Cy", "cy@example.org", secret="cy-secret-42")
            players.set_roles(tx, "cy@example.org", ("director",))
        start_game(
            store, "g1", ["ann@example.org", "bob@example.org"], sender="titan@example.org",
            allow_secrets=True, time_limits=TimeLimits(),
        )
    return url


def test_player_list_shows_every_signed_on_player(service_db: str) -> None:
    out = run("player", "list", "--db", service_db)
    assert out.splitlines() == [
        "Ann Example <ann@example.org>",
        f"    key {KEY}; time zone Europe/Berlin",
        "    games: g1",
        "Bob <bob@example.org>",
        "    secret only; time zone UTC",
        "    games: g1",
        "Cy <cy@example.org>",
        "    secret only; time zone UTC; roles: director",
        "    games: none",
    ]


def test_game_list_shows_every_game_with_its_step_and_deadline(
    service_db: str, tmp_path: Path
) -> None:
    position = tmp_path / "position.json"
    position.write_text(json.dumps(POSITION))
    run("local", "new", "pos", "--from-position", str(position), "--db", service_db)
    with open_store(service_db) as store:
        loaded = store.load_state("g1")
    actor = to_act(loaded.state)
    deadline = loaded.record.deadline
    assert deadline is not None and deadline.player == actor
    lines = run("game", "list", "--db", service_db).splitlines()
    assert lines == [
        "g1: " + ", ".join(p.name for p in loaded.state.players),
        f"    setting up: {loaded.state.step.value} step, {actor} to act",
        f"    deadline {deadline.due:%Y-%m-%d %H:%M} UTC for {actor} ({deadline.kind})",
        "pos: Ann, Bob",
        "    turn 5, Ann's turn: split step, Ann to act",
        "    no time limits",
    ]


def test_game_show_as_the_game_master_sees_everything_and_as_a_player_only_his(
    service_db: str, tmp_path: Path
) -> None:
    position = tmp_path / "position.json"
    position.write_text(json.dumps(POSITION))
    run("local", "new", "pos", "--from-position", str(position), "--db", service_db)

    master = run("game", "show", "pos", "--db", service_db)
    assert master.startswith("Game pos as the game master sees it\nno time limits\n")
    assert "4 high: Ogre, Ogre, Titan, Troll" in master
    assert "3 high: Cyclops, Gargoyle, Titan" in master
    assert "Service:" in master and "time limits: none" in master

    # Ann knows her legion, and of Bob's only his Titan (a Titan's legion is known to hold it).
    ann = run("game", "show", "pos", "--as", "ann", "--db", service_db)
    assert ann.startswith("Game pos as Ann sees it\n")
    assert "4 high: Ogre, Ogre, Titan, Troll" in ann and "3 high: Titan, 2 unknown" in ann
    assert "Cyclops" not in ann and "Gargoyle" not in ann
    assert "Service:" not in ann  # the service's side is the game master's

    as_json = json.loads(run("game", "show", "pos", "--as", "Bob", "--json", "--db", service_db))
    contents = {lg["marker"]: sorted(lg["contents"]) for lg in as_json["legions"]}
    assert contents == {"Rd01": ["Titan"], "Bu02": ["Cyclops", "Gargoyle", "Titan"]}

    # A game by mail: a player named by his address; a stranger is refused with the names.
    by_mail = run("game", "show", "g1", "--as", "ANN@example.org", "--db", service_db)
    assert by_mail.startswith("Game g1 as Ann Example sees it\ndeadline ")
    refused = run("game", "show", "g1", "--as", "Cy", "--db", service_db, code=2)
    assert "'Cy' plays no seat in g1; its players: " in refused and "Ann Example" in refused
    missing = run("game", "show", "g2", "--db", service_db, code=2)
    assert "there is no game called 'g2' (games: g1, pos)" in missing


def test_a_mistyped_database_on_a_read_only_command_creates_nothing(
    service_db: str, tmp_path: Path
) -> None:
    typo = tmp_path / "servce.sqlite"
    url = f"sqlite:///{typo}"
    for command in (
        ["player", "list"], ["game", "list"], ["game", "show", "g1"], ["db", "shunted"],
        ["db", "check"], ["local", "games"], ["local", "show", "g1", "--as", "Ann"],
        ["local", "history", "g1", "--as", "Ann"], ["tournament", "standings", "t"],
        ["player", "role", "ann@example.org"],
    ):
        out = run(*command, "--db", url, code=2)
        assert f"there is no database at {typo}" in out, command
        assert "db upgrade" in out
        assert not typo.exists(), command
    assert "g1" in run("game", "list", "--db", service_db)


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("postgres://titan@localhost/titan", "names a 'postgres' database"),
        ("games.sqlite", "is not a database URL"),
        ("mysql://titan@localhost/titan", "names a 'mysql' database"),
    ],
)
def test_a_wrong_database_url_is_answered_with_the_urls_to_write(url: str, said: str) -> None:
    for command in (["game", "list"], ["db", "upgrade"], ["local", "new", "g", "--players", "A,B"]):
        out = run(*command, "--db", url, code=2)
        assert said in out and "postgresql+psycopg://USER@HOST/NAME" in out, command
        assert "plugin" not in out and "SQLAlchemy" not in out and "URL string" not in out


def test_config_example_prints_the_shipped_example() -> None:
    out = run("config", "example")
    shipped = (ROOT / "deploy" / "config.example.toml").read_text(encoding="utf-8")
    assert out == shipped
    assert "[dkim]" in out and tomllib.loads(out)["dkim"]["key_file"] == ""


def test_help_names_no_bool_and_cuts_no_text() -> None:
    """Flags show no '<bool>', and a command's summary is whole, wrapped, never cut."""
    for command in ([], ["game"], ["game", "new"], ["local"], ["player", "role"], ["simulate"]):
        out = run(*command, "--help")
        assert "<bool>" not in out and "…" not in out and "..." not in out.replace(
            "ARGS]...", ""
        ), (command, out)
    assert "as before issue" not in run("simulate", "--help")
    listing = " ".join(run("game", "--help").split())
    assert "show Show a game as the game master sees it, or as one player does (--as NAME)." in (
        listing
    )
    assert re.search(r"--player ADDRESS", run("game", "new", "--help"))


def test_the_guides_check_config_sample_is_this_versions_output() -> None:
    """Issue 24, item 7: the sample was stale (revision 0004, no secrets line)."""
    from moderator.store import migrate

    guide = (ROOT / "docs" / "moderators.md").read_text(encoding="utf-8")
    sample = guide.split("```\nConfiguration: /etc/titan-moderator/config.toml\n", 1)[1]
    sample = sample.split("```", 1)[0]
    names = [line.split()[0] for line in sample.splitlines() if line and not line[0].isspace()]
    assert names == ["secrets", "database", "imap", "smtp", "gnupg", "dkim"]
    assert f"schema revision {migrate.HEAD}, current" in sample
    assert "sudo -u" not in guide.replace("write `sudo -u USER`", "")
