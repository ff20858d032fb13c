"""A tournament may be played in a group's own variant, once the operator has installed it."""

from __future__ import annotations

from pathlib import Path

import pytest

from moderator.rules.variant import variant_digest
from moderator.tournament.errors import TournamentError
from moderator.tournament.lines import parse_line
from tests.ownvariant import NAME, installed


def test_a_tournament_in_an_own_variant_is_refused_until_it_is_installed(tmp_path: Path) -> None:
    settings = parse_line(f"tournament create spring players 2 variant {NAME}").settings
    assert settings is not None
    with pytest.raises(TournamentError, match="titanplus"):
        settings.check()
    with installed(tmp_path):
        settings.check()


def test_the_games_of_an_own_variant_tournament_record_its_digest(tmp_path: Path, store, clock) -> None:
    """The director's ``variant NAME`` with an own variant: every game formed is played in it, its digest recorded."""
    from moderator.runners import tournaments as service

    from .conftest import DIRECTOR, MODERATOR, address, register

    register(store, DIRECTOR, "Ann", "Bob")

    def line(name: str, text: str) -> None:
        service.carry_out(store, address(name), [text], moderator_address=MODERATOR, headers={})

    with installed(tmp_path):
        line(DIRECTOR, f"tournament create own players 2 variant {NAME}")
        for name in ("Ann", "Bob"):
            line(name, "join tournament own")
        assert service.form_games(store, MODERATOR, clock.now(), seed=4)
        state = store.load_state("own-1").state
        assert state.variant_name == NAME
        assert state.variant_digest == variant_digest(NAME) != ""
