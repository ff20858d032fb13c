"""
The in-memory store's deadline rows and heartbeat: what ``moderator.store.deadlines``
does to its table, done to ``Tables``, so that the clock's use cases (``due_now``,
``deadline_due``, the outages) run on memory as on SQL.  The Lookup contract suite
(``tests/store/test_lookup_contract.py``) holds the two to the same rows.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

from moderator.ports.deadlines import (
    CANCELLED,
    DUE,
    Deadline,
    DeadlineChange,
    rows_touched,
)
from moderator.ports.errors import GameNotFoundError
from moderator.testing.memory_tables import Tables

__all__ = ["apply", "close", "mark_reminded", "open_rows"]


def open_rows(tables: Tables, game_id: str | None = None) -> list[Deadline]:
    """Rows not yet closed (of one game, or all), earliest first, as the SQL store orders them."""
    rows = [
        row
        for row in tables.deadlines.values()
        if row.status == DUE and (game_id is None or row.game_id == game_id)
    ]
    return sorted(rows, key=lambda row: (row.due_at, row.id))


def close(tables: Tables, deadline_id: int, status: str) -> bool:
    """Mark a row ``done`` or ``cancelled``; False if it was closed already (or is none)."""
    row = tables.deadlines.get(deadline_id)
    if row is None or row.status != DUE:
        return False
    tables.deadlines[deadline_id] = dataclasses.replace(row, status=status)
    return True


def mark_reminded(tables: Tables, deadline_id: int, seen: int, reminded: int) -> bool:
    """The reminders up to ``reminded`` sent; False if the count is no longer ``seen``
    (another worker counted them) or the row is closed."""
    row = tables.deadlines.get(deadline_id)
    if row is None or row.status != DUE or row.reminded != seen:
        return False
    tables.deadlines[deadline_id] = dataclasses.replace(row, reminded=reminded)
    return True


def apply(
    tables: Tables, game_id: str, change: DeadlineChange, seq: int | None, now: datetime
) -> None:
    """Make ``change`` to the game's rows, as ``store.deadlines.apply`` does at ``now``."""
    if game_id not in tables.games:
        raise GameNotFoundError(game_id)
    kept, cancelled = rows_touched(open_rows(tables, game_id), change)
    for row in cancelled:
        close(tables, row.id, CANCELLED)
    if kept is not None:
        _move(tables, kept, change, seq)
    elif change.due_at is not None:
        row_id = max(tables.deadlines, default=0) + 1
        tables.deadlines[row_id] = Deadline(
            row_id,
            game_id,
            change.player,
            change.kind,
            change.due_at,
            DUE,
            change.step,
            seq,
            change.reminded,
            now,
        )


def _move(tables: Tables, row: Deadline, change: DeadlineChange, seq: int | None) -> None:
    if change.due_at is None:
        close(tables, row.id, CANCELLED)
    elif row.due_at != change.due_at or row.reminded != change.reminded:
        moved = dataclasses.replace(row, due_at=change.due_at, reminded=change.reminded, seq=seq)
        tables.deadlines[row.id] = moved
