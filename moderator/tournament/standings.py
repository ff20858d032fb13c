"""
The standings: one row per competitor, best first, as a template prints them.

Order: points (from the finished games, see ``scoring.place_points``), then the sum
of the player's rulebook 20.5 totals over those games, then fewer timeouts, then the
name.  Players level on points and total share a rank.  Points of a game go to the
player holding each seat when it finished; a player who gave his seat up scores
nothing for that game (it shows under ``seats_given_up``), nor does one who dropped
out of his seat during the game (``Result.unscored``): going silent must not earn the
robot's results.

Beside the order, each row carries the player's rating (``ratings``: the same
finished games' places through OpenSkill) and his reliability: deadlines met
(``on_time``), missed (``timeouts``) and seats lost.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from moderator.records import record
from moderator.tournament.decide import on_time_percent
from moderator.tournament.ratings import Rating, format_rating, ratings
from moderator.tournament.scoring import place_points
from moderator.tournament.state import TournamentState


@record
class StandingRow:
    rank: int
    player: str  # address
    name: str
    points: Fraction
    total: int  # the sum of the 20.5 totals: the tiebreak
    finished: int  # games finished in which he held a seat at the end
    running: int
    wins: int  # games he finished first in (alone or shared)
    on_time: int
    timeouts: int
    seats_lost: int  # taken over (robot or standby) because he dropped out
    seats_given_up: int
    status: str  # "waiting", "playing", "left", "withdrawn", "done", "substitute"
    rating: Rating | None = None  # None: in no finished game yet

    @property
    def rating_text(self) -> str:
        """The conservative rating (mu - 3 sigma), or ``-`` if he is not rated yet."""
        return "-" if self.rating is None else format_rating(self.rating.ordinal)

    @property
    def mu_text(self) -> str:
        return "-" if self.rating is None else format_rating(self.rating.mu)

    @property
    def points_text(self) -> str:
        return format_points(self.points)

    @property
    def reliability_text(self) -> str:
        percent = on_time_percent(self.on_time, self.timeouts)
        return "-" if percent is None else f"{percent}%"


def format_points(points: Fraction) -> str:
    """``3``, ``2.5``, ``0.33``."""
    if points.denominator == 1:
        return str(points.numerator)
    return f"{float(points):.2f}".rstrip("0").rstrip(".")


def standings(state: TournamentState) -> list[StandingRow]:
    """Every player who joined the competition or held a seat, best first."""
    points: dict[str, Fraction] = {}
    totals: dict[str, int] = {}
    finished: dict[str, int] = {}
    wins: dict[str, int] = {}
    given_up: dict[str, int] = {}
    for game in state.games.values():
        for _seat, old, _new in game.replaced:
            given_up[old] = given_up.get(old, 0) + 1
        if game.result is None:
            continue
        result = game.result
        worth = place_points(result.ranking, state.settings.scoring)
        game_totals = dict(result.totals)
        first = set(result.ranking[0]) if result.ranking else set()
        for seat, player in result.scorers:
            points[player] = points.get(player, Fraction(0)) + worth.get(seat, Fraction(0))
            totals[player] = totals.get(player, 0) + game_totals.get(seat, 0)
            finished[player] = finished.get(player, 0) + 1
            if seat in first:
                wins[player] = wins.get(player, 0) + 1
    rated = ratings(state)
    seated = {p for g in state.games.values() for p in g.everyone}
    players = [p for p, e in state.entrants.items() if e.joined or p in seated]
    unranked = [
        StandingRow(
            rank=0,
            player=p,
            name=state.name_of(p),
            points=points.get(p, Fraction(0)),
            total=totals.get(p, 0),
            finished=finished.get(p, 0),
            running=state.running(p),
            wins=wins.get(p, 0),
            on_time=state.entrants[p].on_time,
            timeouts=state.entrants[p].timeouts,
            seats_lost=state.entrants[p].seats_lost,
            seats_given_up=given_up.get(p, 0),
            status=_status(state, p),
            rating=rated.get(p),
        )
        for p in players
    ]
    unranked.sort(key=lambda r: (-r.points, -r.total, r.timeouts, r.name.lower(), r.player))
    rows: list[StandingRow] = []
    for index, row in enumerate(unranked):
        rank = index + 1
        if rows and (rows[-1].points, rows[-1].total) == (row.points, row.total):
            rank = rows[-1].rank
        rows.append(replace(row, rank=rank))
    return rows


def _status(state: TournamentState, player: str) -> str:
    entrant = state.entrants[player]
    if entrant.withdrawn:
        return "withdrawn"
    if state.running(player):
        return "playing"
    if entrant.waiting and state.games_placed(player) < state.settings.rounds:
        return "waiting"
    if entrant.joined and state.games_placed(player) >= state.settings.rounds:
        return "done"
    return "left" if entrant.joined else "substitute"
