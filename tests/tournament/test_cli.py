"""The operator's commands: the director role, a tournament created, standings, a round run."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from moderator.cli import app
from moderator.store import outbox
from moderator.store import tournaments as stored
from moderator.testing.stores import open_store, sqlite_url

from .conftest import DIRECTOR, address, register

runner = CliRunner()


def run(db: str, *args: str, code: int = 0) -> str:
    result = runner.invoke(app, [*args, "--db", db], env={"TITAN_MODERATOR_CONFIG": ""})
    assert result.exit_code == code, result.output
    return result.output


def test_role_create_standings_and_a_round(tmp_path: Path) -> None:
    db = sqlite_url(tmp_path, "cli.sqlite")
    store = open_store(db)
    try:
        register(store, "Ann", "Bob", "Cy")
        register(store, DIRECTOR)  # Dee, with the role already
        out = run(db, "player", "role", address("Ann"))
        assert "roles none" in out
        out = run(db, "player", "role", address("Ann"), "--director")
        assert "roles director" in out
        out = run(db, "player", "role", address("Ann"), "--no-director")
        assert "roles none" in out
        run(db, "player", "role", "nobody@example.org", "--director", code=2)
        # A player without the role may not create one; a director may.
        out = run(db, "tournament", "create", "cup", "--director", address("Bob"), code=1)
        assert "Refused (E-T-DIRECTOR)" in out
        out = run(
            db, "tournament", "create", "cup", "--director", address(DIRECTOR),
            "players", "3", "days", "30",
        )
        assert "open for sign-up" in out
        with store.reading() as tx:
            assert stored.exists(tx, "cup")
            assert any(m.recipient == address(DIRECTOR) for m in outbox.mails(tx))
        out = run(db, "tournament", "standings", "cup")
        assert "Standings of the tournament cup" in out
        run(db, "tournament", "standings", "nowhere", code=2)
        assert "Nothing to do." in run(db, "tournament", "run")
    finally:
        store.close()
