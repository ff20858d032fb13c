"""
A tournament's events: the facts its commands decided, in the past tense.

Players are named by their registered address (normalised: lower case), which is
unique and outlives a change of name (a change of address is an event of its own,
``AddressChanged``); ``name`` fields keep what they were called
then, for the standings.  Every event carries ``at``, the moment (ISO 8601) the
shell passed in.  Events hold only strings, ints, bools, None, tuples and (for the
settings) a plain mapping, so ``codec`` stores them as JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from moderator.records import record

#: (seat, player): a seat of a game (the name the game knows him by) and who holds it.
Seats = tuple[tuple[str, str], ...]


@record(kw_only=True)
class TournamentEvent:
    TYPE: ClassVar[str] = "tournament-event"
    VERSION: ClassVar[int] = 1
    at: str = ""


@record(kw_only=True)
class TournamentCreated(TournamentEvent):
    TYPE: ClassVar[str] = "tournament-created"
    tournament: str
    director: str
    director_name: str
    settings: Mapping[str, Any]  # ``Settings.to_payload()``


@record(kw_only=True)
class PlayerJoined(TournamentEvent):
    """The player is on the waiting list: games are formed from it."""

    TYPE: ClassVar[str] = "player-joined"
    player: str
    name: str


@record(kw_only=True)
class PlayerLeft(TournamentEvent):
    """Off the waiting list (no new games); his games under way go on.  He may join again."""

    TYPE: ClassVar[str] = "player-left"
    player: str


@record(kw_only=True)
class PlayerWithdrew(TournamentEvent):
    """Out of the tournament for good: no new games; his seats are for the director to fill."""

    TYPE: ClassVar[str] = "player-withdrew"
    player: str


@record(kw_only=True)
class StandbyJoined(TournamentEvent):
    """The player is willing to take over a seat in a game under way."""

    TYPE: ClassVar[str] = "standby-joined"
    player: str
    name: str


@record(kw_only=True)
class StandbyLeft(TournamentEvent):
    """Off the standby list: he dropped out of a game, so a seat handed to whoever is on
    the list must not go to him.  He may go on it again ('standby tournament NAME')."""

    TYPE: ClassVar[str] = "standby-left"
    player: str


@record(kw_only=True)
class GameFormed(TournamentEvent):
    """A game was formed: its players in seat order (towers and colours are the game's)."""

    TYPE: ClassVar[str] = "game-formed"
    game: str
    seats: Seats


@record(kw_only=True)
class GameFinished(TournamentEvent):
    """
    A game's result.  ``ranking`` lists the seats best first, one tuple per place
    (several seats in one tuple share it); ``totals`` is each seat's rulebook 20.5
    total (score plus the value of his legions left); ``ended`` says how: ``play``
    (one player, or nobody, left), ``time`` (the Wolff 21.1 time limit) or
    ``director``.  Points go to whoever holds each seat at this moment, but for the
    ``unscored`` seats: their holders dropped out of them during the game (the robot
    kept the seat, whether or not he took it back) and they score for nobody (version 2;
    a version 1 event names none).
    """

    TYPE: ClassVar[str] = "game-finished"
    VERSION: ClassVar[int] = 2
    game: str
    ranking: tuple[tuple[str, ...], ...]
    totals: tuple[tuple[str, int], ...]
    ended: str
    winner: str | None
    unscored: tuple[str, ...] = ()


@record(kw_only=True)
class SeatReplaced(TournamentEvent):
    """The director handed a seat to another player; the seat keeps its name."""

    TYPE: ClassVar[str] = "seat-replaced"
    game: str
    seat: str
    old: str
    new: str
    new_name: str


@record(kw_only=True)
class ReliabilityRecorded(TournamentEvent):
    """
    Moves made in time, timeouts and seats lost of the player holding ``seat`` (from
    the shell).  A seat is lost when it is taken over (by the robot or a standby)
    because its player dropped out; version 1 had no ``seats_lost`` (the codec reads
    it as 0).
    """

    TYPE: ClassVar[str] = "reliability-recorded"
    VERSION: ClassVar[int] = 2
    player: str
    game: str
    seat: str
    on_time: int
    timeouts: int
    seats_lost: int = 0


@record(kw_only=True)
class GamePaused(TournamentEvent):
    TYPE: ClassVar[str] = "game-paused"
    game: str
    by: str


@record(kw_only=True)
class GameResumed(TournamentEvent):
    TYPE: ClassVar[str] = "game-resumed"
    game: str
    by: str


@record(kw_only=True)
class DeadlineExtended(TournamentEvent):
    TYPE: ClassVar[str] = "deadline-extended"
    game: str
    by: str
    hours: int


@record(kw_only=True)
class GameEndedByDirector(TournamentEvent):
    """The director stopped the game; it is scored by rulebook 20.5 (``GameFinished``)."""

    TYPE: ClassVar[str] = "game-ended-by-director"
    game: str
    by: str


@record(kw_only=True)
class TournamentFinished(TournamentEvent):
    """Every game is finished and no more can be formed."""

    TYPE: ClassVar[str] = "tournament-finished"


@record(kw_only=True)
class AddressChanged(TournamentEvent):
    """
    A player moved to a new registered address (confirmed from the old one): from now
    on the tournament names him by ``new``; what was recorded under ``old`` is his.
    """

    TYPE: ClassVar[str] = "address-changed"
    old: str
    new: str


EVENT_TYPES: dict[str, type[TournamentEvent]] = {
    cls.TYPE: cls
    for cls in (
        TournamentCreated,
        PlayerJoined,
        PlayerLeft,
        PlayerWithdrew,
        StandbyJoined,
        StandbyLeft,
        GameFormed,
        GameFinished,
        SeatReplaced,
        ReliabilityRecorded,
        GamePaused,
        GameResumed,
        DeadlineExtended,
        GameEndedByDirector,
        TournamentFinished,
        AddressChanged,
    )
}
