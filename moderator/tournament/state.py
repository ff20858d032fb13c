"""
A tournament's state, rebuilt by folding its events (``evolve``/``replay``).

Frozen values; the mappings are plain dicts that ``evolve`` copies before it
changes them.  Insertion order is kept: entrants in the order they first appeared,
games in the order they were formed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import field, replace
from itertools import combinations
from typing import Any

from moderator.records import record
from moderator.tournament import events as ev
from moderator.tournament.settings import Settings


@record(kw_only=True)
class Entrant:
    """A player the tournament knows: a competitor, a standby, or both."""

    player: str  # the registered address
    name: str
    joined: bool = False  # entered the competition (at some time)
    waiting: bool = False  # on the waiting list now
    withdrawn: bool = False
    standby: bool = False
    #: Where he stands in the waiting list: the tournament's version when he joined or
    #: last came free (lower: waiting longer).
    queue: int = 0
    #: When he went on the standby list (lower: asked first).
    standby_since: int = 0
    on_time: int = 0
    timeouts: int = 0
    seats_lost: int = 0  # seats taken over because he dropped out


@record(kw_only=True)
class Result:
    """A finished game's result (see ``events.GameFinished``)."""

    ranking: tuple[tuple[str, ...], ...]
    totals: tuple[tuple[str, int], ...]
    ended: str
    winner: str | None
    holders: tuple[tuple[str, str], ...]  # (seat, player) when it finished: who scores
    #: Seats their holders dropped out of during the game: nobody scores them.
    unscored: tuple[str, ...] = ()
    #: The tournament's version when the result was recorded: games finish in this order
    #: (the ratings fold them so).
    finished_seq: int = 0

    @property
    def scorers(self) -> tuple[tuple[str, str], ...]:
        """(seat, player) of the seats that score: held by their players at the finish."""
        return tuple((seat, p) for seat, p in self.holders if seat not in self.unscored)


@record(kw_only=True)
class TournamentGame:
    game: str
    formed: ev.Seats  # (seat, player) as formed, in seat order
    seats: ev.Seats  # (seat, player) now
    formed_at: str
    everyone: tuple[str, ...]  # every player who held a seat (for the pairings)
    paused: bool = False
    ended_by_director: bool = False
    #: Who gave the 'end' line (the director's address, or ``commands.OPERATOR``): the
    #: players are told who stopped their game.
    ended_by: str = ""
    extended_hours: int = 0
    replaced: tuple[tuple[str, str, str], ...] = ()  # (seat, old, new)
    #: (seat, player): the seats their players dropped out of (counted as seats lost).
    lost: tuple[tuple[str, str], ...] = ()
    result: Result | None = None

    @property
    def finished(self) -> bool:
        return self.result is not None

    def holder(self, seat: str) -> str:
        for name, player in self.seats:
            if name == seat:
                return player
        msg = f"game {self.game!r} has no seat {seat!r}"
        raise KeyError(msg)

    def seat_of(self, player: str) -> str | None:
        return next((name for name, holder in self.seats if holder == player), None)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(player for _, player in self.seats)


@record(kw_only=True)
class TournamentState:
    name: str = ""  # empty: no such tournament (nothing folded yet)
    director: str = ""
    director_name: str = ""
    created_at: str = ""
    settings: Settings = field(default_factory=Settings)
    entrants: Mapping[str, Entrant] = field(default_factory=dict)
    games: Mapping[str, TournamentGame] = field(default_factory=dict)
    finished: bool = False
    version: int = 0

    @property
    def exists(self) -> bool:
        return bool(self.name)

    def entrant(self, player: str) -> Entrant | None:
        return self.entrants.get(player)

    def name_of(self, player: str) -> str:
        entrant = self.entrants.get(player)
        return entrant.name if entrant is not None else player

    def games_placed(self, player: str) -> int:
        """Games the player was placed in by formation (what ``rounds`` limits)."""
        return sum(1 for g in self.games.values() if any(p == player for _, p in g.formed))

    def running(self, player: str) -> int:
        """Unfinished games in which the player holds a seat (what ``max_games`` limits)."""
        return sum(1 for g in self.games.values() if not g.finished and player in g.players)

    @property
    def unfinished(self) -> list[TournamentGame]:
        return [g for g in self.games.values() if not g.finished]

    def free_for_a_game(self, player: str) -> bool:
        """Whether formation may place the player in a new game now."""
        entrant = self.entrants.get(player)
        return (
            entrant is not None
            and entrant.waiting
            and not entrant.withdrawn
            and self.games_placed(player) < self.settings.rounds
            and self.running(player) < self.settings.max_games
        )

    def pool(self) -> list[str]:
        """The players formation may place now, those who waited longest (and played least) first."""
        free = [p for p in self.entrants if self.free_for_a_game(p)]
        return sorted(free, key=lambda p: (self.games_placed(p), self.entrants[p].queue, p))

    def pairs_met(self) -> Counter[frozenset[str]]:
        """How many games each pair of players has shared (replacements count)."""
        met: Counter[frozenset[str]] = Counter()
        for game in self.games.values():
            for a, b in combinations(sorted(set(game.everyone)), 2):
                met[frozenset((a, b))] += 1
        return met


