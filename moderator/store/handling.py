"""
The SQL store's ``Lookup`` (``moderator.ports.lookup``): what a use case may read of the
store, inside the runner's transaction.  The types it answers with, the message, the
game's context and the ``Outcome`` are the ports'; this module only reads the tables.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

from sqlalchemy import bindparam, select

from moderator.ports.deadlines import Deadline
from moderator.ports.errors import GameNotFoundError, MessageNotFoundError
from moderator.ports.games import GameContext, LoadedTournament
from moderator.ports.mail import PROCESSED, REJECTED, InboundMessage, StoredMail, body_hash
from moderator.ports.players import PendingAddressChange, Player
from moderator.ports.writes import UsedSeal
from moderator.rules.events import Event
from moderator.rules.state import Step
from moderator.schedule.record import GameRecord
from moderator.store import deadlines, inbox, players, seals, tournaments
from moderator.store.eventstore import Tx
from moderator.store.outbox import count_since, mail_by_id, mail_by_message_id
from moderator.store.tables import INBOUND, TOURNAMENT

__all__ = ["SqlLookup"]

#: Built once (every mail asks it): see ``store.eventstore``.
_EARLIER = (
    select(INBOUND.c.id)
    .where(
        INBOUND.c.message_id == bindparam("header_id"),
        INBOUND.c.body_hash == bindparam("digest"),
        INBOUND.c.id != bindparam("inbound_id"),
        INBOUND.c.status.in_((PROCESSED, REJECTED)),
    )
    .order_by(INBOUND.c.id)
    .limit(1)
)


class SqlLookup:
    """
    The ``Lookup`` port on the SQL store, in the transaction ``tx``: players, seats,
    today's mail to an address, earlier copies of the message, the game's events.  Read
    only: a use case changes things through its ``Outcome``, which a runner applies.
    """

    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    @property
    def database(self) -> str:
        """Which database this is (its URL): what a per-process cache keys games by,
        so two databases with a game of the same name never share an entry."""
        return str(self._tx.store.url)

    @property
    def memo(self) -> object | None:
        """The store's ``memo``: what the composition root keeps for the use cases."""
        return self._tx.store.memo

    def player(self, address: str) -> Player | None:
        """The player registered with ``address`` (any case)."""
        return players.player_by_address(self._tx, address)

    def players_with_key(self, fingerprint: str) -> list[Player]:
        """The players whose pinned key has ``fingerprint``."""
        return players.players_by_fingerprint(self._tx, fingerprint)

    def pending_address_change(self, old: str) -> PendingAddressChange | None:
        """The change of address waiting to be confirmed from ``old``."""
        return players.pending_address_change(self._tx, old)

    def seated_players(self, game_id: str) -> dict[str, Player]:
        """The game's seats: name in the game -> player."""
        return players.seated_players(self._tx, game_id)

    def games_of(self, address: str) -> list[tuple[str, str]]:
        """(game, seat) of every game the player with ``address`` sits in."""
        return players.games_of(self._tx, address)

    def mails_today(
        self, address: str, kinds: tuple[str, ...] | None = None, *, now: datetime
    ) -> int:
        """Mails (of ``kinds``) written to ``address`` since midnight UTC of ``now``."""
        midnight = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
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
            _EARLIER,
            {
                "header_id": message.message_id,
                "digest": body_hash(message.raw),
                "inbound_id": message.id,
            },
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

    def seal_used(self, digest: str) -> UsedSeal | None:
        """When the seal ``digest`` was used before, if it was."""
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

    def inbound_message(self, message_id: int) -> InboundMessage | None:
        """The archived inbound mail ``message_id``, if there is one."""
        try:
            return inbox.message(self._tx, message_id)
        except MessageNotFoundError:
            return None

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

    def game_ids(self) -> list[str]:
        """Every stored game's name."""
        return list(self._tx.games())

    def tournament(self, name: str) -> LoadedTournament | None:
        """
        Tournament ``name`` as it stands (None: there is none), its row held on
        PostgreSQL until the transaction ends, as ``tournament_head``'s.
        """
        if not tournaments.exists(self._tx, name):
            return None
        return tournaments.load(self._tx, name, lock=True)

    def tournament_ids(self, *, finished: bool | None = None) -> list[str]:
        """The tournaments' names (only the finished ones, or the unfinished ones)."""
        return tournaments.tournament_ids(self._tx, finished=finished)

    def reliability(self, address: str) -> tuple[int, int]:
        """(moves made in time, timeouts) of ``address`` over every tournament."""
        return tournaments.reliability(self._tx, address)

    def deadline(self, deadline_id: int) -> Deadline | None:
        """The deadline row ``deadline_id`` as it stands."""
        return deadlines.deadline(self._tx, deadline_id)

    def open_deadlines(self) -> list[Deadline]:
        """Every deadline still due, of every game."""
        return deadlines.open_deadlines(self._tx)

    def heartbeat(self) -> datetime | None:
        """When the clock last ran (None: never)."""
        return deadlines.heartbeat(self._tx)
