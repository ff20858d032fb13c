"""
The tournament runner: the tournament job (games formed, finished games scored) and a
director's lines from the command line, each in a unit of work of its own
(``runners.unit``).  A tournament that changed meanwhile is decided again; one that
keeps changing is left for the next round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from moderator.ports import Lookup, Outcome
from moderator.ports.errors import ConflictError
from moderator.runners import unit
from moderator.store.eventstore import EventStore
from moderator.usecases.players import reliability
from moderator.usecases.tournaments import tournaments
from moderator.usecases.tournaments.tournament_games import (
    FormGames,
    GameOver,
    finished_games,
    form_games_in,
    record_finished,
)


def form_games(store: EventStore, moderator_address: str, now: datetime, seed: int) -> list[str]:
    """
    Form every game the tournaments can form at ``now``, each tournament in a unit of
    work of its own; the games are created, seated and mailed.  Returns lines for the log.
    """
    names = unit.read(store, lambda lookup, _now: lookup.tournament_ids(finished=False))
    log: list[str] = []
    for name in names:
        try:
            done = unit.run(store, _forming(FormGames(name, moderator_address, seed), now))
        except ConflictError:
            log.append(f"{name}: changed meanwhile; its games are formed at the next round")
            continue
        log.extend(done.log)
    return log


def _forming(ask: FormGames, now: datetime) -> unit.Decide:
    """``form_games_in`` at the job's ``now`` (the moment the round was asked for)."""
    return lambda lookup, _now: form_games_in(ask, lookup, now)


def game_finished(store: EventStore, moderator_address: str, game_id: str) -> list[str]:
    """
    Record the result of ``game_id`` if it is a finished tournament game whose result is
    not recorded yet, and mail the standings (idempotent).  Returns lines for the log.
    """
    ask = GameOver(game_id, moderator_address)
    return list(unit.run(store, lambda lookup, now: record_finished(ask, lookup, now)).log)


def finish_games(store: EventStore, moderator_address: str) -> list[str]:
    """``game_finished`` for every game of an unfinished tournament that is over."""
    over = unit.read(store, lambda lookup, _now: finished_games(lookup))
    log: list[str] = []
    for game_id in over:
        try:
            log.extend(game_finished(store, moderator_address, game_id))
        except ConflictError:
            log.append(f"{game_id}: its tournament changed meanwhile; recorded at the next round")
    return log


class NotRegisteredError(LookupError):
    """Nobody is registered with the address that gave the lines."""


def carry_out(
    store: EventStore,
    address: str,
    lines: Sequence[str],
    *,
    moderator_address: str,
    headers: Mapping[str, str] | None = None,
) -> Outcome:
    """
    The tournament lines of the player registered with ``address`` (the command line's
    ``tournament create``), each applied before the next is decided, all in one unit of
    work; returns what they did (the answer is the first mail).

    Raises:
        NotRegisteredError: nobody is registered with ``address``.
    """

    def decide(lookup: Lookup, now: datetime) -> Outcome:
        player = lookup.player(address)
        if player is None:
            raise NotRegisteredError(f"nobody is registered with {address}")
        mail = tournaments.LinesMail(player, tuple(lines), moderator_address, headers or {})
        return tournaments.carry_out(mail, lookup, now)

    return unit.run(store, decide)


def direct(
    store: EventStore, tournament: str, lines: Sequence[str], *, moderator_address: str
) -> Outcome:
    """
    The operator's director lines for ``tournament`` (``pause G``, ``extend G 24``,
    ``replace SEAT in G``, ``end G``, ``audit G``; the command line's ``tournament
    direct``): carried out as the director's would be, but for any game, the director's
    own included, and told to the players as the operator's; answered to the director.

    Raises:
        ValueError: a line is not a director's line for a game.
        LookupError: there is no such tournament, or its director is not registered.
    """
    for line in lines:
        if not tournaments.games_named([line]):
            raise ValueError(f"{line!r} is not one of a director's lines for a game")

    def decide(lookup: Lookup, now: datetime) -> Outcome:
        address = lookup.director(tournament.lower())
        if address is None:
            raise LookupError(f"there is no tournament called {tournament}")
        player = lookup.player(address)
        if player is None:
            raise NotRegisteredError(f"the director {address} is not registered")
        mail = tournaments.LinesMail(
            player, tuple(lines), moderator_address, {}, operator=True
        )
        return tournaments.carry_out(mail, lookup, now)

    return unit.run(store, decide)


def record_reliability(
    store: EventStore,
    game_id: str,
    seat: str,
    *,
    on_time: int = 0,
    timeouts: int = 0,
    seats_lost: int = 0,
) -> bool:
    """
    Count moves made in time, timeouts and seats lost for whoever holds ``seat`` in
    ``game_id`` (a director's correction); False if the game is no tournament's.

    Raises:
        TournamentError: the seat is unknown or the counts make no sense.
    """

    def decide(lookup: Lookup, now: datetime) -> Outcome:
        found = reliability.reliability_write(
            lookup,
            game_id,
            seat,
            on_time=on_time,
            timeouts=timeouts,
            seats_lost=seats_lost,
            now=now,
        )
        return Outcome(tournaments=(found,) if found is not None else ())

    return bool(unit.run(store, decide).tournaments)


__all__ = [
    "NotRegisteredError",
    "carry_out",
    "direct",
    "finish_games",
    "form_games",
    "game_finished",
    "record_reliability",
]