# -- the fold -------------------------------------------------------------------------------

_Handler = Callable[[TournamentState, Any], TournamentState]
_HANDLERS: dict[type[ev.TournamentEvent], _Handler] = {}


def _on(cls: type[ev.TournamentEvent]) -> Callable[[_Handler], _Handler]:
    def register(fn: _Handler) -> _Handler:
        _HANDLERS[cls] = fn
        return fn

    return register


def evolve(state: TournamentState, event: ev.TournamentEvent) -> TournamentState:
    """Apply one event; ``version`` counts the events folded."""
    new = _HANDLERS[type(event)](state, event)
    return replace(new, version=state.version + 1)


def replay(
    events: Iterable[ev.TournamentEvent], state: TournamentState | None = None
) -> TournamentState:
    state = state or TournamentState()
    for event in events:
        state = evolve(state, event)
    return state


def _entrant(state: TournamentState, player: str, name: str = "") -> Entrant:
    found = state.entrants.get(player)
    return found if found is not None else Entrant(player=player, name=name or player)


def _with_entrants(state: TournamentState, *changed: Entrant) -> TournamentState:
    entrants = dict(state.entrants)
    for entrant in changed:
        entrants[entrant.player] = entrant
    return replace(state, entrants=entrants)


def _with_game(state: TournamentState, game: TournamentGame) -> TournamentState:
    games = dict(state.games)
    games[game.game] = game
    return replace(state, games=games)


@_on(ev.TournamentCreated)
def _created(state: TournamentState, e: ev.TournamentCreated) -> TournamentState:
    return replace(
        state,
        name=e.tournament,
        director=e.director,
        director_name=e.director_name,
        created_at=e.at,
        settings=Settings.from_payload(e.settings),
    )


@_on(ev.PlayerJoined)
def _joined(state: TournamentState, e: ev.PlayerJoined) -> TournamentState:
    entrant = replace(
        _entrant(state, e.player, e.name),
        name=e.name,
        joined=True,
        waiting=True,
        queue=state.version,
    )
    return _with_entrants(state, entrant)


@_on(ev.PlayerLeft)
def _left(state: TournamentState, e: ev.PlayerLeft) -> TournamentState:
    return _with_entrants(state, replace(_entrant(state, e.player), waiting=False))


@_on(ev.PlayerWithdrew)
def _withdrew(state: TournamentState, e: ev.PlayerWithdrew) -> TournamentState:
    entrant = replace(_entrant(state, e.player), waiting=False, withdrawn=True, standby=False)
    return _with_entrants(state, entrant)


@_on(ev.StandbyJoined)
def _standby(state: TournamentState, e: ev.StandbyJoined) -> TournamentState:
    entrant = replace(_entrant(state, e.player, e.name), standby=True, standby_since=state.version)
    return _with_entrants(state, entrant)


@_on(ev.StandbyLeft)
def _standby_left(state: TournamentState, e: ev.StandbyLeft) -> TournamentState:
    return _with_entrants(state, replace(_entrant(state, e.player), standby=False))


