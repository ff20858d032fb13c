"""
The operator's ``game pause|resume|extend|replace`` leaves a tournament's games to the
tournament: its history keeps what its director (or the operator, ``tournament direct``)
did to them, so a line given outside it is refused and changes nothing.
"""

from __future__ import annotations

import pytest

from moderator.runners import tournaments as service
from moderator.runners.commands import operate
from moderator.store import EventStore, outbox
from moderator.testing.clocks import TestClock as Clock
from moderator.usecases.tournaments.operated import Operate, OperatorLineError

from .conftest import DIRECTOR, MODERATOR, register
from .test_mail import send


def test_a_tournament_game_is_refused_to_the_operators_game_lines(
    store: EventStore, clock: Clock
) -> None:
    register(store, DIRECTOR, "Ann", "Bob")
    assert send(store, DIRECTOR, ["tournament create duel players 2 rounds 1 timing turn=24"])[
        0
    ] == "processed"
    for name in ("Ann", "Bob"):
        send(store, name, ["join tournament duel"])
    assert len(service.form_games(store, MODERATOR, clock.now(), seed=3)) == 1
    before = store.load_state("duel-1")
    with store.reading() as tx:
        mails = len(outbox.mails(tx))
    for what in ("pause", "extend"):
        with pytest.raises(OperatorLineError, match="tournament direct"):
            operate(store, Operate(what, "duel-1", MODERATOR, hours=24))
    after = store.load_state("duel-1")
    assert (after.seq, after.record) == (before.seq, before.record)
    with store.reading() as tx:
        assert len(outbox.mails(tx)) == mails
