"""
Inbound messages: archived as raw bytes before anything reads them, then processed
one at a time, each in one transaction.

``process_message`` is what the mail poller calls for each message it archived.  In
one transaction it claims the message, loads the game, lets the handler decide (the
message, the game's state and a read-only ``Lookup`` of the store in; events, mails,
the game's record, players to register and changes of address out), appends the
events, registers the players, changes the addresses, puts the mails in the outbox and
marks the message processed.  After a crash either
all of that is in the database or none of it, and the message is still ``received``.
If the handler raises, the message is ``shunted`` with the error, in a transaction
of its own, for a person to look at (``requeue`` puts it back once fixed).
"""

from __future__ import annotations

from collections.abc import Callable
from email.parser import BytesHeaderParser
from email.policy import compat32
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError

from moderator.rules.evolve import replay
from moderator.rules.state import GameState
from moderator.store import players
from moderator.store.errors import (
    ConflictError,
    GameNotFoundError,
    MessageNotFoundError,
    PlayerExistsError,
    retryable,
)
from moderator.store.eventstore import EventStore, Tx
from moderator.store.handling import (
    ASK,
    CANCEL,
    MOVE,
    AddressChange,
    GameContext,
    Handler,
    InboundMessage,
    Lookup,
    NewPlayer,
    Outcome,
    body_hash,
)
from moderator.store.outbox import OutgoingMail
from moderator.store.tables import INBOUND, PROCESSED, RECEIVED, REJECTED, SHUNTED
from moderator.store.unit_of_work import GameWrite, UnknownChangeError, Work, write

__all__ = [
    "ASK",
    "BUSY",
    "CANCEL",
    "MOVE",
    "PROCESSED",
    "RECEIVED",
    "REJECTED",
    "SHUNTED",
    "SKIPPED",
    "STEPS",
    "AddressChange",
    "GameContext",
    "Handler",
    "InboundMessage",
    "Lookup",
    "NewPlayer",
    "Outcome",
    "body_hash",
    "claim",
    "message",
    "messages",
    "pending_ids",
    "process_message",
    "receive",
    "requeue",
]


#: What ``process_message`` did with a message.  ``skipped``: another worker has it or
#: had it; ``busy``: its game is being changed by another worker (try again later).
SKIPPED, BUSY = "skipped", "busy"
#: The named moments of ``process_message`` at which ``checkpoint`` is called.
STEPS = ("after-claim", "after-events", "after-outbox", "before-commit", "after-commit")
#: How often a message is retried when its game moved on under it.
CONFLICT_RETRIES = 5


def header_message_id(raw: bytes) -> str | None:
    """The Message-ID header, if the headers can be read at all."""
    try:
        value = BytesHeaderParser(policy=compat32).parsebytes(raw).get("Message-ID")
    except (ValueError, TypeError, LookupError):
        return None
    return _clean(str(value)).strip() or None if value is not None else None


def _clean(text: str) -> str:
    """Text a database column takes (PostgreSQL refuses NUL characters)."""
    return text.replace("\x00", "\ufffd")


def receive(
    store: EventStore,
    raw: bytes,
    *,
    mailbox: str = "INBOX",
    uidvalidity: int | None = None,
    uid: int | None = None,
) -> int:
    """
    Archive a message as it came; returns its id.  The same mailbox UID (under the
    same UIDVALIDITY) is archived once: fetching it again returns the first id.
    """
    if uid is not None:
        existing = _by_uid(store, mailbox, uidvalidity, uid)
        if existing is not None:
            return existing
    try:
        with store.transaction() as tx:
            result = tx.connection.execute(
                insert(INBOUND)
                .values(
                    mailbox=mailbox,
                    uidvalidity=uidvalidity,
                    uid=uid,
                    message_id=header_message_id(raw),
                    body_hash=body_hash(raw),
                    raw=raw,
                    status=RECEIVED,
                    received_at=tx.now(),
                )
                .returning(INBOUND.c.id)
            )
            return int(result.scalar_one())
    except IntegrityError:
        existing = _by_uid(store, mailbox, uidvalidity, uid)
        if existing is None:
            raise
        return existing


