"""
Reliability in the tournament core: moves on time, timeouts and seats lost (a seat
taken over by the robot or a standby because its player dropped out), counted for the
seat's holder, shown in the standings, and old events read with no seat lost.
"""

from __future__ import annotations

from moderator.tournament import commands as cmd
from moderator.tournament import errors as err
from moderator.tournament import events as ev
from moderator.tournament.codec import decode, encode
from moderator.tournament.standings import standings
from moderator.tournament.state import replay

from .test_core import DIRECTOR, address, code_of, created, joined, run

AT = "2024-09-01T12:00:00+00:00"


def test_reliability_counts_a_seat_lost_for_the_player_who_held_it() -> None:
    state = run(joined(created(players_per_game=2), "Ann", "Bob"), cmd.FormGames(seed=1))
    (game,) = state.games
    seat, holder = state.games[game].seats[0]
    state = run(
        state,
        cmd.RecordReliability(game=game, seat=seat, timeouts=2),
        cmd.RecordReliability(game=game, seat=seat, seats_lost=1),
    )
    entrant = state.entrants[holder]
    assert (entrant.on_time, entrant.timeouts, entrant.seats_lost) == (0, 2, 1)
    row = next(r for r in standings(state) if r.player == holder)
    assert (row.on_time, row.timeouts, row.seats_lost) == (0, 2, 1)
    other = next(r for r in standings(state) if r.player != holder)
    assert other.seats_lost == 0


def test_reliability_refuses_a_negative_seat_count() -> None:
    state = run(joined(created(players_per_game=2), "Ann", "Bob"), cmd.FormGames(seed=1))
    (game,) = state.games
    seat = state.games[game].seats[0][0]
    bad = cmd.RecordReliability(game=game, seat=seat, on_time=1, seats_lost=-1)
    assert code_of(state, bad) == err.E_RELIABILITY_DATA


def test_a_seat_lost_survives_the_codec() -> None:
    event = ev.ReliabilityRecorded(
        at=AT, player=address("Ann"), game="spring-1", seat="Ann", on_time=0, timeouts=0,
        seats_lost=1,
    )
    record = encode(event)
    assert record["version"] == 2 and record["payload"]["seats_lost"] == 1
    assert decode(record) == event


def test_old_reliability_events_without_seats_lost_still_load() -> None:
    old = {
        "type": "reliability-recorded",
        "version": 1,
        "payload": {
            "at": AT,
            "player": address("Ann"),
            "game": "spring-1",
            "seat": "Ann",
            "on_time": 3,
            "timeouts": 1,
        },
    }
    event = decode(old)
    assert isinstance(event, ev.ReliabilityRecorded)
    assert (event.on_time, event.timeouts, event.seats_lost) == (3, 1, 0)
    state = replay(
        [
            ev.TournamentCreated(
                at=AT, tournament="spring", director=DIRECTOR, director_name="Dee",
                settings=created().settings.to_payload(),
            ),
            ev.PlayerJoined(at=AT, player=address("Ann"), name="Ann"),
            event,
        ]
    )
    ann = state.entrants[address("Ann")]
    assert (ann.on_time, ann.timeouts, ann.seats_lost) == (3, 1, 0)


def test_a_result_recorded_before_robot_seats_were_named_still_loads() -> None:
    old = {
        "type": "game-finished",
        "version": 1,
        "payload": {
            "at": AT,
            "game": "spring-1",
            "ranking": [["Ann"], ["Bob"]],
            "totals": [["Ann", 50], ["Bob", 10]],
            "ended": "director",
            "winner": None,
        },
    }
    event = decode(old)
    assert isinstance(event, ev.GameFinished) and event.unscored == ()
    assert decode(encode(event)) == event
