"""
Each player's rating, from the places of the tournament's finished games.

Points say how a player did in this tournament's games; a rating says how strong his
results were against the players he met, so a win over strong players counts for
more.  It is OpenSkill's Plackett-Luce model (Weng and Lin's Bayesian approximation),
which rates a game of any number of players from their placements, shared places
included: each player has a mean skill ``mu`` (25 at the start) and an uncertainty
``sigma`` (25/3), and every finished game moves them.  The standings show ``mu`` and
the conservative ``ordinal``, mu - 3 sigma (0 at the start): what he is very likely
better than, which rises as he plays and does well.

**Placements** are the game's ranking (``GameFinished.ranking``, recorded for every
game): the winner first, then the players still in the game at its time limit by
their rulebook 20.5 total, then the eliminated in the reverse order of their
elimination; players whose Titans died in the same engagement, or with equal totals,
share a place, and a shared place is a tie to the model.  Like the points, a seat's
place goes to whoever held it when the game finished (nobody's if he had dropped out
of it).

**Order.**  Games are rated in the order they finished (``Result.finished_seq``), each
from the ratings the games before it left, so the ratings are a fold of the stream
like everything else: the same events give the same ratings.
"""

from __future__ import annotations

from collections.abc import Iterable

from openskill.models import PlackettLuce, PlackettLuceRating

from moderator.records import record
from moderator.tournament.state import TournamentGame, TournamentState

#: OpenSkill's defaults, named here because the standings explain them.
START_MU = 25.0
START_SIGMA = START_MU / 3
#: How many sigmas the conservative rating stays below the mean.
Z = 3.0

#: One finished game's places, best first: the players sharing each place.
Placement = tuple[tuple[str, ...], ...]


@record
class Rating:
    """A player's rating after the games he was rated in (``games``)."""

    mu: float = START_MU
    sigma: float = START_SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative rating: mu - 3 sigma."""
        return self.mu - Z * self.sigma


def finished_in_order(state: TournamentState) -> list[TournamentGame]:
    """The tournament's finished games, in the order they finished."""
    done = [g for g in state.games.values() if g.result is not None]
    return sorted(done, key=lambda g: g.result.finished_seq if g.result else 0)


def placement(game: TournamentGame) -> Placement:
    """
    The players of a finished game by place (``()`` for a game not finished).  A player
    named twice (he held two seats at the end) keeps his better place only.
    """
    if game.result is None:
        return ()
    holders = dict(game.result.scorers)  # a seat its player dropped out of: not rated
    seen: set[str] = set()
    places: list[tuple[str, ...]] = []
    for group in game.result.ranking:
        players = tuple(
            p for p in dict.fromkeys(holders[s] for s in group if s in holders) if p not in seen
        )
        seen.update(players)
        if players:
            places.append(players)
    return tuple(places)


def rate(
    placements: Iterable[Placement], start: dict[str, Rating] | None = None
) -> dict[str, Rating]:
    """
    The ratings after ``placements`` (games in the order they finished), from ``start``
    (everybody at the start rating if not given).  A game with fewer than two players
    changes nothing.
    """
    model = PlackettLuce()
    ratings = dict(start or {})
    for places in placements:
        players = [p for group in places for p in group]
        if len(players) < 2:
            continue
        ranks: list[float] = [float(i) for i, group in enumerate(places, 1) for _ in group]
        teams = [[_model_rating(model, ratings.get(p, Rating()))] for p in players]
        rated = model.rate(teams, ranks=ranks)
        for player, (new,) in zip(players, rated):
            games = ratings.get(player, Rating()).games + 1
            ratings[player] = Rating(mu=float(new.mu), sigma=float(new.sigma), games=games)
    return ratings


def _model_rating(model: PlackettLuce, rating: Rating) -> PlackettLuceRating:
    return model.rating(mu=rating.mu, sigma=rating.sigma)


def ratings(state: TournamentState) -> dict[str, Rating]:
    """Every rated player's rating after all the finished games (the unrated are absent)."""
    return rate(placement(g) for g in finished_in_order(state))


def ratings_around(
    state: TournamentState, game: TournamentGame
) -> tuple[dict[str, Rating], dict[str, Rating]]:
    """The ratings just before and just after ``game`` was rated (a finished game)."""
    order = finished_in_order(state)
    index = next((i for i, g in enumerate(order) if g.game == game.game), len(order))
    before = rate(placement(g) for g in order[:index])
    after = rate([placement(game)], before) if index < len(order) else dict(before)
    return before, after


def format_rating(value: float, *, signed: bool = False) -> str:
    """A rating as the standings print it: one decimal (``-0.6``, ``27.9``; ``+3.3``)."""
    rounded = round(value, 1)
    if rounded == 0:  # neither "-0.0" nor a sign on no change
        return "0.0"
    return f"{rounded:+.1f}" if signed else f"{rounded:.1f}"
