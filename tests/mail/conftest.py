"""
Fixtures for the mail tests: real GnuPG homes, no mocks (see ``tests/gpgparties.py``).

- ``gpg_world`` (session, in ``tests/conftest.py``): the moderator and two players,
  Ann and Bob, each in his own home with his own key; the moderator holds both
  players' public keys and each player holds the moderator's.  Tests must not change it.
- ``stranger`` (in ``tests/conftest.py``): a fresh home with a key nobody else knows.
- ``gpg_home``: a fresh empty home.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ..gpgparties import need_gpg, short_gpg_home


@pytest.fixture
def gpg_home() -> Iterator[Path]:
    need_gpg()
    with short_gpg_home("e") as home:
        yield home
