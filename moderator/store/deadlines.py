"""Deadlines: when a game, or one player in it, must have acted."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import insert, select, update

from moderator.store.eventstore import Tx
from moderator.store.tables import CANCELLED, DEADLINE, DONE, DUE

__all__ = [
    "CANCELLED",
    "DONE",
    "DUE",
    "Deadline",
    "close_deadline",
    "due_deadlines",
    "set_deadline",
]


@dataclass(frozen=True, slots=True)
class Deadline:
    id: int
    game_id: str
    player: str | None
    kind: str
    due_at: datetime
    status: str


def set_deadline(
    tx: Tx, game_id: str, kind: str, due_at: datetime, player: str | None = None
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
        )
        .returning(DEADLINE.c.id)
    )
    return int(result.scalar_one())


def due_deadlines(tx: Tx, now: datetime | None = None) -> list[Deadline]:
    """Deadlines not yet closed whose moment has come, earliest first."""
    moment = now or tx.now()
    rows = tx.connection.execute(
        select(DEADLINE)
        .where(DEADLINE.c.status == DUE, DEADLINE.c.due_at <= moment)
        .order_by(DEADLINE.c.due_at, DEADLINE.c.id)
    )
    return [Deadline(r.id, r.game_id, r.player, r.kind, r.due_at, r.status) for r in rows]


def close_deadline(tx: Tx, deadline_id: int, status: str) -> bool:
    """Mark a deadline ``done`` or ``cancelled``; False if it was closed already."""
    result = tx.connection.execute(
        update(DEADLINE)
        .where(DEADLINE.c.id == deadline_id, DEADLINE.c.status == DUE)
        .values(status=status)
    )
    return result.rowcount == 1
