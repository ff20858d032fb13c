"""
One archived mail processed: the mail runner, which the poller and the worker call for
each message (Mailman's runners, Cosmic Python's message bus, in small).

In one transaction ``process_message`` claims the message (``store.inbox.claim``),
holds its game (``store.inbox.context``), lets the handler decide (the message, the
game as it stands, a read-only ``Lookup`` and the time in; an ``Outcome`` out) and
applies the outcome through the unit of work (``runners.unit.apply``): events, the
game's record and deadlines (and other games' records: a bounce, undelivered mail
cleared; then the orders of robots holding seats to act, with a handler that has
``robot_turns``), players, changes of address, seals, tournament events, outbox rows (and those
a bounce showed undelivered) and the message's new state together.  A mail's
tournament lines come as outcomes that follow one another (``Outcome.then``): each is
applied before the next line is decided, in the same transaction.  After a crash either
all of that is in the database or none of it, and the message is still ``received``.
A stream that moved on meanwhile (or a deadlock) decides the message again; a handler
that raises sets the message aside (``shunted``) for a person to look at.

Before its transaction the mail is read once (``read_ahead``: the handler's
``read_ahead`` or ``game_of``, which parses it and checks its signature): the handler
keeps that reading for the transaction's calls, so GnuPG does not run while the
transaction holds SQLite's one write lock (the sender's claims waited for it, issue
28).  The poller reads the next mail so while this one is decided, in another thread
(``process_message(..., read=False)`` then); nothing is decided or written in a
reading, and the handler uses one only while the keyring is as it was when the reading
was made (``moderator.usecases.mail.readings``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import datetime
from typing import Protocol

from sqlalchemy.exc import DBAPIError

from moderator.ports import (
    ConflictError,
    GameContext,
    InboundMessage,
    Lookup,
    MessageDone,
    Outcome,
    PlayerExistsError,
    UnknownChangeError,
)
from moderator.ports.mail import PROCESSED, REJECTED
from moderator.rules.variant import UnknownVariantError
from moderator.runners import unit
from moderator.store import inbox
from moderator.store.errors import retryable
from moderator.store.eventstore import EventStore, Tx
from moderator.store.handling import SqlLookup

#: What ``process_message`` did with a message besides its new status.  ``skipped``:
#: another worker has it or had it; ``busy``: its game is being changed by another
#: worker (try again later).
SKIPPED, BUSY = inbox.SKIPPED, "busy"
#: The named moments of ``process_message`` at which ``checkpoint`` is called.
#: ``after-events``: the decision is written (events, outbox rows, the message's state).
STEPS = ("after-claim", "after-events", "before-commit", "after-commit")
#: How often a message is decided again when its game moved on under it.
CONFLICT_RETRIES = unit.CONFLICT_RETRIES


class Handler(Protocol):
    """What decides a mail (``moderator.usecases.mail.handler.MailGameHandler``)."""

    def game_of(self, message: InboundMessage) -> str | None:
        """The game the message is for, from its text alone (None: no game named)."""

    def handle(
        self, message: InboundMessage, game: GameContext | None, lookup: Lookup, now: datetime
    ) -> Outcome:
        """
        Decide what the message does at ``now`` (``game`` is None if it names no known
        game); ``lookup`` reads the store in the message's transaction.
        """


class _HandlerFailedError(Exception):
    """The handler (or the events it returned) failed: the message is shunted."""


def process_message(
    store: EventStore,
    message_id: int,
    handler: Handler,
    *,
    checkpoint: Callable[[str], None] | None = None,
    gm_address: str | None = None,
    read: bool = True,
) -> str:
    """
    Process one inbound message in one transaction; returns its new status
    (``processed``, ``rejected``, ``shunted``) or ``skipped`` / ``busy``.

    ``checkpoint(step)`` is called at each of ``STEPS`` (tests crash or pause there).
    When the message is shunted and ``gm_address`` is given, a notice goes to it.
    ``read``: read the mail ahead of its transaction first (False: the caller did,
    ``read_ahead``).

    Raises:
        MessageNotFoundError: there is no such message.
    """
    step = checkpoint or (lambda _name: None)
    if read:
        read_ahead(store, message_id, handler)
    for _ in range(CONFLICT_RETRIES):
        try:
            with store.transaction() as tx:
                status = _process(tx, message_id, handler, step)
        except (ConflictError, DBAPIError) as exc:
            if not retryable(exc):
                raise
            continue  # the game moved on under us, or a deadlock: decide again afresh
        except inbox.GameBusyError:
            return BUSY
        except _HandlerFailedError as exc:
            return inbox.shunt(store, message_id, exc.__cause__ or exc, gm_address)
        if status != SKIPPED:
            step("after-commit")
        return status
    return inbox.shunt(store, message_id, ConflictError("the game kept moving on"), gm_address)


def read_raw_ahead(handler: Handler, raw: bytes) -> bool:
    """
    The handler's reading of a mail's bytes (archived or not yet), kept for its
    transaction; False: this handler reads nothing ahead.  Never raises: what failed
    here fails again in the transaction and is dealt with there.
    """
    read = getattr(handler, "read_ahead", None)
    if read is None:
        return False
    with contextlib.suppress(Exception):
        read(raw)
    return True


def read_ahead(store: EventStore, message_id: int, handler: Handler) -> None:
    """
    The handler's reading of a mail still waiting, outside any write transaction (see
    the module's text); whatever fails here fails again in the transaction and is
    dealt with there.
    """
    with contextlib.suppress(Exception):
        message = inbox.waiting(store, message_id)
        if message is not None and not read_raw_ahead(handler, message.raw):
            handler.game_of(message)


def _process(tx: Tx, message_id: int, handler: Handler, step: Callable[[str], None]) -> str:
    message = inbox.claim(tx, message_id)
    if message is None:
        return SKIPPED
    step("after-claim")
    try:
        game_id = handler.game_of(message)
    except Exception as exc:  # whatever the handler raises shunts the message
        raise _HandlerFailedError from exc
    try:
        context = inbox.context(tx, game_id) if game_id is not None else None
    except UnknownVariantError as exc:  # an own variant missing or changed: a person must act
        raise _HandlerFailedError from exc
    lookup, now = SqlLookup(tx), tx.now()
    try:
        outcome = handler.handle(message, context, lookup, now)
    except Exception as exc:  # whatever the handler raises shunts the message
        if retryable(exc):
            raise  # what the handler read lost a race: decide again
        raise _HandlerFailedError from exc

    def done(merged: Outcome) -> MessageDone:
        status = REJECTED if merged.rejected else PROCESSED
        return MessageDone(message.id, status, game_id, merged.note)

    try:
        applied = unit.apply(
            tx, lookup, outcome, now, game=context, inbound_id=message.id, about=game_id,
            done=done, robots=getattr(handler, "robot_turns", None),
        )
    except (PlayerExistsError, UnknownChangeError, unit.DecisionError) as exc:
        raise _HandlerFailedError from exc  # e.g. registered meanwhile
    step("after-events")
    step("before-commit")
    return REJECTED if applied.rejected else PROCESSED


__all__ = [
    "BUSY", "CONFLICT_RETRIES", "SKIPPED", "STEPS", "Handler", "process_message", "read_ahead",
    "read_raw_ahead",
]
