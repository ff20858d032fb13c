"""
Seats kept in a tournament's games (issue 26): the tournament's ``seats`` setting
reaches every game; a seat kept for a standby goes to the robot (the players and the
director told) until the director's ``replace`` line gives it to a standby; a player
who withdraws leaves his seats to the robot, counted as seats lost.
"""

from __future__ import annotations

from moderator.rules.legal import to_act
from moderator.runners import clock as clockwork
from moderator.runners import tournaments as service
from moderator.schedule import seats
from moderator.store import EventStore, outbox
from moderator.store import tournaments as stored
from moderator.testing.clocks import TestClock as Clock

from .conftest import DIRECTOR, MODERATOR, address, register
from .test_mail import seats_of, send

NAMES = ("Ann", "Bob", "Cy", "Di")


def _opened(store: EventStore, clock: Clock, keeping: str) -> None:
    register(store, DIRECTOR, *NAMES, "Ed")
    line = f"tournament create duel players 2 rounds 1 timing turn=24 seats {keeping} keep 1"
    status, _ = send(store, DIRECTOR, [line])
    assert status == "processed"
    for name in NAMES:
        send(store, name, ["join tournament duel"])
    assert len(service.form_games(store, MODERATOR, clock.now(), seed=3)) == 2


def test_a_seat_kept_for_a_standby_is_the_robots_until_the_director_gives_it_to_one(
    store: EventStore, clock: Clock
) -> None:
    _opened(store, clock, "standby")
    game_id = "duel-1"
    assert store.record(game_id).seat_keeping == seats.STANDBY
    sleeper = to_act(store.load_state(game_id).state)
    assert sleeper is not None
    clock.advance(days=20)  # past any step's limit: with 'keep 1', one miss keeps the seat
    clockwork.check_deadlines(store, MODERATOR, clock.now())
    assert store.record(game_id).robots == {sleeper: seats.STANDBY}
    with store.reading() as tx:
        told = [m for m in outbox.mails(tx) if "played by the robot" in m.subject]
    assert {m.recipient for m in told} >= {address(DIRECTOR), *seats_of(store, game_id).values()}
    send(store, "Ed", ["standby tournament duel"])
    status, mails = send(store, DIRECTOR, [f"replace {sleeper} in {game_id}"])
    assert status == "processed"
    assert not seats.held(store.record(game_id), sleeper)
    assert seats_of(store, game_id)[sleeper] == address("Ed")
    back = [m for m in mails if "no longer the robot's" in m.subject]
    assert address("Ed") in {m.recipient for m in back}
    assert any("You take the seat" in m.body for m in back if m.recipient == address("Ed"))


def test_a_player_who_withdraws_leaves_his_seat_to_the_robot_as_a_seat_lost(
    store: EventStore, clock: Clock
) -> None:
    _opened(store, clock, "robot")
    game_id = "duel-2"
    holder = seats_of(store, game_id)
    seat, leaver = min(holder.items())
    name = leaver.split("@")[0].title()
    status, mails = send(store, name, ["withdraw from tournament duel"])
    assert status == "processed"
    assert store.record(game_id).robots == {seat: seats.KEPT}
    assert any("withdrew from the tournament" in m.body for m in mails)
    with store.reading() as tx:
        tournament = stored.load(tx, "duel").state
    assert tournament.entrants[leaver].seats_lost == 1
    # the robot plays the seat whenever it is to act: the game does not wait for him
    assert to_act(store.load_state(game_id).state) != seat

