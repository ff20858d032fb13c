"""A game's result from its events, place points, and the standings."""

from __future__ import annotations

from datetime import UTC, datetime
from fractions import Fraction

import pytest

from moderator.rules import events as rev
from moderator.rules.evolve import replay as replay_game
from moderator.rules.state import GameState, Step
from moderator.tournament import commands as cmd
from moderator.tournament.decide import decide
from moderator.tournament.scoring import (
    DIRECTOR,
    PLAY,
    TIME,
    GameResult,
    game_result,
    place_points,
    stop_events,
    totals_20_5,
)
from moderator.tournament.settings import Scoring, Settings
from moderator.tournament.standings import format_points, standings
from moderator.tournament.state import TournamentState, replay
from moderator.usecases.games.robot_games import play_robot_game

NOW = datetime(2024, 9, 1, tzinfo=UTC)


def test_place_points_share_ties() -> None:
    ranking = (("A",), ("B", "C"), ("D",))
    assert place_points(ranking, Scoring.PLACES) == {
        "A": 3,
        "B": Fraction(3, 2),
        "C": Fraction(3, 2),
        "D": 0,
    }
    assert place_points(ranking, Scoring.WINNER) == {"A": 1, "B": 0, "C": 0, "D": 0}
    assert place_points((("A", "B"), ("C",)), Scoring.WINNER) == {
        "A": Fraction(1, 2),
        "B": Fraction(1, 2),
        "C": 0,
    }
    assert format_points(Fraction(3, 2)) == "1.5"
    assert format_points(Fraction(1, 3)) == "0.33"
    assert format_points(Fraction(4)) == "4"


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (2, 3), (3, 2)])
def test_a_played_game_is_ranked_by_elimination(players: int, seed: int) -> None:
    summary = play_robot_game(players, seed)
    assert summary.finished
    result = game_result(summary.events, summary.state)
    assert result.ended == PLAY
    flat = [seat for group in result.ranking for seat in group]
    assert sorted(flat) == sorted(summary.players)
    if summary.winner is not None:
        assert result.ranking[0] == (summary.winner,)
        assert result.winner == summary.winner
        # The last eliminated comes second, the first eliminated last; players
        # eliminated in the same engagement share their place.
        order = summary.eliminated
        at = 0
        for group in reversed(result.ranking[1:]):
            assert set(group) == set(order[at : at + len(group)])
            at += len(group)
        assert at == len(order)
    else:  # the last Titans fell together: they share the first place
        assert result.winner is None and len(result.ranking[0]) >= 2


def test_a_game_not_over_has_no_result() -> None:
    state = replay_game(play_robot_game(2, 4, max_actions=10).events)
    with pytest.raises(ValueError, match="not over"):
        game_result([], state)


def test_a_stopped_game_is_ranked_by_its_20_5_totals() -> None:
    summary = play_robot_game(3, 1, max_actions=40)
    state = summary.state
    assert state.step is not Step.OVER
    totals = totals_20_5(state)
    stop = stop_events(state)
    (scored,) = stop
    assert isinstance(scored, rev.GameScored)
    after: GameState = replay_game(stop, state)
    assert after.step is Step.OVER
    result = game_result([*summary.events, *stop], after, by_director=True)
    assert result.ended == DIRECTOR
    assert dict(result.totals) == totals
    best = [seat for seat in totals if totals[seat] == max(totals.values())]
    assert sorted(result.ranking[0]) == sorted(best)
    assert stop_events(after) == []  # once over, nothing more
    plain = game_result([*summary.events, *stop], after)
    assert plain.ended == TIME


def test_standings_rank_points_then_totals() -> None:
    state = TournamentState()
    for command in (
        cmd.CreateTournament(
            tournament="t",
            by="d@x",
            by_name="D",
            may_direct=True,
            settings=Settings(players_per_game=2, rounds=2, max_games=2),
        ),
        *(cmd.Join(player=f"{n}@x", name=n) for n in ("Ann", "Bob", "Cy", "Di")),
        cmd.FormGames(seed=1),
    ):
        state = replay(decide(state, command, now=NOW), state)
    first, second = state.games.values()
    for g, totals in ((first, (50, 10)), (second, (50, 30))):
        (a, _), (b, _) = g.seats
        result = GameResult(
            ranking=((a,), (b,)), totals=((a, totals[0]), (b, totals[1])), ended=TIME, winner=a
        )
        new = decide(state, cmd.RecordResult(game=g.game, result=result), now=NOW)
        state = replay(new, state)
    reliability = cmd.RecordReliability(
        game=first.game, seat=first.seats[0][0], on_time=3, timeouts=1
    )
    state = replay(decide(state, reliability, now=NOW), state)
    rows = standings(state)
    assert [r.rank for r in rows] == [1, 1, 3, 4]
    assert [r.points for r in rows] == [1, 1, 0, 0]
    assert rows[2].total == 30 and rows[3].total == 10
    assert {r.finished for r in rows} == {1}
    winner = next(r for r in rows if r.player == first.seats[0][1])
    assert (winner.wins, winner.on_time, winner.timeouts, winner.reliability_text) == (
        1,
        3,
        1,
        "75%",
    )
    assert rows[-1].reliability_text == "-"
