"""
Deadlines in the store: the rows of when a game, or one player in it, must have acted,
and the service's heartbeat.  What a deadline is (its kinds, states and the
``DeadlineChange`` a use case returns) is the ports' (``moderator.ports.deadlines``).

A game has at most one open **acting** deadline: ``apply`` replaces it, in the
transaction that changed the game, whenever its ``step`` changes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from moderator.ports.deadlines import (
    CANCELLED,
    DUE,
    Deadline,
    DeadlineChange,
    rows_touched,
)
from moderator.store.eventstore import Tx
from moderator.store.tables import DEADLINE, SERVICE_STATE

__all__ = [
    "HEARTBEAT",
    "apply",
    "beat",
    "close_deadline",
    "deadline",
    "due_deadlines",
    "heartbeat",
    "mark_reminded",
    "open_deadlines",
    "set_deadline",
]

#: The ``service_state`` row of the service's heartbeat.
HEARTBEAT = "heartbeat"


def _deadline(r: Any) -> Deadline:
    return Deadline(
        r.id,
        r.game_id,
        r.player,
        r.kind,
        r.due_at,
        r.status,
        r.step,
        r.seq,
        int(r.reminded or 0),
        r.created_at,
    )


def set_deadline(
    tx: Tx,
    game_id: str,
    kind: str,
    due_at: datetime,
    player: str | None = None,
    *,
    step: str | None = None,
    seq: int | None = None,
    reminded: int = 0,
) -> int:
    """Record a deadline; returns its id."""
    tx.game(game_id)
    result = tx.connection.execute(
        insert(DEADLINE)
        .values(
            game_id=game_id,
            player=player,
            kind=kind,
            due_at=due_at,
            status=DUE,
            created_at=tx.now(),
            step=step,
            seq=seq,
            reminded=reminded,
        )
        .returning(DEADLINE.c.id)
    )
    return int(result.scalar_one())


def deadline(tx: Tx, deadline_id: int) -> Deadline | None:
    row = tx.connection.execute(select(DEADLINE).where(DEADLINE.c.id == deadline_id)).first()
    return None if row is None else _deadline(row)


def open_deadlines(tx: Tx, game_id: str | None = None) -> list[Deadline]:
    """Deadlines not yet closed (of one game, or all), earliest first."""
    query = select(DEADLINE).where(DEADLINE.c.status == DUE)
    if game_id is not None:
        query = query.where(DEADLINE.c.game_id == game_id)
    rows = tx.connection.execute(query.order_by(DEADLINE.c.due_at, DEADLINE.c.id))
    return [_deadline(r) for r in rows]


def due_deadlines(tx: Tx, now: datetime | None = None) -> list[Deadline]:
    """Deadlines not yet closed whose moment has come, earliest first."""
    moment = now or tx.now()
    rows = tx.connection.execute(
        select(DEADLINE)
        .where(DEADLINE.c.status == DUE, DEADLINE.c.due_at <= moment)
        .order_by(DEADLINE.c.due_at, DEADLINE.c.id)
    )
    return [_deadline(r) for r in rows]


def close_deadline(tx: Tx, deadline_id: int, status: str) -> bool:
    """Mark a deadline ``done`` or ``cancelled``; False if it was closed already."""
    result = tx.connection.execute(
        update(DEADLINE)
        .where(DEADLINE.c.id == deadline_id, DEADLINE.c.status == DUE)
        .values(status=status)
    )
    return result.rowcount == 1


def mark_reminded(tx: Tx, deadline_id: int, seen: int, reminded: int) -> bool:
    """Record that the reminders up to ``reminded`` are sent; False if another process
    did it first (the count is no longer ``seen``) or the deadline is closed."""
    result = tx.connection.execute(
        update(DEADLINE)
        .where(
            DEADLINE.c.id == deadline_id, DEADLINE.c.status == DUE, DEADLINE.c.reminded == seen
        )
        .values(reminded=reminded)
    )
    return result.rowcount == 1


def _move(tx: Tx, found: Deadline, change: DeadlineChange, seq: int | None) -> None:
    if change.due_at is None:
        close_deadline(tx, found.id, CANCELLED)
    elif found.due_at != change.due_at or found.reminded != change.reminded:
        tx.connection.execute(
            update(DEADLINE)
            .where(DEADLINE.c.id == found.id)
            .values(due_at=change.due_at, reminded=change.reminded, seq=seq)
        )


def apply(tx: Tx, game_id: str, change: DeadlineChange, seq: int | None = None) -> None:
    """Make ``change`` to the game's deadlines (see ``DeadlineChange``)."""
    kept, cancelled = rows_touched(open_deadlines(tx, game_id), change)
    for row in cancelled:
        close_deadline(tx, row.id, CANCELLED)
    if kept is not None:
        _move(tx, kept, change, seq)
    elif change.due_at is not None:
        set_deadline(
            tx,
            game_id,
            change.kind,
            change.due_at,
            change.player,
            step=change.step,
            seq=seq,
            reminded=change.reminded,
        )


# -- the service's heartbeat -------------------------------------------------------------


def heartbeat(tx: Tx) -> datetime | None:
    """When the service last checked its deadlines (None: never)."""
    row = tx.connection.execute(
        select(SERVICE_STATE.c.at).where(SERVICE_STATE.c.name == HEARTBEAT)
    ).first()
    return None if row is None else row[0]


def beat(tx: Tx, now: datetime) -> None:
    """Record that the service is alive at ``now``."""
    moved = tx.connection.execute(
        update(SERVICE_STATE).where(SERVICE_STATE.c.name == HEARTBEAT).values(at=now)
    )
    if moved.rowcount == 0:
        try:
            with tx.connection.begin_nested():
                tx.connection.execute(insert(SERVICE_STATE).values(name=HEARTBEAT, at=now))
        except IntegrityError:  # another process wrote the first beat meanwhile
            tx.connection.execute(
                update(SERVICE_STATE).where(SERVICE_STATE.c.name == HEARTBEAT).values(at=now)
            )
