"""
What the in-memory store (``moderator.testing.memory``) holds: its tables as plain
dataclasses, each copied whole before a write so that a failed write puts them back.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import datetime

from moderator.ports.deadlines import Deadline
from moderator.ports.mail import InboundMessage, StoredMail
from moderator.ports.players import PendingAddressChange, Player
from moderator.ports.writes import UsedSeal
from moderator.rules.events import Event
from moderator.rules.state import GameState
from moderator.schedule.record import GameRecord
from moderator.tournament.events import TournamentEvent

__all__ = ["StoredGame", "StoredTournament", "Tables"]


@dataclass(slots=True)
class StoredGame:
    """A game as the memory keeps it: its record, its events and the state they lead to."""

    record: GameRecord
    events: list[Event] = field(default_factory=list)
    state: GameState = field(default_factory=GameState)
    seats: dict[str, int] = field(default_factory=dict)  # seat -> player id

    def copy(self) -> StoredGame:
        return dataclasses.replace(self, events=list(self.events), seats=dict(self.seats))


@dataclass(slots=True)
class StoredTournament:
    director: str
    events: list[TournamentEvent] = field(default_factory=list)

    def copy(self) -> StoredTournament:
        return dataclasses.replace(self, events=list(self.events))


@dataclass(slots=True)
class Tables:
    """All the memory holds; copied whole before a write, put back if the write fails."""

    players: dict[int, Player] = field(default_factory=dict)
    changes: dict[str, PendingAddressChange] = field(default_factory=dict)  # by old address
    games: dict[str, StoredGame] = field(default_factory=dict)
    tournaments: dict[str, StoredTournament] = field(default_factory=dict)
    outbox: list[StoredMail] = field(default_factory=list)
    inbound: list[InboundMessage] = field(default_factory=list)
    seals: dict[str, UsedSeal] = field(default_factory=dict)
    #: The deadline rows by id, open and closed (``moderator.testing.memory_deadlines``).
    deadlines: dict[int, Deadline] = field(default_factory=dict)
    #: Outbox ids by Message-ID, for ``outbox_mail_by_message_id``.
    message_ids: dict[str, int] = field(default_factory=dict)
    #: Why an outbox mail was marked undelivered (the store's ``last_error``).
    mail_errors: dict[int, str] = field(default_factory=dict)
    #: When the clock last ran (``Work.heartbeat``; None: never).
    heartbeat: datetime | None = None

    def copy(self) -> Tables:
        return Tables(
            dict(self.players),
            dict(self.changes),
            {k: g.copy() for k, g in self.games.items()},
            {k: t.copy() for k, t in self.tournaments.items()},
            list(self.outbox),
            list(self.inbound),
            dict(self.seals),
            dict(self.deadlines),
            dict(self.message_ids),
            dict(self.mail_errors),
            self.heartbeat,
        )
