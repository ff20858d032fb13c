"""
What a handler of inbound mail sees and returns (``moderator.store.inbox`` runs it in
the mail's transaction): the archived message, its game's context, a read-only
``Lookup`` of the store, and the ``Outcome`` that the unit of work writes (events,
mails, deadlines, players, changes of address and seals, all in that transaction).
Kept apart from ``inbox`` so that the handler's contract reads on its own.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select

from moderator.rules.events import Event
from moderator.rules.state import GameState, Step
from moderator.schedule.record import GameRecord
from moderator.store import players, seals, tournaments
from moderator.store.deadlines import DeadlineChange
from moderator.store.errors import GameNotFoundError
from moderator.store.eventstore import Tx
from moderator.store.outbox import (
    OutgoingMail,
    StoredMail,
    count_since,
    mail_by_id,
    mail_by_message_id,
)
from moderator.store.tables import INBOUND, PROCESSED, REJECTED, TOURNAMENT
from moderator.store.unit_of_work import (
    ASK,
    CANCEL,
    MOVE,
    AddressChange,
    GameWrite,
    NewPlayer,
    TournamentWrite,
)

__all__ = [
    "ASK",
    "CANCEL",
    "MOVE",
    "AddressChange",
    "GameContext",
    "InboundMessage",
    "Lookup",
    "NewPlayer",
    "Outcome",
    "body_hash",
]

@dataclass(frozen=True, slots=True)
class InboundMessage:
    id: int
    raw: bytes
    message_id: str | None
    mailbox: str
    uidvalidity: int | None
    uid: int | None
    status: str
    game_id: str | None
    error: str | None
    received_at: datetime


@dataclass(frozen=True, slots=True)
class GameContext:
    """What a handler may know about the message's game."""

    game_id: str
    state: GameState
    seq: int
    record: GameRecord
    seats: Mapping[str, str]  # player address -> his name in the game


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
    ``seals``: digests of what authenticated the mail (``moderator.store.seals``), kept
    in the same transaction so that the same signed text never acts twice.
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
    seals: tuple[seals.Seal, ...] = ()
    tournaments: tuple[TournamentWrite, ...] = ()
    games: tuple[GameWrite, ...] = ()
    undelivered: tuple[tuple[int, str], ...] = ()


