"""
``RecordingUnitOfWork``: what ``moderator.store.unit_of_work.write`` does to the tables,
done to a ``MemoryLookup``, with every ``Work`` it applied kept in ``applied``.

A use-case test decides (the use case reads the memory through the ``Lookup`` port),
applies (``apply`` for an ``Outcome``, through the runners' own ``unit.apply_with``:
each outcome an ``Outcome.then`` follows it with is decided on what the one before
wrote, the mails go with the last; ``write`` for ``Work``), and decides again on what
it wrote.  The same rules hold as in the store: every stream is optimistic on the
sequence number its decision was made on (``ConflictError``), so is a deadline's count
of reminders, a name taken raises, and a write that fails changes nothing.  Deadline
rows and the clock's heartbeat are kept as the store keeps them
(``moderator.testing.memory_deadlines``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from moderator.ports.errors import (
    ConflictError,
    StoreError,
    TournamentExistsError,
    TournamentNotFoundError,
    UnknownChangeError,
)
from moderator.ports.games import GameContext, Outcome
from moderator.ports.mail import (
    DROPPED,
    PENDING,
    PROCESSED,
    REJECTED,
    UNDELIVERED,
    InboundMessage,
)
from moderator.ports.players import PendingAddressChange, normal_address
from moderator.ports.writes import (
    ASK,
    CANCEL,
    MAIL_OUT,
    MOVE,
    AddressChange,
    GameWrite,
    MailStatus,
    MessageDone,
    TournamentWrite,
    UsedSeal,
    Work,
)
from moderator.runners.unit import apply_with
from moderator.testing import memory_deadlines
from moderator.testing.memory import MemoryLookup
from moderator.testing.memory_tables import StoredTournament
from moderator.tournament import events as tev
from moderator.tournament.state import replay as replay_tournament

__all__ = ["RecordingUnitOfWork"]


class RecordingUnitOfWork:
    """The unit of work on a ``MemoryLookup``; ``applied``: each ``Work`` that took."""

    def __init__(self, memory: MemoryLookup) -> None:
        self.memory = memory
        self.applied: list[Work] = []

    def apply(
        self,
        outcome: Outcome,
        game: GameContext | None = None,
        message: InboundMessage | None = None,
        *,
        now: datetime | None = None,
        about: str | None = None,
    ) -> Outcome:
        """
        Apply what a use case decided about ``message`` (if any) in ``game`` (if any),
        as the runners do (``runners.unit.apply_with``, the same loop): the game's events,
        record and deadlines, the other games, players, addresses, seals, tournaments,
        reminders, closed deadlines, the heartbeat, mails and the message's new state;
        each outcome of ``outcome.then`` decided at ``now`` (default: the memory's clock)
        on what the one before wrote.  Returns them merged, as the runner does.
        """
        done: Callable[[Outcome], MessageDone] | None = None
        if message is not None:
            game_id = game.game_id if game else None

            def done(merged: Outcome) -> MessageDone:
                status = REJECTED if merged.rejected else PROCESSED
                return MessageDone(message.id, status, game_id, merged.note)

        def writer(
            work: Work, inbound: int | None, game_id: str | None, guess: bool
        ) -> dict[str, int]:
            return self.write(work, inbound_id=inbound, game_id=game_id, guess=guess)

        return apply_with(
            writer,
            self.memory,
            outcome,
            now if now is not None else self.memory.now(),
            game=game,
            inbound_id=message.id if message is not None else None,
            about=about if about is not None else (game.game_id if game else None),
            done=done,
        )

    def write(
        self,
        work: Work,
        *,
        inbound_id: int | None = None,
        game_id: str | None = None,
        guess: bool = True,
    ) -> dict[str, int]:
        """
        ``store.unit_of_work.write`` on the memory: all of ``work`` or, raising, none.
        The mails are about ``game_id``; without it and with ``guess``, about the one
        game the work changes, if it changes one.
        """
        saved = self.memory.tables.copy()
        try:
            heads = self._write(work, inbound_id, game_id, guess)
        except BaseException:
            self.memory.tables = saved
            raise
        self.applied.append(work)
        return heads

    def _write(
        self, work: Work, inbound_id: int | None, game_id: str | None, guess: bool
    ) -> dict[str, int]:
        memory = self.memory
        heads: dict[str, int] = {}
        for deadline_id, seen, count in work.reminded:
            if not memory_deadlines.mark_reminded(memory.tables, deadline_id, seen, count):
                raise ConflictError(f"deadline {deadline_id}'s reminders were counted meanwhile")
        for deadline_id, status in work.closed:
            memory_deadlines.close(memory.tables, deadline_id, status)
        for held, seat, address in work.reseats:
            self._reseat(held, seat, address)
        for game in work.games:
            heads[game.game_id] = self._game(game)
        for stream in work.tournaments:
            self._tournament(stream)
        for new in work.players:
            memory.add_player(
                new.name,
                new.address,
                time_zone=new.time_zone,
                key_fingerprint=new.key_fingerprint,
                secret_hash=new.secret_hash,
            )
        for change in work.addresses:
            self._change_address(change)
        for seal in work.seals:
            if seal.digest in memory.tables.seals:
                msg = f"the seal {seal.digest[:12]}... was used by another mail meanwhile"
                raise ConflictError(msg)
            memory.tables.seals[seal.digest] = UsedSeal(memory.now(), inbound_id)
        about = game_id
        if about is None and guess and len(work.games) == 1:
            about = work.games[0].game_id
        for mail in work.mails:
            memory.add_mail(mail, inbound_id=inbound_id, game_id=about)
        for mail_id, reason in work.undelivered:
            self._undelivered(mail_id, reason)
        for said in work.statuses:
            self._status(said)
        if work.message is not None:
            done = work.message
            memory.settle(done.message_id, done.status, done.game_id, done.note)
        if work.heartbeat is not None:
            memory.tables.heartbeat = work.heartbeat
        return heads

    def _game(self, game: GameWrite) -> int:
        memory = self.memory
        if game.create:
            memory.add_game(game.game_id, record=game.record)
        for seat, address in game.seats:
            memory.seat(game.game_id, seat, address)
        seq = game.seq
        if game.events or game.record is not None:
            seq = memory.append(
                game.game_id, game.seq, game.events, record=game.record, state=game.state
            )
        for change in game.deadlines:
            memory_deadlines.apply(memory.tables, game.game_id, change, seq, memory.now())
        return seq

    def _tournament(self, stream: TournamentWrite) -> None:
        tournaments = self.memory.tables.tournaments
        if stream.director is not None:
            if stream.tournament_id in tournaments:
                raise TournamentExistsError(stream.tournament_id)
            tournaments[stream.tournament_id] = StoredTournament(normal_address(stream.director))
        found = tournaments.get(stream.tournament_id)
        if found is None:
            raise TournamentNotFoundError(stream.tournament_id)
        if stream.seq != len(found.events):
            msg = f"tournament {stream.tournament_id!r} is at event {len(found.events)}"
            raise ConflictError(msg)
        found.events.extend(stream.events)

    def _reseat(self, game_id: str, seat: str, address: str) -> None:
        stored = self.memory.tables.games.get(game_id)
        player = self.memory.player(address)
        if stored is None or player is None or seat not in stored.seats:
            msg = f"game {game_id!r} has no seat {seat!r} for {normal_address(address)!r}"
            raise StoreError(msg)
        if any(pid == player.id and s != seat for s, pid in stored.seats.items()):
            msg = f"{player.address!r} has another seat in game {game_id!r} already"
            raise StoreError(msg)
        stored.seats[seat] = player.id

    def _change_address(self, change: AddressChange) -> None:
        tables = self.memory.tables
        old, new = normal_address(change.old), normal_address(change.new)
        if change.what == ASK:
            tables.changes[old] = PendingAddressChange(
                old, new, change.token_hash, self.memory.now()
            )
        elif change.what == MOVE:
            player = self.memory.player(old)
            if self.memory.player(new) is not None or player is None:
                msg = f"the address {old!r} cannot move to {new!r} any more"
                raise ConflictError(msg)
            tables.players[player.id] = replace(player, address=new)
            tables.changes.pop(old, None)
            self._tournaments_follow(old, new)
        elif change.what == CANCEL:
            tables.changes.pop(old, None)
        else:
            raise UnknownChangeError(f"unknown address change {change.what!r}")

    def _tournaments_follow(self, old: str, new: str) -> None:
        """As ``store.tournaments.move_address``: every tournament that knows him records it."""
        for stored in (t for _, t in sorted(self.memory.tables.tournaments.items())):
            if stored.director == old:
                stored.director = new
            state = replay_tournament(stored.events)
            knows = (
                state.director == old
                or old in state.entrants
                or any(old in game.everyone for game in state.games.values())
            )
            if knows:
                at = self.memory.now().isoformat()
                stored.events.append(tev.AddressChanged(old=old, new=new, at=at))

    def _status(self, change: MailStatus) -> None:
        """As ``store.mail_status.apply``: only a row still as the decision saw it."""
        memory = self.memory
        if change.table == MAIL_OUT:
            found = memory.outbox_mail(change.id)
            if found is None or found.status != change.was:
                raise ConflictError(f"outbox mail {change.id} is no longer {change.was}")
            until = found.claimed_until
            if until is not None and until > memory.now():
                raise ConflictError(f"outbox mail {change.id} is held by a sender")
            fresh = change.status == PENDING
            attempts = 0 if fresh else found.attempts
            memory.tables.outbox[change.id - 1] = replace(
                found, status=change.status, attempts=attempts, claim=None, claimed_until=None
            )
            before = memory.tables.mail_errors.pop(change.id, None)
            note = change.note
            if note and change.status == DROPPED and before:
                note = f"{note} (after: {before})"
            if note:
                memory.tables.mail_errors[change.id] = note
            return
        message = memory.inbound_message(change.id)
        if message is None or message.status != change.was:
            raise ConflictError(f"inbound mail {change.id} is no longer {change.was}")
        memory.settle(change.id, change.status, message.game_id, change.note or "")

    def _undelivered(self, mail_id: int, reason: str) -> None:
        tables = self.memory.tables
        found = self.memory.outbox_mail(mail_id)
        if found is not None and found.status != UNDELIVERED:
            tables.outbox[mail_id - 1] = replace(found, status=UNDELIVERED)
            tables.mail_errors[mail_id] = reason

