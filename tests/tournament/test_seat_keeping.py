"""
Seats kept in a tournament's games (issue 26): the tournament's ``seats`` setting
reaches every game; a seat kept for a standby goes to the robot (the players and the
director told) until the director's ``replace`` line gives it to a standby; a player
who withdraws leaves his seats to the robot, counted as seats lost; in a game that keeps
no seats (``defaults``) the defaults play his seat and he is not reminded of it.
"""

from __future__ import annotations

from datetime import timedelta

from moderator.letters.tournaments import game_summary
from moderator.rules.legal import to_act
from moderator.runners import clock as clockwork
from moderator.runners import tournaments as service
from moderator.schedule import seats
from moderator.store import EventStore, outbox
from moderator.store import tournaments as stored
from moderator.testing.clocks import TestClock as Clock
from moderator.tournament.standings import standings

from .conftest import DIRECTOR, MODERATOR, address, register
from .test_mail import reply, seats_of, send

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


def test_a_player_who_withdrew_is_neither_reminded_nor_told_of_his_seats_timeouts(
    store: EventStore, clock: Clock
) -> None:
    # Under 'seats defaults' nobody takes a withdrawn player's seat until the director
    # hands it over; meanwhile the defaults play it, and he must not be chased for it.
    _opened(store, clock, "defaults")
    actors = {}
    for game_id in ("duel-1", "duel-2"):
        actor = to_act(store.load_state(game_id).state)
        assert actor is not None
        actors[game_id] = (actor, seats_of(store, game_id)[actor])
    seat, leaver = actors["duel-1"]
    stayer = actors["duel-2"][1]  # the same step in duel-2, his player still in
    status, _ = send(store, leaver.split("@")[0].title(), ["withdraw from tournament duel"])
    assert status == "processed"
    assert store.record("duel-1").left == (seat,) and not store.record("duel-1").robots
    deadline = store.record("duel-1").deadline
    assert deadline is not None and deadline.player == seat
    clock.set(deadline.due - timedelta(hours=1))  # every reminder due, the deadline not
    clockwork.check_deadlines(store, MODERATOR, clock.now())
    with store.reading() as tx:
        reminded = {m.recipient for m in outbox.mails(tx) if "Reminder:" in m.subject}
    assert stayer in reminded and leaver not in reminded
    clock.set(deadline.due + timedelta(minutes=1))
    clockwork.check_deadlines(store, MODERATOR, clock.now())
    with store.reading() as tx:
        passed = [m for m in outbox.mails(tx) if "deadline passed" in m.subject]
    told = {m.recipient for m in passed if m.game_id == "duel-1"}
    assert told and leaver not in told  # the others are told what the defaults gave
    assert any(m.recipient == stayer for m in passed if "Your deadline" in m.subject)
    # He may still read the game; the director's replace gives the seat a player again.
    status, mails = send(store, leaver.split("@")[0].title(), ["status"], subject="[titan duel-1]")
    assert status == "processed" and any(m.recipient == leaver for m in mails)
    assert store.record("duel-1").left == (seat,)
    send(store, "Ed", ["standby tournament duel"])
    assert send(store, DIRECTOR, [f"replace {seat} in duel-1"])[0] == "processed"
    assert store.record("duel-1").left == ()



def test_a_player_whose_seat_the_robot_keeps_is_not_placed_in_new_games(
    store: EventStore, clock: Clock
) -> None:
    register(store, DIRECTOR, *NAMES)
    line = "tournament create duel players 2 rounds 3 games 2 timing turn=24 seats robot keep 1"
    assert send(store, DIRECTOR, [line])[0] == "processed"
    for name in NAMES:
        send(store, name, ["join tournament duel"])
    assert len(service.form_games(store, MODERATOR, clock.now(), seed=3)) == 2
    sleepers = set()
    for game_id in ("duel-1", "duel-2"):
        actor = to_act(store.load_state(game_id).state)
        assert actor is not None
        sleepers.add(seats_of(store, game_id)[actor])
    clock.advance(days=20)  # one miss keeps the seat: the player to act in each game drops
    clockwork.check_deadlines(store, MODERATOR, clock.now())
    with store.reading() as tx:
        tournament = stored.load(tx, "duel").state
    assert {e.player for e in tournament.entrants.values() if e.seats_lost} == sleepers
    assert not any(tournament.entrants[p].waiting for p in sleepers)
    with store.reading() as tx:
        told = [m for m in outbox.mails(tx) if m.recipient in sleepers]
    assert any("join tournament duel" in m.body for m in told if "robot" in m.subject)
    # The next formation pairs the two who kept playing, and nobody with a dropped player.
    service.form_games(store, MODERATOR, clock.now(), seed=3)
    with store.reading() as tx:
        tournament = stored.load(tx, "duel").state
    new = [g for g in tournament.games.values() if g.game not in ("duel-1", "duel-2")]
    assert len(new) == 1 and not sleepers & set(new[0].players)
    # Back from his holiday, a dropped player joins again and is placed as before.
    back = min(sleepers).split("@")[0].title()
    assert send(store, back, ["join tournament duel"])[0] == "rejected"  # his old mail again
    status, _mails = send(store, back, ["join tournament duel", "standings duel"])
    assert status == "processed"
    with store.reading() as tx:
        assert stored.load(tx, "duel").state.entrants[address(back)].waiting


