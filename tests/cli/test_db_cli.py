"""``titan-moderator db ...`` and the local commands on either database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from moderator.cli import app
from moderator.rules.legal import to_act
from moderator.runners import mail as processing
from moderator.store import config, inbox, migrate
from moderator.testing.stores import open_store

from ..store.simple_handler import OrderMailHandler

runner = CliRunner()


def run(*args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.output
    return result.output


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'cli.sqlite'}"
    server = request.getfixturevalue("postgres_url")
    engine = create_engine(server)
    with engine.begin() as connection:
        connection.execute(
            text("TRUNCATE game, event, snapshot, seat, player, outbox, inbound, deadline")
        )
    engine.dispose()
    return server


def test_local_play_on_either_database(url: str) -> None:
    run("local", "new", "g", "--players", "Ann,Bob", "--dice-seed", "7", "--db", url)
    for _ in range(6):
        legal = json.loads(run("local", "legal", "g", "--json", "--db", url))
        action = next(a for a in legal["actions"] if a["kind"] != "withdraw")
        assert "Rejected" not in run(
            "local", "order", "g", "--as", legal["player"], action["order"], "--db", url
        )
    view = json.loads(run("local", "show", "g", "--as", "Ann", "--json", "--db", url))
    assert view["turn"] >= 1
    assert run("local", "games", "--db", url).split() == ["g"]
    assert run("db", "check", "--db", url).startswith("g: OK")


def test_db_upgrade_creates_then_reports_up_to_date(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.sqlite'}"
    assert f"upgraded from revision none to {migrate.HEAD}" in run("db", "upgrade", "--db", url)
    assert f"up to date (schema revision {migrate.HEAD})" in run("db", "upgrade", "--db", url)


def test_db_upgrade_brings_an_old_database_up(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    migrate.upgrade(url, "0001")
    out = run("local", "games", "--db", url, code=2)
    assert "revision '0001'" in out and "db upgrade" in out
    assert f"from revision 0001 to {migrate.HEAD}" in run("db", "upgrade", "--db", url)
    assert run("local", "games", "--db", url) == ""


def test_db_check_reports_a_mismatch(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'c.sqlite'}"
    run("local", "new", "g", "--players", "Ann,Bob", "--dice-seed", "7", "--db", url)
    run("local", "new", "h", "--players", "Ann,Bob", "--dice-seed", "8", "--db", url)
    with open_store(url) as store:
        store.snapshot("g")
        with store.transaction() as tx:
            tx.connection.execute(text("UPDATE snapshot SET state = json_set(state, '$.turn', 9)"))
    out = run("db", "check", "--db", url, code=1)
    assert "g: MISMATCH (snapshot at event" in out and "turn: 9 != 1" in out
    assert "h: OK" in out
    assert run("db", "check", "h", "--db", url).startswith("h: OK")
    assert "no game called 'x'" in run("db", "check", "x", "--db", url, code=2)


class Broken(OrderMailHandler):
    def handle(self, message, game, lookup=None, now=None):  # type: ignore[no-untyped-def]
        raise RuntimeError("handler bug")


def test_shunted_messages_are_listed_and_requeued(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 's.sqlite'}"
    run("local", "new", "g", "--players", "Ann,Bob", "--dice-seed", "7", "--db", url)
    assert "No message is shunted" in run("db", "shunted", "--db", url)
    with open_store(url) as store:
        message_id = inbox.receive(
            store, b"From: a@b\r\nMessage-ID: <m@b>\r\nX-Titan-Game: g\r\n\r\nlegal\r\n"
        )
        assert processing.process_message(store, message_id, Broken()) == inbox.SHUNTED
    listed = run("db", "shunted", "--db", url)
    assert (
        f"{message_id}\t" in listed and "<m@b>" in listed and "RuntimeError: handler bug" in listed
    )
    assert "will be processed again" in run("db", "requeue", str(message_id), "--db", url)
    assert "is not shunted" in run("db", "requeue", str(message_id), "--db", url, code=2)
    with open_store(url) as store:
        assert inbox.pending_ids(store) == [message_id]


def test_database_url_comes_from_option_env_config_or_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(config.ENV_VAR, raising=False)
    monkeypatch.delenv(config.CONFIG_ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert config.database_url() == config.DEFAULT_URL
    assert config.snapshot_every() == config.DEFAULT_SNAPSHOT_EVERY
    user = tmp_path / "xdg" / "titan-moderator" / "config.toml"
    user.parent.mkdir(parents=True)
    user.write_text('[database]\nurl = "sqlite:///user.sqlite"\n')
    assert config.database_url() == "sqlite:///user.sqlite"
    (tmp_path / "titan-moderator.toml").write_text(
        '[database]\nurl = "sqlite:///here.sqlite"\nsnapshot_every = 50\n'
    )
    assert config.database_url() == "sqlite:///here.sqlite"
    assert config.snapshot_every() == 50
    named = tmp_path / "named.toml"
    named.write_text('[database]\nurl = "sqlite:///named.sqlite"\n')
    monkeypatch.setenv(config.CONFIG_ENV_VAR, str(named))
    assert config.database_url() == "sqlite:///named.sqlite"
    monkeypatch.setenv(config.ENV_VAR, "sqlite:///env.sqlite")
    assert config.database_url() == "sqlite:///env.sqlite"
    assert config.database_url("sqlite:///option.sqlite") == "sqlite:///option.sqlite"
    # The CLI follows the same order: here the environment variable wins.
    run("local", "new", "g", "--players", "Ann,Bob", "--dice-seed", "1")
    assert (tmp_path / "env.sqlite").exists() and not (tmp_path / "named.sqlite").exists()


def test_default_handler_plays_orders_by_mail(tmp_path: Path) -> None:
    """The worker's handler: an order mail from a seated player moves the game on."""
    from moderator.store import players

    url = f"sqlite:///{tmp_path / 'm.sqlite'}"
    run("local", "new", "g", "--players", "Ann,Bob", "--dice-seed", "7", "--db", url)
    with open_store(url) as store:
        with store.transaction() as tx:
            for name in ("Ann", "Bob"):
                players.add_player(tx, name, f"{name.lower()}@example.org")
                players.seat_player(tx, "g", name, f"{name.lower()}@example.org")
        actor = to_act(store.load_state("g").state)
        raw = f"From: {actor.lower()}@example.org\r\nSubject: x\r\n\r\ngame g\r\ncolour red\r\n"  # type: ignore[union-attr]
        message_id = inbox.receive(store, raw.encode())
        assert processing.process_message(store, message_id, OrderMailHandler()) == inbox.PROCESSED
    shown = json.loads(run("local", "show", "g", "--as", "Ann", "--json", "--db", url))
    assert {p["name"]: p["color"] for p in shown["players"]}[actor] == "Red"  # type: ignore[index]
