"""
Temporary GnuPG homes with keys, for the tests, the benchmarks and the demo's robots.

Every home is a short folder under /tmp: gpg-agent puts its socket in the home, and a
Unix socket's path may not exceed about 100 characters, which pytest's ``tmp_path``
can.  A home is dropped with its agent stopped first, so no agent outlives it.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from moderator.mail.gpg import Keyring


def gpg_available() -> bool:
    """Whether GnuPG (gpg and gpgconf) is on the PATH."""
    return shutil.which("gpg") is not None and shutil.which("gpgconf") is not None


def new_gnupg_home(tag: str) -> Path:
    """A new, empty GnuPG home under /tmp (gpg-agent's socket path must stay short)."""
    return Path(tempfile.mkdtemp(prefix=f"tg{tag}-", dir="/tmp"))


def stop_agent(home: Path) -> None:
    """Stop the home's gpg-agent, if one runs."""
    subprocess.run(
        ["gpgconf", "--homedir", str(home), "--kill", "gpg-agent"], check=False, capture_output=True
    )


def drop_gnupg_home(home: Path) -> None:
    """Stop the home's gpg-agent and remove the home."""
    stop_agent(home)
    shutil.rmtree(home, ignore_errors=True)


@contextmanager
def gnupg_home(tag: str = "h") -> Iterator[Path]:
    """A new GnuPG home for the ``with`` block, dropped after it."""
    home = new_gnupg_home(tag)
    try:
        yield home
    finally:
        drop_gnupg_home(home)


def keyring(
    home: Path,
    *,
    passphrase: str | None = None,
    clock: Callable[[], datetime | None] | None = None,
    frozen: bool = False,
) -> Keyring:
    """
    A keyring on ``home`` that is not the moderator's configured one (a player's, a
    robot's, a test's); ``clock`` and ``frozen`` as ``Keyring`` takes them.
    """
    return Keyring(home, passphrase=passphrase, clock=clock, frozen=frozen)


@dataclass(frozen=True)
class Party:
    """Somebody with a GnuPG home and a key pair in it."""

    name: str
    email: str
    keyring: Keyring
    fingerprint: str


def make_party(
    stack: ExitStack,
    name: str,
    email: str,
    *,
    clock: Callable[[], datetime | None] | None = None,
    made_at: datetime | None = None,
) -> Party:
    """
    ``name`` with a new key pair (made at ``made_at``, signing at ``clock``'s time) in a
    home of his own that ``stack`` drops.
    """
    ring = keyring(stack.enter_context(gnupg_home(name[:3].lower())), clock=clock)
    return Party(name, email, ring, ring.generate_key(name, email, at=made_at))


def introduce(one: Party, *others: Party) -> None:
    """Each of ``others`` and ``one`` hold each other's public key."""
    for other in others:
        one.keyring.import_key(other.keyring.export_public(other.fingerprint))
        other.keyring.import_key(one.keyring.export_public(one.fingerprint))


__all__ = [
    "Party",
    "drop_gnupg_home",
    "gnupg_home",
    "gpg_available",
    "introduce",
    "keyring",
    "make_party",
    "new_gnupg_home",
    "stop_agent",
]