def test_a_seat_its_player_dropped_out_of_scores_nothing_for_him_even_taken_back(
    store: EventStore, clock: Clock
) -> None:
    # A weak player must not collect the competent robot's results by going silent, nor
    # by coming back to take the seat just before the finish.
    _opened(store, clock, "robot")
    sleepers = {}
    for game_id in ("duel-1", "duel-2"):
        actor = to_act(store.load_state(game_id).state)
        assert actor is not None
        sleepers[game_id] = seats_of(store, game_id)[actor]
    clock.advance(days=20)
    clockwork.check_deadlines(store, MODERATOR, clock.now())
    assert all(store.record(g).robots for g in sleepers)
    # duel-2's sleeper comes back and holds his seat at the finish.
    back = sleepers["duel-2"].split("@")[0].title()
    status, _ = send(store, back, ["status"], subject="[titan duel-2]")
    assert status == "processed" and not store.record("duel-2").robots
    for game_id in sleepers:
        assert send(store, DIRECTOR, [f"end {game_id}"])[0] == "processed"
    with store.reading() as tx:
        tournament = stored.load(tx, "duel").state
    rows = {row.player: row for row in standings(tournament)}
    for sleeper in sleepers.values():
        gone = rows[sleeper]
        assert (gone.points, gone.finished, gone.wins, gone.rating) == (0, 0, 0, None)
    for game_id in sleepers:
        summary = game_summary(tournament, tournament.games[game_id])
        assert summary is not None
        (line,) = [line for line in summary["places"] if "dropped out" in line]
        assert "no points" in line and "rating" not in line
    # The players who kept playing are scored as the places fell (alone in a rated
    # place, a duel's rating does not move).
    for game_id, sleeper in sleepers.items():
        (kept,) = [p for p in seats_of(store, game_id).values() if p != sleeper]
        assert rows[kept].finished == 1


def test_a_player_who_drops_out_is_taken_off_the_standby_list(
    store: EventStore, clock: Clock
) -> None:
    # Handed another game's seat from the standby list, a player who went silent would
    # leave its players with a seat that only times out, as in the game he dropped.
    register(store, DIRECTOR, *NAMES, "Ed")
    line = "tournament create duel players 2 rounds 3 games 2 timing turn=24 seats standby keep 1"
    assert send(store, DIRECTOR, [line])[0] == "processed"
    for name in NAMES:
        send(store, name, ["join tournament duel"])
    assert len(service.form_games(store, MODERATOR, clock.now(), seed=3)) == 2
    sleepers = {}
    for game_id in ("duel-1", "duel-2"):
        actor = to_act(store.load_state(game_id).state)
        assert actor is not None
        sleepers[game_id] = (actor, seats_of(store, game_id)[actor])
    first = sleepers["duel-1"][1]
    volunteer = first.split("@")[0].title()
    assert send(store, volunteer, ["standby tournament duel"])[0] == "processed"
    clock.advance(days=20)  # one miss keeps the seat: the player to act in each game drops
    clockwork.check_deadlines(store, MODERATOR, clock.now())
    with store.reading() as tx:
        tournament = stored.load(tx, "duel").state
        told = [m for m in outbox.mails(tx) if m.recipient == first and "robot" in m.subject]
    assert not tournament.entrants[first].standby
    assert any("standby tournament duel" in m.body for m in told)
    # duel-2's seat, given to 'whoever is on the standby list', does not go to him.
    seat, _ = sleepers["duel-2"]
    _status, mails = send(store, DIRECTOR, [f"replace {seat} in duel-2"])
    assert "Refused (E-T-NO-STANDBY)" in reply(mails, DIRECTOR)
    assert first not in seats_of(store, "duel-2").values()
    send(store, "Ed", ["standby tournament duel"])
    again = [f"replace {seat} in duel-2", "standings duel"]  # not his earlier mail again
    assert send(store, DIRECTOR, again)[0] == "processed"
    assert seats_of(store, "duel-2")[seat] == address("Ed")
