"""
A game as a use case sees it (``GameContext``: state, sequence number, record, seats),
and the ``Outcome`` a use case returns: what it decided, for the runner to apply.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from moderator.records import record

if TYPE_CHECKING:  # named in annotations only: a reader of one game imports none of them
    from moderator.ports.deadlines import DeadlineChange
    from moderator.ports.mail import OutgoingMail
    from moderator.ports.writes import (
        AddressChange,
        GameWrite,
        MailStatus,
        NewPlayer,
        Seal,
        TournamentWrite,
    )
    from moderator.rules.events import Event
    from moderator.rules.state import GameState
    from moderator.schedule.record import GameRecord
    from moderator.tournament.state import TournamentState

__all__ = ["GameContext", "LoadedGame", "LoadedTournament", "Outcome"]


@record
class GameContext:
    """What a handler may know about the message's game."""

    game_id: str
    state: GameState
    seq: int
    record: GameRecord
    seats: Mapping[str, str]  # player address -> his name in the game


@record
class LoadedGame:
    """A game's state after its last event, and how it was reached."""

    game_id: str
    state: GameState
    seq: int  # the last event's sequence number
    record: GameRecord  # the service's record of the game beside its events
    snapshot_seq: int  # the state it was folded from: a snapshot, or one the store kept (0: none)


@record
class LoadedTournament:
    """A tournament's state after its last event."""

    tournament_id: str
    state: TournamentState
    seq: int  # the last event's sequence number


@record
class Outcome:
    """
    What a handler decided: events to append, mails to send, the game's new record.
    ``rejected``: the message was for no game or player we know (nothing changes).
    ``players``: players to register (a sign-on), in the same transaction.
    ``deadlines``: changes to the game's deadlines (the deadline that follows the player
    to act, an absence's end), made in the same transaction.
    ``addresses``: changes of players' addresses (asked for, confirmed, cancelled), made
    in the same transaction.
    ``seals``: digests of what authenticated the mail (``Seal``), kept in the same
    transaction so that the same signed text never acts twice.
    ``tournaments``: tournament events the mail causes (a move made in time counts for
    the seat's holder), appended in the same transaction.
    ``games``: changes to games other than the message's own (a bounced report's game;
    a player's mail clearing his undelivered mail in his other games), each optimistic
    on the sequence number it was decided on.
    ``undelivered``: outbox rows a bounce showed undelivered, with the bounce's reason.
    ``closed``: deadline rows dealt with, (id, new status); ``reminded``: a deadline's
    reminders counted, (id, the count read, the new count), refused as a conflict when
    another worker counted meanwhile; ``reseats``: tournament seats handed over, (game,
    seat, the new holder's address).
    ``statuses``: stored mails the operator retried or dropped (``MailStatus``).
    ``log``: lines for the service's log; ``beat``: the clock ran at this moment (its
    heartbeat, which tells an outage).
    ``then``: what to decide once this outcome is applied, in the same unit of work
    (called with the ``Lookup`` and the time): a mail's tournament lines, each of which
    must see what the line before it did.  The runner applies this outcome, calls
    ``then``, and goes on until an outcome has none; all commit together or not at all.
    """

    events: tuple[Event, ...] = ()
    mails: tuple[OutgoingMail, ...] = ()
    record: GameRecord | None = None
    rejected: bool = False
    note: str = ""
    players: tuple[NewPlayer, ...] = ()
    deadlines: tuple[DeadlineChange, ...] = ()
    addresses: tuple[AddressChange, ...] = ()
    seals: tuple[Seal, ...] = ()
    tournaments: tuple[TournamentWrite, ...] = ()
    games: tuple[GameWrite, ...] = ()
    undelivered: tuple[tuple[int, str], ...] = ()
    closed: tuple[tuple[int, str], ...] = ()
    reminded: tuple[tuple[int, int, int], ...] = ()
    reseats: tuple[tuple[str, str, str], ...] = ()
    statuses: tuple[MailStatus, ...] = ()
    log: tuple[str, ...] = ()
    beat: datetime | None = None
    then: Callable[[Any, datetime], Outcome] | None = None

    def but(self, **changes: Any) -> Outcome:
        return replace(self, **changes)

    def followed_by(self, after: Callable[[Any, datetime], Outcome]) -> Outcome:
        """This outcome, then (once it and whatever it is followed by are applied) ``after``."""
        if self.then is None:
            return self.but(then=after)
        first = self.then
        return self.but(then=lambda lookup, now: first(lookup, now).followed_by(after))