def _by_uid(
    store: EventStore, mailbox: str, uidvalidity: int | None, uid: int | None
) -> int | None:
    with store.reading() as tx:
        found = tx.connection.execute(
            select(INBOUND.c.id).where(
                INBOUND.c.mailbox == mailbox,
                INBOUND.c.uidvalidity == uidvalidity,
                INBOUND.c.uid == uid,
            )
        ).first()
    return None if found is None else int(found[0])


def _message(row: Any) -> InboundMessage:
    return InboundMessage(
        row.id,
        bytes(row.raw),
        row.message_id,
        row.mailbox,
        row.uidvalidity,
        row.uid,
        row.status,
        row.game_id,
        row.error,
        row.received_at,
    )


def message(tx: Tx, message_id: int) -> InboundMessage:
    row = tx.connection.execute(select(INBOUND).where(INBOUND.c.id == message_id)).first()
    if row is None:
        msg = f"there is no inbound message {message_id!r}"
        raise MessageNotFoundError(msg)
    return _message(row)


def messages(tx: Tx, status: str | None = None) -> list[InboundMessage]:
    query = select(INBOUND).order_by(INBOUND.c.id)
    if status is not None:
        query = query.where(INBOUND.c.status == status)
    return [_message(row) for row in tx.connection.execute(query)]


def claim(tx: Tx, message_id: int) -> InboundMessage | None:
    """
    Take a ``received`` message for processing in ``tx``; None if it is not there to
    take.  The claim is the status change itself (``received`` -> ``processed``, made
    final before commit); on PostgreSQL the row is first locked with ``SKIP LOCKED`` so
    that a second worker passes over it instead of waiting.
    """
    if tx.dialect == "postgresql":
        locked = tx.connection.execute(
            select(INBOUND.c.id).where(INBOUND.c.id == message_id).with_for_update(skip_locked=True)
        ).first()
        if locked is None:
            message(tx, message_id)  # raises if there is no such message at all
            return None
    claimed = tx.connection.execute(
        update(INBOUND)
        .where(INBOUND.c.id == message_id, INBOUND.c.status == RECEIVED)
        .values(status=PROCESSED, processed_at=tx.now())
    )
    found = message(tx, message_id)
    return found if claimed.rowcount == 1 else None


class _BusyError(Exception):
    """The message's game is held by another worker."""


class _HandlerFailedError(Exception):
    """The handler (or the events it returned) failed: the message is shunted."""


def process_message(
    store: EventStore,
    message_id: int,
    handler: Handler,
    *,
    checkpoint: Callable[[str], None] | None = None,
    gm_address: str | None = None,
) -> str:
    """
    Process one inbound message in one transaction; returns its new status
    (``processed``, ``rejected``, ``shunted``) or ``skipped`` / ``busy``.

    ``checkpoint(step)`` is called at each of ``STEPS`` (tests crash or pause there).
    When the message is shunted and ``gm_address`` is given, a notice goes to it.

    Raises:
        MessageNotFoundError: there is no such message.
    """
    step = checkpoint or (lambda _name: None)
    for _ in range(CONFLICT_RETRIES):
        try:
            with store.transaction() as tx:
                status = _process(tx, message_id, handler, step)
        except (ConflictError, DBAPIError) as exc:
            if not retryable(exc):
                raise
            continue  # the game moved on under us, or a deadlock: decide again afresh
        except _BusyError:
            return BUSY
        except _HandlerFailedError as exc:
            return _shunt(store, message_id, exc.__cause__ or exc, gm_address)
        if status != SKIPPED:
            step("after-commit")
        return status
    return _shunt(store, message_id, ConflictError("the game kept moving on"), gm_address)


