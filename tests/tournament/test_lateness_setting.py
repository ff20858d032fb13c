"""
A tournament's lateness setting (rulebook 21.2 or Wolff 20.4, docs/variants.md): the
director writes ``timing lateness=21.2`` and every game the tournament forms gets it in
its time limits; a value that is neither is refused when the tournament is created.
"""

from __future__ import annotations

from moderator.audit.bundle import make_bundle
from moderator.audit.verify import verify
from moderator.rules import events as ev
from moderator.runners import tournaments as service
from moderator.store import EventStore
from moderator.store import tournaments as stored
from moderator.testing.clocks import TestClock as Clock

from .conftest import DIRECTOR, MODERATOR, register
from .test_service import lines_of, reply_of


def test_21_2_a_tournament_gives_its_games_the_rulebook_lateness(
    store: EventStore, clock: Clock
) -> None:
    """21.2 as a tournament setting: each game formed carries lateness 21.2 in its time limits."""
    register(store, DIRECTOR, "Ann", "Bob")
    line = "tournament create duel players 2 rounds 1 timing turn=48 lateness=21.2"
    assert "open for sign-up" in reply_of(lines_of(store, DIRECTOR, [line], clock), DIRECTOR)
    for name in ("Ann", "Bob"):
        lines_of(store, name, ["join tournament duel"], clock)
    assert service.form_games(store, MODERATOR, clock.now(), seed=4)
    (game_id,) = [g for g in store.games() if g.startswith("duel")]
    limits = store.record(game_id).time_limits
    assert limits is not None and limits.lateness == "21.2" and limits.turn_hours == 48


def test_21_2_a_tournament_refuses_an_unknown_lateness(store: EventStore, clock: Clock) -> None:
    """A lateness that is neither wolff nor 21.2 is refused, naming the two."""
    register(store, DIRECTOR)
    out = lines_of(store, DIRECTOR, ["tournament create bad players 2 timing lateness=soon"], clock)
    reply = reply_of(out, DIRECTOR)
    assert "Refused (E-T-SETTINGS)" in reply and "lateness=21.2" in reply
    with store.reading() as tx:
        assert stored.tournament_ids(tx) == []


def test_21_2_a_tournament_game_is_sealed_with_its_lateness(
    store: EventStore, clock: Clock
) -> None:
    """21.2: a game the tournament forms names its lateness in its start's seal, and so
    in its audit bundle, which verifies."""
    register(store, DIRECTOR, "Ann", "Bob")
    line = "tournament create late players 2 rounds 1 timing lateness=21.2"
    lines_of(store, DIRECTOR, [line], clock)
    for name in ("Ann", "Bob"):
        lines_of(store, name, ["join tournament late"], clock)
    assert service.form_games(store, MODERATOR, clock.now(), seed=4)
    (game_id,) = [g for g in store.games() if g.startswith("late")]
    events = store.load(game_id)
    start = next(e for e in events if isinstance(e, ev.OrderSealed))
    assert start.order == "start lateness=21.2"
    seed = store.record(game_id).dice.seed
    assert seed is not None
    bundle = make_bundle(game_id, seed, events, clock.now().isoformat(), None)
    assert bundle["lateness"] == "21.2" and verify(bundle).ok
