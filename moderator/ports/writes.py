"""
What a decision changes, as the unit of work takes it: a game's events, record and
deadlines (``GameWrite``), a tournament's events, players to register, changes of
address, seals, and ``Work``, all of it together.  Plain values, so that a use case
can build them without the store and a test can apply them to memory
(``moderator.testing``); the store's ``unit_of_work.write`` makes them durable.

A write is optimistic per stream: each ``GameWrite``/``TournamentWrite`` carries the
sequence number its decision was made on, and a stream that moved on meanwhile raises
``ConflictError`` (the caller decides again).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from moderator.ports.deadlines import DeadlineChange
from moderator.ports.mail import OutgoingMail
from moderator.records import record
from moderator.rules.events import Event
from moderator.rules.state import GameState
from moderator.schedule.record import GameRecord
from moderator.tournament.events import TournamentEvent

__all__ = [
    "ASK",
    "CANCEL",
    "MOVE",
    "AddressChange",
    "GameWrite",
    "MessageDone",
    "NewPlayer",
    "Seal",
    "TournamentWrite",
    "UsedSeal",
    "Work",
    "game_write",
]


@record
class GameWrite:
    """
    What changes in one game: ``events`` after event ``seq`` (the state they lead to in
    ``state``, for the snapshot), its new ``record``, its deadlines.  ``create`` makes the
    game first (``seq`` 0), with ``seats`` ((seat, address) pairs) taken.
    """

    game_id: str
    seq: int
    events: tuple[Event, ...] = ()
    record: GameRecord | None = None
    state: GameState | None = None
    deadlines: tuple[DeadlineChange, ...] = ()
    create: bool = False
    seats: tuple[tuple[str, str], ...] = ()

    def but(self, **changes: Any) -> GameWrite:
        return dataclasses.replace(self, **changes)


@record
class TournamentWrite:
    """A tournament's ``events`` after event ``seq`` (``director`` creates the stream)."""

    tournament_id: str
    seq: int
    events: tuple[TournamentEvent, ...]
    director: str | None = None


@record
class NewPlayer:
    """A player to register (a sign-on by mail)."""

    name: str
    address: str
    time_zone: str = "UTC"
    key_fingerprint: str | None = None
    secret_hash: str | None = None  # ``players.hash_secret``'s; never the secret itself


#: What an ``AddressChange`` does: keep a change waiting for confirmation, carry it out,
#: forget it.
ASK, MOVE, CANCEL = "ask", "move", "cancel"


@record
class AddressChange:
    """
    A change of the address ``old``: ``ASK`` keeps a move to ``new`` waiting for
    confirmation (only the ``token_hash`` of the token mailed to ``old``), ``MOVE`` gives
    the player at ``old`` the address ``new`` everywhere, ``CANCEL`` forgets the move.
    """

    what: str
    old: str
    new: str = ""
    token_hash: str = ""


@record
class Seal:
    """
    A digest of what authenticated a mail that was acted on, to keep so that it counts
    once: ``kind`` (``pgp`` or ``secret``), and when the row may be dropped
    (``expires_at``; None: kept).
    """

    digest: str
    kind: str
    expires_at: datetime | None = None


@record
class UsedSeal:
    """A seal already kept: when it was first used, and by which inbound message."""

    used_at: datetime
    inbound_id: int | None


#: The tables a ``MailStatus`` names.
MAIL_OUT, MAIL_IN = "outbox", "inbound"


@record
class MailStatus:
    """
    The operator's word on a stored mail (``titan-moderator mail retry|drop``): row ``id``
    of ``table`` (``outbox`` or ``inbound``), decided on while its status was ``was``,
    becomes ``status`` with ``note`` as its error (None: cleared).  Written only if the
    row is still ``was``: a sender or worker that moved it meanwhile is a conflict.
    """

    table: str
    id: int
    was: str
    status: str
    note: str | None = None


@record
class MessageDone:
    """An inbound mail dealt with: its new status, its game and a note for the log."""

    message_id: int
    status: str
    game_id: str | None = None
    note: str = ""


@record
class Work:
    """Everything one decision changes, written together by the unit of work."""

    games: tuple[GameWrite, ...] = ()
    tournaments: tuple[TournamentWrite, ...] = ()
    mails: tuple[OutgoingMail, ...] = ()
    players: tuple[NewPlayer, ...] = ()
    addresses: tuple[AddressChange, ...] = ()
    seals: tuple[Seal, ...] = ()
    #: Deadline rows dealt with: (id, new status), e.g. a timeout carried out.
    closed: tuple[tuple[int, str], ...] = ()
    #: Tournament seats handed over: (game, seat, new holder's address).
    reseats: tuple[tuple[str, str, str], ...] = ()
    #: The inbound mail this work settles, if any.
    message: MessageDone | None = None
    #: Outbox rows a bounce showed undelivered: (id, the bounce's reason).
    undelivered: tuple[tuple[int, str], ...] = ()
    #: Reminders of deadlines counted: (id, the count they were decided on, the new count).
    reminded: tuple[tuple[int, int, int], ...] = ()
    #: The clock's heartbeat (``deadlines.beat``), when the clock ran.
    heartbeat: datetime | None = None
    #: Stored mails the operator retried or dropped.
    statuses: tuple[MailStatus, ...] = ()

    def __add__(self, other: Work) -> Work:
        return Work(
            self.games + other.games,
            self.tournaments + other.tournaments,
            self.mails + other.mails,
            self.players + other.players,
            self.addresses + other.addresses,
            self.seals + other.seals,
            self.closed + other.closed,
            self.reseats + other.reseats,
            other.message or self.message,
            self.undelivered + other.undelivered,
            self.reminded + other.reminded,
            other.heartbeat or self.heartbeat,
            self.statuses + other.statuses,
        )


def game_write(
    game_id: str,
    seq: int,
    events: Sequence[Event] = (),
    *,
    record: GameRecord | None = None,
    state: GameState | None = None,
    deadlines: Sequence[DeadlineChange] = (),
) -> GameWrite:
    """A ``GameWrite`` from any sequences (the common case of a running game)."""
    return GameWrite(game_id, seq, tuple(events), record, state, tuple(deadlines))
