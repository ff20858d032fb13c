"""
Real GnuPG homes for tests, no mocks (used by ``tests/conftest.py`` and
``tests/mail/conftest.py``).

Every home is a short directory under /tmp (gpg-agent puts its socket in the home,
and a Unix socket path may not exceed about 100 characters, which pytest's
``tmp_path`` can), and its agent is killed when the home is removed.
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
