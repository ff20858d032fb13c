"""
Real GnuPG homes for tests, no mocks (used by ``tests/conftest.py`` and
``tests/mail/conftest.py``), on ``moderator.testing.gnupg``'s homes: the test parties
sign at the running test's clock.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from moderator.testing.gnupg import Party, gnupg_home, gpg_available
from moderator.testing.gnupg import make_party as _make_party

#: A new GnuPG home under /tmp, removed (agent first) on exit.
short_gpg_home = gnupg_home


@dataclass(frozen=True)
class GpgWorld:
    moderator: Party
    ann: Party
    bob: Party


def need_gpg() -> None:
    if not gpg_available():
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
    return _make_party(stack, name, email, clock=SigningTime.now, made_at=KEYS_MADE)
