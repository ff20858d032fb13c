"""
Deadlines: when a game, or one player in it, must have acted; and the service's
heartbeat.

A game has at most one open **acting** deadline (any kind but ``GAME_END``,
``ABSENCE_END``, ``BOUNCE_END`` and ``DIGEST``): it follows the player to act, and ``apply``
replaces it, in the transaction that changed the game, whenever its ``step`` changes.
``GAME_END`` is the game's end date (Wolff 21.1); ``ABSENCE_END`` the end of one player's
absence (its ``step`` names the absence); ``BOUNCE_END`` the end of the pause a bounce of
his mail gave one player's deadline (``step``: ``BOUNCE_STEP``); ``DIGEST`` the next daily
digest of a player who chose one (``schedule.notify``).  ``reminded`` counts the reminders already sent for a
deadline.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from moderator.rules.state import GameState
from moderator.schedule import timing
from moderator.schedule.record import GameRecord
from moderator.store.eventstore import Tx
from moderator.store.tables import CANCELLED, DEADLINE, DONE, DUE, SERVICE_STATE

__all__ = [
    "ABSENCE_END",
    "BOUNCE_END",
    "BOUNCE_STEP",
    "CANCELLED",
    "DIGEST",
    "DONE",
    "DUE",
    "GAME_END",
    "HEARTBEAT",
    "Deadline",
    "DeadlineChange",
    "apply",
    "beat",
    "close_deadline",
    "deadline",
    "deadline_change",
    "due_deadlines",
    "heartbeat",
    "mark_reminded",
    "open_deadlines",
    "set_deadline",
    "with_time_limits",
]

#: Kinds of deadline that do not follow the player to act.
GAME_END, ABSENCE_END, DIGEST = "game-end", "absence-end", "digest"
#: The end of a bounce's pause of a player's deadline, and the ``step`` of its row.
BOUNCE_END, BOUNCE_STEP = "bounce-end", "bounce"
_NOT_ACTING = (GAME_END, ABSENCE_END, BOUNCE_END, DIGEST)
#: The ``service_state`` row of the service's heartbeat.
HEARTBEAT = "heartbeat"


@dataclass(frozen=True, slots=True)
class Deadline:
    id: int
    game_id: str
    player: str | None
    kind: str
    due_at: datetime
    status: str
    step: str | None = None
    seq: int | None = None
    reminded: int = 0
    created_at: datetime | None = None

    @property
    def acting(self) -> bool:
        """Whether it follows the player to act (not a game's end, an absence's, a pause's)."""
        return self.kind not in _NOT_ACTING


@dataclass(frozen=True, slots=True)
class DeadlineChange:
    """
    A change to one of a game's deadlines, as a handler returns it (``apply`` makes it
    in the handler's transaction).  ``due_at`` None closes the deadline.

    - an acting ``kind``: the game's acting deadline is now this one (``step``); an open
      one for another step is cancelled, one for the same step moved to ``due_at``;
    - ``GAME_END``: the game's end date;
    - ``ABSENCE_END``: the end of ``player``'s absence named ``step``;
    - ``BOUNCE_END``: the end of ``player``'s bounce pause (``step``: ``BOUNCE_STEP``);
    - ``DIGEST``: ``player``'s next daily digest (``step``: ``digest``).
    """

    kind: str
    due_at: datetime | None
    player: str | None = None
    step: str | None = None
    reminded: int = 0


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
    found = open_deadlines(tx, game_id)
    if change.kind == GAME_END:
        same = [d for d in found if d.kind == GAME_END]
    elif change.kind in (ABSENCE_END, BOUNCE_END, DIGEST):
        same = [
            d
            for d in found
            if d.kind == change.kind and d.player == change.player and d.step == change.step
        ]
    else:
        same = [d for d in found if d.acting and d.step == change.step and change.step]
        for other in found:
            if other.acting and other not in same:
                close_deadline(tx, other.id, CANCELLED)
    for extra in same[1:]:
        close_deadline(tx, extra.id, CANCELLED)
    if same:
        _move(tx, same[0], change, seq)
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


def deadline_change(change: timing.Change | None) -> tuple[DeadlineChange, ...]:
    """The ``deadline`` table's change for a change of the acting deadline."""
    if change is None:
        return ()
    row = DeadlineChange(change.kind or "", change.due, change.player, change.key, change.reminded)
    return (row,)


# -- a game's time limits and the rows of its deadlines -----------------------------------


def with_time_limits(
    state: GameState,
    record: GameRecord,
    now: datetime,
    limits: timing.TimeLimits | None,
    ends_at: datetime | None = None,
) -> tuple[GameRecord, list[DeadlineChange]]:
    """
    A game's record with its time limits (and end date, Wolff 21.1) and the first
    deadline, and the ``deadline`` rows to write (``deadlines.apply``) once the game's
    events are stored.
    """
    changes: list[DeadlineChange] = []
    if limits is not None:
        record, change = timing.follow(state, record.but(time_limits=limits), now)
        changes.extend(deadline_change(change))
    if ends_at is not None:
        if ends_at.tzinfo is None:
            msg = f"a game's end date needs a time zone ({ends_at!r})"
            raise ValueError(msg)
        record = record.but(ends_at=ends_at)
        changes.append(DeadlineChange(GAME_END, ends_at))
    return record, changes
