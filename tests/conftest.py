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

import pytest

from moderator.store import migrate
from moderator.testing.pgtemp import PostgresUnavailableError, TemporaryPostgres

from .gpgparties import GpgWorld, Party, make_party
from .mail.dovecot import DovecotUnavailableError, TemporaryDovecot


def _unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"PostgreSQL is required under CI=true: {reason}", pytrace=False)
    pytest.skip(f"no PostgreSQL server: {reason}")


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