class Lookup:
    """
    What a handler may read besides the message and its game, inside the message's
    transaction: players, seats, today's mail to an address, earlier copies of the
    message, the game's events.  Read only: a handler changes things through its
    ``Outcome`` (work beyond the game, such as tournament lines, excepted: see
    ``transaction``).
    """

    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    @property
    def database(self) -> str:
        """Which database this is (its URL): what a per-process cache keys games by,
        so two databases with a game of the same name never share an entry."""
        return str(self._tx.store.url)

    def now(self) -> datetime:
        return self._tx.now()

    def player(self, address: str) -> players.Player | None:
        """The player registered with ``address`` (any case)."""
        return players.player_by_address(self._tx, address)

    def players_with_key(self, fingerprint: str) -> list[players.Player]:
        """The players whose pinned key has ``fingerprint``."""
        return players.players_by_fingerprint(self._tx, fingerprint)

    def pending_address_change(self, old: str) -> players.PendingAddressChange | None:
        """The change of address waiting to be confirmed from ``old``."""
        return players.pending_address_change(self._tx, old)

    def seated_players(self, game_id: str) -> dict[str, players.Player]:
        """The game's seats: name in the game -> player."""
        return players.seated_players(self._tx, game_id)

    def games_of(self, address: str) -> list[tuple[str, str]]:
        """(game, seat) of every game the player with ``address`` sits in."""
        return players.games_of(self._tx, address)

    def mails_today(self, address: str, kinds: tuple[str, ...] | None = None) -> int:
        """Mails (of ``kinds``) written to ``address`` since midnight UTC."""
        now = self._tx.now().astimezone(UTC)
        midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
        return count_since(self._tx, address, midnight, kinds=kinds)

    def earlier_copy(self, message: InboundMessage) -> int | None:
        """
        The id of an earlier message with the same Message-ID and the same body hash
        that was already dealt with (processed or rejected); for a message without a
        Message-ID, an earlier one without it and with the very same bytes.  None if
        there is none.  The store keeps one copy per mailbox UID: this catches the same
        mail come again by another route, or replayed.
        """
        if not message.message_id:
            return self._earlier_same_bytes(message)
        found = self._tx.connection.execute(
            select(INBOUND.c.id)
            .where(
                INBOUND.c.message_id == message.message_id,
                INBOUND.c.body_hash == body_hash(message.raw),
                INBOUND.c.id != message.id,
                INBOUND.c.status.in_((PROCESSED, REJECTED)),
            )
            .order_by(INBOUND.c.id)
            .limit(1)
        ).first()
        return None if found is None else int(found[0])

    def _earlier_same_bytes(self, message: InboundMessage) -> int | None:
        digest = hashlib.sha256(message.raw).digest()
        rows = self._tx.connection.execute(
            select(INBOUND.c.id, INBOUND.c.raw)
            .where(
                INBOUND.c.message_id.is_(None),
                INBOUND.c.body_hash == body_hash(message.raw),
                INBOUND.c.id != message.id,
                INBOUND.c.status.in_((PROCESSED, REJECTED)),
            )
            .order_by(INBOUND.c.id)
        )
        for found, raw in rows:
            if hashlib.sha256(bytes(raw)).digest() == digest:
                return int(found)
        return None

    def seal_used(self, digest: str) -> seals.UsedSeal | None:
        """When the seal ``digest`` was used before (``moderator.store.seals``), if it was."""
        return seals.used(self._tx, digest)

    def active_games_of(self, address: str) -> list[tuple[str, str]]:
        """(game, seat) of every game not yet over in which ``address`` still plays."""
        found: list[tuple[str, str]] = []
        for game_id, seat in players.games_of(self._tx, address):
            state = self._tx.load(game_id).state
            if state.step is not Step.OVER and state.has_player(seat):
                found.append((game_id, seat))
        return found

    def record(self, game_id: str) -> GameRecord | None:
        """The service's record of ``game_id``, or None if there is no such game."""
        try:
            return self._tx.record(game_id)
        except GameNotFoundError:
            return None

    def game(self, game_id: str) -> GameContext | None:
        """Another game than the message's, as it stands (not held: its write is optimistic)."""
        try:
            loaded = self._tx.load(game_id)
        except GameNotFoundError:
            return None
        return GameContext(
            game_id, loaded.state, loaded.seq, loaded.record, players.seats(self._tx, game_id)
        )

    def outbox_mail(self, mail_id: int) -> StoredMail | None:
        """The outbox's mail ``mail_id``, if there is one."""
        return mail_by_id(self._tx, mail_id)

    def outbox_mail_by_message_id(self, message_id: str) -> StoredMail | None:
        """The outbox's mail with ``message_id``, if there is one."""
        return mail_by_message_id(self._tx, message_id)

    def director(self, tournament: str) -> str | None:
        """The address of the director of ``tournament``, if there is one."""
        row = self._tx.connection.execute(
            select(TOURNAMENT.c.director).where(TOURNAMENT.c.id == tournament)
        ).first()
        return None if row is None else str(row[0])

    def seats(self, game_id: str) -> dict[str, str]:
        """The game's seats: player address -> his name in the game."""
        return players.seats(self._tx, game_id)

    def tournament_head(self, name: str) -> int | None:
        """
        The last sequence number of tournament ``name`` (None: there is none), its row
        held on PostgreSQL until the transaction ends so that the event decided on it
        is appended right after.
        """
        if not tournaments.exists(self._tx, name):
            return None
        return tournaments.head(self._tx, name, lock=True)

    def events(self, game_id: str, after: int = 0, upto: int | None = None) -> list[Event]:
        """The game's stored events after ``after`` (up to ``upto``)."""
        return self._tx.events(game_id, after, upto)

    @property
    def transaction(self) -> Tx:
        """
        The message's transaction itself, for work that is not the game's: a mail's
        tournament lines write the tournament's events and whatever they cause here, so
        they commit or fail with the message.  A ``ConflictError`` raised from such work
        decides the message again, as one from the game's append does.
        """
        return self._tx


def body_hash(raw: bytes) -> str:
    """SHA-256 of the body (what follows the first blank line): the same text resent
    through another route has the same hash."""
    parts = re.split(rb"\r?\n\r?\n", raw, maxsplit=1)
    return hashlib.sha256(parts[1] if len(parts) == 2 else raw).hexdigest()
