"""
The operator's one look at his service (``titan-moderator status``): read from the
store alone, in one read-only transaction, a few counting queries and no game replayed,
so it answers at once whether the service runs or not.

What it shows is what the store keeps: the poller's lock (who reads the mailbox, since
when, its last heartbeat), the deadline check's own heartbeat, the outbox and the
inbound mail by state, the games by state (over: a ``game-over`` event is stored;
paused: the operator's or a director's pause is in the game's record; else running),
the next deadlines due, and the last errors kept with the mail (a failed mail's last
error, a shunted mail's reason).  The service's log is not in the store, so nothing of
it is shown.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from moderator.ports.deadlines import DUE
from moderator.ports.mail import FAILED, HELD, REJECTED, SHUNTED
from moderator.records import record
from moderator.store.deadlines import heartbeat
from moderator.store.eventstore import Tx
from moderator.store.tables import DEADLINE, EVENT, GAME, INBOUND, OUTBOX, POLLER_LOCK

#: How many of the next deadlines, and of the last errors, are shown.
SHOWN = 5
OVER = "game-over"


@record
class Poller:
    """A ``serve`` holding a mailbox's poller lock (``store.poller_lock``)."""

    mailbox: str
    host: str
    pid: int
    started: datetime
    heartbeat: datetime


@record
class Status:
    """What ``status`` prints."""

    pollers: tuple[Poller, ...]
    checked: datetime | None  # the deadline check's last heartbeat
    outbox: dict[str, int]  # mails by status (pending, sent, failed, undelivered...)
    inbound: dict[str, int]  # by status, ``held`` counted apart from ``rejected``
    games: dict[str, int]  # running, paused, over
    paused: tuple[str, ...]  # the paused games
    deadlines: tuple[tuple[datetime, str, str | None, str], ...]  # due, game, player, kind
    errors: tuple[tuple[datetime | None, str, str], ...]  # when (if kept), which mail, error


def status(tx: Tx) -> Status:
    """The service as the store shows it now."""
    c = tx.connection
    pollers = tuple(
        Poller(r.mailbox, r.host, r.pid, r.started_at, r.heartbeat_at)
        for r in c.execute(select(POLLER_LOCK).order_by(POLLER_LOCK.c.mailbox))
    )
    outbox = _counts(c, OUTBOX.c.status)
    inbound = _counts(c, INBOUND.c.status)
    held = c.execute(
        select(func.count()).where(INBOUND.c.status == REJECTED, INBOUND.c.error.like(f"{HELD}%"))
    ).scalar_one()
    if held:
        inbound["held"] = held
        inbound[REJECTED] -= held
        if not inbound[REJECTED]:
            del inbound[REJECTED]
    over = {row[0] for row in c.execute(select(EVENT.c.game_id).where(EVENT.c.type == OVER))}
    games = {"running": 0, "paused": 0, "over": 0}
    paused: list[str] = []
    for game_id, kept in c.execute(select(GAME.c.id, GAME.c.record).order_by(GAME.c.id)):
        if game_id in over:
            games["over"] += 1
        elif (kept or {}).get("paused"):
            games["paused"] += 1
            paused.append(game_id)
        else:
            games["running"] += 1
    due = c.execute(
        select(DEADLINE.c.due_at, DEADLINE.c.game_id, DEADLINE.c.player, DEADLINE.c.kind)
        .where(DEADLINE.c.status == DUE)
        .order_by(DEADLINE.c.due_at, DEADLINE.c.id)
        .limit(SHOWN)
    )
    return Status(
        pollers, heartbeat(tx), outbox, inbound, games, tuple(paused),
        tuple((r[0], r[1], r[2], r[3]) for r in due), _errors(c),
    )


def _counts(c: Any, column: Any) -> dict[str, int]:
    rows = c.execute(select(column, func.count()).group_by(column).order_by(column))
    return {str(state): int(n) for state, n in rows}


def _errors(c: Any) -> tuple[tuple[datetime | None, str, str], ...]:
    """
    The last errors kept with the mail, newest first: failed outbox mail (when it failed
    is not kept: None), then shunted inbound mail (when it was shunted).
    """
    failed = c.execute(
        select(OUTBOX.c.id, OUTBOX.c.recipient, OUTBOX.c.last_error)
        .where(OUTBOX.c.status == FAILED, OUTBOX.c.last_error.is_not(None))
        .order_by(OUTBOX.c.id.desc())
        .limit(SHOWN)
    )
    found: list[tuple[datetime | None, str, str]] = [
        (None, f"outbox mail {n} to {to} failed", str(error)) for n, to, error in failed
    ]
    shunted = c.execute(
        select(INBOUND.c.id, INBOUND.c.processed_at, INBOUND.c.received_at, INBOUND.c.error)
        .where(INBOUND.c.status == SHUNTED)
        .order_by(INBOUND.c.id.desc())
        .limit(SHOWN)
    )
    found.extend(
        (done or came, f"inbound mail in-{n} shunted", str(error or "no reason kept"))
        for n, done, came, error in shunted
    )
    return tuple(found)


__all__ = ["SHOWN", "Poller", "Status", "status"]
