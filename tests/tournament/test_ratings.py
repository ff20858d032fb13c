"""
Tournament ratings: OpenSkill's Plackett-Luce model over the finished games' places
(winner first, then by elimination, shared places tied), folded in the order the games
finished, for whoever held each seat at the finish; and the standings mail that shows
them beside each player's reliability.
"""

from __future__ import annotations

from moderator.letters.tournaments import standings as standings_text
from moderator.tournament import commands as cmd
from moderator.tournament import events as ev
from moderator.tournament.ratings import (
    START_MU,
    Rating,
    finished_in_order,
    placement,
    rate,
    ratings,
)
from moderator.tournament.scoring import PLAY, GameResult
from moderator.tournament.standings import standings
from moderator.tournament.state import TournamentState, replay

from .test_core import DIRECTOR, address, created, joined, run


def finish(state: TournamentState, game: str, *places: tuple[str, ...]) -> TournamentState:
    """Record ``game``'s result with its seats placed so (best first, groups share)."""
    seats = [s for group in places for s in group]
    winner = places[0][0] if len(places[0]) == 1 else None
    result = GameResult(
        ranking=tuple(places),
        totals=tuple((s, 10 * (len(places) - i)) for i, g in enumerate(places) for s in g),
        ended=PLAY,
        winner=winner,
    )
    assert set(seats) == {s for s, _ in state.games[game].seats}
    return run(state, cmd.RecordResult(game=game, result=result))


def duel() -> tuple[TournamentState, str]:
    """Ann and Bob in one game of two (their seats are named after them)."""
    state = run(joined(created(players_per_game=2), "Ann", "Bob"), cmd.FormGames(seed=1))
    return state, next(iter(state.games))


def test_a_winners_rating_rises_above_a_losers() -> None:
    state, game = duel()
    state = finish(state, game, ("Ann",), ("Bob",))
    rated = ratings(state)
    ann, bob = rated[address("Ann")], rated[address("Bob")]
    assert ann.mu > START_MU > bob.mu
    assert ann.ordinal > bob.ordinal
    assert ann.ordinal > Rating().ordinal  # above where both started
    assert (ann.games, bob.games) == (1, 1)


def test_a_draw_ties_the_ratings() -> None:
    state, game = duel()
    state = finish(state, game, ("Ann", "Bob"))  # both Titans died in one engagement
    rated = ratings(state)
    ann, bob = rated[address("Ann")], rated[address("Bob")]
    assert (ann.mu, ann.sigma) == (bob.mu, bob.sigma)
    assert abs(ann.mu - START_MU) < 1e-9  # equals drawing move neither


def test_shared_places_among_more_players_tie_and_rank_between_the_others() -> None:
    four = joined(created(players_per_game=4), "Ann", "Bob", "Cy", "Di")
    state = run(four, cmd.FormGames(seed=1))
    (game,) = state.games
    state = finish(state, game, ("Ann",), ("Bob", "Cy"), ("Di",))
    rated = ratings(state)
    ann, bob, cy, di = (rated[address(n)] for n in ("Ann", "Bob", "Cy", "Di"))
    assert (bob.mu, bob.sigma) == (cy.mu, cy.sigma)
    assert ann.ordinal > bob.ordinal > di.ordinal


def test_placements_come_from_the_recorded_results_alone() -> None:
    state, game = duel()
    finished = finish(state, game, ("Bob",), ("Ann",))
    events = [
        ev.TournamentCreated(
            at="", tournament="spring", director=DIRECTOR, director_name="Dee",
            settings=created(players_per_game=2).settings.to_payload(),
        ),
        ev.GameFormed(at="", game=game, seats=state.games[game].seats),
        ev.GameFinished(
            at="", game=game, ranking=(("Bob",), ("Ann",)), totals=(), ended=PLAY, winner="Bob"
        ),
    ]
    from_events = replay(events)
    assert placement(from_events.games[game]) == ((address("Bob"),), (address("Ann"),))
    assert ratings(from_events) == ratings(finished)


