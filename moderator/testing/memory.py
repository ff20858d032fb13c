"""
An in-memory store for use-case tests: ``MemoryLookup`` answers every question of the
``Lookup`` port as the SQL store's ``SqlLookup`` does (``tests/store/test_lookup_contract.py``
holds the two to the same answers), from players, games, events, inbound mail and outbox
rows that a test puts in.  ``moderator.testing.recording.RecordingUnitOfWork`` applies
what a use case decided to it, so a test runs decide, apply, decide again with no
database.

Everything a test reads back is plain values (``outbox()``, ``inbound()``,
``deadlines``); nothing here is thread-safe or durable, and it need not be.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime

from moderator.ports.deadlines import Deadline
from moderator.ports.errors import (
    ConflictError,
    GameExistsError,
    GameNotFoundError,
    MessageNotFoundError,
    PlayerExistsError,
    StoreError,
)
from moderator.ports.games import GameContext, LoadedTournament
from moderator.ports.lookup import Lookup
from moderator.ports.mail import (
    PENDING,
    PROCESSED,
    RECEIVED,
    REJECTED,
    InboundMessage,
    OutgoingMail,
    StoredMail,
    body_hash,
    header_message_id,
)
from moderator.ports.players import PendingAddressChange, Player, hash_secret, normal_address
from moderator.ports.writes import UsedSeal
from moderator.rules.events import Event
from moderator.rules.evolve import replay
from moderator.rules.state import GameState, Step
from moderator.schedule.record import GameRecord
from moderator.testing import memory_deadlines
from moderator.testing.memory_tables import StoredGame, StoredTournament, Tables
from moderator.tournament import events as tev
from moderator.tournament.state import replay as fold

__all__ = ["MemoryLookup", "StoredGame", "StoredTournament", "Tables"]  # tables re-exported

#: When a ``MemoryLookup`` made without a clock thinks it is.
DEFAULT_NOW = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
_databases = itertools.count(1)


class MemoryLookup:
    """
    The ``Lookup`` port over plain dictionaries.  ``now``: a fixed time or a clock (a
    callable), as the SQL store's clock; ``set_now`` moves a fixed one.  Fill it with
    ``add_player``, ``add_game``, ``add_mail``, ``receive`` (and ``RecordingUnitOfWork``).
    """

    def __init__(self, now: datetime | Callable[[], datetime] = DEFAULT_NOW) -> None:
        self._clock = now if callable(now) else (lambda: now)
        self.tables = Tables()
        self._database = f"memory:{next(_databases)}"
        #: What a runtime would keep between decisions (``service.caches``): a test sets it.
        self.memo: object | None = None

    # -- the test's side --------------------------------------------------------------

    def now(self) -> datetime:
        """
        The memory's own clock, as the SQL store's ``Tx.now``: it stamps the rows it
        writes (outbox rows, inbound mail, seals, address changes).  Not part of the
        ``Lookup`` port: a use case is handed its ``now`` by the runner (a test: by itself).
        """
        return self._clock()

    def set_now(self, now: datetime) -> None:
        self._clock = lambda: now

    def add_player(
        self,
        name: str,
        address: str,
        *,
        time_zone: str = "UTC",
        key_fingerprint: str | None = None,
        secret: str | None = None,
        secret_hash: str | None = None,
        roles: Iterable[str] = (),
    ) -> Player:
        """Register a player as ``store.players.add_player`` does (the address normalised).

        Raises:
            PlayerExistsError: the address is registered already.
        """
        address = normal_address(address)
        if self.player(address) is not None:
            msg = f"the address {address!r} is registered already"
            raise PlayerExistsError(msg)
        if secret is not None:
            secret_hash = hash_secret(secret)
        cleaned = tuple(sorted({r.strip().lower() for r in roles if r.strip()}))
        player_id = max(self.tables.players, default=0) + 1
        player = Player(player_id, name, address, time_zone, key_fingerprint, secret_hash, cleaned)
        self.tables.players[player_id] = player
        return player

    def add_game(
        self,
        game_id: str,
        events: Iterable[Event] = (),
        *,
        record: GameRecord | None = None,
        seats: Mapping[str, str] | None = None,
        state: GameState | None = None,
    ) -> GameContext:
        """
        A new game with ``events`` (``state``: where they lead, if known) and ``seats``
        (seat -> a registered player's address), as the unit of work creates one.

        Raises:
            GameExistsError: the name is taken.
            StoreError: a seat's player is not registered, or a seat or player is taken.
        """
        if game_id in self.tables.games:
            raise GameExistsError(game_id)
        events = list(events)
        self.tables.games[game_id] = StoredGame(record or GameRecord())
        for seat, address in (seats or {}).items():
            self.seat(game_id, seat, address)
        if events:
            self.append(game_id, 0, events, state=state)
        found = self.game(game_id)
        assert found is not None
        return found

    def seat(self, game_id: str, seat: str, address: str) -> None:
        """Give the player with ``address`` the seat ``seat``, as ``store.players.seat_player``."""
        stored = self._stored(game_id)
        player = self.player(address)
        if player is None:
            msg = f"no player is registered with the address {normal_address(address)!r}"
            raise StoreError(msg)
        if seat in stored.seats or player.id in stored.seats.values():
            msg = f"in game {game_id!r} the seat {seat!r} or the player {player.address!r} is taken"
            raise StoreError(msg)
        stored.seats[seat] = player.id

    def append(
        self,
        game_id: str,
        seq: int,
        events: Iterable[Event],
        *,
        record: GameRecord | None = None,
        state: GameState | None = None,
    ) -> int:
        """
        ``events`` after event ``seq``; returns the new last sequence number.

        Raises:
            ConflictError: the game is not at ``seq``; nothing changes.
            GameNotFoundError: there is no such game.
        """
        stored = self._stored(game_id)
        if seq != len(stored.events):
            msg = f"game {game_id!r} is at event {len(stored.events)}, not {seq}"
            raise ConflictError(msg)
        events = list(events)
        if events:
            if state is None or state.version != seq + len(events):
                state = replay(events, stored.state)
            stored.events.extend(events)
            stored.state = state
        if record is not None:
            stored.record = record
        return len(stored.events)

    def _stored(self, game_id: str) -> StoredGame:
        stored = self.tables.games.get(game_id)
        if stored is None:
            raise GameNotFoundError(game_id)
        return stored

    def add_mail(
        self,
        mail: OutgoingMail,
        *,
        inbound_id: int | None = None,
        game_id: str | None = None,
        status: str = PENDING,
        created_at: datetime | None = None,
    ) -> StoredMail:
        """An outbox row for ``mail``, written at ``created_at`` (default: now)."""
        mail_id = len(self.tables.outbox) + 1
        message_id = f"<memory-{self._database[7:]}-{mail_id}@titan-moderator.invalid>"
        stored = StoredMail(
            mail_id,
            message_id,
            mail.recipient,  # as written: the use cases write addresses in lower case
            mail.subject,
            mail.body,
            dict(mail.headers),
            status,
            0,
            inbound_id,
            game_id,
            mail.private_body,
            mail.token,
            mail.recipient_key,
            mail.kind,
            created_at or self.now(),
            pictures=tuple(mail.pictures),
            attachments=tuple(mail.attachments),
        )
        self.tables.outbox.append(stored)
        self.tables.message_ids[message_id] = mail_id
        return stored

    def receive(self, raw: bytes, *, mailbox: str = "INBOX") -> InboundMessage:
        """Archive ``raw`` as an inbound message (``received``), as ``store.inbox.receive``."""
        message = InboundMessage(
            len(self.tables.inbound) + 1,
            raw,
            header_message_id(raw),
            mailbox,
            None,
            None,
            RECEIVED,
            None,
            None,
            self.now(),
        )
        self.tables.inbound.append(message)
        return message

    def settle(self, message_id: int, status: str, game_id: str | None, note: str) -> None:
        """The inbound message's new state (``Work.message``)."""
        found = self.inbound(message_id)
        self.tables.inbound[message_id - 1] = dataclasses.replace(
            found, status=status, game_id=game_id, error=note or None
        )

    def inbound(self, message_id: int) -> InboundMessage:
        if not 0 < message_id <= len(self.tables.inbound):
            msg = f"there is no inbound message {message_id!r}"
            raise MessageNotFoundError(msg)
        return self.tables.inbound[message_id - 1]

    def outbox(self, *, status: str | None = None) -> list[StoredMail]:
        """The outbox's mails, oldest first (all, or with ``status``)."""
        return [m for m in self.tables.outbox if status is None or m.status == status]

    # -- the Lookup port --------------------------------------------------------------

    @property
    def database(self) -> str:
        return self._database

    def player(self, address: str) -> Player | None:
        wanted = normal_address(address)
        return next((p for p in self.tables.players.values() if p.address == wanted), None)

    def players_with_key(self, fingerprint: str) -> list[Player]:
        wanted = fingerprint.strip().upper()
        found = [p for p in self.tables.players.values() if p.key_fingerprint == wanted]
        return sorted(found, key=lambda p: p.id)

    def pending_address_change(self, old: str) -> PendingAddressChange | None:
        return self.tables.changes.get(normal_address(old))

    def seated_players(self, game_id: str) -> dict[str, Player]:
        stored = self.tables.games.get(game_id)
        if stored is None:
            return {}
        return {seat: self.tables.players[pid] for seat, pid in stored.seats.items()}

    def games_of(self, address: str) -> list[tuple[str, str]]:
        player = self.player(address)
        if player is None:
            return []
        return [
            (game_id, seat)
            for game_id, stored in sorted(self.tables.games.items())
            for seat, pid in stored.seats.items()
            if pid == player.id
        ]

    def mails_today(
        self, address: str, kinds: tuple[str, ...] | None = None, *, now: datetime
    ) -> int:
        midnight = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
        wanted = address.strip().lower()
        return sum(
            1
            for m in self.tables.outbox
            if m.recipient == wanted
            and m.created_at is not None
            and m.created_at >= midnight
            and (kinds is None or m.kind is None or m.kind in kinds)
        )

    def earlier_copy(self, message: InboundMessage) -> int | None:
        digest = body_hash(message.raw)
        for other in self.tables.inbound:
            if other.id == message.id or other.status not in (PROCESSED, REJECTED):
                continue
            if body_hash(other.raw) != digest or other.message_id != message.message_id:
                continue
            if message.message_id or _same_bytes(other.raw, message.raw):
                return other.id
        return None

    def seal_used(self, digest: str) -> UsedSeal | None:
        return self.tables.seals.get(digest)

    def active_games_of(self, address: str) -> list[tuple[str, str]]:
        found: list[tuple[str, str]] = []
        for game_id, seat in self.games_of(address):
            state = self.tables.games[game_id].state
            if state.step is not Step.OVER and state.has_player(seat):
                found.append((game_id, seat))
        return found

    def record(self, game_id: str) -> GameRecord | None:
        stored = self.tables.games.get(game_id)
        return None if stored is None else stored.record

    def game(self, game_id: str) -> GameContext | None:
        stored = self.tables.games.get(game_id)
        if stored is None:
            return None
        return GameContext(
            game_id, stored.state, len(stored.events), stored.record, self.seats(game_id)
        )

    def outbox_mail(self, mail_id: int) -> StoredMail | None:
        if not 0 < mail_id <= len(self.tables.outbox):
            return None
        return self.tables.outbox[mail_id - 1]

    def outbox_mail_by_message_id(self, message_id: str) -> StoredMail | None:
        mail_id = self.tables.message_ids.get(message_id)
        return None if mail_id is None else self.outbox_mail(mail_id)

    def inbound_message(self, message_id: int) -> InboundMessage | None:
        inbound = self.tables.inbound
        return inbound[message_id - 1] if 0 < message_id <= len(inbound) else None

    def director(self, tournament: str) -> str | None:
        stored = self.tables.tournaments.get(tournament)
        return None if stored is None else stored.director

    def seats(self, game_id: str) -> dict[str, str]:
        return {p.address: seat for seat, p in self.seated_players(game_id).items()}

    def tournament_head(self, name: str) -> int | None:
        stored = self.tables.tournaments.get(name)
        return None if stored is None else len(stored.events)

    def events(self, game_id: str, after: int = 0, upto: int | None = None) -> list[Event]:
        stored = self.tables.games.get(game_id)
        if stored is None:
            raise GameNotFoundError(game_id)
        return stored.events[after:upto]


    def game_ids(self) -> list[str]:
        return sorted(self.tables.games)

    def tournament(self, name: str) -> LoadedTournament | None:
        stored = self.tables.tournaments.get(name)
        if stored is None:
            return None
        return LoadedTournament(name, fold(stored.events), len(stored.events))

    def tournament_ids(self, *, finished: bool | None = None) -> list[str]:
        names = sorted(self.tables.tournaments)
        if finished is None:
            return names
        return [n for n in names if (found := self.tournament(n)) and found.state.finished == finished]

    def reliability(self, address: str) -> tuple[int, int]:
        """As the SQL store counts it: every tournament's counts, following address changes."""
        tallies: dict[str, tuple[int, int]] = {}
        for stored in self.tables.tournaments.values():
            for event in stored.events:
                if isinstance(event, tev.AddressChanged):
                    before = tallies.pop(event.old, (0, 0))
                    now = tallies.get(event.new, (0, 0))
                    tallies[event.new] = (now[0] + before[0], now[1] + before[1])
                elif isinstance(event, tev.ReliabilityRecorded):
                    had = tallies.get(event.player, (0, 0))
                    tallies[event.player] = (had[0] + event.on_time, had[1] + event.timeouts)
        return tallies.get(normal_address(address), (0, 0))

    def deadline(self, deadline_id: int) -> Deadline | None:
        return self.tables.deadlines.get(deadline_id)

    def open_deadlines(self) -> list[Deadline]:
        return memory_deadlines.open_rows(self.tables)

    def heartbeat(self) -> datetime | None:
        return self.tables.heartbeat


def _same_bytes(a: bytes, b: bytes) -> bool:
    return hashlib.sha256(a).digest() == hashlib.sha256(b).digest()


def _fulfils_the_port(memory: MemoryLookup) -> Lookup:
    """mypy checks here that ``MemoryLookup`` answers every question of ``Lookup``."""
    return memory