@_on(ev.GameFormed)
def _formed(state: TournamentState, e: ev.GameFormed) -> TournamentState:
    game = TournamentGame(
        game=e.game,
        formed=e.seats,
        seats=e.seats,
        formed_at=e.at,
        everyone=tuple(player for _, player in e.seats),
    )
    return _with_game(state, game)


@_on(ev.GameFinished)
def _finished(state: TournamentState, e: ev.GameFinished) -> TournamentState:
    game = state.games[e.game]
    result = Result(
        ranking=e.ranking,
        totals=e.totals,
        ended=e.ended,
        winner=e.winner,
        holders=game.seats,
        unscored=e.unscored,
        finished_seq=state.version,
    )
    state = _with_game(state, replace(game, result=result, paused=False))
    freed = [
        replace(state.entrants[p], queue=state.version) for p in game.players if p in state.entrants
    ]
    return _with_entrants(state, *freed)


@_on(ev.SeatReplaced)
def _replaced(state: TournamentState, e: ev.SeatReplaced) -> TournamentState:
    game = state.games[e.game]
    seats = tuple((seat, e.new if seat == e.seat else p) for seat, p in game.seats)
    everyone = game.everyone if e.new in game.everyone else (*game.everyone, e.new)
    game = replace(
        game, seats=seats, everyone=everyone, replaced=(*game.replaced, (e.seat, e.old, e.new))
    )
    new = replace(_entrant(state, e.new, e.new_name), standby=False)
    return _with_entrants(_with_game(state, game), new)


@_on(ev.ReliabilityRecorded)
def _reliability(state: TournamentState, e: ev.ReliabilityRecorded) -> TournamentState:
    game = state.games.get(e.game)
    if e.seats_lost and game is not None and (e.seat, e.player) not in game.lost:
        state = _with_game(state, replace(game, lost=(*game.lost, (e.seat, e.player))))
    entrant = _entrant(state, e.player)
    return _with_entrants(
        state,
        replace(
            entrant,
            on_time=entrant.on_time + e.on_time,
            timeouts=entrant.timeouts + e.timeouts,
            seats_lost=entrant.seats_lost + e.seats_lost,
        ),
    )


@_on(ev.GamePaused)
def _paused(state: TournamentState, e: ev.GamePaused) -> TournamentState:
    return _with_game(state, replace(state.games[e.game], paused=True))


@_on(ev.GameResumed)
def _resumed(state: TournamentState, e: ev.GameResumed) -> TournamentState:
    return _with_game(state, replace(state.games[e.game], paused=False))


@_on(ev.DeadlineExtended)
def _extended(state: TournamentState, e: ev.DeadlineExtended) -> TournamentState:
    game = state.games[e.game]
    return _with_game(state, replace(game, extended_hours=game.extended_hours + e.hours))


@_on(ev.GameEndedByDirector)
def _ended(state: TournamentState, e: ev.GameEndedByDirector) -> TournamentState:
    return _with_game(state, replace(state.games[e.game], ended_by_director=True, ended_by=e.by))


@_on(ev.TournamentFinished)
def _tournament_finished(state: TournamentState, e: ev.TournamentFinished) -> TournamentState:
    entrants = [replace(entrant, waiting=False) for entrant in state.entrants.values()]
    return replace(_with_entrants(state, *entrants), finished=True)


@_on(ev.AddressChanged)
def _address_changed(state: TournamentState, e: ev.AddressChanged) -> TournamentState:
    def moved(player: str) -> str:
        return e.new if player == e.old else player

    def seats(pairs: ev.Seats) -> ev.Seats:
        return tuple((seat, moved(player)) for seat, player in pairs)

    games = {
        key: replace(
            game,
            formed=seats(game.formed),
            seats=seats(game.seats),
            everyone=tuple(moved(p) for p in game.everyone),
            replaced=tuple((seat, moved(old), moved(new)) for seat, old, new in game.replaced),
            lost=seats(game.lost),
            result=None if game.result is None else replace(
                game.result, holders=seats(game.result.holders)
            ),
        )
        for key, game in state.games.items()
    }
    entrants = {
        moved(key): replace(entrant, player=moved(entrant.player))
        for key, entrant in state.entrants.items()
    }
    return replace(state, director=moved(state.director), entrants=entrants, games=games)
