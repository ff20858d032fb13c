"""
Shared fixtures for the mail tests: real GnuPG homes, no mocks.

Every home is a short directory under /tmp (gpg-agent puts its socket in the
home, and a Unix socket path may not exceed about 100 characters, which
pytest's ``tmp_path`` can), and its agent is killed when the fixture ends.

- ``gpg_world`` (session): the moderator and two players, Ann and Bob, each
  in his own home with his own key; the moderator holds both players' public
  keys and each player holds the moderator's.  Tests must not change it.
- ``gpg_home``: a fresh empty home; ``stranger``: a fresh home with a key
  nobody else knows.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from moderator.mail.gpg import Keyring


@dataclass(frozen=True)
class Party:
    """Somebody with a GnuPG home and a key pair in it."""

    name: str
    email: str
    keyring: Keyring
    fingerprint: str


@dataclass(frozen=True)
class GpgWorld:
    moderator: Party
    ann: Party
    bob: Party


@contextmanager
def short_gpg_home(tag: str = "h") -> Iterator[Path]:
    """A new GnuPG home under /tmp, removed (agent first) on exit."""
    home = Path(tempfile.mkdtemp(prefix=f"tg{tag}-", dir="/tmp"))
    try:
        yield home
    finally:
        subprocess.run(
            ["gpgconf", "--homedir", str(home), "--kill", "gpg-agent"],
            check=False,
            capture_output=True,
        )
        shutil.rmtree(home, ignore_errors=True)


def need_gpg() -> None:
    if shutil.which("gpg") is None or shutil.which("gpgconf") is None:
        pytest.skip("needs GnuPG (gpg and gpgconf)")


def make_party(stack: ExitStack, name: str, email: str) -> Party:
    need_gpg()
    keyring = Keyring(stack.enter_context(short_gpg_home(name[:3].lower())))
    return Party(name, email, keyring, keyring.generate_key(name, email))


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
def gpg_home() -> Iterator[Path]:
    need_gpg()
    with short_gpg_home("e") as home:
        yield home


@pytest.fixture
def stranger() -> Iterator[Party]:
    with ExitStack() as stack:
        yield make_party(stack, "Stranger", "stranger@elsewhere.example")