def test_games_are_rated_in_the_order_they_finished() -> None:
    state = run(
        joined(created(players_per_game=2, rounds=2, max_games=2), "Ann", "Bob"),
        cmd.FormGames(seed=1),
        cmd.FormGames(seed=1),
    )
    first, second = state.games  # formed in this order
    state = finish(state, second, ("Ann",), ("Bob",))  # ...but the second finished first
    state = finish(state, first, ("Bob",), ("Ann",))
    assert [g.game for g in finished_in_order(state)] == [second, first]
    ann, bob = address("Ann"), address("Bob")
    in_finish_order = rate([((ann,), (bob,)), ((bob,), (ann,))])
    in_formed_order = rate([((bob,), (ann,)), ((ann,), (bob,))])
    assert ratings(state) == in_finish_order
    assert in_finish_order[bob].mu > in_finish_order[ann].mu  # the later win counts more
    assert in_finish_order != in_formed_order


def test_a_seats_place_is_rated_for_whoever_held_it_at_the_finish() -> None:
    state = run(
        joined(created(players_per_game=2), "Ann", "Bob"),
        cmd.Standby(player=address("Sam"), name="Sam"),
        cmd.FormGames(seed=1),
    )
    (game,) = state.games
    state = run(state, cmd.ReplaceSeat(by=DIRECTOR, game=game, seat="Bob"))
    state = finish(state, game, ("Bob",), ("Ann",))
    rated = ratings(state)
    assert set(rated) == {address("Ann"), address("Sam")}  # Bob gave his seat up
    assert rated[address("Sam")].ordinal > rated[address("Ann")].ordinal


def test_the_standings_carry_the_rating_and_the_reliability() -> None:
    state, game = duel()
    state = run(
        state,
        cmd.RecordReliability(game=game, seat="Ann", on_time=6, timeouts=2),
        cmd.RecordReliability(game=game, seat="Bob", timeouts=2),
    )
    before = {r.player: r for r in standings(state)}
    assert before[address("Ann")].rating is None and before[address("Ann")].rating_text == "-"
    state = finish(state, game, ("Ann",), ("Bob",))
    # counted after the result (a seat lost before it would leave the seat unscored)
    state = run(state, cmd.RecordReliability(game=game, seat="Bob", seats_lost=1))
    rows = {r.player: r for r in standings(state)}
    ann, bob = rows[address("Ann")], rows[address("Bob")]
    assert ann.rating == ratings(state)[address("Ann")]
    assert float(ann.rating_text) > float(bob.rating_text)
    assert (ann.on_time, ann.timeouts, ann.seats_lost) == (6, 2, 0)
    assert (bob.on_time, bob.timeouts, bob.seats_lost) == (0, 2, 1)


def _columns(text: str, name: str) -> list[str]:
    """The player's row of the mail's ratings and reliability table, split in columns."""
    table = text.split("Ratings and reliability:", 1)[1]
    (row,) = [line for line in table.splitlines() if line.split()[:1] == [name]]
    return row.split()


def test_the_standings_mail_shows_rating_and_reliability() -> None:
    state, game = duel()
    state = run(
        state,
        cmd.RecordReliability(game=game, seat="Ann", on_time=6, timeouts=2),
        cmd.RecordReliability(game=game, seat="Bob", timeouts=3),
    )
    state = finish(state, game, ("Ann",), ("Bob",))
    state = run(state, cmd.RecordReliability(game=game, seat="Bob", seats_lost=1))
    rated = ratings(state)
    text = standings_text(state, state.games[game])
    ann, bob = rated[address("Ann")], rated[address("Bob")]
    # name, rating (mu - 3 sigma), mu, met, missed, on time, seats lost
    assert _columns(text, "Ann") == [
        "Ann", f"{ann.ordinal:.1f}", f"{ann.mu:.1f}", "6", "2", "75%", "0"
    ]
    assert _columns(text, "Bob") == [
        "Bob", f"{bob.ordinal:.1f}", f"{bob.mu:.1f}", "0", "3", "0%", "1"
    ]
    # The finished game's summary (the director gets it too) says how far it moved each.
    assert f"1. Ann: 1 point(s), 20.5 total 20, rating {ann.ordinal:.1f} (+{ann.ordinal:.1f})" in (
        text
    )
    assert f"rating {bob.ordinal:.1f} ({bob.ordinal:.1f})" in text


def test_a_player_in_no_finished_game_is_shown_unrated() -> None:
    state, _game = duel()
    text = standings_text(state)
    assert _columns(text, "Ann")[:3] == ["Ann", "-", "-"]
