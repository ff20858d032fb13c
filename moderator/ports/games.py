"""
A game as a use case sees it (``GameContext``: state, sequence number, record, seats),
and the ``Outcome`` a use case returns: what it decided, for the runner to apply.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from moderator.ports.deadlines import DeadlineChange
from moderator.ports.mail import OutgoingMail
from moderator.ports.writes import AddressChange, GameWrite, NewPlayer, Seal, TournamentWrite
from moderator.rules.events import Event
from moderator.rules.state import GameState
from moderator.schedule.record import GameRecord

__all__ = ["GameContext", "LoadedGame", "Outcome"]


@dataclass(frozen=True, slots=True)
class GameContext:
    """What a handler may know about the message's game."""

    game_id: str
    state: GameState
    seq: int
    record: GameRecord
    seats: Mapping[str, str]  # player address -> his name in the game


@dataclass(frozen=True, slots=True)
class LoadedGame:
    """A game's state after its last event, and how it was reached."""

    game_id: str
    state: GameState
    seq: int  # the last event's sequence number
    record: GameRecord  # the service's record of the game beside its events
    snapshot_seq: int  # the snapshot it started from (0: replayed from the first event)


@dataclass(frozen=True, slots=True)
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
