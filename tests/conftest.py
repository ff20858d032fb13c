"""
Fixtures for the whole suite.

``postgres_url``: a real PostgreSQL server, started once per session in a temporary
folder (``moderator.testing.pgtemp``) with the moderator's schema.  Without the server
binaries the tests that use it are skipped, except under ``CI=true`` where that is a
failure.

``dovecot``: a real Dovecot IMAP server on loopback for the session
(``tests/mail/dovecot.py``); missing, its tests are skipped, except under ``CI=true``.

``gpg_world``: the moderator and two players, Ann and Bob, each in a real GnuPG home
of his own with his own key (``tests/gpgparties.py``); the moderator holds both
players' public keys and each player holds the moderator's.  Made once per session:
tests must not change it.  ``stranger``: a fresh home with a key nobody else knows.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
import typer.main
import typer.testing

from moderator.store import migrate
from moderator.testing.pgtemp import PostgresUnavailableError, TemporaryPostgres

from .gpgparties import GpgWorld, Party, make_party
from .mail.dovecot import DovecotUnavailableError, TemporaryDovecot

_TYPER_GET_COMMAND = typer.main.get_command


def _unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"PostgreSQL is required under CI=true: {reason}", pytrace=False)
    pytest.skip(f"no PostgreSQL server: {reason}")


def pytest_configure(config: pytest.Config) -> None:
    """Typer's test runner builds the click command once per app (``_command_once``)."""
    typer.testing._get_command = _command_once  # type: ignore[attr-defined]


#: Each Typer app's click command, with the app (kept alive, so its id is not reused)
#: and the number of commands and groups it had when built.
_COMMANDS: dict[int, tuple[typer.Typer, tuple[int, int], Any]] = {}


def _command_once(app: typer.Typer) -> Any:
    """
    ``typer.main.get_command`` once per app.  ``CliRunner.invoke`` builds the app's click
    command anew at every call, reading the signature and type hints of every command
    (50 ms of CPU for our 300-odd parameters): a test that plays a game by ``local``
    commands paid it twice an order, the suite for over a thousand calls.  A click
    command is made to be run any number of times; the app's functions are still called
    as they are (what a test patches in their modules still counts).  An app given a
    command or group since is built again.
    """
    shape = (len(app.registered_commands), len(app.registered_groups))
    kept = _COMMANDS.get(id(app))
    if kept is None or kept[0] is not app or kept[1] != shape:
        kept = _COMMANDS[id(app)] = (app, shape, _TYPER_GET_COMMAND(app))
    return kept[2]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """
    The tests marked ``long`` first, each kind in its order.  ``pytest -n 2 --dist
    loadgroup`` hands the workers the groups of several tests first and then the tests
    in this order, one at a time as each worker is free: a long test handed out last
    keeps one worker busy while the other waits at the end of the run.
    """
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


@pytest.fixture(scope="session")
def dovecot() -> Iterator[TemporaryDovecot]:
    """A Dovecot IMAP server of our own for the session (``tests/mail/dovecot.py``)."""
    try:
        server = TemporaryDovecot()
        server.start()
    except DovecotUnavailableError as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"Dovecot is required under CI=true: {exc}", pytrace=False)
        pytest.skip(f"no Dovecot: {exc}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A migrated database on a PostgreSQL server of our own, for the whole session."""
    try:
        server = TemporaryPostgres()
        url = server.start()
    except (PostgresUnavailableError, OSError) as exc:
        _unavailable(str(exc))
        raise  # not reached: the line above fails or skips
    try:
        migrate.upgrade(url)
        yield url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def gpg_world() -> Iterator[GpgWorld]:
    with ExitStack() as stack:
        moderator = make_party(stack, "Titan Moderator", "moderator@titan.example")
        ann = make_party(stack, "Ann", "ann@example.org")
        bob = make_party(stack, "Bob", "bob@example.net")
        for player in (ann, bob):
            moderator.keyring.import_key(player.keyring.export_public(player.fingerprint))
            player.keyring.import_key(moderator.keyring.export_public(moderator.fingerprint))
        yield GpgWorld(moderator, ann, bob)


@pytest.fixture
def stranger() -> Iterator[Party]:
    """A fresh GnuPG home with a key nobody else knows."""
    with ExitStack() as stack:
        yield make_party(stack, "Stranger", "stranger@elsewhere.example")
