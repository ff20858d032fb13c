"""
The one writer: a ``Work`` (what a use case decided, ``moderator.ports.writes``)
applied in the caller's transaction.  Every change to a stream goes through ``write``:
a game's events, its record and deadlines, a new game with its seats, a tournament's
events, players to register, changes of address, seals, outbox rows, the rows a
bounce showed undelivered and the mails the operator retried or dropped.  Use cases decide and return; only this module makes their decisions
durable, all of them together or none.

A write is optimistic per stream: each ``GameWrite``/``TournamentWrite`` carries the
sequence number its decision was made on, and a stream that moved on meanwhile raises
``ConflictError`` (the caller decides again), so a decision on a stale state never
lands.
"""

from __future__ import annotations

from sqlalchemy import bindparam, update

from moderator.ports.errors import ConflictError, UnknownChangeError
from moderator.ports.writes import ASK, CANCEL, MOVE, AddressChange, GameWrite, MessageDone, Work
from moderator.rules.evolve import replay
from moderator.schedule.record import GameRecord
from moderator.store import deadlines, mail_status, players, seals, tournaments
from moderator.store.eventstore import Tx
from moderator.store.outbox import add_mails, mark_undelivered
from moderator.store.tables import INBOUND

#: Built once (every mail ends with it): see ``store.eventstore``.
_SETTLE = (
    update(INBOUND)
    .where(INBOUND.c.id == bindparam("inbound_id"))
    .values(status=bindparam("new_status"), game_id=bindparam("about"), error=bindparam("note"))
)


def write(
    tx: Tx,
    work: Work,
    *,
    inbound_id: int | None = None,
    game_id: str | None = None,
    guess: bool = True,
) -> dict[str, int]:
    """
    Apply ``work`` in ``tx``; returns each written game's new last sequence number.
    The mails are tied to ``inbound_id`` (the mail that caused them) and ``game_id``
    (the game they are about), when given; without ``game_id`` and with ``guess``, to
    the one game the work changes, if it changes one.

    Raises:
        ConflictError: a stream is no longer at the number the decision was made on.
        StoreError: a seat to hand over is not held as the decision thought.
        GameExistsError, TournamentExistsError, PlayerExistsError: a new one is taken.
    """
    heads: dict[str, int] = {}
    for deadline_id, seen, count in work.reminded:
        if not deadlines.mark_reminded(tx, deadline_id, seen, count):
            raise ConflictError(f"deadline {deadline_id}'s reminders were counted meanwhile")
    for deadline_id, status in work.closed:
        deadlines.close_deadline(tx, deadline_id, status)
    for held, seat, address in work.reseats:
        tournaments.reseat(tx, held, seat, address)
    for game in work.games:
        heads[game.game_id] = _game(tx, game)
    for stream in work.tournaments:
        if stream.director is not None:
            tournaments.create(tx, stream.tournament_id, stream.director)
        tournaments.append(tx, stream.tournament_id, stream.seq, stream.events)
    for new in work.players:
        players.add_player(
            tx,
            new.name,
            new.address,
            time_zone=new.time_zone,
            key_fingerprint=new.key_fingerprint,
            secret_hash=new.secret_hash,
        )
    for change in work.addresses:
        _change_address(tx, change)
    for seal in work.seals:
        seals.record(tx, seal, inbound_id)  # a ConflictError: decided again, and refused
    about = game_id
    if about is None and guess and len(work.games) == 1:
        about = work.games[0].game_id
    add_mails(tx, work.mails, inbound_id=inbound_id, game_id=about)
    for mail_id, reason in work.undelivered:
        mark_undelivered(tx, mail_id, reason)
    for said in work.statuses:
        mail_status.apply(tx, said)
    if work.message is not None:
        _settle(tx, work.message)
    if work.heartbeat is not None:
        deadlines.beat(tx, work.heartbeat)
    return heads


def _settle(tx: Tx, done: MessageDone) -> None:
    note = done.note.replace("\x00", "\ufffd")  # PostgreSQL refuses NUL characters
    tx.connection.execute(
        _SETTLE,
        {"inbound_id": done.message_id, "new_status": done.status, "about": done.game_id,
         "note": note or None},
    )


def _game(tx: Tx, game: GameWrite) -> int:
    if game.create:
        tx.create_game(game.game_id, game.record or GameRecord())
    for seat, address in game.seats:
        players.seat_player(tx, game.game_id, seat, address)
    seq = game.seq
    if game.events or game.record is not None:
        state = game.state
        if state is None and game.events and game.seq == 0:
            state = replay(game.events)
        seq = tx.append(game.game_id, game.seq, game.events, record=game.record, state=state)
    for change in game.deadlines:
        deadlines.apply(tx, game.game_id, change, seq)
    return seq


def _change_address(tx: Tx, change: AddressChange) -> None:
    """Raises ``ConflictError`` (decide again) when the move lost a race."""
    if change.what == ASK:
        players.ask_address_change(tx, change.old, change.new, change.token_hash)
    elif change.what == MOVE:
        players.move_player(tx, change.old, change.new)
        tournaments.move_address(tx, change.old, change.new)
    elif change.what == CANCEL:
        players.drop_address_change(tx, change.old)
    else:
        raise UnknownChangeError(f"unknown address change {change.what!r}")


__all__ = ["write"]
