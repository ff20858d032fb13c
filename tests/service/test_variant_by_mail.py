"""A game by mail in a variant (``game new ... --variant``): its record and state name it,
and the first reports say which game is played."""

from __future__ import annotations

import pytest

from moderator.runners.commands import start_game
from moderator.store import EventStore, outbox, players
from moderator.usecases.games.starting import StartError

from .conftest import MODERATOR, address, secret_of


def _signed_on(store: EventStore) -> None:
    with store.transaction() as tx:
        for name in ("Ann", "Bob"):
            players.add_player(tx, name, address(name), secret=secret_of(name))


def test_21_3_a_titanplus_game_by_mail_names_its_variant_in_the_first_reports(store: EventStore) -> None:
    _signed_on(store)
    state = start_game(store, "g1", [address("Ann"), address("Bob")], sender=MODERATOR, variant="titanplus")
    assert state.variant_name == "titanplus" and store.load_state("g1").state.variant_name == "titanplus"
    with store.reading() as tx:
        reports = [m for m in outbox.mails(tx) if m.kind == "report"]
    assert reports and all("Playing TITANplus (variant titanplus)." in m.body for m in reports)


def test_a_game_by_mail_in_an_unknown_variant_is_refused(store: EventStore) -> None:
    _signed_on(store)
    with pytest.raises(StartError, match="titanplus"):
        start_game(store, "g1", [address("Ann"), address("Bob")], sender=MODERATOR, variant="titan+")
