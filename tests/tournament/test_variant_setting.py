"""A tournament's games may be played in a variant: the ``variant NAME`` setting."""

from __future__ import annotations

import pytest

from moderator.tournament.errors import TournamentError
from moderator.tournament.lines import parse_line
from moderator.tournament.settings import Settings


def test_a_tournament_of_titanplus_names_it_in_its_settings() -> None:
    request = parse_line("tournament create spring players 2 variant titanplus")
    settings = request.settings
    assert settings is not None and settings.variant == "titanplus"
    settings.check()
    assert "Variant: titanplus (docs/variants.md)" in settings.describe()
    assert Settings.from_payload(settings.to_payload()) == settings


def test_a_tournament_created_before_variants_is_standard() -> None:
    payload = Settings().to_payload()
    del payload["variant"]
    assert Settings.from_payload(payload).variant == "standard"
    assert not any(line.startswith("Variant") for line in Settings().describe())


def test_an_unknown_variant_is_refused_naming_those_there_are() -> None:
    settings = parse_line("tournament create spring variant titan-plus").settings
    assert settings is not None
    with pytest.raises(TournamentError, match="titanplus"):
        settings.check()


def test_the_games_of_a_titanplus_tournament_are_set_up_in_titanplus(store, clock) -> None:
    """The director's ``variant titanplus``: every game formed is a TITANplus game (21.3)."""
    from moderator.runners import tournaments as service

    from .conftest import DIRECTOR, MODERATOR, address, register

    register(store, DIRECTOR, "Ann", "Bob")

    def line(name: str, text: str) -> None:
        service.carry_out(store, address(name), [text], moderator_address=MODERATOR, headers={})

    line(DIRECTOR, "tournament create plus players 2 variant titanplus")
    for name in ("Ann", "Bob"):
        line(name, "join tournament plus")
    assert service.form_games(store, MODERATOR, clock.now(), seed=4)
    state = store.load_state("plus-1").state
    assert state.variant_name == "titanplus"
    assert all(len(p.markers) == 8 for p in state.players if p.markers)
