"""Forming games: as few repeated pairings as possible, limits respected, deterministic."""

from __future__ import annotations

from datetime import UTC, datetime
from itertools import combinations

from moderator.tournament import commands as cmd
from moderator.tournament import events as ev
from moderator.tournament.decide import decide
from moderator.tournament.formation import cost, formable, plan
from moderator.tournament.scoring import GameResult
from moderator.tournament.settings import Settings
from moderator.tournament.state import TournamentState, replay

NOW = datetime(2024, 9, 1, tzinfo=UTC)
NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")


def tournament(names: tuple[str, ...] = NAMES, **settings: object) -> TournamentState:
    state = TournamentState()
    commands: list[cmd.Command] = [
        cmd.CreateTournament(
            tournament="t",
            by="dee@x",
            by_name="Dee",
            may_direct=True,
            settings=Settings(**settings),  # type: ignore[arg-type]
        ),
        *(cmd.Join(player=n, name=n) for n in names),
    ]
    for command in commands:
        state = replay(decide(state, command, now=NOW), state)
    return state


def form(state: TournamentState, seed: int) -> tuple[TournamentState, list[ev.GameFormed]]:
    new = decide(state, cmd.FormGames(seed=seed), now=NOW)
    return replay(new, state), [e for e in new if isinstance(e, ev.GameFormed)]


def finish_all(state: TournamentState) -> TournamentState:
    for game in list(state.unfinished):
        seats = tuple((seat,) for seat, _ in game.seats)
        result = GameResult(ranking=seats, totals=(), ended="play", winner=seats[0][0])
        state = replay(
            decide(state, cmd.RecordResult(game=game.game, result=result), now=NOW), state
        )
    return state


def test_the_second_round_mixes_the_first_rounds_tables() -> None:
    state, first = form(tournament(players_per_game=4, rounds=3), seed=7)
    assert len(first) == 2
    state = finish_all(state)
    met = state.pairs_met()
    assert sum(met.values()) == 12  # two tables of four: six pairs each
    state, second = form(state, seed=7)
    groups = [[p for _, p in g.seats] for g in second]
    # Two from each first-round table at each new table: two repeated pairs a table, the least possible.
    assert cost(groups, met) == (4, 4)
    for group in groups:
        for table in first:
            assert len({p for _, p in table.seats} & set(group)) == 2


def test_with_room_to_avoid_them_no_pair_meets_twice() -> None:
    # Nine players in threes: after one round, a second round exists with no pair repeated.
    names = tuple(f"P{i}" for i in range(9))
    state, _ = form(tournament(names, players_per_game=3, rounds=2), seed=1)
    state = finish_all(state)
    met = state.pairs_met()
    for seed in range(5):
        groups = plan(state, seed)
        assert len(groups) == 3
        assert cost(groups, met) == (0, 0)


def test_formation_is_deterministic_given_the_seed() -> None:
    state = tournament(players_per_game=4, rounds=2)
    assert plan(state, 11) == plan(state, 11)
    orders = {tuple(plan(state, seed)) for seed in range(6)}
    assert len(orders) > 1  # the seat order is shuffled with the seed


def test_rounds_limit_each_players_games() -> None:
    state, games = form(tournament(NAMES[:4], players_per_game=2, rounds=1), seed=2)
    assert len(games) == 2
    state = finish_all(state)
    assert not formable(state)
    assert state.finished


def test_simultaneous_games_are_limited_and_one_new_game_each_per_formation() -> None:
    state, games = form(tournament(NAMES[:4], players_per_game=2, rounds=5, max_games=2), seed=3)
    assert len(games) == 2  # each player placed once per formation
    state, more = form(state, seed=3)
    assert len(more) == 2  # room for a second game each
    for a, b in combinations([p for _, p in more[0].seats] + [p for _, p in more[1].seats], 2):
        assert a != b
    state, none = form(state, seed=3)
    assert none == []  # everybody plays two games: the limit
    assert all(state.running(n) == 2 for n in NAMES[:4])


def test_players_who_played_least_come_first_and_the_longest_waiting() -> None:
    state, games = form(tournament(NAMES[:3], players_per_game=2, rounds=3), seed=5)
    (game,) = games
    first = {p for _, p in game.seats}
    assert first == {"Ann", "Bob"}  # the first to join
    state = finish_all(state)
    state, (second,) = form(state, seed=5)
    assert "Cy" in {p for _, p in second.seats}  # Cy has played least


def test_leavers_and_the_withdrawn_are_not_placed() -> None:
    state = tournament(NAMES[:4], players_per_game=2)
    for command in (cmd.Leave(player="Ann"), cmd.Withdraw(player="Bob")):
        state = replay(decide(state, command, now=NOW), state)
    assert state.pool() == ["Cy", "Di"]
    state, (game,) = form(state, seed=1)
    assert {p for _, p in game.seats} == {"Cy", "Di"}
