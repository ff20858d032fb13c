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
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
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


#: When the test parties' keys are made: before any test clock's time (a signature may
#: not be older than its key).
KEYS_MADE = datetime(2024, 1, 1, tzinfo=UTC)


class SigningTime:
    """
    The time the test parties sign at: the running test's store clock when it has one
    (``tests/service/conftest.Clock`` registers itself), else the machine's.  The
    moderator refuses signatures far from its own clock, as it should.
    """

    clock: Callable[[], datetime] | None = None
    calls = 0

    @classmethod
    def now(cls) -> datetime | None:
        """
        The clock's time, a second earlier at each call: a test's clock stands still,
        but two signatures a person makes are never made in the same second.
        """
        if cls.clock is None:
            return None
        cls.calls += 1
        return cls.clock() - timedelta(seconds=cls.calls % 86_400)


def make_party(stack: ExitStack, name: str, email: str) -> Party:
    need_gpg()
    keyring = Keyring(stack.enter_context(short_gpg_home(name[:3].lower())), clock=SigningTime.now)
    return Party(name, email, keyring, keyring.generate_key(name, email, at=KEYS_MADE))
