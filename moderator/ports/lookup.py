"""
``Lookup``: what a use case may read of the store, and nothing it may write.

A protocol, so that the use cases name no store: the runner builds the SQL one
(``moderator.store.handling.SqlLookup``) inside its transaction, a test the in-memory
one (``moderator.testing.memory.MemoryLookup``); ``tests/store/test_lookup_contract.py``
holds both to the same answers.  A use case changes things only through the
``Outcome`` it returns.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from moderator.ports.deadlines import Deadline
from moderator.ports.games import GameContext, LoadedTournament
from moderator.ports.mail import InboundMessage, StoredMail
from moderator.ports.players import PendingAddressChange, Player
from moderator.ports.writes import UsedSeal
from moderator.rules.events import Event
from moderator.schedule.record import GameRecord

__all__ = ["Lookup"]


class Lookup(Protocol):
    """
    What a handler may read besides the message and its game, inside the runner's
    transaction: players, seats, today's mail to an address, earlier copies of the
    message, seals, games and their events, the outbox, tournaments.
    """

    @property
    def database(self) -> str:
        """Which database this is: what a per-process cache keys games by, so two
        databases with a game of the same name never share an entry."""
        ...

    @property
    def memo(self) -> object | None:
        """What the runtime keeps between units of work for the use cases (the service's
        caches, built once by the composition root), or None: nothing is kept."""
        ...

    def player(self, address: str) -> Player | None:
        """The player registered with ``address`` (any case)."""
        ...

    def players_with_key(self, fingerprint: str) -> list[Player]:
        """The players whose pinned key has ``fingerprint``."""
        ...

    def pending_address_change(self, old: str) -> PendingAddressChange | None:
        """The change of address waiting to be confirmed from ``old``."""
        ...

    def seated_players(self, game_id: str) -> dict[str, Player]:
        """The game's seats: name in the game -> player."""
        ...

    def games_of(self, address: str) -> list[tuple[str, str]]:
        """(game, seat) of every game the player with ``address`` sits in, by game."""
        ...

    def mails_today(
        self, address: str, kinds: tuple[str, ...] | None = None, *, now: datetime
    ) -> int:
        """Mails (of ``kinds``; one written without a kind counts as every kind) written
        to ``address`` since midnight UTC of ``now`` (the runner's time: a use case
        reads no clock)."""
        ...

    def earlier_copy(self, message: InboundMessage) -> int | None:
        """
        The id of an earlier message with the same Message-ID and the same body that
        was already dealt with (processed or rejected); for a message without a
        Message-ID, an earlier one without it and with the very same bytes.  None if
        there is none: the same mail come again by another route, or replayed.
        """
        ...

    def seal_used(self, digest: str) -> UsedSeal | None:
        """When the seal ``digest`` was used before, if it was."""
        ...

    def active_games_of(self, address: str) -> list[tuple[str, str]]:
        """(game, seat) of every game not yet over in which ``address`` still plays."""
        ...

    def record(self, game_id: str) -> GameRecord | None:
        """The service's record of ``game_id``, or None if there is no such game."""
        ...

    def game(self, game_id: str) -> GameContext | None:
        """A game as it stands (not held: a write decided on it is optimistic)."""
        ...

    def outbox_mail(self, mail_id: int) -> StoredMail | None:
        """The outbox's mail ``mail_id``, if there is one."""
        ...

    def outbox_mail_by_message_id(self, message_id: str) -> StoredMail | None:
        """The outbox's mail with ``message_id``, if there is one."""
        ...

    def inbound_message(self, message_id: int) -> InboundMessage | None:
        """The archived inbound mail ``message_id``, if there is one."""
        ...

    def director(self, tournament: str) -> str | None:
        """The address of the director of ``tournament``, if there is one."""
        ...

    def seats(self, game_id: str) -> dict[str, str]:
        """The game's seats: player address -> his name in the game."""
        ...

    def tournament_head(self, name: str) -> int | None:
        """The last sequence number of tournament ``name`` (None: there is none); the SQL
        store holds its row on PostgreSQL until the transaction ends, so that the event
        decided on it is appended right after."""
        ...

    def events(self, game_id: str, after: int = 0, upto: int | None = None) -> list[Event]:
        """The game's stored events after ``after`` (up to ``upto``)."""
        ...

    def game_ids(self) -> list[str]:
        """Every stored game's name."""
        ...

    def tournament(self, name: str) -> LoadedTournament | None:
        """Tournament ``name`` as it stands (None: there is none); the SQL store holds its
        row on PostgreSQL until the transaction ends, as ``tournament_head``'s."""
        ...

    def tournament_ids(self, *, finished: bool | None = None) -> list[str]:
        """The tournaments' names (only the finished ones, or the unfinished ones)."""
        ...

    def reliability(self, address: str) -> tuple[int, int]:
        """(moves made in time, timeouts) of ``address`` over every tournament."""
        ...

    def deadline(self, deadline_id: int) -> Deadline | None:
        """The deadline row ``deadline_id`` as it stands."""
        ...

    def open_deadlines(self) -> list[Deadline]:
        """Every deadline still due, of every game."""
        ...

    def heartbeat(self) -> datetime | None:
        """When the clock last ran (None: never)."""
        ...
