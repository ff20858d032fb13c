"""The pure tournament core: commands become events, errors carry codes, the fold."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from moderator.tournament import commands as cmd
from moderator.tournament import errors as err
from moderator.tournament import events as ev
from moderator.tournament.codec import decode, encode
from moderator.tournament.decide import decide
from moderator.tournament.errors import TournamentError
from moderator.tournament.scoring import GameResult
from moderator.tournament.settings import GameEndRule, Settings
from moderator.tournament.state import TournamentState, replay

NOW = datetime(2024, 9, 1, 12, 0, tzinfo=UTC)
DIRECTOR = "dee@example.org"


def address(name: str) -> str:
    return f"{name.lower()}@example.org"


def run(state: TournamentState, *commands: cmd.Command) -> TournamentState:
    for command in commands:
        state = replay(decide(state, command, now=NOW), state)
    return state


def created(**settings: object) -> TournamentState:
    return run(
        TournamentState(),
        cmd.CreateTournament(
            tournament="spring",
            by=DIRECTOR,
            by_name="Dee",
            may_direct=True,
            settings=Settings(**settings),  # type: ignore[arg-type]
        ),
    )


def joined(state: TournamentState, *names: str) -> TournamentState:
    return run(state, *(cmd.Join(player=address(n), name=n) for n in names))


def code_of(state: TournamentState, command: cmd.Command) -> str:
    with pytest.raises(TournamentError) as caught:
        decide(state, command, now=NOW)
    return caught.value.code


def test_a_tournament_is_created_by_a_director_only() -> None:
    state = created(players_per_game=3, rounds=2)
    assert (state.name, state.director, state.settings.players_per_game) == ("spring", DIRECTOR, 3)
    assert state.created_at == NOW.isoformat()
    again = cmd.CreateTournament(
        tournament="spring", by=DIRECTOR, by_name="Dee", may_direct=True, settings=Settings()
    )
    assert code_of(state, again) == err.E_EXISTS
    stranger = cmd.CreateTournament(
        tournament="x", by="ann@example.org", by_name="Ann", may_direct=False, settings=Settings()
    )
    assert code_of(TournamentState(), stranger) == err.E_DIRECTOR


@pytest.mark.parametrize(
    "settings",
    [
        Settings(players_per_game=7),
        Settings(players_per_game=1),
        Settings(rounds=0),
        Settings(max_games=0),
        Settings(min_reliability=101),
        Settings(game_end=GameEndRule.TIME_LIMIT),
        Settings(time_limit_days=30),
    ],
)
def test_settings_out_of_range_are_refused(settings: Settings) -> None:
    command = cmd.CreateTournament(
        tournament="t", by=DIRECTOR, by_name="Dee", may_direct=True, settings=settings
    )
    assert code_of(TournamentState(), command) == err.E_SETTINGS


def test_commands_on_no_tournament_are_refused() -> None:
    assert code_of(TournamentState(), cmd.Join(player="a@x", name="A")) == err.E_UNKNOWN


def test_join_leave_withdraw_standby() -> None:
    state = joined(created(), "Ann")
    ann = state.entrants[address("Ann")]
    assert ann.waiting and ann.joined and not ann.withdrawn
    assert code_of(state, cmd.Join(player=address("Ann"), name="Ann")) == err.E_JOINED
    state = run(state, cmd.Leave(player=address("Ann")))
    assert not state.entrants[address("Ann")].waiting
    assert code_of(state, cmd.Leave(player=address("Ann"))) == err.E_NOT_JOINED
    state = joined(state, "Ann")  # back on the list
    state = run(state, cmd.Withdraw(player=address("Ann")))
    assert state.entrants[address("Ann")].withdrawn
    assert code_of(state, cmd.Join(player=address("Ann"), name="Ann")) == err.E_WITHDRAWN
    assert code_of(state, cmd.Withdraw(player=address("Ann"))) == err.E_NOT_JOINED
    assert code_of(state, cmd.Standby(player=address("Ann"), name="Ann")) == err.E_WITHDRAWN
    state = run(state, cmd.Standby(player=address("Sam"), name="Sam"))
    assert state.entrants[address("Sam")].standby
    assert code_of(state, cmd.Standby(player=address("Sam"), name="Sam")) == err.E_STANDBY


def test_minimum_reliability_to_join() -> None:
    state = created(min_reliability=80)
    assert code_of(state, cmd.Join(player="a@x", name="A", record=(7, 3))) == err.E_RELIABILITY
    state = run(state, cmd.Join(player="a@x", name="A", record=(8, 2)))
    state = run(state, cmd.Join(player="b@x", name="B", record=(0, 0)))  # no record: welcome
    assert {"a@x", "b@x"} <= set(state.entrants)


def test_games_are_formed_when_enough_wait_and_named_after_the_tournament() -> None:
    state = joined(created(players_per_game=3), "Ann", "Bob")
    assert decide(state, cmd.FormGames(seed=1), now=NOW) == []
    state = joined(state, "Cy", "Di")
    new = decide(state, cmd.FormGames(seed=1, taken=frozenset({"spring-1"})), now=NOW)
    (formed,) = new
    assert isinstance(formed, ev.GameFormed)
    assert formed.game == "spring-2"  # spring-1 is taken in the store
    assert len(formed.seats) == 3
    # Those who waited longest play first: Ann, Bob and Cy joined before Di.
    assert {p for _, p in formed.seats} == {address(n) for n in ("Ann", "Bob", "Cy")}
    assert {s for s, _ in formed.seats} == {"Ann", "Bob", "Cy"}
    state = replay(new, state)
    assert state.running(address("Ann")) == 1 and state.pool() == [address("Di")]


def test_equal_names_get_distinct_seats() -> None:
    state = run(
        created(players_per_game=2),
        cmd.Join(player="ann1@x", name="Ann"),
        cmd.Join(player="ann2@x", name="ann"),
    )
    (formed,) = decide(state, cmd.FormGames(seed=3), now=NOW)
    assert isinstance(formed, ev.GameFormed)
    assert sorted(s.lower() for s, _ in formed.seats) == ["ann", "ann2"]


def finish(state: TournamentState, game_id: str, *ranking: tuple[str, ...]) -> TournamentState:
    totals = tuple((seat, 100 * i) for i, seat in enumerate(s for g in ranking for s in g))
    result = GameResult(ranking=ranking, totals=totals, ended="play", winner=ranking[0][0])
    return run(state, cmd.RecordResult(game=game_id, result=result))


def test_a_result_is_recorded_once_and_the_tournament_ends() -> None:
    state = joined(created(players_per_game=2, rounds=1), "Ann", "Bob")
    state = run(state, cmd.FormGames(seed=1))
    game = next(iter(state.games.values()))
    seats = [s for s, _ in game.seats]
    state = finish(state, game.game, (seats[0],), (seats[1],))
    assert state.games[game.game].finished
    assert state.finished  # nobody has a game left to play
    result = GameResult(ranking=((seats[0],), (seats[1],)), totals=(), ended="play", winner=None)
    assert code_of(state, cmd.RecordResult(game=game.game, result=result)) == err.E_GAME_OVER
    assert code_of(state, cmd.Join(player="new@x", name="New")) == err.E_FINISHED
    assert decide(state, cmd.FormGames(seed=1), now=NOW) == []


def test_a_ranking_must_name_the_games_seats() -> None:
    state = run(joined(created(players_per_game=2), "Ann", "Bob"), cmd.FormGames(seed=1))
    game = next(iter(state.games))
    result = GameResult(ranking=(("Ann",), ("Zed",)), totals=(), ended="play", winner="Ann")
    with pytest.raises(ValueError, match="does not name the seats"):
        decide(state, cmd.RecordResult(game=game, result=result), now=NOW)


def directed() -> tuple[TournamentState, str]:
    state = run(
        joined(created(players_per_game=2, max_games=2), "Ann", "Bob", "Cy"),
        cmd.Standby(player=address("Sam"), name="Sam"),
        cmd.FormGames(seed=1),
    )
    return state, next(iter(state.games))


def test_only_the_director_pauses_resumes_extends_and_ends() -> None:
    state, game = directed()
    for command in (
        cmd.PauseGame(by=address("Ann"), game=game),
        cmd.ExtendDeadline(by=address("Ann"), game=game, hours=5),
        cmd.EndGame(by=address("Ann"), game=game),
        cmd.ReplaceSeat(by=address("Ann"), game=game, seat="Ann"),
    ):
        assert code_of(state, command) == err.E_DIRECTOR
    assert code_of(state, cmd.PauseGame(by=DIRECTOR, game="nope")) == err.E_GAME
    assert code_of(state, cmd.ResumeGame(by=DIRECTOR, game=game)) == err.E_NOT_PAUSED
    state = run(state, cmd.PauseGame(by=DIRECTOR, game=game))
    assert state.games[game].paused
    assert code_of(state, cmd.PauseGame(by=DIRECTOR, game=game)) == err.E_PAUSED
    state = run(state, cmd.ResumeGame(by=DIRECTOR, game=game))
    assert not state.games[game].paused
    assert code_of(state, cmd.ExtendDeadline(by=DIRECTOR, game=game, hours=0)) == err.E_HOURS
    state = run(state, cmd.ExtendDeadline(by=DIRECTOR, game=game, hours=24))
    assert state.games[game].extended_hours == 24
    state = run(state, cmd.EndGame(by=DIRECTOR, game=game))
    assert state.games[game].ended_by_director
    assert code_of(state, cmd.EndGame(by=DIRECTOR, game=game)) == err.E_GAME_OVER


def test_a_seat_goes_to_the_first_free_standby_or_to_a_named_player() -> None:
    state, game = directed()
    seat, old = state.games[game].seats[0]
    assert code_of(state, cmd.ReplaceSeat(by=DIRECTOR, game=game, seat="Nobody")) == err.E_SEAT
    other = state.games[game].seats[1][1]
    assert (
        code_of(state, cmd.ReplaceSeat(by=DIRECTOR, game=game, seat=seat, new=other))
        == err.E_SEATED
    )
    (replaced,) = decide(state, cmd.ReplaceSeat(by=DIRECTOR, game=game, seat=old), now=NOW)
    assert isinstance(replaced, ev.SeatReplaced)
    assert (replaced.seat, replaced.old, replaced.new) == (seat, old, address("Sam"))
    state = replay([replaced], state)
    assert state.games[game].holder(seat) == address("Sam")
    assert not state.entrants[address("Sam")].standby  # used up
    assert state.running(old) == 0 and state.running(address("Sam")) == 1
    seat2 = state.games[game].seats[1][0]
    command = cmd.ReplaceSeat(by=DIRECTOR, game=game, seat=seat2)
    assert code_of(state, command) == err.E_NO_STANDBY
    named = cmd.ReplaceSeat(by=DIRECTOR, game=game, seat=seat2, new="zed@x", new_name="Zed")
    state = run(state, named)
    assert state.games[game].holder(seat2) == "zed@x"
    assert set(state.games[game].everyone) >= {old, address("Sam"), "zed@x"}


def test_reliability_is_counted_for_the_seat_holder() -> None:
    state, game = directed()
    seat, holder = state.games[game].seats[0]
    state = run(state, cmd.RecordReliability(game=game, seat=seat, on_time=5, timeouts=1))
    state = run(state, cmd.RecordReliability(game=game, seat=seat, on_time=2))
    entrant = state.entrants[holder]
    assert (entrant.on_time, entrant.timeouts) == (7, 1)
    bad = cmd.RecordReliability(game=game, seat=seat)
    assert code_of(state, bad) == err.E_RELIABILITY_DATA
    assert code_of(state, cmd.RecordReliability(game=game, seat="X", on_time=1)) == err.E_SEAT


def test_every_event_survives_the_codec() -> None:
    state, game = directed()
    seat = state.games[game].seats[0][0]
    events: list[ev.TournamentEvent] = []
    for command in (
        cmd.ReplaceSeat(by=DIRECTOR, game=game, seat=seat),
        cmd.RecordReliability(game=game, seat=seat, on_time=1, timeouts=2),
        cmd.PauseGame(by=DIRECTOR, game=game),
        cmd.ResumeGame(by=DIRECTOR, game=game),
        cmd.ExtendDeadline(by=DIRECTOR, game=game, hours=3),
        cmd.EndGame(by=DIRECTOR, game=game),
        cmd.Withdraw(player=address("Cy")),
    ):
        new = decide(state, command, now=NOW)
        events += new
        state = replay(new, state)
    seats = [s for s, _ in state.games[game].seats]
    result = GameResult(
        ranking=((seats[0], seats[1]),), totals=((seats[0], 3),), ended="director", winner=None
    )
    new = decide(state, cmd.RecordResult(game=game, result=result), now=NOW)
    events += new
    for event in events:
        assert decode(encode(event)) == event
    created_event = decode(
        encode(
            ev.TournamentCreated(
                at="x",
                tournament="t",
                director="d",
                director_name="D",
                settings=Settings(time_limits={"turn_hours": 48}).to_payload(),
            )
        )
    )
    assert isinstance(created_event, ev.TournamentCreated)
    assert Settings.from_payload(created_event.settings).time_limits == {"turn_hours": 48}
    with pytest.raises(ValueError, match="unknown tournament event"):
        decode({"type": "nope", "version": 1, "payload": {}})