def _process(tx: Tx, message_id: int, handler: Handler, step: Callable[[str], None]) -> str:
    message = claim(tx, message_id)
    if message is None:
        return SKIPPED
    step("after-claim")
    try:
        game_id = handler.game_of(message)
    except Exception as exc:  # whatever the handler raises shunts the message
        raise _HandlerFailedError from exc
    context = _context(tx, game_id) if game_id is not None else None
    try:
        outcome = handler.handle(message, context, Lookup(tx))
        state = replay(outcome.events, context.state) if context and outcome.events else None
    except Exception as exc:  # whatever the handler raises shunts the message
        if retryable(exc):
            raise  # what the handler wrote through the lookup lost a race: decide again
        raise _HandlerFailedError from exc
    if outcome.events and context is None:
        raise _HandlerFailedError from ValueError("the handler gave events for no game")
    work = Work(
        games=(_game_write(context, outcome, state),) if context is not None else (),
        players=outcome.players,
        addresses=outcome.addresses,
        seals=outcome.seals,
        tournaments=outcome.tournaments,
    )
    try:
        write(tx, work, inbound_id=message.id)
    except (PlayerExistsError, UnknownChangeError) as exc:  # e.g. registered meanwhile
        raise _HandlerFailedError from exc
    step("after-events")
    write(tx, Work(mails=outcome.mails), inbound_id=message.id, game_id=game_id)
    step("after-outbox")
    status = REJECTED if outcome.rejected else PROCESSED
    tx.connection.execute(
        update(INBOUND)
        .where(INBOUND.c.id == message.id)
        .values(status=status, game_id=game_id, error=_clean(outcome.note) or None)
    )
    step("before-commit")
    return status


def _game_write(context: GameContext, outcome: Outcome, state: GameState | None) -> GameWrite:
    """The game's part of the handler's outcome (its deadlines only with a change)."""
    changed = bool(outcome.events) or outcome.record is not None
    return GameWrite(
        context.game_id,
        context.seq,
        outcome.events,
        record=outcome.record,
        state=state,
        deadlines=outcome.deadlines if changed else (),
    )


def _context(tx: Tx, game_id: str) -> GameContext | None:
    try:
        row = tx.game(game_id, lock=True, skip_locked=True)
    except GameNotFoundError:
        return None
    if row is None:
        raise _BusyError(game_id)
    loaded = tx.load(game_id)
    return GameContext(game_id, loaded.state, loaded.seq, loaded.record, players.seats(tx, game_id))


def _shunt(store: EventStore, message_id: int, error: BaseException, gm: str | None) -> str:
    text = _clean(f"{type(error).__name__}: {error}")
    with store.transaction() as tx:
        moved = tx.connection.execute(
            update(INBOUND)
            .where(INBOUND.c.id == message_id, INBOUND.c.status == RECEIVED)
            .values(status=SHUNTED, error=text, processed_at=tx.now())
        )
        if moved.rowcount != 1:
            return SKIPPED  # another worker got to it first
        if gm is not None:
            notice = OutgoingMail(
                gm,
                f"Message {message_id} was shunted",
                f"Inbound message {message_id} could not be processed and waits for you:\n"
                f"{text}\n\nAfter fixing the cause: titan-moderator db requeue {message_id}\n",
            )
            write(tx, Work(mails=(notice,)))  # not the message's reply: that may come later
    return SHUNTED


def requeue(store: EventStore, message_id: int) -> bool:
    """Put a shunted message back to ``received``; False if it was not shunted."""
    with store.transaction() as tx:
        message(tx, message_id)
        moved = tx.connection.execute(
            update(INBOUND)
            .where(INBOUND.c.id == message_id, INBOUND.c.status == SHUNTED)
            .values(status=RECEIVED, error=None, processed_at=None)
        )
        return moved.rowcount == 1


def pending_ids(store: EventStore, limit: int = 100) -> list[int]:
    with store.reading() as tx:
        rows = tx.connection.execute(
            select(INBOUND.c.id)
            .where(INBOUND.c.status == RECEIVED)
            .order_by(INBOUND.c.id)
            .limit(limit)
        )
        return [int(r[0]) for r in rows]
